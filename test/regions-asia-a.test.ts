// Okinawa and Cebu & Bohol, through the real HTTP server: each
// answers conditions offline from its seasonal norms and real tides and live from the upstream
// emulator, spearfishing rules and closures land on the right spots, and a point across the sea
// names the right nearest covered spot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { conditionsFrom, itAnswersLive, itAnswersOffline, recommendationsFrom, supportByRule } from "./helpers/regions.js";
import { startService, type TestService } from "./helpers/service.js";

/** One representative spot per region of this slice, with its tide station and IANA zone. */
const REGIONS = [
  { region: "jp-47-okinawa", spot: "zamami-island", station: "ticon/naha-ma44-jpn-jodc_jma", timezone: "Asia/Tokyo", minSpots: 12, minWaterC: 20 },
  { region: "ph-07-cebu-bohol", spot: "cabilao-island", station: "ticon/cebu-379a-phl-uhslc_rq", timezone: "Asia/Manila", minSpots: 7, minWaterC: 25 },
] as const;

const OKINAWA_SPOTS = [
  "blue-cave-cape-maeda",
  "cape-zanpa",
  "cape-manzamo",
  "sesoko-beach",
  "minna-island",
  "keise-chibishi",
  "zamami-island",
  "aka-island",
  "gahi-island",
  "amuro-island",
  "hanari-island-aharen",
  "kuroshima-tokashiki",
];

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const conditions = (qs: string) => conditionsFrom(svc, qs);
const rec = (qs: string) => recommendationsFrom(svc, qs);

describe("the published catalogue", () => {
  it("lists each region in the coverage listing, published as its calibration earns", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { status, body } = await shipped.json<{ regions: { id: string; decision_support: string; spot_count: number; timezone: string; spots: { id: string }[] }[] }>("/api/v1/coverage");
      expect(status).toBe(200);
      for (const n of REGIONS) {
        const r = body.regions.find((x) => x.id === n.region);
        expect(r, n.region).toBeDefined();
        expect(r!.decision_support).toBe(supportByRule(r!.id));
        expect(r!.spot_count).toBeGreaterThanOrEqual(n.minSpots);
        expect(r!.spots.map((s) => s.id)).toContain(n.spot);
      }
      const okinawa = body.regions.find((x) => x.id === "jp-47-okinawa")!;
      expect(okinawa.spots.map((s) => s.id).sort()).toEqual([...OKINAWA_SPOTS].sort());
    } finally {
      await shipped.close();
    }
  });
});

describe.each(REGIONS)("$region", ({ region, spot, station, timezone, minWaterC }) => {
  itAnswersOffline(() => svc, { spot, region, station, timezone, waterAboveC: minWaterC });

  itAnswersLive(region, spot);
});

describe("spearfishing in Okinawa", () => {
  it("closes no spot outright but quotes the spear-gun ban on every pick, and the park zone on the Kerama ones", async () => {
    const body = await rec("activity=spearfish&region=jp-47-okinawa&limit=5");
    expect(body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing")).toEqual([]);
    // The Blue Cave is too crowded to spear; Sesoko Beach is a managed swimming beach.
    expect(body.considered.excluded.find((e) => e.spot.id === "blue-cave-cape-maeda")!.reason).toBe("unsuited_hazard");
    expect(body.considered.excluded.find((e) => e.spot.id === "sesoko-beach")!.reason).toBe("unsuited_use");
    expect(body.picks.length).toBeGreaterThan(0);
    for (const p of body.picks) {
      const rules = p.caveats.filter((c) => c.code === "regulated_area").map((c) => c.message);
      expect(rules.some((m) => /Okinawa Prefecture waters/.test(m) && /Spear guns and diving apparatus are banned/.test(m)), p.spot.id).toBe(true);
      const inPark = rules.some((m) => /Keramashoto National Park/.test(m));
      expect(inPark, p.spot.id).toBe(!["cape-manzamo", "cape-zanpa", "minna-island"].includes(p.spot.id));
    }
  });
});

describe("spearfishing in Cebu & Bohol", () => {
  it("excludes the Pescador, Sumilon, Balicasag and Pamilacan sanctuaries and quotes the reserve rules at Cabilao", async () => {
    const body = await rec("activity=spearfish&region=ph-07-cebu-bohol&limit=5");
    const closed = body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing");
    expect(closed.map((e) => e.spot.id).sort()).toEqual(["balicasag-black-forest", "pamilacan-island", "pescador-island-northeast", "pescador-island-south", "sumilon-island"]);
    // Part of Pamilacan's reef is a no-take sanctuary whose boundary was not found: not ranked for spearfishing until a primary source allows it.
    expect(closed.find((e) => e.spot.id === "pamilacan-island")!.note).toMatch(/boundary was not found.*not checked against the current regulation text/);
    expect(closed.find((e) => e.spot.id === "sumilon-island")!.areas).toEqual(["Sumilon Island Marine Reserve (Oslob)"]);
    expect(closed.find((e) => e.spot.id === "pescador-island-south")!.areas).toEqual(["Pescador Island Marine Park (Moalboal)"]);
    expect(body.picks.map((p) => p.spot.id).sort()).toEqual(["cabilao-island", "cervera-shoal"]);
    const rules = (id: string) => body.picks.find((p) => p.spot.id === id)!.caveats.filter((c) => c.code === "regulated_area").map((c) => c.message).join(" ");
    expect(rules("cabilao-island")).toMatch(/Cabilao Island marine reserve/);
    expect(rules("cervera-shoal")).not.toMatch(/marine (reserve|sanctuary)/);
  });

  it("answers Sumilon without a tide: no station lies within 100 km", async () => {
    const body = await conditions("spot=sumilon-island");
    expect(body.spot.region.id).toBe("ph-07-cebu-bohol");
    expect(body.tide_events).toEqual([]);
    expect(body.sources.filter((s) => s.startsWith("tide-harmonics:"))).toEqual([]);
    for (const p of body.periods) expect(p.tide_state).toBeNull();
    const coverage = await svc.json<{ notes: string[] }>("/api/v1/coverage");
    const note = coverage.body.notes.find((n) => n.startsWith("No tide station"));
    expect(note).toContain("Cebu & Bohol: Moalboal, Panglao & the Bohol Sea (1 of 7 spots)");
  });
});

describe("not_covered across the sea", () => {
  it("names the Keise Islands, the south-easternmost Okinawa spot, for a point in the Philippine Sea south-east of Okinawa", async () => {
    const body = await rec("activity=snorkel&lat=25.0&lon=128.5");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "keise-chibishi" }, region: { id: "jp-47-okinawa" } });
    // ~1.26° of latitude south and ~0.94° of longitude east of the Keise atolls: about 170 km.
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(155);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(185);
  });
});
