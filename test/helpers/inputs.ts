// Hourly inputs an upstream double answers with: calm, dry weather on every hour, all from one origin.
import { emptyInputs, type HourlyInputs, type InputField, type Origin } from "../../src/sources/types.js";

const CALM: Partial<Record<InputField, number>> = {
  swell1_height_m: 0.4,
  swell1_period_s: 9,
  swell1_from_deg: 200,
  wind_speed_kt: 6,
  wind_gust_kt: 9,
  wind_from_deg: 60,
  precip_mm: 0,
  cloud_pct: 30,
  water_temp_c: 25,
};

/** Calm inputs for the UTC hours [start, end), every value from `origin`. */
export function calmInputs(start: Date, end: Date, origin: Origin): HourlyInputs {
  const inp = emptyInputs(start, Math.round((end.getTime() - start.getTime()) / 3_600_000));
  inp.origins = [origin];
  for (const [f, v] of Object.entries(CALM) as [InputField, number][]) {
    inp.values[f].fill(v);
    inp.origin[f].fill(0);
  }
  return inp;
}
