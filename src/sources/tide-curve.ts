// A tide station's curve from its harmonic constants, and its high and low waters, for one window
// of days at a time. The astronomy (equilibrium arguments, node factors) and the constituent
// definitions are @neaps/tide-predictor's; the search is ours. The library finds each high and low
// by bisecting the curve's slope with every constituent's sine evaluated afresh, recomputes the node
// corrections for every day of the span, and lays a 10-minute timeline over it first: about 2 ms
// for one station's 12-day window, of which a region's recommendation from nothing needs about four.
// Here the node corrections are taken once at the window's middle (they follow the 18.6-year lunar
// node and the 8.85-year perigee: a few hundredths of a degree over six days), the slope is
// stepped along the bracketing grid by rotating each constituent's phasor instead of calling sin,
// and each root is refined by Newton's method kept inside its bracket. About a fifth of the time;
// the same highs and lows as the library's to 2 minutes and 0.01 ft, apart from the departures
// `dropSpurious` and `HarmonicTideSource#window` describe (test/tides.test.ts checks every station
// over three months).
import { astro, constituents as MODELS, type Constituent, type Station } from "@neaps/tide-predictor";
import { HOUR_MS } from "../base/clock.js";
import { M_PER_FT } from "../model/visibility.js";
import type { TideEvent } from "./types.js";

const D2R = Math.PI / 180;
/** A root is refined until its step is under a tenth of a second (the library stops under a second). */
const ROOT_TOLERANCE_H = 0.1 / 3600;
/**
 * The library's filters for spurious extremes (after Hatyan and NOAA CO-OPS practice): an extreme
 * whose rise or fall to either neighbour is under 1 cm is dropped, as is one closer than
 * period/(2 × 1.85) of the dominant tidal constituent to a neighbour of its own type, except at a
 * double-tide station ((M4 + MS4) / M2 > 0.25), whose aggers are real. The least prominent goes
 * first, one at a time, and the first and last extremes of the span are never dropped.
 */
const PROMINENCE_M = 0.01;
const DOUBLE_TIDE_RATIO = 0.25;
const GAP_DIVISOR = 1.85;
/** The tidal band the dominant constituent is taken from: periods of 1 to 30 hours. */
const TIDAL_MIN_W = Math.PI / 15;
const TIDAL_MAX_W = 2 * Math.PI;

export type StationConstants = Pick<Station, "harmonic_constituents" | "datums">;

/** A station's constants resolved once: the constituent models, amplitudes and phases. */
export class StationHarmonics {
  readonly #models: Constituent[] = [];
  readonly #amplitude: number[] = [];
  readonly #phase: number[] = [];
  /** Metres from mean sea level up to MLLW's zero: levels are metres above MLLW. */
  readonly #datumOffsetM: number;
  readonly #doubleTide: boolean;
  readonly #maxW: number;

  constructor(station: StationConstants) {
    const { MLLW, MSL } = station.datums as Record<string, number | undefined>;
    if (typeof MLLW !== "number" || typeof MSL !== "number") throw new Error("a tide station needs its MLLW and MSL datums");
    this.#datumOffsetM = MSL - MLLW;
    let m2 = 0;
    let m4ms4 = 0;
    let maxW = 0;
    for (const c of station.harmonic_constituents) {
      const model = MODELS[c.name];
      if (!model) continue;
      if (c.name === "M2") m2 = c.amplitude;
      if (c.name === "M4" || c.name === "MS4") m4ms4 += c.amplitude;
      if (c.amplitude === 0) continue;
      const w = model.speed * D2R;
      this.#models.push(model);
      this.#amplitude.push(c.amplitude);
      this.#phase.push(c.phase * D2R);
      if (w > maxW) maxW = w;
    }
    this.#maxW = maxW;
    this.#doubleTide = m2 > 0 && m4ms4 / m2 > DOUBLE_TIDE_RATIO;
  }

