// A Pick: one spot on one day for one activity, quoting the facts layer's period unchanged and
// explaining it (why, metrics, confidence, caveats, credits, card).
import type { Activity } from "../base/activities.js";
import { buildCard } from "./card.js";
import { requirementsFor } from "../catalog/access.js";
import { spearfishingTag } from "../catalog/regulations.js";
import type { ServiceContext } from "../services/context.js";
import { provenanceOf, type PeriodResult } from "../forecast/engine.js";
import { SEASONAL_NORM_LABEL, seasonOf } from "../model/norms.js";
import { tierById } from "../model/tiers.js";
import { compass8 } from "../catalog/geo.js";
import { cToF, formatSwell, formatTemp, formatVisibility, formatWind } from "../model/format.js";
import { regionRef } from "../schemas/refs.js";
import type { PickJson } from "../schemas/decisions.js";
import type { z } from "zod";
import type { BestWindowSchema, DecisionMetricsSchema } from "../schemas/decisions.js";
import { dateLabel, daysBetween, isoWithOffset, localHHMM } from "../base/zone.js";
import { caveatsFor } from "./caveats.js";
import { confidenceOf } from "./confidence.js";
import type { DayOption } from "./evaluate.js";
import type { Point } from "../catalog/params.js";

export interface PickContext {
  activity: Activity;
  date: string;
  today: string;
  /** The query point for lat/lon destinations (adds location_snapped). */
  point: Point | null;
  regulationsReadable: boolean;
}

export function bestWindowOf(p: PeriodResult, timeZone: string): z.infer<typeof BestWindowSchema> {
  return {
    start: isoWithOffset(p.start, timeZone),
    end: isoWithOffset(p.end, timeZone),
    start_local: localHHMM(p.start, timeZone),
    end_local: localHHMM(p.end, timeZone),
    score: p.score!,
    rating: p.rating,
  };
}

export function metricsOf(p: PeriodResult): z.infer<typeof DecisionMetricsSchema> {
  return {
    visibility_ft: p.visFt,
    visibility_low_ft: p.json.visibility_low_ft,
    visibility_high_ft: p.json.visibility_high_ft,
    swell_height_ft: p.swellFt,
    swell_period_s: p.swellPeriodS,
    swell_from: compass8(p.swellFromDeg),
    wind_speed_kt: p.windKt,
    wind_from: compass8(p.windFromDeg),
    water_temp_f: p.waterTempC === null ? null : cToF(p.waterTempC),
    tide_state: p.tideState,
  };
}

export function buildPick(ctx: Pick<ServiceContext, "links" | "regulations" | "validation">, rank: number, option: DayOption, pc: PickContext, versusNext: string | null = null): PickJson {
  const { spot, distanceKm } = option.candidate;
  const p = option.period;
  const tz = spot.timezone;
  const prov = provenanceOf(option.timed.forecast, [p]);
  const daysAhead = daysBetween(pc.today, pc.date);
  const window = bestWindowOf(p, tz);
  const label = dateLabel(pc.date, pc.today);
  const tier = tierById(p.rating!);
  // Where only some gear is legal, or the local rules were not checked, the summary says so, not only a caveat.
  const rulesTag = pc.activity.id === "spearfish" && pc.regulationsReadable ? spearfishingTag(option.regulatedAreas) : null;

  const factors = [
    formatVisibility(p.visFt, p.json.visibility_m) && `visibility about ${formatVisibility(p.visFt, p.json.visibility_m, p.json.visibility_low_ft, p.json.visibility_high_ft)}`,
    formatSwell(p.swellFt, p.swellPeriodS, p.swellFromDeg, p.json.swell_height_m) && `swell ${formatSwell(p.swellFt, p.swellPeriodS, p.swellFromDeg, p.json.swell_height_m)} at the spot`,
    formatWind(p.windKt, p.windFromDeg, p.gustKt) && `wind ${formatWind(p.windKt, p.windFromDeg, p.gustKt)}`,
    p.tideState && `tide ${p.tideState}${p.json.tide_height_ft === null ? "" : ` (${p.json.tide_height_ft} ft)`}`,
    formatTemp(p.waterTempC) && `water ${formatTemp(p.waterTempC)}`,
  ].filter((f): f is string => typeof f === "string");

  const when = p.seasonal ? `typical for ${seasonOf(pc.date)}` : label === "Today" || label === "Tomorrow" ? label.toLowerCase() : `on ${label}`;
  const summary =
    `${spot.name}: ${tier.label.toLowerCase()} (${p.score}/100${p.seasonal ? `, ${SEASONAL_NORM_LABEL}` : ""}) ${window.start_local}–${window.end_local} ${when}` +
    `, with about ${p.visFt} ft visibility, ${p.swellFt} ft of swell and ${Math.round(p.windKt ?? 0)} kt wind.` +
    (rulesTag ? ` Spearfishing here: ${rulesTag}.` : "");
  const modelNote = [p.json.why, pc.activity.notScored ? `${pc.activity.notScored}: the shared snorkel-calibrated score is a proxy.` : null].filter(Boolean).join(" ");

  return {
    rank,
    spot: { id: spot.id, name: spot.name, region: regionRef(spot.region), lat: spot.lat, lon: spot.lon },
    distance_km: distanceKm,
    date: pc.date,
    score: p.score!,
    rating: p.rating,
    best_window: window,
    why: { summary, factors, model_note: modelNote || null, versus_next: versusNext },
    metrics: metricsOf(p),
    confidence: confidenceOf({
      // Lowered (never raised) while the region's response does worse than climatology (GET /api/v1/validation).
      model: (p.confidence ?? 0) * ctx.validation.confidenceFactorSync(spot.region.id),
      visibilitySource: p.visibilitySource ?? "heuristic",
      freshness: prov.freshness,
      daysAhead,
      activityFit: pc.activity.activityFit,
    }),
    caveats: caveatsFor({
      activity: pc.activity,
      visibilitySource: p.visibilitySource,
      freshness: prov.freshness,
      daysAhead,
      rating: p.rating,
      snappedFrom: pc.point && distanceKm !== null ? { ...pc.point, distanceKm, spotName: spot.name } : null,
      regulatedAreas: option.regulatedAreas,
      regulationsReadable: pc.regulationsReadable,
      accessRequirements: requirementsFor(spot.access, pc.activity.id === "surf" ? null : pc.activity.id),
      levelCalibrated: spot.levelCalibrated,
    }),
    data_credits: prov.credits,
    card: buildCard(ctx, { spot, date: pc.date, today: pc.today, activity: pc.activity, period: p, credits: prov.credits }),
  };
}
