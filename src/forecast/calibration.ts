// The visibility calibration: the model's visibility from seasonal norms, per spot and month,
// compared with the typical visibility published for the spot (catalogue `visibility_refs`). A
// region earns decision support `full` only when enough of its spots have a reference and the model
// falls within it; the test suite holds every region's published `decision_support` to that rule.
import type { Catalog, Region, Spot } from "../catalog/catalog.js";
import type { VisibilityReference } from "../catalog/schema.js";
import { FixedClock } from "../clock.js";
import type { Source, TideSource } from "../sources/types.js";
import { ForecastService } from "./service.js";

/** Share of a region's spots that must have a reference and fall within it for `full`. */
export const FULL_SUPPORT_SHARE = 0.8;
/** Share of a spot's referenced months the model must fall within for the spot to count as within range. */
export const SPOT_MONTHS_WITHIN_SHARE = 0.8;
/**
 * A source that gives one typical figure ("averages 100 ft") states no spread; the model counts as
 * within it when it is inside ±25 % of the figure.
 */
export const SINGLE_FIGURE_TOLERANCE = 0.25;
/** The seasonal-norm week sampled for each month starts on this day (the norms are smooth within a month). */
export const SAMPLE_DAY = 12;
/** Any fixed year: the norms repeat every year; only the tides and the sun differ slightly. */
export const SAMPLE_YEAR = 2026;

export interface MonthCheck {
  month: number;
  /** Median visibility of the daylight periods in the sampled week, from seasonal norms. */
  model_ft: number;
  /** Published range for the month (tolerance applied to single figures); high null = no ceiling. */
  low_ft: number;
  high_ft: number | null;
  within: boolean;
  /** Distance from the model to the middle of the published range; for a floor-only figure, the shortfall below the floor (0 at or above it), ft. */
  error_ft: number;
}

export interface SpotCalibration {
  spot: { id: string; name: string };
  /** Model visibility from seasonal norms, January..December. */
  model_ft: number[];
  refs: VisibilityReference[];
  months: MonthCheck[];
  /** Null when the spot has no reference. */
  within: boolean | null;
}

export interface RegionCalibration {
  region: { id: string; name: string };
  published: "full" | "conditions_only";
  spots: SpotCalibration[];
  spotCount: number;
  withReference: number;
  withinRange: number;
  /** Share of referenced spot-months where the model is within the published range; null without references. */
  monthShareWithin: number | null;
  /** Median of the per-month errors over referenced spot-months; null without references. */
  medianErrorFt: number | null;
  /** Whether the data supports `full` under the rule. */
  earnsFull: boolean;
}

/** The model's seasonal-norm visibility for a spot, January..December. */
export async function normVisibilityByMonth(spot: Spot, deps: { source: Source; tides: TideSource; catalog: Catalog }): Promise<number[]> {
  const out: number[] = [];
  for (let m = 0; m < 12; m++) {
    const clock = new FixedClock(Date.UTC(SAMPLE_YEAR, m, SAMPLE_DAY, 12));
    const forecasts = new ForecastService({ source: deps.source, tides: deps.tides, clock }, deps.catalog);
    const { forecast } = await forecasts.forecast(spot);
    const vis = forecast.periods.filter((p) => p.daylight && p.visFt !== null).map((p) => p.visFt!);
    // Whole feet, as the API publishes visibility_ft.
    out.push(Math.round(median(vis) ?? 0));
  }
  return out;
}

export function rangeFor(ref: VisibilityReference): { low: number; high: number | null } {
  if (ref.high_ft !== null && ref.high_ft === ref.low_ft) {
    return { low: Math.round(ref.low_ft * (1 - SINGLE_FIGURE_TOLERANCE)), high: Math.round(ref.low_ft * (1 + SINGLE_FIGURE_TOLERANCE)) };
  }
  return { low: ref.low_ft, high: ref.high_ft };
}

/** Compares a spot's model visibility with its references, month by month (first reference covering a month wins). */
export function checkSpot(spot: Pick<Spot, "id" | "name" | "visibility_refs">, modelFt: readonly number[]): SpotCalibration {
  const months: MonthCheck[] = [];
  for (let month = 1; month <= 12; month++) {
    const ref = spot.visibility_refs.find((r) => r.months.includes(month));
    if (!ref) continue;
    const { low, high } = rangeFor(ref);
    const model = modelFt[month - 1]!;
    const within = model >= low && (high === null || model <= high);
    // A floor-only figure has no middle: the error is how far the model falls short of the floor.
    const error = high === null ? Math.max(0, low - model) : Math.abs(model - (low + high) / 2);
    months.push({ month, model_ft: model, low_ft: low, high_ft: high, within, error_ft: error });
  }
  const within = months.length === 0 ? null : months.filter((m) => m.within).length / months.length >= SPOT_MONTHS_WITHIN_SHARE;
  return { spot: { id: spot.id, name: spot.name }, model_ft: [...modelFt], refs: spot.visibility_refs, months, within };
}

export function summariseRegion(region: Pick<Region, "id" | "name" | "decision_support">, spots: SpotCalibration[]): RegionCalibration {
  const withReference = spots.filter((s) => s.within !== null).length;
  const withinRange = spots.filter((s) => s.within === true).length;
  const months = spots.flatMap((s) => s.months);
  return {
    region: { id: region.id, name: region.name },
    published: region.decision_support,
    spots,
    spotCount: spots.length,
    withReference,
    withinRange,
    monthShareWithin: months.length === 0 ? null : months.filter((m) => m.within).length / months.length,
    medianErrorFt: median(months.map((m) => m.error_ft)),
    earnsFull: spots.length > 0 && withinRange / spots.length >= FULL_SUPPORT_SHARE,
  };
}

/** The whole catalogue's calibration, region by region. */
export async function calibrate(deps: { source: Source; tides: TideSource; catalog: Catalog }): Promise<RegionCalibration[]> {
  const out: RegionCalibration[] = [];
  for (const region of deps.catalog.regions) {
    const spots: SpotCalibration[] = [];
    for (const spot of region.spots) spots.push(checkSpot(spot, await normVisibilityByMonth(spot, deps)));
    out.push(summariseRegion(region, spots));
  }
  return out;
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
