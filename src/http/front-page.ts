// GET /: for a browser, a page saying what this is, where it covers (a world map of the regions and
// spots, drawn here as SVG), how to connect an AI assistant and where the docs are; for anything
// that does not ask for HTML, a small JSON index of the same links. Built once per process: nothing
// on it changes while the process runs.
import type { Express, Request, Response } from "express";
import { DISCLAIMER, SERVICE_NAME } from "../base/attribution.js";
import type { ServiceContext } from "../services/context.js";
import { MCP_PATH } from "../mcp/http.js";
import { PACKAGE } from "../base/package-info.js";
import { html, page, PAGE_CSP, type Raw } from "../pages/html.js";
import { MAP_COLORS } from "../services/render/palette.js";
import { landAsset, project } from "../pages/world-map.js";

/** The spot the page's examples use: tide station, no ranking needed, always in the catalogue. */
export const SAMPLE_SPOT = "hanauma-bay";

/** Map colours: a pale sea, grey-green land, spots in navy ringed white (over 3:1 on both). */

/** The links both forms of the front page give. */
export function frontLinks(ctx: ServiceContext) {
  const base = ctx.links.base;
  return {
    docs: ctx.links.docs,
    openapi: ctx.links.openapi,
    mcp: `${base}${MCP_PATH}`,
    coverage: `${base}/api/v1/coverage`,
    spots: `${base}/api/v1/spots`,
    example_conditions: ctx.links.conditions(SAMPLE_SPOT),
    example_forecast_page: ctx.links.spotPage(SAMPLE_SPOT),
    server_card: `${base}/.well-known/mcp/server-card.json`,
    project: PACKAGE.homepage,
  };
}

/** The JSON index: what this is, its links, how much it covers, and the source object. */
export function frontIndex(ctx: ServiceContext) {
  return {
    name: SERVICE_NAME,
    description: PACKAGE.description,
    version: PACKAGE.version,
    links: frontLinks(ctx),
    coverage: { regions: ctx.catalog.regions.length, spots: ctx.catalog.spots.length },
    source: ctx.source,
  };
}

