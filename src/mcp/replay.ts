// Tool calls answered in the SDK's own envelope, without the SDK: a tools/call (either era) runs
// the tool as the SDK would (callTool, the same admission and answer cache), and its result is
// written into the envelope the SDK wrote around an earlier result of the same kind: the first
// call of each kind goes through the SDK, whose response bytes are kept as a template once they
// are verified to be exactly that envelope around that result (EnvelopeCache.learn). Both eras: a
// 2026-07-28 call (one JSON body) and a 2025-era call after `initialize` (one SSE event).
//
// An envelope must be exactly what the SDK would write, so:
// - it is only used for a request the SDK's own classifier accepts as a modern tools/call (its
//   JSON-RPC shape and id rules, its envelope and header cross-checks: an id of 1.5 or 1e999, a
//   malformed `_meta`, a header naming another method all go to the SDK, which refuses them), or
//   classifies as a 2025-era request without an envelope claim that the SDK's own CallToolRequest
//   schema accepts, with nothing in `params` but `name`, `arguments` and `_meta`, and no reserved
//   `io.modelcontextprotocol/` key in `_meta` (a task or related-task request goes to the SDK);
// - it is keyed by an allow-list of what reaches the SDK's envelope: the protocol revision, the
//   standard MCP headers and the Accept and Content-Type headers (which pick and gate the response
//   format), the tool, and whether the result is a tool error. Anything else a client or proxy
//   adds (trace ids, forwarding headers, `_meta` client details) does not make another kind;
// - only a kind the SDK has answered with a result is run outside it (a request its classifier
//   accepts may still be refused after it, an Mcp-Name header naming another tool: such a kind
//   never has an envelope);
// - the result in it is the one the SDK would have been handed (callTool); the SDK's check of it
//   against the tool's output schema is not repeated (it is the answer REST serves, and the tests
//   check every answer against the schemas);
// - the SDK behaviours this rests on (how it classifies, how it writes a result) are pinned in
//   test/mcp-sdk-fence.test.ts, and test/mcp-replay.test.ts compares answers with a twin at
//   MCP_REPLAY=off byte for byte.
import type { IncomingMessage } from "node:http";
import { classifyInboundRequest, isSpecType } from "@modelcontextprotocol/server";
import { LRUCache } from "lru-cache";
import { forbiddenArgName } from "../services/answer-cache.js";
import type { ToolDefinition } from "../answers/tool.js";
import { TOOLS, type ArgumentMemo } from "./server.js";

/**
 * Bytes of envelopes kept per instance (see `envelopeSize`): one per kind of call, a few hundred
 * bytes each; a miss is one call through the SDK.
 */
export const ENVELOPE_CACHE_BYTES = 256 * 1024;

/** Request headers that decide whether and how the SDK answers; nothing else is part of a kind's key. */
const KEYED_HEADERS = ["mcp-protocol-version", "mcp-method", "mcp-name", "accept", "content-type"] as const;

/** The SDK's response to a kind of tools/call, but for the result and the id. */
export interface Envelope {
  status: number;
  /** The SDK's response headers as a flat name/value list. */
  headers: string[];
  /** The response up to the result's text (`…"text":`). */
  head: Buffer;
  /** After the structured result, up to the echoed id (`…,"id":`). */
  tail: string;
  /** What follows the id: `}` for a JSON body, `}` and the blank line that ends the event for SSE. */
  close: string;
}

/** A tools/call for one of our tools that the SDK itself would accept, ready to be answered in its envelope or to teach it. */
export interface ReplayableCall {
  id: string | number;
  tool: ToolDefinition;
  /** The arguments as the request wrote them (what the SDK would hand the tool). */
  input: Record<string, unknown>;
  /** The kind of call: what reaches the SDK's envelope besides the result and the id. */
  envelope: string;
  /** What the arguments were found to be, shared by every call of the same shape (`knownCall`). */
  memo: ArgumentMemo;
}

/** The envelopes learned for one kind of call: around a result, and around a tool error. */
interface KindEnvelopes {
  result?: Envelope;
  error?: Envelope;
}

const TOOL_OF = new Map(TOOLS.map((t) => [t.name, t]));

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return v === undefined ? undefined : Array.isArray(v) ? v.join(", ") : v;
};

