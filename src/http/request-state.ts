// Per-request facts shared by the prelude, the API router, /mcp and the request log: the request id,
// the caller (identified once) and the route that answered. Kept off the request objects themselves
// so plain node:http and Express requests are handled alike.
import type { IncomingMessage, ServerResponse } from "node:http";
import proxyaddr from "proxy-addr";
import type { ServiceContext } from "../context.js";
import type { Caller } from "../metering/caller.js";

export interface RequestState {
  id: string;
  caller?: Caller;
  route?: string;
}

const states = new WeakMap<ServerResponse, RequestState>();

export function requestState(res: ServerResponse): RequestState | undefined {
  return states.get(res);
}

export function setRequestState(res: ServerResponse, state: RequestState): void {
  states.set(res, state);
}

type Trust = (addr: string, hop: number) => boolean;
const trustCache = new WeakMap<object, Trust>();

/** TRUST_PROXY as Express reads it: false, true, a hop count, or trusted addresses/subnets. */
function trustOf(ctx: ServiceContext): Trust {
  let trust = trustCache.get(ctx.config);
  if (!trust) {
    const v = ctx.config.trustProxy;
    trust =
      v === true ? () => true : v === false ? () => false : typeof v === "number" ? (_a, hop) => hop < v : proxyaddr.compile(v.split(",").map((s) => s.trim()));
    trustCache.set(ctx.config, trust);
  }
  return trust;
}

/** The client address: the socket's, or X-Forwarded-For's through trusted proxies (TRUST_PROXY). */
export function clientIp(ctx: ServiceContext, req: IncomingMessage): string | null {
  try {
    return proxyaddr(req, trustOf(ctx));
  } catch {
    return req.socket.remoteAddress ?? null;
  }
}

/** The caller behind a request (client address, or key in metered mode), identified once. */
export function callerOf(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse): Caller {
  const state = states.get(res);
  if (state?.caller) return state.caller;
  const serviceKey = req.headers["x-service-key"];
  const caller = ctx.meter.identify({
    ip: clientIp(ctx, req),
    authorization: req.headers.authorization ?? null,
    serviceKey: typeof serviceKey === "string" ? serviceKey : null,
    userAgent: req.headers["user-agent"] ?? null,
  });
  if (state) state.caller = caller;
  else states.set(res, { id: "", caller });
  return caller;
}
