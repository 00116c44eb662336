// Replayed MCP tool calls: the SDK's response bytes for a tools/call, kept per question and served
// again (with the caller's own id) while the answer behind them is still the valid one. Both eras:
// a 2026-07-28 call (one JSON body) and a 2025-era call after `initialize` (one SSE event).
//
// A replay must be exactly what the SDK would have answered, so:
// - it is only tried for a request the SDK's own classifier accepts as a modern tools/call (its
//   JSON-RPC shape and id rules, its envelope and header cross-checks: an id of 1.5 or 1e999, a
//   malformed `_meta`, a header naming another method all go to the SDK, which refuses them), or
//   classifies as a 2025-era request without an envelope claim that the SDK's own CallToolRequest
//   schema accepts, with nothing in `params` but `name`, `arguments` and `_meta`, and no reserved
//   `io.modelcontextprotocol/` key in `_meta` (a task or related-task request goes to the SDK);
// - it is keyed by an allow-list of what reaches the SDK's answer: the protocol revision, the
//   standard MCP headers and the Accept and Content-Type headers (which pick and gate the response
//   format), the tool, and the canonical arguments (the answer cache's key). Anything else a
//   client or proxy adds (trace ids, forwarding headers, `_meta` client details) neither misses a
//   replay nor stores another copy;
// - it is stored only for an answer with a current data version (one the answer cache keeps), and
//   served only while that answer is current, so a call never outlives the data REST would use;
// - the cache bound counts everything a replay holds: its bytes and headers, and the answer it
//   keeps alive (body, parsed value and Markdown), whether or not the answer cache still holds it.
import type { IncomingMessage } from "node:http";
import { classifyInboundRequest, isSpecType } from "@modelcontextprotocol/server";
import { LRUCache } from "lru-cache";
import { canonicalArgs, forbiddenArgName, type CachedAnswer } from "../services/answer-cache.js";
import type { Operation } from "../services/metering/meter.js";
import type { Raw } from "../catalog/params.js";
import { TOOLS } from "./server.js";

/**
 * Bytes of replays kept per instance (measured against their full size, see `replaySize`): a miss
 * is one call through the SDK, and the answer itself still comes from the answer cache.
 */
export const REPLAY_CACHE_BYTES = 8 * 1024 * 1024;

/** Request headers that decide whether and how the SDK answers; nothing else is part of a replay's key. */
const KEYED_HEADERS = ["mcp-protocol-version", "mcp-method", "mcp-name", "accept", "content-type"] as const;

export interface Replay {
  op: Operation;
  /** The answer the response was built from: the replay is valid while that answer is current. */
  answer: CachedAnswer<unknown>;
  status: number;
  /** The SDK's response headers as a flat name/value list. */
  headers: string[];
  /**
   * The response up to the echoed id (`…,"id":`), in the order written; the caller's id and `close`
   * complete it. The structuredContent in it is the answer's own body (the bytes REST serves), not
   * a copy: only the envelope around it (the Markdown text, the JSON-RPC and SSE framing) is kept.
   */
  parts: Buffer[];
  /** Bytes of `parts`. */
  length: number;
  /** What follows the id: `}` for a JSON body, `}` and the blank line that ends the event for SSE. */
  close: string;
}

/** A tools/call for one of our tools that the SDK itself would accept, ready to be replayed or recorded. */
export interface ReplayableCall {
  id: string | number;
  op: Operation;
  args: Record<string, Raw>;
  key: string;
}

const OPERATION_OF = new Map(TOOLS.map((t) => [t.name, t.operation]));

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return v === undefined ? undefined : Array.isArray(v) ? v.join(", ") : v;
};

/** Params keys a 2025-era call may carry and still be replayed (anything else goes to the SDK). */
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

