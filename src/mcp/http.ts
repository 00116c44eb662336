// POST /mcp: the Streamable HTTP endpoint (stateless; 2026-07-28 per-request calls and the 2025
// initialize-then-call eras at one URL), guarded against DNS rebinding by Host and Origin checks,
// served from node:http. The SDK answers every request it is given, errors included (malformed
// JSON is its -32700, an oversized body its 413).
//
// Replayed tool calls skip the SDK. A 2026-07-28 tools/call is self-contained: the SDK's answer is a
// function of the request's headers, its body and the tool's result, and it echoes the JSON-RPC id.
// So when a call succeeds from a cached answer, its response bytes are kept, keyed by the headers
// that reach the SDK and the body without its id. The same call again, while that answer is still
// the valid one, is admitted and charged like any call and gets those bytes with its own id: the
// SDK's work (web Request/Response, message validation, a server per request, serialising a
// 35 KB result) is done once per answer instead of once per call. Measured in BENCHMARKS.md.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";
import { LRUCache } from "lru-cache";
import type { CachedAnswer } from "../answer-cache.js";
import type { Source } from "../attribution.js";
import type { ServiceContext } from "../context.js";
import { applyCommonHeaders, callerOf, requestState, writeHeadAll } from "../http/request-state.js";
import { MCP_MAX_BODY_BYTES } from "../limits.js";
import type { Operation } from "../metering/meter.js";
import type { Raw } from "../params.js";
import { createMcpServerFactory, TOOLS, type CallRecord } from "./server.js";
import { MCP_PROTOCOL_VERSIONS, UNSUPPORTED_PROTOCOL_VERSION } from "./versions.js";

/** Where the endpoint is served (the discovery documents and OpenAPI name it too). */
export const MCP_PATH = "/mcp";

/** Request headers that never reach the SDK's answer: transport, identity (metered by us), tracing. */
const NOT_IN_ANSWER = new Set([
  "host",
  "origin",
  "connection",
  "keep-alive",
  "content-length",
  "accept-encoding",
  "accept-language",
  "user-agent",
  "authorization",
  "x-service-key",
  "x-request-id",
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "x-real-ip",
  "forwarded",
  "traceparent",
  "tracestate",
  "referer",
]);

const REPLAY_CACHE_BYTES = 16 * 1024 * 1024;

interface Replay {
  op: Operation;
  /** The answer the response was built from: the replay is valid while that answer is current. */
  answer: CachedAnswer<unknown>;
  status: number;
  /** The SDK's response headers as a flat name/value list. */
  headers: string[];
  /** The response up to the echoed id (`…,"id":`); the caller's id and `}` complete it. */
  prefix: Buffer;
}

interface ToolCall {
  id: string | number;
  op: Operation;
  args: Record<string, Raw>;
  /** Headers that reach the SDK plus the body without its id. */
  key: string;
}

const OPERATION_OF = new Map(TOOLS.map((t) => [t.name, t.operation]));

/** A single JSON-RPC tools/call for one of our tools, else null (the SDK handles everything else). */
function toolCallOf(req: IncomingMessage, body: unknown): ToolCall | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const { id, method, params } = body as { id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown } };
  if (method !== "tools/call" || (typeof id !== "string" && typeof id !== "number") || typeof params !== "object" || params === null) return null;
  const op = typeof params.name === "string" ? OPERATION_OF.get(params.name) : undefined;
  const args = params.arguments ?? {};
  if (!op || typeof args !== "object" || args === null || Array.isArray(args)) return null;
  let key = "";
  const headers = req.headers;
  for (const name in headers) if (!NOT_IN_ANSWER.has(name)) key += `${name}:${String(headers[name])}\n`;
  key += JSON.stringify({ ...body, id: null });
  return { id, op, args: args as Record<string, Raw>, key };
}

/** The body's chunks; `over` when it passes the limit (the SDK then answers 413 from what was read). */
function readBody(req: IncomingMessage, limit: number): Promise<{ chunks: Buffer[]; over: boolean }> {
  const chunks: Buffer[] = [];
  if (Number(req.headers["content-length"]) > limit) return Promise.resolve({ chunks, over: true });
  // Events rather than an async iterator: a tool call's body is one chunk, and this is per call.
  return new Promise((resolve, reject) => {
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData).off("end", onEnd).off("error", reject);
        req.pause();
        resolve({ chunks, over: true });
      }
    };
    const onEnd = () => resolve({ chunks, over: false });
    req.on("data", onData).on("end", onEnd).on("error", reject);
  });
}

