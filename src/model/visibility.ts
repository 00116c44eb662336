// Underwater visibility: the spot's typical level, moved by how far the period's conditions depart
// from the month's normal ones.
//
//   visibility = level × response × tide × light,   response = F(period) / F(normal)
//   F = swell × wind × rain
//
// level is the spot's typical visibility for the month (catalogue `clarity_ft`, calibrated to
// published typical figures; src/catalog/levels.ts), or, when a recent satellite Kd490 exists, a
// blend of it with the optics estimate that leans on the satellite while the observation is young.
// A published typical figure already holds a normal month's swell, wind and rain, so the physics
// acts only through the departure from normal: under the month's normal conditions (the seasonal
// norms) the response is exactly 1 and the model gives the typical level; a stormier period lowers
// it, a calmer one raises it, at most to RESPONSE_MAX times the level. Each factor is returned so
// `why` and the tests can name what moves the water.
import type { SpotRecord } from "../catalog/schema.js";
import { at, type Curve } from "./curve.js";
import { horizontalVisibilityM } from "./optics.js";
import { orbitalVelocity } from "./swell.js";

export const M_PER_FT = 0.3048;

/** Near-bed velocity (m/s) above which the bottom starts to cloud the water. Soulsby 1997 orders. */
export const RESUSPENSION_THRESHOLD_MS: Record<SpotRecord["bottom"], number> = {
  sand: 0.12,
  mixed: 0.18,
  kelp: 0.22,
  reef: 0.25,
  rock: 0.28,
};

/** Excess orbital velocity over the threshold (m/s) → visibility factor. */
export const SWELL_FACTOR: Curve = [
  [0, 1],
  [0.1, 0.8],
  [0.2, 0.63],
  [0.4, 0.43],
  [0.7, 0.29],
  [1.0, 0.2],
];

/** Wind speed (kt) → fraction of visibility lost to chop and mixing with the wind straight onshore. */
export const WIND_PENALTY: Curve = [
  [10, 0],
  [15, 0.08],
  [20, 0.18],
  [25, 0.28],
  [30, 0.36],
  [40, 0.45],
];
/** Offshore wind does a little of the damage onshore wind does. */
export const OFFSHORE_WIND_SHARE = 0.4;

/** e-folding age (hours) of rain's effect on the water; rain older than 72 h is ignored. */
export const RAIN_DECAY_H = 36;
export const RAIN_MEMORY_H = 72;
/** Decayed rain (mm) at which a spot with runoff 1 loses half its visibility. */
export const RAIN_HALF_MM = 20;

/** Sun altitude (degrees) → factor: light to see by; after dark only a torch. */
export const LIGHT_FACTOR: Curve = [
  [-6, 0.6],
  [0, 0.85],
  [20, 1],
];

/**
 * Most a period's conditions can raise visibility above the typical level. Published typical ranges
 * run about ±20–35 % around their middle (20–30 m, 15–30 m), so a calm, dry day at 1.5 × the middle
 * sits near the top of what sources call typical; a larger gain would claim clearer water than any
 * typical figure supports from swell, wind and rain alone.
 */
export const RESPONSE_MAX = 1.5;

/** Tide nudge: rising/high water brings clearer offshore water in, falling/low drains turbid water out. */
export const TIDE_NUDGE = 0.06;

/**
 * A Kd490 observation arrives 7 (VIIRS) to 11 (gap-filled) days after it was made, so it cannot
 * say what the water is doing today; it says what this stretch of coast has recently been like
 * (a plume, a bloom, an unusually clear spell), which persists on the time scale of ocean-colour
 * anomalies: days nearshore, weeks offshore. It is therefore a recent-clarity baseline blended
 * with the spot's seasonal prior, its weight fading with age (e-folding SATELLITE_DECAY_H), while
 * today's swell, wind, rain, tide and light still act on top of it.
 */
