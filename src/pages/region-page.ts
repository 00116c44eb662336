// The region page (/regions/{region}): for a person choosing where to go in one region, which spot
// suits each activity today and tomorrow (the same picks recommend_spot gives, with their reason),
// every rule that keeps a spot out of an activity beside those picks, and every spot of the region
// with what stands behind its ranking, each linked to its forecast page. No script; readable on a phone.
import { ACTIVITIES, type Activity } from "../base/activities.js";
import { SERVICE_NAME, unionCredits } from "../base/attribution.js";
import { hourFloor } from "../base/clock.js";
import { closureOn } from "../catalog/access.js";
import type { Region, Spot } from "../catalog/catalog.js";
import { ruleOf } from "../catalog/regulations.js";
import type { ServiceContext } from "../services/context.js";
import { EXCLUSION_HEADINGS, notRankedSentence, ruleExclusions } from "../decisions/response.js";
import { ServiceError, type ErrorCode } from "../base/errors.js";
import { TIERS } from "../model/tiers.js";
import type { RecommendationJson } from "../schemas/decisions.js";
import { addDays, localDate } from "../base/zone.js";
import { suggestRegions, didYouMean } from "../catalog/suggest.js";
import { recommendSpot } from "../answers/recommend-spot.js";
import { creditsFooter, html, linkHead, page, raw, tierClass, type Raw } from "./html.js";
import { M_PER_FT } from "../model/visibility.js";
import { defaultUnits, unitSwitch, type Units } from "./units.js";
import { projectInFrame, regionFrame, regionMapsAsset } from "./world-map.js";
import { MAP_COLORS } from "../services/render/palette.js";

/** Every code the region page can refuse with: an unknown region, or the picks' own failures. */
export const REGION_PAGE_ERRORS = ["not_found", "data_unavailable", "unavailable"] as const satisfies readonly ErrorCode[];

/** The activities a region page ranks: every one the service models (surfing is not). */
const PAGE_ACTIVITIES: readonly Activity[] = ACTIVITIES.filter((a) => a.model !== "unsupported");

export interface RenderedRegionPage {
  html: string;
  /** The data hour the picks were made in. */
  builtFor: Date;
}

export function regionOrThrow(ctx: Pick<ServiceContext, "catalog">, id: string): Region {
  const region = ctx.catalog.region(id);
  if (region) return region;
  throw new ServiceError(
    "not_found",
    `No region has id ${JSON.stringify(id)}.${didYouMean(suggestRegions(ctx.catalog, id).map((r) => r.id))} The regions are listed on the front page and by /api/v1/coverage.`,
  );
}

/** What keeps a spot out of an activity or limits it, whatever the water: closures, protected areas, depth. */
function spotRules(spot: Spot, ctx: Pick<ServiceContext, "regulations">): string[] {
  const rules: string[] = [];
  for (const a of spot.access) rules.push(a.rule.replace(/\.$/, ""));
  if (ctx.regulations.readable) {
    for (const area of ctx.regulations.areasFor(spot.id)) {
      rules.push(area.designation === "closed_to_spearfishing" ? `${area.name}: closed to spearfishing` : `${area.name}: ${ruleOf(area).rule}`);
    }
  } else {
    rules.push("Protected areas could not be checked just now");
  }
  for (const [activity, u] of Object.entries(spot.unsuited)) rules.push(`Not for ${activity}: ${u!.note.replace(/\.$/, "")}`);
  return rules;
}

/**
 * The region's spots on its coast: the checked-in 1:10m land clipped to the region (data/map), each
 * spot a numbered dot linking its forecast page, numbered as in the spot list.
 */