/** Params keys a 2025-era call may carry and still be answered in the envelope (anything else goes to the SDK). */
const LEGACY_PARAMS = new Set(["name", "arguments", "_meta"]);
/** `_meta` keys under this prefix are MCP's own (tasks, related tasks): such a call goes to the SDK. */
const RESERVED_META = "io.modelcontextprotocol/";

interface CallParts {
  id: string | number;
  params: Record<string, unknown>;
}

/**
 * A 2025-era tools/call's id and params when the SDK would serve it as an ordinary call; else null.
 * Its JSON-RPC shape (id included) was checked by the classifier that called it legacy.
 */
function legacyCall(body: Record<string, unknown>): CallParts | null {
  const id = body.id as string | number;
  if (!isSpecType.CallToolRequest(body)) return null;
  const params = body.params as Record<string, unknown>;
  for (const k of Object.keys(params)) if (!LEGACY_PARAMS.has(k)) return null;
  const meta = params._meta;
  if (meta !== undefined) {
    if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return null;
    for (const k of Object.keys(meta)) if (k.startsWith(RESERVED_META)) return null;
  }
  return { id, params };
}

/** The SDK's request id rule (a string or a safe integer). */
const isRequestId = (id: unknown): id is string | number => typeof id === "string" || Number.isSafeInteger(id);

/** An id token a known shape may stand in for: a safe-integer literal, or a short string of printable ASCII without escapes. */
const PLAIN_ID = /^(?:-?(?:0|[1-9][0-9]{0,15})|"[\x20\x21\x23-\x5b\x5d-\x7e]{0,128}")$/;

/** The request facts a call's classification reads besides its body: the method and the keyed headers. */
function headersKey(req: IncomingMessage): string {
  let k = req.method ?? "POST";
  for (const h of KEYED_HEADERS) {
    const v = header(req, h);
    k += v === undefined ? "|-" : `|${v.length}:${v}`;
  }
  return k;
}

/**
 * Calls classified before, by the exact bytes of their body around the id, and the request facts
 * `classify` reads, with what its arguments were found to be (`ArgumentMemo`). Clients repeat a
 * call with only a new id; parsing and checking it again was most of a repeated call's cost (see
 * BENCHMARKS.md, "Where a tools/call spends its time"). A shape is kept only when a parse showed
 * that its id bytes, and nothing else, are the request's id. Bounded by its keys' size.
 */
const SHAPE_CACHE_BYTES = 1024 * 1024;
const shapes = new LRUCache<string, Omit<ReplayableCall, "id">>({ maxSize: SHAPE_CACHE_BYTES, sizeCalculation: (_v, key) => key.length * 2 + 256 });

/** The shape key of a body whose id lies at `span`. */
const shapeKey = (req: IncomingMessage, raw: Buffer, [s, e]: [number, number]) => `${headersKey(req)}\n${raw.toString("latin1", 0, s)}\u0000${raw.toString("latin1", e)}`;

/** Where a body's top-level id lies and the key of its shape (everything but the id), when its id is one a shape may stand for. */
export interface BodyShape {
  raw: Buffer;
  span: [number, number];
  key: string;
}

/** The shape of `raw`, whose top-level id lies at `span` (`scanBody`); null when its id token is not a plain one. */
export function shapeOf(req: IncomingMessage, raw: Buffer, span: [number, number]): BodyShape | null {
  if (!PLAIN_ID.test(raw.toString("latin1", span[0], span[1]))) return null;
  return { raw, span, key: shapeKey(req, raw, span) };
}

/**
 * The call when the body is, but for its id, the bytes of a call classified before under the same
 * request facts: what the SDK would accept again, without parsing or classifying it. Undefined
 * when the body has not been seen (parse it and ask `replayableCall`).
 */
export function knownCall(shape: BodyShape): ReplayableCall | undefined {
  const known = shapes.get(shape.key);
  if (!known) return undefined;
  const token = shape.raw.toString("latin1", shape.span[0], shape.span[1]);
  const id = token.charCodeAt(0) === 0x22 ? token.slice(1, -1) : Number(token);
  if (!isRequestId(id)) return undefined;
  return { ...known, id };
}

/**
 * Keeps the shape of a body for `call` when its id bytes are exactly the request's id: the same
 * bytes with another id in their place must parse to that id, so a later body that differs only
 * there is the same call with a new id.
 */
