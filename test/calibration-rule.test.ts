// The calibration rule (src/catalog/levels.ts, docs/model.md) on made-up spots: which references
// count (a person's page, a typical figure, a scope that fits the spot's habitat), how conflicting
// sources pool, how floors and ceilings bound a level, when a spot's typical level is calibrated, and
// when a region is published `full`. calibration.test.ts holds the shipped catalogue to the same rule.
import { describe, expect, it } from "vitest";
import { HABITAT_FITS, habitatOf, SHALLOW_MAX_M } from "../src/catalog/habitat.js";
import { Publishers } from "../src/catalog/publishers.js";
import {
  BOUND_SHARE,
  closedAllMonth,
  FULL_MIN_CALIBRATED,
  MAX_MONTH_STEP,
  MAX_RANGE_RATIO,
  monthSteps,
  pooledRange,
  rangeFor,
  regionLevels,
  SINGLE_FIGURE_TOLERANCE,
  spotLevel,
  uncounted,
} from "../src/catalog/levels.js";
import type { AccessRule, ReferenceScope, RegionRecord, VisibilityReference } from "../src/catalog/schema.js";
import { REFERENCE_SCOPES } from "../src/catalog/schema.js";

const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
/** Publishers for the made-up pages: example.org is a dive operator, gen.example a generated page farm. */
const PUBLISHERS = new Publishers([
  { match: "example.org", kind: "operator", name: "An operator", why: "Test." },
  { match: "gen.example", kind: "generated", name: "A page farm", why: "Test." },
  { match: "gen.example/person", kind: "community", name: "A person's page on the farm's host", why: "Test." },
]);
const ref = (low: number | null, high: number | null, over: Partial<VisibilityReference> = {}): VisibilityReference => ({
  low_ft: low,
  high_ft: high,
  months: ALL,
  kind: "site",
  source: "https://example.org/",
  says: "x",
  ...over,
});
const area = (low: number | null, high: number | null, scope: ReferenceScope, over: Partial<VisibilityReference> = {}) => ref(low, high, { kind: "area", scope, ...over });
const flat = (ft: number) => Array<number>(12).fill(ft);
/** Open water 12 m deep on reef: every scope but `elsewhere` may calibrate it. */
const OPEN = { typical_depth_m: 12, bottom: "reef", runoff: 0.1, swell_exposure: 0.6 } as const;
const LAGOON = { typical_depth_m: 3, bottom: "sand", runoff: 0.1, swell_exposure: 0.2 } as const;
type SpotData = Parameters<typeof spotLevel>[0];
const spot = (
  refs: VisibilityReference[],
  level: number[] = flat(60),
  kind: SpotData["clarity_kind"] = "site",
  id = "s",
  water: Pick<SpotData, "typical_depth_m" | "bottom" | "runoff" | "swell_exposure"> = OPEN,
): SpotData => ({
  id,
  name: id,
  clarity_ft: level,
  clarity_kind: kind,
  visibility_refs: refs,
  access: [],
  ...water,
});
const uncountedFor = (r: VisibilityReference, water: Pick<SpotData, "typical_depth_m" | "bottom" | "runoff" | "swell_exposure"> = OPEN) => uncounted(r, water, PUBLISHERS);
const levelOf = (s: SpotData, level?: number[]) => spotLevel(s, level ?? s.clarity_ft, PUBLISHERS);

