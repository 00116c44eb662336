// The REST API (GET /api/v1/…), served straight from node:http: Express costs about half the
// throughput of a bare server on these bodies (measured), and every API answer is a cached byte
// string, so the router stays thin. Each route is admitted by the meter, answers from the answer
// cache with an ETag (If-None-Match → 304), and charges a keyed call on success.
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseQuery } from "node:querystring";
import type { ServiceContext } from "../context.js";
import { ServiceError } from "../errors.js";
import { listSpots } from "../facts/spots.js";
import { asServiceError } from "../failures.js";
import { REFRESH_MS } from "../limits.js";
import type { Operation } from "../metering/meter.js";
import { getConditions } from "../../tools/get-conditions.js";
import { listCoverage } from "../../tools/list-coverage.js";
import { recommendSpot } from "../../tools/recommend-spot.js";
import { bestDay } from "../../tools/best-day.js";
import { sendProblem } from "./problem.js";
import { callerOf, requestState } from "./request-state.js";

type Args = Record<string, string | string[] | undefined>;

export interface ApiRoute {
  op: Operation;
  run(args: Args, ctx: ServiceContext): unknown;
}

/** The operations every answer path (REST, MCP) shares, by REST path. */
export const API_ROUTES: Record<string, ApiRoute> = {
  "/api/v1/conditions": { op: "conditions", run: (a, ctx) => getConditions(a, ctx) },
  "/api/v1/spots": { op: "spots", run: (a, ctx) => listSpots(a, ctx) },
  "/api/v1/coverage": { op: "coverage", run: (a, ctx) => listCoverage(a, ctx) },
  "/api/v1/recommendations": { op: "recommendations", run: (a, ctx) => recommendSpot(a, ctx) },
  "/api/v1/best-day": { op: "best-day", run: (a, ctx) => bestDay(a, ctx) },
};

/** Seconds until the next hourly refresh: how long an answer stays right. */
function secondsToRefresh(ctx: ServiceContext): number {
  const now = ctx.clock.now().getTime();
  return Math.max(1, Math.ceil((REFRESH_MS - (now % REFRESH_MS)) / 1000));
}

/** If-None-Match holds a list of entity tags (weak ones compare weakly) or "*". */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}

export async function serveApi(ctx: ServiceContext, route: ApiRoute, req: IncomingMessage, res: ServerResponse, query: string): Promise<void> {
  const state = requestState(res);
  if (state) state.route = req.url!.slice(0, req.url!.length - (query ? query.length + 1 : 0));
  if (req.method === "OPTIONS") {
    res.writeHead(204, {
      "Access-Control-Allow-Methods": "GET, OPTIONS",
      "Access-Control-Allow-Headers": "Authorization, X-Service-Key, Content-Type, If-None-Match",
      "Access-Control-Max-Age": "86400",
    });
    res.end();
    return;
  }
  try {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, OPTIONS");
      throw new ServiceError("method_not_allowed", `${req.method} is not supported here; use GET.`);
    }
    const args = parseQuery(query) as Args;
    const admission = await ctx.meter.admit(route.op, args, callerOf(ctx, req, res), true);
    for (const [k, v] of Object.entries(admission.headers)) res.setHeader(k, v);
    const answer = await ctx.answers.get(route.op, args, () => route.run(args, ctx));
    res.setHeader("ETag", answer.etag);
    // Answers are the same for every caller, but in metered mode a shared cache must not hand a
    // keyed answer to callers who were never admitted: then only the caller's own cache may keep it.
    res.setHeader("Cache-Control", `${ctx.config.auth.mode === "metered" ? "private" : "public"}, max-age=${secondsToRefresh(ctx)}`);
    if (matchesEtag(req.headers["if-none-match"], answer.etag)) {
      res.statusCode = 304;
      res.end();
    } else {
      res.statusCode = 200;
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.setHeader("Content-Length", answer.body.length);
      res.end(req.method === "HEAD" ? undefined : answer.body);
    }
    await admission.charge();
  } catch (e) {
    const { error, unexpected } = asServiceError(e);
    if (unexpected) ctx.log.error({ err: e, route: state?.route }, "unhandled error");
    if (!res.headersSent) sendProblem(res, error, ctx.links.base, ctx.source);
  }
}
