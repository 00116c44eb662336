// The Mediterranean regions (Malta & Gozo grown to twelve spots, the Costa Brava, Gran Canaria, Lanzarote), through the real HTTP server:
// each answers conditions offline from its seasonal norms and live from the stub upstreams, tides
// are real where a station is near and null where none is, spearfishing exclusions land on the
// right spots, and a point across the sea is told its nearest covered spot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { ConditionsSchema, type ConditionsJson } from "../src/schemas/conditions.js";
import { liveRuns } from "./helpers/live.js";
import { conditionsFrom, recommendationsFrom, supportByRule } from "./helpers/regions.js";
import { startService, type TestService } from "./helpers/service.js";

/** One spot per region of this slice, with its tide station (null: none within reach) and IANA zone. */
const MED_REGIONS = [
  { region: "mt-30-malta-gozo", spot: "imperial-eagle", station: null, timezone: "Europe/Malta", minSpots: 12 },
  { region: "es-ct-costa-brava", spot: "medes-islands", station: "ticon/port_vendres-75-fra-refmar", timezone: "Europe/Madrid", minSpots: 8 },
  { region: "es-cn-gran-canaria", spot: "el-cabron", station: "ticon/las_palmas-217d-esp-uhslc_rq", timezone: "Atlantic/Canary", minSpots: 6 },
  { region: "es-cn-lanzarote", spot: "puerto-del-carmen", station: "ticon/arrecife-arre-esp-ieo", timezone: "Atlantic/Canary", minSpots: 4 },
] as const;

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const conditions = (qs: string, s: TestService = svc) => conditionsFrom(s, qs);
const rec = (qs: string) => recommendationsFrom(svc, qs);

describe("the published catalogue", () => {
  it("lists each region of the slice, published as its calibration earns, with its spots", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { status, body } = await shipped.json<{ regions: { id: string; decision_support: string; spot_count: number; spots: { id: string }[] }[] }>("/api/v1/coverage");
      expect(status).toBe(200);
      for (const n of MED_REGIONS) {
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

describe("Malta & Gozo at twelve spots", () => {
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

describe("Costa Brava", () => {
  it("takes its tide from Port Vendres across the French border, a Mediterranean tide of a few centimetres", async () => {
    const body = await conditions("spot=cap-de-creus");
    expect(body.sources).toContain("tide-harmonics:ticon/port_vendres-75-fra-refmar");
    const heights = body.tide_events.map((e) => e.height_ft).filter((h): h is number => h !== null);
    expect(heights.length).toBeGreaterThan(10);
    // Station datums: mean higher high water to mean lower low water is about 0.19 m (0.6 ft).
    const range = Math.max(...heights) - Math.min(...heights);
    expect(range).toBeGreaterThan(0.1);
    expect(range).toBeLessThan(1.5);
    expect(body.data_credits.map((c) => c.provider).join(" ")).toMatch(/TICON|Port Vendres|REFMAR/i);
  });

  it("closes the Medes reserve and the Cap de Creus park to spearfishing and keeps spearos out of the crowded coves and off the deep wreck", async () => {
    const body = await rec("activity=spearfish&region=es-ct-costa-brava&limit=5");
    const closed = body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing");
    expect(closed.map((e) => e.spot.id).sort()).toEqual(["cap-de-creus", "cap-norfeu", "medes-islands"]);
    expect(closed.find((e) => e.spot.id === "medes-islands")!.areas).toEqual(["Illes Medes marine reserve (Parc Natural del Montgrí, les Illes Medes i el Baix Ter)"]);
    expect(closed.find((e) => e.spot.id === "cap-norfeu")!.areas).toEqual(["Cap de Creus Natural Park (marine part and partial reserves)"]);
    const excluded = Object.fromEntries(body.considered.excluded.map((e) => [e.spot.id, e.reason]));
    for (const cove of ["aiguablava", "cala-montgo", "tossa-de-mar"]) expect(excluded[cove], cove).toBe("unsuited_hazard");
    // The Formigues (reserve plan dropped), the Ullastres and the Canons de Tamariu stay open; the Boreas wreck, at 26 m, is a scuba dive.
    expect(excluded["boreas-wreck"]).toBe("unsuited_depth");
    expect(body.picks.map((p) => p.spot.id).sort()).toEqual(["canons-de-tamariu", "els-ullastres", "illes-formigues"]);
  });

  it("tells divers about the Medes diving permit and tax", async () => {
    // A 5 km radius round L'Estartit holds only the Medes (Cala Montgó is ~12 km away).
    const body = await rec("activity=dive&lat=42.05&lon=3.2&radius_km=5&limit=1");
    expect(body.picks.map((p) => p.spot.id)).toEqual(["medes-islands"]);
    const permit = body.picks[0]!.caveats.find((c) => /diving tax/.test(c.message));
    expect(permit, JSON.stringify(body.picks[0]!.caveats)).toBeDefined();
  });

  it("names Tossa de Mar, the southernmost Costa Brava spot, for a point off Menorca across the Balearic Sea", async () => {
    const body = await rec("activity=snorkel&lat=40.1&lon=3.9");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "tossa-de-mar" }, region: { id: "es-ct-costa-brava" } });
    // ~1.6° of latitude north and ~1° of longitude west: about 197 km (the Formigues are ~205 km).
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(185);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(203);
  });
});

describe("Gran Canaria", () => {
  it("has an Atlantic tide of a metre and more from the Las Palmas gauge", async () => {
    const body = await conditions("spot=las-canteras");
    expect(body.sources).toContain("tide-harmonics:ticon/las_palmas-217d-esp-uhslc_rq");
    const heights = body.tide_events.map((e) => e.height_ft).filter((h): h is number => h !== null);
    // Station datums: mean high water to mean low water is about 1.55 m (5.1 ft).
    expect(Math.max(...heights) - Math.min(...heights)).toBeGreaterThan(3);
    expect(Math.max(...heights) - Math.min(...heights)).toBeLessThan(10);
  });

  it("closes the Arinaga reserve and the Las Canteras no-take area to spearfishing; the harbours are excluded for their traffic", async () => {
    const body = await rec("activity=spearfish&region=es-cn-gran-canaria&limit=5");
    const excluded = Object.fromEntries(body.considered.excluded.map((e) => [e.spot.id, e.reason]));
    expect(excluded).toEqual({
      "el-cabron": "closed_to_spearfishing",
      "las-canteras": "closed_to_spearfishing",
      "sardina-del-norte": "unsuited_hazard",
      "mogan-wrecks": "unsuited_hazard",
    });
    expect(body.considered.excluded.find((e) => e.spot.id === "el-cabron")!.areas).toEqual(["Arinaga marine reserve (El Cabrón)"]);
    expect(body.picks.map((p) => p.spot.id).sort()).toEqual(["la-catedral-la-isleta", "pasito-blanco"]);
  });

  it("names Pasito Blanco, the southernmost Gran Canaria spot, for a point in the open Atlantic towards Cape Verde", async () => {
    const body = await rec("activity=dive&lat=26.5&lon=-15.6");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "pasito-blanco" }, region: { id: "es-cn-gran-canaria" } });
    // ~1.25° of latitude south: about 139 km (the Mogán wrecks are ~147 km).
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(132);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(145);
  });
});

