// The regions added beyond the first eight, through the real HTTP server: each answers conditions
// offline from its seasonal norms and live from the stub upstreams, spots without a tide station
// say so instead of borrowing a far-away tide, spearfishing closures exclude the right spots, the
// coverage listing publishes each new region as its calibration earns, and a point
// across an ocean is told its nearest covered spot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { TIDE_STATION_MAX_KM } from "../src/catalog/schema.js";
import type { CoverageJson } from "../src/schemas/catalog.js";
import { ConditionsSchema, type ConditionsJson } from "../src/schemas/conditions.js";
import type { RecommendationJson } from "../src/schemas/decisions.js";
import { liveRuns } from "./helpers/live.js";
import { startService, type TestService } from "./helpers/service.js";
import { supportByRule, expectSpotsInsideBbox } from "./helpers/regions.js";

/** One spot per new region, with what its answer must show. */
const NEW_REGIONS = [
  { region: "eg-js-sharm-el-sheikh", spot: "jackson-reef", timezone: "Africa/Cairo", tides: false },
  { region: "mt-30-malta-gozo", spot: "blue-hole-gozo", timezone: "Europe/Malta", tides: false },
] as const;

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc.close();
});

const conditions = (qs: string, s = svc) => s.json<ConditionsJson>(`/api/v1/conditions?${qs}`);
const rec = (qs: string) => svc.json<RecommendationJson>(`/api/v1/recommendations?${qs}`);

describe.each(NEW_REGIONS)("$region offline", ({ region, spot, timezone, tides }) => {
  it("answers conditions from its seasonal norms, labelled as such", async () => {
    const { status, body } = await conditions(`spot=${spot}`);
    expect(status).toBe(200);
    expect(ConditionsSchema.parse(body)).toEqual(body);
    expect(body.spot).toMatchObject({ id: spot, timezone, region: { id: region } });
    expect(body.data_quality).toEqual({ visibility_source: "heuristic", freshness: "none" });
    expect(body.sources).toContain(`climatology:${region}`);
    expect(body.periods.length).toBeGreaterThan(6 * 8); // the rest of today and six more days
    for (const p of body.periods) {
      expect(p.why).toContain("Seasonal norms, not a live forecast.");
      expect(p.visibility_ft).toBeGreaterThan(0);
      expect(p.water_temp_c).toBeGreaterThan(18);
    }
    if (!tides) {
      expect(body.tide_events).toEqual([]);
      expect(body.periods.every((p) => p.tide_state === null && p.tide_height_ft === null)).toBe(true);
      expect(body.data_credits.map((c) => c.provider).join(" ")).not.toMatch(/tide/i);
    } else {
      expect(body.tide_events.length).toBeGreaterThan(10);
    }
  });
});

describe("live, against the stub upstreams", () => {
  const live = liveRuns();
  it.each(NEW_REGIONS)("$spot answers from the upstreams and says so", async ({ spot, region }) => {
    // A generous upstream timeout: this test is about the answer's labels, not about slow upstreams.
    const r = await live({ scenario: "calm", env: { UPSTREAM_TIMEOUT_MS: "15000" } });
    const { status, body } = await conditions(`spot=${spot}`, r.svc);
    expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(ConditionsSchema.parse(body)).toEqual(body);
    expect(body.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "open-meteo:forecast"]));
    expect(body.sources).not.toContain(`climatology:${region}`);
    expect(body.data_quality.freshness).toBe("live");
    expect(body.now!.wind_speed_kt).toBeGreaterThan(0);
    expect(body.periods.every((p) => !(p.why ?? "").includes("Seasonal norms"))).toBe(true);
    // No NOAA station for a non-US spot: CO-OPS is never asked.
    expect(r.stub.calls.coops).toBe(0);
  });
});

describe("tides where no station is near", () => {
  it("lists the regions without a tide station in the coverage notes", async () => {
    const { body } = await svc.json<CoverageJson>("/api/v1/coverage");
    const note = body.notes.find((n) => n.startsWith("No tide station"));
    // Other regions may join the list (a region with only some spots beyond reach says how many);
    // these have no station at all, so they are named without a count.
    expect(note).toMatch(new RegExp(`^No tide station lies within ${TIDE_STATION_MAX_KM} km in the tide database for .*: tide fields are null there\\.$`));
    for (const name of ["Hurghada, El Gouna & the Strait of Gubal", "Dahab & Ras Abu Galum", "Sharm el-Sheikh, Ras Mohammed & Tiran", "Malta & Gozo"]) expect(note).toContain(name);
    // A region with only some spots beyond reach says how many.
    expect(note).toMatch(/Komodo National Park \(East Nusa Tenggara\) \(7 of 10 spots\)[,:]/);
    const oahu = await svc.json<CoverageJson>("/api/v1/coverage?region=us-hi-oahu");
    expect(oahu.body.notes.some((n) => n.startsWith("No tide station"))).toBe(false);
  });
});

describe("coverage publishes the new regions", () => {
  it("lists each new region as its calibration earns, with its spots inside its bbox", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { body } = await shipped.json<CoverageJson>("/api/v1/coverage");
      for (const { region, spot } of NEW_REGIONS) {
        const r = body.regions.find((x) => x.id === region)!;
        expect(r).toMatchObject({ decision_support: supportByRule(region) });
        expect(r.spots.map((s) => s.id)).toContain(spot);
        expectSpotsInsideBbox(r);
      }
      const rec = await shipped.json<RecommendationJson>("/api/v1/recommendations?activity=dive&region=eg-js-sharm-el-sheikh");
      expect(rec.body.status).toBe(supportByRule("eg-js-sharm-el-sheikh") === "full" ? "ok" : "conditions_only");
    } finally {
      await shipped.close();
    }
  });
});

