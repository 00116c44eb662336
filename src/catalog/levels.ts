// Calibration of each spot's typical visibility level, and the rule that publishes a region `full`
// (docs/model.md, "Calibration"). It reads only the catalogue and the publisher registry: a spot is
// calibrated when its monthly typical level (`clarity_ft`) lies, every month, inside the pooled range
// of the published typical figures that count for it and within any published floor or ceiling; a
// figure counts when a person published it (not generated text, src/catalog/publishers.ts), it is a
// typical figure (not one dive's log), and its scope fits the spot's habitat (src/catalog/habitat.ts).
// Decisions rank only calibrated spots; a region is `full` when at least FULL_MIN_CALIBRATED of its
// spots are calibrated and the inputs of its day-to-day response have been checked. This is
// calibration of the level, not validation of the day-to-day response: docs/model.md says what is and
// is not validated.
import { habitatOf, scopeFits, type SpotHabitat } from "./habitat.js";
import { shippedPublishers, type Publishers } from "./publishers.js";
import type { AccessRule, RegionRecord, SpotRecord, VisibilityReference } from "./schema.js";

/**
 * Calibrated spots a region needs to be published `full`: fewer is no ranking worth the name (one
 * spot "ranked" against nothing), and it replaced a share of 80 %, which made a region's ranking
 * depend on how many uncalibrated beaches the catalogue happened to list beside its calibrated spots.
 */
export const FULL_MIN_CALIBRATED = 3;
/**
 * A source that gives one typical figure ("averages 100 ft") states no spread; it stands for the
 * range ±25 % around the figure.
 */
export const SINGLE_FIGURE_TOLERANCE = 0.25;
/**
 * Where a published floor lies at or above the top of the counting sources' pooled range, it asks
 * for the range's upper part of this share (a ceiling below it, for its lower part): the sources
 * disagree, and the level sits where both can be read as true.
 */
export const BOUND_SHARE = 0.25;
/** A published range wider than this ratio (high ÷ low) says too little about the level to calibrate it. */
export const MAX_RANGE_RATIO = 3;
/**
 * References are stored in whole feet, so a metre range of exactly ×3 (5–15 m) is stored as 16–49 ft,
 * ×3.06. The ratio is taken with each end moved half a foot inwards, which undoes that rounding and
 * nothing wider (3–10 m, stored 10–33 ft, stays too wide).
 */
const FEET_ROUNDING = 0.5;

export type Uncounted = "log" | "unknown_publisher" | "generated" | "elsewhere" | "habitat" | "floor_only" | "ceiling_only" | "too_wide";

/** Why a reference does not count towards calibration, in words: for one reference, and as a count's label. */
export const UNCOUNTED_REASONS: Record<Uncounted, { one: string; many: string }> = {
  log: { one: "one dive or one day's report, not a typical figure", many: "logs" },
  unknown_publisher: { one: "its publisher is not in data/publishers.json", many: "unjudged publishers" },
  generated: { one: "generated or templated text, kept as a lead only", many: "generated pages" },
  elsewhere: { one: "describes another place than the spot's", many: "for other places" },
  habitat: { one: "its scope does not fit the spot's habitat", many: "for other habitats" },
  floor_only: { one: "a floor only: it bounds the level but does not set it", many: "floors only" },
  ceiling_only: { one: "a ceiling only: it bounds the level but does not set it", many: "ceilings only" },
  too_wide: { one: `a range wider than ×${MAX_RANGE_RATIO}`, many: `wider than ×${MAX_RANGE_RATIO}` },
};

/** What the rule reads of a spot: its levels, its references, its closures and its habitat. */
export type LevelSpot = Pick<SpotRecord, "id" | "name" | "clarity_ft" | "clarity_kind" | "visibility_refs" | "access" | "typical_depth_m" | "bottom" | "runoff" | "swell_exposure">;

/** Null when the reference counts for the spot; otherwise why not. */
export function uncounted(
  ref: VisibilityReference,
  spot: Pick<SpotRecord, "typical_depth_m" | "bottom" | "runoff" | "swell_exposure">,
  publishers: Publishers = shippedPublishers(),
): Uncounted | null {
  if (ref.kind === "log") return "log";
  const publisher = publishers.of(ref.source);
  if (publisher === null) return "unknown_publisher";
  if (publisher.kind === "generated") return "generated";
  if (ref.scope === "elsewhere") return "elsewhere";
  if (!scopeFits(ref.scope, habitatOf(spot))) return "habitat";
  if (ref.high_ft === null) return "floor_only";
  if (ref.low_ft === null) return "ceiling_only";
  if ((ref.high_ft - FEET_ROUNDING) / (ref.low_ft + FEET_ROUNDING) > MAX_RANGE_RATIO) return "too_wide";
  return null;
}

