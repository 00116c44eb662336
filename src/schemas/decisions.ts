// Recommendation (GET /api/v1/recommendations, recommend_spot) and BestDay (GET /api/v1/best-day,
// best_day), with the Pick, SpotCard, Confidence and Caveat objects they carry (spec section 2).
import { z } from "zod";
import { OCTANTS, UNSUITED_REASONS } from "../catalog/schema.js";
import { ActivityIdSchema, ActivityInfoSchema } from "./catalog.js";
import { DataCreditSchema, DateString, DateTime, Nullable, RegionRef, SourceSchema, Uri } from "./common.js";
import { RatingSchema, TideStateSchema } from "./conditions.js";

export const CAVEAT_CODES = [
  "visibility_estimated",
  "stale_inputs",
  "long_lead_time",
  "marginal_conditions",
  "location_snapped",
  "proxy_activity_model",
  "verify_fishing_rules",
  "regulated_area",
  "regulations_not_checked",
] as const;
export type CaveatCode = (typeof CAVEAT_CODES)[number];

export const CaveatSchema = z.strictObject({ code: z.enum(CAVEAT_CODES), message: z.string().meta({ description: "Plain-language message to relay" }) }).meta({ id: "Caveat" });

export const ConfidenceSchema = z
  .strictObject({
    value: z.number().min(0).max(1).meta({ description: "Product of the factors" }),
    label: z.enum(["high", "medium", "low"]).meta({ description: "high >= 0.65; medium >= 0.4; else low" }),
    factors: z.strictObject({
      model: z.number().meta({ description: "The facts layer's visibility confidence for the period" }),
      visibility_source: z.number().meta({ description: "1.0 satellite, 0.8 heuristic" }),
      freshness: z.number().meta({ description: "1.0 live … 0.6 none" }),
      lead_time: z.number().meta({ description: "0.95 per day ahead, floor 0.6" }),
      activity_fit: z.number().meta({ description: "1.0 native, 0.85 proxy" }),
    }),
  })
  .meta({ id: "Confidence" });

export const BestWindowSchema = z
  .strictObject({
    start: DateTime,
    end: DateTime,
    start_local: z.string().regex(/^\d{2}:\d{2}$/),
    end_local: z.string().regex(/^\d{2}:\d{2}$/),
    score: z.number().int().min(0).max(100),
    rating: RatingSchema.nullable(),
  })
  .meta({ id: "BestWindow" });

const Compass = z.enum(OCTANTS);

export const DecisionMetricsSchema = z
  .strictObject({
    visibility_ft: Nullable.int(),
    visibility_low_ft: Nullable.int().meta({ description: "Low end of the typical range around visibility_ft (the period's visibility_low_ft)" }),
    visibility_high_ft: Nullable.int().meta({ description: "High end of that range (the period's visibility_high_ft)" }),
    swell_height_ft: Nullable.num(),
    swell_period_s: Nullable.num(),
    swell_from: Compass.nullable(),
    wind_speed_kt: Nullable.num(),
    wind_from: Compass.nullable(),
    water_temp_f: Nullable.int(),
    tide_state: TideStateSchema.nullable(),
  })
  .meta({ id: "DecisionMetrics" });

