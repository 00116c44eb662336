// Modelled tides for spots no tide station reaches: high and low waters read off an hourly modelled
// sea level (Open-Meteo's `sea_level_height_msl`: model tide plus surge, metres relative to global
// mean sea level), and their heights converted to feet above an MLLW estimated from the same series.
// Pure functions; the Open-Meteo adapter feeds them (open-meteo.ts) and docs/live-data.md describes
// the method and what it is not.
import type { DataCredit } from "../base/attribution.js";
import { HOUR_MS } from "../base/clock.js";
import { M_PER_FT } from "../model/visibility.js";
import type { TideEvent } from "./types.js";

/** The `sources` identifier of a modelled tide (station tides are `tide-harmonics:<station>` or `noaa-coops:<id>`). */
export const MODELLED_TIDE_ID = "open-meteo:tide-model";

/** The Open-Meteo Marine variable read: model tide + surge above global mean sea level, in metres. */
export const SEA_LEVEL_VARIABLE = "sea_level_height_msl";

export const MODELLED_TIDE_CREDIT: DataCredit = {
  provider: "Open-Meteo modelled tide (Copernicus Marine)",
  credit:
    "Modelled tide (not a tide-station prediction): sea level by Open-Meteo.com from the E.U. Copernicus Marine Service global ocean " +
    "analysis and forecast (Mercator Ocean / Météo-France SMOC), heights above an MLLW estimated from the model's own low waters; not for navigation",
  url: "https://open-meteo.com/en/docs/marine-weather-api",
  license: "CC BY 4.0 (Open-Meteo); Copernicus Marine Service licence",
};

/**
 * Rise or fall below which a high and the low next to it are one wiggle, not two tides: twice the
 * model's 1 cm resolution (Open-Meteo stores the sea level in whole centimetres).
 */
export const MIN_TIDE_RANGE_M = 0.02;
/**
 * A high and a low closer than this are a surge wiggle or a stand, not two tides: semi-diurnal
 * extremes are ~6 h 12 min apart, and even the mixed tides' short stands last longer than 2 h.
 */
export const MIN_TIDE_SEPARATION_MS = 2 * HOUR_MS;
/** A lunar (tidal) day, 24 h 50 min: the span in which a tide has its two lows, one of them the lower low. */
export const TIDAL_DAY_MS = 24.8412 * HOUR_MS;
/** Fewer whole tidal days than this in the series gives no datum, and so no modelled tide. */
export const MIN_DATUM_DAYS = 7;
/** Hours each side of an extreme that its parabola is fitted through. */
const FIT_HALF_WIDTH = 2;

/** A high or low water on the model's own level (metres above global mean sea level). */
export interface SeaLevelExtreme {
  type: "high" | "low";
  time: number;
  heightM: number;
}

export interface ModelledTide {
  /** High and low waters in feet above the estimated MLLW. */
  events: TideEvent[];
  /** The MLLW estimate: metres above the model's mean sea level. */
  mllwM: number;
  /** Tidal days whose lower low water went into the estimate. */
  datumDays: number;
}

/**
 * High and low waters of an hourly series starting at `start` (epoch ms; NaN = unknown):
 * 1. each unbroken stretch of known hours is read on its own; a run of equal values (the model's
 *    1 cm steps flatten a slow turn) counts as one point at its middle;
 * 2. a point higher (lower) than both neighbours is a high (low); a stretch's first and last points
 *    never are, since the turn may lie beyond them;
 * 3. each is refined to the minute by the least-squares parabola through the hourly values 2 h
 *    either side, its vertex kept within 1.5 h of the hour found (else the hour stands), and its
 *    height never less extreme than the hourly value;
 * 4. wiggles are removed: while a high and the low next to it differ by less than
 *    MIN_TIDE_RANGE_M or lie closer than MIN_TIDE_SEPARATION_MS, the pair with the smallest
 *    difference goes (the tide keeps the larger swing either side); runs of one type left by a gap
 *    keep their most extreme member.
 */
export function seaLevelExtremes(start: number, values: ArrayLike<number>): SeaLevelExtreme[] {
  const found: SeaLevelExtreme[] = [];
  let i = 0;
  while (i < values.length) {
    if (!Number.isFinite(values[i]!)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < values.length && Number.isFinite(values[j + 1]!)) j++;
    found.push(...stretchExtremes(start, values, i, j));
    i = j + 1;
  }
  return pruneWiggles(mergeRuns(found));
}

/** Extremes inside the known stretch [from, to] (indices, inclusive). */
function stretchExtremes(start: number, v: ArrayLike<number>, from: number, to: number): SeaLevelExtreme[] {
  // Plateaus: [first index, last index, value].
  const flat: [number, number, number][] = [];
  for (let k = from; k <= to; k++) {
    const last = flat[flat.length - 1];
    if (last && last[2] === v[k]) last[1] = k;
    else flat.push([k, k, v[k]!]);
  }
  const out: SeaLevelExtreme[] = [];
  for (let k = 1; k < flat.length - 1; k++) {
    const [a, b, h] = flat[k]!;
    const before = flat[k - 1]![2];
    const after = flat[k + 1]![2];
    const type = h > before && h > after ? "high" : h < before && h < after ? "low" : null;
    if (type === null) continue;
    const centre = (a + b) / 2;
    const refined = refine(v, type, centre, from, to, (b - a) / 2 + 1.5);
    const heightM = type === "high" ? Math.max(h, refined.heightM) : Math.min(h, refined.heightM);
    out.push({ type, time: Math.round((start + refined.at * HOUR_MS) / 60_000) * 60_000, heightM });
  }
  return out;
}

