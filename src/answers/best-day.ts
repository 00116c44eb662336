// best_day — the best spot-local day in a window (default today through today + 6) for an activity
// at a destination, with every day's best spot and window. REST twin: GET /api/v1/best-day.
//
// Errors (ServiceError codes): missing_activity, unknown_activity, missing_location,
// ambiguous_location, invalid_coordinates, one_spot_per_request, invalid_radius, invalid_date,
// invalid_range, range_too_long (400); unknown_spot (404, also for an unknown region); outside_horizon (422).
// Statuses (200): ok, no_data, not_covered, conditions_only, activity_not_modeled.
import { z } from "zod";
import { picksMarkdown } from "../decisions/markdown.js";
import type { ServiceContext } from "../services/context.js";
import { BEST_DAY_NOISE_MARGIN, evaluateDay, excludeUnranked, exclusionSentence, rankDays, screenCandidates, type Considered, type DayOption, type ScreenedCandidates } from "../decisions/evaluate.js";
import { bestWindowOf, buildPick } from "../decisions/pick.js";
import { destinationEcho, destinationInputShape, parseDecisionQuery, resolveDestination, type DecisionInput, type DecisionQuery, type Destination } from "../decisions/request.js";
import { commonFields, decisionDataTime, decisionZone, declinedFields, earlyStatus, notRankedSentence, unrankedFields, type EarlyStatus } from "../decisions/response.js";
import { ServiceError } from "../base/errors.js";
import { SEASONAL_NORM_LABEL, seasonOf } from "../model/norms.js";
import { daylightEnd } from "../model/periods.js";
import { mdEscape } from "../decisions/md-escape.js";
import { DEFAULT_RADIUS_KM, HORIZON_DAYS, MAX_RADIUS_KM, MAX_RANGE_DAYS } from "../base/limits.js";
import { parseDate, type Raw } from "../catalog/params.js";
import { BestDaySchema, type BestDayJson } from "../schemas/decisions.js";
import { addDays, dateLabel, daysBetween, localDate } from "../base/zone.js";
import { readOnlyAnnotations, type ToolDefinition, dateArgument } from "./tool.js";

export const name = "best_day";

export const config = {
  title: "Find the best day for an activity",
  description:
    "Use this to answer 'which day this week is best for snorkeling/diving/freediving/spearfishing at <place>?': scores every " +
    "spot-local day in the window (default today through today + 6, at most 7 days) by the best daylight 3-hour window at the " +
    "destination (the best spot per day for a region or radius), returns the winning day as a full pick with its margin over the " +
    "runner-up, and a one-line summary per day. Give activity and exactly one of region, spot, or lat+lon (radius_km default " +
    `${DEFAULT_RADIUS_KM}, max ${MAX_RADIUS_KM}). Units: ft, kt, °F. Surf is not ranked.`,
  inputSchema: z.object({
    ...destinationInputShape("best day at just this spot"),
    from: dateArgument("First spot-local date; default today; a past date is clamped to today"),
    to: dateArgument(`Last spot-local date, inclusive; default from + ${MAX_RANGE_DAYS - 1}`),
  }),
  outputSchema: BestDaySchema,
};

export interface BestDayInput extends DecisionInput {
  from?: Raw;
  to?: Raw;
}

interface DayResult {
  date: string;
  top: DayOption | null;
  scoredSpots: Set<string>;
  /** Spots closed that day (closed_on_date exclusions). */
  closed: Considered["excluded"];
}
type RankedDay = DayResult & { top: DayOption };

/** The question once parsed: where, for what, and which days (defaults filled in, clamped to the horizon). */
interface BestDayQuery {
  q: DecisionQuery;
  dest: Destination;
  tz: string;
  today: string;
  /** `from` and `to` as sent (undefined when not). */
  fromIn: string | undefined;
  toIn: string | undefined;
  /** The window asked for, before clamping to the horizon. */
  toWanted: string;
  from: string;
  to: string;
  dates: string[];
}

