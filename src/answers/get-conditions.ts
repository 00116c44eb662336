// get_conditions — conditions for one spot over up to 7 spot-local days, in 3-hour periods.
// REST twin: GET /api/v1/conditions. Both call `getConditions` below and return its object as is.
//
// Errors (ServiceError codes): missing_location, ambiguous_location, invalid_coordinates,
// one_spot_per_request, invalid_date, invalid_range, range_too_long (400); unknown_spot,
// no_spot_nearby (404); outside_horizon (422); data_unavailable (503).
import { z } from "zod";
import { DISCLAIMER, SERVICE_NAME, sourceLine } from "../base/attribution.js";
import { MODELLED_TIDE_ID } from "../sources/tide-model.js";
import type { Spot } from "../catalog/catalog.js";
import type { ServiceContext } from "../services/context.js";
import { ServiceError } from "../base/errors.js";
import { provenanceOf, type SpotForecast } from "../forecast/engine.js";
import { SEASONAL_NORM_LABEL } from "../model/norms.js";
import { isDaylightSlot } from "../model/periods.js";
import { UNRANKED_NOTES, unrankedOf } from "../model/why.js";
import { closureOn } from "../catalog/access.js";
import { round, roundKm } from "../catalog/geo.js";
import { HORIZON_DAYS, MAX_RANGE_DAYS, REFRESH_MS, SNAP_DISTANCE_KM, SPOT_ID_PATTERN } from "../base/limits.js";
import { parseDate, parsePoint, parseSpotId, resolveSpot, type Raw } from "../catalog/params.js";
import { ConditionsSchema, type ConditionsJson } from "../schemas/conditions.js";
import { regionRef } from "../schemas/refs.js";
import { addDays, dateLabel, daysBetween, isoWithOffset, localDate } from "../base/zone.js";
import { formatSwell, formatTemp, formatVisibility, formatWind } from "../model/format.js";
import { mdEscape } from "../decisions/md-escape.js";
import { readOnlyAnnotations, type ToolDefinition, dateArgument } from "./tool.js";

export const name = "get_conditions";

export const config = {
  title: "Get ocean conditions for a spot",
  description:
    "Use this for the facts at one dive or snorkel spot: underwater visibility, swell, wind, tide, water temperature " +
    "and a 0-100 condition score with a rating and a plain reason, in 3-hour periods for up to 7 days (spot-local dates), " +
    "plus a current-hour nowcast. Give a spot id (see list_coverage) or lat+lon (snaps to the nearest covered spot within " +
    `${SNAP_DISTANCE_KM} km). Units: feet/metres, knots, °C, tide in feet above MLLW, directions are where it comes FROM. ` +
    "To choose between spots or days for an activity, use recommend_spot or best_day instead.",
  inputSchema: z.object({
    spot: z.string().regex(SPOT_ID_PATTERN).optional().describe("Spot id, e.g. hanauma-bay"),
    lat: z.number().min(-90).max(90).optional().describe("Latitude, decimal degrees (with lon)"),
    lon: z.number().min(-180).max(180).optional().describe("Longitude, decimal degrees (with lat)"),
    from: dateArgument("First spot-local date, YYYY-MM-DD; default today"),
    to: dateArgument(`Last spot-local date (inclusive); default from + ${MAX_RANGE_DAYS - 1}; at most ${MAX_RANGE_DAYS} days`),
  }),
  outputSchema: ConditionsSchema,
};

export interface GetConditionsInput {
  spot?: Raw;
  lat?: Raw;
  lon?: Raw;
  from?: Raw;
  to?: Raw;
}

/** The question once parsed: the spot (asked or snapped to), the window asked for and what the horizon allows. */
interface ConditionsQuery {
  spotId: string | undefined;
  point: { lat: number; lon: number } | undefined;
  fromIn: string | undefined;
  toIn: string | undefined;
  spot: Spot;
  resolvedFrom: ConditionsJson["query"]["resolved_from"];
  today: string;
  from: string;
  to: string;
  availableFrom: string;
  availableTo: string;
}

