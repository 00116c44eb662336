// The Cape Peninsula & False Bay region through the real HTTP server: it answers conditions offline
// from its seasonal norms and live from the upstream emulator, the wind regime decides which side of
// the peninsula is clearer in which season, the Table Mountain National Park MPA's no-take zones
// exclude the right spots from spearfishing, and a point across the South Atlantic names the right
// nearest spot. The region holds two seas: offline, the Atlantic seaboard spots take their water
// temperature from the colder Atlantic seaboard zone of the seasonal norms and the False Bay spots
// from the region's table; live answers are the upstream's on both sides.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { FixedClock } from "../src/clock.js";
import { loadConfig } from "../src/config.js";
import { createContext } from "../src/compose.js";
import { createLogger } from "../src/logger.js";
import { clonedCatalog, clonedClimatology } from "../src/sources/budget.js";
import { loadClimatology } from "../src/sources/climatology.js";
import { type ConditionsJson } from "../src/schemas/conditions.js";
import { liveRuns } from "./helpers/live.js";
import { conditionsFrom, itAnswersLive, recommendationsFrom, supportByRule } from "./helpers/regions.js";
import { startService, type TestService } from "./helpers/service.js";

const REGION = "za-wc-cape-peninsula";
const TIMEZONE = "Africa/Johannesburg";
/**
 * One spot on each side of the peninsula, with the tide station of its side and the water each
 * side's sources give: Atlantic side 10–15 °C, False Bay 14–18 °C (simonstown.com, 'Dive the Cape').
 */
const SIDES = [
  { side: "Atlantic seaboard", spot: "coral-gardens-oudekraal", station: "ticon/cape_town-704a-zaf-uhslc_rq", waterC: [10, 15] },
  { side: "False Bay", spot: "pyramid-rock", station: "ticon/simons_town-221a-zaf-uhslc_rq", waterC: [14, 18] },
] as const;
const ATLANTIC_SPOTS = ["coral-gardens-oudekraal", "sandy-cove-kraaiestein", "ss-maori", "north-paw"];
const FALSE_BAY_SPOTS = ["long-beach-simons-town", "boulders-penguin-point", "pyramid-rock", "smitswinkel-bay-wrecks", "ss-lusitania-bellows"];
/** Mid-January, the south-easter's upwelling season (10:00 in Cape Town). */
const JANUARY = "2027-01-15T08:00:00Z";
const waterTemps = (body: ConditionsJson) => {
  const t = [body.now, ...body.periods].flatMap((p) => (p?.water_temp_c == null ? [] : [p.water_temp_c]));
  expect(t.length).toBeGreaterThan(0);
  return t;
};

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const conditions = (qs: string, s: TestService = svc) => conditionsFrom(s, qs);
const rec = (qs: string) => recommendationsFrom(svc, qs);
/** Mean visibility of the 09:00 and 12:00 periods, in full daylight whatever the season. */
const meanVisibility = (body: ConditionsJson) => {
  const v = body.periods
    .filter((p) => ["09", "12"].includes(p.start?.slice(11, 13) ?? ""))
    .map((p) => p.visibility_ft)
    .filter((x): x is number => x !== null);
  expect(v.length).toBeGreaterThan(0);
  return v.reduce((a, b) => a + b, 0) / v.length;
};

describe("the published catalogue", () => {
  it("lists the Cape Peninsula in the coverage listing with 16 spots, published as its calibration earns", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { status, body } = await shipped.json<{ regions: { id: string; decision_support: string; spot_count: number; spots: { id: string }[] }[] }>("/api/v1/coverage");
      expect(status).toBe(200);
      const r = body.regions.find((x) => x.id === REGION);
      expect(r).toBeDefined();
      expect(r!.decision_support).toBe(supportByRule(r!.id));
      expect(r!.spot_count).toBe(16);
      expect(r!.spots.map((s) => s.id)).toEqual(expect.arrayContaining(["coral-gardens-oudekraal", "ss-maori", "pyramid-rock", "castle-rocks", "smitswinkel-bay-wrecks"]));
    } finally {
      await shipped.close();
    }
  });
});

describe.each(SIDES)("$side ($spot)", ({ spot, station, waterC }) => {
  it("answers conditions offline from its seasonal norms and the real tides of its side's station", async () => {
    const body = await conditions(`spot=${spot}`);
    expect(body.spot).toMatchObject({ id: spot, region: { id: REGION }, timezone: TIMEZONE });
    expect(body.data_quality).toEqual({ visibility_source: "heuristic", freshness: "none" });
    expect(body.sources).toContain(`climatology:${REGION}`);
    expect(body.sources).toContain(`tide-harmonics:${station}`);
    expect(body.tide_events.length).toBeGreaterThan(10);
    // A semi-diurnal tide of ~1.5 m springs: every high is above every low.
    const highs = body.tide_events.filter((e) => e.type === "high").map((e) => e.height_ft!);
    const lows = body.tide_events.filter((e) => e.type === "low").map((e) => e.height_ft!);
    expect(Math.min(...highs)).toBeGreaterThan(Math.max(...lows));
    for (const p of body.periods) {
      expect(p.why).toContain("Seasonal norms, not a live forecast.");
      expect(p.visibility_ft).toBeGreaterThan(0);
      // Cold temperate water in the range its side's sources give.
      expect(p.water_temp_c).toBeGreaterThanOrEqual(waterC[0]);
      expect(p.water_temp_c).toBeLessThanOrEqual(waterC[1]);
    }
  });

  itAnswersLive(REGION, spot);
});

