// The 0–100 condition score (calibrated for snorkelling; shared by the proxy activities).
//
//   score = min( visibility points (0–45) + swell points (0–35) + wind points (0–20),
//                visibility cap, swell cap, wind cap )
//
// Each part is a non-decreasing function of visibility and non-increasing in swell and wind, and so
// is each cap, so the score is monotonic: clearer water, smaller swell or lighter wind never lower it.
// Visibility is a hard cap (spec): murky water limits the score however calm the rest is; the cap
// rises continuously with visibility (no cliffs). Big swell
// and strong wind cap it too, because a flat-visibility day in 8 ft of surge is not a good day.
import { at, type Curve } from "./curve.js";

export const VISIBILITY_POINTS: Curve = [
  [0, 0],
  [5, 5],
  [10, 12],
  [20, 24],
  [30, 32],
  [40, 37],
  [60, 42],
  [80, 45],
];
/** Surge-equivalent swell at the spot (ft) → points. */
export const SWELL_POINTS: Curve = [
  [0, 35],
  [1, 32],
  [2, 26],
  [3, 19],
  [4, 13],
  [6, 6],
  [8, 2],
  [10, 0],
];
/** Effective wind (kt) → points. */
export const WIND_POINTS: Curve = [
  [5, 20],
  [10, 17],
  [15, 11],
  [20, 6],
  [25, 2],
  [30, 0],
];

/**
 * Visibility cap (ft → highest score allowed), continuous and non-decreasing so a fraction of a foot
 * never moves a spot across a tier: 5 ft → 15, 10 ft → 35 (fair), 20 ft → 55 (good), 30 ft → 75
 * (great), 40 ft → 80 (excellent needs at least 40 ft), no cap from 50 ft. Between the anchors the
 * cap is interpolated, and rounded down so that, e.g., 39 ft stays below excellent.
 */
export const VISIBILITY_CAP: Curve = [
  [0, 5],
  [5, 15],
  [10, 35],
  [20, 55],
  [30, 75],
  [40, 80],
  [50, 100],
];
/** At or above `atLeast` ft of surge-equivalent swell, the score is at most `max`. */
export const SWELL_CAPS = [
  { atLeast: 8, max: 10 },
  { atLeast: 6, max: 25 },
  { atLeast: 4, max: 50 },
] as const;
/** At or above `atLeast` kt of effective wind, the score is at most `max`. */
export const WIND_CAPS = [
  { atLeast: 30, max: 15 },
  { atLeast: 25, max: 35 },
] as const;

/** Onshore wind roughens the water more than offshore wind of the same speed. */
export function effectiveWindKt(windKt: number, onshore: number): number {
  return windKt * (0.7 + 0.3 * onshore);
}

export type Limiter = "visibility" | "swell" | "wind";

export interface ScoreBreakdown {
  score: number;
  uncapped: number;
  points: Record<Limiter, number>;
  /** Points short of the maximum, per part. */
  lost: Record<Limiter, number>;
  /** The cap that set the score, if one did. */
  cappedBy: Limiter | null;
}

export const MAX_POINTS: Record<Limiter, number> = { visibility: 45, swell: 35, wind: 20 };

export function visibilityCap(visFt: number): number {
  return Math.floor(at(VISIBILITY_CAP, visFt));
}
export function swellCap(swellFt: number): number {
  return SWELL_CAPS.find((c) => swellFt >= c.atLeast)?.max ?? 100;
}
export function windCap(windKt: number): number {
  return WIND_CAPS.find((c) => windKt >= c.atLeast)?.max ?? 100;
}

/**
 * @param visFt horizontal visibility, ft
 * @param swellFt surge-equivalent swell at the spot, ft
 * @param windKt effective wind, kt
 */
export function scoreConditions(visFt: number, swellFt: number, windKt: number): ScoreBreakdown {
  const points = {
    visibility: at(VISIBILITY_POINTS, visFt),
    swell: at(SWELL_POINTS, swellFt),
    wind: at(WIND_POINTS, windKt),
  };
  const uncapped = Math.round(points.visibility + points.swell + points.wind);
  const caps: [Limiter, number][] = [
    ["visibility", visibilityCap(visFt)],
    ["swell", swellCap(swellFt)],
    ["wind", windCap(windKt)],
  ];
  let score = uncapped;
  let cappedBy: Limiter | null = null;
  for (const [limiter, cap] of caps) {
    if (cap < score) {
      score = cap;
      cappedBy = limiter;
    }
  }
  const lost = {
    visibility: MAX_POINTS.visibility - points.visibility,
    swell: MAX_POINTS.swell - points.swell,
    wind: MAX_POINTS.wind - points.wind,
  };
  return { score: Math.max(0, Math.min(100, score)), uncapped, points, lost, cappedBy };
}