/** What the forecast holds for the query: the periods in range, the nowcast if today is asked, tides and provenance. */
interface ConditionsSelection {
  generatedAt: Date;
  periods: SpotForecast["periods"];
  nowPeriod: SpotForecast["nowcast"];
  tideEvents: SpotForecast["tideEvents"];
  prov: ReturnType<typeof provenanceOf>;
  visibilitySources: Set<string>;
  nextUpdate: Date;
}

export async function getConditions(input: GetConditionsInput, ctx: Pick<ServiceContext, "catalog" | "clock" | "forecasts" | "links" | "source">): Promise<ConditionsJson> {
  const query = parseConditionsQuery(input, ctx);
  return renderConditions(query, await selectConditions(query, ctx), ctx);
}

/** Parse: arguments → the query, or the ServiceError the spec names for them. */
function parseConditionsQuery(input: GetConditionsInput, ctx: Pick<ServiceContext, "catalog" | "clock">): ConditionsQuery {
  const spotId = parseSpotId(input.spot);
  const point = parsePoint(input.lat, input.lon);
  if (spotId !== undefined && point !== undefined) {
    throw new ServiceError("ambiguous_location", "Give either `spot` or `lat`+`lon`, not both.");
  }
  if (spotId === undefined && point === undefined) {
    throw new ServiceError("missing_location", "Give a `spot` id (list_coverage lists them; REST: /api/v1/spots) or `lat` and `lon`.");
  }
  const fromIn = parseDate("from", input.from);
  const toIn = parseDate("to", input.to);

  let spot: Spot;
  let resolvedFrom: ConditionsJson["query"]["resolved_from"] = null;
  if (spotId !== undefined) {
    spot = resolveSpot(ctx.catalog, spotId);
  } else {
    const near = ctx.catalog.nearest(point!.lat, point!.lon);
    if (near.distanceKm > SNAP_DISTANCE_KM) {
      throw new ServiceError(
        "no_spot_nearby",
        `No covered spot within ${SNAP_DISTANCE_KM} km of ${point!.lat}, ${point!.lon}. The nearest is ${near.spot.name} ` +
          `(\`${near.spot.id}\`, ${near.spot.region.name}), ${roundKm(near.distanceKm)} km away.`,
        { extra: { nearest_covered: { spot: { id: near.spot.id, name: near.spot.name }, distance_km: roundKm(near.distanceKm) } } },
      );
    }
    spot = near.spot;
    resolvedFrom = { lat: point!.lat, lon: point!.lon, distance_km: roundKm(near.distanceKm) };
  }

  const today = localDate(ctx.clock.now(), spot.timezone);
  const from = fromIn ?? today;
  const to = toIn ?? addDays(from, MAX_RANGE_DAYS - 1);
  if (daysBetween(from, to) < 0) throw new ServiceError("invalid_range", `\`to\` (${to}) is before \`from\` (${from}).`);
  if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS) {
    throw new ServiceError("range_too_long", `At most ${MAX_RANGE_DAYS} days per request; ${from} to ${to} is ${daysBetween(from, to) + 1}.`);
  }
  const lastDay = addDays(today, HORIZON_DAYS - 1);
  const availableFrom = from < today ? today : from;
  const availableTo = to > lastDay ? lastDay : to;
  if (availableFrom > availableTo) {
    throw new ServiceError(
      "outside_horizon",
      `${from} to ${to} is outside the forecast horizon for ${spot.name}: ${today} (today, spot-local) through ${lastDay}. No historical conditions are served.`,
      { extra: { available_from: today, available_to: lastDay } },
    );
  }
  return { spotId, point, fromIn, toIn, spot, resolvedFrom, today, from, to, availableFrom, availableTo };
}

/** Decide: read the spot's forecast and take what the query covers. */
async function selectConditions(q: ConditionsQuery, ctx: Pick<ServiceContext, "forecasts">): Promise<ConditionsSelection> {
  const { forecast, generatedAt } = await ctx.forecasts.forecast(q.spot);
  const periods = forecast.periods.filter((p) => p.date >= q.availableFrom && p.date <= q.availableTo);
  const todayInRange = q.from <= q.today && q.today <= q.to;
  const nowPeriod = todayInRange ? forecast.nowcast : null;
  const used = nowPeriod ? [nowPeriod, ...periods] : periods;
  const first = periods[0]?.start;
  const last = periods[periods.length - 1]?.end;
  return {
    generatedAt,
    periods,
    nowPeriod,
    tideEvents: first && last ? forecast.tideEvents.filter((e) => e.time >= first && e.time < last) : [],
    prov: provenanceOf(forecast, used),
    visibilitySources: new Set(used.map((p) => p.visibilitySource).filter((s) => s !== null)),
    // Upstream answers are cached per model hour (fetched ahead for recently asked spots), so newer
    // data shows at the next refresh boundary, however long ago the current answer was fetched.
    nextUpdate: new Date((Math.floor(forecast.now.getTime() / REFRESH_MS) + 1) * REFRESH_MS),
  };
}