/**
 * The next date (today included) in the Canaries that falls on the given weekday (0 = Sunday), as
 * YYYY-MM-DD: today by the service's clock, so the date is inside the horizon whatever day the suite runs.
 */
function nextCanaryDate(weekday: number): string {
  const today = new Date(`${svc.clock.now().toLocaleDateString("en-CA", { timeZone: "Atlantic/Canary" })}T12:00:00Z`);
  const ahead = (weekday - today.getUTCDay() + 7) % 7;
  return new Date(today.getTime() + ahead * 86_400_000).toISOString().slice(0, 10);
}

describe("Lanzarote", () => {
  it("closes the La Graciosa marine reserve to spearfishing and keeps spearos off the sculpture museum", async () => {
    const body = await rec("activity=spearfish&region=es-cn-lanzarote&limit=5");
    const excluded = Object.fromEntries(body.considered.excluded.map((e) => [e.spot.id, e.reason]));
    expect(excluded).toEqual({ "la-graciosa": "closed_to_spearfishing", "museo-atlantico": "unsuited_use" });
    expect(body.considered.excluded.find((e) => e.spot.id === "la-graciosa")!.areas).toEqual([
      "Reserva Marina de la Isla de La Graciosa e Islotes del Norte de Lanzarote",
    ]);
    expect(body.picks.map((p) => p.spot.id).sort()).toEqual(["papagayo", "puerto-del-carmen"]);
  });

  it("excludes the Museo Atlántico on Sundays, when it is closed, and offers it with its booking rule on Mondays", async () => {
    // A 1 km radius round Marina Rubicón holds only the museum (the Papagayo anchorage is ~2 km east).
    const near = "activity=dive&lat=28.856&lon=-13.814&radius_km=1&limit=1";
    const sunday = await rec(`${near}&date=${nextCanaryDate(0)}`);
    expect(sunday.picks).toEqual([]);
    expect(sunday.considered.excluded).toEqual([
      expect.objectContaining({ spot: expect.objectContaining({ id: "museo-atlantico" }), reason: "closed_on_date", note: expect.stringMatching(/Monday to Saturday/) }),
    ]);
    const monday = await rec(`${near}&date=${nextCanaryDate(1)}`);
    expect(monday.picks.map((p) => p.spot.id)).toEqual(["museo-atlantico"]);
    expect(monday.picks[0]!.caveats.map((c) => c.message).join(" ")).toMatch(/certified dive company/);
  });
});
