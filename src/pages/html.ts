// HTML for the share and forecast pages: escaping, the one stylesheet, the page shell and the
// Content-Security-Policy that goes with it (nothing loads from elsewhere; the inline stylesheet is
// allowed by its hash, so no 'unsafe-inline').
import { createHash } from "node:crypto";
import { DISCLAIMER, type DataCredit } from "../base/attribution.js";
import { NO_DATA_COLOR, TIERS } from "../model/tiers.js";
import { esc } from "../services/render/escape.js";
import { inkOn, PALETTE } from "../services/render/palette.js";

/** A template tag whose interpolations are escaped unless wrapped in `raw()`. */
export class Raw {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}
export const raw = (s: string) => new Raw(s);
type Value = string | number | null | undefined | Raw | readonly (string | Raw)[];

export function html(strings: TemplateStringsArray, ...values: Value[]): Raw {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const part = Array.isArray(v) ? v.map((x) => (x instanceof Raw ? x.html : esc(x as string))).join("") : v instanceof Raw ? v.html : esc(v as string | number | null | undefined);
    out += part + strings[i + 1]!;
  });
  return new Raw(out);
}

/** One class per tier (`.tier-good`), generated from the tier table so colours are never restated. */
const TIER_CSS = [...TIERS.map((t) => ({ id: t.id, color: t.color })), { id: "none", color: NO_DATA_COLOR }].map((t) => `.tier-${t.id}{background:${t.color};color:${inkOn(t.color)}}`).join("\n");

/** The class for a tier id, or the "not rated" class. */
export function tierClass(rating: string | null): string {
  return `tier-${rating ?? "none"}`;
}

const PAGE_CSS = `
:root{--navy:${PALETTE.navy};--mist:${PALETTE.mist};--foam:${PALETTE.foam};--notice:${PALETTE.notice};--line:${PALETTE.grid}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#102030;background:#F4F7FA}
a{color:#0B5CAD}
header.top{background:var(--navy);color:var(--foam);padding:12px 16px}
header.top a{color:var(--foam);text-decoration:none;font-weight:700;letter-spacing:.08em;font-size:14px}
main{max-width:1180px;margin:0 auto;padding:16px}
h1{font-size:clamp(24px,5vw,36px);line-height:1.15;margin:8px 0 4px;overflow-wrap:anywhere}
h2{font-size:20px;margin:28px 0 8px}
.sub{color:#4A5B6E;margin:0 0 12px}
.card-img{display:block;width:100%;max-width:900px;height:auto;border-radius:12px;box-shadow:0 2px 12px rgba(11,31,51,.2)}
.headline{font-size:20px;font-weight:700;margin:16px 0 4px}
.notice{background:var(--notice);color:#fff;border-radius:10px;padding:10px 14px;margin:12px 0;max-width:900px}
.notice strong{display:block;font-size:18px}
.cta{display:inline-block;background:var(--navy);color:#fff;text-decoration:none;font-weight:700;padding:12px 18px;border-radius:10px;margin:8px 0}
.tier{display:inline-block;border-radius:6px;padding:0 8px;font-weight:700;white-space:nowrap}
ul.caveats{padding-left:20px;max-width:900px}
main p,main li,main dd{overflow-wrap:anywhere}
.now{background:#fff;border-radius:12px;padding:12px 16px;margin:12px 0;box-shadow:0 1px 4px rgba(11,31,51,.12)}
.chart{background:#fff;border-radius:12px;padding:8px;margin:12px 0;box-shadow:0 1px 4px rgba(11,31,51,.12);overflow-x:auto}
.swipe{display:none;font-size:13px;color:#4A5B6E;margin:4px 0 0}
@media (max-width:760px){.swipe{display:block}}
.chart svg{display:block;width:100%;min-width:720px;height:auto}
.forecast-chart text{font-family:inherit;fill:#2A3B4E}
.forecast-chart .day{font-size:14px}
.forecast-chart .day.hl{font-weight:700;fill:var(--navy)}
.forecast-chart .panel{font-size:13px;font-weight:600}
.forecast-chart .tick{font-size:11px;fill:#5B6B7F}
.forecast-chart .score,.forecast-chart .mark{font-size:11px}
.forecast-chart .score.on-light{fill:${PALETTE.navy};font-weight:700}
.forecast-chart .score.on-dark{fill:#FFFFFF;font-weight:700}
.forecast-chart .lbl{font-size:12px;fill:#5B6B7F}
.forecast-chart .no-tide-text{font-size:15px;fill:#2A3B4E}
.chart:focus-visible{outline:3px solid #0B5CAD;outline-offset:2px}
.region-map{margin:12px 0;max-width:720px}
.region-map svg{display:block;width:100%;height:auto;border-radius:12px;box-shadow:0 1px 4px rgba(11,31,51,.12)}
.region-map text{font-size:13px;font-weight:700;fill:#fff;stroke:none;font-family:inherit}
.region-map a:focus-visible circle{stroke:#FFB000;stroke-width:4}
.region-map figcaption{font-size:13px;color:#4A5B6E;margin-top:4px}
.no-tide{background:#fff;border-left:4px solid ${PALETTE.tide};border-radius:8px;padding:8px 14px;margin:12px 0;max-width:900px}
.no-tide h3{font-size:16px;margin:0 0 4px}
.no-tide p{margin:0}
.legend{display:flex;flex-wrap:wrap;gap:6px 14px;font-size:14px;margin:6px 0}
.legend span{display:inline-flex;align-items:center;gap:6px}
.legend i{display:inline-block;width:14px;height:14px;border-radius:3px}
.legend i.night{background:${PALETTE.night}}
.legend i.vis{height:3px;background:${PALETTE.visibility}}
.legend i.tide{height:3px;background:${PALETTE.tide}}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:#fff;font-size:14px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:#E9EFF5;font-weight:600}
tr.hl td{background:#FFF6D6}
td.num{font-variant-numeric:tabular-nums;white-space:nowrap}
details{margin:12px 0}
summary{cursor:pointer;font-weight:600}
footer.credits{font-size:13px;color:#4A5B6E;border-top:1px solid var(--line);margin-top:32px;padding-top:12px}
footer.credits p{margin:6px 0}
${TIER_CSS}
small.note{display:block;line-height:1.2;color:#7A2019}
.alt,small.sun{display:block;font-size:12px;line-height:1.3;color:#4A5B6E}
table.days td{min-width:4.5em}
table.days td.num{white-space:normal}
table.days td.tides{white-space:nowrap}
@media (max-width:600px){main{padding:12px}table{font-size:13px}th,td{padding:5px 5px}td.num{white-space:normal}.hide-sm{display:none}
table.days thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.days tr{display:grid;grid-template-columns:1fr 1fr;gap:2px 10px;padding:8px 0;border-bottom:1px solid var(--line)}
table.days td{display:block;border:0;padding:0;min-width:0}
table.days td.day{grid-column:1/-1;font-weight:600}
table.days td[data-label]::before{content:attr(data-label);display:block;font-size:11px;font-weight:600;color:#4A5B6E;text-transform:uppercase;letter-spacing:.04em}}
`;

