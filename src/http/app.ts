// The HTTP surface: REST routes (thin adapters over the tool handlers), discovery documents and
// pages. Every response carries CORS and the Link header; every error is a problem+json body;
// every request is logged once with its id, route, status and duration (never keys or queries).
import { randomUUID } from "node:crypto";
import express, { type NextFunction, type Request, type Response } from "express";
import type { Caller } from "../metering/caller.js";
import { callerOf } from "./caller.js";
import type { Operation } from "../metering/meter.js";
import type { ServiceContext } from "../context.js";
import { isServiceError, ServiceError } from "../errors.js";
import { asServiceError } from "../failures.js";
import { MAX_QUERY_BYTES } from "../limits.js";
import { getConditions } from "../../tools/get-conditions.js";
import { listCoverage } from "../../tools/list-coverage.js";
import { listSpots } from "../facts/spots.js";
import { recommendSpot } from "../../tools/recommend-spot.js";
import { bestDay } from "../../tools/best-day.js";
import { registerDocsPage } from "./docs-page.js";
import { registerSharePages } from "./pages.js";
import { linkHeader } from "./server-hooks.js";
import { sendProblem } from "./problem.js";
import { openApiDocument } from "./openapi.js";
import { mountDiscovery } from "../mcp/discovery.js";
import { mountMcp } from "../mcp/http.js";

type Handler = (req: Request, res: Response) => Promise<unknown> | unknown;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function createApp(ctx: ServiceContext): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.set("query parser", "simple");
  // X-Forwarded-For is honoured only behind a proxy the operator names (TRUST_PROXY).
  app.set("trust proxy", ctx.config.trustProxy);

  app.use((req, res, next) => {
    const incoming = req.headers["x-request-id"];
    const id = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader("X-Request-Id", id);
    const started = performance.now();
    res.on("finish", () => {
      const caller = res.locals.caller as Caller | undefined;
      ctx.log.info(
        {
          reqId: id,
          method: req.method,
          route: (req.route as { path?: string } | undefined)?.path ?? req.path,
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          caller: caller ? (caller.key ? `key:${caller.key.id}` : caller.id) : undefined,
          ai: caller?.aiFetcher ?? undefined,
        },
        "request",
      );
    });
    next();
  });

  const link = linkHeader(ctx.links);
  app.use((req, res, next) => {
    res.setHeader("Link", link);
    // /mcp checks Origin itself and is not a cross-origin GET API.
    if (req.path !== "/mcp") {
      res.setHeader("Access-Control-Allow-Origin", "*");
      res.setHeader("Access-Control-Expose-Headers", "Link, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, ETag");
    }
    res.setHeader("X-Content-Type-Options", "nosniff");
    const q = req.url.indexOf("?");
    if (q >= 0 && req.url.length - q - 1 > MAX_QUERY_BYTES) {
      return fail(res, new ServiceError("uri_too_long", `Query strings are limited to ${MAX_QUERY_BYTES} bytes.`));
    }
    next();
  });

  const fail = (res: Response, err: ServiceError) => sendProblem(res, err, ctx.links.base, ctx.source);
  const json = (res: Response, body: unknown) => res.type("application/json").send(JSON.stringify(body));

  /**
   * GET-only JSON route; OPTIONS answers CORS preflight; other methods get 405. A metered route is
   * admitted first (keys, rate limits) and carries the caller's RateLimit headers.
   */
  const route = (path: string, op: Operation | null, handler: Handler) => {
    app
      .route(path)
      .get(async (req, res, next) => {
        try {
          const admission = op ? await ctx.meter.admit(op, req.query, callerOf(ctx, req, res), true) : null;
          for (const [k, v] of Object.entries(admission?.headers ?? {})) res.setHeader(k, v);
          json(res, await handler(req, res));
          await admission?.charge();
        } catch (e) {
          next(e);
        }
      })
      .options((_req, res) => {
        res.setHeader("Access-Control-Allow-Methods", "GET, OPTIONS");
        res.setHeader("Access-Control-Allow-Headers", "Authorization, X-Service-Key, Content-Type");
        res.setHeader("Access-Control-Max-Age", "86400");
        res.status(204).end();
      })
      .all((req, res) => {
        res.setHeader("Allow", "GET, OPTIONS");
        fail(res, new ServiceError("method_not_allowed", `${req.method} is not supported here; use GET.`));
      });
  };

  mountMcp(app, ctx);
  mountDiscovery(app, ctx);
  route("/api/v1/conditions", "conditions", (req) => getConditions(req.query, ctx));
  route("/api/v1/spots", "spots", (req) => listSpots(req.query, ctx));
  route("/api/v1/coverage", "coverage", (req) => listCoverage(req.query, ctx));
  route("/api/v1/recommendations", "recommendations", (req) => recommendSpot(req.query, ctx));
  route("/api/v1/best-day", "best-day", (req) => bestDay(req.query, ctx));
  route("/openapi.json", null, () => openApiDocument(ctx.links.base, ctx.config.auth.mode));
  // Liveness: the process answers. Readiness: data loaded and not draining for shutdown.
  route("/healthz", null, () => ({ status: "ok", source: ctx.source }));
  app.get("/readyz", (_req, res) => {
    const checks = { catalog: ctx.catalog.spots.length > 0, tides: ctx.catalog.spots.every((s) => ctx.harmonicTides.station(s.tide_station)), draining: ctx.draining };
    const ready = checks.catalog && checks.tides && !checks.draining;
    if (!ready) res.setHeader("Retry-After", "5");
    res.status(ready ? 200 : 503).type("application/json").send(JSON.stringify({ status: ready ? "ok" : ctx.draining ? "draining" : "starting", checks, source: ctx.source }));
  });
  registerSharePages(app, ctx);
  registerDocsPage(app, ctx);

  app.use((req, res) => fail(res, new ServiceError("not_found", `No route for ${req.method} ${req.path}. The API is described at ${ctx.links.openapi}.`)));

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (isServiceError(err)) return fail(res, err);
    // Errors Express itself raises while reading a request (bad encoding, too large).
    const status = (err as { status?: number; statusCode?: number }).status ?? (err as { statusCode?: number }).statusCode;
    if (status === 400 || status === 413 || status === 414 || status === 431) {
      const code = status === 413 ? "request_too_large" : status === 414 ? "uri_too_long" : status === 431 ? "header_too_large" : "invalid_parameter";
      return fail(res, new ServiceError(code, "The request could not be read."));
    }
    const { error, unexpected } = asServiceError(err);
    if (unexpected) ctx.log.error({ err, path: req.path }, "unhandled error");
    fail(res, error);
  });
  return app;
}