/** A counting reference's range in feet: ±SINGLE_FIGURE_TOLERANCE around a single figure, rounded to whole feet. */
export function rangeFor(ref: { low_ft: number; high_ft: number }): { low: number; high: number } {
  if (ref.high_ft === ref.low_ft) {
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

/** The references that count for the spot (any month). */
export function countingRefs(spot: Omit<LevelSpot, "id" | "name" | "clarity_ft" | "clarity_kind" | "access">, publishers: Publishers = shippedPublishers()): VisibilityReference[] {
  return spot.visibility_refs.filter((r) => uncounted(r, spot, publishers) === null);
}

/**
 * The pooled published range for a month: the median of the counting sources' lower ends and the
 * median of their upper ends. Every source weighs the same, file order does not matter, and one
 * outlying source moves the pool by at most half the distance to its neighbour. Null when no
 * counting source covers the month.
 */
export function pooledRange(counting: readonly VisibilityReference[], month: number): PooledRange | null {
  const refs = counting.filter((r) => r.months.includes(month));
  if (refs.length === 0) return null;
  const ranges = refs.map((r) => rangeFor({ low_ft: r.low_ft!, high_ft: r.high_ft! }));
  return { low: median(ranges.map((r) => r.low)), high: median(ranges.map((r) => r.high)), refs };
}

/**
 * The published floor and ceiling for a month: the highest floor and the lowest ceiling among the
 * references that would count but for giving only one bound. Null where none is published.
 */
export function boundsFor(
  spot: Omit<LevelSpot, "id" | "name" | "clarity_ft" | "clarity_kind" | "access">,
  month: number,
  publishers: Publishers = shippedPublishers(),
): { floor: number | null; ceiling: number | null } {
  let floor: number | null = null;
  let ceiling: number | null = null;
  for (const r of spot.visibility_refs) {
    if (!r.months.includes(month)) continue;
    const u = uncounted(r, spot, publishers);
    if (u === "floor_only") floor = Math.max(floor ?? 0, r.low_ft!);
    if (u === "ceiling_only") ceiling = Math.min(ceiling ?? Infinity, r.high_ft!);
  }
  return { floor, ceiling };
}

export interface MonthLevel {
  month: number;
  level_ft: number;
  range: { low: number; high: number } | null;
  /** A published floor and ceiling for the month (null where none); a level beyond either is a data error. */
  floor: number | null;
  ceiling: number | null;
  /** The spot is closed all month (a `closed_season` rule): nothing is ranked then, so no figure is needed. */
  closed: boolean;
  /** The level lies inside the month's range (or the spot is closed all month) and within its floor and ceiling. */
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
  habitat: SpotHabitat;
  months: MonthLevel[];
  /** Counting references (any month). */
  counted: number;
  /** Distinct publishers among the counting references. */
  publishers: number;
  calibrated: boolean;
  /** Why the spot is not calibrated; null when it is. */
  reason: string | null;
  /** Months whose level lies beyond a published floor or ceiling: a data error, which npm run data:check reports. */
  beyondBounds: string[];
}

const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Whether a spot's typical level is calibrated, given the level to judge (the catalogue's
 * `clarity_ft` by default; the baselines in docs/model.md pass others): its level rests on a
 * published kind of source (not a log, not judgement), counting sources cover every month the spot
 * is open (a month it is closed throughout ranks nothing), and the level lies inside every month's
 * pooled range and within every published floor and ceiling.
 */
export function spotLevel(spot: LevelSpot, levels: readonly number[] = spot.clarity_ft, publishers: Publishers = shippedPublishers()): SpotLevel {
  const counting = countingRefs(spot, publishers);
  const months: MonthLevel[] = [];
  const beyondBounds: string[] = [];
  for (let m = 1; m <= 12; m++) {
    const pool = pooledRange(counting, m);
    const bounds = boundsFor(spot, m, publishers);
    // Where a floor lies at or above the top of the pooled range (or a ceiling at or below its
    // bottom), the sources disagree; the floor then asks for the range's upper quarter (the ceiling
    // for its lower quarter), which a level can meet with room for the day-to-day response.
    const floor = bounds.floor === null || pool === null || bounds.floor < pool.high ? bounds.floor : Math.floor(pool.low + (1 - BOUND_SHARE) * (pool.high - pool.low));
    const ceiling = bounds.ceiling === null || pool === null || bounds.ceiling > pool.low ? bounds.ceiling : Math.ceil(pool.low + BOUND_SHARE * (pool.high - pool.low));
    const level = levels[m - 1]!;
    const range = pool ? { low: pool.low, high: pool.high } : null;
    const closed = closedAllMonth(spot.access, m);
    const bounded = (floor === null || level >= floor) && (ceiling === null || level <= ceiling);
    if (!bounded) beyondBounds.push(MONTH_NAMES[m - 1]!);
    const inRange = range === null ? closed : level >= range.low && level <= range.high;
    months.push({ month: m, level_ft: level, range, floor, ceiling, closed, within: inRange && bounded });
  }
  let reason: string | null = null;
  const uncovered = months.filter((m) => m.range === null && !m.closed).map((m) => MONTH_NAMES[m.month - 1]);
  const outside = months.filter((m) => m.range !== null && !m.within).map((m) => MONTH_NAMES[m.month - 1]);
  if (spot.clarity_kind === "judgement" || spot.clarity_kind === "log") reason = `its level rests on ${spot.clarity_kind === "log" ? "a dive log" : "judgement"}`;
  else if (counting.length === 0) reason = "no published typical figure found that passes the rule (a person's page, a typical figure, a scope that fits its habitat)";
  else if (beyondBounds.length > 0) reason = `its level is beyond a published floor or ceiling in ${beyondBounds.join(", ")}`;
  else if (uncovered.length > 0) reason = `no counting figure for ${uncovered.join(", ")}`;
  else if (outside.length > 0) reason = `its level is outside the published range in ${outside.join(", ")}`;
  const publisherCount = new Set(counting.map((r) => publishers.of(r.source)!.match)).size;
  return {
    id: spot.id,
    name: spot.name,
    kind: spot.clarity_kind,
    habitat: habitatOf(spot),
    months,
    counted: counting.length,
    publishers: publisherCount,
    calibrated: reason === null,
    reason,
    beyondBounds,
  };
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
  publishers: Publishers = shippedPublishers(),
): RegionLevels {
  const spots = region.spots.map((s) => spotLevel(s, levelOf(s), publishers));
  const calibrated = spots.filter((s) => s.calibrated).length;
  const enough = calibrated >= FULL_MIN_CALIBRATED;
  const responseChecked = region.response_check !== null;
  const reasons: string[] = [];
  if (!enough)
    reasons.push(`${calibrated} of its ${spots.length} spots ${calibrated === 1 ? "has" : "have"} a typical visibility calibrated to published figures (${FULL_MIN_CALIBRATED} needed to rank)`);
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

/** A spot's typical range in each month and what stands behind it (the visibility band and the confidence). */
export interface VisibilityBand {
  /** January..December: the level's published pooled range (calibrated), or its habitat's spread around it (estimated), ft. */
  ranges: readonly { low: number; high: number }[];
  /** Distinct publishers of the counting figures (0 for an estimated level). */
  publishers: number;
  /** The level is an estimate (not calibrated): its range is its habitat's spread, not a published one. */
  estimated: boolean;
}

/** Each habitat's spread: the median of (pooled low ÷ level) and of (pooled high ÷ level) over the calibrated spot-months of that habitat. */
export type HabitatSpreads = Partial<Record<SpotHabitat, { low: number; high: number }>>;

/** When no calibrated spot of a habitat exists: ±a third around the level (JUDGEMENT; docs/model.md). */
export const FALLBACK_SPREAD = { low: 0.67, high: 1.33 };

export function habitatSpreads(spots: readonly SpotLevel[]): HabitatSpreads {
  const by = new Map<SpotHabitat, { low: number[]; high: number[] }>();
  for (const s of spots) {
    if (!s.calibrated) continue;
    for (const m of s.months) {
      if (m.range === null) continue;
      const e = by.get(s.habitat) ?? { low: [], high: [] };
      e.low.push(m.range.low / m.level_ft);
      e.high.push(m.range.high / m.level_ft);
      by.set(s.habitat, e);
    }
  }
  const out: HabitatSpreads = {};
  for (const [h, e] of by) out[h] = { low: median(e.low), high: median(e.high) };
  return out;
}

/** The band of a spot: its pooled ranges when calibrated, else its habitat's spread around each month's level. */
export function visibilityBand(level: SpotLevel, spreads: HabitatSpreads): VisibilityBand {
  const spread = spreads[level.habitat] ?? FALLBACK_SPREAD;
  const ranges = level.months.map((m) => (level.calibrated && m.range !== null ? { low: m.range.low, high: m.range.high } : { low: m.level_ft * spread.low, high: m.level_ft * spread.high }));
  return { ranges, publishers: level.calibrated ? level.publishers : 0, estimated: !level.calibrated };
}
