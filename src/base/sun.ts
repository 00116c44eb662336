// Sunrise and sunset of a spot-local day, from suncalc (the sun's upper limb at the horizon, with
// refraction), for the forecast page's day rows and its chart's night shading: one rule for both.
import { getTimes } from "suncalc";
import { zonedInstant } from "./zone.js";

export interface SunTimes {
  /** Null where the sun does not rise or set that day (polar day or night). */
  sunrise: Date | null;
  sunset: Date | null;
}

/** The sunrise and sunset of `date` (YYYY-MM-DD, local to `timeZone`) at a position. */
export function sunTimes(date: string, timeZone: string, lat: number, lon: number): SunTimes {
  const t = getTimes(zonedInstant(date, 12, timeZone), lat, lon);
  const valid = (d: Date | null) => (d === null || Number.isNaN(d.getTime()) ? null : d);
  return { sunrise: valid(t.sunrise), sunset: valid(t.sunset) };
}
