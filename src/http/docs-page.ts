// GET /docs: the developer docs page (the `docs` URL in `source` and the Link header). A short
// introduction (what the service is, the MCP URL, keys, the disclaimer) above an API reference
// rendered here, on the server, from the same OpenAPI document /openapi.json serves: every
// operation with its parameters and responses, and every schema. Plain HTML and one stylesheet
// from this process: no script, no CDN, works offline, readable on a phone and by a screen reader
// (axe-core finds nothing serious in Chromium). An interactive console was dropped for that: each
// GET operation links an example request instead.
import { createHash } from "node:crypto";
import type { Express, Request, Response } from "express";
import { DISCLAIMER, SERVICE_NAME } from "../base/attribution.js";
import type { ServiceContext } from "../services/context.js";
import { DISCOVERY } from "../mcp/discovery.js";
import { TOOLS } from "../mcp/server.js";
import { esc } from "../services/render/escape.js";
import { html, raw, type Raw } from "../pages/html.js";
import { CompressedBody } from "../web/compressed.js";
import { API_SUMMARY, openApiDocument } from "./openapi.js";

const DOCS_CSS = `body{margin:0;background:#fafafa;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#102030;line-height:1.5}
header.top{background:#0B1F33;color:#F4F7FA;padding:12px 20px;display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}
header.top a{color:#F4F7FA;text-decoration:none;font-weight:700;letter-spacing:.08em;font-size:14px}
header.top span{font-size:14px}
a{color:#0B5CAD}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#E9EFF5;border-radius:4px;padding:1px 5px;font-size:.88em;overflow-wrap:anywhere}
main{width:calc(100% - 40px);max-width:1180px;margin:0 auto;padding:0 0 40px;box-sizing:border-box}
h1{font-size:clamp(22px,5vw,30px);line-height:1.2;margin:20px 0 4px}
.intro{margin:16px 0 0;padding:14px 20px;box-sizing:border-box;background:#fff;border:1px solid #D8E1EA;border-radius:8px}
.intro h2{font-size:18px;margin:0 0 8px}
.intro p{margin:6px 0}
.intro dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:8px 0;font-size:15px}
.intro dt{font-weight:600}
.intro dd{margin:0;overflow-wrap:anywhere}
.intro .disclaimer{font-weight:600}
nav.toc{margin:20px 0;padding:12px 20px;background:#fff;border:1px solid #D8E1EA;border-radius:8px}
nav.toc h2{font-size:18px;margin:0 0 6px}
nav.toc .groups{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:0 24px}
nav.toc p{margin:8px 0 2px}
nav.toc ul{margin:2px 0;padding-left:20px}
nav.toc li{margin:2px 0;overflow-wrap:anywhere}
section.tag > h2{font-size:22px;margin:32px 0 4px;padding-bottom:4px;border-bottom:2px solid #D8E1EA;text-transform:capitalize}
section.tag > p{margin:4px 0 12px;color:#33475B}
section.op{background:#fff;border:1px solid #D8E1EA;border-left:6px solid #0B5CAD;border-radius:8px;padding:10px 18px;margin:14px 0}
section.op.post{border-left-color:#1E6B34}
section.op h3{font-size:18px;margin:4px 0;display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline}
section.op h3 code{background:none;padding:0;font-size:17px}
section.op h4{font-size:15px;margin:12px 0 4px}
section.op p{margin:6px 0;overflow-wrap:anywhere}
.method{display:inline-block;min-width:48px;text-align:center;border-radius:4px;padding:1px 8px;font-size:14px;font-weight:700;color:#fff;background:#0B5CAD}
.method.post{background:#1E6B34}
.meta{color:#3F5266;font-size:14px}
ul.fields{list-style:none;margin:4px 0;padding:0}
ul.fields li{padding:6px 0;border-top:1px solid #E3E9EF;overflow-wrap:anywhere}
ul.fields li:first-child{border-top:0}
ul.fields ul.fields{margin:4px 0 0 16px;border-left:2px solid #E3E9EF;padding-left:10px}
.type{color:#3F5266;font-size:14px}
.req{color:#8A1C14;font-size:13px;font-weight:600}
section.schema{background:#fff;border:1px solid #D8E1EA;border-radius:8px;padding:8px 16px;margin:10px 0}
section.schema h3{font-size:17px;margin:4px 0;overflow-wrap:anywhere}
section.schema p{margin:4px 0}
a:focus-visible{outline:3px solid #0B5CAD;outline-offset:2px}
@media (max-width:600px){main{width:calc(100% - 24px)}.intro{padding:12px}.intro dl{grid-template-columns:1fr}.intro dd{margin-bottom:6px}section.op{padding:8px 12px}}
`;

