// What every regional test asks the real HTTP server: a conditions or recommendations answer that
// is 200 and matches its schema, and the same live check for a region's spot (upstream data from
// the emulator, no seasonal norms).
import { expect, it } from "vitest";
import { Catalog } from "../../src/catalog/catalog.js";
import { regionLevels } from "../../src/catalog/levels.js";
import { ConditionsSchema, type ConditionsJson } from "../../src/schemas/conditions.js";
import { RecommendationSchema, type RecommendationJson } from "../../src/schemas/decisions.js";
import { liveRuns } from "./live.js";
import type { TestService } from "./service.js";

/** GET /api/v1/conditions?{qs}: asserts 200 and the schema, returns the body. */
export async function conditionsFrom(svc: TestService, qs: string): Promise<ConditionsJson> {
  const r = await svc.json<ConditionsJson>(`/api/v1/conditions?${qs}`);
  expect(r.status).toBe(200);
  expect(ConditionsSchema.parse(r.body)).toEqual(r.body);
  return r.body;
}

/** GET /api/v1/recommendations?{qs}: asserts 200 and the schema, returns the body. */
export async function recommendationsFrom(svc: TestService, qs: string): Promise<RecommendationJson> {
  const r = await svc.json<RecommendationJson>(`/api/v1/recommendations?${qs}`);
  expect(r.status).toBe(200);
  expect(RecommendationSchema.parse(r.body)).toEqual(r.body);
  return r.body;
}

/** Registers the test that `spot` (in `region`) answers live from the emulated upstreams, without seasonal norms. */
export function itAnswersLive(region: string, spot: string): void {
  const live = liveRuns();
  it("answers conditions live from the upstreams, without seasonal norms", async () => {
    const r = await live({ scenario: "calm" });
    const body = await conditionsFrom(r.svc, `spot=${spot}`);
    expect(body.spot.region.id).toBe(region);
    expect(body.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "open-meteo:forecast"]));
    expect(body.sources.filter((s) => s.startsWith("climatology:"))).toEqual([]);
    expect(body.data_quality.freshness).toBe("live");
    for (const p of body.periods) expect(p.why).not.toMatch(/Seasonal norms/);
  });
}

/**
 * Registers the test that `spot` answers conditions offline: seasonal norms said so in every
 * period's why, real tides from `station`, and water warmer than `waterAboveC` all through.
 */
export function itAnswersOffline(
  svc: () => TestService,
  o: { spot: string; region: string; station: string; timezone: string; waterAboveC: number },
): void {
  it("answers conditions offline from its seasonal norms and real tides", async () => {
    const body = await conditionsFrom(svc(), `spot=${o.spot}`);
    expect(body.spot).toMatchObject({ id: o.spot, region: { id: o.region }, timezone: o.timezone });
    expect(body.data_quality).toEqual({ visibility_source: "heuristic", freshness: "none" });
    expect(body.sources).toContain(`climatology:${o.region}`);
    expect(body.sources).toContain(`tide-harmonics:${o.station}`);
    expect(body.tide_events.length).toBeGreaterThan(10);
    expect(body.periods.length).toBeGreaterThan(0);
    for (const p of body.periods) {
      expect(p.why).toContain("Seasonal norms, not a live forecast.");
      expect(p.visibility_ft).toBeGreaterThan(0);
      expect(p.water_temp_c).toBeGreaterThan(o.waterAboveC);
    }
  });
}

/** The decision support a region's data earn under the calibration rule (src/catalog/levels.ts). */
export function supportByRule(regionId: string): "full" | "conditions_only" {
  const record = Catalog.readRecords().find((r) => r.id === regionId);
  if (!record) throw new Error(`no region ${regionId}`);
  return regionLevels(record).earnsFull ? "full" : "conditions_only";
}

/** A region as the coverage endpoint lists it (the fields the regional tests read). */
export interface CoverageRegion {
  id: string;
  decision_support: string;
  spot_count: number;
  bbox: { south: number; west: number; north: number; east: number };
  spots: { id: string; lat: number; lon: number }[];
}

/** Asserts that every spot the coverage listing gives for a region lies inside the region's bbox. */
export function expectSpotsInsideBbox(r: Pick<CoverageRegion, "bbox" | "spots">): void {
  for (const s of r.spots) {
    expect(s.lat).toBeGreaterThanOrEqual(r.bbox.south);
    expect(s.lat).toBeLessThanOrEqual(r.bbox.north);
    expect(s.lon).toBeGreaterThanOrEqual(r.bbox.west);
    expect(s.lon).toBeLessThanOrEqual(r.bbox.east);
  }
}

/** The messages of a pick's regulated-area caveats, joined: what the pick tells a diver of local rules. */
export function regulatedAreaMessages(pick: { caveats: { code: string; message: string }[] }): string {
  return pick.caveats
    .filter((c) => c.code === "regulated_area")
    .map((c) => c.message)
    .join(" ");
}