/** What was decided: an early status, a refusal to rank (rules listed), or the days ranked. */
type BestDayDecision =
  | { kind: "early"; early: EarlyStatus }
  | { kind: "declined"; region: string; declined: ReturnType<typeof declinedFields> }
  | { kind: "ranked"; region: string; screened: ScreenedCandidates; overLimit: Considered["skipped"]; results: DayResult[]; ranked: RankedDay[]; dataTimes: (Date | null)[] };

export async function bestDay(input: BestDayInput, ctx: Pick<ServiceContext, "catalog" | "clock" | "forecasts" | "links" | "regulations" | "source" | "validation">): Promise<BestDayJson> {
  const query = parseBestDayQuery(input, ctx);
  return renderBestDay(query, await decideBestDay(query, ctx), ctx);
}

/** Parse: arguments → the query, or the ServiceError the spec names for them. */
function parseBestDayQuery(input: BestDayInput, ctx: Pick<ServiceContext, "catalog" | "clock">): BestDayQuery {
  const q = parseDecisionQuery(input);
  const fromIn = parseDate("from", input.from);
  const toIn = parseDate("to", input.to);
  const dest = resolveDestination(q, ctx);
  const tz = decisionZone(dest);
  const today = localDate(ctx.clock.now(), tz);
  const lastDay = addDays(today, HORIZON_DAYS - 1);
  if (fromIn !== undefined && toIn !== undefined && toIn < fromIn) {
    throw new ServiceError("invalid_range", `\`to\` (${toIn}) is before \`from\` (${fromIn}).`);
  }
  // The spec: a past `from` is clamped to today, and the 7-day limit is on the window that is then
  // asked for (14 days ending today is today alone; `range.requested_from` echoes what was sent).
  const from = fromIn === undefined || fromIn < today ? today : fromIn;
  const toWanted = toIn ?? addDays(from, MAX_RANGE_DAYS - 1);
  if (daysBetween(from, toWanted) + 1 > MAX_RANGE_DAYS) {
    throw new ServiceError("range_too_long", `At most ${MAX_RANGE_DAYS} days per request; ${from} to ${toWanted} is ${daysBetween(from, toWanted) + 1}.`);
  }
  if (from > lastDay || toWanted < today) {
    throw new ServiceError("outside_horizon", `${fromIn ?? from} to ${toWanted} is outside the forecast horizon: ${today} (today, spot-local) through ${lastDay}.`, {
      extra: { available_from: today, available_to: lastDay },
    });
  }
  const to = toWanted > lastDay ? lastDay : toWanted;
  const dates = Array.from({ length: daysBetween(from, to) + 1 }, (_, i) => addDays(from, i));
  return { q, dest, tz, today, fromIn, toIn, toWanted, from, to, dates };
}

/** Decide: screen the spots by their rules, evaluate every day, rank the days. */
async function decideBestDay(query: BestDayQuery, ctx: Pick<ServiceContext, "catalog" | "forecasts" | "links" | "regulations">): Promise<BestDayDecision> {
  const { q, dest } = query;
  const early = earlyStatus(ctx, q, dest);
  if (early || !dest.covered) return { kind: "early", early: early! };
  const ruled = screenCandidates(dest.candidates, q.activity, ctx.regulations);
  const overLimit = dest.overLimit.map((c) => ({ spot: { id: c.spot.id, name: c.spot.name }, reason: "over_limit" as const, note: "Beyond the 20 spots considered per call." }));
  // Spots decisions do not rank are excluded once for the window (it does not change by day).
  const screened = excludeUnranked(ruled, ctx);
  if (dest.region.decision_support === "conditions_only") {
    // Rules before the refusal: each spot's closure or exclusion is listed, then the answer declines.
    return { kind: "declined", region: dest.region.name, declined: declinedFields(ctx, dest, q.activity.label, screened.excluded, overLimit) };
  }
  const results: DayResult[] = [];
  const dataTimes: (Date | null)[] = [];
  for (const date of query.dates) {
    const day = await evaluateDay(screened, date, q.activity, ctx);
    results.push({
      date,
      top: day.options[0] ?? null,
      scoredSpots: new Set(day.options.map((o) => o.candidate.spot.id)),
      closed: day.considered.excluded.filter((x) => x.reason === "closed_on_date"),
    });
    dataTimes.push(day.dataTime);
  }
  // The spec: `best` is the highest score in the window, equal scores go to the nearer day;
  // uncertainty is carried by confidence (lead time) and by `versus_next`'s words, never by reordering.
  const ranked = rankDays(results.filter((r): r is RankedDay => r.top !== null).map((r) => ({ ...r, score: r.top.period.score! })));
  return { kind: "ranked", region: dest.region.name, screened, overLimit, results, ranked, dataTimes };
}