describe("which references count", () => {
  it("counts a person's typical range of any kind but a log", () => {
    expect(uncountedFor(ref(40, 80))).toBeNull();
    expect(uncountedFor(area(40, 80, "coast"))).toBeNull();
    expect(uncountedFor(ref(40, 80, { kind: "operator_table", scope: "coast" }))).toBeNull();
    expect(uncountedFor(ref(40, 80, { kind: "log" }))).toBe("log");
  });

  it("never counts generated text, and needs every publisher judged", () => {
    expect(uncountedFor(ref(40, 80, { source: "https://gen.example/page" }))).toBe("generated");
    expect(uncountedFor(ref(40, 80, { source: "https://www.gen.example/a/b" }))).toBe("generated");
    // The longest match wins: a person's path on the same host counts.
    expect(uncountedFor(ref(40, 80, { source: "https://gen.example/person/page" }))).toBeNull();
    expect(uncountedFor(ref(40, 80, { source: "https://unknown.example/" }))).toBe("unknown_publisher");
    // A generated page spoils nothing else: with a person's page beside it the spot is calibrated on that one.
    const s = levelOf(spot([ref(40, 80), ref(90, 120, { source: "https://gen.example/p" })]));
    expect(s).toMatchObject({ calibrated: true, counted: 1, publishers: 1 });
    expect(levelOf(spot([ref(40, 80, { source: "https://gen.example/p" })]))).toMatchObject({ calibrated: false, counted: 0 });
  });

  it("leaves out a figure for another place, a floor or a ceiling alone, and a range wider than ×3", () => {
    expect(uncountedFor(area(40, 80, "elsewhere"))).toBe("elsewhere");
    expect(uncountedFor(ref(50, null))).toBe("floor_only");
    expect(uncountedFor(ref(null, 50))).toBe("ceiling_only");
    expect(MAX_RANGE_RATIO).toBe(3);
    expect(uncountedFor(ref(20, 60))).toBeNull();
    expect(uncountedFor(ref(20, 63))).toBe("too_wide");
    // A metre range of exactly ×3 stored in whole feet (5–15 m as 16–49 ft, 10–30 m as 33–100 ft)
    // still counts; 3–10 m (10–33 ft) does not.
    expect(uncountedFor(ref(16, 49))).toBeNull();
    expect(uncountedFor(ref(33, 100))).toBeNull();
    expect(uncountedFor(ref(10, 33))).toBe("too_wide");
    // A log is a log whatever else it says.
    expect(uncountedFor(ref(50, null, { kind: "log" }))).toBe("log");
  });

  it("stands a single typical figure for ±25 % around it, in whole feet", () => {
    expect(SINGLE_FIGURE_TOLERANCE).toBe(0.25);
    expect(rangeFor({ low_ft: 100, high_ft: 100 })).toEqual({ low: 75, high: 125 });
    expect(rangeFor({ low_ft: 66, high_ft: 66 })).toEqual({ low: 50, high: 83 });
    expect(rangeFor({ low_ft: 40, high_ft: 80 })).toEqual({ low: 40, high: 80 });
  });
});

describe("the habitat rule", () => {
  it("reads a spot's habitat from its depth, bottom, shelter and runoff", () => {
    expect(habitatOf(OPEN)).toBe("open");
    expect(habitatOf(LAGOON)).toBe("lagoon");
    expect(habitatOf({ ...OPEN, typical_depth_m: SHALLOW_MAX_M })).toBe("shallow");
    expect(habitatOf({ ...OPEN, typical_depth_m: 3, bottom: "mixed", swell_exposure: 0.3 })).toBe("lagoon");
    expect(habitatOf({ ...OPEN, typical_depth_m: 3, bottom: "mixed", swell_exposure: 0.5 })).toBe("shallow");
    expect(habitatOf({ ...OPEN, runoff: 0.5 })).toBe("turbid");
  });

  it("applies one table to every reference: which scope may calibrate which habitat", () => {
    const table = Object.fromEntries(REFERENCE_SCOPES.map((scope) => [scope, [...HABITAT_FITS[scope]]]));
    expect(table).toEqual({
      bay: ["open", "shallow", "lagoon", "turbid"],
      coast: ["open", "shallow"],
      outer_reef: ["open"],
      centre: ["open"],
      elsewhere: [],
    });
    // Moorea's case: a dive club's average over its passes, lagoon and ocean sites does not calibrate a 3 m sand lagoon spot…
    expect(uncountedFor(area(98, 98, "centre"), LAGOON)).toBe("habitat");
    // …nor does an island-wide figure (the US Virgin Islands' and Hawaiʻi's sand bays)…
    expect(uncountedFor(area(40, 80, "coast"), LAGOON)).toBe("habitat");
    // …while the same island figure calibrates a shallow reef as it does open water (Hawksnest Bay and Waterlemon Cay alike).
    expect(uncountedFor(area(40, 80, "coast"), { ...OPEN, typical_depth_m: 3 })).toBeNull();
    expect(uncountedFor(area(40, 80, "coast"), { ...OPEN, typical_depth_m: 4 })).toBeNull();
    // A figure for the lagoon itself, or a page about the spot, calibrates it.
    expect(uncountedFor(area(20, 40, "bay"), LAGOON)).toBeNull();
    expect(uncountedFor(ref(20, 40), LAGOON)).toBeNull();
    expect(uncountedFor(area(60, 100, "outer_reef"), { ...OPEN, typical_depth_m: 5 })).toBe("habitat");
  });
});

