// Calibration of each spot's typical visibility level, and the rule that publishes a region `full`
// (docs/model.md, "Calibration"). It reads only the catalogue: a spot is calibrated when its monthly
// typical level (`clarity_ft`) lies, every month, inside the pooled range of the published typical
// figures that count for it; a region is `full` when at least FULL_SUPPORT_SHARE of its spots are
// calibrated and the inputs of its day-to-day response have been checked. This is calibration of the
// level, not validation of the day-to-day response: docs/model.md says what is and is not validated.
import type { AccessRule, RegionRecord, SpotRecord, VisibilityReference } from "./schema.js";

/** Share of a region's spots that must be calibrated for the region to be published `full`. */
export const FULL_SUPPORT_SHARE = 0.8;
/**
 * A source that gives one typical figure ("averages 100 ft") states no spread; it stands for the
 * range ±25 % around the figure.
 */
export const SINGLE_FIGURE_TOLERANCE = 0.25;
/** A published range wider than this ratio (high ÷ low) says too little about the level to calibrate it. */
export const MAX_RANGE_RATIO = 3;
/**
 * References are stored in whole feet, so a metre range of exactly ×3 (5–15 m) is stored as 16–49 ft,
 * ×3.06. The ratio is taken with each end moved half a foot inwards, which undoes that rounding and
 * nothing wider (3–10 m, stored 10–33 ft, stays too wide).
 */
const FEET_ROUNDING = 0.5;

export type Uncounted = "log" | "floor_only" | "too_wide" | "does_not_fit";

/** Why a reference does not count towards calibration, in words: for one reference, and as a count's label. */
export const UNCOUNTED_REASONS: Record<Uncounted, { one: string; many: string }> = {
  log: { one: "one dive or one day's report, not a typical figure", many: "logs" },
  floor_only: { one: "a floor only (no typical level)", many: "floors only" },
  too_wide: { one: `a range wider than ×${MAX_RANGE_RATIO}`, many: `wider than ×${MAX_RANGE_RATIO}` },
  does_not_fit: { one: "describes other water than the spot's (scope or habitat)", many: "for other water" },
};

/** Null when the reference counts; otherwise why not. */
export function uncounted(ref: VisibilityReference): Uncounted | null {
  if (ref.kind === "log") return "log";
  if (!ref.fits) return "does_not_fit";
  if (ref.high_ft === null) return "floor_only";
  if ((ref.high_ft - FEET_ROUNDING) / (ref.low_ft + FEET_ROUNDING) > MAX_RANGE_RATIO) return "too_wide";
  return null;
}

/** A reference's range in feet: ±SINGLE_FIGURE_TOLERANCE around a single figure, rounded to whole feet. */
export function rangeFor(ref: Pick<VisibilityReference, "low_ft" | "high_ft">): { low: number; high: number | null } {
  if (ref.high_ft !== null && ref.high_ft === ref.low_ft) {
    return { low: Math.round(ref.low_ft * (1 - SINGLE_FIGURE_TOLERANCE)), high: Math.round(ref.low_ft * (1 + SINGLE_FIGURE_TOLERANCE)) };
  }
  return { low: ref.low_ft, high: ref.high_ft };
}

export interface PooledRange {
  low: number;
  high: number;
  /** The counting references pooled for the month, in file order (the pool does not depend on it). */
  refs: VisibilityReference[];
}

/**
 * The pooled published range for a month: the median of the counting sources' lower ends and the
 * median of their upper ends. Every source weighs the same, file order does not matter, and one
 * outlying source moves the pool by at most half the distance to its neighbour. Null when no
 * counting source covers the month.
 */
export function pooledRange(refs: readonly VisibilityReference[], month: number): PooledRange | null {
  const counted = refs.filter((r) => uncounted(r) === null && r.months.includes(month));
  if (counted.length === 0) return null;
  const ranges = counted.map(rangeFor);
  return { low: median(ranges.map((r) => r.low)), high: median(ranges.map((r) => r.high!)), refs: counted };
}

