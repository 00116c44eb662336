// Discovery documents: the MCP server card (/.well-known/mcp/server-card.json and /mcp/server-card),
// the registry's server.json, and an AI catalog entry pointing at the card. Rendered once with the
// configured public address: the card from its template at the project root, server.json from
// package.json (src/mcp/registry.ts).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Express, Request, Response } from "express";
import type { ServiceContext } from "../services/context.js";
import { etagMatches } from "../web/caching.js";
import { PROJECT_ROOT } from "../base/paths.js";
import { PACKAGE } from "../base/package-info.js";
import { registryServerJson } from "./registry.js";
import { SERVER_INFO } from "./server.js";
import { MCP_PROTOCOL_VERSIONS, SERVER_CARD_TEMPLATE } from "./versions.js";

export interface DiscoveryDocument {
  body: string;
  etag: string;
  contentType: string;
}

/** Where each discovery document is served, and as what (the OpenAPI document lists the same). */
export const DISCOVERY = {
  serverCard: { paths: ["/.well-known/mcp/server-card.json", "/mcp/server-card"], template: SERVER_CARD_TEMPLATE, contentType: "application/mcp-server-card+json" },
  registry: { paths: ["/server.json"], contentType: "application/json" },
  aiCatalog: { paths: ["/.well-known/ai-catalog.json"], contentType: "application/json" },
} as const;

const readTemplate = (relPath: string) => readFileSync(join(PROJECT_ROOT, relPath), "utf8");

/** The MCP protocol versions the server card advertises (the card template is where they are listed). */
export function advertisedProtocolVersions(): string[] {
  return [...MCP_PROTOCOL_VERSIONS];
}

function render(relPath: string, base: string, contentType: string): DiscoveryDocument {
  const template = readTemplate(relPath);
  const body = JSON.stringify(JSON.parse(template.replaceAll("{{PUBLIC_BASE_URL}}", base)));
  const parsed = JSON.parse(body) as { name: string; version: string; description: string };
  if (parsed.name !== SERVER_INFO.name || parsed.version !== SERVER_INFO.version || parsed.description !== PACKAGE.description) {
    throw new Error(`${relPath} must name ${SERVER_INFO.name} ${SERVER_INFO.version} with package.json's description, as the running server does`);
  }
  return document(body, contentType);
}

const document = (body: string, contentType: string): DiscoveryDocument => ({
  body,
  etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
  contentType,
});

export function mountDiscovery(app: Express, ctx: ServiceContext): void {
  const base = ctx.links.base;
  const card = render(DISCOVERY.serverCard.template, base, DISCOVERY.serverCard.contentType);
  const registry = document(JSON.stringify(registryServerJson(base)), DISCOVERY.registry.contentType);
  const catalogBody = JSON.stringify({
    specVersion: "1.0",
    entries: [{ identifier: `urn:air:${new URL(base).host}:mcp:ocean-conditions`, type: "application/mcp-server-card+json", url: `${base}/mcp/server-card` }],
  });
  const catalog = document(catalogBody, DISCOVERY.aiCatalog.contentType);

  const serve = (doc: DiscoveryDocument) => (req: Request, res: Response) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Allow-Methods", "GET");
    res.setHeader("Access-Control-Allow-Headers", "Content-Type, If-None-Match");
    res.setHeader("Access-Control-Expose-Headers", "ETag");
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.setHeader("ETag", doc.etag);
    if (req.method === "OPTIONS") return void res.status(204).end();
    // Lists and weak forms too (`W/"…"`, `*`), as the share image does: caches and CDNs send them.
    if (etagMatches(req.get("If-None-Match"), doc.etag)) return void res.status(304).end();
    res.status(200).type(doc.contentType).send(doc.body);
  };
  for (const path of DISCOVERY.serverCard.paths) app.get(path, serve(card)).options(path, serve(card));
  for (const path of DISCOVERY.registry.paths) app.get(path, serve(registry));
  for (const path of DISCOVERY.aiCatalog.paths) app.get(path, serve(catalog));
}
