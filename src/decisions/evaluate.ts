// Scoring a day at each candidate spot: a spot's value for a date is its best daylight period
// (start 06:00–17:59 local), quoted from the facts layer unchanged. Spots unsuited to the activity
// (src/decisions/suitability.ts), closed to it, closed on the date (venue closures), or not ranked
// (a typical visibility not calibrated, or a region not `full`) are excluded with a stable reason, in
// that order, so the rules that protect a person are said even where nothing is ranked; the rest are
// ranked with the activity's tie-breaks.
import type { Activity, TieBreak } from "../base/activities.js";
import type { Spot } from "../catalog/catalog.js";
import { closureOn } from "../catalog/access.js";
import { ruleOf, type AreaRule, type Regulations } from "../catalog/regulations.js";
import type { ServiceContext } from "../services/context.js";
import type { PeriodResult } from "../forecast/engine.js";
import type { TimedForecast } from "../forecast/service.js";
import type { ConsideredSchema } from "../schemas/decisions.js";
import type { z } from "zod";
import type { Candidate } from "./request.js";
import { depthUnsuitability, judgedUnsuitability } from "./suitability.js";
import { byCodeUnit } from "../base/order.js";

export type Considered = z.infer<typeof ConsideredSchema>;

export interface DayOption {
  candidate: Candidate;
  timed: TimedForecast;
  period: PeriodResult;
  /** Areas with their own rules (spearfishing), quoted in a regulated_area caveat. */
  regulatedAreas: AreaRule[];
}

export interface DayEvaluation {
  /** Ranked best first. */
  options: DayOption[];
  considered: Considered;
  /** The time of the data behind it: the newest forecast's (see TimedForecast.generatedAt); null when none was read. */
  dataTime: Date | null;
}

export interface ScreenedCandidates {
  eligible: { candidate: Candidate; regulatedAreas: AreaRule[] }[];
  excluded: Considered["excluded"];
}

/**
 * Removes spots unsuited to the activity by the catalogue's judgement, then for spearfishing spots
 * closed to it, then for breath-hold activities spots beyond the breath-hold depth range.
 */
export function screenCandidates(candidates: readonly Candidate[], activity: Activity, regulations: Regulations): ScreenedCandidates {
  const eligible: ScreenedCandidates["eligible"] = [];
  const excluded: Considered["excluded"] = [];
  for (const c of candidates) {
    const ref = { id: c.spot.id, name: c.spot.name };
    const unsuited = judgedUnsuitability(c.spot, activity);
    if (unsuited) {
      excluded.push({ spot: ref, reason: unsuited.reason, note: unsuited.note, areas: null });
      continue;
    }
    let regulatedAreas: AreaRule[] = [];
    if (activity.id === "spearfish" && regulations.readable) {
      const areas = regulations.areasFor(c.spot.id);
      const closing = areas.filter((a) => a.designation === "closed_to_spearfishing");
      if (closing.length > 0) {
        excluded.push({
          spot: ref,
          reason: "closed_to_spearfishing",
          note: `Inside ${closing.map((a) => a.name).join(" and ")}, closed to spearfishing: ${closing.map((a) => ruleOf(a).rule).join("; ")}.`,
          areas: closing.map((a) => a.name),
        });
        continue;
      }
      regulatedAreas = areas.filter((a) => a.designation === "rules_only").map(ruleOf);
    }
    const tooDeep = depthUnsuitability(c.spot, activity);
    if (tooDeep) {
      excluded.push({ spot: ref, reason: tooDeep.reason, note: tooDeep.note, areas: null });
      continue;
    }
    eligible.push({ candidate: c, regulatedAreas });
  }
  return { eligible, excluded };
}

/** The best daylight period of a forecast on a spot-local date, or null when none is scored. */
export function bestDaylightPeriod(periods: readonly PeriodResult[], date: string, activity: Pick<Activity, "tieBreak">): PeriodResult | null {
  let best: PeriodResult | null = null;
  for (const p of periods) {
    if (p.date !== date || !p.daylight || p.score === null) continue;
    if (best === null || compareConditions(p, best, activity.tieBreak) < 0) best = p;
  }
  return best;
}

/**
 * Best day: score points within which two days are about as good as each other. A 3-hour score moves
 * by a few points from forecast noise alone (wind a knot either way, visibility a few feet), so when
 * the best day leads the runner-up by this much or less, `why.versus_next` says in plain words that
 * the two are about as good. It never reorders the days (the spec: `best` is the highest score).
 */
export const BEST_DAY_NOISE_MARGIN = 5;

/** Days best first, as the spec ranks them: the higher score, and on equal scores the nearer day. */
export function rankDays<T extends { date: string; score: number }>(days: readonly T[]): T[] {
  return [...days].sort((a, b) => b.score - a.score || byCodeUnit(a.date, b.date));
}

/** Negative when `a` is the better period: higher score, then the activity's tie-breaks. */
export function compareConditions(a: PeriodResult, b: PeriodResult, tieBreak: readonly TieBreak[]): number {
  if (a.score !== b.score) return (b.score ?? -1) - (a.score ?? -1);
  for (const t of tieBreak) {
    const d =
      t === "clearer_water" ? (b.visFt ?? 0) - (a.visFt ?? 0) : t === "calm_wind" ? (a.windKt ?? 99) - (b.windKt ?? 99) : (a.swellFt ?? 99) - (b.swellFt ?? 99) || (a.windKt ?? 99) - (b.windKt ?? 99);
    if (d !== 0) return d;
  }
  return a.start.getTime() - b.start.getTime();
}