function rememberShape(shape: BodyShape, call: ReplayableCall): void {
  const { raw, span } = shape;
  const other = call.id === 0 ? 1 : 0;
  const prefix = raw.toString("utf8", 0, span[0]);
  const suffix = raw.toString("utf8", span[1]);
  let probe: unknown;
  try {
    probe = (JSON.parse(`${prefix}${other}${suffix}`) as { id?: unknown }).id;
  } catch {
    return;
  }
  if (probe !== other) return;
  const { id: _id, ...known } = call;
  // Shared by every later call of the same shape: nothing may change it.
  Object.freeze(known.input);
  shapes.set(shape.key, known);
}

/**
 * The call when `body` is a tools/call of one of our tools the SDK accepts (either era); else null
 * (the SDK answers). Given the body's shape (`shapeOf`), it is kept for `knownCall`.
 */
export function replayableCall(req: IncomingMessage, body: unknown, shape?: BodyShape | null): ReplayableCall | null {
  if (typeof body !== "object" || body === null || Array.isArray(body) || (body as { method?: unknown }).method !== "tools/call") return null;
  const call = classifyOnce(req, body);
  if (call && shape) rememberShape(shape, call);
  return call;
}

/**
 * Kinds of call classified before: a call's classification does not depend on its id (given the
 * SDK's id rule) or on what its arguments object holds (given an object without forbidden names):
 * pinned in test/mcp-sdk-fence.test.ts. A first-time question is a known kind with new arguments,
 * so the SDK's classifier (its schemas over the whole message) runs once per kind. Bounded by size.
 */
const KIND_CACHE_BYTES = 1024 * 1024;
type Kind = Omit<ReplayableCall, "id" | "input" | "memo"> | null;
const kinds = new LRUCache<string, { kind: Kind }>({ maxSize: KIND_CACHE_BYTES, sizeCalculation: (_v, key) => key.length * 2 + 256 });

const isArgumentsObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v) && forbiddenArgName(v) === null;

function classifyOnce(req: IncomingMessage, body: object): ReplayableCall | null {
  const { id, params, ...rest } = body as { id?: unknown; params?: unknown };
  const args = typeof params === "object" && params !== null ? (params as { arguments?: unknown }).arguments : undefined;
  if (!isRequestId(id) || !isArgumentsObject(args) || Array.isArray(params)) return classify(req, body);
  const { arguments: _args, ...otherParams } = params as Record<string, unknown>;
  const key = `${headersKey(req)}\n${JSON.stringify([rest, otherParams])}`;
  const known = kinds.get(key);
  if (known) return known.kind && { ...known.kind, id, input: args, memo: {} };
  const call = classify(req, body);
  let kind: Kind = null;
  if (call) {
    const { id: _id, input: _input, memo: _memo, ...k } = call;
    kind = k;
  }
  kinds.set(key, { kind });
  return call;
}

function classify(req: IncomingMessage, body: object): ReplayableCall | null {
  const route = classifyInboundRequest({
    httpMethod: req.method ?? "POST",
    protocolVersionHeader: header(req, "mcp-protocol-version"),
    mcpMethodHeader: header(req, "mcp-method"),
    mcpNameHeader: header(req, "mcp-name"),
    body,
  });
  let call: CallParts | null = null;
  let revision: string | null = null;
  if (route.kind === "modern" && route.messageKind === "request") {
    call = { id: route.message.id, params: route.message.params ?? {} };
    revision = route.classification.revision ?? null;
  } else if (route.kind === "legacy" && route.reason === "no-claim") {
    call = legacyCall(body as Record<string, unknown>);
    revision = "legacy";
  }
  if (!call) return null;
  const { id, params } = call;
  const name = params.name;
  const args = params.arguments ?? {};
  const tool = typeof name === "string" ? TOOL_OF.get(name) : undefined;
  if (!tool || typeof args !== "object" || args === null || Array.isArray(args)) return null;
  // `__proto__`, `constructor`, `prototype`: the SDK path refuses them as unknown arguments.
  if (forbiddenArgName(args) !== null) return null;
  const envelope = [revision, name, ...KEYED_HEADERS.map((h) => header(req, h)?.trim() ?? null)];
  return { id, tool, input: args as Record<string, unknown>, envelope: JSON.stringify(envelope), memo: {} };
}

