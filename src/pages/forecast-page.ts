// The spot's forecast page (links.page, card.links.forecast): now, a 7-day chart rendered as SVG on
// the server, a compact day table whose rows are the same cards the share pages show, every 3-hour
// period on demand, tides, credits and the disclaimer. No script; readable on a phone.
import { activity as activityById, isActivityId, type Activity } from "../base/activities.js";
import { spotDay, type SpotDay } from "../decisions/spot-day.js";
import type { ServiceContext } from "../services/context.js";
import { TIERS } from "../model/tiers.js";
import { isSeasonalTierLabel, SEASONAL_NORM_LABEL, tierLabelFor } from "../model/norms.js";
import { formatLength, formatSwell, formatTemp, formatVisibility, formatWind, splitMetric } from "../model/format.js";
import { HORIZON_DAYS } from "../base/limits.js";
import { TIDE_STATION_MAX_KM } from "../catalog/schema.js";
import { MODELLED_TIDE_ID } from "../sources/tide-model.js";
import { optionalString, type Raw } from "../catalog/params.js";
import { CLOSED_ON_DATE, closureOn } from "../catalog/access.js";
import type { ConditionsJson } from "../schemas/conditions.js";
import type { ErrorCode } from "../base/errors.js";
import { addDays, dateLabel, isValidDate, localDate, localHHMM, shortDate, zonedInstant } from "../base/zone.js";
import { sunTimes } from "../base/sun.js";
import { DAY_MS } from "../base/clock.js";
import { getConditions } from "../answers/get-conditions.js";
import { forecastChartSvg } from "./forecast-chart.js";
import { creditsFooter, html, linkHead, page, raw, tierClass, type Raw as RawHtml } from "./html.js";
import { VALIDATION_PATH } from "../services/validation/report.js";
import { defaultUnits, unitSwitch, type Units } from "./units.js";

export interface ForecastPageInput {
  spot: Raw;
  date?: Raw;
  activity?: Raw;
  /** The visitor's units (a link's or a remembered choice); null: the region's own. */
  units?: Units | null;
}

/** A query value that is optional on a page: a bad one is ignored rather than failing the page. */
function lenient(name: string, v: Raw): string | null {
  try {
    return optionalString(name, v) ?? null;
  } catch {
    return null;
  }
}

const hhmm = (iso: string | null) => (iso ? iso.slice(11, 16) : "");

/** A formatted metric with its conversion (or, for wind, its km/h) in a span of its own. */
function metricCell(v: string | null): RawHtml {
  if (v === null) return html`–`;
  const { value, sub } = splitMetric(v);
  return sub === null ? html`${value}` : html`${value}<span class="alt"> (${sub})</span>`;
}

/** Said on the forecast page of a spot with no tide station, in place of an empty tide chart and column. */
export const NO_TIDE_TITLE = "No tide for this spot";
export const NO_TIDE_TEXT =
  `The tide database this service predicts from has no harmonic tide station within ${TIDE_STATION_MAX_KM} km of this spot, ` +
  "and a farther station's tide belongs to another basin, so no tide is shown rather than a borrowed one. " +
  "Visibility here carries no tide adjustment. Ask a local dive centre or check a local tide table for tide times.";
/** Said on the forecast page of a spot without a station whose tide is modelled (live data). */
export const MODELLED_TIDE_TITLE = "Modelled tide";
export const MODELLED_TIDE_TEXT =
  `No harmonic tide station lies within ${TIDE_STATION_MAX_KM} km of this spot, so its tide is modelled: high and low waters read off ` +
  "Open-Meteo's modelled sea level (Copernicus Marine ocean model, tide plus surge), heights above an MLLW estimated from the model's own " +
  "low waters. It is not a station prediction and not for navigation; near the coast the model's grid (about 9 km) may miss local effects.";
const NO_TIDE_CHART = `No tide: no tide station within ${TIDE_STATION_MAX_KM} km of this spot (see below the chart)`;

export interface RenderedPage {
  html: string;
  /** The hour the forecast behind the page was built for. */
  builtFor: Date;
}

