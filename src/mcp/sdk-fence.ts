// Every place /mcp works around the MCP SDK (@modelcontextprotocol/server 2.4.0, pinned), one
// behaviour each, named by the letter its pin test carries in test/mcp-sdk-fence.test.ts. Those tests
// call the SDK bare, without this module, and assert the behaviour is still there: when an SDK
// release changes one, its test fails, and the workaround can go.
//
//   A. The SDK's own error answers carry no `source` (the spec asks every JSON body for one):
//      sourcedErrors / sourcedEvents add it, and jsonRpcError writes our own refusals with it.
//   B. Its 413 for an oversized body is written without `source`: readBody stops reading at the limit
//      and the route answers the 413 itself.
//   C. It parses JSON of any depth: the route refuses deeper than MCP_MAX_JSON_DEPTH (body-scan.ts).
//   D. An MCP-Protocol-Version header naming a version the SDK knows but this server does not offer
//      (2024-11-05) is served; one it does not know gets -32000 without the list of versions served
//      here. versionOrBatchRefusal answers -32022 (UnsupportedProtocolVersionError) listing ours.
//   E. It answers a JSON-RPC batch, which every version served here removed: refused with -32600.
//   F. `initialize` params that do not validate get -32603 (internal error) with the validator's
//      issue list as the message: refused here with -32602 and a sentence.
//   G. A tool named after an Object.prototype member (`toString`, `__proto__`) is found on the
//      prototype and answered "Tool toString disabled": refused as not found.
//   H. Tool arguments that are not an object get the validator's issue list as the message: refused
//      with a sentence.
//   I. It defaults `listChanged` to true once a tool is registered, though a stateless server never
//      notifies: STATELESS_CAPABILITIES says false.
//   J. A request's own state reaches the server factory only through `authInfo.extra`: carried and
//      read by carry() / carried(), nowhere else.
//   K. Its DNS-rebinding checks (validateHostHeader / validateOriginHeader) parse URLs on every call
//      and their refusal has no `source`: rebindingGuard keeps the pairs that passed and answers with
//      jsonRpcError.
import type { IncomingMessage } from "node:http";
import { validateHostHeader, validateOriginHeader, type McpRequestContext } from "@modelcontextprotocol/server";
import type { Source } from "../base/attribution.js";
import { MCP_PROTOCOL_VERSIONS, UNSUPPORTED_PROTOCOL_VERSION } from "./versions.js";

/** B: the body's chunks; `over` when it passes the limit, and the route answers the 413 itself. */
export function readBody(req: IncomingMessage, limit: number): Promise<{ chunks: Buffer[]; over: boolean }> {
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
 * D and E. The one version story: an MCP-Protocol-Version header naming a version not served here is a 400
 * with UnsupportedProtocolVersionError (-32022) listing the versions that are, in every era (the SDK
 * would let a 2025-era leg fall back to versions it knows but this server does not offer). A JSON-RPC
 * batch is refused: every version served here (2025-06-18 on) removed batching.
 */
export function versionOrBatchRefusal(req: IncomingMessage, body: unknown, source: Source): string | null {
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
 * F, G and H. Params the SDK would misanswer: an `initialize` whose params do not validate (the SDK says -32603
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

/** A: a JSON-RPC error body with `source` in its data, as every JSON body of the service carries. */
export function jsonRpcError(source: Source, code: number, message: string, data: Record<string, unknown> = {}, id: unknown = null): string {
  return JSON.stringify({ jsonrpc: "2.0", error: { code, message, data: { ...data, source } }, id: typeof id === "string" || typeof id === "number" ? id : null });
}

/** A: adds `source` to the data of a JSON-RPC error object (the SDK's own errors carry none). */
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
 * A: the SDK's JSON-RPC error answers (JSON, or one SSE event for 2025-era requests) with `source`
 * added; a result is returned untouched. Error answers are small, so they are the only ones read.
 */
export async function sourcedErrors(response: Response, source: Source): Promise<Response> {
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
 * A: 2025-era answers come as SSE events with status 200, errors included (an unknown method or tool):
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

/** I: what a stateless server declares for the lists it serves (the SDK would say listChanged: true). */
export const STATELESS_CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false } } as const;

/** J: a request's own state, handed to the server factory as the SDK's authInfo (its only channel). */
export function carry(extra: Record<string, unknown>): { token: string; clientId: string; scopes: string[]; extra: Record<string, unknown> } {
  return { token: "", clientId: "", scopes: [], extra };
}

/** J: what carry() put in the request's authInfo, or undefined (stdio, or a request not from /mcp). */
export function carried(reqCtx: McpRequestContext | undefined, key: string): unknown {
  return reqCtx?.authInfo?.extra?.[key];
}

/**
 * K: the DNS-rebinding check for a Host and Origin pair: null when allowed, else the SDK's reason.
 * Pairs that passed are kept (a few: clients send the same pair on every call), each check parsing a URL.
 */
export function rebindingGuard(allowedHosts: string[], allowedOrigins: string[]): (host: string | undefined, origin: string | undefined) => string | null {
  const passed = new Set<string>();
  return (host, origin) => {
    const pair = `${host ?? "\u0000"}\n${origin ?? "\u0000"}`;
    if (passed.has(pair)) return null;
    const failed = [validateHostHeader(host, allowedHosts), validateOriginHeader(origin, allowedOrigins)].find((v) => !v.ok);
    if (failed && !failed.ok) return failed.message;
    if (passed.size >= 64) passed.clear();
    passed.add(pair);
    return null;
  };
}