interface Asset {
  /** Content-hashed file name: the URL never changes meaning, so it may be cached for a year. */
  name: string;
  type: string;
  body: Buffer;
}

function asset(base: string, ext: string, type: string, body: Buffer): Asset {
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 12);
  return { name: `${base}.${hash}.${ext}`, type, body };
}

const DOCS_ASSETS: readonly Asset[] = [asset("docs", "css", "text/css; charset=utf-8", Buffer.from(DOCS_CSS))];

/** The docs page's policy: its own stylesheet only, no script at all. */
export function docsCsp(): string {
  return ["default-src 'none'", "style-src 'self'", "img-src 'self' data:", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join("; ");
}

// --- the reference, from the OpenAPI document ---

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" ? (v as Json) : {});

/** Text from the document: escaped, with `code` spans, paragraphs at blank lines. */
function prose(s: unknown): Raw {
  if (typeof s !== "string" || s === "") return raw("");
  return raw(
    s
      .split(/\n{2,}/)
      .map((para) => `<p>${esc(para).replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`)
      .join(""),
  );
}

/** Inline text (no paragraphs). */
function inline(s: unknown): Raw {
  return typeof s === "string" ? raw(esc(s).replace(/`([^`]+)`/g, "<code>$1</code>")) : raw("");
}

const schemaId = (name: string) => `schema-${name}`;
const refName = (ref: string) => ref.split("/").pop()!;

/** A schema's type in a few words, with links to named schemas. */
function typeOf(schemaIn: unknown): Raw {
  const s = obj(schemaIn);
  if (typeof s.$ref === "string") {
    const name = refName(s.$ref);
    return html`<a href="#${schemaId(name)}">${name}</a>`;
  }
  const alts = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(alts)) return raw(alts.map((a) => typeOf(a).html).join(" or "));
  if ("const" in s) return html`<code>${JSON.stringify(s.const)}</code>`;
  if (Array.isArray(s.enum)) return raw(`one of ${s.enum.map((v) => `<code>${esc(String(v))}</code>`).join(", ")}`);
  const type = Array.isArray(s.type) ? s.type.join(" or ") : typeof s.type === "string" ? s.type : "any";
  if (type === "array") return raw(`array of ${typeOf(s.items).html}`);
  const bounds = [
    typeof s.format === "string" ? s.format : null,
    typeof s.minimum === "number" && Math.abs(s.minimum) < 1e12 ? `≥ ${s.minimum}` : null,
    typeof s.exclusiveMinimum === "number" ? `> ${s.exclusiveMinimum}` : null,
    typeof s.maximum === "number" && Math.abs(s.maximum) < 1e12 ? `≤ ${s.maximum}` : null,
    typeof s.maxLength === "number" ? `≤ ${s.maxLength} chars` : null,
  ].filter(Boolean);
  return html`${type}${bounds.length > 0 ? ` (${bounds.join(", ")})` : ""}`;
}

/** An object schema's properties (and nested inline objects, a few levels deep). */
function fields(schemaIn: unknown, depth = 0): Raw {
  const s = obj(schemaIn);
  const inner = Array.isArray(s.anyOf) ? (s.anyOf as unknown[]).map(obj).find((a) => a.type === "object" && a.properties) : null;
  const target = inner ?? s;
  const props = obj(target.properties);
  const required = new Set(Array.isArray(target.required) ? (target.required as string[]) : []);
  const names = Object.keys(props);
  if (names.length === 0) return raw("");
  return html`<ul class="fields">${names.map((name) => {
    const p = obj(props[name]);
    const nested = depth < 3 && (p.properties || (Array.isArray(p.anyOf) && (p.anyOf as unknown[]).some((a) => obj(a).properties)) || obj(p.items).properties);
    return html`<li><code>${name}</code> <span class="type">${typeOf(p.type === "object" && p.properties ? { type: "object" } : p)}</span>${required.has(name) ? html` <span class="req">required</span>` : raw("")}${
      p.description ? html` — ${inline(p.description)}` : raw("")
    }${nested ? fields(obj(p.items).properties ? p.items : p, depth + 1) : raw("")}</li>`;
  })}</ul>`;
}

function operationSection(path: string, method: string, opIn: unknown, base: string): Raw {
  const op = obj(opIn);
  const id = String(op.operationId);
  const params = (op.parameters as unknown[] | undefined)?.map(obj) ?? [];
  const responses = obj(op.responses);
  const keyed = Array.isArray(op.security) && !(op.security as unknown[]).some((x) => Object.keys(obj(x)).length === 0);
  const example = method === "get" && !path.includes("{") && !params.some((p) => p.required) ? `${base}${path}` : null;
  const body = obj(obj(obj(op.requestBody).content)["application/json"]).schema;
  return html`<section class="op ${method}" id="op-${id}" aria-labelledby="op-${id}-h">
<h3 id="op-${id}-h"><span class="method ${method}">${method.toUpperCase()}</span> <code>${path}</code></h3>
<p class="meta">operationId <code>${id}</code>${keyed ? " · needs a key" : ""}</p>
<p><strong>${inline(op.summary)}</strong></p>
${prose(op.description)}
${params.length > 0 ? html`<h4>Parameters</h4><ul class="fields">${params.map((p) => html`<li><code>${String(p.name)}</code> <span class="type">${String(p.in)} · ${typeOf(p.schema)}</span>${p.required ? html` <span class="req">required</span>` : raw("")}${p.description ? html` — ${inline(p.description)}` : raw("")}</li>`)}</ul>` : raw("")}
${body ? html`<h4>Request body</h4><p>JSON: ${typeOf(body)}</p>` : raw("")}
<h4>Responses</h4>
<ul class="fields">${Object.entries(responses).map(([status, rIn]) => {
    const r = obj(rIn);
    const content = obj(r.content);
    const types = Object.entries(content).map(([mime, c]) => html`<code>${mime}</code> ${typeOf(obj(c).schema)}`);
    return html`<li><code>${status}</code> ${inline(r.description)}${types.length > 0 ? html`<br><span class="type">${raw(types.map((t) => t.html).join("; "))}</span>` : raw("")}</li>`;
  })}</ul>
${example ? html`<p>Example: <a href="${example}">GET ${path}</a></p>` : raw("")}
</section>`;
}

/** The reference part of the page: contents, operations by tag, then every named schema. */
export function referenceHtml(doc: Json, base: string): Raw {
  const paths = obj(doc.paths);
  const tags = ((doc.tags as unknown[] | undefined) ?? []).map(obj);
  const ops = Object.entries(paths).flatMap(([path, methods]) => Object.entries(obj(methods)).map(([method, op]) => ({ path, method, op: obj(op) })));
  const byTag = tags.map((t) => ({ tag: t, ops: ops.filter((o) => (o.op.tags as string[] | undefined)?.[0] === t.name) }));
  const schemas = obj(obj(doc.components).schemas);
  return html`<nav class="toc" aria-labelledby="toc-h"><h2 id="toc-h">Operations</h2>
<div class="groups">${byTag.map(({ tag, ops: list }) => html`<div><p><a href="#tag-${String(tag.name)}"><strong>${String(tag.name)}</strong></a></p><ul>${list.map((o) => html`<li><a href="#op-${String(o.op.operationId)}">${o.method.toUpperCase()} ${o.path}</a></li>`)}</ul></div>`)}
<div><p><a href="#schemas"><strong>Schemas</strong></a> (${Object.keys(schemas).length})</p></div></div>
</nav>
${byTag.map(
  ({
    tag,
    ops: list,
  }) => html`<section class="tag" id="tag-${String(tag.name)}" aria-labelledby="tag-${String(tag.name)}-h"><h2 id="tag-${String(tag.name)}-h">${String(tag.name)}</h2>${prose(tag.description)}
${list.map((o) => operationSection(o.path, o.method, o.op, base))}</section>`,
)}
<section class="tag" id="schemas" aria-labelledby="schemas-h"><h2 id="schemas-h">Schemas</h2><p>The objects the operations return, as in <code>components.schemas</code>.</p>
${Object.entries(schemas).map(([name, sIn]) => {
  const sch = obj(sIn);
  return html`<section class="schema" id="${schemaId(name)}" aria-labelledby="${schemaId(name)}-h"><h3 id="${schemaId(name)}-h">${name}</h3>${prose(sch.description)}<p class="type">${typeOf(sch.type === "object" ? { type: "object" } : sch)}</p>${fields(sch)}</section>`;
})}
</section>`;
}

export function registerDocsPage(app: Express, ctx: ServiceContext): void {
  // Links are written as paths under the public address, so a deployment behind a path prefix works.
  const prefix = new URL(ctx.links.base).pathname.replace(/\/$/, "");
  const assetUrl = (a: Asset) => `${prefix}/docs/assets/${a.name}`;
  const csp = docsCsp();
  let page: CompressedBody | null = null;

  const render = () => {
    const base = ctx.links.base;
    const doc = openApiDocument(base, ctx.config.auth.mode) as Json;
    return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${SERVICE_NAME} API: developer docs</title>
<link rel="icon" href="data:,">
${DOCS_ASSETS.map((a) => html`<link rel="stylesheet" href="${assetUrl(a)}">`)}
</head>
<body>
<header class="top"><a href="${base}">OCEAN CONDITIONS</a><span>Developer docs</span></header>
<main id="reference">
<h1>${SERVICE_NAME} API reference</h1>
<section class="intro" aria-labelledby="intro-title">
<h2 id="intro-title">${SERVICE_NAME}: ${API_SUMMARY}</h2>
<dl>
<dt>REST</dt><dd><code>${base}/api/v1/…</code> GET only, JSON, any origin; errors are RFC 9457 problems. Every operation is listed below.</dd>
<dt>MCP</dt><dd><code>${base}/mcp</code> Streamable HTTP, stateless, for AI assistants; tools ${TOOLS.map((t) => t.name).join(", ")} return the same objects as their REST twins (<a href="${base}${DISCOVERY.serverCard.paths[0]}">server card</a>).</dd>
<dt>OpenAPI</dt><dd><a href="${ctx.links.openapi}">${ctx.links.openapi}</a> (3.1, generated from the schemas the service validates with; this page is rendered from it)</dd>
<dt id="keys">Keys</dt><dd>${
      ctx.config.auth.mode === "metered"
        ? html`Decisions (recommendations, best-day, and the recommend_spot and best_day tools) need a key, sent as <code>Authorization: Bearer …</code> or <code>X-Service-Key: …</code>; facts stay keyless. Keys whose prefix ends <code>test_</code> are never billed.`
        : html`Not needed today. A key sent as <code>Authorization: Bearer …</code> or <code>X-Service-Key: …</code> is accepted and ignored.`
    } Keys are never accepted in the URL.</dd>
<dt>Attribution</dt><dd>Wherever you show results, show the <code>source</code> object and the <code>data_credits</code>, and relay the <code>caveats</code>.</dd>
</dl>
<p class="disclaimer">${DISCLAIMER}</p>
</section>
${referenceHtml(doc, base)}
</main>
</body>
</html>
`.html;
  };

  app.get("/docs", (req: Request, res: Response) => {
    page ??= new CompressedBody(render());
    res.setHeader("Content-Security-Policy", csp);
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    page.send(req, res, "text/html; charset=utf-8", "public, max-age=3600");
  });

  app.get("/docs/assets/:file", (req: Request, res: Response, next) => {
    const a = DOCS_ASSETS.find((x) => x.name === req.params.file);
    if (!a) return next();
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.type(a.type);
    res.send(a.body);
  });
}