/**
 * Every code the forecast page can refuse with (a bad `date` or `activity` is ignored, so only the
 * spot can be refused): get_conditions' spot rules and the forecast's data_unavailable.
 */
export const FORECAST_PAGE_ERRORS = ["missing_location", "one_spot_per_request", "unknown_spot", "data_unavailable", "unavailable"] as const satisfies readonly ErrorCode[];

export async function forecastPage(input: ForecastPageInput, ctx: Pick<ServiceContext, "catalog" | "clock" | "forecasts" | "links" | "regulations" | "source" | "validation">): Promise<RenderedPage> {
  const c: ConditionsJson = await getConditions({ spot: input.spot }, ctx);
  const spot = ctx.catalog.spot(c.spot.id)!;
  // A spot without a station has a tide only when live data model one (src/sources/tide-model.ts).
  const modelledTide = c.sources.includes(MODELLED_TIDE_ID);
  const hasTide = spot.tide_station !== null || modelledTide;
  const tz = spot.timezone;
  const units = input.units ?? defaultUnits(spot.region.country);
  const length = (ft: number | null) => (ft === null ? "–" : formatLength(ft, units));
  const today = localDate(ctx.clock.now(), tz);
  const lastDay = addDays(today, HORIZON_DAYS - 1);
  const dateIn = lenient("date", input.date);
  const highlight = dateIn && isValidDate(dateIn) && dateIn >= today && dateIn <= lastDay ? dateIn : null;
  const activityIn = lenient("activity", input.activity)?.toLowerCase() ?? null;
  const activity: Activity | null = activityIn && isActivityId(activityIn) ? activityById(activityIn) : null;

  const dates = Array.from({ length: HORIZON_DAYS }, (_, i) => addDays(today, i));
  const days: SpotDay[] = await Promise.all(dates.map((date) => spotDay({ spot: spot.id, date, activity: activity?.id }, ctx)));
  const { forecast } = await ctx.forecasts.forecast(spot);
  // The curve needs the extremes either side of the chart, which the forecast's own list stops short of.
  const chartStart = zonedInstant(today, 0, tz);
  const chartEnd = zonedInstant(addDays(today, HORIZON_DAYS), 0, tz);
  const tideEvents = await ctx.forecasts.tideExtremes(spot, new Date(chartStart.getTime() - DAY_MS), new Date(chartEnd.getTime() + DAY_MS));

  const chart = forecastChartSvg({
    timeZone: tz,
    lat: spot.lat,
    lon: spot.lon,
    today,
    days: HORIZON_DAYS,
    periods: c.periods.map((p) => ({
      start: new Date(p.start!),
      end: new Date(p.end!),
      score: p.score,
      rating: p.rating,
      visibilityFt: p.visibility_ft,
      swellFt: p.swell_height_ft,
      windKt: p.wind_speed_kt,
    })),
    tideEvents,
    highlight,
    noTide: hasTide ? null : NO_TIDE_CHART,
    units,
  });

  const tidesOn = (date: string) => c.tide_events.filter((e) => e.time.slice(0, 10) === date);
  const pill = (rating: string | null, text: string) => html`<span class="tier ${tierClass(rating)}">${text}</span>`;
  const doing = activity ? activity.label.toLowerCase() : null;
  const seasonal = c.data_quality.freshness === "none";

  // A spot closed today says so in the "Now" box in place of a rating (the rating is of the water, not of entry).
  const closedToday = closureOn(spot.access, today);
  const now = c.now
    ? html`<section class="now" aria-label="Now">
<strong>Now</strong> ${closedToday ? pill(null, `${CLOSED_ON_DATE} (water ${c.now.rating === null ? "not rated" : `${c.now.rating} ${c.now.score}`})`) : pill(c.now.rating, c.now.rating === null ? "not rated" : `${tierLabelFor(TIERS.find((t) => t.id === c.now!.rating)!.label, seasonal)} ${c.now.score}`)}
· visibility ${formatVisibility(c.now.visibility_ft, c.now.visibility_m, c.now.visibility_low_ft, c.now.visibility_high_ft, units) ?? "unknown"}
· swell ${formatSwell(c.now.swell_height_ft, c.now.swell_period_s, c.now.swell_from_deg, c.now.swell_height_m, units) ?? "unknown"}
· wind ${formatWind(c.now.wind_speed_kt, c.now.wind_from_deg, c.now.wind_gust_kt) ?? "unknown"}
· water ${formatTemp(c.now.water_temp_c, units) ?? "unknown"}
· tide ${hasTide ? `${c.now.tide_state ?? "unknown"}${c.now.tide_height_ft === null ? "" : ` (${length(c.now.tide_height_ft)})`}` : "not available (no station)"}
${c.now.why ? html`<br><span>${c.now.why}</span>` : raw("")}
</section>`
    : raw("");

  const legend = html`<div class="legend" aria-hidden="true">
${TIERS.map((t, i) => html`<span><i class="${tierClass(t.id)}"></i>${t.label} ${t.min > 0 ? `≥ ${t.min}` : `< ${TIERS[i - 1]?.min ?? ""}`}</span>`)}
<span><i class="vis"></i>Visibility</span>${hasTide ? html`<span><i class="tide"></i>Tide</span>` : raw("")}<span><i class="night"></i>Night</span>
</div>`;

  // Sunrise and sunset under each day's window: the same times the chart shades night from.
  const sunLine = (date: string) => {
    const sun = sunTimes(date, tz, spot.lat, spot.lon);
    return sun.sunrise && sun.sunset ? html`<small class="sun">sunrise ${localHHMM(sun.sunrise, tz)} · sunset ${localHHMM(sun.sunset, tz)}</small>` : raw("");
  };
  const dayRows = days.map((d) => {
    const card = d.card;
    const window = card.best_window ? `${card.best_window.start_local}–${card.best_window.end_local}` : "–";
    const tides = tidesOn(d.date).map((e) => `${e.type === "high" ? "H" : "L"} ${hhmm(e.time)} ${e.height_ft === null ? "?" : length(e.height_ft)}`);
    // The card's own figures, in the visitor's units (the card JSON keeps feet first).
    const p = d.period;
    const metrics = {
      visibility: p ? formatVisibility(p.visFt, p.json.visibility_m, p.json.visibility_low_ft, p.json.visibility_high_ft, units) : null,
      swell: p ? formatSwell(p.swellFt, p.swellPeriodS, p.swellFromDeg, p.json.swell_height_m, units) : null,
      water: p ? formatTemp(p.waterTempC, units) : null,
    };
    return html`<tr${raw(d.date === highlight ? ' class="hl"' : "")}>
<td class="day"><a href="${card.links.share}">${dateLabel(d.date, today)}</a>${dateLabel(d.date, today) === shortDate(d.date) ? "" : html`<br><small>${shortDate(d.date)}</small>`}</td>
<td class="num" data-label="Window">${window}${sunLine(d.date)}</td>
<td data-label="Rating">${d.notice ? html`${pill(null, card.score === null ? card.tier_label : String(card.score))}<br><small class="note">${d.notice.title}</small>` : isSeasonalTierLabel(card.tier_label) ? html`${pill(card.tier, `${TIERS.find((t) => t.id === card.tier)!.label} ${card.score}`)}<br><small class="note">${SEASONAL_NORM_LABEL}</small>` : pill(card.tier, card.score === null ? card.tier_label : `${card.tier_label} ${card.score}`)}</td>
<td data-label="Visibility">${metricCell(metrics.visibility)}</td>
<td data-label="Swell">${metricCell(metrics.swell)}</td>
<td data-label="Wind">${metricCell(card.metrics.wind)}</td>
<td data-label="Water">${metricCell(metrics.water)}</td>
${hasTide ? html`<td class="num tides" data-label="Tides">${tides.map((t, i) => (i === 0 ? t : html`<br>${t}`))}</td>` : raw("")}
</tr>`;
  });

  const periodRows = c.periods.map(
    (p) => html`<tr${raw(p.start!.slice(0, 10) === highlight ? ' class="hl"' : "")}>
<td class="num">${shortDate(p.start!.slice(0, 10))} ${hhmm(p.start)}–${hhmm(p.end)}</td>
<td>${pill(p.rating, p.score === null ? "–" : seasonal ? `${p.score} · norm` : String(p.score))}</td>
<td class="num">${units === "metric" && p.visibility_ft !== null ? formatLength(p.visibility_ft, units, 0) : length(p.visibility_ft)}</td>
<td class="num">${length(p.swell_height_ft)}${p.swell_period_s === null ? "" : ` @ ${Math.round(p.swell_period_s)} s`}</td>
<td class="num">${p.wind_speed_kt === null ? "–" : `${Math.round(p.wind_speed_kt)} kt`}</td>
${hasTide ? html`<td class="num hide-sm">${p.tide_state ?? "–"}${p.tide_height_ft === null ? "" : ` ${length(p.tide_height_ft)}`}</td>` : raw("")}
</tr>`,
  );

  const dayTable: RawHtml = html`<p class="sub">Best daylight window each day${doing ? ` for ${doing}` : ""} (starts 06:00–17:59), with the day's sunrise and sunset. Tap a day to share it.</p>
<div class="table-wrap"><table class="days">
<thead><tr><th>Day</th><th>Window</th><th>Rating</th><th>Visibility</th><th>Swell</th><th>Wind</th><th>Water</th>${hasTide ? html`<th>Tides</th>` : raw("")}</tr></thead>
<tbody>${dayRows}</tbody>
</table></div>`;

  const title = `${c.spot.name} (${c.spot.region.name}): 7-day dive and snorkel forecast`;
  const description = `Underwater visibility, swell, wind, tides and a 0–100 score for ${c.spot.name}, every 3 hours for 7 days.`;
  const head = linkHead({ title, description, url: ctx.links.spotPage(spot.id) });

  const body = html`<h1>${c.spot.name}</h1>
<p class="sub"><a href="${ctx.links.regionPage(c.spot.region.id)}">${c.spot.region.name}</a> · 7-day forecast${doing ? ` · ${activity!.label}` : ""} · times in ${tz}${seasonal ? " · seasonal norms, not a live forecast" : ""} · ${unitSwitch(units, (u) => ctx.links.spotPage(spot.id, highlight ?? undefined, activity?.id, u))}</p>
${now}
<h2>Next 7 days</h2>
${legend}
<p class="swipe">Swipe the chart sideways to see the whole week.</p>
<figure class="chart" aria-label="7-day chart" tabindex="0">${raw(chart)}</figure>
${hasTide ? (modelledTide ? html`<section class="no-tide" aria-labelledby="no-tide-title"><h3 id="no-tide-title">${MODELLED_TIDE_TITLE}</h3><p>${MODELLED_TIDE_TEXT}</p></section>` : raw("")) : html`<section class="no-tide" aria-labelledby="no-tide-title"><h3 id="no-tide-title">${NO_TIDE_TITLE}</h3><p>${NO_TIDE_TEXT}</p></section>`}
${dayTable}
<details${raw(highlight ? " open" : "")}><summary>Every 3-hour period (${c.periods.length})</summary>
<div class="table-wrap"><table>
<thead><tr><th>Period</th><th>Score</th><th>Visibility</th><th>Swell</th><th>Wind</th>${hasTide ? html`<th class="hide-sm">Tide</th>` : raw("")}</tr></thead>
<tbody>${periodRows}</tbody>
</table></div>
</details>
<p>Visibility is a ${c.data_quality.visibility_source ?? "unknown"} estimate; data freshness: ${c.data_quality.freshness ?? "unknown"}. ${hasTide ? `Tide heights are ${units === "metric" ? "metres" : "feet"} above MLLW. ` : ""}JSON: <a href="${ctx.links.conditions(spot.id)}">conditions for this spot</a>.</p>
<p>How good the visibility model is, region by region, against satellite observations: <a href="${ctx.links.base}${VALIDATION_PATH}">validation figures</a>.</p>
${creditsFooter(c.data_credits, c.attribution)}`;

  return { html: page({ title, head, body, homeUrl: ctx.links.base }), builtFor: forecast.now };
}