/** The vertex of the least-squares parabola through the hours around `centre` (a fractional index). */
function refine(v: ArrayLike<number>, type: "high" | "low", centre: number, from: number, to: number, maxShift: number): { at: number; heightM: number } {
  const lo = Math.max(from, Math.floor(centre) - FIT_HALF_WIDTH);
  const hi = Math.min(to, Math.ceil(centre) + FIT_HALF_WIDTH);
  // Normal equations of h = a·t² + b·t + c with t = index − centre.
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0,
    s4 = 0,
    y0 = 0,
    y1 = 0,
    y2 = 0;
  for (let k = lo; k <= hi; k++) {
    const t = k - centre;
    const y = v[k]!;
    s0 += 1;
    s1 += t;
    s2 += t * t;
    s3 += t * t * t;
    s4 += t * t * t * t;
    y0 += y;
    y1 += y * t;
    y2 += y * t * t;
  }
  const m = [
    [s4, s3, s2],
    [s3, s2, s1],
    [s2, s1, s0],
  ];
  const rhs = [y2, y1, y0];
  const det = det3(m);
  const fallback = { at: centre, heightM: v[Math.round(centre)]! };
  if (s0 < 3 || Math.abs(det) < 1e-12) return fallback;
  // Cramer's rule: each coefficient from the matrix with its column replaced by the right-hand side.
  const [a, b, c] = [0, 1, 2].map((col) => det3(m.map((row, r) => row.map((x, k) => (k === col ? rhs[r]! : x)))) / det) as [number, number, number];
  // A parabola that turns the wrong way (or not at all) says nothing about this turn.
  if (type === "high" ? a >= 0 : a <= 0) return fallback;
  const shift = -b / (2 * a);
  if (!Number.isFinite(shift) || Math.abs(shift) > maxShift) return fallback;
  return { at: centre + shift, heightM: a * shift * shift + b * shift + c };
}

function det3(m: readonly (readonly number[])[]): number {
  const [[a, b, c], [d, e, f], [g, h, i]] = m as [[number, number, number], [number, number, number], [number, number, number]];
  return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
}

/** Collapses each run of same-type extremes to its most extreme member. */
function mergeRuns(events: readonly SeaLevelExtreme[]): SeaLevelExtreme[] {
  const out: SeaLevelExtreme[] = [];
  for (const e of events) {
    const prev = out[out.length - 1];
    if (prev && prev.type === e.type) {
      if (e.type === "high" ? e.heightM > prev.heightM : e.heightM < prev.heightM) out[out.length - 1] = e;
    } else out.push(e);
  }
  return out;
}

/** Removes high–low pairs too small or too close to be tides, smallest first (step 4 above). */
function pruneWiggles(events: SeaLevelExtreme[]): SeaLevelExtreme[] {
  const out = [...events];
  for (;;) {
    let worst = -1;
    let worstRange = Infinity;
    for (let k = 0; k + 1 < out.length; k++) {
      const a = out[k]!;
      const b = out[k + 1]!;
      const range = Math.abs(a.heightM - b.heightM);
      if ((range < MIN_TIDE_RANGE_M || b.time - a.time < MIN_TIDE_SEPARATION_MS) && range < worstRange) {
        worst = k;
        worstRange = range;
      }
    }
    if (worst < 0) return out;
    out.splice(worst, 2);
    // Removing a pair can leave two of a kind side by side only across a gap; keep the larger.
    const merged = mergeRuns(out);
    out.length = 0;
    out.push(...merged);
  }
}

/**
 * MLLW estimated from the series itself: the mean of the lower low water of each whole tidal day
 * (24 h 50 min, counted from the first known hour) that lies inside the known span. Null with fewer
 * than MIN_DATUM_DAYS such days. Over the 14 days asked for, the days span nearly a whole spring–neap
 * cycle (14.77 days), so springs and neaps both count; NOAA's MLLW averages 19 years.
 */
export function estimateMllw(extremes: readonly SeaLevelExtreme[], spanStart: number, spanEnd: number): { mllwM: number; days: number } | null {
  const lows: number[] = [];
  for (let d = spanStart; d + TIDAL_DAY_MS <= spanEnd; d += TIDAL_DAY_MS) {
    let lowest = Infinity;
    for (const e of extremes) if (e.type === "low" && e.time >= d && e.time < d + TIDAL_DAY_MS && e.heightM < lowest) lowest = e.heightM;
    if (lowest !== Infinity) lows.push(lowest);
  }
  if (lows.length < MIN_DATUM_DAYS) return null;
  return { mllwM: lows.reduce((a, b) => a + b, 0) / lows.length, days: lows.length };
}

/**
 * The modelled tide of an hourly sea-level series (metres, NaN = unknown): its high and low waters
 * in feet above the MLLW estimated from it. Null when the series has no datum (too few known days)
 * or fewer than two extremes, e.g. a point outside the model's sea mask (all null).
 */
export function modelledTide(start: number, values: ArrayLike<number>): ModelledTide | null {
  let first = -1;
  let last = -1;
  for (let k = 0; k < values.length; k++) {
    if (!Number.isFinite(values[k]!)) continue;
    if (first < 0) first = k;
    last = k;
  }
  if (first < 0) return null;
  const extremes = seaLevelExtremes(start, values);
  if (extremes.length < 2) return null;
  const datum = estimateMllw(extremes, start + first * HOUR_MS, start + last * HOUR_MS);
  if (!datum) return null;
  return {
    events: extremes.map((e) => ({ type: e.type, time: new Date(e.time), heightFt: (e.heightM - datum.mllwM) / M_PER_FT })),
    mllwM: datum.mllwM,
    datumDays: datum.days,
  };
}
