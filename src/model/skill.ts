// Per-region skill of the visibility model against satellite observations (docs/model.md, "How good
// is it"). Pure arithmetic on stored pairs: levels (bias, median absolute error) and anomalies (the
// model's departure from the spot's typical level against the satellite's departure from that
// spot's own satellite mean), for the model and for the climatology baseline (the typical level alone).
import { DAY_MS } from "../base/clock.js";

/** Days of observations each region's figures cover, ending now. */
export const WINDOW_DAYS = 30;
/** Fewer pairs than this in a region's window: "not enough observations yet", never a number. */
export const MIN_PAIRS = 10;
/** A spot's satellite mean needs this many observations in the window before its anomalies count. */
export const MIN_SPOT_OBSERVATIONS = 3;
/** Two-sided coverage of the rank correlation's interval. */
export const INTERVAL_LEVEL = 0.95;
const Z_95 = 1.959964;
/** Fieller, Hartley & Pearson (1957): var(atanh ρ_s) ≈ 1.06 / (n − 3). */
const SPEARMAN_VARIANCE = 1.06;
export const NOT_ENOUGH = "not enough observations yet";

/** One scored observation: what the model said for a spot and day, and what the satellite saw. */
export interface Pair {
  spot: string;
  region: string;
  /** UTC date the satellite saw (YYYY-MM-DD). */
  date: string;
  /** Observation time (epoch ms). */
  observedAt: number;
  /** The model's visibility for that spot and day from the inputs for that day (never the satellite), ft. */
  modelFt: number;
  /** The spot's typical visibility for the month (the climatology baseline), ft. */
  levelFt: number;
  /** Satellite visibility (Kd490 through the optics), ft. */
  satelliteFt: number;
  kd490: number;
  dataset: string;
}

export interface RankCorrelation {
  rho: number;
  low: number;
  high: number;
  level: number;
  method: string;
}

export interface Figures {
  bias_ft: number;
  median_abs_error_ft: number;
  anomaly_median_abs_error_ft: number | null;
  anomaly_rank_correlation: RankCorrelation | null;
}

export interface RegionSkill {
  pairs: number;
  anomalyPairs: number;
  spots: number;
  first: string | null;
  last: string | null;
  enough: boolean;
  model: Figures | null;
  climatology: Figures | null;
  /**
   * True when the model's anomalies miss the satellite's by more than the baseline's (which predicts
   * none) and their rank correlation is not clearly positive (its interval reaches 0 or below): a
   * response that ranks days right but overshoots is not called worse.
   */
  worseThanClimatology: boolean | null;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Ranks 1..n, ties sharing their average rank. */
export function ranks(xs: readonly number[]): number[] {
  const idx = xs.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(xs.length);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1]![0] === idx[i]![0]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) out[idx[k]![1]] = r;
    i = j + 1;
  }
  return out;
}

/** Spearman's ρ (Pearson on average ranks); null when either side has no spread or n < 2. */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length || x.length < 2) return null;
  const rx = ranks(x);
  const ry = ranks(y);
  const mx = mean(rx);
  const my = mean(ry);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < rx.length; i++) {
    const dx = rx[i]! - mx;
    const dy = ry[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/** ρ with its Fisher-z interval (variance 1.06/(n − 3)); null below 4 pairs or without spread. */
export function rankCorrelation(x: readonly number[], y: readonly number[]): RankCorrelation | null {
  const rho = spearman(x, y);
  if (rho === null || x.length < 4) return null;
  const z = Math.atanh(Math.max(-0.999999, Math.min(0.999999, rho)));
  const half = Z_95 * Math.sqrt(SPEARMAN_VARIANCE / (x.length - 3));
  return { rho: r3(rho), low: r3(Math.tanh(z - half)), high: r3(Math.tanh(z + half)), level: INTERVAL_LEVEL, method: "Spearman, Fisher-z interval (variance 1.06/(n-3))" };
}

const r1 = (v: number) => Math.round(v * 10) / 10;
const r3 = (v: number) => Math.round(v * 1000) / 1000;

/** The UTC dates [first, last] of the window ending at `now`. */
export function windowOf(now: Date): { from: string; to: string; fromMs: number } {
  const to = now.toISOString().slice(0, 10);
  const fromMs = Date.parse(to) - (WINDOW_DAYS - 1) * DAY_MS;
  return { from: new Date(fromMs).toISOString().slice(0, 10), to, fromMs };
}

/** The region's figures from its pairs (already limited to the window). */
export function regionSkill(pairs: readonly Pair[]): RegionSkill {
  const spots = new Set(pairs.map((p) => p.spot));
  const dates = pairs.map((p) => p.date).sort();
  const base = { pairs: pairs.length, spots: spots.size, first: dates[0] ?? null, last: dates[dates.length - 1] ?? null };
  // Anomalies: each spot's satellite values against that spot's own satellite mean, so a pixel biased
  // by the reef or the shore beside it does not read as model error.
  const bySpot = new Map<string, Pair[]>();
  for (const p of pairs) (bySpot.get(p.spot) ?? bySpot.set(p.spot, []).get(p.spot)!).push(p);
  const modelAnom: number[] = [];
  const satAnom: number[] = [];
  for (const list of bySpot.values()) {
    if (list.length < MIN_SPOT_OBSERVATIONS) continue;
    const satMean = mean(list.map((p) => p.satelliteFt));
    for (const p of list) {
      modelAnom.push(p.modelFt - p.levelFt);
      satAnom.push(p.satelliteFt - satMean);
    }
  }
  if (pairs.length < MIN_PAIRS) return { ...base, anomalyPairs: modelAnom.length, enough: false, model: null, climatology: null, worseThanClimatology: null };
  const anomaliesEnough = modelAnom.length >= MIN_PAIRS;
  const levels = (pred: (p: Pair) => number) => ({
    bias_ft: r1(mean(pairs.map((p) => pred(p) - p.satelliteFt))),
    median_abs_error_ft: r1(median(pairs.map((p) => Math.abs(pred(p) - p.satelliteFt)))),
  });
  const modelAnomMae = anomaliesEnough ? median(modelAnom.map((m, i) => Math.abs(m - satAnom[i]!))) : null;
  const climAnomMae = anomaliesEnough ? median(satAnom.map((s) => Math.abs(s))) : null;
  const rc = anomaliesEnough ? rankCorrelation(modelAnom, satAnom) : null;
  return {
    ...base,
    anomalyPairs: modelAnom.length,
    enough: true,
    model: {
      ...levels((p) => p.modelFt),
      anomaly_median_abs_error_ft: modelAnomMae === null ? null : r1(modelAnomMae),
      anomaly_rank_correlation: rc,
    },
    // The typical level predicts no departure at all: its anomaly is 0 everywhere, which has no rank.
    climatology: { ...levels((p) => p.levelFt), anomaly_median_abs_error_ft: climAnomMae === null ? null : r1(climAnomMae), anomaly_rank_correlation: null },
    worseThanClimatology: modelAnomMae === null || climAnomMae === null ? null : modelAnomMae > climAnomMae && (rc === null || rc.low <= 0),
  };
}