/**
 * The one version story: an MCP-Protocol-Version header naming a version not served here is a 400
 * with UnsupportedProtocolVersionError (-32022) listing the versions that are, in every era (the SDK
 * would let a 2025-era leg fall back to versions it knows but this server does not offer). A JSON-RPC
 * batch is refused: every version served here (2025-06-18 on) removed batching.
 */
function versionOrBatchRefusal(req: IncomingMessage, body: unknown, source: Source): string | null {
  const header = req.headers["mcp-protocol-version"];
  const requested = typeof header === "string" ? header.trim() : undefined;
  if (requested !== undefined && requested !== "" && !MCP_PROTOCOL_VERSIONS.includes(requested)) {
    const id = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as { id?: unknown }).id : null;
    return jsonRpcError(source, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", { supported: [...MCP_PROTOCOL_VERSIONS], requested }, id);
  }
  if (Array.isArray(body)) {
    return jsonRpcError(source, -32600, `Invalid Request: JSON-RPC batches are not accepted; protocol versions ${MCP_PROTOCOL_VERSIONS.join(", ")} send one message per POST.`);
  }
  return null;
}

/** A JSON-RPC error body with `source` in its data, as every JSON body of the service carries. */
function jsonRpcError(source: Source, code: number, message: string, data: Record<string, unknown> = {}, id: unknown = null): string {
  return JSON.stringify({ jsonrpc: "2.0", error: { code, message, data: { ...data, source } }, id: typeof id === "string" || typeof id === "number" ? id : null });
}

/** Adds `source` to the data of a JSON-RPC error object (the SDK's own errors carry none). */
function withSource(message: unknown, source: Source): boolean {
  if (typeof message !== "object" || message === null) return false;
  const error = (message as { error?: { data?: unknown } }).error;
  if (typeof error !== "object" || error === null) return false;
  if (error.data === undefined) error.data = { source };
  else if (typeof error.data === "object" && error.data !== null && !Array.isArray(error.data)) (error.data as Record<string, unknown>).source = source;
  else return false;
  return true;
}

/**
 * The SDK's JSON-RPC error answers (JSON, or one SSE event for 2025-era requests) with `source`
 * added; a result is returned untouched. Error answers are small, so they are the only ones read.
 */
async function sourcedErrors(response: Response, source: Source): Promise<Response> {
  const type = response.headers.get("content-type") ?? "";
  const length = Number(response.headers.get("content-length") ?? Number.NaN);
  const json = type.startsWith("application/json");
  if (!json || response.status === 200 || response.status === 202 || !(length < 65_536 || Number.isNaN(length))) return response;
  const text = await response.text();
  let out = text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (withSource(parsed, source)) out = JSON.stringify(parsed);
  } catch {
    // not JSON after all: passed on as it came
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(out, { status: response.status, headers });
}