export const SATELLITE_WEIGHT = 0.8;
export const SATELLITE_DECAY_H = 8 * 24;
/** Below this weight the observation no longer shapes the number: it is not used, nor named. */
export const SATELLITE_MIN_WEIGHT = 0.15;
/** Age at the period where the weight falls to SATELLITE_MIN_WEIGHT (≈ 13.4 days). */
export const SATELLITE_MAX_AGE_H = SATELLITE_DECAY_H * Math.log(SATELLITE_WEIGHT / SATELLITE_MIN_WEIGHT);

export type TideState = "high" | "low" | "rising" | "falling";

/** The conditions the response reads: swell at the spot, wind and its onshore share, and recent rain. */
export interface Conditions {
  /** Swell at the spot; null when unknown. */
  swellHeightM: number | null;
  swellPeriodS: number | null;
  windKt: number | null;
  /** 0 = straight offshore … 1 = straight onshore. */
  windOnshore: number;
  /** Rain in the past 72 h, each hour decayed by age (mm). */
  rainIndexMm: number | null;
}

export interface VisibilityInputs extends Conditions {
  /** The spot's typical visibility for the month, ft (catalogue `clarity_ft`). */
  clarityFt: number;
  bottom: SpotRecord["bottom"];
  depthM: number;
  runoff: number;
  /**
   * The month's normal conditions at the same hours (the seasonal norms), which the typical level
   * already holds; null when unknown, and then the level stands unmoved (no departure can be told).
   */
  normal: Conditions | null;
  tideState: TideState | null;
  sunAltitudeDeg: number;
  /** Satellite visibility (m) and its age in hours, if a usable observation exists. */
  satellite: { visibilityM: number; ageH: number } | null;
}

export interface VisibilityEstimate {
  ft: number;
  source: "satellite" | "heuristic";
  baselineFt: number;
  /**
   * swell, wind and rain are the period's factor over the normal conditions' (above 1 when calmer or
   * drier than normal); response is their product, capped at RESPONSE_MAX.
   */
  factors: { swell: number; wind: number; rain: number; response: number; tide: number; light: number };
  /** Near-bed orbital velocity, m/s. */
  orbitalMs: number;
}

export interface Response {
  swell: number;
  wind: number;
  rain: number;
  orbitalMs: number;
}

/**
 * F: what swell, wind and rain do to the water at a spot, each as a factor of at most 1 (swell by
 * the near-bed orbital velocity over the bottom's resuspension threshold, wind by its speed and
 * onshore share, rain by its decayed total and the spot's runoff). Null when swell or wind is unknown.
 */
export function responseOf(c: Conditions, spot: { bottom: SpotRecord["bottom"]; depthM: number; runoff: number }): Response | null {
  if (c.swellHeightM === null || c.swellPeriodS === null || c.windKt === null) return null;
  const orbitalMs = orbitalVelocity(c.swellHeightM, c.swellPeriodS, spot.depthM);
  const swell = at(SWELL_FACTOR, orbitalMs - RESUSPENSION_THRESHOLD_MS[spot.bottom]);
  const wind = 1 - at(WIND_PENALTY, c.windKt) * (OFFSHORE_WIND_SHARE + (1 - OFFSHORE_WIND_SHARE) * c.windOnshore);
  const rain = c.rainIndexMm === null ? 1 : 1 / (1 + (spot.runoff * c.rainIndexMm) / RAIN_HALF_MM);
  return { swell, wind, rain, orbitalMs };
}

/** Returns null when swell or wind is unknown: the estimate would be a guess. */
export function estimateVisibility(i: VisibilityInputs): VisibilityEstimate | null {
  const now = responseOf(i, i);
  if (!now) return null;
  // Normal conditions with swell or wind unknown cannot be compared with: the level stands.
  const normal = (i.normal && responseOf(i.normal, i)) ?? now;
  const swell = now.swell / normal.swell;
  const wind = now.wind / normal.wind;
  const rain = now.rain / normal.rain;
  const response = Math.min(RESPONSE_MAX, swell * wind * rain);
  const tideSign = i.tideState === "rising" || i.tideState === "high" ? 1 : i.tideState === null ? 0 : -1;
  const tide = 1 + tideSign * TIDE_NUDGE * (0.3 + 0.7 * i.runoff);
  const light = at(LIGHT_FACTOR, i.sunAltitudeDeg);

  let baselineFt = i.clarityFt;
  let source: VisibilityEstimate["source"] = "heuristic";
  if (i.satellite) {
    const w = satelliteWeight(i.satellite.ageH);
    baselineFt = w * (i.satellite.visibilityM / M_PER_FT) + (1 - w) * i.clarityFt;
    source = "satellite";
  }
  const ft = Math.max(1, baselineFt * response * tide * light);
  return { ft, source, baselineFt, factors: { swell, wind, rain, response, tide, light }, orbitalMs: now.orbitalMs };
}

