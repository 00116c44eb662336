// One spot on one date as the decision layer judges it, for the share image and share page: the same
// best daylight period, pick and card recommend_spot gives for that spot and date, plus the notice a
// shared link must carry when the spot is not a pick for the activity (closed, unsuited, not ranked).
import { activity as activityById, type Activity } from "../base/activities.js";
import type { DataCredit } from "../base/attribution.js";
import type { Spot } from "../catalog/catalog.js";
import type { AreaRule } from "../catalog/regulations.js";
import type { ServiceContext } from "../services/context.js";
import type { Caveat } from "./caveats.js";
import { CLOSED_ON_DATE, closureOn } from "../catalog/access.js";
import { bestDaylightPeriod, notRankedExclusion, screenCandidates } from "./evaluate.js";
import { buildPick } from "./pick.js";
import { assertWithinHorizon, parseActivity } from "./request.js";
import { ServiceError, type ErrorCode } from "../base/errors.js";
import { provenanceOf, type PeriodResult } from "../forecast/engine.js";
import { optionalString, parseDate, parseSpotId, resolveSpot, type Raw } from "../catalog/params.js";
import type { SpotCardJson } from "../schemas/decisions.js";
import { localDate } from "../base/zone.js";
import { buildCard } from "./card.js";

/** The notice of a shared day that has passed. */
export const DAY_PASSED = "day_passed";

/** Why a shared spot/day is not a pick for the activity asked about; shown in place of the headline. */
export interface SpotDayNotice {
  /** A considered.excluded reason (closed_to_spearfishing, unsuited_depth, …) or a decision status. */
  code: string;
  title: string;
  text: string;
}

export interface SpotDay {
  spot: Spot;
  date: string;
  /** Spot-local today, which the card's relative date label is measured from. */
  today: string;
  /** The activity asked about, or null for a general conditions card. */
  activity: Activity | null;
  card: SpotCardJson;
  /** The best daylight period the card quotes, or null when none is left on the date. */
  period: PeriodResult | null;
  /** The facts layer's one-line reason for the period's rating. */
  why: string | null;
  caveats: Caveat[];
  credits: DataCredit[];
  notice: SpotDayNotice | null;
  /** When the forecast behind this is built: it changes only on the hour. */
  forecastAt: Date;
}

export interface SpotDayInput {
  spot: Raw;
  date: Raw;
  activity?: Raw;
}

/**
 * A general card (no activity) and activities the decision layer does not rank use the native
 * model's day choice: the shared score is calibrated for snorkeling, so its tie-break is the neutral one.
 */
const NATIVE = activityById("snorkel");

/** Every code spotDay (and so the share image and page) can refuse with; the OpenAPI document lists these. */
export const SPOT_DAY_ERRORS = [
  "one_spot_per_request",
  "invalid_date",
  "unknown_activity",
  "unknown_spot",
  "outside_horizon",
  "data_unavailable",
  "unavailable",
] as const satisfies readonly ErrorCode[];

/**
 * Resolves and judges one spot/date/activity. Errors: unknown_spot (404), invalid_date and
 * unknown_activity (400), outside_horizon (422) — the same codes recommend_spot gives for them —
 * and the forecast's own data_unavailable (503); see SPOT_DAY_ERRORS.
 */
export async function spotDay(input: SpotDayInput, ctx: Pick<ServiceContext, "catalog" | "clock" | "forecasts" | "links" | "regulations" | "validation">): Promise<SpotDay> {
  const spotId = parseSpotId(input.spot);
  if (spotId === undefined) throw new ServiceError("unknown_spot", "Give a spot id; the list of spots is at /api/v1/spots.");
  const spot = resolveSpot(ctx.catalog, spotId);
  const date = parseDate("date", input.date);
  if (date === undefined) throw new ServiceError("invalid_date", "Give a spot-local date written YYYY-MM-DD.");
  const activity = optionalString("activity", input.activity, "unknown_activity") === undefined ? null : parseActivity(input.activity);
  const today = localDate(ctx.clock.now(), spot.timezone);
  // A shared link outlives its day: a past date answers with a card that says the day has passed
  // (and the page links the current forecast), so a preview re-fetched later never breaks. A date
  // beyond the horizon is still refused.
  if (date >= today) assertWithinHorizon(date, today);
  const timed = await ctx.forecasts.forecast(spot);
  if (date < today) {
    const credits = provenanceOf(timed.forecast, []).credits;
    const card = buildCard(ctx, { spot, date, today, activity, period: null, credits });
    const notice = { code: DAY_PASSED, title: "This day has passed", text: `The forecast for ${date} is no longer kept. The forecast page has ${spot.name}'s next 7 days.` };
    return { spot, date, today, activity, card, period: null, why: null, caveats: [], credits, notice, forecastAt: timed.forecast.now };
  }
  const ranked = activity !== null && activity.model !== "unsupported";
  const model = ranked ? activity : NATIVE;
  let notice: SpotDayNotice | null = null;
  let regulatedAreas: AreaRule[] = [];
  // An exclusion for the activity (closed to it, unsuited) or a closure on the date shows whatever the
  // region's decision support: it holds on every forecast, so it comes before conditions_only.
  if (activity !== null && !ranked) {
    notice = { code: "activity_not_modeled", title: `${activity.label} is not ranked`, text: activity.note };
  } else if (activity !== null) {
    const screened = screenCandidates([{ spot, distanceKm: null }], activity, ctx.regulations);
    const excluded = screened.excluded[0];
    if (excluded) {
      const closed = excluded.reason === "closed_to_spearfishing";
      notice = {
        code: excluded.reason,
        title: closed ? "Closed to spearfishing" : `Not suited to ${activity.label.toLowerCase()}`,
        text: excluded.note ?? (closed ? `Inside ${excluded.areas?.join(" and ") ?? "a marine reserve"}.` : "This spot is excluded for this activity."),
      };
    }
    regulatedAreas = screened.eligible[0]?.regulatedAreas ?? [];
  }
  const closure = closureOn(spot.access, date);
  if (closure && notice === null) {
    notice = { code: "closed_on_date", title: CLOSED_ON_DATE, text: closure.rule };
  }
  if (notice === null && activity !== null && !spot.ranked) {
    const uncalibrated = notRankedExclusion(ctx, spot);
    notice = {
      code: uncalibrated.reason,
      title: `Not ranked for ${activity.label.toLowerCase()}`,
      text: uncalibrated.note,
    };
  }

  const period = bestDaylightPeriod(timed.forecast.periods, date, model);
  if (period === null) {
    notice ??= { code: "no_data", title: "No daylight forecast left", text: `No daylight period is left to score on ${date}. Try another day.` };
    const credits = provenanceOf(timed.forecast, []).credits;
    const card = buildCard(ctx, { spot, date, today, activity, period: null, credits });
    return { spot, date, today, activity, card, period: null, why: null, caveats: [], credits, notice, forecastAt: timed.forecast.now };
  }
  // Exactly the pick recommend_spot builds for this spot and date (evaluateDay → buildPick).
  const pick = buildPick(
    ctx,
    1,
    { candidate: { spot, distanceKm: null }, timed, period, regulatedAreas },
    {
      activity: model,
      date,
      today,
      point: null,
      regulationsReadable: ctx.regulations.readable,
    },
  );
  const card = activity === model ? pick.card : buildCard(ctx, { spot, date, today, activity, period, credits: pick.data_credits });
  return {
    spot,
    date,
    today,
    activity,
    card,
    period,
    why: period.json.why,
    caveats: pick.caveats,
    credits: pick.data_credits,
    notice,
    forecastAt: timed.forecast.now,
  };
}