/** How a text content item opens in every tools/call result the SDK writes. */
const HEAD = /^(?:event: message\ndata: )?\{"result":\{"content":\[\{"type":"text","text":$/;
/** Between the text and the structured result. */
const MID = Buffer.from('}],"structuredContent":');
/** How the SDK ends the result and the message before the echoed id. */
const TAIL_END = '},"jsonrpc":"2.0","id":';

/**
 * Everything an envelope holds, in bytes (strings at two bytes a character): the cache's bound.
 */
function envelopeSize(k: KindEnvelopes, key: string): number {
  let size = key.length * 2 + 64;
  for (const e of [k.result, k.error]) {
    if (!e) continue;
    size += e.head.length + e.tail.length * 2 + 256;
    for (const h of e.headers) size += h.length * 2;
  }
  return size;
}

/**
 * The SDK's envelopes, learned from its own answers and verified byte for byte. A key's envelope is
 * learned the first time the SDK answers a call of that kind and is used for every later call of
 * the kind, whatever its arguments.
 */
export class EnvelopeCache {
  readonly #entries = new LRUCache<string, KindEnvelopes>({ maxSize: ENVELOPE_CACHE_BYTES, sizeCalculation: (k, key) => envelopeSize(k, key) });

  /**
   * The envelopes learned for the call's kind; undefined until the SDK has answered a call of the
   * kind with a result (a tool error or not).
   */
  of(call: Pick<ReplayableCall, "envelope">): KindEnvelopes | undefined {
    return this.#entries.get(call.envelope);
  }

  /**
   * Keeps the envelope of the SDK's response to `call` when the bytes are exactly one message of
   * the expected shape around `textMid` and `structured` (the JSON of the result's text followed by
   * MID, and of its structuredContent) ending with the call's id: the same envelope around another
   * result and id is then what the SDK would write for it. Anything else is not kept (the SDK goes
   * on answering).
   */
  learn(call: Pick<ReplayableCall, "envelope" | "id">, isError: boolean, response: { status: number; headers: Iterable<[string, string]> }, bytes: Buffer, textMid: Buffer, structured: Buffer): void {
    if (response.status !== 200) return;
    const headers = [...response.headers].filter(([k]) => k !== "content-length");
    const type = headers.find(([k]) => k === "content-type")?.[1] ?? "";
    const close = type.startsWith("application/json") ? "}" : type.startsWith("text/event-stream") ? "}\n\n" : null;
    if (close === null) return;
    const id = Buffer.from(`${JSON.stringify(call.id)}${close}`);
    const at = bytes.indexOf(textMid);
    if (at < 0) return;
    const head = bytes.subarray(0, at).toString("utf8");
    if (!HEAD.test(head)) return;
    const bodyAt = at + textMid.length;
    if (!bytes.subarray(bodyAt, bodyAt + structured.length).equals(structured)) return;
    const tailAt = bodyAt + structured.length;
    const idAt = bytes.length - id.length;
    if (idAt < tailAt || !bytes.subarray(idAt).equals(id)) return;
    const tail = bytes.subarray(tailAt, idAt).toString("utf8");
    // One message: nothing after the result but its own fields (no raw newline: no second event).
    if (!tail.endsWith(TAIL_END) || tail.includes("\n")) return;
    const envelope: Envelope = { status: response.status, headers: headers.flat(), head: Buffer.from(head), tail, close };
    const kind = { ...this.#entries.get(call.envelope) };
    if (isError) kind.error = envelope;
    else kind.result = envelope;
    this.#entries.set(call.envelope, kind);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * A response in the SDK's envelope, in the order written: the envelope's head, the result's text
 * and structured content joined by `MID` (`textMid`: the text's JSON and MID, see `textMid`), then
 * the tail with the caller's id.
 */
export function enveloped(e: Envelope, textMid: Buffer, structured: Buffer, id: string | number): { parts: [Buffer, Buffer, Buffer]; end: Buffer; length: number } {
  // A Buffer, not a string: the corked write then hands the socket buffers only.
  const end = Buffer.from(`${e.tail}${JSON.stringify(id)}${e.close}`);
  return { parts: [e.head, textMid, structured], end, length: e.head.length + textMid.length + structured.length + end.length };
}

/** The JSON of a result's text followed by what comes between it and the structured content. */
export function textMid(markdown: string): Buffer {
  const text = JSON.stringify(markdown);
  const out = Buffer.allocUnsafe(Buffer.byteLength(text) + MID.length);
  const n = out.write(text);
  MID.copy(out, n);
  return out;
}
