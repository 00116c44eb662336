// GET /openapi.json is a valid OpenAPI 3.1 document generated from the service's own schemas, every
// problem `type` URI resolves to a component, and every documented status is one the API uses.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_ERROR_CODES, ERROR_CODES } from "../src/base/errors.js";
import { API_ROUTES } from "../src/http/api.js";
import { createExpressApp } from "../src/http/app.js";
import { OPERATION_STATUSES } from "../src/http/openapi.js";
import { CARD_IMAGE_PATH, SHARE_ROUTE_ERRORS } from "../src/http/page-routes.js";
import { MCP_PATH } from "../src/mcp/http.js";
import { TOOLS } from "../src/mcp/server.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
let doc: {
  openapi: string;
  info: { version: string };
  paths: Record<string, { get: { parameters: { name: string; required: boolean }[]; responses: Record<string, unknown> } }>;
  components: { schemas: Record<string, { $anchor?: string }> };
};

interface Op {
  operationId: string;
  parameters?: { name: string; in: string; required: boolean; schema: { enum?: string[] } }[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { headers?: Record<string, { $ref: string }>; content?: Record<string, { schema: { oneOf?: { $ref: string }[]; $ref?: string } }> }>;
}
const op = (path: string, method = "get") => (doc.paths as unknown as Record<string, Record<string, Op>>)[path]![method]!;
const headersOf = (o: Op, status: string) => Object.keys(o.responses[status]!.headers ?? {}).sort();
beforeAll(async () => {
  svc = await startService();
  doc = (await svc.json<typeof doc>("/openapi.json")).body;
});
afterAll(() => svc.close());

describe("OpenAPI document", () => {
  it("is valid OpenAPI 3.1, document version 1.0.0", async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const broken = await new Validator().validate({ ...structuredClone(doc), paths: { "/x": { get: { responses: "none" } } } } as never);
    expect(broken.valid).toBe(false);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
  });

  it("describes every REST endpoint with its parameters and the spec's status codes", () => {
    // Every REST answer has an ETag, so each also documents 304 for If-None-Match.
    const statuses = (p: string) => Object.keys(doc.paths[p]!.get.responses).sort();
    expect(statuses("/api/v1/conditions")).toEqual(["200", "304", "400", "404", "422", "429", "503"]);
    expect(statuses("/api/v1/spots")).toEqual(["200", "304", "400", "429"]);
    // The spec lists no error for coverage: no filter is refused (a repeated `region` lists each),
    // and the listing counts toward no cap.
    expect(statuses("/api/v1/coverage")).toEqual(["200", "304"]);
    for (const p of ["/api/v1/recommendations", "/api/v1/best-day"]) expect(statuses(p)).toEqual(["200", "304", "400", "401", "402", "404", "422", "429", "503"]);
    const params = (p: string) => doc.paths[p]!.get.parameters.map((x) => `${x.name}${x.required ? "*" : ""}`);
    expect(params("/api/v1/conditions")).toEqual(["spot", "lat", "lon", "from", "to"]);
    expect(params("/api/v1/recommendations")).toEqual(["activity*", "region", "spot", "lat", "lon", "radius_km", "date", "limit"]);
    expect(params("/api/v1/best-day")).toEqual(["activity*", "region", "spot", "lat", "lon", "radius_km", "from", "to"]);
    expect(params("/api/v1/spots")).toEqual(["region", "q", "lat", "lon"]);
  });

  it("resolves every problem type URI to a component with that anchor", async () => {
    for (const code of ALL_ERROR_CODES) {
      const c = doc.components.schemas[`problem-${code}`];
      expect(c?.$anchor, code).toBe(`problem-${code}`);
    }
    const problem = await svc.json("/api/v1/conditions?spot=atlantis");
    const fragment = String(problem.body.type).split("#")[1]!;
    expect(Object.values(doc.components.schemas).some((s) => s.$anchor === fragment)).toBe(true);
    expect(ERROR_CODES[problem.body.code as keyof typeof ERROR_CODES].status).toBe(problem.status);
  });

  it("uses this deployment's address", async () => {
    expect((doc as unknown as { servers: { url: string }[] }).servers[0]!.url).toBe(svc.base);
  });

  it("resolves every internal $ref", () => {
    const refs = new Set<string>();
    JSON.stringify(doc, (k, v: unknown) => {
      if (k === "$ref") refs.add(v as string);
      return v;
    });
    expect(refs.size).toBeGreaterThan(50);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\//);
      let node: unknown = doc;
      for (const part of ref.slice(2).split("/")) node = (node as Record<string, unknown> | undefined)?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
      expect(node, ref).toBeTypeOf("object");
    }
  });
});