describe("spearfishing and unsuited activities in the new regions", () => {
  it("excludes every Sharm spot from spearfishing: the parks ban it, and Egypt has suspended recreational fishing on its Red Sea coasts", async () => {
    const { body } = await rec("activity=spearfish&region=eg-js-sharm-el-sheikh&limit=5");
    // No picks, so not `ok`: no_data, with the message naming the rules.
    expect(body.status).toBe("no_data");
    expect(body.message).toContain("Ras Mohammed National Park");
    const egypt = "Egyptian Red Sea coasts (recreational fishing suspended; spearfishing not shown to be allowed)";
    const byId = new Map(body.considered.excluded.map((e) => [e.spot.id, e]));
    const closed = [...byId.values()].filter((e) => e.reason === "closed_to_spearfishing").map((e) => e.spot.id);
    expect(closed.sort()).toEqual(["dunraven", "gordon-reef", "jackson-reef", "kingston-shag-rock", "kormoran-wreck", "million-hope", "near-garden", "ras-burg", "shark-yolanda-reef", "woodhouse-reef"]);
    expect(byId.get("shark-yolanda-reef")!.areas).toEqual(["Ras Mohammed National Park", egypt]);
    expect(byId.get("jackson-reef")!.areas).toEqual(["Strait of Tiran reefs (South Sinai protected area)", egypt]);
    // The crowded Thistlegorm is kept out for its boat traffic before any closure is read.
    expect(byId.get("thistlegorm")!.reason).toBe("unsuited_hazard");
    expect(body.picks).toEqual([]);
  });

  it("keeps snorkellers off the drift-only and closed Tiran reefs and the deep Gubal wrecks, and ranks the rest", async () => {
    const { body } = await rec("activity=snorkel&region=eg-js-sharm-el-sheikh&limit=5");
    const excluded = Object.fromEntries(body.considered.excluded.map((e) => [e.spot.id, e.reason]));
    expect(excluded).toEqual({ "woodhouse-reef": "unsuited_hazard", "gordon-reef": "unsuited_access", dunraven: "unsuited_depth", thistlegorm: "unsuited_depth" });
    // Seven spots remain for snorkelling; the five best are picked, never an excluded one.
    expect(body.picks).toHaveLength(5);
    for (const p of body.picks) expect(Object.keys(excluded)).not.toContain(p.spot.id);
    // Ras Mohammed picks carry the park's entry requirement.
    const shark = body.picks.find((p) => p.spot.id === "shark-yolanda-reef")!;
    expect(shark.caveats.map((c) => c.message).join(" ")).toMatch(/passport/);
  });
});

describe("Malta & Gozo: no spearfishing closure found, one rules-only reserve", () => {
  it("ranks spearfishing at every Maltese spot and flags the Ċirkewwa reserve's rules", async () => {
    const { body } = await rec("activity=spearfish&region=mt-30-malta-gozo&limit=5");
    expect(body.status).toBe("ok");
    expect(body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing")).toEqual([]);
    const cirkewwa = body.picks.find((p) => p.spot.id === "cirkewwa")!;
    expect(cirkewwa.caveats.map((c) => c.code)).toEqual(expect.arrayContaining(["regulated_area", "verify_fishing_rules"]));
    for (const p of body.picks.filter((x) => x.spot.id !== "cirkewwa")) expect(p.caveats.map((c) => c.code)).not.toContain("regulated_area");
  });

  it("keeps snorkellers off the deep wrecks and walls and out of the boat tunnel", async () => {
    const { body } = await rec("activity=snorkel&region=mt-30-malta-gozo&limit=5");
    const excluded = Object.fromEntries(body.considered.excluded.map((e) => [e.spot.id, e.reason]));
    expect(excluded).toEqual({
      "hms-maori": "unsuited_depth",
      "inland-sea-gozo": "unsuited_hazard",
      "imperial-eagle": "unsuited_depth",
      "fungus-rock": "unsuited_depth",
    });
    const snorkelable = ["blue-hole-gozo", "cirkewwa", "ghar-lapsi", "st-pauls-islands", "xlendi-bay", "mgarr-ix-xini", "blue-lagoon-comino", "delimara-point"];
    expect(body.picks).toHaveLength(5);
    for (const p of body.picks) expect(snorkelable).toContain(p.spot.id);
  });
});

describe("not_covered across an ocean", () => {
  it("sends a diver in the Seychelles to the nearest covered spot, across the Indian Ocean in Zanzibar", async () => {
    const { status, body } = await rec("activity=dive&lat=-4.62&lon=55.45");
    expect(status).toBe(200);
    expect(body.status).toBe("not_covered");
    // Napoleon Wall off Paje, Zanzibar, ~1,766 km west-south-west (Woo South is 0.2 km farther); the
    // Malé atolls are ~1,900 km north-east.
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "paje-napoleon-wall" }, region: { id: "tz-11-zanzibar-east" } });
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(1750);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(1780);
  });
});
