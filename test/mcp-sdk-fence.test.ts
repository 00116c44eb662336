// Pins each SDK behaviour src/mcp/sdk-fence.ts works around, by calling the SDK bare (a one-tool
// server, no fence). A failure here means an SDK release changed the behaviour: re-read the
// workaround with the same letter and remove it if the SDK now does the right thing. What /mcp
// answers instead is tested through the real server in mcp-transport.test.ts and mcp.test.ts.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { classifyInboundRequest, createMcpHandler, McpServer, validateHostHeader, type McpRequestContext } from "@modelcontextprotocol/server";
import { carry, carried, STATELESS_CAPABILITIES } from "../src/mcp/sdk-fence.js";
import { enveloped, EnvelopeCache, textMid, type ReplayableCall } from "../src/mcp/replay.js";
import { MCP_PROTOCOL_VERSIONS } from "../src/mcp/versions.js";

const seen: (McpRequestContext | undefined)[] = [];
const bare = createMcpHandler(
  (reqCtx) => {
    seen.push(reqCtx);
    const server = new McpServer({ name: "bare", version: "1" }, {});
    server.registerTool("echo", { inputSchema: z.object({ spot: z.string() }) }, async (a) => ({ content: [{ type: "text", text: JSON.stringify(a) }] }));
    // A tool whose result is what its arguments say: text, structured content, or a tool error.
    server.registerTool(
      "card",
      { inputSchema: z.object({ text: z.string(), n: z.number(), fail: z.boolean() }), outputSchema: z.object({ n: z.number(), text: z.string() }) },
      async ({ text, n, fail }) =>
        fail ? { isError: true, content: [{ type: "text", text }], structuredContent: { error: { code: text, n } } } : { content: [{ type: "text", text }], structuredContent: { n, text } },
    );
    return server;
  },
  { maxRequestBodySize: 1_000 },
);

const MODERN = "2026-07-28";
const LEGACY = "2025-06-18";

async function post(body: string, headers: Record<string, string> = {}, authInfo?: ReturnType<typeof carry>): Promise<{ status: number; message: Record<string, unknown> }> {
  const request = new Request("http://127.0.0.1/mcp", {
    method: "POST",
    body,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
  });
  const response = await bare.fetch(request, authInfo ? { authInfo } : undefined);
  const text = await response.text();
  // A 2025-era answer is one SSE event; a 2026 answer (and every HTTP-level refusal) one JSON body.
  const json = response.headers.get("content-type")?.startsWith("text/event-stream")
    ? text
        .split("\n")
        .find((l) => l.startsWith("data: "))!
        .slice(6)
    : text;
  return { status: response.status, message: JSON.parse(json) as Record<string, unknown> };
}

const modernCall = (name: string, args: unknown) =>
  post(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name,
        arguments: args,
        _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} },
      },
    }),
    { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name },
  );
const legacy = (method: string, params: unknown, headers: Record<string, string> = { "mcp-protocol-version": LEGACY }) => post(JSON.stringify({ jsonrpc: "2.0", id: 3, method, params }), headers);
const errorOf = (m: Record<string, unknown>) => m.error as { code: number; message: string; data?: Record<string, unknown> } | undefined;

describe("the SDK behaviours /mcp works around (sdk-fence.ts)", () => {
  it("A: its error answers carry no source", async () => {
    const { message } = await modernCall("nope", {});
    expect(errorOf(message)).toMatchObject({ code: -32602, message: "Tool nope not found" });
    expect(errorOf(message)!.data?.source).toBeUndefined();
  });

  it("B: its 413 for an oversized body carries no source", async () => {
    const { status, message } = await post(" ".repeat(2_000) + "{}");
    expect(status).toBe(413);
    expect(errorOf(message)!.data).toBeUndefined();
  });

  it("C: it parses and answers JSON of any depth", async () => {
    let deep = "1";
    for (let i = 0; i < 200; i++) deep = `[${deep}]`;
    const { status, message } = await post(`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"x":${deep}}}`, { "mcp-protocol-version": LEGACY });
    expect(status).toBe(200);
    expect(message.result).toBeDefined();
  });

  it("D: it serves a protocol version it knows but we do not offer, and refuses others without our list", async () => {
    expect(MCP_PROTOCOL_VERSIONS).not.toContain("2024-11-05");
    const old = await legacy("tools/list", {}, { "mcp-protocol-version": "2024-11-05" });
    expect(old.status).toBe(200);
    expect(old.message.result).toBeDefined();
    const unknown = await legacy("tools/list", {}, { "mcp-protocol-version": "1999-01-01" });
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown.message)!.code).toBe(-32000);
    expect(errorOf(unknown.message)!.data?.supported).toBeUndefined();
  });

  it("E: it answers a JSON-RPC batch", async () => {
    const { status, message } = await post(JSON.stringify([{ jsonrpc: "2.0", id: 5, method: "tools/list" }]), { "mcp-protocol-version": LEGACY });
    expect(status).toBe(200);
    expect(message.result).toBeDefined();
  });

  it("F: initialize params that do not validate get -32603 with the validator's issue list", async () => {
    const { message } = await legacy("initialize", { protocolVersion: 5 }, {});
    expect(errorOf(message)!.code).toBe(-32603);
    expect(errorOf(message)!.message).toMatch(/invalid_type/);
  });

  it("G: a tool named after an Object.prototype member is answered as disabled, not unknown", async () => {
    const { message } = await modernCall("toString", {});
    expect(errorOf(message)!.message).toBe("Tool toString disabled");
  });

  it("H: arguments that are not an object get the validator's issue list", async () => {
    const { message } = await modernCall("echo", [1]);
    expect(errorOf(message)!.code).toBe(-32602);
    expect(errorOf(message)!.message).toMatch(/"code": "invalid_type"/);
  });

  it("I: it advertises listChanged once a tool is registered, unless told otherwise", async () => {
    const { message } = await legacy("initialize", { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "c", version: "1" } }, {});
    expect((message.result as { capabilities: { tools: { listChanged: boolean } } }).capabilities.tools.listChanged).toBe(true);
    expect(STATELESS_CAPABILITIES.tools.listChanged).toBe(false);
  });

  it("J: a request's own state reaches the server factory only as authInfo", async () => {
    seen.length = 0;
    await legacy("tools/list", {});
    await post(JSON.stringify({ jsonrpc: "2.0", id: 6, method: "tools/list" }), { "mcp-protocol-version": LEGACY }, carry({ call: "mine" }));
    expect(carried(seen[0], "call")).toBeUndefined();
    expect(carried(seen[1], "call")).toBe("mine");
  });

  it("K: it serves any Host unless the route checks it, and its check's refusal is a bare sentence", async () => {
    const foreign = await post(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }), { "mcp-protocol-version": LEGACY, host: "attacker.example" });
    expect(foreign.status).toBe(200);
    const check = validateHostHeader("attacker.example", ["127.0.0.1"]);
    expect(check.ok).toBe(false);
    expect(typeof (check as { message: unknown }).message).toBe("string");
  });
});