const CSS_HASH = createHash("sha256").update(PAGE_CSS).digest("base64");

/** The policy for every HTML page: same-origin images only, the inline stylesheet by hash, no scripts. */
export const PAGE_CSP = ["default-src 'none'", "img-src 'self' data:", `style-src 'sha256-${CSS_HASH}'`, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join("; ");

export interface PageParts {
  title: string;
  /** Extra head elements (meta tags), already escaped. */
  head?: Raw;
  body: Raw;
  homeUrl: string;
}

/** A page's description, canonical address and Open Graph basics (the share page adds its image's tags). */
export function linkHead(p: { title: string; description: string; url: string }): Raw {
  return html`<meta name="description" content="${p.description}">
<link rel="canonical" href="${p.url}">
<meta property="og:type" content="website">
<meta property="og:title" content="${p.title}">
<meta property="og:description" content="${p.description}">
<meta property="og:url" content="${p.url}">`;
}

export function page(p: PageParts): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${p.title}</title>
<link rel="icon" href="data:,">
${p.head ?? raw("")}
<style>${raw(PAGE_CSS)}</style>
</head>
<body>
<header class="top"><a href="${p.homeUrl}">OCEAN CONDITIONS</a></header>
<main>
${p.body}
</main>
</body>
</html>
`.html;
}

/** Upstream credits (each linked, with its licence), the attribution and the disclaimer. */
export function creditsFooter(credits: readonly DataCredit[], attribution: Raw | string): Raw {
  return html`<footer class="credits">
<p>${attribution}</p>
${credits.map((c) => html`<p>${c.credit}. Source: <a href="${c.url}" rel="noopener">${c.provider}</a>. Licence: ${c.license}.</p>`)}
<p><strong>${DISCLAIMER}</strong></p>
</footer>`;
}