/** Render: the response object and its Markdown, built whole from the query and the decision. */
function renderBestDay(query: BestDayQuery, decision: BestDayDecision, ctx: Pick<ServiceContext, "clock" | "links" | "regulations" | "source" | "validation">): BestDayJson {
  const { q, dest, today, fromIn, toIn, toWanted, from, to, dates } = query;
  const base = {
    schema: "service.best_day.v1" as const,
    query: { ...destinationEcho(q), from: fromIn ?? null, to: toIn ?? null },
    ...commonFields(ctx, q, dest),
    // What was asked for, defaults filled in (the spec types both as strings): the window before clamping.
    range: { from, to, requested_from: fromIn ?? today, requested_to: toIn ?? toWanted },
  };
  const blankDays = (summary: string) => dates.map((date) => ({ date, date_label: dateLabel(date, today), score: null, rating: null, spot: null, best_window: null, summary }));
  if (decision.kind === "early") {
    const e = decision.early;
    return {
      ...base,
      ...unrankedFields(e),
      best: null,
      runner_up: null,
      days: blankDays(e.message),
      cards: [],
      card_markdown: picksMarkdown(`Best day for ${q.activity.label.toLowerCase()}`, [], ctx.links.base, e.message),
    };
  }
  const title = `Best day for ${q.activity.label.toLowerCase()} in ${decision.region}`;
  if (decision.kind === "declined") {
    const { declined } = decision;
    return {
      ...base,
      ...declined,
      best: null,
      runner_up: null,
      days: blankDays(notRankedSentence(decision.region)),
      cards: [],
      card_markdown: picksMarkdown(title, [], ctx.links.base, declined.message),
    };
  }
  const [winner = null, second = null] = decision.ranked;
  const best = winner
    ? {
        ...buildPick(ctx, 1, winner.top, { activity: q.activity, date: winner.date, today, point: dest.point, regulationsReadable: ctx.regulations.readable }, versusNext(winner, second, today)),
        date_label: dateLabel(winner.date, today),
      }
    : null;
  const days = decision.results.map((r) => daySummary(r, query, decision.screened, ctx));
  const message = best ? bestMessage(query, best, winner!, decision) : noBestMessage(query, decision, ctx);
  const strip = days.map(
    (d) =>
      `| ${d.date_label} | ${d.rating ?? "–"} | ${d.score ?? "–"} | ${d.spot ? mdEscape(d.spot.name) : "–"} | ${d.best_window ? `${d.best_window.start_local}–${d.best_window.end_local}` : "–"} |`,
  );
  return {
    ...base,
    generated_at: decisionDataTime(ctx, dest, decision.dataTimes),
    data_credits: best?.data_credits ?? [],
    // As in recommend_spot: `ok` only with a best day; otherwise `no_data`, with its reason said.
    status: best ? "ok" : "no_data",
    considered: consideredOf(query, decision),
    message,
    facts_hint: null,
    best,
    runner_up: second
      ? { date: second.date, score: second.top.period.score!, rating: second.top.period.rating, spot: { id: second.top.candidate.spot.id, name: second.top.candidate.spot.name } }
      : null,
    days,
    cards: best ? [best.card] : [],
    card_markdown: picksMarkdown(title, best ? [best] : [], ctx.links.base, message, ["| Day | Rating | Score | Spot | Window |", "|---|---|---|---|---|", ...strip]),
  };
}

type Ranked = Extract<BestDayDecision, { kind: "ranked" }>;

