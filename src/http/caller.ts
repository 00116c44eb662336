// The caller behind an HTTP request, identified once per request and shared by the REST routes,
// /mcp and the request log.
import type { Request, Response } from "express";
import type { ServiceContext } from "../context.js";
import type { Caller } from "../metering/caller.js";

/** The caller behind a request (client address, or key in metered mode), memoised on the response. */
export function callerOf(ctx: ServiceContext, req: Request, res: Response): Caller {
  const known = res.locals.caller as Caller | undefined;
  if (known) return known;
  const caller = ctx.meter.identify({
    ip: req.ip ?? null,
    authorization: req.headers.authorization ?? null,
    serviceKey: (req.headers["x-service-key"] as string | undefined) ?? null,
    userAgent: req.headers["user-agent"] ?? null,
  });
  res.locals.caller = caller;
  return caller;
}