describe("floors and ceilings", () => {
  it("bound the level without setting it: a level below a floor or above a ceiling is an error the check reports", () => {
    const floor = ref(70, null);
    expect(levelOf(spot([ref(50, 100), floor], flat(80)))).toMatchObject({ calibrated: true, beyondBounds: [] });
    const low = levelOf(spot([ref(50, 100), floor], flat(60)));
    expect(low).toMatchObject({ calibrated: false, beyondBounds: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] });
    expect(low.reason).toMatch(/^its level is beyond a published floor or ceiling in Jan/);
    expect(low.months[0]).toMatchObject({ floor: 70, ceiling: null, within: false });
    expect(levelOf(spot([ref(50, 100), ref(null, 70)], flat(80))).beyondBounds).toHaveLength(12);
    // A floor alone calibrates nothing.
    expect(levelOf(spot([floor], flat(80)))).toMatchObject({ calibrated: false, counted: 0 });
  });

  it("ask for the range's upper quarter when the sources disagree (a floor at or above every range)", () => {
    expect(BOUND_SHARE).toBe(0.25);
    const s = levelOf(spot([ref(50, 100), ref(150, null)], flat(90)));
    expect(s.months[0]).toMatchObject({ floor: 87, within: true });
    expect(levelOf(spot([ref(50, 100), ref(100, null)], flat(90))).months[0]).toMatchObject({ floor: 87, within: true });
    expect(levelOf(spot([ref(50, 100), ref(150, null)], flat(80))).calibrated).toBe(false);
    // A ceiling at or below every range asks for its lower quarter.
    expect(levelOf(spot([ref(50, 100), ref(null, 40)], flat(60))).months[0]).toMatchObject({ ceiling: 63, within: true });
  });

  it("count only where the floor itself would count (a person's page whose scope fits)", () => {
    const generated = ref(90, null, { source: "https://gen.example/p" });
    expect(levelOf(spot([ref(50, 100), generated], flat(60))).calibrated).toBe(true);
    expect(levelOf(spot([ref(50, 100), area(90, null, "elsewhere")], flat(60))).calibrated).toBe(true);
  });
});

describe("pooling sources", () => {
  it("takes the median of the counting sources' lower ends and of their upper ends, whatever their order", () => {
    const a = ref(66, 98);
    const b = ref(37, 61);
    const c = ref(98, 131);
    expect(pooledRange([a, b, c], 1)).toMatchObject({ low: 66, high: 98 });
    expect(pooledRange([c, b, a], 1)).toMatchObject({ low: 66, high: 98 });
    // Two sources: the middle of each pair of ends.
    expect(pooledRange([a, b], 1)).toMatchObject({ low: 51.5, high: 79.5 });
    expect(pooledRange([b, a], 1)).toMatchObject({ low: 51.5, high: 79.5 });
  });

  it("pools only the sources that count and cover the month, and has no range without one", () => {
    const winter = ref(30, 50, { months: [12, 1, 2] });
    const log = ref(100, 100, { kind: "log" });
    const counting = (refs: VisibilityReference[]) => refs.filter((r) => uncountedFor(r) === null);
    expect(pooledRange(counting([winter, log, ref(60, 90)]), 1)).toMatchObject({ low: 45, high: 70 });
    expect(pooledRange(counting([winter, log, ref(60, 90)]), 6)).toMatchObject({ low: 60, high: 90 });
    expect(pooledRange(counting([winter, log]), 6)).toBeNull();
    expect(pooledRange(counting([ref(50, null)]), 6)).toBeNull();
  });
});

describe("a calibrated spot", () => {
  it("has a level from a published kind of source inside every month's pooled range", () => {
    expect(levelOf(spot([ref(40, 80)]))).toMatchObject({ calibrated: true, reason: null, counted: 1 });
    // Both ends of the range are inside it.
    expect(levelOf(spot([ref(40, 80)], flat(40))).calibrated).toBe(true);
    expect(levelOf(spot([ref(40, 80)], flat(80))).calibrated).toBe(true);
  });

  it("is not calibrated when its level rests on judgement or a log, whatever the references", () => {
    expect(levelOf(spot([ref(40, 80)], flat(60), "judgement"))).toMatchObject({ calibrated: false, reason: "its level rests on judgement" });
    expect(levelOf(spot([ref(40, 80)], flat(60), "log"))).toMatchObject({ calibrated: false, reason: "its level rests on a dive log" });
  });

  it("needs a counting figure for every month, and its level inside each", () => {
    expect(levelOf(spot([]))).toMatchObject({
      calibrated: false,
      reason: "no published typical figure found that passes the rule (a person's page, a typical figure, a scope that fits its habitat)",
    });
    expect(levelOf(spot([ref(50, null)]))).toMatchObject({ calibrated: false, counted: 0 });
    expect(levelOf(spot([ref(40, 80, { months: [5, 6, 7, 8, 9, 10] })])).reason).toBe("no counting figure for Jan, Feb, Mar, Apr, Nov, Dec");
    const level = [81, ...flat(60).slice(1, 11), 39];
    const s = levelOf(spot([ref(40, 80)], level));
    expect(s).toMatchObject({ calibrated: false, reason: "its level is outside the published range in Jan, Dec" });
    expect(s.months[0]).toEqual({ month: 1, level_ft: 81, range: { low: 40, high: 80 }, floor: null, ceiling: null, closed: false, within: false });
    expect(s.months[1]).toEqual({ month: 2, level_ft: 60, range: { low: 40, high: 80 }, floor: null, ceiling: null, closed: false, within: true });
  });

  it("needs no figure for a month the spot is closed throughout, and does for a month it is open even a day", () => {
    const closure = (from: string, to: string): AccessRule => ({ kind: "closed_season", from, to, rule: "Closed.", source: "https://example.org/" });
    const winterOnly = ref(40, 80, { months: [1, 2, 3, 4, 11, 12] });
    // Closed 16 May – 14 Oct: June to September need nothing, but May and October are open in part.
    const rok = { ...spot([winterOnly]), access: [closure("05-16", "10-14")] };
    expect(levelOf(rok).reason).toBe("no counting figure for May, Oct");
    expect(levelOf(rok).months[5]).toEqual({ month: 6, level_ft: 60, range: null, floor: null, ceiling: null, closed: true, within: true });
    expect(levelOf({ ...rok, access: [closure("05-01", "10-31")] }).calibrated).toBe(true);
    // A closure across the new year.
    expect(closedAllMonth([closure("12-15", "02-28")], 1)).toBe(true);
    expect(closedAllMonth([closure("12-15", "02-28")], 2)).toBe(true);
    expect(closedAllMonth([closure("12-15", "02-27")], 2)).toBe(false);
    expect(closedAllMonth([closure("12-15", "02-28")], 12)).toBe(false);
    expect(closedAllMonth([closure("03-20", "03-10")], 3)).toBe(false);
    expect(closedAllMonth([{ kind: "permit", rule: "Permit.", source: "https://example.org/" }], 3)).toBe(false);
  });

  it("is judged on a level passed in place of its own (the baselines)", () => {
    expect(levelOf(spot([ref(40, 80)]), flat(90)).calibrated).toBe(false);
    expect(levelOf(spot([ref(40, 80)], flat(90)), flat(60)).calibrated).toBe(true);
  });
});

