// Great-circle distance and compass helpers.
import { OCTANTS, type Octant } from "./schema.js";

/** Mean Earth radius (IUGG), km. */
export const EARTH_RADIUS_KM = 6371.0088;
const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle (haversine) distance in kilometres. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Centre bearing of an octant, degrees true. */
export function octantDeg(o: Octant): number {
  return OCTANTS.indexOf(o) * 45;
}

/** 8-point compass name for a direction in degrees. */
export function compass8(deg: number | null): Octant | null {
  if (deg === null || !Number.isFinite(deg)) return null;
  const i = Math.round((((deg % 360) + 360) % 360) / 45) % 8;
  return OCTANTS[i]!;
}

/** Smallest angle between two bearings, 0..180. */
export function angleBetween(a: number, b: number): number {
  const d = Math.abs((((a - b) % 360) + 360) % 360);
  return d > 180 ? 360 - d : d;
}

/** Mean of directions (degrees), weighted, taken one direction at a time; null if there are none. */
export class CircularMean {
  #x = 0;
  #y = 0;
  #n = 0;

  add(deg: number, weight = 1): void {
    if (!Number.isFinite(deg)) return;
    this.#x += weight * Math.cos(rad(deg));
    this.#y += weight * Math.sin(rad(deg));
    this.#n++;
  }

  value(): number | null {
    if (this.#n === 0 || (this.#x === 0 && this.#y === 0)) return null;
    const deg = (Math.atan2(this.#y, this.#x) * 180) / Math.PI;
    return (deg + 360) % 360;
  }
}

/** Rounds to `dp` decimals; never returns -0. */
export const round = (v: number, dp: number) => {
  const f = 10 ** dp;
  return Math.round(v * f) / f + 0;
};

/** Every distance an answer states, in km: one decimal, in fields and in sentences alike. */
export const roundKm = (km: number) => round(km, 1);
