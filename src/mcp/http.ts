// POST /mcp: the Streamable HTTP endpoint (stateless; 2026-07-28 per-request calls and the 2025
// initialize-then-call eras at one URL), guarded against DNS rebinding by Host and Origin checks,
// served from node:http. The SDK answers every request it is given, errors included (malformed
// JSON is its -32700), except what it would answer without `source` or with the wrong code: an
// oversized body (413), initialize params that do not validate, tool names from Object.prototype,
// tool arguments that are not an object.
//
// Replayed tool calls (2026-07-28 and 2025-era alike) skip the SDK: see replay.ts for when a stored
// response may stand in for the SDK's. Measured in BENCHMARKS.md.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";
import type { ServiceContext } from "../services/context.js";
import { applyCommonHeaders, callerOf, headerList, requestState } from "../web/request-state.js";
import { MCP_MAX_BODY_BYTES, MCP_MAX_JSON_DEPTH } from "../web/http-limits.js";
import { scanBody } from "./body-scan.js";
import { knownCall, ReplayCache, replayableCall, type ReplayableCall } from "./replay.js";
import { forbiddenArgName } from "../services/answer-cache.js";
import { createMcpServerFactory, type CallRecord } from "./server.js";
import type { Source } from "../base/attribution.js";
import { MCP_PROTOCOL_VERSIONS, UNSUPPORTED_PROTOCOL_VERSION } from "./versions.js";

/** Where the endpoint is served (the discovery documents and OpenAPI name it too). */
export const MCP_PATH = "/mcp";

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
  return paramsRefusal(body, source);
}

/**
 * Params the SDK would misanswer: an `initialize` whose params do not validate (the SDK says -32603
 * with its validator's dump), and a tool name that is an Object.prototype member such as
 * `__proto__` or `toString` (the SDK's lookup finds the prototype's and says "disabled").
 */
function paramsRefusal(body: unknown, source: Source): string | null {
  if (typeof body !== "object" || body === null) return null;
  const { method, params, id } = body as { method?: unknown; params?: unknown; id?: unknown };
  const p = (typeof params === "object" && params !== null ? params : {}) as Record<string, unknown>;
  const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  if (method === "initialize") {
    const info = p.clientInfo as Record<string, unknown> | undefined;
    if (typeof p.protocolVersion !== "string" || !isObject(p.capabilities) || !isObject(info) || typeof info!.name !== "string" || typeof info!.version !== "string") {
      return jsonRpcError(
        source,
        -32602,
        "Invalid params: initialize needs params.protocolVersion (a string), params.capabilities (an object) and params.clientInfo (an object with name and version strings).",
        {},
        id,
      );
    }
  }
  if (method === "tools/call" && typeof p.name === "string" && p.name in Object.prototype) {
    return jsonRpcError(source, -32602, `Tool ${p.name} not found`, {}, id);
  }
  // Arguments that are not an object (a list, a string): the SDK's refusal dumps its validator's
  // issue list, and in the 2026 era carries no source.
  if (method === "tools/call" && p.arguments !== undefined && !isObject(p.arguments)) {
    return jsonRpcError(source, -32602, "Invalid params: params.arguments must be an object of named arguments (list_coverage lists each tool's).", {}, id);
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
  if (type.startsWith("text/event-stream") && response.body) {
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return new Response(response.body.pipeThrough(sourcedEvents(source)), { status: response.status, headers });
  }
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

/**
 * 2025-era answers come as SSE events with status 200, errors included (an unknown method or tool):
 * each event's `data:` line that holds a JSON-RPC error gets `source` too. Events are cut at the
 * blank line that ends them; results pass through unparsed unless they mention "error".
 */
function sourcedEvents(source: Source): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  const rewrite = (event: string) =>
    event
      .split("\n")
      .map((line) => {
        if (!line.startsWith("data: ") || !line.includes('"error"')) return line;
        try {
          const message: unknown = JSON.parse(line.slice(6));
          return withSource(message, source) ? `data: ${JSON.stringify(message)}` : line;
        } catch {
          return line;
        }
      })
      .join("\n");
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      const end = pending.lastIndexOf("\n\n");
      if (end < 0) return;
      controller.enqueue(encoder.encode(rewrite(pending.slice(0, end + 2))));
      pending = pending.slice(end + 2);
    },
    flush(controller) {
      pending += decoder.decode();
      if (pending) controller.enqueue(encoder.encode(rewrite(pending)));
    },
  });
}

