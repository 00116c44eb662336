// The body of GET /api/v1/validation, for the OpenAPI document and the tests that hold the endpoint to it.
import { z } from "zod";
import { SourceSchema } from "../../schemas/common.js";
import { MIN_PAIRS, WINDOW_DAYS } from "../../model/skill.js";
import { VALIDATION_SCHEMA } from "./report.js";

const ft = (d: string) => z.number().meta({ description: d });

const RankCorrelationSchema = z.object({
  rho: z.number().min(-1).max(1),
  low: z.number().min(-1).max(1),
  high: z.number().min(-1).max(1),
  level: z.number(),
  method: z.string(),
});

const FiguresSchema = z.object({
  bias_ft: ft("Mean of prediction minus satellite, ft (positive: the prediction sees farther than the satellite)"),
  median_abs_error_ft: ft("Median absolute difference from the satellite, ft"),
  anomaly_median_abs_error_ft: ft(
    "Median absolute difference of anomalies (departure from the spot's typical level against the satellite's departure from the spot's own satellite mean), ft",
  ).nullable(),
  anomaly_rank_correlation: RankCorrelationSchema.nullable().meta({
    description: "Spearman rank correlation of anomalies with its interval; null for the climatology (it predicts no departure) or too few anomaly pairs",
  }),
});

export const ValidationSchema = z
  .object({
    schema: z.literal(VALIDATION_SCHEMA),
    source: SourceSchema,
    generated_at: z.string(),
    data_mode: z.string(),
    window_days: z.literal(WINDOW_DAYS),
    min_pairs: z.literal(MIN_PAIRS),
    min_spot_observations: z.number().int(),
    storage: z.enum(["redis", "memory"]),
    storage_note: z.string(),
    method: z.string(),
    docs: z.string(),
    regions: z.array(
      z.object({
        region: z.string(),
        name: z.string(),
        window: z.object({ from: z.string(), to: z.string() }),
        pairs: z.number().int().min(0),
        spots: z.number().int().min(0),
        anomaly_pairs: z.number().int().min(0),
        first_observation: z.string().nullable(),
        last_observation: z.string().nullable(),
        status: z.enum(["ok", "not_enough_observations"]),
        message: z
          .string()
          .nullable()
          .meta({ description: `"not enough observations yet" below ${MIN_PAIRS} pairs in the window; the figures are then null` }),
        model: FiguresSchema.nullable(),
        climatology: FiguresSchema.nullable(),
        response_vs_climatology: z
          .enum(["better", "worse"])
          .nullable()
          .meta({ description: "worse: the anomaly error is larger than the climatology's and the rank correlation is not clearly positive" }),
        confidence_factor: z.number().max(1).meta({ description: "At most 1: below 1 while the response does worse than climatology (it never raises confidence)" }),
      }),
    ),
  })
  .meta({ id: "Validation", description: "How well the visibility model matches satellite observations, per region, over a rolling window." });