/** Render: the response object, built whole (its Markdown is conditionsMarkdown, below). */
function renderConditions(q: ConditionsQuery, s: ConditionsSelection, ctx: Pick<ServiceContext, "links" | "source">): ConditionsJson {
  const { spot } = q;
  return {
    schema: "service.conditions.v1",
    spot: { id: spot.id, name: spot.name, region: regionRef(spot.region), lat: spot.lat, lon: spot.lon, timezone: spot.timezone },
    query: {
      spot: q.spotId ?? null,
      lat: q.point?.lat ?? null,
      lon: q.point?.lon ?? null,
      from: q.fromIn ?? null,
      to: q.toIn ?? null,
      resolved_from: q.resolvedFrom,
    },
    range: {
      from: q.from,
      to: q.to,
      available_from: s.periods.length > 0 ? q.availableFrom : null,
      available_to: s.periods.length > 0 ? q.availableTo : null,
    },
    generated_at: isoWithOffset(s.generatedAt, spot.timezone),
    next_update_after: isoWithOffset(s.nextUpdate, spot.timezone),
    data_quality: {
      visibility_source: s.visibilitySources.has("satellite") ? "satellite" : s.visibilitySources.has("heuristic") ? "heuristic" : null,
      freshness: s.prov.freshness,
    },
    tide_datum: "MLLW",
    now: s.nowPeriod?.json ?? null,
    periods: s.periods.map((p) => p.json),
    tide_events: s.tideEvents.map((e) => ({
      type: e.type,
      time: isoWithOffset(e.time, spot.timezone),
      height_ft: round(e.heightFt, 2),
    })),
    sources: s.prov.sources,
    links: { page: ctx.links.spotPage(spot.id), app: ctx.links.app(spot.id, q.availableFrom), docs: ctx.links.docs },
    attribution: `Conditions for ${spot.name} by ${SERVICE_NAME} (${ctx.links.base}), using ${s.prov.credits.map((c) => c.provider).join("; ")}.`,
    source: ctx.source,
    data_credits: s.prov.credits,
    disclaimer: DISCLAIMER,
  };
}

