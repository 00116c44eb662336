// The Australia / Oceania regions (Northland's east coast in New Zealand, Guam), through the real
// HTTP server: each answers conditions offline from its seasonal norms and live from the stub
// upstreams, spearfishing closures (the Poor Knights marine reserve, the Deep Water Cove rāhui,
// Guam's marine preserves) exclude the right spots, and a point across the Pacific names the right
// nearest spot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { conditionsFrom, itAnswersLive, recommendationsFrom, supportByRule } from "./helpers/regions.js";
import { startService, type TestService } from "./helpers/service.js";

/** One representative spot per region, with its tide station and IANA zone. */
const REGIONS = [
  {
    region: "nz-ntl-northland",
    spot: "rikoriko-cave",
    station: "ticon/marsden_point-398a-nzl-uhslc_rq",
    timezone: "Pacific/Auckland",
    minSpots: 10,
    // Southern-hemisphere temperate water: about 15 °C in winter, 21 °C in late summer.
    waterC: { min: 14, max: 23 },
  },
  {
    region: "us-gu-guam",
    spot: "piti-bomb-holes",
    station: "noaa/1630000",
    timezone: "Pacific/Guam",
    minSpots: 9,
    // Tropical: 82–86 °F all year.
    waterC: { min: 27, max: 31 },
  },
] as const;

const POOR_KNIGHTS = ["aorangaia-island", "blue-maomao-arch", "rikoriko-cave"];
const DEEP_WATER_COVE = ["deep-water-cove", "hmnzs-canterbury"];

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const conditions = (qs: string) => conditionsFrom(svc, qs);
const rec = (qs: string) => recommendationsFrom(svc, qs);

describe("the published catalogue", () => {
  it("lists each Oceania region in the coverage listing, published as its calibration earns", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { status, body } = await shipped.json<{ regions: { id: string; decision_support: string; spot_count: number; spots: { id: string }[] }[] }>("/api/v1/coverage");
      expect(status).toBe(200);
      for (const n of REGIONS) {
        const r = body.regions.find((x) => x.id === n.region);
        expect(r, n.region).toBeDefined();
        expect(r!.decision_support).toBe(supportByRule(r!.id));
        expect(r!.spot_count).toBeGreaterThanOrEqual(n.minSpots);
        expect(r!.spots.map((s) => s.id)).toContain(n.spot);
      }
    } finally {
      await shipped.close();
    }
  });
});

describe.each(REGIONS)("$region", ({ region, spot, station, timezone, waterC }) => {
  it("answers conditions offline from its seasonal norms and real tides", async () => {
    const body = await conditions(`spot=${spot}`);
    expect(body.spot).toMatchObject({ id: spot, region: { id: region }, timezone });
    expect(body.data_quality).toEqual({ visibility_source: "heuristic", freshness: "none" });
    expect(body.sources).toContain(`climatology:${region}`);
    expect(body.sources).toContain(`tide-harmonics:${station}`);
    expect(body.tide_events.length).toBeGreaterThan(10);
    for (const p of body.periods) {
      expect(p.why).toContain("Seasonal norms, not a live forecast.");
      expect(p.visibility_ft).toBeGreaterThan(0);
      expect(p.water_temp_c).toBeGreaterThanOrEqual(waterC.min);
      expect(p.water_temp_c).toBeLessThanOrEqual(waterC.max);
    }
  });

  itAnswersLive(region, spot);
});

describe("spearfishing on Northland's east coast", () => {
  it("excludes the Poor Knights marine reserve and the Deep Water Cove rāhui, and the busy harbour mouth and Hole in the Rock", async () => {
    const body = await rec("activity=spearfish&region=nz-ntl-northland&limit=5");
    const excluded = body.considered.excluded;
    const closed = excluded.filter((e) => e.reason === "closed_to_spearfishing");
    expect(closed.map((e) => e.spot.id).sort()).toEqual([...DEEP_WATER_COVE, ...POOR_KNIGHTS].sort());
    for (const e of closed.filter((x) => POOR_KNIGHTS.includes(x.spot.id))) expect(e.areas).toEqual(["Poor Knights Islands Marine Reserve"]);
    for (const e of closed.filter((x) => DEEP_WATER_COVE.includes(x.spot.id))) {
      expect(e.areas).toEqual(["Rakaumangamanga Rāhui Tapu (Maunganui Bay to Oke Bay)"]);
    }
    // Open water for spearfishing, but not these: boat traffic.
    expect(excluded.find((e) => e.spot.id === "kukutauwhao-lighthouse-bay")!.reason).toBe("unsuited_hazard");
    expect(excluded.find((e) => e.spot.id === "piercy-island")!.reason).toBe("unsuited_hazard");
    // The Tutukaka wrecks and bays outside the reserve stay open to spearfishing.
    expect(body.picks.length).toBeGreaterThan(0);
    for (const p of body.picks) expect(["hmnzs-waikato", "hmnzs-tui", "waipouri-cove"]).toContain(p.spot.id);
  });

  it("still ranks the Poor Knights for snorkelling: the reserve bans taking, not swimming", async () => {
    const body = await rec("activity=snorkel&region=nz-ntl-northland&limit=5");
    const ids = [...body.picks.map((p) => p.spot.id), ...body.considered.excluded.map((e) => e.spot.id)];
    expect(ids).toContain("blue-maomao-arch");
    expect(body.considered.excluded.find((e) => e.spot.id === "blue-maomao-arch")).toBeUndefined();
    // Wrecks whose tops are 14 m and more down are too deep to see from the surface.
    expect(body.considered.excluded.find((e) => e.spot.id === "hmnzs-canterbury")!.reason).toBe("unsuited_depth");
  });
});

describe("spearfishing on Guam", () => {
  it("excludes the Tumon and Piti marine preserves and the harbour wrecks, and flags the scuba ban on every pick", async () => {
    const body = await rec("activity=spearfish&region=us-gu-guam&limit=5");
    const excluded = body.considered.excluded;
    const closed = excluded.filter((e) => e.reason === "closed_to_spearfishing");
    expect(closed.map((e) => e.spot.id).sort()).toEqual(["gun-beach", "piti-bomb-holes", "tumon-bay"]);
    expect(closed.find((e) => e.spot.id === "piti-bomb-holes")!.areas).toEqual(["Piti Bomb Holes Marine Preserve"]);
    for (const id of ["gun-beach", "tumon-bay"]) expect(closed.find((e) => e.spot.id === id)!.areas).toEqual(["Tumon Bay Marine Preserve"]);
    // The wrecks lie beside the commercial port's shipping channel.
    expect(excluded.find((e) => e.spot.id === "tokai-maru-cormoran")!.reason).toBe("unsuited_hazard");
    expect(body.picks.length).toBeGreaterThan(0);
    for (const p of body.picks) {
      expect(["gun-beach", "piti-bomb-holes", "tumon-bay", "tokai-maru-cormoran"]).not.toContain(p.spot.id);
      const rule = p.caveats.find((c) => c.code === "regulated_area" && /Guam waters/.test(c.message));
      expect(rule, p.spot.id).toBeDefined();
      expect(rule!.message).toMatch(/scuba/);
    }
  });
});

describe("not_covered across the Pacific", () => {
  it("names the Waikato wreck, the southernmost Northland spot, for the Chatham Islands across the antimeridian", async () => {
    const body = await rec("activity=snorkel&lat=-43.95&lon=-176.55");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "hmnzs-waikato" }, region: { id: "nz-ntl-northland" } });
    // ~8.3° of latitude south and ~8.9° of longitude east across 180°: about 1,190 km.
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(1150);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(1240);
  });
});
