// The dive world's next destinations: each region answers conditions offline from its seasonal
// norms (with tides from its named station, or an honest null where none reaches), live from the
// upstream emulator, is listed by the coverage endpoint as its calibration earns, excludes exactly
// the spots its protected areas close to spearfishing, and ranks through the HTTP API when `full`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import type { RecommendationJson } from "../src/schemas/decisions.js";
import { startService, type TestService } from "./helpers/service.js";
import { liveRuns } from "./helpers/live.js";
import { conditionsFrom, recommendationsFrom, supportByRule } from "./helpers/regions.js";

interface WorldRegion {
  region: string;
  /** A spot whose conditions are asked for offline and live. */
  spot: string;
  /** The tide station the spot's record names, or null where none lies within reach. */
  station: string | null;
  /** Every spot of the region its protected areas close to spearfishing (exactly these). */
  closedToSpearfishing: string[];
  /** A name of a protected area that closes `closedToSpearfishing[0]` (as the exclusion quotes it). */
  closingArea: string | null;
}

/** One row per new region; a region's own edge cases go in their own describe block below. */
const WORLD: WorldRegion[] = [
  {
    region: "pt-20-sao-miguel",
    spot: "dori-wreck",
    station: "ticon/ponta_delgada-211a-prt-uhslc_rq",
    closedToSpearfishing: ["dori-wreck", "santa-iria-bay"],
    closingArea: "Dori underwater archaeological park (São Miguel)",
  },
  {
    region: "hr-08-kvarner",
    spot: "silent-beach-vrbnik",
    station: "ticon/trieste-829-ita-uhslc_fd",
    closedToSpearfishing: [],
    closingArea: null,
  },
];

interface CoverageRegion {
  id: string;
  country: string;
  decision_support: string;
  spot_count: number;
  bbox: { south: number; west: number; north: number; east: number };
  spots: { id: string; lat: number; lon: number }[];
}

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
  it("lists each new region as its calibration earns, with at least 8 spots inside its bbox", async () => {
    const { status, body } = await published.json<{ regions: CoverageRegion[] }>("/api/v1/coverage");
    expect(status).toBe(200);
    for (const { region } of WORLD) {
      const r = body.regions.find((x) => x.id === region);
      expect(r, region).toBeDefined();
      expect(r!.decision_support, region).toBe(supportByRule(region));
      expect(r!.spot_count).toBe(r!.spots.length);
      expect(r!.spot_count, region).toBeGreaterThanOrEqual(8);
      for (const s of r!.spots) {
        expect(s.lat).toBeGreaterThanOrEqual(r!.bbox.south);
        expect(s.lat).toBeLessThanOrEqual(r!.bbox.north);
        expect(s.lon).toBeGreaterThanOrEqual(r!.bbox.west);
        expect(s.lon).toBeLessThanOrEqual(r!.bbox.east);
      }
    }
  });
});

describe.each(WORLD)("$region", ({ region, spot, station, closedToSpearfishing, closingArea }) => {
  it(`offline at ${spot}: seasonal norms, labelled as such, and tides from its station or an honest none`, async () => {
    const body = await conditionsFrom(published, `spot=${spot}`);
    expect(body.spot.region.id).toBe(region);
    expect(body.sources).toContain(`climatology:${region}`);
    expect(body.sources.some((s) => s.startsWith("open-meteo"))).toBe(false);
    expect(body.data_quality.freshness).not.toBe("live");
    expect(body.periods.length).toBeGreaterThan(0);
    for (const p of body.periods) expect(p.why).toMatch(/Seasonal norms/);
    if (station === null) {
      expect(body.tide_events).toEqual([]);
    } else {
      expect(body.tide_events.length).toBeGreaterThan(20);
      expect(body.sources.join(" ")).toContain(station);
    }
  });

  it("spearfishing: exactly the spots its protected areas close are excluded, each naming its area", async () => {
    const body = await recommendationsFrom(ranked, `activity=spearfish&region=${region}&limit=5`);
    const closed = body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing");
    expect(closed.map((e) => e.spot.id).sort()).toEqual([...closedToSpearfishing].sort());
    if (closingArea !== null) expect(closed.find((e) => e.spot.id === closedToSpearfishing[0])!.areas).toContain(closingArea);
  });

  it("ranks snorkelling and diving when published full, and otherwise points to get_conditions", async () => {
    for (const activity of ["snorkel", "dive"]) {
      const { body } = await published.json<RecommendationJson>(`/api/v1/recommendations?activity=${activity}&region=${region}&date=2026-11-22`);
      if (supportByRule(region) === "full") {
        expect(body.status, `${region} ${activity}`).toBe("ok");
        expect(body.picks.length).toBeGreaterThan(0);
      } else {
        expect(body, region).toMatchObject({ status: "conditions_only", picks: [] });
      }
    }
  });
});

describe("live", () => {
  const live = liveRuns();
  it("every new region answers from the emulator's forecast, not the norms", async () => {
    const r = await live({ scenario: "calm" });
    for (const { region, spot } of WORLD) {
      const { status, body } = await r.svc.json<ConditionsJson>(`/api/v1/conditions?spot=${spot}`);
      expect(status, spot).toBe(200);
      expect(body.spot.region.id).toBe(region);
      expect(body.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "open-meteo:forecast"]));
      expect(body.sources).not.toContain(`climatology:${region}`);
      expect(body.now!.wind_speed_kt, spot).not.toBeNull();
    }
  });
});

describe("São Miguel and the Kvarner: access rules reach the picks", () => {
  it("tells a snorkeller at the Vila Franca islet that landing needs the Natural Park's authorisation", async () => {
    const body = await recommendationsFrom(published, "activity=snorkel&spot=ilheu-vila-franca&date=2026-11-22");
    const pick = body.picks.find((p) => p.spot.id === "ilheu-vila-franca");
    expect(pick).toBeDefined();
    const messages = pick!.caveats.filter((c) => c.code === "regulated_area").map((c) => c.message).join(" ");
    expect(messages).toMatch(/prior authorisation from São Miguel's Natural Park/);
  });

  it("tells every Kvarner diver that Croatian tourist diving goes through an authorised dive centre", async () => {
    const body = await recommendationsFrom(published, "activity=dive&region=hr-08-kvarner&date=2026-11-22&limit=3");
    expect(body.picks.length).toBeGreaterThan(0);
    for (const p of body.picks) {
      const messages = p.caveats.filter((c) => c.code === "regulated_area").map((c) => c.message).join(" ");
      expect(messages, p.spot.id).toMatch(/dive centre authorised for recreational-tourist diving/);
    }
  });
});
