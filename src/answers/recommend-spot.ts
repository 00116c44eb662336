// recommend_spot — ranked spot picks for one activity, in one area, on one spot-local day.
// REST twin: GET /api/v1/recommendations. Both call `recommendSpot` below.
//
// Errors (ServiceError codes): missing_activity, unknown_activity, missing_location,
// ambiguous_location, invalid_coordinates, one_spot_per_request, invalid_radius, invalid_date,
// invalid_limit (400); unknown_spot (404, also for an unknown region); outside_horizon (422).
// Statuses (200): ok, no_data, not_covered, conditions_only, activity_not_modeled.
import { z } from "zod";
import { unionCredits } from "../base/attribution.js";
import { picksMarkdown } from "../decisions/markdown.js";
import type { ServiceContext } from "../services/context.js";
import { evaluateDay, excludeClosedOn, excludeUnranked, exclusionSentence, screenCandidates, type DayEvaluation } from "../decisions/evaluate.js";
import { buildPick } from "../decisions/pick.js";
import {
  assertWithinHorizon,
  destinationEcho,
  destinationInputShape,
  parseDecisionQuery,
  parseLimit,
  resolveDestination,
  type DecisionInput,
  type DecisionQuery,
  type Destination,
} from "../decisions/request.js";
import { commonFields, decisionDataTime, decisionZone, declinedFields, earlyStatus, unrankedFields, type EarlyStatus } from "../decisions/response.js";
import { daylightEnd } from "../model/periods.js";
import { DEFAULT_LIMIT, DEFAULT_RADIUS_KM, HORIZON_DAYS, MAX_PICKS, MAX_RADIUS_KM } from "../base/limits.js";
import { parseDate, type Raw } from "../catalog/params.js";
import { RecommendationSchema, type RecommendationJson } from "../schemas/decisions.js";
import { addDays, dateLabel, localDate } from "../base/zone.js";
import { roundKm } from "../catalog/geo.js";
import { readOnlyAnnotations, type ToolDefinition, dateArgument } from "./tool.js";

export const name = "recommend_spot";

export const config = {
  title: "Recommend the best spots for an activity",
  description:
    "Use this to answer 'where should I snorkel/dive/freedive/spearfish on <day>?': ranks covered spots in one area for one " +
    "spot-local day by their best daylight 3-hour window, and explains each pick (score 0-100, rating, window, visibility ft, " +
    "swell ft, wind kt, water °F, confidence, caveats to relay, and a spot card). Give activity and exactly one of region, spot, " +
    `or lat+lon (with radius_km, default ${DEFAULT_RADIUS_KM}, max ${MAX_RADIUS_KM}). date defaults to today (tomorrow once today's ` +
    `daylight has passed), up to ${HORIZON_DAYS - 1} days ahead; limit 1-${MAX_PICKS}, default ${DEFAULT_LIMIT}. Surf is not ranked.`,
  inputSchema: z.object({
    ...destinationInputShape("judge just this spot"),
    date: dateArgument("Spot-local date YYYY-MM-DD, today through today + 6"),
    limit: z.number().int().min(1).max(MAX_PICKS).optional().describe(`Picks to return, 1-${MAX_PICKS}; default ${DEFAULT_LIMIT}`),
  }),
  outputSchema: RecommendationSchema,
};

export interface RecommendSpotInput extends DecisionInput {
  date?: Raw;
  limit?: Raw;
}

/** The question once parsed: where, for what, how many picks, and the date (rolled to tomorrow once today's daylight is over). */
interface RecommendQuery {
  q: DecisionQuery;
  dest: Destination;
  limit: number;
  dateIn: string | undefined;
  now: Date;
  today: string;
  date: string;
  rolled: boolean;
  todayDaylightEnd: Date;
}

/** What was decided: an early status, a refusal to rank (rules listed), or the day's options. */
type RecommendDecision =
  | { kind: "early"; early: EarlyStatus }
  | { kind: "declined"; region: string; declined: ReturnType<typeof declinedFields> }
  | { kind: "ranked"; dest: Destination & { covered: true }; day: DayEvaluation };

export async function recommendSpot(
  input: RecommendSpotInput,
  ctx: Pick<ServiceContext, "catalog" | "clock" | "forecasts" | "links" | "regulations" | "source" | "validation">,
): Promise<RecommendationJson> {
  const query = parseRecommendQuery(input, ctx);
  return renderRecommendation(input, query, await decideRecommendation(query, ctx), ctx);
}

/** Parse: arguments → the query, or the ServiceError the spec names for them. */
function parseRecommendQuery(input: RecommendSpotInput, ctx: Pick<ServiceContext, "catalog" | "clock">): RecommendQuery {
  const q = parseDecisionQuery(input);
  const limit = parseLimit(input.limit);
  const dateIn = parseDate("date", input.date);
  const dest = resolveDestination(q, ctx);
  const tz = decisionZone(dest);
  const now = ctx.clock.now();
  const today = localDate(now, tz);
  if (dateIn !== undefined) assertWithinHorizon(dateIn, today);
  // Default date: today, or tomorrow once today's daylight windows are over. Explicit dates never move.
  const todayDaylightEnd = daylightEnd(today, tz);
  const rolled = dateIn === undefined && now.getTime() >= todayDaylightEnd.getTime();
  const date = dateIn ?? (rolled ? addDays(today, 1) : today);
  return { q, dest, limit, dateIn, now, today, date, rolled, todayDaylightEnd };
}