export const SpotCardSchema = z
  .strictObject({
    version: z.literal(1),
    spot_id: z.string(),
    spot_name: z.string(),
    region_name: Nullable.str(),
    date: DateString,
    date_label: z.string().meta({ description: "Today, Tomorrow, or a short weekday/month/day label" }),
    activity: ActivityIdSchema.nullable(),
    tier: RatingSchema.nullable(),
    tier_label: z.string(),
    tier_color: z.string().regex(/^#[0-9A-F]{6}$/),
    score: Nullable.int(),
    headline: Nullable.str(),
    best_window: z.strictObject({ start_local: z.string(), end_local: z.string() }).nullable(),
    metrics: z.strictObject({ visibility: Nullable.str(), swell: Nullable.str(), wind: Nullable.str(), water_temp: Nullable.str() }),
    image_url: Uri.meta({ description: "1200x630 PNG share image" }),
    links: z.strictObject({ share: Uri, app: Uri, forecast: Uri }),
    cta: z.strictObject({ label: z.string(), text: z.string(), url: Uri }),
    attribution: z.string(),
    credits_text: Nullable.str(),
  })
  .meta({ id: "SpotCard" });
export type SpotCardJson = z.infer<typeof SpotCardSchema>;

export const PickSchema = z
  .strictObject({
    rank: z.number().int().min(1),
    spot: z.strictObject({ id: z.string(), name: z.string(), region: RegionRef, lat: z.number(), lon: z.number() }),
    distance_km: Nullable.num().meta({ description: "Only for lat/lon queries" }),
    date: DateString,
    score: z.number().int().min(0).max(100).meta({ description: "Identical to the conditions value for this period" }),
    rating: RatingSchema.nullable(),
    best_window: BestWindowSchema,
    why: z.strictObject({
      summary: z.string(),
      factors: z.array(z.string()),
      model_note: Nullable.str(),
      versus_next: Nullable.str().meta({ description: "Best-day only: margin over the runner-up" }),
    }),
    metrics: DecisionMetricsSchema,
    confidence: ConfidenceSchema,
    caveats: z.array(CaveatSchema),
    data_credits: z.array(DataCreditSchema),
    card: SpotCardSchema,
  })
  .meta({ id: "Pick" });
export type PickJson = z.infer<typeof PickSchema>;

const SpotRefSchema = z.strictObject({ id: z.string(), name: z.string() });

export const EXCLUSION_REASONS = [...UNSUITED_REASONS, "closed_to_spearfishing", "closed_on_date", "visibility_not_calibrated", "region_not_ranked"] as const;
export const SKIP_REASONS = ["over_limit", "no_daylight_data"] as const;

export const ConsideredSchema = z
  .strictObject({
    scored: z.number().int().min(0).meta({ description: "Spots whose day was scored" }),
    excluded: z.array(
      z.strictObject({
        spot: SpotRefSchema,
        reason: z.enum(EXCLUSION_REASONS),
        note: z.string(),
        areas: z.array(z.string()).nullable().meta({ description: "Names of the areas closing the spot (closed_to_spearfishing)" }),
      }),
    ),
    skipped: z.array(z.strictObject({ spot: SpotRefSchema, reason: z.enum(SKIP_REASONS), note: z.string() })),
  })
  .meta({ id: "Considered" });

export const DECISION_STATUSES = ["ok", "no_data", "not_covered", "conditions_only", "activity_not_modeled"] as const;

export const CoverageInfoSchema = z
  .strictObject({
    status: z.enum(["covered", "not_covered"]),
    regions: z.array(z.string()),
    nearest_covered: z.strictObject({ spot: SpotRefSchema, region: SpotRefSchema, distance_km: z.number() }).nullable().meta({ description: "Closest covered spot to a lat/lon query" }),
  })
  .meta({ id: "DecisionCoverage" });

export const FactsHintSchema = z
  .strictObject({ endpoint: Uri, tool: z.literal("get_conditions"), message: z.string() })
  .nullable()
  .meta({ id: "FactsHint", description: "Only for activity_not_modeled" });

const PricingSchema = z.strictObject({ layer: z.literal("decision"), plan: z.string() });

const DecisionQuerySchema = z.strictObject({
  activity: Nullable.str(),
  region: Nullable.str(),
  spot: Nullable.str(),
  lat: Nullable.num(),
  lon: Nullable.num(),
  radius_km: Nullable.num(),
});

const decisionCommon = {
  source: SourceSchema,
  activity: ActivityInfoSchema,
  generated_at: DateTime,
  disclaimer: z.string(),
  pricing: PricingSchema,
  data_credits: z.array(DataCreditSchema),
  status: z.enum(DECISION_STATUSES),
  coverage: CoverageInfoSchema,
  considered: ConsideredSchema,
  message: Nullable.str(),
  facts_hint: FactsHintSchema,
  cards: z.array(SpotCardSchema),
  card_markdown: z.string(),
};

export const RecommendationSchema = z
  .strictObject({
    schema: z.literal("service.recommendation.v1"),
    query: DecisionQuerySchema.extend({ date: Nullable.str(), limit: Nullable.num() }),
    ...decisionCommon,
    date: DateString,
    date_label: z.string(),
    date_rolled_forward: z.boolean(),
    picks: z.array(PickSchema).max(5),
  })
  .meta({ id: "Recommendation", description: "Ranked spot picks for one activity, in one area, on one spot-local day." });
export type RecommendationJson = z.infer<typeof RecommendationSchema>;

export const BestDayPickSchema = PickSchema.extend({ date_label: z.string() }).meta({ id: "BestDayPick" });

export const BestDaySchema = z
  .strictObject({
    schema: z.literal("service.best_day.v1"),
    query: DecisionQuerySchema.extend({ from: Nullable.str(), to: Nullable.str() }),
    ...decisionCommon,
    range: z.strictObject({
      from: DateString,
      to: DateString,
      requested_from: DateString.meta({ description: "The first day asked for (default today), before a past part is clamped" }),
      requested_to: DateString.meta({ description: "The last day asked for (default from + 6), before it is cut at the horizon" }),
    }),
    best: BestDayPickSchema.nullable(),
    runner_up: z.strictObject({ date: DateString, score: z.number().int(), rating: RatingSchema.nullable(), spot: SpotRefSchema }).nullable(),
    days: z.array(
      z.strictObject({
        date: DateString,
        date_label: z.string(),
        score: Nullable.int(),
        rating: RatingSchema.nullable(),
        spot: SpotRefSchema.nullable(),
        best_window: BestWindowSchema.nullable(),
        summary: z.string(),
      }),
    ),
  })
  .meta({ id: "BestDay", description: "The best spot-local day in a window for an activity at a destination." });
export type BestDayJson = z.infer<typeof BestDaySchema>;
