// What a strict MCP client trips on, on the raw wire and through the official client: one version
// story (negotiated, accepted, discovered and carded alike), batches refused, no list_changed
// promises a stateless server cannot keep, strict tool arguments, and `source` on every error body.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolErrorSchema } from "../src/schemas/tool-error.js";
import { connectClient, RAW_META, rawHeaders, type Connected, VERSIONS } from "./helpers/mcp.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
let modern: Connected;
beforeAll(async () => {
  svc = await startService({ env: { MCP_ALLOWED_ORIGINS: "claude.ai" } });
  modern = await connectClient(svc.base, "2026-07-28");
});
afterAll(async () => {
  await modern?.close();
  await svc?.close();
});

const SUPPORTED = [...VERSIONS];
const META = RAW_META;
const LEGACY = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const modernHeaders = rawHeaders;
const post = (headers: Record<string, string>, body: unknown) => svc.get("/mcp", { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
/** A JSON-RPC answer, typed loosely: each test reads the members it checks. */
interface Message {
  id?: unknown;
  result: { protocolVersion: string; supportedVersions: string[]; capabilities: Record<string, unknown> };
  error: { code: number; data: { supported: string[]; requested: string; source: Record<string, unknown> } };
}
/** The one JSON-RPC message of a JSON or single-event SSE answer. */
async function messageOf(res: Response): Promise<Message> {
  const text = await res.text();
  const data = text.startsWith("{")
    ? text
    : text
        .split("\n")
        .find((l) => l.startsWith("data: "))!
        .slice(6);
  return JSON.parse(data) as Message;
}
const initialize = (protocolVersion: string) => ({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "0" } } });

describe("one version story", () => {
  it("the server card and the -32022 error list the same three versions; server/discover the 2026 era, as the SDK answers it", async () => {
    const card = (await svc.json<{ remotes: { supportedProtocolVersions: string[] }[] }>("/.well-known/mcp/server-card.json")).body;
    expect(card.remotes[0]!.supportedProtocolVersions).toEqual(SUPPORTED);
    const discover = await messageOf(await post(modernHeaders("server/discover"), { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } }));
    expect(discover.result.supportedVersions).toEqual(SUPPORTED.filter((v) => v >= "2026"));
    const refused = await post(
      { ...modernHeaders("tools/list"), "mcp-protocol-version": "2099-01-01" },
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } } },
    );
    expect(refused.status).toBe(400);
    expect((await messageOf(refused)).error.data.supported).toEqual(SUPPORTED);
  });

  it.each(["2024-11-05", "2025-03-26", "2024-10-07", "1999-01-01"])("initialize asking for %s is negotiated down to 2025-11-25", async (asked) => {
    const res = await post(LEGACY, initialize(asked));
    expect(res.status).toBe(200);
    expect((await messageOf(res)).result.protocolVersion).toBe("2025-11-25");
  });

  it.each(["2025-06-18", "2025-11-25"])("initialize asking for %s gets it", async (asked) => {
    expect((await messageOf(await post(LEGACY, initialize(asked)))).result.protocolVersion).toBe(asked);
  });

  it.each(["2025-03-26", "2024-11-05", "2024-10-07"])("MCP-Protocol-Version %s on a call is 400 -32022 naming the supported versions", async (version) => {
    const res = await post({ ...LEGACY, "mcp-protocol-version": version }, { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "list_coverage", arguments: {} } });
    expect(res.status).toBe(400);
    const body = await messageOf(res);
    expect(body.id).toBe(7);
    expect(body.error).toMatchObject({ code: -32022, data: { supported: SUPPORTED, requested: version } });
    expect(body.error.data.source).toMatchObject({ name: "Ocean Conditions" });
  });

  it("a JSON-RPC batch is refused: every version served removed batching", async () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
    ];
    for (const headers of [{ ...LEGACY, "mcp-protocol-version": "2025-06-18" }, { ...LEGACY, "mcp-protocol-version": "2025-11-25" }, LEGACY]) {
      const res = await post(headers, batch);
      expect(res.status).toBe(400);
      expect((await messageOf(res)).error.code).toBe(-32600);
    }
  });

  it("advertises no list_changed notifications, in initialize or discover", async () => {
    const init = await messageOf(await post(LEGACY, initialize("2025-06-18")));
    expect(init.result.capabilities.tools).toEqual({ listChanged: false });
    expect(init.result.capabilities.resources).toEqual({ listChanged: false });
    const discover = await messageOf(await post(modernHeaders("server/discover"), { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } }));
    expect(discover.result.capabilities.tools).toEqual({ listChanged: false });
    expect(discover.result.capabilities.resources).toEqual({ listChanged: false });
  });
});