/** Screened candidates closed on the date (weekday or seasonal closure) are excluded with the rule as the note. */
export function excludeClosedOn(screened: ScreenedCandidates, date: string): ScreenedCandidates {
  const eligible: ScreenedCandidates["eligible"] = [];
  const excluded = [...screened.excluded];
  for (const e of screened.eligible) {
    const closure = closureOn(e.candidate.spot.access, date);
    if (closure) excluded.push({ spot: { id: e.candidate.spot.id, name: e.candidate.spot.name }, reason: "closed_on_date", note: closure.rule, areas: null });
    else eligible.push(e);
  }
  return { eligible, excluded };
}

/**
 * Why decisions do not rank a spot, as an exclusion: its typical visibility is not calibrated to a
 * published figure (`visibility_not_calibrated`, with what would calibrate it), or it is but its
 * region has too few calibrated spots to rank (`region_not_ranked`). Its facts stay available.
 */
export function notRankedExclusion(ctx: Pick<ServiceContext, "catalog">, spot: Spot): Considered["excluded"][number] {
  const ref = { id: spot.id, name: spot.name };
  if (!spot.levelCalibrated) {
    const level = ctx.catalog.spotLevel(spot);
    return {
      spot: ref,
      reason: "visibility_not_calibrated",
      note:
        `Not ranked: its typical visibility is an estimate (${level.reason ?? "not calibrated"}). ` +
        `A typical figure for this spot from a person's page (a dive operator's or park's site page, a guidebook, a survey) would calibrate it; its conditions are in get_conditions.`,
      areas: null,
    };
  }
  const levels = ctx.catalog.levels(spot.region);
  return {
    spot: ref,
    reason: "region_not_ranked",
    note: `Not ranked: its typical visibility is calibrated, but ${levels.reason ?? `${spot.region.name} is not published for ranking.`} Its conditions are in get_conditions.`,
    areas: null,
  };
}

/** Screened candidates decisions do not rank (see notRankedExclusion) are excluded; the rest stay eligible. */
export function excludeUnranked(screened: ScreenedCandidates, ctx: Pick<ServiceContext, "catalog">): ScreenedCandidates {
  const eligible: ScreenedCandidates["eligible"] = [];
  const excluded = [...screened.excluded];
  for (const e of screened.eligible) {
    if (e.candidate.spot.ranked) eligible.push(e);
    else excluded.push(notRankedExclusion(ctx, e.candidate.spot));
  }
  return { eligible, excluded };
}

/** Scores one date across the screened candidates (less those closed that day, and those not ranked) and ranks them. */
export async function evaluateDay(screenedForActivity: ScreenedCandidates, date: string, activity: Activity, ctx: Pick<ServiceContext, "catalog" | "forecasts">): Promise<DayEvaluation> {
  const screened = excludeUnranked(excludeClosedOn(screenedForActivity, date), ctx);
  const timed = await Promise.all(screened.eligible.map((e) => ctx.forecasts.forecast(e.candidate.spot)));
  const options: DayOption[] = [];
  const skipped: Considered["skipped"] = [];
  screened.eligible.forEach((e, i) => {
    const period = bestDaylightPeriod(timed[i]!.forecast.periods, date, activity);
    if (period) options.push({ candidate: e.candidate, timed: timed[i]!, period, regulatedAreas: e.regulatedAreas });
    else skipped.push({ spot: { id: e.candidate.spot.id, name: e.candidate.spot.name }, reason: "no_daylight_data", note: `No scored daylight period on ${date}.` });
  });
  options.sort(
    (a, b) => compareConditions(a.period, b.period, activity.tieBreak) || (a.candidate.distanceKm ?? 0) - (b.candidate.distanceKm ?? 0) || byCodeUnit(a.candidate.spot.id, b.candidate.spot.id),
  );
  const dataTime = timed.reduce<Date | null>((t, f) => (t === null || f.generatedAt > t ? f.generatedAt : t), null);
  return { options, considered: { scored: options.length, excluded: screened.excluded, skipped }, dataTime };
}

/**
 * Why every spot was excluded, in words a text-only host can relay: each spot with its reason's note
 * (which names the closing areas and quotes their rules), on `date` when the answer is about one day,
 * and whether another date can change it (only a closure on the day does).
 */
export function exclusionSentence(activityLabel: string, excluded: ScreenedCandidates["excluded"], date: string | null = null): string {
  const closedOnDay = excluded.some((e) => e.reason === "closed_on_date");
  // A date only where a closure on the day is among the reasons: the other rules do not depend on one.
  const doing = `excluded for ${activityLabel.toLowerCase()}${date === null || !closedOnDay ? "" : ` on ${date}`}`;
  const outlook = closedOnDay ? "A closure on the day may not hold on another date." : "Another date will not change this.";
  if (excluded.length === 1) return `${excluded[0]!.spot.name} is ${doing}: ${excluded[0]!.note.replace(/\.$/, "")}. ${outlook}`;
  // Spots closed by the same area share one sentence.
  const byNote = new Map<string, string[]>();
  for (const e of excluded) byNote.set(e.note, [...(byNote.get(e.note) ?? []), e.spot.name]);
  const lines = [...byNote].map(([note, names]) => `${names.join(", ")}: ${note.replace(/\.$/, "")}`);
  return `Every spot here is ${doing}. ${lines.join(". ")}. ${outlook}`;
}