function regionMap(region: Region, ctx: Pick<ServiceContext, "links">): Raw {
  const asset = regionMapsAsset().regions[region.id];
  const frame = asset?.frame ?? regionFrame(region.bbox);
  const dots = region.spots.map((s, i) => {
    const [x, y] = projectInFrame(frame, s.lon, s.lat);
    return html`<a href="${ctx.links.spotPage(s.id)}" aria-label="${i + 1}. ${s.name}"><title>${i + 1}. ${s.name}</title><circle cx="${x}" cy="${y}" r="11"/><text x="${x}" y="${Math.round((y + 4) * 10) / 10}" text-anchor="middle">${i + 1}</text></a>`;
  });
  return html`<figure class="region-map"><svg viewBox="0 0 ${frame.width} ${frame.height}" role="group" aria-labelledby="rmap-title" xmlns="http://www.w3.org/2000/svg">
<title id="rmap-title">Map of the ${region.spots.length} spots in ${region.name}</title>
<rect width="${frame.width}" height="${frame.height}" fill="${MAP_COLORS.sea}"/>
${asset ? html`<path d="${asset.d}" fill="${MAP_COLORS.land}" stroke="${MAP_COLORS.coast}" stroke-width="0.8"/>` : raw("")}
<g fill="${MAP_COLORS.spot}" stroke="${MAP_COLORS.ring}" stroke-width="1.5">${dots}</g>
</svg><figcaption>Each number is a spot in the list below; tap one for its forecast. Coastline: Natural Earth 1:10m, generalised (small islands and coves may not show); spot positions are the catalogue's own.</figcaption></figure>`;
}

/** Excluded spots' names grouped by reason, in the order the reasons first appear. */
function byReason(excluded: RecommendationJson["considered"]["excluded"]): [keyof typeof EXCLUSION_HEADINGS, string[]][] {
  const groups = new Map<keyof typeof EXCLUSION_HEADINGS, string[]>();
  for (const e of excluded) groups.set(e.reason, [...(groups.get(e.reason) ?? []), e.spot.name]);
  return [...groups];
}

/** One activity's answer for one day: the top pick with its reason, or why there is none. */
function pickLine(r: RecommendationJson, ctx: Pick<ServiceContext, "links">): Raw {
  const top = r.picks[0];
  if (!top) return html`<span>${r.message ?? "No spot could be judged for this day."}</span>`;
  const tier = TIERS.find((t) => t.id === top.rating);
  const window = `${top.best_window.start_local}–${top.best_window.end_local}`;
  return html`<a href="${ctx.links.spotPage(top.spot.id, r.date, r.activity.id)}">${top.spot.name}</a>
<span class="tier ${tierClass(top.rating)}">${tier ? `${tier.label} ${top.score}` : String(top.score)}</span> ${window} · confidence ${top.confidence.label}
<br><small>${top.why.summary}</small>`;
}