describe("every error body carries source", () => {
  it.each([
    ["GET (405)", () => svc.get("/mcp"), 405],
    ["a foreign Origin (403)", () => post({ ...modernHeaders("tools/list"), origin: "http://evil.example" }, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }), 403],
    ["malformed JSON (400 -32700)", () => post(modernHeaders("tools/list"), '{"jsonrpc":'), 400],
    [
      "headers disagreeing with the body (400 -32020)",
      () => post(modernHeaders("tools/call", "list_coverage"), { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "best_day", arguments: {}, _meta: META } }),
      400,
    ],
    ["an unknown method (404 -32601)", () => post(modernHeaders("foo/bar"), { jsonrpc: "2.0", id: 1, method: "foo/bar", params: { _meta: META } }), 404],
    [
      "tool arguments given as a list, 2026-07-28 (400 -32602)",
      () => post(modernHeaders("tools/call", "get_conditions"), { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_conditions", arguments: ["hanauma-bay"], _meta: META } }),
      400,
    ],
    [
      "tool arguments given as a list, 2025-06-18 (400 -32602)",
      () => post({ ...LEGACY, "mcp-protocol-version": "2025-06-18" }, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_conditions", arguments: ["hanauma-bay"] } }),
      400,
    ],
  ] as const)("%s", async (_what, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    const body = await messageOf(res);
    expect(body.error.data.source).toMatchObject({ name: "Ocean Conditions", url: svc.base });
    // Our words, never a validator's issue list.
    expect((body.error as { message?: string }).message).not.toMatch(/"code"|invalid_type|\[\n/);
  });

  it.each([
    ["an unknown method", { jsonrpc: "2.0", id: 3, method: "foo/bar", params: {} }, -32601],
    ["an unknown tool", { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "nope", arguments: {} } }, -32602],
    ["an unknown resource", { jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri: "x://y" } }, -32602],
  ] as const)("a 2025-era error inside an SSE answer (%s) carries source", async (_what, body, code) => {
    const res = await post({ ...LEGACY, "mcp-protocol-version": "2025-06-18" }, body);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const message = await messageOf(res);
    expect(message.id).toBe(body.id);
    expect(message.error.code).toBe(code);
    expect(message.error.data.source).toMatchObject({ name: "Ocean Conditions", url: svc.base });
  });

  it("a tool error's structuredContent carries source", async () => {
    const r = (await modern.client.callTool({ name: "recommend_spot", arguments: { activity: "kite", region: "us-hi-oahu" } })) as { isError: boolean; structuredContent: unknown };
    expect(r.isError).toBe(true);
    const e = ToolErrorSchema.parse(r.structuredContent);
    expect(e.source).toMatchObject({ name: "Ocean Conditions", url: svc.base });
    expect(e.error.code).toBe("unknown_activity");
  });
});

describe("portable tool schemas", () => {
  it("no input or output schema uses a type array (hosts with single-type dialects reject them)", async () => {
    const { tools } = await modern.client.listTools();
    const arrays: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${path}[${i}]`));
      if (typeof v !== "object" || v === null) return;
      for (const [k, child] of Object.entries(v)) {
        if (k === "type" && Array.isArray(child)) arrays.push(path);
        walk(child, `${path}.${k}`);
      }
    };
    for (const t of tools) walk({ input: t.inputSchema, output: t.outputSchema }, t.name);
    expect(arrays).toEqual([]);
    // Nullable fields are still nullable: one branch per type.
    const conditions = JSON.stringify(tools.find((t) => t.name === "get_conditions")!.outputSchema);
    expect(conditions).toContain('"anyOf":[{"type":"number"},{"type":"null"}]');
  });
});

describe("strict tool arguments", () => {
  type Err = { isError?: boolean; structuredContent?: unknown; content: { text?: string }[] };
  const call = async (name: string, args: Record<string, unknown>) => (await modern.client.callTool({ name, arguments: args })) as Err;

  it.each([
    ["get_conditions", { spot: "hanauma-bay", days: 3 }, "days", "spot, lat, lon, from, to"],
    ["list_coverage", { country: "US" }, "country", "region"],
    ["recommend_spot", { activity: "snorkel", region: "us-hi-oahu", sort: "score" }, "sort", "activity, region, spot, lat, lon, radius_km, date, limit"],
    ["best_day", { activity: "snorkel", region: "us-hi-oahu", days: 14 }, "days", "activity, region, spot, lat, lon, radius_km, from, to"],
  ])("%s refuses an unknown argument and names the ones it takes", async (tool, args, bad, allowed) => {
    const r = await call(tool, args);
    expect(r.isError).toBe(true);
    const e = ToolErrorSchema.parse(r.structuredContent);
    expect(e.error.code).toBe("invalid_parameter");
    expect(e.error.message).toContain(`\`${bad}\``);
    expect(e.error.message).toContain(allowed);
  });

  it.each([
    [{ region: 5 }, "must be text, not a number"],
    [{ region: "x".repeat(70) }, "64"],
    [{ region: ["us-hi-oahu"] }, "must be text, not a list"],
  ])("list_coverage refuses %j", async (args, says) => {
    const r = await call("list_coverage", args);
    expect(r.isError).toBe(true);
    const e = ToolErrorSchema.parse(r.structuredContent);
    expect(e.error.code).toBe("invalid_parameter");
    expect(e.error.message).toContain(says);
    expect(e.error.message).toContain("list_coverage takes: region.");
    expect(e.error.message).not.toMatch(/repeated/);
  });

  it("values of the right type still reach the shared parsers and get the REST code", async () => {
    const r = await call("recommend_spot", { activity: "snorkel", region: "us-hi-oahu", limit: 9 });
    expect(ToolErrorSchema.parse(r.structuredContent).error.code).toBe("invalid_limit");
    const ok = await call("list_coverage", { region: "us-hi-oahu" });
    expect(ok.isError).toBeFalsy();
  });
});
