// Discovery documents: the server card validates against the official schema and agrees with the
// running server; server.json follows the registry format; both carry this deployment's address.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient } from "./helpers/mcp.js";
import { registryValidator } from "./helpers/registry-schema.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

// The official server-card JSON Schema (modelcontextprotocol/experimental-ext-server-card).
const cardSchema = JSON.parse(readFileSync(new URL("./fixtures/server-card.schema.json", import.meta.url), "utf8"));

describe("server card", () => {
  it("validates against the official schema and points at this server's /mcp", async () => {
    const res = await svc.get("/.well-known/mcp/server-card.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/mcp-server-card\+json/);
    const card = (await res.json()) as Record<string, unknown> & { remotes: { url: string; supportedProtocolVersions: string[] }[] };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (formats as unknown as { default: (a: Ajv2020) => void }).default(ajv);
    ajv.addSchema(cardSchema, "card");
    const validate = ajv.getSchema("card#/$defs/ServerCard")!;
    expect(validate(card), JSON.stringify(validate.errors)).toBe(true);
    expect(card.remotes).toEqual([{ type: "streamable-http", url: `${svc.base}/mcp`, supportedProtocolVersions: ["2026-07-28", "2025-11-25", "2025-06-18"] }]);
    // A card missing its description must fail, or the validation above proves nothing.
    const { description: _d, ...broken } = card;
    expect(validate(broken)).toBe(false);
  });

  it("agrees with the running server's identity", async () => {
    const card = (await (await svc.get("/mcp/server-card")).json()) as { name: string; version: string };
    const c = await connectClient(svc.base, "2025-11-25");
    expect(c.client.getServerVersion()).toMatchObject({ name: card.name, version: card.version });
    await c.close();
  });

  it("is served the same at /mcp/server-card, with CORS, caching, ETag and 304", async () => {
    const a = await svc.get("/.well-known/mcp/server-card.json");
    const b = await svc.get("/mcp/server-card");
    expect(await b.text()).toBe(await a.text());
    expect(a.headers.get("access-control-allow-origin")).toBe("*");
    expect(a.headers.get("access-control-allow-methods")).toBe("GET");
    expect(a.headers.get("access-control-allow-headers")).toBe("Content-Type, If-None-Match");
    expect(a.headers.get("access-control-expose-headers")).toBe("ETag");
    expect(a.headers.get("cache-control")).toBe("public, max-age=3600");
    const etag = a.headers.get("etag")!;
    const again = await svc.get("/.well-known/mcp/server-card.json", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    // As caches send it: a list, with the weak form.
    const listed = await svc.get("/.well-known/mcp/server-card.json", { headers: { "If-None-Match": `"other", W/${etag}` } });
    expect(listed.status).toBe(304);
    const other = await svc.get("/.well-known/mcp/server-card.json", { headers: { "If-None-Match": '"other"' } });
    expect(other.status).toBe(200);
  });
});

describe("server.json and the AI catalog", () => {
  it("server.json validates against the registry's schema, with this deployment as the remote", async () => {
    const res = await svc.get("/server.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = (await res.json()) as { name: string; remotes: unknown[]; packages: { identifier: string; transport: unknown }[] };
    const validate = registryValidator();
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.remotes).toEqual([{ type: "streamable-http", url: `${svc.base}/mcp` }]);
    expect(doc.name).toBe("io.github.ocean-conditions/ocean-conditions");
    expect(doc.packages).toMatchObject([{ identifier: "ocean-conditions", transport: { type: "stdio" } }]);
    // A description over the registry's 100 characters must fail, or the validation above proves nothing.
    expect(validate({ ...doc, description: "x".repeat(101) })).toBe(false);
  });
  it("the AI catalog points at the card", async () => {
    const cat = (await (await svc.get("/.well-known/ai-catalog.json")).json()) as { entries: { url: string; type: string }[] };
    expect(cat.entries[0]).toMatchObject({ type: "application/mcp-server-card+json", url: `${svc.base}/mcp/server-card` });
  });
});
