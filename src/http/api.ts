// The REST API (GET /api/v1/…), served straight from node:http: Express costs about half the
// throughput of a bare server on these bodies (measured), and every API answer is a cached byte
// string, so the router stays thin. Each route is admitted by the meter, answers from the answer
// cache with an ETag (If-None-Match → 304), and a keyed call's allotment, taken at admission, is given back if the answer fails.
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseQuery } from "node:querystring";
import type { ServiceContext } from "../context.js";
import { ServiceError } from "../errors.js";
import { openApiDocument } from "./openapi.js";
import { listSpots } from "../facts/spots.js";
import { asServiceError } from "../failures.js";
import type { Operation } from "../metering/meter.js";
import { getConditions } from "../../tools/get-conditions.js";
import { listCoverage } from "../../tools/list-coverage.js";
import { recommendSpot } from "../../tools/recommend-spot.js";
import { bestDay } from "../../tools/best-day.js";
import { etagMatches, secondsUntilRefresh } from "./caching.js";
import { sendProblem } from "./problem.js";
import { applyCommonHeaders, callerOf, requestState, writeHeadAll } from "./request-state.js";

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

/**
 * The query parameters an operation documents (its OpenAPI parameters), by operation. Others are
 * ignored, so they are dropped before the answer cache: `?spot=x&zz=1` and `?spot=x&zz=2` are one
 * answer, not one per spelling (the meter still sees them all, keys in the URL included).
 */
let documented: Map<Operation, Set<string>> | undefined;
function documentedOnly(route: ApiRoute, args: Args): Args {
  documented ??= new Map(
    Object.entries(API_ROUTES).map(([path, r]) => {
      const op = (openApiDocument("").paths as Record<string, { get: { parameters?: { name: string }[] } }>)[path]!.get;
      return [r.op, new Set((op.parameters ?? []).map((p) => p.name))];
    }),
  );
  const known = documented.get(route.op)!;
  const out: Args = {};
  for (const [k, v] of Object.entries(args)) if (known.has(k)) out[k] = v;
  return out;
}

export async function serveApi(ctx: ServiceContext, route: ApiRoute, req: IncomingMessage, res: ServerResponse, query: string): Promise<void> {
  const state = requestState(res);
  if (state) state.route = req.url!.slice(0, req.url!.length - (query ? query.length + 1 : 0));
  if (req.method === "OPTIONS") {
    writeHeadAll(res, 204, [
      "Access-Control-Allow-Methods",
      "GET, OPTIONS",
      "Access-Control-Allow-Headers",
      "Authorization, X-Service-Key, Content-Type, If-None-Match",
      "Access-Control-Max-Age",
      "86400",
    ]);
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
    let answer;
    try {
      answer = await ctx.answers.get(route.op, documentedOnly(route, args), (a) => route.run(a as Args, ctx));
    } catch (e) {
      await admission.refund();
      throw e;
    }
    // Answers are the same for every caller, but in metered mode a shared cache must not hand a
    // keyed answer to callers who were never admitted: then only the caller's own cache may keep it.
    const headers = [
      "ETag",
      answer.etag,
      "Cache-Control",
      `${ctx.config.auth.mode === "metered" ? "private" : "public"}, max-age=${secondsUntilRefresh(ctx.clock.now())}`,
      ...Object.entries(admission.headers).flat(),
    ];
    if (etagMatches(req.headers["if-none-match"], answer.etag)) {
      writeHeadAll(res, 304, headers);
      res.end();
    } else {
      headers.push("Content-Type", "application/json; charset=utf-8", "Content-Length", String(answer.body.length));
      writeHeadAll(res, 200, headers);
      res.end(req.method === "HEAD" ? undefined : answer.body);
    }
  } catch (e) {
    const { error, unexpected } = asServiceError(e);
    if (unexpected) ctx.log.error({ err: e, route: state?.route }, "unhandled error");
    if (!res.headersSent) {
      applyCommonHeaders(res);
      sendProblem(res, error, ctx.links.base, ctx.source);
    }
  }
}