/** Spots scored on some day, spots excluded by a rule (or closed on some days), spots with no daylight data. */
function consideredOf(query: BestDayQuery, decision: Ranked): BestDayJson["considered"] {
  const { results, screened, overLimit } = decision;
  const everScored = new Set(results.flatMap((r) => [...r.scoredSpots]));
  return {
    scored: everScored.size,
    excluded: [...screened.excluded, ...closedInWindow(results)],
    skipped: [
      ...screened.eligible
        .filter((e) => !everScored.has(e.candidate.spot.id) && !results.every((r) => r.closed.some((x) => x.spot.id === e.candidate.spot.id)))
        .map((e) => ({
          spot: { id: e.candidate.spot.id, name: e.candidate.spot.name },
          reason: "no_daylight_data" as const,
          note: `No scored daylight period between ${query.from} and ${query.to}.`,
        })),
      ...overLimit,
    ],
  };
}

/** Today has daylight left until its last daylight window ends (recommend_spot rolls forward then). */
function daylightLeftOn(date: string, query: BestDayQuery, ctx: Pick<ServiceContext, "clock">): boolean {
  return date !== query.today || ctx.clock.now().getTime() < daylightEnd(query.today, query.tz).getTime();
}

/** One day's line: its best spot and window, or why it has none. */
function daySummary(r: DayResult, query: BestDayQuery, screened: ScreenedCandidates, ctx: Pick<ServiceContext, "clock">): BestDayJson["days"][number] {
  const label = dateLabel(r.date, query.today);
  if (!r.top) {
    const allClosed = screened.eligible.length > 0 && r.closed.length === screened.eligible.length;
    const why = !daylightLeftOn(r.date, query, ctx)
      ? "No daylight window left today."
      : screened.eligible.length === 0
        ? exclusionSummary(screened.excluded)
        : allClosed
          ? `Closed: ${[...new Set(r.closed.map((x) => x.note))].join(" ")}`
          : r.date === query.today
            ? "No daylight window left today."
            : "No scored daylight window.";
    return { date: r.date, date_label: label, score: null, rating: null, spot: null, best_window: null, summary: why };
  }
  const p = r.top.period;
  const w = bestWindowOf(p, query.tz);
  return {
    date: r.date,
    date_label: label,
    score: p.score,
    rating: p.rating,
    spot: { id: r.top.candidate.spot.id, name: r.top.candidate.spot.name },
    best_window: w,
    summary: `${r.top.candidate.spot.name} ${w.start_local}–${w.end_local}: ${p.rating} (${p.score}${p.seasonal ? `, ${SEASONAL_NORM_LABEL}` : ""}), ${p.visFt} ft visibility, ${p.swellFt} ft swell, ${Math.round(p.windKt ?? 0)} kt wind.`,
  };
}

/** The headline when a day wins. */
function bestMessage(query: BestDayQuery, best: NonNullable<BestDayJson["best"]>, winner: RankedDay, decision: Ranked): string {
  const { q, from, to } = query;
  const seasonal = winner.top.period.seasonal;
  return (
    `Best day for ${q.activity.label.toLowerCase()} in ${decision.region} between ${from} and ${to}: ${best.date_label} (${best.date}) at ${best.spot.name}, ` +
    `${best.rating} (${best.score}${seasonal ? `, ${SEASONAL_NORM_LABEL}` : ""}) ${best.best_window.start_local}–${best.best_window.end_local}.` +
    (seasonal
      ? ` ${seasonalDaysSentence(
          best.date,
          decision.screened.eligible.some((e) => e.candidate.spot.tide_station !== null),
          decision.results.some((r) => r.closed.length > 0),
        )}`
      : "")
  );
}

/** The headline when no day wins: no daylight left said first, then every spot excluded or closed on every day, each with its rule. */
function noBestMessage(query: BestDayQuery, decision: Ranked, ctx: Pick<ServiceContext, "clock">): string {
  const { q, from, to, dates } = query;
  const { screened, results, region } = decision;
  if (!dates.some((d) => daylightLeftOn(d, query, ctx))) {
    return `No daylight window is left between ${from} and ${to} in ${region}. Try a later window.`;
  }
  if (screened.eligible.length === 0) return exclusionSentence(q.activity.label, screened.excluded);
  if (results.every((r) => r.closed.length === screened.eligible.length)) {
    return `Closed on every day between ${from} and ${to}: ${[...new Set(results.flatMap((r) => r.closed.map((x) => `${x.spot.name}: ${x.note}`)))].join(" ")}`;
  }
  return `No scored daylight window between ${from} and ${to} in ${region}.`;
}

