// The Mediterranean regions (Malta & Gozo grown to eleven spots, …), through the real HTTP server:
// each answers conditions offline from its seasonal norms and live from the stub upstreams, tides
// are real where a station is near and null where none is, spearfishing exclusions land on the
// right spots, and a point across the sea is told its nearest covered spot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { ConditionsSchema, type ConditionsJson } from "../src/schemas/conditions.js";
import { RecommendationSchema, type RecommendationJson } from "../src/schemas/decisions.js";
import { liveRuns } from "./helpers/live.js";
import { startService, type TestService } from "./helpers/service.js";

/** One spot per region of this slice, with its tide station (null: none within reach) and IANA zone. */
const MED_REGIONS = [
  { region: "mt-30-malta-gozo", spot: "imperial-eagle", station: null, timezone: "Europe/Malta", minSpots: 11 },
] as const;

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const conditions = async (qs: string, s: TestService = svc) => {
  const r = await s.json<ConditionsJson>(`/api/v1/conditions?${qs}`);
  expect(r.status).toBe(200);
  expect(ConditionsSchema.parse(r.body)).toEqual(r.body);
  return r.body;
};
const rec = async (qs: string) => {
  const r = await svc.json<RecommendationJson>(`/api/v1/recommendations?${qs}`);
  expect(r.status).toBe(200);
  expect(RecommendationSchema.parse(r.body)).toEqual(r.body);
  return r.body;
};

describe("the published catalogue", () => {
  it("lists each region of the slice, published conditions_only, with its spots", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { status, body } = await shipped.json<{ regions: { id: string; decision_support: string; spot_count: number; spots: { id: string }[] }[] }>("/api/v1/coverage");
      expect(status).toBe(200);
      for (const n of MED_REGIONS) {
        const r = body.regions.find((x) => x.id === n.region);
        expect(r, n.region).toBeDefined();
        expect(r!.decision_support).toBe("conditions_only");
        expect(r!.spot_count).toBeGreaterThanOrEqual(n.minSpots);
        expect(r!.spots.map((s) => s.id)).toContain(n.spot);
      }
    } finally {
      await shipped.close();
    }
  });
});

describe.each(MED_REGIONS)("$region", ({ region, spot, station, timezone }) => {
  it("answers conditions offline from its seasonal norms, with real tides or none", async () => {
    const body = await conditions(`spot=${spot}`);
    expect(body.spot).toMatchObject({ id: spot, region: { id: region }, timezone });
    expect(body.data_quality).toEqual({ visibility_source: "heuristic", freshness: "none" });
    expect(body.sources).toContain(`climatology:${region}`);
    if (station === null) {
      expect(body.sources.some((s) => s.startsWith("tide-harmonics:"))).toBe(false);
      expect(body.tide_events).toEqual([]);
      expect(body.periods.every((p) => p.tide_state === null && p.tide_height_ft === null)).toBe(true);
    } else {
      expect(body.sources).toContain(`tide-harmonics:${station}`);
      expect(body.tide_events.length).toBeGreaterThan(10);
    }
    expect(body.periods.length).toBeGreaterThan(6 * 8);
    for (const p of body.periods) {
      expect(p.why).toContain("Seasonal norms, not a live forecast.");
      expect(p.visibility_ft).toBeGreaterThan(0);
      // Mediterranean and Atlantic water: never tropical, never near freezing.
      expect(p.water_temp_c).toBeGreaterThan(12);
      expect(p.water_temp_c).toBeLessThan(28);
    }
  });

  const live = liveRuns();
  it("answers conditions live from the upstreams, without seasonal norms", async () => {
    const r = await live({ scenario: "calm", env: { UPSTREAM_TIMEOUT_MS: "15000" } });
    const { status, body } = await r.svc.json<ConditionsJson>(`/api/v1/conditions?spot=${spot}`);
    expect(status).toBe(200);
    expect(ConditionsSchema.parse(body)).toEqual(body);
    expect(body.spot.region.id).toBe(region);
    expect(body.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "open-meteo:forecast"]));
    expect(body.sources.filter((s) => s.startsWith("climatology:"))).toEqual([]);
    expect(body.data_quality.freshness).toBe("live");
    for (const p of body.periods) expect(p.why).not.toMatch(/Seasonal norms/);
    // No NOAA station outside the United States: CO-OPS is never asked.
    expect(r.stub.calls.coops).toBe(0);
  });
});

describe("Malta & Gozo at eleven spots", () => {
  it("keeps spearfishers off the dive-attraction wreck and the roped-off lagoon, with no legal closure claimed", async () => {
    const body = await rec("activity=spearfish&region=mt-30-malta-gozo&limit=5");
    const excluded = Object.fromEntries(body.considered.excluded.map((e) => [e.spot.id, e.reason]));
    expect(excluded["imperial-eagle"]).toBe("unsuited_use");
    expect(excluded["blue-lagoon-comino"]).toBe("unsuited_use");
    expect(excluded["xlendi-bay"]).toBe("unsuited_hazard");
    expect(body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing")).toEqual([]);
    for (const p of body.picks) expect(["imperial-eagle", "blue-lagoon-comino", "xlendi-bay", "mgarr-ix-xini"]).not.toContain(p.spot.id);
  });

  it("sends scuba divers past the knee-deep Blue Lagoon", async () => {
    const body = await rec("activity=dive&region=mt-30-malta-gozo&limit=5");
    const excluded = Object.fromEntries(body.considered.excluded.map((e) => [e.spot.id, e.reason]));
    expect(excluded).toEqual({ "blue-lagoon-comino": "unsuited_depth" });
    expect(body.picks).toHaveLength(5);
    expect(body.picks.map((p) => p.spot.id)).not.toContain("blue-lagoon-comino");
  });

  it("names Għar Lapsi, Malta's southernmost spot, for a point off Tripoli across the Sicily Channel", async () => {
    const body = await rec("activity=dive&lat=32.95&lon=13.2");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "ghar-lapsi" }, region: { id: "mt-30-malta-gozo" } });
    // ~2.88° of latitude north and ~1.22° of longitude east: about 340 km.
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(310);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(370);
  });
});
