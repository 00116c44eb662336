// New regions (Florida Keys): each answers conditions offline from its seasonal norms and live from
// the upstream emulator, is listed by the coverage endpoint with its own bbox, excludes the spots
// its protected areas close to spearfishing, and names its nearest spot for a point across an ocean.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { ConditionsSchema, type ConditionsJson } from "../src/schemas/conditions.js";
import type { RecommendationJson } from "../src/schemas/decisions.js";
import { startService, type TestService } from "./helpers/service.js";
import { liveRuns } from "./helpers/live.js";
import { connectClient } from "./helpers/mcp.js";
import { supportByRule, expectSpotsInsideBbox, type CoverageRegion } from "./helpers/regions.js";


/** One spot per new region, with the tide station its record names. */
const NEW_REGIONS = [{ region: "us-fl-keys", spot: "molasses-reef", station: "8723689", climatology: "climatology:us-fl-keys" }] as const;

let published: TestService;
let ranked: TestService;
beforeAll(async () => {
  published = await startService({ catalog: Catalog.load() });
  ranked = await startService();
});
afterAll(async () => {
  await published?.close();
  await ranked?.close();
});

describe("coverage", () => {
  it("lists each new region as its calibration earns, with a bbox that holds all its spots", async () => {
    const { status, body } = await published.json<{ regions: CoverageRegion[] }>("/api/v1/coverage");
    expect(status).toBe(200);
    for (const { region } of NEW_REGIONS) {
      const r = body.regions.find((x) => x.id === region)!;
      expect(r).toBeDefined();
      // Too few published visibility figures for the calibration rule: no ranking yet.
      expect(r.decision_support).toBe(supportByRule(r.id));
      expect(r.spot_count).toBe(r.spots.length);
      expect(r.spot_count).toBeGreaterThanOrEqual(8);
      expectSpotsInsideBbox(r);
    }
  });

  it("reaches MCP clients too: list_coverage names the region, get_conditions answers for its spot", async () => {
    const mcp = await connectClient(published.base, "2026-07-28");
    try {
      const cov = (await mcp.client.callTool({ name: "list_coverage", arguments: { region: "us-fl-keys" } })) as { structuredContent: { regions: CoverageRegion[] } };
      expect(cov.structuredContent.regions.map((r) => r.id)).toEqual(["us-fl-keys"]);
      const cond = (await mcp.client.callTool({ name: "get_conditions", arguments: { spot: "sand-key" } })) as { isError?: boolean; structuredContent: ConditionsJson };
      expect(cond.isError).toBeFalsy();
      expect(cond.structuredContent.spot.region.id).toBe("us-fl-keys");
      expect(cond.structuredContent.sources).toContain("climatology:us-fl-keys");
    } finally {
      await mcp.close();
    }
  });

  it("ranks a new region only once its calibration earns it, and otherwise points to get_conditions", async () => {
    for (const id of ["us-fl-keys", "us-vi-st-john-st-thomas"]) {
      const { body } = await published.json<RecommendationJson>(`/api/v1/recommendations?activity=snorkel&region=${id}`);
      if (supportByRule(id) === "full") expect(body.status, id).toBe("ok");
      else expect(body, id).toMatchObject({ status: "conditions_only", picks: [] });
    }
  });
});

describe.each(NEW_REGIONS)("conditions at $spot ($region)", ({ spot, region, station, climatology }) => {
  it("offline: seasonal norms, labelled as such, with real tides from the named station", async () => {
    const { status, body } = await published.json<ConditionsJson>(`/api/v1/conditions?spot=${spot}`);
    expect(status).toBe(200);
    expect(ConditionsSchema.parse(body)).toEqual(body);
    expect(body.spot.region.id).toBe(region);
    expect(body.sources).toContain(climatology);
    expect(body.sources.some((s) => s.startsWith("open-meteo"))).toBe(false);
    expect(body.data_quality.freshness).not.toBe("live");
    expect(body.periods.length).toBeGreaterThan(0);
    for (const p of body.periods) expect(p.why).toMatch(/Seasonal norms/);
    expect(body.tide_events.length).toBeGreaterThan(20);
    expect(body.sources.join(" ")).toContain(station);
  });

  const live = liveRuns();
  it("live: the emulator's forecast, not the norms", async () => {
    const r = await live({ scenario: "calm" });
    const { status, body } = await r.svc.json<ConditionsJson>(`/api/v1/conditions?spot=${spot}`);
    expect(status).toBe(200);
    expect(ConditionsSchema.parse(body)).toEqual(body);
    expect(body.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "open-meteo:forecast"]));
    expect(body.sources).not.toContain(climatology);
    expect(body.now!.wind_speed_kt).not.toBeNull();
    expect(body.tide_events.length).toBeGreaterThan(20);
  });
});

describe("spearfishing bans (region ranked for the test)", () => {
  const SPA = ["carysfort-reef", "key-largo-dry-rocks", "molasses-reef", "conch-reef", "cheeca-rocks", "alligator-reef", "sombrero-key", "looe-key", "sand-key"];

  it("excludes the sanctuary preservation areas and the Key Largo management area; the Duane, open to it, is too deep for a breath-hold dive", async () => {
    const { body } = await ranked.json<RecommendationJson>("/api/v1/recommendations?activity=spearfish&region=us-fl-keys&limit=5");
    const closed = body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing");
    expect(closed.map((e) => e.spot.id).sort()).toEqual([...SPA, "spiegel-grove"].sort());
    expect(closed.find((e) => e.spot.id === "molasses-reef")!.areas).toContain("Florida Keys National Marine Sanctuary – Sanctuary Preservation Areas");
    expect(closed.find((e) => e.spot.id === "cheeca-rocks")!.areas).toContain("Upper Keys state waters (Florida Statutes 379.2425)");
    expect(closed.find((e) => e.spot.id === "spiegel-grove")!.areas).toContain("Key Largo Existing Management Area (FKNMS)");
    expect(body.considered.excluded.find((e) => e.spot.id === "uscgc-duane")).toMatchObject({
      reason: "unsuited_depth",
      note: "Typical depth 98 ft (30 m): beyond the 66 ft (20 m) recreational breath-hold range.",
    });
    expect(body.picks).toEqual([]);
  });

  it("still ranks those spots for snorkelling, and leaves the deep wrecks out of it", async () => {
    const { body } = await ranked.json<RecommendationJson>("/api/v1/recommendations?activity=snorkel&region=us-fl-keys&limit=5");
    expect(body.status).toBe("ok");
    expect(body.picks.length).toBeGreaterThan(0);
    expect(body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing")).toEqual([]);
    const deep = body.considered.excluded.filter((e) => e.reason === "unsuited_depth").map((e) => e.spot.id);
    expect(deep).toEqual(expect.arrayContaining(["uscgc-duane", "spiegel-grove"]));
  });
});

describe("not_covered across an ocean", () => {
  it("the open Atlantic north-east of the Bahamas is not covered; the nearest covered spot is Carysfort Reef in the Florida Keys", async () => {
    // 28° N 72° W: Carysfort Reef about 873 km away, the next Keys spots 885+ km, the US Virgin Islands
    // about 1,200 km. (Bermuda itself now lies nearer the Virgin Islands than the Keys.)
    const { status, body } = await published.json<RecommendationJson>("/api/v1/recommendations?activity=dive&lat=28&lon=-72");
    expect(status).toBe(200);
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "carysfort-reef" }, region: { id: "us-fl-keys" } });
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(860);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(880);
  });
});