export interface McpRoute {
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

export function createMcpRoute(ctx: ServiceContext): McpRoute {
  const onerror = (err: Error) => ctx.log.debug({ err: err.message }, "mcp request rejected");
  const sdk = createMcpHandler(createMcpServerFactory(ctx), { onerror, maxRequestBodySize: MCP_MAX_BODY_BYTES });
  // MCP_REPLAY=off: no call is classified, kept or replayed; the SDK answers every one.
  const replaying = ctx.config.mcpReplay;
  const replays = new ReplayCache((answer) => ctx.answers.isCurrent(answer));

  // The SDK's handler, keeping the bytes of each tool call answered from a cached answer.
  const keeping = {
    async fetch(request: Request, options?: Parameters<typeof sdk.fetch>[1]): Promise<Response> {
      const response = await sourcedErrors(await sdk.fetch(request, options), ctx.source);
      const extra = options?.authInfo?.extra as { call: CallRecord; toolCall: ReplayableCall | null } | undefined;
      const call = extra?.toolCall;
      // The call's RateLimit headers, as REST sends them (the counters are shared); never stored
      // with a replay, which carries its own caller's.
      const withRateLimit = (r: Response) => {
        for (const [name, value] of Object.entries(extra?.call.rateLimit ?? {})) r.headers.set(name, value);
        return r;
      };
      const type = response.headers.get("content-type") ?? "";
      // A 2026-07-28 answer is one JSON body, complete when it arrives. A 2025-era answer is one SSE
      // event on a stream the stateless transport closes after it, opened before the tool has run:
      // a replay candidate's stream is read to its end before the answer it came from is known.
      const sse = type.startsWith("text/event-stream");
      if (!call || response.status !== 200 || !(type.startsWith("application/json") || sse) || (!sse && !extra?.call.answered)) return withRateLimit(response);
      const bytes = Buffer.from(await response.arrayBuffer());
      const answer = extra?.call.answered;
      if (answer) replays.record(call, answer, response, bytes);
      return withRateLimit(new Response(bytes, { status: response.status, headers: response.headers }));
    },
  };
  const node = toNodeHandler(keeping, { onerror: (err) => ctx.log.error({ err }, "mcp adapter error"), maxRequestBodySize: MCP_MAX_BODY_BYTES });

  // Host and Origin pairs that passed the DNS-rebinding checks (each check parses a URL), a few
  // kept: clients send the same pair on every call.
  const passed = new Set<string>();
  const guardRefusal = (host: string | undefined, origin: string | undefined): string | null => {
    const pair = `${host ?? "\u0000"}\n${origin ?? "\u0000"}`;
    if (passed.has(pair)) return null;
    const failed = [validateHostHeader(host, ctx.config.mcpAllowedHosts), validateOriginHeader(origin, ctx.config.mcpAllowedOrigins)].find((v) => !v.ok);
    if (failed && !failed.ok) return failed.message;
    if (passed.size >= 64) passed.clear();
    passed.add(pair);
    return null;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    // Replays write every header at once; everything else is built header by header.
    const guard = guardRefusal(req.headers.host, req.headers.origin);
    if (guard) {
      applyCommonHeaders(res);
      res.writeHead(403, { "Content-Type": "application/json" });
      res.end(jsonRpcError(ctx.source, -32000, guard));
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
    if (over) {
      applyCommonHeaders(res);
      // The rest of the body is not read: the connection is not reused.
      res.writeHead(413, { "Content-Type": "application/json", Connection: "close" });
      res.end(jsonRpcError(ctx.source, -32000, `Payload Too Large: Request body must not exceed ${MCP_MAX_BODY_BYTES} bytes`));
      return;
    }
    const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const scan = scanBody(raw, MCP_MAX_JSON_DEPTH);
    if (scan.tooDeep) {
      applyCommonHeaders(res);
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end(jsonRpcError(ctx.source, -32600, `Invalid request: JSON nested deeper than ${MCP_MAX_JSON_DEPTH} levels`));
      return;
    }
    // A call seen before but for its id passed every check below then: it is neither parsed nor
    // classified again (see replay.ts).
    let toolCall = replaying && scan.id ? knownCall(req, raw, scan.id) : undefined;
    let body: unknown;
    let parsed = false;
    const parse = () => {
      parsed = true;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        body = undefined; // the SDK answers -32700
      }
    };
    if (!toolCall) {
      parse();
      const refusal = versionOrBatchRefusal(req, body, ctx.source);
      if (refusal) {
        applyCommonHeaders(res);
        res.writeHead(400, { "Content-Type": "application/json" });
        res.end(refusal);
        return;
      }
      toolCall = replaying ? (replayableCall(req, body, { raw, id: scan.id }) ?? undefined) : undefined;
    }
    const call: CallRecord = { caller };
    const replay = toolCall && replays.get(toolCall);
    if (toolCall && replay) {
      let refused: { refused: unknown } | undefined;
      let limits: Record<string, string> = {};
      try {
        limits = (await ctx.meter.admit(replay.op, toolCall.args, caller)).headers;
      } catch (e) {
        refused = { refused: e };
      }
      if (!refused) {
        const tail = `${JSON.stringify(toolCall.id)}${replay.close}`;
        const state = requestState(res);
        if (state) state.replayed = true;
        const headers = headerList(res);
        for (let i = 0; i < replay.headers.length; i++) headers.push(replay.headers[i]!);
        for (const name in limits) headers.push(name, limits[name]!);
        headers.push("Content-Length", String(replay.length + Buffer.byteLength(tail)));
        res.writeHead(replay.status, headers);
        // The stored envelope, the answer's bytes and the caller's id in one write, without copying (end uncorks).
        res.cork();
        for (const part of replay.parts) res.write(part);
        res.end(tail);
        return;
      }
      // Refused (rate limit, key): the SDK answers with the tool error, without admitting again.
      call.admission = refused;
    }
    if (!parsed) parse();
    // An argument named `__proto__`, `constructor` or `prototype` is refused as an unknown argument,
    // whether or not the SDK's parsing keeps it (answer-cache.ts, forbiddenArgName).
    const args = (body as { params?: { arguments?: unknown } } | undefined)?.params?.arguments;
    const forbidden = typeof args === "object" && args !== null ? forbiddenArgName(args) : null;
    if (forbidden !== null) call.forbiddenArgument = forbidden;
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