export function satelliteWeight(ageH: number): number {
  return SATELLITE_WEIGHT * Math.exp(-Math.max(0, ageH) / SATELLITE_DECAY_H);
}

export function satelliteVisibilityM(kd490: number): number {
  return horizontalVisibilityM(kd490);
}

/** Each hour's weight in the rain index by its age: exp(−age / RAIN_DECAY_H), computed once. */
const RAIN_WEIGHTS = Float64Array.from({ length: RAIN_MEMORY_H }, (_, age) => Math.exp(-age / RAIN_DECAY_H));

/** Rain index at hour index `h` from an hourly precipitation series (NaN = unknown). */
export function rainIndexAt(precipMm: Float64Array, h: number): number | null {
  let sum = 0;
  let known = 0;
  for (let age = 0; age < RAIN_MEMORY_H; age++) {
    const j = h - age;
    if (j < 0) break;
    const p = precipMm[j]!;
    if (Number.isNaN(p)) continue;
    known++;
    sum += p * RAIN_WEIGHTS[age]!;
  }
  return known === 0 ? null : sum;
}

/** Confidence of a heuristic estimate from live inputs, and from seasonal norms. */
export const HEURISTIC_CONFIDENCE = 0.6;
export const CLIMATOLOGY_CONFIDENCE = 0.35;

/** What stands behind the spot's typical level for the month (its visibility band, src/catalog/levels.ts). */
export interface LevelEvidence {
  /** Distinct publishers of the figures the level is calibrated to; 0 for an estimated level. */
  publishers: number;
  estimated: boolean;
  /** The month's typical range, high ÷ low. */
  rangeRatio: number;
}

/** The level's weight by its independent published sources: one source is one person's word. */
export const SOURCES_FACTOR = { estimated: 0.55, one: 0.8, two: 0.9, threeOrMore: 1 } as const;
/** The level's weight by how wide its typical range is (high ÷ low): a 15–25 m range says more than 5–15 m. */
export const RANGE_WIDTH_FACTOR: Curve = [
  [1.5, 1],
  [2, 0.92],
  [3, 0.8],
  [4, 0.7],
];

/** How far the spot's level can be trusted (0–1): its independent sources times the width of its range. */
export function evidenceFactor(e: LevelEvidence): number {
  const sources = e.estimated ? SOURCES_FACTOR.estimated : e.publishers >= 3 ? SOURCES_FACTOR.threeOrMore : e.publishers === 2 ? SOURCES_FACTOR.two : SOURCES_FACTOR.one;
  return sources * at(RANGE_WIDTH_FACTOR, e.rangeRatio);
}

/**
 * Facts-layer confidence in a visibility estimate (0–1), before any decision-layer factors: what the
 * inputs are (a satellite-anchored estimate above one from live inputs, more so the younger the
 * observation, and live inputs above seasonal norms) times what stands behind the spot's level
 * (evidenceFactor). The region's validation skill lowers it further in decisions
 * (GET /api/v1/validation), never raises it.
 */
export function visibilityConfidence(source: VisibilityEstimate["source"], climatology: boolean, satelliteAgeH: number | null, evidence: LevelEvidence): number {
  const inputs =
    source === "satellite" && satelliteAgeH !== null ? HEURISTIC_CONFIDENCE + 0.3 * (satelliteWeight(satelliteAgeH) / SATELLITE_WEIGHT) : climatology ? CLIMATOLOGY_CONFIDENCE : HEURISTIC_CONFIDENCE;
  return inputs * evidenceFactor(evidence);
}
