// POST /mcp: the Streamable HTTP endpoint (stateless; 2026-07-28 per-request calls and the 2025
// initialize-then-call eras at one URL), guarded against DNS rebinding by Host and Origin checks,
// served from node:http. The SDK answers every request it is given, errors included (malformed
// JSON is its -32700), except what it would answer without `source` or with the wrong code: each
// such workaround is in sdk-fence.ts, with a test that fails when the SDK changes.
//
// Replayed tool calls (2026-07-28 and 2025-era alike) skip the SDK: see replay.ts for when a stored
// response may stand in for the SDK's. Measured in BENCHMARKS.md.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import type { ServiceContext } from "../services/context.js";
import { applyCommonHeaders, callerOf, headerList, requestState } from "../web/request-state.js";
import { MCP_MAX_BODY_BYTES, MCP_MAX_JSON_DEPTH } from "../web/http-limits.js";
import { scanBody } from "./body-scan.js";
import { knownCall, ReplayCache, replayableCall, type ReplayableCall } from "./replay.js";
import { forbiddenArgName } from "../services/answer-cache.js";
import { createMcpServerFactory, type CallRecord } from "./server.js";
import { carry, jsonRpcError, readBody, rebindingGuard, sourcedErrors, versionOrBatchRefusal } from "./sdk-fence.js";

/** Where the endpoint is served (the discovery documents and OpenAPI name it too). */
export const MCP_PATH = "/mcp";

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

  const guardRefusal = rebindingGuard(ctx.config.mcpAllowedHosts, ctx.config.mcpAllowedOrigins);

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
    const auth = carry({ call, toolCall });
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
