// Conditions (response of GET /api/v1/conditions and the get_conditions tool), spec section 2.
import { z } from "zod";
import { RATINGS } from "../model/tiers.js";
import { FRESHNESS_IDS } from "../sources/freshness.js";
import { DataCreditSchema, DateString, DateTime, Nullable, RegionRef, SourceSchema, Uri } from "./common.js";

export const TideStateSchema = z.enum(["rising", "falling", "high", "low"]);
export const VisibilitySourceSchema = z.enum(["satellite", "heuristic"]);
export const RatingSchema = z.enum(RATINGS);

export const PeriodSchema = z
  .strictObject({
    kind: z.enum(["nowcast", "forecast"]).meta({ description: "nowcast = current-hour estimate; forecast = 3-hour block" }),
    start: DateTime.nullable(),
    end: DateTime.nullable(),
    rating: RatingSchema.nullable().meta({ description: "Tier derived from score" }),
    score: Nullable.int().meta({ description: "0-100, higher is better" }),
    visibility_ft: Nullable.int().meta({ description: "Horizontal underwater visibility, feet" }),
    visibility_m: Nullable.num(),
    visibility_low_ft: Nullable.int().meta({
      description:
        "Low end of the typical range around visibility_ft, feet: the published typical range of the spot's level for the month (or, for an estimated level, its habitat's spread), moved by the same swell, wind, rain, tide and light as the estimate",
    }),
    visibility_high_ft: Nullable.int().meta({ description: "High end of that range, feet; visibility_low_ft <= visibility_ft <= visibility_high_ft" }),
    swell_height_ft: Nullable.num().meta({ description: "Nearshore significant swell at the spot, exposure-adjusted" }),
    swell_height_m: Nullable.num(),
    swell_period_s: Nullable.num(),
    swell_from_deg: Nullable.num().meta({ description: "Direction the swell arrives from, degrees true" }),
    wind_speed_kt: Nullable.num(),
    wind_gust_kt: Nullable.num(),
    wind_from_deg: Nullable.num(),
    tide_state: TideStateSchema.nullable(),
    tide_height_ft: Nullable.num().meta({ description: "Feet above MLLW" }),
    water_temp_c: Nullable.num(),
    confidence: z.number().min(0).max(1).nullable().meta({
      description:
        "0-1 confidence in the visibility estimate, from what stands behind it: satellite, live inputs or seasonal norms, the independent published sources of the spot's level (or none: an estimated level), and the width of its range (docs/model.md)",
    }),
    visibility_source: VisibilitySourceSchema.nullable(),
    why: Nullable.str().meta({ description: "One or two sentences explaining the rating" }),
  })
  .meta({ id: "Period" });
export type PeriodJson = z.infer<typeof PeriodSchema>;

export const TideEventSchema = z.strictObject({ type: z.enum(["high", "low"]), time: DateTime, height_ft: Nullable.num().meta({ description: "Feet above MLLW" }) }).meta({ id: "TideEvent" });

export const ConditionsSchema = z
  .strictObject({
    schema: z.literal("service.conditions.v1"),
    spot: z.strictObject({
      id: z.string(),
      name: z.string(),
      region: RegionRef,
      lat: z.number(),
      lon: z.number(),
      timezone: z.string().meta({ description: "IANA time zone" }),
    }),
    query: z.strictObject({
      spot: Nullable.str(),
      lat: Nullable.num(),
      lon: Nullable.num(),
      from: Nullable.str(),
      to: Nullable.str(),
      resolved_from: z.strictObject({ lat: z.number(), lon: z.number(), distance_km: z.number() }).nullable().meta({ description: "Set when lat/lon was snapped to a spot" }),
    }),
    range: z.strictObject({
      from: DateString,
      to: DateString,
      available_from: DateString.nullable(),
      available_to: DateString.nullable(),
    }),
    generated_at: DateTime.nullable(),
    next_update_after: DateTime.nullable().meta({ description: "Newer data is not expected before this" }),
    data_quality: z.strictObject({
      visibility_source: VisibilitySourceSchema.nullable(),
      freshness: z.enum(FRESHNESS_IDS).nullable(),
    }),
    tide_datum: z.literal("MLLW"),
    now: PeriodSchema.nullable().meta({ description: "Current-hour nowcast when today is in the range" }),
    periods: z.array(PeriodSchema),
    tide_events: z.array(TideEventSchema),
    sources: z.array(z.string()).meta({ description: "Identifiers of the upstream feeds used" }),
    links: z.strictObject({ page: Uri, app: Uri, docs: Uri }),
    attribution: z.string(),
    source: SourceSchema,
    data_credits: z.array(DataCreditSchema),
    disclaimer: z.string(),
  })
  .meta({ id: "Conditions", description: "Conditions for one spot over a date range, in 3-hour periods." });
export type ConditionsJson = z.infer<typeof ConditionsSchema>;
