// Decision confidence (spec: Confidence): the product of five factors, labelled high/medium/low.
import { round } from "../catalog/geo.js";
import { freshnessFactor, type Freshness } from "../sources/freshness.js";
import type { ConfidenceSchema } from "../schemas/decisions.js";
import type { z } from "zod";

export const CONFIDENCE_LABELS = [
  { label: "high", min: 0.65 },
  { label: "medium", min: 0.4 },
  { label: "low", min: 0 },
] as const;

export const VISIBILITY_SOURCE_FACTOR = { satellite: 1.0, heuristic: 0.8 } as const;
export const LEAD_TIME_DECAY_PER_DAY = 0.95;
export const LEAD_TIME_FLOOR = 0.6;

export function leadTimeFactor(daysAhead: number): number {
  return Math.max(LEAD_TIME_FLOOR, LEAD_TIME_DECAY_PER_DAY ** Math.max(0, daysAhead));
}

export function confidenceOf(input: { model: number; visibilitySource: "satellite" | "heuristic"; freshness: Freshness; daysAhead: number; activityFit: number }): z.infer<typeof ConfidenceSchema> {
  const factors = {
    model: round(input.model, 2),
    visibility_source: VISIBILITY_SOURCE_FACTOR[input.visibilitySource],
    freshness: freshnessFactor(input.freshness),
    lead_time: round(leadTimeFactor(input.daysAhead), 3),
    activity_fit: input.activityFit,
  };
  const value = round(factors.model * factors.visibility_source * factors.freshness * factors.lead_time * factors.activity_fit, 3);
  const label = CONFIDENCE_LABELS.find((l) => value >= l.min)!.label;
  return { value, label, factors };
}
