// The calibration rule (src/catalog/levels.ts, docs/model.md) on made-up spots: which references
// count, how conflicting sources pool, when a spot's typical level is calibrated, and when a region
// is published `full`. calibration.test.ts holds the shipped catalogue to the same rule.
import { describe, expect, it } from "vitest";
import {
  closedAllMonth,
  FULL_SUPPORT_SHARE,
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
import type { AccessRule, ReferenceKind, RegionRecord, SpotRecord, VisibilityReference } from "../src/catalog/schema.js";

const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const ref = (low: number, high: number | null, over: Partial<VisibilityReference> = {}): VisibilityReference => ({
  low_ft: low,
  high_ft: high,
  months: ALL,
  kind: "site",
  fits: true,
  source: "https://example.org/",
  says: "x",
  ...over,
});
const flat = (ft: number) => Array<number>(12).fill(ft);
type SpotData = Pick<SpotRecord, "id" | "name" | "clarity_ft" | "clarity_kind" | "visibility_refs" | "access">;
const spot = (refs: VisibilityReference[], level: number[] = flat(60), kind: SpotRecord["clarity_kind"] = "site", id = "s"): SpotData => ({
  id,
  name: id,
  clarity_ft: level,
  clarity_kind: kind,
  visibility_refs: refs,
  access: [],
});

describe("which references count", () => {
  it("counts a fitting typical range of any kind but a log", () => {
    for (const kind of ["site", "area", "operator_table"] as ReferenceKind[]) expect(uncounted(ref(40, 80, { kind })), kind).toBeNull();
    expect(uncounted(ref(40, 80, { kind: "log" }))).toBe("log");
  });

  it("leaves out a figure for other water, a floor with no level, and a range wider than ×3", () => {
    expect(uncounted(ref(40, 80, { kind: "area", fits: false }))).toBe("does_not_fit");
    expect(uncounted(ref(50, null))).toBe("floor_only");
    expect(MAX_RANGE_RATIO).toBe(3);
    expect(uncounted(ref(20, 60))).toBeNull();
    expect(uncounted(ref(20, 63))).toBe("too_wide");
    // A metre range of exactly ×3 stored in whole feet (5–15 m as 16–49 ft, 10–30 m as 33–100 ft)
    // still counts; 3–10 m (10–33 ft) does not.
    expect(uncounted(ref(16, 49))).toBeNull();
    expect(uncounted(ref(33, 100))).toBeNull();
    expect(uncounted(ref(10, 33))).toBe("too_wide");
    // A log is a log whatever else it says.
    expect(uncounted(ref(50, null, { kind: "log" }))).toBe("log");
  });

  it("stands a single typical figure for ±25 % around it, in whole feet", () => {
    expect(SINGLE_FIGURE_TOLERANCE).toBe(0.25);
    expect(rangeFor({ low_ft: 100, high_ft: 100 })).toEqual({ low: 75, high: 125 });
    expect(rangeFor({ low_ft: 66, high_ft: 66 })).toEqual({ low: 50, high: 83 });
    expect(rangeFor({ low_ft: 40, high_ft: 80 })).toEqual({ low: 40, high: 80 });
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
    expect(pooledRange([winter, log, ref(60, 90)], 1)).toMatchObject({ low: 45, high: 70 });
    expect(pooledRange([winter, log, ref(60, 90)], 6)).toMatchObject({ low: 60, high: 90 });
    expect(pooledRange([winter, log], 6)).toBeNull();
    expect(pooledRange([ref(50, null)], 6)).toBeNull();
  });
});

describe("a calibrated spot", () => {
  it("has a level from a published kind of source inside every month's pooled range", () => {
    expect(spotLevel(spot([ref(40, 80)]))).toMatchObject({ calibrated: true, reason: null, counted: 1 });
    // Both ends of the range are inside it.
    expect(spotLevel(spot([ref(40, 80)], flat(40))).calibrated).toBe(true);
    expect(spotLevel(spot([ref(40, 80)], flat(80))).calibrated).toBe(true);
  });

  it("is not calibrated when its level rests on judgement or a log, whatever the references", () => {
    expect(spotLevel(spot([ref(40, 80)], flat(60), "judgement"))).toMatchObject({ calibrated: false, reason: "its level rests on judgement" });
    expect(spotLevel(spot([ref(40, 80)], flat(60), "log"))).toMatchObject({ calibrated: false, reason: "its level rests on a dive log" });
  });

  it("needs a counting figure for every month, and its level inside each", () => {
    expect(spotLevel(spot([]))).toMatchObject({ calibrated: false, reason: "no published typical figure that fits it" });
    expect(spotLevel(spot([ref(50, null)]))).toMatchObject({ calibrated: false, counted: 0 });
    expect(spotLevel(spot([ref(40, 80, { months: [5, 6, 7, 8, 9, 10] })])).reason).toBe("no counting figure for Jan, Feb, Mar, Apr, Nov, Dec");
    const level = [81, ...flat(60).slice(1, 11), 39];
    const s = spotLevel(spot([ref(40, 80)], level));
    expect(s).toMatchObject({ calibrated: false, reason: "its level is outside the published range in Jan, Dec" });
    expect(s.months[0]).toEqual({ month: 1, level_ft: 81, range: { low: 40, high: 80 }, closed: false, within: false });
    expect(s.months[1]).toEqual({ month: 2, level_ft: 60, range: { low: 40, high: 80 }, closed: false, within: true });
  });

  it("needs no figure for a month the spot is closed throughout, and does for a month it is open even a day", () => {
    const closure = (from: string, to: string): AccessRule => ({ kind: "closed_season", from, to, rule: "Closed.", source: "https://example.org/" });
    const winterOnly = ref(40, 80, { months: [1, 2, 3, 4, 11, 12] });
    // Closed 16 May – 14 Oct: June to September need nothing, but May and October are open in part.
    const rok = { ...spot([winterOnly]), access: [closure("05-16", "10-14")] };
    expect(spotLevel(rok).reason).toBe("no counting figure for May, Oct");
    expect(spotLevel(rok).months[5]).toEqual({ month: 6, level_ft: 60, range: null, closed: true, within: true });
    expect(spotLevel({ ...rok, access: [closure("05-01", "10-31")] }).calibrated).toBe(true);
    // A closure across the new year.
    expect(closedAllMonth([closure("12-15", "02-28")], 1)).toBe(true);
    expect(closedAllMonth([closure("12-15", "02-28")], 2)).toBe(true);
    expect(closedAllMonth([closure("12-15", "02-27")], 2)).toBe(false);
    expect(closedAllMonth([closure("12-15", "02-28")], 12)).toBe(false);
    expect(closedAllMonth([closure("03-20", "03-10")], 3)).toBe(false);
    expect(closedAllMonth([{ kind: "permit", rule: "Permit.", source: "https://example.org/" }], 3)).toBe(false);
  });

  it("is judged on a level passed in place of its own (the baselines)", () => {
    expect(spotLevel(spot([ref(40, 80)]), flat(90)).calibrated).toBe(false);
    expect(spotLevel(spot([ref(40, 80)], flat(90)), flat(60)).calibrated).toBe(true);
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

  it("needs 80 % of its spots calibrated", () => {
    expect(FULL_SUPPORT_SHARE).toBe(0.8);
    expect(regionLevels(region([0, 1, 2, 3].map(good).concat(bad(0))))).toMatchObject({ calibrated: 4, earnsFull: true, reason: null });
    const short = regionLevels(region([0, 1, 2].map(good).concat([bad(0), bad(1)])));
    expect(short).toMatchObject({ calibrated: 3, earnsFull: false });
    expect(short.reason).toBe("R: 3 of 5 spots have a typical visibility calibrated to published figures (80 % needed).");
    expect(regionLevels(region([])).earnsFull).toBe(false);
  });

  it("needs its response inputs checked, and says which is missing", () => {
    const unchecked = regionLevels(region([0, 1].map(good), null));
    expect(unchecked).toMatchObject({ responseChecked: false, earnsFull: false });
    expect(unchecked.reason).toBe("R: its spots' exposure, depths and runoff have not yet been checked against a map or a source.");
    expect(regionLevels(region([bad(0)], null)).reason).toBe(
      "R: 0 of 1 spots have a typical visibility calibrated to published figures (80 % needed); its spots' exposure, depths and runoff have not yet been checked against a map or a source.",
    );
  });

  it("can be judged with every spot's level replaced", () => {
    expect(regionLevels(region([0, 1].map(good)), () => flat(100)).earnsFull).toBe(false);
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
