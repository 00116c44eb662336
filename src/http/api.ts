// The REST API (GET /api/v1/…), served straight from node:http: Express costs about half the
// throughput of a bare server on these bodies (measured), and every API answer is a cached byte
// string, so the router stays thin. Each route is admitted by the meter, answers from the answer
// cache with an ETag (If-None-Match → 304), and a keyed call's allotment, taken at admission, is given back if the answer fails.
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseQuery } from "node:querystring";
import { LRUCache } from "lru-cache";
import { AnswerCache, canonicalArgs } from "../services/answer-cache.js";
import type { ServiceContext } from "../services/context.js";
import { ServiceError } from "../base/errors.js";
import { openApiDocument } from "./openapi.js";
import { listSpots } from "../answers/spots.js";
import { asServiceError } from "../web/failures.js";
import type { Operation } from "../services/metering/meter.js";
import { getConditions } from "../answers/get-conditions.js";
import { listCoverage } from "../answers/list-coverage.js";
import { recommendSpot } from "../answers/recommend-spot.js";
import { bestDay } from "../answers/best-day.js";
import { etagMatches, secondsUntilRefresh } from "../web/caching.js";
import { sendProblem } from "../web/problem.js";
import { applyCommonHeaders, callerOf, headerList, writeHeadAll } from "../web/request-state.js";

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

/** A query string as the meter and the answer cache read it, derived once per spelling. */
interface Question {
  /** Every parameter given (the meter sees them all); frozen, as it is shared. */
  args: Args;
  /** The documented ones in canonical form, and the answer cache's key for them. */
  canonical: Record<string, unknown>;
  key: string;
}

/** Bound of the questions kept, counted in bytes (a query string is at most MAX_QUERY_BYTES). */
export const QUESTION_CACHE_BYTES = 256 * 1024;
const questions = new LRUCache<string, Question>({ maxSize: QUESTION_CACHE_BYTES, sizeCalculation: (_q, key) => key.length * 4 + 256 });

const frozen = <T extends object>(o: T): T => {
  for (const v of Object.values(o)) if (Array.isArray(v)) Object.freeze(v);
  return Object.freeze(o);
};

/** The question a query string asks of an operation: the same string, the same (shared) question. */
function questionOf(route: ApiRoute, query: string): Question {
  const id = `${route.op}?${query}`;
  let q = questions.get(id);
  if (!q) {
    const args = frozen(parseQuery(query) as Args);
    const canonical = frozen(canonicalArgs(documentedOnly(route, args)));
    q = { args, canonical, key: AnswerCache.key(route.op, canonical) };
    questions.set(id, q);
  }
  return q;
}

/** `Cache-Control` of an API answer: changes once a second (max-age counts down to the refresh). */
let lastCacheControl = { seconds: -1, metered: false, value: "" };
function cacheControlOf(ctx: ServiceContext): string {
  const seconds = secondsUntilRefresh(ctx.clock.now());
  // Answers are the same for every caller, but in metered mode a shared cache must not hand a
  // keyed answer to callers who were never admitted: then only the caller's own cache may keep it.
  const metered = ctx.config.auth.mode === "metered";
  if (lastCacheControl.seconds !== seconds || lastCacheControl.metered !== metered) {
    lastCacheControl = { seconds, metered, value: `${metered ? "private" : "public"}, max-age=${seconds}` };
  }
  return lastCacheControl.value;
}

export async function serveApi(ctx: ServiceContext, route: ApiRoute, req: IncomingMessage, res: ServerResponse, query: string): Promise<void> {
  // The request log names the route by the path the prelude read (the URL without its query).
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
    const question = questionOf(route, query);
    const caller = callerOf(ctx, req, res);
    const admission = ctx.meter.admitAtOnce(route.op, caller) ?? (await ctx.meter.admit(route.op, question.args, caller, true));
    // A hit is answered in this turn; a miss (or a stale answer) is computed once for all who ask.
    let answer = ctx.answers.current(question.key);
    if (!answer) {
      try {
        answer = await ctx.answers.getCanonical(route.op, question.canonical, question.key, (a) => route.run(a as Args, ctx));
      } catch (e) {
        await admission.refund();
        throw e;
      }
    }
    const headers = headerList(res);
    headers.push("ETag", answer.etag, "Cache-Control", cacheControlOf(ctx));
    const limits = admission.headers;
    for (const name in limits) headers.push(name, limits[name]!);
    if (etagMatches(req.headers["if-none-match"], answer.etag)) {
      res.writeHead(304, headers);
      res.end();
    } else {
      headers.push("Content-Type", "application/json; charset=utf-8", "Content-Length", String(answer.body.length));
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : answer.body);
    }
  } catch (e) {
    const { error, unexpected } = asServiceError(e);
    if (unexpected) ctx.log.error({ err: e, route: req.url!.slice(0, req.url!.length - (query ? query.length + 1 : 0)) }, "unhandled error");
    if (!res.headersSent) {
      applyCommonHeaders(res);
      sendProblem(res, error, ctx.links.base, ctx.source);
    }
  }
}