export interface McpRoute {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

export function createMcpRoute(ctx: ServiceContext): McpRoute {
  const onerror = (err: Error) => ctx.log.debug({ err: err.message }, "mcp request rejected");
  const sdk = createMcpHandler(createMcpServerFactory(ctx), { onerror, maxRequestBodySize: MCP_MAX_BODY_BYTES });
  const replays = new LRUCache<string, Replay>({ maxSize: REPLAY_CACHE_BYTES, sizeCalculation: (r) => r.prefix.length + 256 });

  // The SDK's handler, keeping the bytes of each tool call answered from a cached answer.
  const keeping = {
    async fetch(request: Request, options?: Parameters<typeof sdk.fetch>[1]): Promise<Response> {
      const response = await sourcedErrors(await sdk.fetch(request, options), ctx.source);
      const extra = options?.authInfo?.extra as { call: CallRecord; toolCall: ToolCall | null } | undefined;
      const answer = extra?.call.answered;
      const call = extra?.toolCall;
      if (!answer || !call || response.status !== 200 || !response.headers.get("content-type")?.startsWith("application/json")) return response;
      const bytes = Buffer.from(await response.arrayBuffer());
      const id = Buffer.from(`${JSON.stringify(call.id)}}`);
      const idAt = bytes.length - id.length;
      if (idAt > 5 && bytes.subarray(idAt - 5, idAt).toString("latin1") === '"id":' && bytes.subarray(idAt).equals(id)) {
        const headers = [...response.headers].filter(([k]) => k !== "content-length").flat();
        replays.set(call.key, { op: call.op, answer, status: response.status, headers, prefix: bytes.subarray(0, idAt) });
      }
      return new Response(bytes, { status: response.status, headers: response.headers });
    },
  };
  const node = toNodeHandler(keeping, { onerror: (err) => ctx.log.error({ err }, "mcp adapter error"), maxRequestBodySize: MCP_MAX_BODY_BYTES });

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    // Replays write every header at once; everything else is built header by header.
    const guard = [validateHostHeader(req.headers.host, ctx.config.mcpAllowedHosts), validateOriginHeader(req.headers.origin, ctx.config.mcpAllowedOrigins)].find((v) => !v.ok);
    if (guard && !guard.ok) {
      applyCommonHeaders(res);
      res.writeHead(403, { "Content-Type": "application/json" });
      res.end(jsonRpcError(ctx.source, -32000, guard.message));
      return;
    }
    if (req.method !== "POST") {
      applyCommonHeaders(res);
      // No server-push stream and no sessions: every other method is 405 (spec: GET returns 405).
      res.writeHead(405, { Allow: "POST", "Content-Type": "application/json" });
      res.end(jsonRpcError(ctx.source, -32000, "Method not allowed: use POST."));
      return;
    }
    const caller = callerOf(ctx, req, res);
    const { chunks, over } = await readBody(req, MCP_MAX_BODY_BYTES);
    let body: unknown;
    if (!over) {
      try {
        body = JSON.parse((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString("utf8"));
      } catch {
        body = undefined; // the SDK answers -32700
      }
    }
    const refusal = versionOrBatchRefusal(req, body, ctx.source);
    if (refusal) {
      applyCommonHeaders(res);
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end(refusal);
      return;
    }
    const call: CallRecord = { caller };
    const toolCall = toolCallOf(req, body);
    const replay = toolCall && replays.get(toolCall.key);
    if (toolCall && replay && ctx.answers.isCurrent(replay.answer)) {
      let refused: { refused: unknown } | undefined;
      try {
        await (await ctx.meter.admit(replay.op, toolCall.args, caller)).charge();
      } catch (e) {
        refused = { refused: e };
      }
      if (!refused) {
        const tail = Buffer.from(`${JSON.stringify(toolCall.id)}}`);
        const state = requestState(res);
        if (state) state.replayed = true;
        writeHeadAll(res, replay.status, [...replay.headers, "Content-Length", String(replay.prefix.length + tail.length)]);
        // Stored bytes and the caller's id in one write, without copying the stored bytes (end uncorks).
        res.cork();
        res.write(replay.prefix);
        res.end(tail);
        return;
      }
      // Refused (rate limit, key): the SDK answers with the tool error, without admitting again.
      call.admission = refused;
    }
    applyCommonHeaders(res);
    // The SDK reads the body again from what was read here; a parsed object is handed over as is.
    const again = Object.assign(Readable.from(chunks), { method: req.method, url: req.url, headers: req.headers });
    const auth = { token: "", clientId: "", scopes: [], extra: { call, toolCall } };
    await node(Object.assign(again, { auth }) as unknown as IncomingMessage, res, typeof body === "object" && body !== null ? body : undefined);
  };
  const route = (req: IncomingMessage, res: ServerResponse) =>
    serve(req, res).catch((err: unknown) => {
      // Only the request stream can fail here (a client gone mid-body); the SDK answers its own faults.
      ctx.log.debug({ err }, "mcp request not read");
      if (!res.headersSent) res.writeHead(400, { "Content-Type": "application/json", Connection: "close" });
      res.end(jsonRpcError(ctx.source, -32700, "Parse error: the request body could not be read"));
    });
  return Object.assign(route, { close: () => sdk.close() });
}
