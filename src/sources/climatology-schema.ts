// Shape of the seasonal-norm tables in data/climatology/<region-id>.json. Every table names its
// public source; the climatology source turns them into deterministic hourly inputs.
import { z } from "zod";

const Deg = z.number().min(0).max(360);

export const SwellTrain = z
  .object({
    /** Direction the swell comes FROM, degrees true. */
    from_deg: Deg,
    /** Typical (median) significant height offshore, metres. */
    height_m: z.number().min(0),
    period_s: z.number().positive(),
  })
  .strict();

export const ClimatologyMonth = z
  .object({
    month: z.number().int().min(1).max(12),
    /** The swell trains typical for the month, largest first. */
    swell: z.array(SwellTrain).min(1).max(3),
    wind: z
      .object({
        from_deg: Deg,
        /** Mean 10 m wind speed, knots. */
        speed_kt: z.number().min(0),
        /** Peak-to-trough daily swing of the mean wind, knots (sea breeze / trade-wind cycle). */
        diurnal_range_kt: z.number().min(0),
        /** Local hour (0-23) when the daily wind peaks. */
        peak_hour: z.number().int().min(0).max(23),
      })
      .strict(),
    water_temp_c: z.number(),
    /** Mean monthly rainfall at the nearest long-record station, millimetres. */
    rain_mm: z.number().min(0),
    /** Mean number of days with measurable rain. */
    rain_days: z.number().min(0).max(31),
    /** Mean cloud cover, percent. */
    cloud_pct: z.number().min(0).max(100),
  })
  .strict();

export const ClimatologySource = z
  .object({
    id: z.string().min(1),
    title: z.string().min(1),
    url: z.url(),
    /** Which fields of the table this source supplies and how (e.g. "swell: NDBC 51201 monthly medians"). */
    used_for: z.string().min(1),
  })
  .strict();

export const ClimatologyTable = z
  .object({
    region: z.string().min(1),
    /** Plain statement of how the numbers were derived, including any rounding or judgement. */
    method: z.string().min(1),
    sources: z.array(ClimatologySource).min(1),
    months: z.array(ClimatologyMonth).length(12),
  })
  .strict()
  .refine((t) => t.months.every((m, i) => m.month === i + 1), { message: "months must be 1..12 in order" });
export type ClimatologyTable = z.infer<typeof ClimatologyTable>;
export type ClimatologyMonth = z.infer<typeof ClimatologyMonth>;