  /**
   * The curve for instants near `epochMs`: equilibrium arguments at the epoch, node corrections at
   * `correctionsAtMs` (the middle of the span it will be read over).
   */
  curve(epochMs: number, correctionsAtMs: number): TideCurve {
    const base = astro(new Date(epochMs));
    const corr = astro(new Date(correctionsAtMs));
    const n = this.#models.length;
    const a = new Float64Array(n);
    const w = new Float64Array(n);
    const phi = new Float64Array(n);
    // The dominant tidal constituent, by its amplitude with the node factor (as the library takes it).
    let dominantA = 0;
    let dominantW = 0;
    for (let i = 0; i < n; i++) {
      const model = this.#models[i]!;
      const { f, u } = model.correction(corr);
      a[i] = this.#amplitude[i]! * f;
      w[i] = model.speed * D2R;
      phi[i] = (model.value(base) + u) * D2R - this.#phase[i]!;
      if (w[i]! >= TIDAL_MIN_W && w[i]! <= TIDAL_MAX_W && a[i]! > dominantA) {
        dominantA = a[i]!;
        dominantW = w[i]!;
      }
    }
    const minGapH = this.#doubleTide ? 0 : Math.PI / (GAP_DIVISOR * (dominantW || this.#maxW));
    return new TideCurve(epochMs, a, w, phi, this.#datumOffsetM, this.#maxW, minGapH);
  }
}

/** h(t) = offset + Σ Aᵢ cos(ωᵢ t + φᵢ), t in hours from the epoch, h in metres above MLLW. */
export class TideCurve {
  readonly #epochMs: number;
  readonly #a: Float64Array;
  readonly #w: Float64Array;
  readonly #phi: Float64Array;
  readonly #offsetM: number;
  readonly #maxW: number;
  readonly #minGapH: number;

  constructor(epochMs: number, a: Float64Array, w: Float64Array, phi: Float64Array, offsetM: number, maxW: number, minGapH: number) {
    this.#epochMs = epochMs;
    this.#a = a;
    this.#w = w;
    this.#phi = phi;
    this.#offsetM = offsetM;
    this.#maxW = maxW;
    this.#minGapH = minGapH;
  }

  /** Feet above MLLW at an instant. */
  levelFt(ms: number): number {
    return this.#level((ms - this.#epochMs) / HOUR_MS) / M_PER_FT;
  }

  #level(t: number): number {
    let sum = this.#offsetM;
    for (let i = 0; i < this.#a.length; i++) sum += this.#a[i]! * Math.cos(this.#w[i]! * t + this.#phi[i]!);
    return sum;
  }

