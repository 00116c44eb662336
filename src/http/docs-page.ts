// GET /docs: the developer docs page (the `docs` URL in `source` and the Link header). A short
// introduction (what the service is, the MCP URL, keys, the disclaimer) above Swagger UI rendering
// /openapi.json. Everything is served by this process from node_modules: no CDN, works offline.
//
// Why swagger-ui-dist: maintained (SmartBear, Apache-2.0), plain prebuilt static files with no
// engines constraint, so it runs on Node 20 (@scalar/api-reference and redoc 3 declare node >= 22),
// and it renders under a CSP with scripts and styles from 'self' only: it sets styles through the
// DOM rather than injecting <style> elements, so no 'unsafe-inline' is needed (checked in Chromium).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Express, Request, Response } from "express";
import { DISCLAIMER, SERVICE_NAME } from "../attribution.js";
import type { ServiceContext } from "../context.js";
import { DISCOVERY } from "../mcp/discovery.js";
import { TOOLS } from "../mcp/server.js";
import { html } from "../share/html.js";
import { CompressedBody } from "./compressed.js";
import { API_SUMMARY } from "./openapi.js";

const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** Starts Swagger UI on the document named by #reference's data-openapi (a same-origin path). */
const INIT_JS = `"use strict";
(function () {
  var el = document.getElementById("reference");
  window.ui = SwaggerUIBundle({
    url: el.getAttribute("data-openapi"),
    domNode: el,
    deepLinking: true,
    displayOperationId: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    // No badge from validator.swagger.io: the page makes no third-party requests.
    validatorUrl: null,
  });
})();
`;

const DOCS_CSS = `body{margin:0;background:#fafafa;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#102030}
header.top{background:#0B1F33;color:#F4F7FA;padding:12px 20px;display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}
header.top a{color:#F4F7FA;text-decoration:none;font-weight:700;letter-spacing:.08em;font-size:14px}
header.top span{font-size:14px;opacity:.8}
.intro{width:calc(100% - 40px);max-width:1420px;margin:16px auto 0;padding:14px 20px;box-sizing:border-box;background:#fff;border:1px solid #D8E1EA;border-radius:8px}
.intro h2{font-size:18px;margin:0 0 8px}
.intro p{margin:6px 0;line-height:1.5}
.intro dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:8px 0;font-size:15px}
.intro dt{font-weight:600}
.intro dd{margin:0;overflow-wrap:anywhere}
.intro code{background:#E9EFF5;border-radius:4px;padding:1px 5px;font-size:13px}
.intro .disclaimer{font-weight:600}
@media (max-width:600px){.intro dl{grid-template-columns:1fr}.intro dd{margin-bottom:6px}}
`;

interface Asset {
  /** Content-hashed file name: the URL never changes meaning, so it may be cached for a year. */
  name: string;
  type: string;
  body: Buffer;
  gzip?: Buffer;
}

function asset(base: string, ext: string, type: string, body: Buffer): Asset {
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 12);
  return { name: `${base}.${hash}.${ext}`, type, body };
}

let assets: { bundle: Asset; css: Asset; init: Asset; docsCss: Asset } | null = null;

/** Read on first use (~2 MB), then kept: the files cannot change while the process runs. */
function loadAssets() {
  assets ??= {
    bundle: asset("swagger-ui-bundle", "js", "text/javascript; charset=utf-8", readFileSync(join(SWAGGER_DIR, "swagger-ui-bundle.js"))),
    css: asset("swagger-ui", "css", "text/css; charset=utf-8", readFileSync(join(SWAGGER_DIR, "swagger-ui.css"))),
    init: asset("docs-init", "js", "text/javascript; charset=utf-8", Buffer.from(INIT_JS)),
    docsCss: asset("docs", "css", "text/css; charset=utf-8", Buffer.from(DOCS_CSS)),
  };
  return assets;
}

/** The docs page's policy: its own scripts and styles only; data: images are Swagger UI's icons. */
export function docsCsp(base: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    // "Try it out" calls the servers URL, which is this deployment's public address.
    `connect-src 'self' ${new URL(base).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function registerDocsPage(app: Express, ctx: ServiceContext): void {
  // Links are written as paths under the public address, so a deployment behind a path prefix works.
  const prefix = new URL(ctx.links.base).pathname.replace(/\/$/, "");
  const assetUrl = (a: Asset) => `${prefix}/docs/assets/${a.name}`;
  const csp = docsCsp(ctx.links.base);
  let page: CompressedBody | null = null;

  const render = () => {
    const a = loadAssets();
    const base = ctx.links.base;
    return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${SERVICE_NAME} API: developer docs</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl(a.css)}">
<link rel="stylesheet" href="${assetUrl(a.docsCss)}">
</head>
<body>
<header class="top"><a href="${base}">OCEAN CONDITIONS</a><span>Developer docs</span></header>
<section class="intro" aria-labelledby="intro-title">
<h2 id="intro-title">${SERVICE_NAME}: ${API_SUMMARY}</h2>
<dl>
<dt>REST</dt><dd><code>${base}/api/v1/…</code> GET only, JSON, any origin; errors are RFC 9457 problems. Every operation is listed below.</dd>
<dt>MCP</dt><dd><code>${base}/mcp</code> Streamable HTTP, stateless, for AI assistants; tools ${TOOLS.map((t) => t.name).join(", ")} return the same objects as their REST twins (<a href="${base}${DISCOVERY.serverCard.paths[0]}">server card</a>).</dd>
<dt>OpenAPI</dt><dd><a href="${ctx.links.openapi}">${ctx.links.openapi}</a> (3.1, generated from the schemas the service validates with)</dd>
<dt id="keys">Keys</dt><dd>${
      ctx.config.auth.mode === "metered"
        ? html`Decisions (recommendations, best-day, and the recommend_spot and best_day tools) need a key, sent as <code>Authorization: Bearer …</code> or <code>X-Service-Key: …</code>; facts stay keyless. Keys whose prefix ends <code>test_</code> are never billed.`
        : html`Not needed today. A key sent as <code>Authorization: Bearer …</code> or <code>X-Service-Key: …</code> is accepted and ignored.`
    } Keys are never accepted in the URL.</dd>
<dt>Attribution</dt><dd>Wherever you show results, show the <code>source</code> object and the <code>data_credits</code>, and relay the <code>caveats</code>.</dd>
</dl>
<p class="disclaimer">${DISCLAIMER}</p>
</section>
<noscript><p class="intro">The reference below needs JavaScript; the same content is in <a href="${ctx.links.openapi}">openapi.json</a>.</p></noscript>
<main id="reference" data-openapi="${new URL(ctx.links.openapi).pathname}"></main>
<script src="${assetUrl(a.bundle)}"></script>
<script src="${assetUrl(a.init)}"></script>
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
    const a = Object.values(loadAssets()).find((x) => x.name === req.params.file);
    if (!a) return next();
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.setHeader("Vary", "Accept-Encoding");
    res.type(a.type);
    // The bundle is 1.7 MB and about a third of that gzipped; compress once, on first request.
    if (/\bgzip\b/.test(req.get("Accept-Encoding") ?? "")) {
      a.gzip ??= gzipSync(a.body);
      res.setHeader("Content-Encoding", "gzip");
      return void res.send(a.gzip);
    }
    res.send(a.body);
  });
}
