// Swell at the spot: offshore swell trains weighted by the spot's exposure, and the wave-orbital
// velocity they drive at the sea floor (what stirs up sediment).
import type { Octant } from "../catalog/schema.js";
import { angleBetween, octantDeg } from "../catalog/geo.js";

const G = 9.81;

/** Weight of a swell (or wind) arriving from a sheltered direction: a little still wraps in. */
export const SHELTERED_WEIGHT = 0.1;

/**
 * How much of a swell from `fromDeg` reaches a spot open to `exposure`: 1 within an exposed octant
 * (±22.5° of its centre), falling linearly to SHELTERED_WEIGHT at 45° beyond it.
 */
export function exposureWeight(fromDeg: number, exposure: readonly Octant[]): number {
  let nearest = 180;
  for (const o of exposure) nearest = Math.min(nearest, angleBetween(fromDeg, octantDeg(o)));
  if (nearest <= 22.5) return 1;
  if (nearest >= 67.5) return SHELTERED_WEIGHT;
  return 1 - ((nearest - 22.5) / 45) * (1 - SHELTERED_WEIGHT);
}

export interface SwellTrainInput {
  heightM: number;
  periodS: number;
  fromDeg: number;
}

export interface SpotSwell {
  /** Significant height reaching the spot: energy sum of exposure-weighted trains. */
  heightM: number;
  /** Period and direction of the train that contributes most at the spot. */
  periodS: number;
  fromDeg: number;
}

/**
 * @param shelter the spot's `swell_exposure`: the share of offshore height that gets in at all
 */
export function swellAtSpot(trains: readonly SwellTrainInput[], exposure: readonly Octant[], shelter = 1): SpotSwell | null {
  let energy = 0;
  let best: { h: number; t: SwellTrainInput } | null = null;
  for (const t of trains) {
    if (!(t.heightM >= 0) || !(t.periodS > 0) || !Number.isFinite(t.fromDeg)) continue;
    const h = t.heightM * shelter * exposureWeight(t.fromDeg, exposure);
    energy += h * h;
    if (!best || h > best.h) best = { h, t };
  }
  if (!best) return null;
  return { heightM: Math.sqrt(energy), periodS: best.t.periodS, fromDeg: best.t.fromDeg };
}

/** Wavenumber k (rad/m) for period T at depth h: Fenton & McKee (1990) explicit form, ~1 % accurate. */
export function waveNumber(periodS: number, depthM: number): number {
  const l0 = (G * periodS * periodS) / (2 * Math.PI);
  const l = l0 * Math.tanh(((2 * Math.PI * depthM) / l0) ** 0.75) ** (2 / 3);
  return (2 * Math.PI) / l;
}

/** Near-bed orbital velocity amplitude u_b = πH / (T·sinh(kh)), m/s (linear wave theory). */
export function orbitalVelocity(heightM: number, periodS: number, depthM: number): number {
  if (heightM <= 0 || periodS <= 0) return 0;
  const kh = waveNumber(periodS, depthM) * depthM;
  return (Math.PI * heightM) / (periodS * Math.sinh(kh));
}

/**
 * Swell height as it feels in the water: long-period swell surges harder than short wind swell of
 * the same height. Factor sqrt(T/10), bounded to 0.8–1.4.
 */
export function surgeEquivalentM(heightM: number, periodS: number): number {
  return heightM * Math.min(1.4, Math.max(0.8, Math.sqrt(periodS / 10)));
}
