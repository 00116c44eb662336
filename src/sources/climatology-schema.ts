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

/**
 * A stretch of the region's coast whose water is not the region's water: one region may hold two
 * seas (the Cape Peninsula's upwelled Atlantic seaboard and False Bay). Its spots take their seasonal
 * water temperature from this monthly table instead of the region's months; everything else (swell,
 * wind, rain, cloud) stays the region's. Seasonal norms only: live answers are always the upstream's.
 */
export const WaterTempZone = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    /** Plain name of the stretch of coast, shown in the seasonal-norm credit. */
    name: z.string().min(1),
    /** Spot ids (of this region) whose seasonal water temperature this table gives. */
    spots: z.array(z.string().min(1)).min(1),
    /** Typical water temperature at the spots, degrees C, January..December. */
    water_temp_c: z.array(z.number()).length(12),
    /** How the numbers were derived, including any rounding or JUDGEMENT. */
    method: z.string().min(1),
    /** Ids of the table's `sources` this zone's numbers rest on. */
    source_ids: z.array(z.string().min(1)).min(1),
  })
  .strict();
export type WaterTempZone = z.infer<typeof WaterTempZone>;

export const ClimatologyTable = z
  .object({
    region: z.string().min(1),
    /** Plain statement of how the numbers were derived, including any rounding or judgement. */
    method: z.string().min(1),
    sources: z.array(ClimatologySource).min(1),
    months: z.array(ClimatologyMonth).length(12),
    /** Stretches of coast with their own seasonal water temperature; absent when the region has one sea. */
    water_temp_zones: z.array(WaterTempZone).optional(),
  })
  .strict()
  .refine((t) => t.months.every((m, i) => m.month === i + 1), { message: "months must be 1..12 in order" })
  .refine((t) => (t.water_temp_zones ?? []).every((z) => z.source_ids.every((id) => t.sources.some((s) => s.id === id))), {
    message: "every water_temp_zones[].source_ids entry must name one of the table's sources",
  })
  .refine(
    (t) => {
      const spots = (t.water_temp_zones ?? []).flatMap((z) => z.spots);
      return new Set(spots).size === spots.length;
    },
    { message: "a spot may belong to at most one water temperature zone" },
  );
export type ClimatologyTable = z.infer<typeof ClimatologyTable>;
export type ClimatologyMonth = z.infer<typeof ClimatologyMonth>;
