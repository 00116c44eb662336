// The calibration rule's arithmetic (src/forecast/calibration.ts, docs/model.md) on made-up spots,
// and the model's seasonal-norm visibility for one real region checked against the table published
// in docs/model.md (calibration.test.ts keeps that table current for the whole catalogue, which is
// too slow to run for every mutant in a mutation run).
import { describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { calibrate, checkSpot, FULL_SUPPORT_SHARE, summariseRegion } from "../src/forecast/calibration.js";
import { ClimatologySource, loadClimatology } from "../src/sources/climatology.js";
import { HarmonicTideSource, loadTideStations } from "../src/sources/tides.js";

const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const ref = (low: number, high: number | null, months = ALL) => ({ low_ft: low, high_ft: high, months, scope: "site" as const, source: "https://example.org/", says: "x" });
const spot = (id: string, refs: ReturnType<typeof ref>[]) => ({ id, name: id, visibility_refs: refs });
const flat = (ft: number) => Array<number>(12).fill(ft);

describe("the calibration rule", () => {
  it("counts a month within range inside the published range, with no ceiling for a floor-only figure", () => {
    expect(checkSpot(spot("a", [ref(40, 80)]), flat(60)).within).toBe(true);
    expect(checkSpot(spot("a", [ref(40, 80)]), flat(85)).within).toBe(false);
    expect(checkSpot(spot("a", [ref(50, null)]), flat(140)).within).toBe(true);
    expect(checkSpot(spot("a", [ref(50, null)]), flat(45)).within).toBe(false);
    // Both ends of a range are inside it.
    expect(checkSpot(spot("a", [ref(40, 80)]), flat(40)).within).toBe(true);
    expect(checkSpot(spot("a", [ref(40, 80)]), flat(80)).within).toBe(true);
    expect(checkSpot(spot("a", [ref(50, null)]), flat(50)).within).toBe(true);
  });

  it("measures error from the middle of a range, and as the shortfall below a floor-only figure", () => {
    expect(checkSpot(spot("a", [ref(40, 80)]), flat(70)).months[0]!.error_ft).toBe(10);
    expect(checkSpot(spot("a", [ref(50, null)]), flat(40)).months[0]!.error_ft).toBe(10);
    expect(checkSpot(spot("a", [ref(50, null)]), flat(140)).months[0]!.error_ft).toBe(0);
  });

  it("allows ±25 % around a single typical figure", () => {
    expect(checkSpot(spot("a", [ref(100, 100)]), flat(76)).within).toBe(true);
    expect(checkSpot(spot("a", [ref(100, 100)]), flat(74)).within).toBe(false);
  });

  it("judges a spot on the months its references cover, passing it when at least 80 % of them are within", () => {
    const winterMiss = [10, 10, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60]; // 10 of 12 months within
    expect(checkSpot(spot("a", [ref(40, 80)]), winterMiss).within).toBe(true);
    expect(checkSpot(spot("a", [ref(40, 80)]), [10, 10, 10, ...flat(60).slice(3)]).within).toBe(false);
    // Exactly 80 %: four of five referenced months within.
    expect(checkSpot(spot("a", [ref(40, 80, [1, 2, 3, 4, 5])]), [10, ...flat(60).slice(1)]).within).toBe(true);
    const summerOnly = checkSpot(spot("a", [ref(40, 80, [6, 7, 8])]), [...flat(10).slice(0, 5), 60, 60, 60, ...flat(10).slice(8)]);
    expect(summerOnly.months.map((m) => m.month)).toEqual([6, 7, 8]);
    expect(summerOnly.within).toBe(true);
    expect(checkSpot(spot("a", []), flat(60)).within).toBeNull();
  });

  it("gives a region `full` only when 80 % of all its spots have a reference and are within it", () => {
    const region = { id: "r", name: "R", decision_support: "full" as const };
    const good = (i: number) => checkSpot(spot(`s${i}`, [ref(40, 80)]), flat(60));
    const noRef = (i: number) => checkSpot(spot(`n${i}`, []), flat(60));
    const miss = (i: number) => checkSpot(spot(`m${i}`, [ref(40, 80)]), flat(20));
    expect(FULL_SUPPORT_SHARE).toBe(0.8);
    expect(summariseRegion(region, [...[0, 1, 2, 3, 4, 5, 6, 7].map(good), noRef(0), miss(0)]).earnsFull).toBe(true);
    expect(summariseRegion(region, [...[0, 1, 2, 3, 4, 5, 6].map(good), noRef(0), noRef(1), miss(0)]).earnsFull).toBe(false);
    expect(summariseRegion(region, [...[0, 1, 2, 3, 4, 5, 6].map(good), miss(0), miss(1), miss(2)]).earnsFull).toBe(false);
  });
});


describe("a region's summary", () => {
  const region = { id: "r", name: "R", decision_support: "conditions_only" as const };
  // Error 10, 20 and 30 ft from the middle (60) of 40–80 ft; the 30 ft one is out of range.
  const at = (ft: number, months = [1]) => checkSpot(spot(`s${ft}`, [ref(40, 80, months)]), flat(ft));

  it("counts spots with a reference and within range, and the share of referenced months within", () => {
    const s = summariseRegion(region, [at(70), at(80, [1, 2]), at(90), checkSpot(spot("none", []), flat(60))]);
    expect(s).toMatchObject({ region: { id: "r", name: "R" }, published: "conditions_only", spotCount: 4, withReference: 3, withinRange: 2, earnsFull: false });
    expect(s.monthShareWithin).toBe(3 / 4);
  });

  it("takes the median error over referenced months, odd or even in number", () => {
    expect(summariseRegion(region, [at(70), at(80), at(90)]).medianErrorFt).toBe(20);
    expect(summariseRegion(region, [at(70), at(80), at(90), at(100)]).medianErrorFt).toBe(25);
    expect(summariseRegion(region, [at(100), at(70), at(90)]).medianErrorFt).toBe(30);
  });

  it("has no share, no error and no `full` without references or spots", () => {
    const none = summariseRegion(region, [checkSpot(spot("none", []), flat(60))]);
    expect(none).toMatchObject({ monthShareWithin: null, medianErrorFt: null, withReference: 0, earnsFull: false });
    expect(summariseRegion({ ...region, decision_support: "full" }, []).earnsFull).toBe(false);
  });
});

describe("one region's calibration, as docs/model.md publishes it", () => {
  it("gives Dahab's seasonal-norm visibility month by month and its region summary", async () => {
    const catalog = new Catalog(Catalog.readRecords().filter((r) => r.id === "eg-js-dahab"));
    const [dahab] = await calibrate({ source: new ClimatologySource(loadClimatology()), tides: new HarmonicTideSource(loadTideStations()), catalog });
    // docs/model.md: "The Canyon (Dahab) | 66–98 ft, all year | site | 57–62 ft | Jan 61, Feb 61, …"
    const canyon = dahab!.spots.find((s) => s.spot.name === "The Canyon (Dahab)")!;
    expect(canyon.model_ft).toEqual([61, 61, 60, 60, 59, 57, 58, 57, 58, 61, 62, 62]);
    expect(canyon.within).toBe(false);
    expect(canyon.months.map((m) => m.month)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // "Dahab & Ras Abu Galum | 4 | 4 (100 %) | 2 (50 %) | 42 % | 17 ft | no | `conditions_only`"
    expect(dahab).toMatchObject({ published: "conditions_only", spotCount: 4, withReference: 4, withinRange: 2, earnsFull: false });
    expect(Math.round(dahab!.monthShareWithin! * 100)).toBe(42);
    expect(Math.round(dahab!.medianErrorFt!)).toBe(17);
    expect(dahab!.region).toEqual({ id: "eg-js-dahab", name: "Dahab & Ras Abu Galum" });
  });
});