// What src/mcp/replay.ts relies on to answer a tool call in the SDK's envelope without the SDK. A
// failure here means the shortcut would no longer write what the SDK writes: MCP_REPLAY=off is the
// way back while replay.ts is changed.
describe("what answering in the SDK's envelope relies on (replay.ts)", () => {
  const META = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const modernHeaders = (name: string) => ({ "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name });

  it("its classification of a tools/call depends neither on the id (a string or safe integer) nor on what the arguments object holds", () => {
    const routeOf = (headers: Record<string, string>, id: unknown, args: unknown, meta?: unknown) => {
      const route = classifyInboundRequest({
        httpMethod: "POST",
        protocolVersionHeader: headers["mcp-protocol-version"],
        mcpMethodHeader: headers["mcp-method"],
        mcpNameHeader: headers["mcp-name"],
        body: { jsonrpc: "2.0", id, method: "tools/call", params: { name: "card", arguments: args, ...(meta ? { _meta: meta } : {}) } },
      });
      // What replay.ts reads of a route: its kind, the message kind and the revision.
      const r = route as { kind: string; messageKind?: string; reason?: string; classification?: { revision?: string } };
      return JSON.stringify([r.kind, r.messageKind, r.reason, r.classification?.revision]);
    };
    const ids = [0, 7, -3, Number.MAX_SAFE_INTEGER, "", "a", "x".repeat(200), "é"];
    const args = [{}, { spot: "a" }, { a: { b: [1, { c: null }] } }, { "": 1, "io.modelcontextprotocol/x": "y" }, { n: 1.5, s: "\u0000" }];
    for (const [headers, meta] of [
      [modernHeaders("card"), META],
      [{ "mcp-protocol-version": LEGACY }, undefined],
    ] as const) {
      const base = routeOf(headers, 1, {}, meta);
      expect(JSON.parse(base)[0]).toBe(meta ? "modern" : "legacy");
      for (const id of ids) for (const a of args) expect(routeOf(headers, id, a, meta), `${JSON.stringify(id)} ${JSON.stringify(a)}`).toBe(base);
    }
  });

  it("it writes every result of a kind in one envelope around the text and structured content, ending with the id", async () => {
    const answer = async (era: string, id: string | number, args: { text: string; n: number; fail: boolean }) => {
      const modern = era === MODERN;
      const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "card", arguments: args, ...(modern ? { _meta: META } : {}) } });
      const request = new Request("http://127.0.0.1/mcp", {
        method: "POST",
        body,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(modern ? modernHeaders("card") : { "mcp-protocol-version": LEGACY }) },
      });
      const response = await bare.fetch(request);
      return { response, bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const json = (v: unknown) => Buffer.from(JSON.stringify(v));
    const structuredOf = (a: { text: string; n: number; fail: boolean }) => (a.fail ? { error: { code: a.text, n: a.n } } : { n: a.n, text: a.text });
    for (const era of [MODERN, LEGACY]) {
      for (const fail of [false, true]) {
        // Learning reads only the kind and the id of the call it learns from.
        const call: Pick<ReplayableCall, "envelope" | "id"> = { id: 1, envelope: `${era} card` };
        const cache = new EnvelopeCache();
        const first = { text: '## One\n**bold** «quoted» "x"', n: 1, fail };
        const learned = await answer(era, 1, first);
        cache.learn(call, fail, learned.response, learned.bytes, textMid(first.text), json(structuredOf(first)));
        const envelope = fail ? cache.of(call)?.error : cache.of(call)?.result;
        expect(envelope, `${era} ${fail ? "tool error" : "result"}: an envelope is learned`).toBeDefined();
        for (const [id, args] of [
          [2, { text: "other\ttext with a newline\n and </script>", n: 2.5, fail }],
          ["id-three", { text: "", n: -1e21, fail }],
        ] as const) {
          const sdk = await answer(era, id, args);
          const ours = enveloped(envelope!, textMid(args.text), json(structuredOf(args)), id);
          expect(Buffer.concat([...ours.parts, ours.end]).toString(), `${era} ${JSON.stringify(args)}`).toBe(sdk.bytes.toString());
          expect(ours.length).toBe(sdk.bytes.length);
          expect([...sdk.response.headers].filter(([k]) => k !== "content-length").flat()).toEqual(envelope!.headers);
        }
      }
    }
  });
});