describe("seasonal water temperature on each side of the peninsula", () => {
  let jan: TestService;
  beforeAll(async () => {
    jan = await startService({ now: JANUARY });
  });
  afterAll(() => jan.close());

  it("in January gives every Atlantic seaboard spot upwelled Atlantic water (10–15 °C), credited to the Atlantic sources", async () => {
    for (const spot of ATLANTIC_SPOTS) {
      const body = await conditions(`spot=${spot}`, jan);
      expect(body.data_quality.freshness, spot).toBe("none");
      for (const t of waterTemps(body)) {
        expect(t, spot).toBeGreaterThanOrEqual(10);
        expect(t, spot).toBeLessThanOrEqual(15);
      }
      const norms = body.data_credits.filter((c) => c.provider === "Ocean Conditions seasonal norms");
      expect(norms, spot).toHaveLength(1);
      expect(norms[0]!.credit, spot).toMatch(/^Seasonal norms for Cape Peninsula & False Bay, with Atlantic seaboard water temperature \(not a forecast\), compiled from published sources: Simon's Town; Green Point Greenie/);
    }
  });

  it("in January gives every False Bay spot False Bay water (16–18 °C), 2 °C or more warmer than the Atlantic side", async () => {
    const atlanticMax = Math.max(...(await conditions("spot=coral-gardens-oudekraal", jan)).periods.map((p) => p.water_temp_c!));
    for (const spot of FALSE_BAY_SPOTS) {
      const body = await conditions(`spot=${spot}`, jan);
      const temps = waterTemps(body);
      for (const t of temps) {
        expect(t, spot).toBeGreaterThanOrEqual(16);
        expect(t, spot).toBeLessThanOrEqual(18);
      }
      expect(Math.min(...temps) - atlanticMax, spot).toBeGreaterThanOrEqual(2);
      const norms = body.data_credits.find((c) => c.provider === "Ocean Conditions seasonal norms");
      expect(norms!.credit, spot).toMatch(/^Seasonal norms for Cape Peninsula & False Bay \(not a forecast\)/);
    }
  });

  const live = liveRuns();
  it("leaves live answers alone: both sides get the upstream's sea temperature at their own coordinates", async () => {
    const r = await live({ scenario: "calm", now: JANUARY });
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const sides: Record<string, number> = {};
    for (const spot of ["coral-gardens-oudekraal", "pyramid-rock"]) {
      const { status, body } = await r.svc.json<ConditionsJson>(`/api/v1/conditions?spot=${spot}&from=2027-01-15&to=2027-01-16`);
      expect(status).toBe(200);
      expect(body.data_quality.freshness).toBe("live");
      expect(body.sources.filter((s) => s.startsWith("climatology:"))).toEqual([]);
      sides[spot] = mean(waterTemps(body));
    }
    // The emulator's calm sea runs about 19 °C at 34° S and knows nothing of the Atlantic seaboard
    // zone: the live Atlantic answer is that, not the zone's 12.5 °C norm.
    expect(sides["coral-gardens-oudekraal"]).toBeGreaterThan(17);
    expect(Math.abs(sides["coral-gardens-oudekraal"]! - sides["pyramid-rock"]!)).toBeLessThan(0.5);
  });

  it("keeps the zone for the planning clones of the region (spot ids suffixed -c2)", async () => {
    const records = Catalog.readRecords();
    // Twice today's spots: every region, the Cape's last among them, gets one clone.
    const big = clonedCatalog(records, 2 * records.reduce((n, r) => n + r.spots.length, 0));
    const s = await startService({ now: JANUARY, catalog: big, climatology: clonedClimatology(big) });
    try {
      const atlantic = waterTemps(await conditions("spot=coral-gardens-oudekraal-c2", s));
      const falseBay = waterTemps(await conditions("spot=pyramid-rock-c2", s));
      expect(Math.max(...atlantic)).toBeLessThanOrEqual(15);
      expect(Math.min(...falseBay)).toBeGreaterThanOrEqual(16);
    } finally {
      await s.close();
    }
  });

  it("refuses to start when a water-temperature zone names a spot its region does not have", () => {
    const tables = loadClimatology();
    const cape = tables.get(REGION)!;
    tables.set(REGION, { ...cape, water_temp_zones: cape.water_temp_zones!.map((z) => ({ ...z, spots: [...z.spots, "coral-gardns-oudekraal"] })) });
    const config = loadConfig({ DATA_SOURCE: "offline", LOG_LEVEL: "silent" });
    expect(() => createContext({ config, clock: new FixedClock(JANUARY), catalog: Catalog.load(), climatology: tables, log: createLogger("silent") })).toThrow(
      /za-wc-cape-peninsula: water_temp_zones name spots not in the region: atlantic-seaboard: coral-gardns-oudekraal/,
    );
  });
});

describe("which side of the peninsula is clearer", () => {
  const atSeason = async (now: string) => {
    const s = await startService({ now });
    try {
      const atlantic = meanVisibility(await conditions("spot=coral-gardens-oudekraal", s));
      const falseBay = meanVisibility(await conditions("spot=pyramid-rock", s));
      return { atlantic, falseBay };
    } finally {
      await s.close();
    }
  };

  it("in January (south-easter season) the Atlantic seaboard is clearer than False Bay", async () => {
    const { atlantic, falseBay } = await atSeason("2027-01-15T08:00:00Z");
    expect(atlantic).toBeGreaterThan(falseBay);
  });

  // The published typical figures put False Bay's winter at 6–7 m and the Atlantic seaboard's year at
  // about 10 m, so the two sides' levels do not cross in July: each side's season shows in its own
  // year (a north-wester clearing False Bay on a given day is the day-to-day response's to tell).
  it("each side is clearest in its own season: the Atlantic in January, False Bay in July", async () => {
    const january = await atSeason("2027-01-15T08:00:00Z");
    const july = await atSeason("2026-07-15T08:00:00Z");
    expect(january.atlantic).toBeGreaterThan(july.atlantic);
    expect(july.falseBay).toBeGreaterThan(january.falseBay);
  });
});

describe("spearfishing in the Table Mountain National Park MPA", () => {
  const NO_TAKE: Record<string, string> = {
    "coral-gardens-oudekraal": "Karbonkelberg Restricted Zone (Table Mountain National Park MPA)",
    "ss-maori": "Karbonkelberg Restricted Zone (Table Mountain National Park MPA)",
    "photographers-reef": "Boulders Restricted Zone (Table Mountain National Park MPA)",
    "boulders-penguin-point": "Boulders Restricted Zone (Table Mountain National Park MPA)",
    "windmill-beach": "Boulders Restricted Zone (Table Mountain National Park MPA)",
    "castor-rock": "Boulders Restricted Zone (Table Mountain National Park MPA)",
    "a-frame": "Boulders Restricted Zone (Table Mountain National Park MPA)",
    "shark-alley": "Castle Rocks Restricted Zone (Table Mountain National Park MPA)",
    "pyramid-rock": "Castle Rocks Restricted Zone (Table Mountain National Park MPA)",
    "castle-rocks": "Castle Rocks Restricted Zone (Table Mountain National Park MPA)",
    "partridge-point": "Castle Rocks Restricted Zone (Table Mountain National Park MPA)",
  };

  it("excludes every spot in a restricted (no-take) zone, names the zone, and flags the permit rules on the rest", async () => {
    const body = await rec(`activity=spearfish&region=${REGION}&limit=5`);
    const closed = body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing");
    expect(closed.map((e) => e.spot.id).sort()).toEqual(Object.keys(NO_TAKE).sort());
    for (const e of closed) expect(e.areas, e.spot.id).toEqual([NO_TAKE[e.spot.id]]);

    const byId = new Map(body.considered.excluded.map((e) => [e.spot.id, e]));
    expect(byId.get("smitswinkel-bay-wrecks")!.reason).toBe("unsuited_depth");
    expect(byId.get("long-beach-simons-town")!.reason).toBe("unsuited_hazard");
    expect(byId.get("ss-lusitania-bellows")!.reason).toBe("unsuited_depth");

    // Only the two Atlantic controlled-zone reefs are left; each pick carries the MPA's fishing rules.
    expect(body.picks.map((p) => p.spot.id).sort()).toEqual(["north-paw", "sandy-cove-kraaiestein"]);
    for (const p of body.picks) {
      const messages = p.caveats.filter((c) => c.code === "regulated_area").map((c) => c.message).join(" ");
      expect(messages, p.spot.id).toMatch(/Table Mountain National Park MPA \(controlled zone\)/);
      expect(messages, p.spot.id).toMatch(/My Activity Permit Level 3/);
    }
  });

  it("tells a scuba diver about the MPA dive permit", async () => {
    const body = await rec(`activity=dive&region=${REGION}&limit=3`);
    expect(body.picks.length).toBeGreaterThan(0);
    for (const p of body.picks) {
      const permit = p.caveats.find((c) => c.code === "regulated_area" && /recreational scuba permit/.test(c.message));
      expect(permit, p.spot.id).toBeDefined();
    }
  });
});

describe("not_covered across an ocean", () => {
  it("names the SS Maori, the westernmost Cape spot, for a point off Tristan da Cunha across the South Atlantic", async () => {
    const body = await rec("activity=dive&lat=-37.1&lon=-12.3");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "ss-maori" }, region: { id: REGION } });
    // ~30.6° of longitude east and ~3° of latitude north: about 2,780 km.
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(2700);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(2860);
  });
});