export async function regionPage(
  regionId: string,
  ctx: Pick<ServiceContext, "catalog" | "clock" | "forecasts" | "links" | "regulations" | "source" | "validation">,
  chosen: Units | null = null,
): Promise<RenderedRegionPage> {
  const region = regionOrThrow(ctx, regionId);
  const units = chosen ?? defaultUnits(region.country);
  const depth = (m: number) => (units === "metric" ? `${m}` : `${Math.round(m / M_PER_FT)}`);
  const today = localDate(ctx.clock.now(), region.timezone);
  const days = [today, addDays(today, 1)];
  const answers = await Promise.all(PAGE_ACTIVITIES.map(async (a) => ({ activity: a, days: await Promise.all(days.map((date) => recommendSpot({ region: region.id, activity: a.id, date }, ctx))) })));
  const failed = answers.flatMap((a) => a.days).find((r) => r.status === "no_data");
  if (failed && answers.every((a) => a.days.every((r) => r.status === "no_data"))) {
    throw new ServiceError("data_unavailable", failed.message ?? "No forecast data for this region just now.");
  }
  const ranked = region.decision_support === "full";

  const activitySections = answers.map(({ activity, days: rs }) => {
    // The rules are the same whichever day; closures by date are said per day.
    const rules = ruleExclusions(rs[0]!.considered.excluded).filter((e) => e.reason !== "closed_on_date");
    const closedByDay = rs.map((r) => ruleExclusions(r.considered.excluded).filter((e) => e.reason === "closed_on_date"));
    return html`<section aria-labelledby="act-${activity.id}">
<h3 id="act-${activity.id}">${activity.label}</h3>
<ul class="picks">${rs.map((r, i) => html`<li><strong>${r.date_label}</strong>: ${pickLine(r, ctx)}${closedByDay[i]!.length > 0 ? html`<br><small class="note">Closed this day: ${closedByDay[i]!.map((e) => e.spot.name).join(", ")}</small>` : raw("")}</li>`)}</ul>
${rules.length > 0 ? html`<p class="rules"><strong>Not considered for ${activity.label.toLowerCase()}, whatever the water</strong> (each spot's rule is in the table below): ${byReason(rules).map(([reason, names], i) => html`${i > 0 ? "; " : ""}${EXCLUSION_HEADINGS[reason].toLowerCase()}: ${names.join(", ")}`)}.</p>` : raw("")}
</section>`;
  });

  const spotRows = region.spots.map((s, i) => {
    const rules = spotRules(s, ctx);
    const closedToday = closureOn(s.access, today);
    const standing = s.ranked
      ? `Ranked: typical visibility calibrated${s.band.publishers > 0 ? ` to ${s.band.publishers} ${s.band.publishers === 1 ? "publisher's" : "publishers'"} figures` : ""}`
      : !s.levelCalibrated
        ? "Not ranked: typical visibility estimated"
        : "Not ranked: the region gives facts only";
    return html`<tr>
<td>${i + 1}. <a href="${ctx.links.spotPage(s.id)}">${s.name}</a>${closedToday ? html`<br><small class="note">Closed today</small>` : raw("")}</td>
<td class="hide-sm">${s.entry.join(", ")}</td>
<td class="num hide-sm">${depth(s.typical_depth_m)}–${depth(s.max_depth_m)} ${units === "metric" ? "m" : "ft"}</td>
<td>${standing}${s.coord.confidence === "approximate" ? html`<br><small>Position approximate</small>` : raw("")}</td>
<td>${rules.length === 0 ? "None recorded" : rules.map((r, i) => html`${i > 0 ? html`<br>` : ""}${r}`)}</td>
</tr>`;
  });

  const credits = unionCredits(answers.flatMap((a) => a.days.map((r) => r.data_credits)));
  const title = `${region.name}: where to snorkel, dive, freedive and spearfish today and tomorrow`;
  const description = `The spot that suits each activity in ${region.name} today and tomorrow, the rules that keep spots out, and the ${region.spots.length} spots' forecasts.`;
  const head = linkHead({ title, description, url: ctx.links.regionPage(region.id) });

  const body = html`<h1>${region.name}</h1>
<p class="sub">${region.spots.length} ${region.spots.length === 1 ? "spot" : "spots"} · times in ${region.timezone} · ${ranked ? "spots ranked where their typical visibility is calibrated" : "facts only"} · ${unitSwitch(units, (u) => ctx.links.regionPage(region.id, u))}</p>
${ranked ? raw("") : html`<div class="notice" role="note"><strong>Not ranked</strong>${notRankedSentence(region.name)} Each spot's forecast page gives its facts; the rules below still apply.</div>`}
<h2>Best spot by activity</h2>
<p class="sub">The best daylight window at the top spot, from the same ranking the API and AI assistants get. Tap a spot for its 7 days.</p>
${activitySections}
<h2>Spots</h2>
${regionMap(region, ctx)}
<div class="table-wrap"><table>
<thead><tr><th scope="col">Spot</th><th scope="col" class="hide-sm">Entry</th><th scope="col" class="hide-sm">Depth</th><th scope="col">Ranking</th><th scope="col">Rules</th></tr></thead>
<tbody>${spotRows}</tbody>
</table></div>
<p>JSON: <a href="${ctx.links.base}/api/v1/spots?region=${encodeURIComponent(region.id)}">spots in this region</a> · <a href="${ctx.links.base}/api/v1/recommendations?region=${encodeURIComponent(region.id)}&amp;activity=snorkel">snorkeling picks</a>.</p>
${creditsFooter(credits, `Picks by ${SERVICE_NAME} (${ctx.links.base}), using ${credits.map((c) => c.provider).join("; ")}.`)}`;

  return { html: page({ title, head, body, homeUrl: ctx.links.base }), builtFor: hourFloor(ctx.clock.now()) };
}