/** Decide: screen the spots by their rules and evaluate the date. */
async function decideRecommendation(query: RecommendQuery, ctx: Pick<ServiceContext, "catalog" | "forecasts" | "links" | "regulations">): Promise<RecommendDecision> {
  const { q, dest, date } = query;
  const early = earlyStatus(ctx, q, dest);
  if (early || !dest.covered) return { kind: "early", early: early! };
  const screened = screenCandidates(dest.candidates, q.activity, ctx.regulations);
  const overLimit = dest.overLimit.map((c) => ({ spot: { id: c.spot.id, name: c.spot.name }, reason: "over_limit" as const, note: "Beyond the 20 spots considered per call." }));
  if (dest.region.decision_support === "conditions_only") {
    // Rules before the refusal: the answer lists each spot's closure or exclusion, then declines to rank.
    return { kind: "declined", region: dest.region.name, declined: declinedFields(ctx, dest, q.activity.label, excludeUnranked(excludeClosedOn(screened, date), ctx).excluded, overLimit) };
  }
  const day = await evaluateDay(screened, date, q.activity, ctx);
  day.considered.skipped.push(...overLimit);
  return { kind: "ranked", dest, day };
}

/** Render: the response object and its Markdown, built whole from the query and the decision. */
function renderRecommendation(
  input: RecommendSpotInput,
  query: RecommendQuery,
  decision: RecommendDecision,
  ctx: Pick<ServiceContext, "clock" | "links" | "regulations" | "source" | "validation">,
): RecommendationJson {
  const { q, dest, limit, dateIn, today, date, rolled } = query;
  const base = {
    schema: "service.recommendation.v1" as const,
    query: {
      ...destinationEcho(q),
      date: dateIn ?? null,
      limit: input.limit === undefined || input.limit === null ? null : limit,
    },
    ...commonFields(ctx, q, dest),
    date,
    date_label: dateLabel(date, today),
    date_rolled_forward: rolled,
  };
  if (decision.kind === "early") {
    const e = decision.early;
    return { ...base, ...unrankedFields(e), picks: [], cards: [], card_markdown: picksMarkdown(titleFor(q.activity.label, null, base.date_label), [], ctx.links.base, e.message) };
  }
  if (decision.kind === "declined") {
    const { declined } = decision;
    return { ...base, ...declined, picks: [], cards: [], card_markdown: picksMarkdown(titleFor(q.activity.label, decision.region, base.date_label), [], ctx.links.base, declined.message) };
  }
  const { day } = decision;
  const region = decision.dest.region.name;
  const picks = day.options.slice(0, limit).map((o, i) => buildPick(ctx, i + 1, o, { activity: q.activity, date, today, point: dest.point, regulationsReadable: ctx.regulations.readable }));
  const message = recommendationMessage(query, decision, picks.length);
  return {
    ...base,
    generated_at: decisionDataTime(ctx, dest, [day.dataTime]),
    data_credits: unionCredits(picks.map((p) => p.data_credits)),
    // The spec's `ok` means picks exist; with none, `no_data` (the one status the spec lists for a
    // covered region without picks), and the message says why.
    status: picks.length > 0 ? "ok" : "no_data",
    considered: day.considered,
    message,
    facts_hint: null,
    picks,
    cards: picks.map((p) => p.card),
    card_markdown: picksMarkdown(titleFor(q.activity.label, region, base.date_label), picks, ctx.links.base, message),
  };
}

/**
 * The headline: the picks, or why there are none. No daylight left on the date comes first, as no
 * spot can be picked then whatever the rules; else every candidate excluded or closed on the date,
 * each with its rule; else no scored daylight period in the data.
 */
function recommendationMessage(query: RecommendQuery, decision: Extract<RecommendDecision, { kind: "ranked" }>, picked: number): string {
  const { q, today, date, rolled, now, todayDaylightEnd } = query;
  const { dest, day } = decision;
  const notes: string[] = [];
  if (rolled) notes.push(`Today's daylight windows have passed, so ${picked > 0 ? "these picks are" : "this answer is"} for tomorrow (${date}).`);
  if (dest.kind === "point" && dest.nearest) {
    notes.push(`Picks come from ${dest.region.name}, the region of the nearest covered spot (${dest.nearest.spot.name}, ${roundKm(dest.nearest.distanceKm)} km from your point).`);
  }
  const daylightLeft = date !== today || now.getTime() < todayDaylightEnd.getTime();
  if (picked > 0) {
    notes.unshift(`${picked === 1 ? "Best pick" : `Top ${picked} picks`} for ${q.activity.label.toLowerCase()} in ${dest.region.name}, ${dateLabel(date, today)} (${date}).`);
  } else if (daylightLeft && day.considered.excluded.length === dest.candidates.length) {
    notes.unshift(exclusionSentence(q.activity.label, day.considered.excluded, date));
  } else {
    notes.unshift(`No daylight forecast is left for ${date} in ${dest.region.name}. Try ${date === today ? "tomorrow" : "another date"}.`);
  }
  return notes.join(" ");
}

function titleFor(activityLabel: string, regionName: string | null, label: string): string {
  return `${activityLabel}${regionName ? ` in ${regionName}` : ""}: ${label}`;
}

export const tool: ToolDefinition<RecommendationJson> = {
  name,
  operation: "recommendations",
  config,
  annotations: readOnlyAnnotations(true),
  appView: true,
  run: (args, ctx) => recommendSpot(args, ctx),
  markdown: (r) => r.card_markdown,
};
