// POST /mcp: the Streamable HTTP endpoint (stateless; 2026-07-28 per-request calls and the 2025
// initialize-then-call eras at one URL), guarded against DNS rebinding by Host and Origin checks,
// served from node:http. The SDK answers every request it is given, errors included (malformed
// JSON is its -32700), except what it would answer without `source` or with the wrong code: each
// such workaround is in sdk-fence.ts, with a test that fails when the SDK changes.
//
// Tool calls (2026-07-28 and 2025-era alike) are run here and written into the SDK's own envelope
// once the SDK has answered one call of their kind: see replay.ts for when that envelope may stand
// in for the SDK's. Measured in BENCHMARKS.md.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, type CallToolResult } from "@modelcontextprotocol/server";
import type { ServiceContext } from "../services/context.js";
import { applyCommonHeaders, callerOf, headerList, requestState } from "../web/request-state.js";
import { MCP_MAX_BODY_BYTES, MCP_MAX_JSON_DEPTH } from "../web/http-limits.js";
import { scanBody } from "./body-scan.js";
import { enveloped, EnvelopeCache, knownCall, replayableCall, shapeOf, textMid, type ReplayableCall } from "./replay.js";
import { forbiddenArgName, type CachedAnswer } from "../services/answer-cache.js";
import { callTool, createMcpServerFactory, type CallRecord } from "./server.js";
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
  // MCP_REPLAY=off: no call is classified or answered here; the SDK answers every one.
  const replaying = ctx.config.mcpReplay;
  const envelopes = new EnvelopeCache();

  // The JSON of a result's text (followed by what comes before the structured content) and of its
  // structured content. A cached answer's body is the JSON REST serves; its Markdown's JSON is kept
  // beside it for as long as the answer lives.
  const markdownJson = new WeakMap<CachedAnswer<unknown>, Buffer>();
  const resultJson = (result: CallToolResult, answer: CachedAnswer<unknown> | undefined): { text: Buffer; structured: Buffer } => {
    const markdown = (result.content[0] as { text: string }).text;
    if (answer && answer.value === result.structuredContent && answer.markdown === markdown) {
      let text = markdownJson.get(answer);
      if (!text) markdownJson.set(answer, (text = textMid(markdown)));
      return { text, structured: answer.body };
    }
    return { text: textMid(markdown), structured: Buffer.from(JSON.stringify(result.structuredContent)) };
  };

  // The SDK's handler; for a tool call it answered with a result, the response's envelope is learned.
  const keeping = {
    async fetch(request: Request, options?: Parameters<typeof sdk.fetch>[1]): Promise<Response> {
      const response = await sourcedErrors(await sdk.fetch(request, options), ctx.source);
      const extra = options?.authInfo?.extra as { call: CallRecord; toolCall: ReplayableCall | null } | undefined;
      const call = extra?.toolCall;
      // The call's RateLimit headers, as REST sends them (the counters are shared); never kept
      // with an envelope, which carries no caller's.
      const withRateLimit = (r: Response) => {
        for (const [name, value] of Object.entries(extra?.call.rateLimit ?? {})) r.headers.set(name, value);
        return r;
      };
      const type = response.headers.get("content-type") ?? "";
      // A 2026-07-28 answer is one JSON body, complete when it arrives. A 2025-era answer is one SSE
      // event on a stream the stateless transport closes after it, opened before the tool has run:
      // a classified call's stream is read to its end before the result it carries is known.
      const sse = type.startsWith("text/event-stream");
      if (!call || response.status !== 200 || !(type.startsWith("application/json") || sse) || (!sse && !extra.call.ran)) return withRateLimit(response);
      const bytes = Buffer.from(await response.arrayBuffer());
      const ran = extra.call.ran;
      if (ran) {
        const { text, structured } = resultJson(ran.result, extra.call.answered);
        envelopes.learn(call, ran.result.isError === true, response, bytes, text, structured);
      }
      return withRateLimit(new Response(bytes, { status: response.status, headers: response.headers }));
    },
  };
  const node = toNodeHandler(keeping, { onerror: (err) => ctx.log.error({ err }, "mcp adapter error"), maxRequestBodySize: MCP_MAX_BODY_BYTES });

  const guardRefusal = rebindingGuard(ctx.config.mcpAllowedHosts, ctx.config.mcpAllowedOrigins);

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    // A call answered in the SDK's envelope writes every header at once; everything else is built header by header.
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
    const shape = replaying && scan.id ? shapeOf(req, raw, scan.id) : null;
    let toolCall = shape ? knownCall(shape) : undefined;
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
      toolCall = replaying ? (replayableCall(req, body, shape) ?? undefined) : undefined;
    }
    const call: CallRecord = { caller };
    // Only a kind the SDK has answered with a result before is run here: the SDK refuses some
    // calls its classifier accepts (an Mcp-Name header naming another tool), and those must reach
    // it before the tool runs or is metered.
    const kind = toolCall && envelopes.of(toolCall);
    if (toolCall && kind) {
      const tool = toolCall.tool;
      // Run as the SDK would run it (the same admission and answer); the SDK is handed the result
      // when there is no envelope for it yet (the first tool error of the kind). The SDK would
      // check a result against the tool's output schema first; this path does not: a result is
      // the answer REST serves, built by typed code, and the tests check every answer against the
      // schemas (the check was 9 % of a first-time call's CPU, BENCHMARKS.md).
      const result = await callTool(tool, toolCall.input, ctx, call, toolCall.memo);
      call.ran = { tool: tool.name, result };
      const envelope = result.isError === true ? kind.error : kind.result;
      if (envelope) {
        const { text, structured } = resultJson(result, call.answered);
        const { parts, end, length } = enveloped(envelope, text, structured, toolCall.id);
        const state = requestState(res);
        if (state) state.replayed = true;
        const headers = headerList(res);
        for (let i = 0; i < envelope.headers.length; i++) headers.push(envelope.headers[i]!);
        for (const name in call.rateLimit) headers.push(name, call.rateLimit[name]!);
        headers.push("Content-Length", String(length));
        res.writeHead(envelope.status, headers);
        // One write of the envelope, the answer's bytes and the caller's id, without copying (end uncorks).
        res.cork();
        res.write(parts[0]);
        res.write(parts[1]);
        res.write(parts[2]);
        res.end(end);
        return;
      }
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