describe("a region published `full`", () => {
  const region = (spots: SpotData[], checked: string | null = "Checked against the map."): Pick<RegionRecord, "id" | "name" | "decision_support" | "response_check" | "spots"> => ({
    id: "r",
    name: "R",
    decision_support: "conditions_only",
    response_check: checked,
    spots: spots as RegionRecord["spots"],
  });
  const good = (i: number) => spot([ref(40, 80)], flat(60), "site", `g${i}`);
  const bad = (i: number) => spot([ref(40, 80)], flat(60), "judgement", `b${i}`);

  it("needs three calibrated spots, however many others it lists", () => {
    expect(FULL_MIN_CALIBRATED).toBe(3);
    expect(regionLevels(region([0, 1, 2].map(good)), undefined, PUBLISHERS)).toMatchObject({ calibrated: 3, earnsFull: true, reason: null });
    // Adding uncalibrated beaches no longer unpublishes a region (the 80 % share did).
    expect(regionLevels(region([0, 1, 2].map(good).concat([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(bad))), undefined, PUBLISHERS)).toMatchObject({ calibrated: 3, earnsFull: true });
    const short = regionLevels(region([0, 1].map(good).concat([bad(0)])), undefined, PUBLISHERS);
    expect(short).toMatchObject({ calibrated: 2, earnsFull: false });
    expect(short.reason).toBe("R: 2 of its 3 spots have a typical visibility calibrated to published figures (3 needed to rank).");
    expect(regionLevels(region([]), undefined, PUBLISHERS).earnsFull).toBe(false);
  });

  it("needs its response inputs checked, and says which is missing", () => {
    const unchecked = regionLevels(region([0, 1, 2].map(good), null), undefined, PUBLISHERS);
    expect(unchecked).toMatchObject({ responseChecked: false, earnsFull: false });
    expect(unchecked.reason).toBe("R: its spots' exposure, depths and runoff have not yet been checked against a map or a source.");
    expect(regionLevels(region([bad(0)], null), undefined, PUBLISHERS).reason).toBe(
      "R: 0 of its 1 spots have a typical visibility calibrated to published figures (3 needed to rank); its spots' exposure, depths and runoff have not yet been checked against a map or a source.",
    );
  });

  it("can be judged with every spot's level replaced", () => {
    expect(regionLevels(region([0, 1, 2].map(good)), () => flat(100), PUBLISHERS).earnsFull).toBe(false);
  });
});

describe("month-to-month steps", () => {
  it("flags adjacent months more than ×1.25 apart, December to January included", () => {
    expect(MAX_MONTH_STEP).toBe(1.25);
    expect(monthSteps(flat(60))).toEqual([]);
    expect(monthSteps([80, 80, 80, 80, 64, 64, 64, 64, 80, 80, 80, 80])).toEqual([]);
    expect(monthSteps([82, 82, 82, 82, 66, 66, 66, 66, 115, 115, 115, 115]).map((s) => [s.from, s.to])).toEqual([
      [8, 9],
      [12, 1],
    ]);
  });
});
