// Transport rules of POST /mcp checked on the raw wire (what any MCP host, not just our client, sees).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_MAX_BODY_BYTES } from "../src/web/http-limits.js";
import { startService, type TestService } from "./helpers/service.js";
import { RAW_META, rawHeaders } from "./helpers/mcp.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ env: { MCP_ALLOWED_ORIGINS: "claude.ai" } });
});
afterAll(() => svc.close());

const META = RAW_META;
const modernHeaders = rawHeaders;
const callBody = (name: string, args: Record<string, unknown>, meta: Record<string, unknown> = META) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta: meta } });
const post = (headers: Record<string, string>, body: string) => svc.get("/mcp", { method: "POST", headers, body });

describe("2026-07-28: one POST per call", () => {
  it("answers a tools/call with JSON, resultType complete and serverInfo", async () => {
    const res = await post(modernHeaders("tools/call", "get_conditions"), callBody("get_conditions", { spot: "hanauma-bay", from: "2026-11-22", to: "2026-11-22" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body = (await res.json()) as { result: Record<string, unknown> };
    expect(body.result).toMatchObject({ resultType: "complete", structuredContent: { schema: "service.conditions.v1" } });
    expect(body.result._meta).toMatchObject({ "io.modelcontextprotocol/serverInfo": { name: "io.github.ocean-conditions/ocean-conditions" } });
  });

  it("answers server/discover with the supported version and the MCP Apps extension", async () => {
    const res = await post(modernHeaders("server/discover"), JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } }));
    const body = (await res.json()) as { result: { supportedVersions: string[]; capabilities: Record<string, unknown>; instructions: string; ttlMs: number } };
    expect(res.status).toBe(200);
    expect(body.result.supportedVersions).toContain("2026-07-28");
    expect(body.result.capabilities).toMatchObject({ tools: {}, extensions: { "io.modelcontextprotocol/ui": {} } });
    expect(body.result.instructions).toMatch(/list_coverage/);
    expect(body.result.ttlMs).toBeGreaterThan(0);
  });

  it.each([
    ["Mcp-Name disagrees with the body", modernHeaders("tools/call", "list_coverage"), callBody("get_conditions", { spot: "hanauma-bay" })],
    ["Mcp-Method disagrees with the body", modernHeaders("tools/list", "get_conditions"), callBody("get_conditions", { spot: "hanauma-bay" })],
    ["Mcp-Method is missing", { ...modernHeaders("tools/call", "get_conditions"), "mcp-method": "" }, callBody("get_conditions", { spot: "hanauma-bay" })],
    ["Mcp-Name is missing on tools/call", modernHeaders("tools/call"), callBody("get_conditions", { spot: "hanauma-bay" })],
    ["the version header disagrees with _meta", { ...modernHeaders("tools/call", "get_conditions"), "mcp-protocol-version": "2025-11-25" }, callBody("get_conditions", { spot: "hanauma-bay" })],
  ])("400 -32020 when %s", async (_why, headers, body) => {
    const h = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ""));
    const res = await post(h, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32020);
  });

  it("400 -32022 for an unsupported version, naming the supported one", async () => {
    const res = await post(
      { ...modernHeaders("tools/call", "get_conditions"), "mcp-protocol-version": "2099-01-01" },
      callBody("get_conditions", { spot: "hanauma-bay" }, { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; data: { supported: string[] } } };
    expect(body.error.code).toBe(-32022);
    expect(body.error.data.supported).toContain("2026-07-28");
  });

  it("400 -32700 as JSON (not an HTML page) for malformed JSON", async () => {
    const res = await post(modernHeaders("tools/call", "get_conditions"), '{"jsonrpc":"2.0", "id": 1, "method": "tools/c');
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/json/);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it("answers an unknown tool with a JSON-RPC error and an unknown method with 404 -32601", async () => {
    const unknownTool = await post(modernHeaders("tools/call", "nope"), callBody("nope", {}));
    expect(((await unknownTool.json()) as { error: { code: number } }).error.code).toBe(-32602);
    const unknownMethod = await post(modernHeaders("foo/bar"), JSON.stringify({ jsonrpc: "2.0", id: 1, method: "foo/bar", params: { _meta: META } }));
    expect(unknownMethod.status).toBe(404);
    expect(((await unknownMethod.json()) as { error: { code: number } }).error.code).toBe(-32601);
  });

  it("refuses a body over the size limit with 413", async () => {
    const big = callBody("get_conditions", { spot: "hanauma-bay", padding: "x".repeat(MCP_MAX_BODY_BYTES) });
    const res = await post(modernHeaders("tools/call", "get_conditions"), big);
    expect(res.status).toBe(413);
    // Like every JSON body of the service, it says where it came from.
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, data: { source: { name: "Ocean Conditions" } } } });
  });

  it("answers initialize with bad params -32602 Invalid params, with source and without a validator dump", async () => {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
    const res = await post(headers, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: 5 } }));
    const body = (await res.json()) as { id: number; error: { code: number; message: string; data: { source: unknown } } };
    expect(body).toMatchObject({ id: 7, error: { code: -32602, data: { source: { name: "Ocean Conditions" } } } });
    expect(body.error.message).toMatch(/^Invalid params: initialize needs/);
  });

  it("says a tool named like an Object.prototype member (__proto__, toString) is not found, not disabled", async () => {
    for (const name of ["__proto__", "toString", "constructor"]) {
      const res = await post(modernHeaders("tools/call", name), callBody(name, {}));
      const text = await res.text();
      expect(text).toContain(`Tool ${name} not found`);
      expect(text).toContain('"source"');
    }
  });

  it("accepts a notification with 202 and no body", async () => {
    const res = await post(modernHeaders("notifications/cancelled"), JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9, _meta: META } }));
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
  });
});

describe("2025 versions: initialize, then calls, no sessions", () => {
  for (const version of ["2025-06-18", "2025-11-25"]) {
    it(`serves ${version} statelessly over SSE`, async () => {
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
      const init = await post(
        headers,
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "0" } } }),
      );
      expect(init.status).toBe(200);
      expect(init.headers.get("mcp-session-id")).toBeNull();
      const initText = await init.text();
      expect(initText).toContain(`"protocolVersion":"${version}"`);
      const callRes = await post(
        { ...headers, "mcp-protocol-version": version },
        JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_coverage", arguments: { region: "us-hi-oahu" } } }),
      );
      expect(callRes.status).toBe(200);
      const text = await callRes.text();
      expect(text).toContain("service.coverage.v1");
      expect(text).not.toContain("resultType");
    });
  }
});

describe("methods and origins", () => {
  it.each(["GET", "DELETE", "PUT", "PATCH"])("%s /mcp → 405 with Allow: POST", async (method) => {
    const res = await svc.get("/mcp", { method, headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("refuses a foreign Origin with 403 and accepts the configured ones", async () => {
    const body = callBody("list_coverage", {});
    const evil = await post({ ...modernHeaders("tools/call", "list_coverage"), origin: "https://evil.example" }, body);
    expect(evil.status).toBe(403);
    for (const origin of [svc.base, "https://claude.ai"]) {
      const ok = await post({ ...modernHeaders("tools/call", "list_coverage"), origin }, body);
      expect(ok.status).toBe(200);
    }
  });

  it("refuses a request whose Host is not this server's (DNS rebinding)", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${svc.base}/mcp`, { method: "POST", headers: { ...modernHeaders("tools/call", "list_coverage"), host: "attacker.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on("error", reject);
      req.end(callBody("list_coverage", {}));
    });
    expect(status).toBe(403);
  });
});