/**
 * What tells the days apart when every input is a seasonal norm: not the weather. The norms drift
 * slowly through the season; the light changes with the sun; the tide only where the spots have a
 * tide; closures only where a spot closes on some days. Built from those facts, never assumed.
 */
function seasonalDaysSentence(date: string, hasTide: boolean, closures: boolean): string {
  const by = [...(hasTide ? ["the tide"] : []), "the light", "the slow drift of the season", ...(closures ? ["the days a spot is closed"] : [])];
  const list = by.length === 1 ? by[0] : `${by.slice(0, -1).join(", ")} and ${by[by.length - 1]}`;
  return `These are seasonal norms, typical for ${seasonOf(date)}, not a weather forecast: the days' scores differ only by ${list}.`;
}

/** A day summary when every spot is excluded by a rule: the rules, by spot, without a date (they do not depend on one). */
function exclusionSummary(excluded: Considered["excluded"]): string {
  const byNote = new Map<string, string[]>();
  for (const e of excluded) byNote.set(e.note, [...(byNote.get(e.note) ?? []), e.spot.name]);
  return `No spot can be ranked: ${[...byNote].map(([note, names]) => `${names.join(", ")}: ${note.replace(/\.$/, "")}`).join("; ")}.`;
}

/**
 * Spots closed on some days of the window, once each: the rule, and the days it closes them. A spot
 * closed on only some days is still ranked on the others.
 */
function closedInWindow(results: readonly DayResult[]): Considered["excluded"] {
  const bySpot = new Map<string, { entry: Considered["excluded"][number]; dates: string[] }>();
  for (const r of results) {
    for (const x of r.closed) {
      const seen = bySpot.get(x.spot.id);
      if (seen) seen.dates.push(r.date);
      else bySpot.set(x.spot.id, { entry: x, dates: [r.date] });
    }
  }
  return [...bySpot.values()].map(({ entry, dates }) => ({ ...entry, note: `${entry.note} Closed ${dates.join(", ")} in this window.` }));
}

/** The winner's margin over the runner-up day, in points and in what differs. */
function versusNext(winner: DayResult & { top: DayOption }, second: (DayResult & { top: DayOption }) | null, today: string): string {
  if (!second) return "No other day in the window has a scored daylight window.";
  const a = winner.top.period;
  const b = second.top.period;
  const margin = a.score! - b.score!;
  const diffs: string[] = [];
  if (a.visFt !== null && b.visFt !== null && a.visFt !== b.visFt) diffs.push(`visibility ${a.visFt} vs ${b.visFt} ft`);
  if (a.swellFt !== null && b.swellFt !== null && a.swellFt !== b.swellFt) diffs.push(`swell ${a.swellFt} vs ${b.swellFt} ft`);
  if (a.windKt !== null && b.windKt !== null && Math.round(a.windKt) !== Math.round(b.windKt)) diffs.push(`wind ${Math.round(a.windKt)} vs ${Math.round(b.windKt)} kt`);
  const where = second.top.candidate.spot.id === winner.top.candidate.spot.id ? "" : ` at ${second.top.candidate.spot.name}`;
  const other = `${dateLabel(second.date, today)}${where} (${b.score})`;
  const lead =
    margin > BEST_DAY_NOISE_MARGIN
      ? `${margin} points ahead of ${other}`
      : margin === 0
        ? `Ties with ${other}, the later day; the nearer day is named`
        : `${margin} point${margin === 1 ? "" : "s"} ahead of ${other}; within the ${BEST_DAY_NOISE_MARGIN}-point noise margin, so the two are about as good`;
  return `${lead}${diffs.length > 0 ? `: ${diffs.join(", ")}.` : "."}`;
}

export const tool: ToolDefinition<BestDayJson> = {
  name,
  operation: "best-day",
  config,
  annotations: readOnlyAnnotations(true),
  appView: true,
  run: (args, ctx) => bestDay(args, ctx),
  markdown: (r) => r.card_markdown,
};
