// The share page behind card.links.share: Open Graph and Twitter tags so chat and social apps show
// the card image as the link preview, and for a person who opens it, the card, its reason, the
// caveats to relay, a link to the 7-day forecast, the credits and the disclaimer.
import { DAY_PASSED, type SpotDay } from "../decisions/spot-day.js";
import type { ServiceContext } from "../services/context.js";
import { CARD_HEIGHT, CARD_WIDTH } from "../services/render/card-size.js";
import { SERVICE_NAME } from "../base/attribution.js";
import { cardImageModel } from "../services/render/card-image.js";
import { creditsFooter, html, linkHead, page, raw } from "./html.js";

/** Path and query of an absolute URL on this service, so the page's own image loads same-origin. */
function localPath(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

export function sharePage(day: SpotDay, ctx: Pick<ServiceContext, "links">): string {
  const c = day.card;
  const m = cardImageModel(day);
  const doing = day.activity ? ` for ${day.activity.label.toLowerCase()}` : "";
  const rating = c.score === null ? c.tier_label : `${c.tier_label} (${c.score}/100)`;
  const title = day.notice ? `${c.spot_name}: ${day.notice.title}, ${m.dateText}` : `${c.spot_name}: ${rating}${doing}, ${m.dateText}`;
  const summary = [
    day.notice ? day.notice.text : c.headline,
    c.metrics.visibility && `Visibility ${c.metrics.visibility}`,
    c.metrics.swell && `swell ${c.metrics.swell}`,
    c.metrics.wind && `wind ${c.metrics.wind}`,
  ]
    .filter(Boolean)
    .join(" · ");
  const description = day.why ? `${summary}. ${day.why}` : summary;
  const alt = `${SERVICE_NAME} card: ${title}. ${summary}.`;
  // A day that has passed links the spot's current forecast, not the day.
  const passed = day.notice?.code === DAY_PASSED;
  const forecastForDay = passed ? ctx.links.spotPage(c.spot_id) : ctx.links.spotPage(c.spot_id, c.date, c.activity);

  const head = html`${linkHead({ title, description, url: c.links.share })}
<meta property="og:site_name" content="${SERVICE_NAME}">
<meta property="og:image" content="${c.image_url}">
<meta property="og:image:type" content="image/png">
<meta property="og:image:width" content="${CARD_WIDTH}">
<meta property="og:image:height" content="${CARD_HEIGHT}">
<meta property="og:image:alt" content="${alt}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${title}">
<meta name="twitter:description" content="${description}">
<meta name="twitter:image" content="${c.image_url}">
<meta name="twitter:image:alt" content="${alt}">`;

  const body = html`<h1>${c.spot_name}</h1>
<p class="sub">${[c.region_name, m.dateText, day.activity?.label ?? "General conditions"].filter(Boolean).join(" · ")}</p>
<img class="card-img" src="${localPath(c.image_url)}" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" alt="${alt}">
${day.notice ? html`<div class="notice" role="note"><strong>${day.notice.title}</strong>${day.notice.text}</div>` : raw("")}
${c.headline && !day.notice ? html`<p class="headline">${c.headline}</p>` : raw("")}
${day.why ? html`<p>${day.why}</p>` : raw("")}
${day.caveats.length > 0 ? html`<ul class="caveats">${day.caveats.map((k) => html`<li>${k.message}</li>`)}</ul>` : raw("")}
<p><a class="cta" href="${forecastForDay}">${c.cta.label}</a></p>
<p>${c.cta.text} Times are local to the spot (${day.spot.timezone}). Other spots nearby: <a href="${ctx.links.regionPage(day.spot.region.id)}">${day.spot.region.name}</a>.</p>
${creditsFooter(day.credits, html`<a href="${ctx.links.base}">${c.attribution}</a>`)}`;

  return page({ title, head, body, homeUrl: ctx.links.base });
}

/** A small HTML page for errors on page routes (unknown spot → 404 and so on). */
export function errorPage(status: number, heading: string, detail: string, ctx: Pick<ServiceContext, "links">): string {
  const body = html`<h1>${heading}</h1>
<p>${detail}</p>
<p>Every region, each with its page of spots, is listed on the <a href="${ctx.links.base}/">front page</a>; as JSON at <a href="${ctx.links.base}/api/v1/spots">/api/v1/spots</a>.</p>`;
  return page({ title: `${status} ${heading} · ${SERVICE_NAME}`, body, homeUrl: ctx.links.base });
}