function worldMap(ctx: ServiceContext): Raw {
  const land = landAsset();
  const regions = ctx.catalog.regions.map((r) => {
    const dots = r.spots.map((s) => {
      const [x, y] = project(s.lon, s.lat);
      return html`<circle cx="${x}" cy="${y}" r="5"/>`;
    });
    return html`<g><title>${r.name}: ${r.spots.length} ${r.spots.length === 1 ? "spot" : "spots"}</title>${dots}</g>`;
  });
  const spots = ctx.catalog.spots.length;
  return html`<svg viewBox="0 0 ${land.width} ${land.height}" width="100%" role="img" aria-labelledby="map-title map-desc" xmlns="http://www.w3.org/2000/svg">
<title id="map-title">World map of the covered spots</title>
<desc id="map-desc">${spots} spots in ${ctx.catalog.regions.length} regions, each a dot: ${ctx.catalog.regions.map((r) => r.name).join("; ")}.</desc>
<rect width="${land.width}" height="${land.height}" fill="${MAP_COLORS.sea}"/>
<path d="${land.d}" fill="${MAP_COLORS.land}" stroke="${MAP_COLORS.coast}" stroke-width="0.6"/>
<g fill="${MAP_COLORS.spot}" stroke="${MAP_COLORS.ring}" stroke-width="1.5">${regions}</g>
</svg>`;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The HTML front page. */
export function frontPage(ctx: ServiceContext): string {
  const links = frontLinks(ctx);
  const { regions, spots } = ctx.catalog;
  const hostConfig = JSON.stringify({ mcpServers: { "ocean-conditions": { type: "http", url: links.mcp } } }, null, 2);
  const regionRows = regions.map(
    (r) =>
      html`<tr><td><a href="${ctx.links.regionPage(r.id)}">${r.name}</a></td><td class="num">${r.spots.length}</td><td>${r.decision_support === "full" ? "ranked" : "facts only"}</td><td><a href="${ctx.links.spotPage(r.spots[0]!.id)}">${r.spots[0]!.name}</a></td></tr>`,
  );
  const body = html`<h1>${SERVICE_NAME}</h1>
<p class="sub">${PACKAGE.description}</p>
<p>For ${spots.length} named dive and snorkel spots it forecasts underwater visibility, swell at the spot,
wind, tide and water temperature for the next 7 days, with a 0–100 condition score, a confidence and a
plain reason, and says which spot and day suit an activity among the spots whose typical visibility is calibrated.
Every answer names where its numbers came from. It answers three ways: a REST API, an MCP server for
AI assistants, and pages like the <a href="${links.example_forecast_page}">Hanauma Bay forecast</a>.</p>
<div class="notice"><strong>Estimates for planning only</strong>${capitalised(DISCLAIMER.replace(/^Estimates for planning only:?\s*/, ""))}</div>

<section aria-labelledby="where">
<h2 id="where">Where it covers</h2>
<figure class="now">${worldMap(ctx)}
<figcaption>${spots.length} spots in ${regions.length} regions. Land: Natural Earth (public domain).</figcaption></figure>
<details>
<summary>The ${regions.length} regions: each one's page says where to go today and tomorrow</summary>
<div class="table-wrap"><table>
<caption class="sub">Ranked regions recommend spots and days; the others give the facts only.</caption>
<thead><tr><th scope="col">Region</th><th scope="col">Spots</th><th scope="col">Decisions</th><th scope="col">A forecast page</th></tr></thead>
<tbody>${regionRows}</tbody>
</table></div>
</details>
<p>Every region and spot as JSON: <a href="${links.coverage}">coverage</a> · <a href="${links.spots}">spots</a>.</p>
</section>

<section aria-labelledby="try">
<h2 id="try">Try it</h2>
<ul>
<li>A forecast page: <a href="${links.example_forecast_page}">Hanauma Bay, the next 7 days</a></li>
<li>The same facts as JSON: <a href="${links.example_conditions}">/api/v1/conditions?spot=${SAMPLE_SPOT}</a></li>
<li>The API reference: <a href="${links.docs}">/docs</a>, the <a href="${links.openapi}">OpenAPI document</a>, and the API's index of endpoints at <a href="${ctx.links.base}/api/v1/">/api/v1/</a></li>
</ul>
</section>

<section aria-labelledby="mcp">
<h2 id="mcp">Connect an AI assistant (MCP)</h2>
<p>Add a remote MCP server (a “custom connector”) with this URL; no key is needed:</p>
<p><code>${links.mcp}</code></p>
<p>Or, in a desktop host's configuration file:</p>
<div class="table-wrap" tabindex="0" role="region" aria-label="Host configuration (scrolls sideways on a narrow screen)"><pre><code>${hostConfig}</code></pre></div>
<p>Then ask it “what will the water be like at Hanauma Bay tomorrow?”. Tools, versions and the card view:
<a href="${PACKAGE.homepage.replace(/#.*$/, "")}/blob/main/docs/mcp.md">docs/mcp.md</a>.</p>
</section>

<section aria-labelledby="docs">
<h2 id="docs">Documentation</h2>
<ul>
<li><a href="${links.docs}">API reference</a> (served here)</li>
<li><a href="${links.project}">Project README</a>: running it, data sources, how the numbers are made</li>
</ul>
</section>

<footer class="credits"><p>${SERVICE_NAME} ${PACKAGE.version}. Map land outline: Natural Earth 1:110m (public domain).</p><p><strong>${DISCLAIMER}</strong></p></footer>`;
  return page({ title: `${SERVICE_NAME}: dive and snorkel conditions`, body, homeUrl: ctx.links.base });
}

/** Registers GET / (one line in app.ts). */
export function registerFrontPage(app: Express, ctx: ServiceContext): void {
  let built: { html: string; json: string } | undefined;
  app.get("/", (req: Request, res: Response) => {
    built ??= { html: frontPage(ctx), json: JSON.stringify(frontIndex(ctx)) };
    res.setHeader("Vary", "Accept");
    res.setHeader("Cache-Control", "public, max-age=3600");
    // A browser asks for HTML by name; curl (*/*) and API clients get the JSON index.
    if (/\btext\/html\b/.test(req.get("accept") ?? "")) {
      res.setHeader("Content-Security-Policy", PAGE_CSP);
      res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
      res.status(200).type("text/html; charset=utf-8").send(built.html);
    } else {
      res.status(200).type("application/json").send(built.json);
    }
  });
}