export interface MonthLevel {
  month: number;
  level_ft: number;
  range: { low: number; high: number } | null;
  /** The spot is closed all month (a `closed_season` rule): nothing is ranked then, so no figure is needed. */
  closed: boolean;
  within: boolean;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether a `closed_season` rule (inclusive MM-DD bounds, wrapping the new year when from > to) covers every day of a month. */
export function closedAllMonth(access: readonly AccessRule[], month: number): boolean {
  const day = (d: number) => `${String(month).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return access.some((a) => {
    if (a.kind !== "closed_season") return false;
    const inside = (d: string) => (a.from <= a.to ? d >= a.from && d <= a.to : d >= a.from || d <= a.to);
    for (let d = 1; d <= DAYS_IN_MONTH[month - 1]!; d++) if (!inside(day(d))) return false;
    return true;
  });
}

export interface SpotLevel {
  id: string;
  name: string;
  kind: SpotRecord["clarity_kind"];
  months: MonthLevel[];
  /** Counting references (any month). */
  counted: number;
  calibrated: boolean;
  /** Why the spot is not calibrated; null when it is. */
  reason: string | null;
}

const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Whether a spot's typical level is calibrated, given the level to judge (the catalogue's
 * `clarity_ft` by default; the baselines in docs/model.md pass others): its level rests on a
 * published kind of source (not a log, not judgement), counting sources cover every month the spot
 * is open (a month it is closed throughout ranks nothing), and the level lies inside every month's
 * pooled range.
 */
export function spotLevel(
  spot: Pick<SpotRecord, "id" | "name" | "clarity_ft" | "clarity_kind" | "visibility_refs" | "access">,
  levels: readonly number[] = spot.clarity_ft,
): SpotLevel {
  const months: MonthLevel[] = [];
  for (let m = 1; m <= 12; m++) {
    const pool = pooledRange(spot.visibility_refs, m);
    const level = levels[m - 1]!;
    const range = pool ? { low: pool.low, high: pool.high } : null;
    const closed = closedAllMonth(spot.access, m);
    months.push({ month: m, level_ft: level, range, closed, within: range === null ? closed : level >= range.low && level <= range.high });
  }
  const counted = spot.visibility_refs.filter((r) => uncounted(r) === null).length;
  let reason: string | null = null;
  const uncovered = months.filter((m) => m.range === null && !m.closed).map((m) => MONTH_NAMES[m.month - 1]);
  const outside = months.filter((m) => m.range !== null && !m.within).map((m) => MONTH_NAMES[m.month - 1]);
  if (spot.clarity_kind === "judgement" || spot.clarity_kind === "log") reason = `its level rests on ${spot.clarity_kind === "log" ? "a dive log" : "judgement"}`;
  else if (counted === 0) reason = "no published typical figure that fits it";
  else if (uncovered.length > 0) reason = `no counting figure for ${uncovered.join(", ")}`;
  else if (outside.length > 0) reason = `its level is outside the published range in ${outside.join(", ")}`;
  return { id: spot.id, name: spot.name, kind: spot.clarity_kind, months, counted, calibrated: reason === null, reason };
}

export interface RegionLevels {
  id: string;
  name: string;
  published: RegionRecord["decision_support"];
  spots: SpotLevel[];
  calibrated: number;
  responseChecked: boolean;
  earnsFull: boolean;
  /** Why the region is not `full` under the rule, in a sentence; null when it earns `full`. */
  reason: string | null;
}

/** The rule for a region, with the spots' levels judged by `levelOf` (the catalogue's by default). */
export function regionLevels(
  region: Pick<RegionRecord, "id" | "name" | "decision_support" | "response_check" | "spots">,
  levelOf: (spot: RegionRecord["spots"][number]) => readonly number[] = (s) => s.clarity_ft,
): RegionLevels {
  const spots = region.spots.map((s) => spotLevel(s, levelOf(s)));
  const calibrated = spots.filter((s) => s.calibrated).length;
  const enough = spots.length > 0 && calibrated / spots.length >= FULL_SUPPORT_SHARE;
  const responseChecked = region.response_check !== null;
  const reasons: string[] = [];
  if (!enough) reasons.push(`${calibrated} of ${spots.length} spots have a typical visibility calibrated to published figures (${Math.round(FULL_SUPPORT_SHARE * 100)} % needed)`);
  if (!responseChecked) reasons.push("its spots' exposure, depths and runoff have not yet been checked against a map or a source");
  return {
    id: region.id,
    name: region.name,
    published: region.decision_support,
    spots,
    calibrated,
    responseChecked,
    earnsFull: reasons.length === 0,
    reason: reasons.length === 0 ? null : `${region.name}: ${reasons.join("; ")}.`,
  };
}

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Largest ratio between adjacent months' typical levels that needs no source of its own: water
 * clarity changes with the seasons, not overnight on the 1st of a month.
 */
export const MAX_MONTH_STEP = 1.25;

/** Adjacent months (December → January included) whose levels differ by more than MAX_MONTH_STEP; 1-based. */
export function monthSteps(levels: readonly number[]): { from: number; to: number; ratio: number }[] {
  const out: { from: number; to: number; ratio: number }[] = [];
  for (let m = 0; m < 12; m++) {
    const a = levels[m]!;
    const b = levels[(m + 1) % 12]!;
    const ratio = Math.max(a, b) / Math.min(a, b);
    if (ratio > MAX_MONTH_STEP) out.push({ from: m + 1, to: ((m + 1) % 12) + 1, ratio });
  }
  return out;
}