describe("OpenAPI document: every route, not just the REST API", () => {
  it("documents every route the app serves (Express paths as OpenAPI templates)", () => {
    const app = createExpressApp(svc.ctx) as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } };
    // The REST API, /mcp and the card image are served from node:http (api.ts, mcp/http.ts, pages.ts);
    // everything else by Express.
    const served = new Set<string>([...Object.keys(API_ROUTES).map((p) => `get ${p}`), `post ${MCP_PATH}`, `get ${CARD_IMAGE_PATH}`]);
    for (const layer of app.router.stack) {
      if (!layer.route) continue;
      // The docs page's assets are content-hashed file names the page links itself; not an API.
      if (layer.route.path.startsWith("/docs/assets/")) continue;
      // app.all() catch-alls only answer 405 for methods the path does not serve.
      if (Object.keys(layer.route.methods).length > 10) continue;
      const method = layer.route.methods.post && !layer.route.methods.get ? "post" : "get";
      served.add(`${method} ${layer.route.path.replace(/:(\w+)/g, "{$1}")}`);
    }
    const documented = new Set(Object.entries(doc.paths as unknown as Record<string, Record<string, unknown>>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)));
    for (const r of served) expect(documented, r).toContain(r);
    // /readyz may be documented ahead of its route (it comes with the health checks); nothing else may be.
    expect([...documented].filter((d) => !served.has(d) && d !== "get /readyz")).toEqual([]);
  });

  it("describes the share image: PNG, 304, ETag and Cache-Control, and exactly the problems the route raises", () => {
    const card = op("/cards/{spot}/{date}.png");
    expect(card.parameters!.map((p) => `${p.in}:${p.name}${p.required ? "*" : ""}`)).toEqual(["path:spot*", "path:date*", "query:activity"]);
    expect(Object.keys(card.responses["200"]!.content!)).toEqual(["image/png"]);
    expect(headersOf(card, "200")).toEqual(["Cache-Control", "ETag", "Link", "X-Request-Id"]);
    expect(headersOf(card, "304")).toEqual(["Cache-Control", "ETag", "Link", "X-Request-Id"]);
    const documentedCodes = Object.entries(card.responses)
      .filter(([s]) => Number(s) >= 400)
      .flatMap(([, r]) => r.content!["application/problem+json"]!.schema.oneOf!.map((x) => x.$ref.split("problem-")[1]));
    expect(documentedCodes.sort()).toEqual([...SHARE_ROUTE_ERRORS.cardImage].sort());
  });

  it("describes the share and forecast pages as HTML, errors included", () => {
    for (const path of ["/s/{spot}/{date}", "/spots/{spot}"]) {
      const page = op(path);
      for (const [status, r] of Object.entries(page.responses)) expect(Object.keys(r.content ?? {}), `${path} ${status}`).toEqual(["text/html"]);
      expect(Object.keys(page.responses)).toContain("404");
    }
    expect(op("/spots/{spot}").parameters!.map((p) => `${p.in}:${p.name}`)).toEqual(["path:spot", "query:date", "query:activity"]);
  });

  it("describes POST /mcp: the headers, the JSON-RPC body and every transport status", () => {
    const mcp = op("/mcp", "post");
    const headers = Object.fromEntries(mcp.parameters!.filter((p) => p.in === "header").map((p) => [p.name, p]));
    expect(Object.keys(headers)).toEqual(["MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"]);
    expect(headers["MCP-Protocol-Version"]!.schema.enum).toEqual(["2026-07-28", "2025-11-25", "2025-06-18"]);
    expect(headers["Mcp-Name"]!.schema.enum).toEqual(TOOLS.map((t) => t.name));
    expect(mcp.requestBody!.content["application/json"]!.schema.$ref).toBe("#/components/schemas/JsonRpcMessage");
    expect(Object.keys(mcp.responses).sort()).toEqual(["200", "202", "400", "403", "404", "405", "413", "415"]);
    expect(Object.keys(mcp.responses["200"]!.content!)).toEqual(["application/json", "text/event-stream"]);
    expect(mcp.responses["202"]!.content).toBeUndefined();
  });

  it("describes the discovery documents, the docs page and the health checks", () => {
    for (const path of ["/.well-known/mcp/server-card.json", "/mcp/server-card", "/server.json", "/.well-known/ai-catalog.json"]) {
      expect(headersOf(op(path), "200"), path).toEqual(["Cache-Control", "ETag", "Link", "X-Request-Id"]);
      expect(Object.keys(op(path).responses).sort(), path).toEqual(["200", "304"]);
    }
    expect(Object.keys(op("/.well-known/mcp/server-card.json").responses["200"]!.content!)).toEqual(["application/mcp-server-card+json"]);
    expect(Object.keys(op("/docs").responses["200"]!.content!)).toEqual(["text/html"]);
    expect(op("/healthz").responses["200"]!.content!["application/json"]!.schema.$ref).toBe("#/components/schemas/Health");
    expect(Object.keys(op("/readyz").responses).sort()).toEqual(["200", "503"]);
    expect(headersOf(op("/readyz"), "503")).toContain("Retry-After");
    const readiness = (doc.components.schemas as Record<string, { properties?: { status?: { enum?: string[] } } }>).Readiness!;
    expect(readiness.properties!.status!.enum).toEqual(["ok", "degraded", "starting", "draining"]);
  });

  it("documents ETag and Cache-Control on REST answers, the rate-limit headers on rate-limited operations, Retry-After on 429 and 503, WWW-Authenticate on 401, Link and X-Request-Id everywhere", () => {
    for (const [name, statuses] of Object.entries(OPERATION_STATUSES)) {
      const o = op(`/api/v1/${name}`);
      const limited = (statuses as readonly number[]).includes(429);
      const base = ["Link", "X-Request-Id"];
      const answer = [...base, "Cache-Control", "ETag", ...(limited ? ["RateLimit", "RateLimit-Policy"] : [])].sort();
      expect(headersOf(o, "200"), name).toEqual(answer);
      expect(headersOf(o, "304"), name).toEqual(answer);
      if (limited) expect(headersOf(o, "429"), name).toEqual([...base, "RateLimit", "RateLimit-Policy", "Retry-After"].sort());
      if ((statuses as readonly number[]).includes(503)) expect(headersOf(o, "503"), name).toEqual([...base, "Retry-After"].sort());
      if ((statuses as readonly number[]).includes(401)) expect(headersOf(o, "401"), name).toEqual([...base, "WWW-Authenticate"].sort());
    }
    const all = doc.paths as unknown as Record<string, Record<string, Op>>;
    for (const [path, ops] of Object.entries(all)) {
      for (const o of Object.values(ops)) {
        for (const [s, r] of Object.entries(o.responses)) {
          expect(r.headers, `${path} ${s}`).toHaveProperty("Link");
          expect(r.headers, `${path} ${s}`).toHaveProperty("X-Request-Id");
        }
      }
    }
  });

  it("matches what the service sends: RateLimit headers on a capped operation, X-Request-Id on every answer", async () => {
    const capped = await startService({ env: { RATE_LIMIT_FACTS_PER_HOUR: "2" } });
    try {
      const first = await capped.get("/api/v1/spots");
      expect(first.headers.get("ratelimit-policy")).toMatch(/^"facts-hour";q=\d+;w=3600/);
      expect(first.headers.get("ratelimit")).toMatch(/^"facts-hour";r=\d+;t=\d+/);
      expect(first.headers.get("x-request-id")).toBeTruthy();
      for (const h of headersOf(op("/api/v1/spots"), "200")) expect(first.headers.has(h.toLowerCase()), h).toBe(true);
      await capped.get("/api/v1/spots");
      const refused = await capped.get("/api/v1/spots");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      const documentedHeaders = headersOf(op("/api/v1/spots"), "429").map((h) => h.toLowerCase());
      for (const h of documentedHeaders) expect(refused.headers.has(h), h).toBe(true);
      // The coverage listing is never capped, and says nothing of a budget.
      const coverage = await capped.get("/api/v1/coverage");
      expect(coverage.status).toBe(200);
      expect(coverage.headers.get("ratelimit")).toBeNull();
      for (const h of headersOf(op("/api/v1/coverage"), "200")) expect(coverage.headers.has(h.toLowerCase()), h).toBe(true);
    } finally {
      await capped.close();
    }
  });

  it("documents the planned keys as optional headers, never as a query parameter", () => {
    const schemes = (doc.components as unknown as { securitySchemes: Record<string, Record<string, string>> }).securitySchemes;
    expect(schemes.ServiceKey).toMatchObject({ type: "apiKey", in: "header", name: "X-Service-Key" });
    expect(schemes.BearerKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(Object.values(schemes).some((s) => s.in === "query")).toBe(false);
    for (const path of ["/api/v1/recommendations", "/api/v1/best-day"]) {
      // `{}` first: no key is a valid way to call today.
      expect(op(path).security).toEqual([{}, { ServiceKey: [] }, { BearerKey: [] }]);
    }
    const all = doc.paths as unknown as Record<string, Record<string, Op>>;
    const queryNames = Object.values(all).flatMap((ops) => Object.values(ops).flatMap((o) => (o.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name)));
    expect(queryNames.filter((n) => /key|token|auth/i.test(n))).toEqual([]);
  });

  it("says decisions need a key when AUTH_MODE=metered (facts stay keyless)", async () => {
    const keysFile = join(mkdtempSync(join(tmpdir(), "oc-keys-")), "keys.json");
    writeFileSync(keysFile, "[]");
    const metered = await startService({ env: { AUTH_MODE: "metered", API_KEYS_FILE: keysFile } });
    try {
      const mdoc = (await metered.json<{ paths: Record<string, Record<string, Op>> }>("/openapi.json")).body;
      expect(mdoc.paths["/api/v1/recommendations"]!.get!.security).toEqual([{ ServiceKey: [] }, { BearerKey: [] }]);
      expect(mdoc.paths["/api/v1/conditions"]!.get!.security![0]).toEqual({});
      const docsPage = await (await metered.get("/docs")).text();
      expect(docsPage).toContain('id="keys"');
      expect(docsPage).toMatch(/Decisions \(recommendations, best-day, and the recommend_spot and best_day tools\) need a key/);
    } finally {
      await metered.close();
    }
  });
});

describe("security on every operation", () => {
  it("states each operation's security, `[]` where no key applies (a linter's security-defined rule)", async () => {
    const { openApiDocument } = await import("../src/http/openapi.js");
    for (const mode of ["open", "metered"] as const) {
      const d = openApiDocument("http://x", mode) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
      for (const [path, ops] of Object.entries(d.paths)) for (const [method, op] of Object.entries(ops)) expect(op.security, `${mode} ${method} ${path}`).toBeDefined();
    }
  });
});