/** An id token a replay may stand in for: a safe-integer literal, or a short string of printable ASCII without escapes. */
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
 * `classify` reads. Clients repeat a call with only a new id; parsing and classifying it again (the
 * SDK's schemas) was most of a replay's cost (see BENCHMARKS.md, "Where a tools/call spends its
 * time"). A shape is kept only when a parse showed that its id bytes, and nothing else, are the
 * request's id. Bounded by its keys' size.
 */
const SHAPE_CACHE_BYTES = 1024 * 1024;
const shapes = new LRUCache<string, Omit<ReplayableCall, "id">>({ maxSize: SHAPE_CACHE_BYTES, sizeCalculation: (_v, key) => key.length * 2 + 256 });

/** The shape key of a body whose id lies at `span`. */
const shapeKey = (req: IncomingMessage, raw: Buffer, [s, e]: [number, number]) => `${headersKey(req)}\n${raw.toString("latin1", 0, s)}\u0000${raw.toString("latin1", e)}`;

/**
 * The call when `raw`, whose top-level id lies at `span` (`scanBody`), is, but for its id, the
 * bytes of a call classified before under the same request facts: what the SDK would accept again, without parsing or classifying it. Undefined when
 * the body has not been seen (parse it and ask `replayableCall`).
 */
export function knownCall(req: IncomingMessage, raw: Buffer, span: [number, number]): ReplayableCall | undefined {
  if (shapes.size === 0) return undefined;
  const token = raw.toString("latin1", span[0], span[1]);
  if (!PLAIN_ID.test(token)) return undefined;
  const shape = shapes.get(shapeKey(req, raw, span));
  if (!shape) return undefined;
  const id = token.charCodeAt(0) === 0x22 ? token.slice(1, -1) : Number(token);
  if (!isRequestId(id)) return undefined;
  return { id, op: shape.op, args: shape.args, key: shape.key };
}

/**
 * Keeps the shape of `raw` for `call` when its id bytes are exactly the request's id: the same
 * bytes with another id in their place must parse to that id, so a later body that differs only
 * there is the same call with a new id.
 */
function rememberShape(req: IncomingMessage, raw: Buffer, span: [number, number], call: ReplayableCall): void {
  if (!PLAIN_ID.test(raw.toString("latin1", span[0], span[1]))) return;
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
  shapes.set(shapeKey(req, raw, span), { op: call.op, args: call.args, key: call.key });
}

/**
 * The call when `body` is a tools/call of one of our tools the SDK accepts (either era); else null
 * (the SDK answers). Given the bytes it was parsed from and where their top-level id lies
 * (`scanBody`), its shape is kept for `knownCall`.
 */
export function replayableCall(req: IncomingMessage, body: unknown, seen?: { raw: Buffer; id: [number, number] | null }): ReplayableCall | null {
  if (typeof body !== "object" || body === null || Array.isArray(body) || (body as { method?: unknown }).method !== "tools/call") return null;
  const call = classify(req, body);
  if (call && seen?.id) rememberShape(req, seen.raw, seen.id, call);
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
  const op = typeof name === "string" ? OPERATION_OF.get(name) : undefined;
  if (!op || typeof args !== "object" || args === null || Array.isArray(args)) return null;
  // `__proto__`, `constructor`, `prototype`: the SDK path refuses them as unknown arguments.
  if (forbiddenArgName(args) !== null) return null;
  const canonical = canonicalArgs(args as Record<string, unknown>);
  const envelope = [revision, name, ...KEYED_HEADERS.map((h) => header(req, h)?.trim() ?? null)];
  return {
    id,
    op,
    args: canonical as Record<string, Raw>, // The arguments with their JSON types: a replay skips the argument checks, so `"3"` must not
    // reuse the bytes kept for `3` (the answer cache may treat them alike; the SDK path does not).
    key: `${JSON.stringify(envelope)}\n${op}\n${JSON.stringify(canonical)}`,
  };
}

/** Everything a replay keeps alive, in bytes (strings at two bytes a character, as V8 may hold them). */
function replaySize(r: Replay, key: string): number {
  let headers = 0;
  for (const h of r.headers) headers += h.length * 2;
  const answer = r.answer.body.length * 3 + (r.answer.markdown?.length ?? 0) * 2;
  let envelope = 0;
  for (const p of r.parts) if (p !== r.answer.body) envelope += p.length;
  return key.length * 2 + envelope + headers + answer + 512;
}

const STRUCTURED = Buffer.from('"structuredContent":');

/**
 * `prefix` as the envelope before the answer's body, the body itself, and the envelope after it,
 * when the SDK wrote the answer's structuredContent byte for byte as the answer cache serialised it
 * (JSON.stringify of the same object); else one copy of the whole prefix.
 */
function envelopeAround(prefix: Buffer, body: Buffer): Buffer[] {
  const at = prefix.indexOf(body);
  if (at >= STRUCTURED.length && prefix.subarray(at - STRUCTURED.length, at).equals(STRUCTURED)) {
    return [Buffer.from(prefix.subarray(0, at)), body, Buffer.from(prefix.subarray(at + body.length))];
  }
  return [Buffer.from(prefix)];
}

/** How the SDK opens the one SSE event of a 2025-era answer. */
const SSE_EVENT = Buffer.from("event: message\ndata: ");

export class ReplayCache {
  readonly #entries = new LRUCache<string, Replay>({ maxSize: REPLAY_CACHE_BYTES, sizeCalculation: (r, key) => replaySize(r, key) });
  readonly #isCurrent: (answer: CachedAnswer<unknown>) => boolean;

  constructor(isCurrent: (answer: CachedAnswer<unknown>) => boolean) {
    this.#isCurrent = isCurrent;
  }

  /** The stored response for the call while its answer is current. */
  get(call: ReplayableCall): Replay | undefined {
    const r = this.#entries.get(call.key);
    if (r && this.#isCurrent(r.answer)) return r;
    if (r) this.#entries.delete(call.key);
    return undefined;
  }

  /**
   * Keeps the SDK's successful JSON response to `call`, answered from `answer`, when that answer is
   * current (has a data version) and the bytes end with the call's id as the SDK echoes it.
   */
  record(call: ReplayableCall, answer: CachedAnswer<unknown>, response: { status: number; headers: Iterable<[string, string]> }, bytes: Buffer): void {
    if (response.status !== 200 || !this.#isCurrent(answer)) return;
    const headers = [...response.headers].filter(([k]) => k !== "content-length");
    const type = headers.find(([k]) => k === "content-type")?.[1] ?? "";
    let close: string;
    if (type.startsWith("application/json")) close = "}";
    else if (type.startsWith("text/event-stream")) {
      // Exactly one event, `event: message` and one `data:` line (JSON has no raw newline), nothing
      // else: a response with a notification or a second event is not kept.
      close = "}\n\n";
      if (!bytes.subarray(0, SSE_EVENT.length).equals(SSE_EVENT) || bytes.indexOf("\n", SSE_EVENT.length) !== bytes.length - 2) return;
    } else return;
    const id = Buffer.from(`${JSON.stringify(call.id)}${close}`);
    const idAt = bytes.length - id.length;
    if (idAt <= 5 || bytes.subarray(idAt - 5, idAt).toString("latin1") !== '"id":' || !bytes.subarray(idAt).equals(id)) return;
    this.#entries.set(call.key, { op: call.op, answer, status: response.status, headers: headers.flat(), parts: envelopeAround(bytes.subarray(0, idAt), answer.body), length: idAt, close });
  }

  /** Bytes held, as the bound counts them. */
  get calculatedSize(): number {
    return this.#entries.calculatedSize;
  }

  get size(): number {
    return this.#entries.size;
  }
}