  /**
   * High and low waters between two instants, heights in feet above MLLW, times to the second.
   * Brackets a quarter period of the fastest constituent wide hold at most one turn each.
   */
  extremes(fromMs: number, toMs: number): TideEvent[] {
    const { length: n } = this.#a;
    if (n === 0 || this.#maxW === 0) return [];
    const from = (fromMs - this.#epochMs) / HOUR_MS;
    const to = (toMs - this.#epochMs) / HOUR_MS;
    const step = Math.PI / (2 * this.#maxW);
    // Each constituent's phasor (cos, sin of ωt + φ) at the grid point, turned by ωΔ per step.
    const c = new Float64Array(n);
    const s = new Float64Array(n);
    const turnC = new Float64Array(n);
    const turnS = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const x = this.#w[i]! * from + this.#phi[i]!;
      c[i] = Math.cos(x);
      s[i] = Math.sin(x);
      turnC[i] = Math.cos(this.#w[i]! * step);
      turnS[i] = Math.sin(this.#w[i]! * step);
    }
    const slopeOfPhasors = (): number => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum -= this.#a[i]! * this.#w[i]! * s[i]!;
      return sum;
    };
    const found: { t: number; levelM: number; high: boolean }[] = [];
    let t0 = from;
    let d0 = slopeOfPhasors();
    for (let k = 1; t0 < to; k++) {
      let t1 = from + k * step;
      let d1: number;
      if (t1 < to) {
        for (let i = 0; i < n; i++) {
          const ci = c[i]!;
          const si = s[i]!;
          c[i] = ci * turnC[i]! - si * turnS[i]!;
          s[i] = si * turnC[i]! + ci * turnS[i]!;
        }
        d1 = slopeOfPhasors();
      } else {
        t1 = to;
        d1 = this.#slope(t1);
      }
      if (d0 !== 0 && d1 !== 0 && d0 > 0 !== d1 > 0) {
        const t = this.#root(t0, t1, d0, d1);
        let levelM = this.#offsetM;
        let curvature = 0;
        for (let i = 0; i < n; i++) {
          const ac = this.#a[i]! * Math.cos(this.#w[i]! * t + this.#phi[i]!);
          levelM += ac;
          curvature -= ac * this.#w[i]! * this.#w[i]!;
        }
        found.push({ t, levelM, high: curvature < 0 });
      }
      t0 = t1;
      d0 = d1;
    }
    return dropSpurious(found, this.#minGapH).map((e) => ({
      type: e.high ? "high" : "low",
      time: new Date(Math.round(this.#epochMs + e.t * HOUR_MS)),
      heightFt: e.levelM / M_PER_FT,
    }));
  }

  #slope(t: number): number {
    let sum = 0;
    for (let i = 0; i < this.#a.length; i++) sum -= this.#a[i]! * this.#w[i]! * Math.sin(this.#w[i]! * t + this.#phi[i]!);
    return sum;
  }

  /**
   * The slope's zero in [lo, hi], where it changes sign: from where the chord between the ends
   * crosses zero, Newton's steps, bisecting when one would leave the bracket.
   */
  #root(lo: number, hi: number, slopeAtLo: number, slopeAtHi: number): number {
    const rising = slopeAtLo > 0;
    let t = lo + ((hi - lo) * slopeAtLo) / (slopeAtLo - slopeAtHi);
    for (let iteration = 0; iteration < 60; iteration++) {
      let slope = 0;
      let curvature = 0;
      for (let i = 0; i < this.#a.length; i++) {
        const x = this.#w[i]! * t + this.#phi[i]!;
        const aw = this.#a[i]! * this.#w[i]!;
        slope -= aw * Math.sin(x);
        curvature -= aw * this.#w[i]! * Math.cos(x);
      }
      if (slope === 0) return t;
      if (slope > 0 === rising) lo = t;
      else hi = t;
      let next = t - slope / curvature;
      if (!(next > lo && next < hi)) next = (lo + hi) / 2;
      if (Math.abs(next - t) < ROOT_TOLERANCE_H || hi - lo < ROOT_TOLERANCE_H) return next;
      t = next;
    }
    return t;
  }
}

/**
 * The library's filter (see PROMINENCE_M): drops the least prominent offending extreme until none is
 * left. One departure: when two are equally prominent, which happens whenever two highs (or lows)
 * end up side by side and each one's prominence is their difference, the less extreme of them goes
 * (the lower high, the higher low), where the library drops whichever comes first. Galveston's
 * 13 October 2026 shows why: after a stand's 4 mm dip is removed, a 0.58 m high at 00:47 and the
 * stand's 0.53 m top at 07:45 are neighbours; the library kept 07:45, the table here keeps 00:47.
 */
function dropSpurious<E extends { t: number; levelM: number; high: boolean }>(events: E[], minGapH: number): E[] {
  const kept = [...events];
  for (;;) {
    let worst = -1;
    let worstProminence = Infinity;
    for (let i = 1; i < kept.length - 1; i++) {
      const prev = kept[i - 1]!;
      const e = kept[i]!;
      const next = kept[i + 1]!;
      const prominence = Math.min(Math.abs(e.levelM - prev.levelM), Math.abs(next.levelM - e.levelM));
      const crowded = minGapH > 0 && ((e.t - prev.t < minGapH && e.high === prev.high) || (next.t - e.t < minGapH && e.high === next.high));
      if (!(prominence < PROMINENCE_M || crowded)) continue;
      const tie = worst >= 0 && prominence === worstProminence && e.high === kept[worst]!.high;
      if (prominence < worstProminence || (tie && (e.high ? e.levelM < kept[worst]!.levelM : e.levelM > kept[worst]!.levelM))) {
        worst = i;
        worstProminence = prominence;
      }
    }
    if (worst < 0) return kept;
    kept.splice(worst, 1);
  }
}
