// Discovery documents: the MCP server card (/.well-known/mcp/server-card.json and /mcp/server-card),
// the registry's server.json, and an AI catalog entry pointing at the card. Rendered once from the
// templates at the project root with the configured public address.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Express, Request, Response } from "express";
import type { ServiceContext } from "../context.js";
import { PROJECT_ROOT } from "../paths.js";
import { SERVER_INFO } from "./server.js";

export interface DiscoveryDocument {
  body: string;
  etag: string;
  contentType: string;
}

function render(relPath: string, base: string, contentType: string): DiscoveryDocument {
  const template = readFileSync(join(PROJECT_ROOT, relPath), "utf8");
  const body = JSON.stringify(JSON.parse(template.replaceAll("{{PUBLIC_BASE_URL}}", base)));
  const parsed = JSON.parse(body) as { name: string; version: string };
  if (parsed.name !== SERVER_INFO.name || parsed.version !== SERVER_INFO.version) {
    throw new Error(`${relPath} must name ${SERVER_INFO.name} ${SERVER_INFO.version}, as the running server does`);
  }
  return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`, contentType };
}

export function mountDiscovery(app: Express, ctx: ServiceContext): void {
  const base = ctx.links.base;
  const card = render(".well-known/mcp/server-card.json", base, "application/mcp-server-card+json");
  const registry = render("server.json", base, "application/json");
  const catalogBody = JSON.stringify({
    specVersion: "1.0",
    entries: [{ identifier: `urn:air:${new URL(base).host}:mcp:ocean-conditions`, type: "application/mcp-server-card+json", url: `${base}/mcp/server-card` }],
  });
  const catalog: DiscoveryDocument = { body: catalogBody, etag: `"${createHash("sha256").update(catalogBody).digest("base64url").slice(0, 22)}"`, contentType: "application/json" };

  const serve = (doc: DiscoveryDocument) => (req: Request, res: Response) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Allow-Methods", "GET");
    res.setHeader("Access-Control-Allow-Headers", "Content-Type, If-None-Match");
    res.setHeader("Access-Control-Expose-Headers", "ETag");
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.setHeader("ETag", doc.etag);
    if (req.method === "OPTIONS") return void res.status(204).end();
    if (req.headers["if-none-match"] === doc.etag) return void res.status(304).end();
    res.status(200).type(doc.contentType).send(doc.body);
  };
  for (const path of ["/.well-known/mcp/server-card.json", "/mcp/server-card"]) app.get(path, serve(card)).options(path, serve(card));
  app.get("/server.json", serve(registry));
  app.get("/.well-known/ai-catalog.json", serve(catalog));
}
