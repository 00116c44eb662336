// The calibration as the model shows it: each spot's visibility from seasonal norms, month by month,
// beside its typical level and the pooled published range the level is calibrated to (the rule is
// src/catalog/levels.ts). Under the month's normal conditions the response is 1, so the model gives
// the typical level, moved only by tide and light; the test suite holds every calibrated spot's
// norm visibility inside its pooled range and every region's published `decision_support` to the rule.
import type { Catalog, Region, Spot } from "../catalog/catalog.js";
import { median, regionLevels, type RegionLevels, type SpotLevel } from "../catalog/levels.js";
import { FixedClock } from "../base/clock.js";
import type { Source, TideSource } from "../sources/types.js";
import { ForecastService, type NormalConditions } from "./service.js";

/** The seasonal-norm week sampled for each month starts on this day (the norms are smooth within a month). */
export const SAMPLE_DAY = 12;
/** Any fixed year: the norms repeat every year; only the tides and the sun differ slightly. */
export const SAMPLE_YEAR = 2026;

export interface CalibrationDeps {
  source: Source;
  normals: NormalConditions;
  tides: TideSource;
  catalog: Catalog;
}

export interface SpotCalibration {
  spot: { id: string; name: string };
  level: SpotLevel;
  /** Model visibility from seasonal norms, January..December: the median of the sampled week's daylight periods. */
  model_ft: number[];
  /** Per month: whether the model lies inside the pooled published range (null where there is none). */
  modelWithin: (boolean | null)[];
}

export interface RegionCalibration {
  region: { id: string; name: string };
  published: Region["decision_support"];
  levels: RegionLevels;
  spots: SpotCalibration[];
  earnsFull: boolean;
}

/** The model's seasonal-norm visibility for a spot, January..December. */
export async function normVisibilityByMonth(spot: Spot, deps: CalibrationDeps): Promise<number[]> {
  const out: number[] = [];
  for (let m = 0; m < 12; m++) {
    const clock = new FixedClock(Date.UTC(SAMPLE_YEAR, m, SAMPLE_DAY, 12));
    const forecasts = new ForecastService({ source: deps.source, tides: deps.tides, clock, normals: deps.normals }, deps.catalog);
    const { forecast } = await forecasts.forecast(spot);
    const vis = forecast.periods.filter((p) => p.daylight && p.visFt !== null).map((p) => p.visFt!);
    // Whole feet, as the API publishes visibility_ft.
    out.push(vis.length === 0 ? 0 : Math.round(median(vis)));
  }
  return out;
}

/** A region's calibration: the rule on its data, and the model's norm visibility beside it. */
export async function calibrateRegion(region: Region, deps: CalibrationDeps): Promise<RegionCalibration> {
  const levels = regionLevels(region);
  const spots: SpotCalibration[] = [];
  for (const spot of region.spots) {
    const model = await normVisibilityByMonth(spot, deps);
    const level = levels.spots.find((s) => s.id === spot.id)!;
    const modelWithin = level.months.map((m, i) => (m.range === null ? null : model[i]! >= m.range.low && model[i]! <= m.range.high));
    spots.push({ spot: { id: spot.id, name: spot.name }, level, model_ft: model, modelWithin });
  }
  return { region: { id: region.id, name: region.name }, published: region.decision_support, levels, spots, earnsFull: levels.earnsFull };
}

/** The whole catalogue's calibration, region by region. */
export async function calibrate(deps: CalibrationDeps): Promise<RegionCalibration[]> {
  const out: RegionCalibration[] = [];
  for (const region of deps.catalog.regions) out.push(await calibrateRegion(region, deps));
  return out;
}
