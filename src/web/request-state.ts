// Per-request facts shared by the prelude, the API router, /mcp and the request log: the request id,
// the caller (identified once) and the route that answered. Kept off the request objects themselves
// so plain node:http and Express requests are handled alike.
import type { IncomingMessage, ServerResponse } from "node:http";
import proxyaddr from "proxy-addr";
import type { ServiceContext } from "../services/context.js";
import type { Caller } from "../services/metering/caller.js";

export interface RequestState {
  id: string;
  /**
   * Headers every response to this request carries after its `X-Request-Id`, as name/value pairs
   * (see app.ts): one list shared by many requests, never changed.
   */
  headers: readonly string[];
  /** Whether `headers` were already put on the response with setHeader. */
  applied?: boolean;
  caller?: Caller;
  route?: string;
  /** Set when an MCP tool call was answered in the SDK's envelope without the SDK (see mcp/replay.ts). */
  replayed?: boolean;
}

// On the response under a symbol of its own, which nothing else reads or writes (a WeakMap entry
// per request cost measurably more: its set, and the ephemeron each one leaves the collector).
const STATE = Symbol("requestState");
type WithState = ServerResponse & { [STATE]?: RequestState };

export function requestState(res: ServerResponse): RequestState | undefined {
  return (res as WithState)[STATE];
}

export function setRequestState(res: ServerResponse, state: RequestState): void {
  (res as WithState)[STATE] = state;
}

/** Puts the request's common headers on a response built header by header (Express, problems, the SDK). */
export function applyCommonHeaders(res: ServerResponse): void {
  const state = requestState(res);
  if (!state || state.applied) return;
  res.setHeader("X-Request-Id", state.id);
  const h = state.headers;
  for (let i = 0; i < h.length; i += 2) res.setHeader(h[i]!, h[i + 1]!);
  state.applied = true;
}

/**
 * A new header list for a response written at once (`writeHeadAll`), starting with the request's
 * common headers when they are not on the response yet; the caller appends its own.
 */
export function headerList(res: ServerResponse): string[] {
  const state = requestState(res);
  if (!state || state.applied) return [];
  const h = state.headers;
  const out = ["X-Request-Id", state.id];
  for (let i = 0; i < h.length; i++) out.push(h[i]!);
  return out;
}

/**
 * Writes the status and every header at once, the common ones first. With nothing set before,
 * Node serialises a flat list without its per-header bookkeeping (about 30 µs less per answer
 * than a dozen setHeader calls, measured).
 */
export function writeHeadAll(res: ServerResponse, status: number, headers: string[]): void {
  const list = headerList(res);
  for (let i = 0; i < headers.length; i++) list.push(headers[i]!);
  res.writeHead(status, list);
}

type Trust = (addr: string, hop: number) => boolean;
const trustCache = new WeakMap<object, Trust>();

/**
 * TRUST_PROXY as Express reads it: false, a hop count, or trusted addresses/subnets. Either way the
 * caller is the rightmost X-Forwarded-For address that is not a trusted proxy ("true", which would
 * take the client-chosen leftmost one, is refused at start-up).
 */
function trustOf(ctx: ServiceContext): Trust {
  let trust = trustCache.get(ctx.config);
  if (!trust) {
    const v = ctx.config.trustProxy;
    trust = v === false ? () => false : typeof v === "number" ? (_a, hop) => hop < v : proxyaddr.compile(v.split(",").map((s) => s.trim()));
    trustCache.set(ctx.config, trust);
  }
  return trust;
}

/** The client address: the socket's, or X-Forwarded-For's through trusted proxies (TRUST_PROXY). */
export function clientIp(ctx: ServiceContext, req: IncomingMessage): string | null {
  // No proxy trusted: the socket's address, which is what proxy-addr returns then, without parsing
  // X-Forwarded-For on every request.
  if (ctx.config.trustProxy === false) return req.socket.remoteAddress ?? null;
  try {
    return proxyaddr(req, trustOf(ctx));
  } catch {
    return req.socket.remoteAddress ?? null;
  }
}

/** The caller behind a request (client address, or key in metered mode), identified once. */
export function callerOf(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse): Caller {
  const state = requestState(res);
  if (state?.caller) return state.caller;
  const serviceKey = req.headers["x-service-key"];
  const caller = ctx.meter.identify({
    ip: clientIp(ctx, req),
    authorization: req.headers.authorization ?? null,
    serviceKey: typeof serviceKey === "string" ? serviceKey : null,
    userAgent: req.headers["user-agent"] ?? null,
  });
  if (state) state.caller = caller;
  // No prelude ran (a test's bare handler): no common headers to add.
  else setRequestState(res, { id: "", headers: [], caller, applied: true });
  return caller;
}