/** The Markdown card a text-only host shows: now, then each day's best daylight period. */
export function conditionsMarkdown(c: ConditionsJson, ctx: Pick<ServiceContext, "catalog" | "clock" | "links">): string {
  const tz = c.spot.timezone;
  const today = localDate(ctx.clock.now(), tz);
  const lines: string[] = [];
  // Scores from seasonal norms carry the label beside them; the table's days are then typical days.
  const seasonal = c.data_quality.freshness === "none";
  lines.push(`## ${mdEscape(c.spot.name)} (${mdEscape(c.spot.region.name)}): ocean conditions`);
  const catalogued = ctx.catalog.spot(c.spot.id);
  const unranked = catalogued ? unrankedOf(catalogued) : null;
  if (unranked) lines.push(`_${UNRANKED_NOTES[unranked]}_`);
  // Closures once, at the top, before any rating: each closed day by its label, with the rule.
  const closedDays = new Map<string, string[]>();
  for (const date of new Set(c.periods.map((p) => p.start!.slice(0, 10)))) {
    const closure = catalogued ? closureOn(catalogued.access, date) : null;
    if (closure) closedDays.set(closure.rule, [...(closedDays.get(closure.rule) ?? []), dateLabel(date, today)]);
  }
  for (const [rule, days] of closedDays) lines.push(`**Closed: ${days.join(", ")}.** ${mdEscape(rule)}`);
  if (c.now) {
    lines.push(
      `**Now:** ${ratingText(c.now.rating, c.now.score, seasonal)} · visibility ${formatVisibility(c.now.visibility_ft, c.now.visibility_m, c.now.visibility_low_ft, c.now.visibility_high_ft) ?? "unknown"} · ` +
        `swell ${formatSwell(c.now.swell_height_ft, c.now.swell_period_s, c.now.swell_from_deg, c.now.swell_height_m) ?? "unknown"} · wind ${formatWind(c.now.wind_speed_kt, c.now.wind_from_deg, c.now.wind_gust_kt) ?? "unknown"} · ` +
        `water ${formatTemp(c.now.water_temp_c) ?? "unknown"} · tide ${c.now.tide_state ?? "unknown"}${c.now.tide_height_ft === null ? "" : ` (${c.now.tide_height_ft} ft)`}`,
    );
    if (c.now.why) lines.push(`> ${mdEscape(c.now.why)}`);
  }
  const byDay = new Map<string, ConditionsJson["periods"]>();
  for (const p of c.periods) {
    const d = p.start!.slice(0, 10);
    byDay.set(d, [...(byDay.get(d) ?? []), p]);
  }
  if (byDay.size > 0) {
    lines.push("", "| Day | Best daylight window | Rating | Visibility | Swell | Wind |", "|---|---|---|---|---|---|");
    for (const [date, ps] of byDay) {
      // Start times carry the spot's offset, so their hour is the spot-local hour.
      const daylight = ps.filter((p) => isDaylightSlot(Number(p.start!.slice(11, 13))) && p.score !== null);
      const best = daylight.reduce<(typeof ps)[number] | null>((a, p) => (a === null || p.score! > a.score! ? p : a), null);
      if (!best) {
        lines.push(`| ${dateLabel(date, today)} | no daylight periods left | | | | |`);
        continue;
      }
      lines.push(
        `| ${dateLabel(date, today)} | ${best.start!.slice(11, 16)}–${best.end!.slice(11, 16)} | ${ratingText(best.rating, best.score, seasonal)} | ` +
          `${formatVisibility(best.visibility_ft, best.visibility_m, best.visibility_low_ft, best.visibility_high_ft) ?? "–"} | ${formatSwell(best.swell_height_ft, best.swell_period_s, best.swell_from_deg, best.swell_height_m) ?? "–"} | ` +
          `${formatWind(best.wind_speed_kt, best.wind_from_deg, best.wind_gust_kt) ?? "–"} |`,
      );
    }
  }
  const tides = c.tide_events.slice(0, 4).map((e) => `${e.type} ${e.height_ft} ft ${dateLabel(e.time.slice(0, 10), today)} ${e.time.slice(11, 16)}`);
  // A spot without a station has a modelled tide (live data only): said so, with its estimated datum.
  const tideLabel = c.sources.includes(MODELLED_TIDE_ID) ? "Tides (modelled, not a station; ft above an estimated MLLW)" : "Tides (ft above MLLW)";
  if (tides.length > 0) lines.push("", `**${tideLabel}:** ${tides.join(" · ")}`);
  lines.push(
    "",
    `Visibility: ${c.data_quality.visibility_source ?? "unknown"} estimate · data freshness: ${c.data_quality.freshness ?? "unknown"}${
      c.data_quality.freshness === "none" ? " (seasonal norms, not a live forecast)" : ""
    } · times are ${tz} local.`,
    `Forecast page: ${c.links.page}`,
    "",
    // Licences such as Open-Meteo's CC BY 4.0 ask for a link next to the data wherever it is shown.
    `_${c.data_credits.map((d) => `[${mdEscape(d.credit)}](${d.url})`).join(" · ")}_`,
    `_${DISCLAIMER}_`,
    "",
    sourceLine(ctx.links.base),
  );
  return lines.join("\n");
}

function ratingText(rating: string | null, score: number | null, seasonal: boolean): string {
  return rating === null ? "not rated" : `**${rating}** (${score}/100${seasonal ? `, ${SEASONAL_NORM_LABEL}` : ""})`;
}

export const tool: ToolDefinition<ConditionsJson> = {
  name,
  operation: "conditions",
  config,
  annotations: readOnlyAnnotations(true),
  appView: true,
  run: (args, ctx) => getConditions(args, ctx),
  markdown: conditionsMarkdown,
};
