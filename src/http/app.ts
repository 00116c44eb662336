// The HTTP surface. One prelude for every request (request id, the headers every response carries,
// the query-size guard, one log line when it finishes), then the REST API's thin node:http router
// (api.ts), the MCP endpoint (mcp/http.ts), the share image (pages.ts), or Express for everything
// else: discovery documents, pages, docs, health, 404s.
// Every error is a problem+json body; logs never contain keys or query strings.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import express, { type NextFunction, type Request, type Response } from "express";
import type { ServiceContext } from "../services/context.js";
import { isServiceError, ServiceError } from "../base/errors.js";
import { asServiceError } from "../web/failures.js";
import { MAX_QUERY_BYTES } from "../web/http-limits.js";
import { redisMemoryState, redisState } from "../base/redis.js";
import { mountDiscovery } from "../mcp/discovery.js";
import { createMcpRoute, MCP_PATH } from "../mcp/http.js";
import { API_ROUTES, serveApi } from "./api.js";
import { CompressedBody } from "../web/compressed.js";
import { openApiDocument } from "./openapi.js";
import { registerDocsPage } from "./docs-page.js";
import { registerFrontPage } from "./front-page.js";
import { createCardImageRoute, registerSharePages } from "./page-routes.js";
import { sendProblem } from "../web/problem.js";
import { applyCommonHeaders, requestState, setRequestState } from "../web/request-state.js";
import { linkHeader as linkHeaderOf } from "./server-hooks.js";
import { registerValidation } from "./validation-route.js";

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
export const EXPOSED_HEADERS = "Link, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, ETag";

/** The request listener: prelude, then the API router or Express. */
export function createApp(ctx: ServiceContext): RequestListener {
  const app = createExpressApp(ctx);
  const mcp = createMcpRoute(ctx);
  const cardImage = createCardImageRoute(ctx);
  const linkHeader = linkHeaderOf(ctx.links);
  const logRequests = ctx.log.isLevelEnabled("info");
  const common = ["Link", linkHeader, "X-Content-Type-Options", "nosniff"];
  const withCors = [...common, "Access-Control-Allow-Origin", "*", "Access-Control-Expose-Headers", EXPOSED_HEADERS];

  return (req: IncomingMessage, res: ServerResponse) => {
    // Closed before it was run (a pipeline too deep for its client's reading: server-hooks.ts).
    if (req.socket.destroyed) return;
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    const incoming = req.headers["x-request-id"];
    const id = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    // /mcp checks Origin itself and is not a cross-origin GET API.
    setRequestState(res, { id, headers: path === MCP_PATH ? common : withCors });
    if (logRequests) {
      const started = performance.now();
      res.on("finish", () => {
        const state = requestState(res);
        const caller = state?.caller;
        ctx.log.info(
          {
            reqId: id,
            method: req.method,
            route: state?.route ?? path,
            status: res.statusCode,
            ms: Math.round((performance.now() - started) * 10) / 10,
            caller: caller ? (caller.key ? `key:${caller.key.id}` : caller.id) : undefined,
            ai: caller?.aiFetcher ?? undefined,
            replayed: state?.replayed,
          },
          "request",
        );
      });
    }
    if (q >= 0 && url.length - q - 1 > MAX_QUERY_BYTES) {
      applyCommonHeaders(res);
      sendProblem(res, new ServiceError("uri_too_long", `Query strings are limited to ${MAX_QUERY_BYTES} bytes.`), ctx.links.base, ctx.source);
      return;
    }
    const route = API_ROUTES[path];
    if (route) void serveApi(ctx, route, req, res, q < 0 ? "" : url.slice(q + 1));
    else if (path === MCP_PATH) void mcp(req, res);
    else if (!cardImage(req, res, path, q < 0 ? "" : url.slice(q + 1))) {
      applyCommonHeaders(res);
      app(req, res);
    }
  };
}

/** Express, for every route but the REST API (exported for the test that lists the routes). */
export function createExpressApp(ctx: ServiceContext): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.set("query parser", "simple");
  // X-Forwarded-For is honoured only behind a proxy the operator names (TRUST_PROXY).
  app.set("trust proxy", ctx.config.trustProxy);
  app.use((req, res, next) => {
    // The log names the route that answered, not the raw path (ids stay out of route counts).
    const state = requestState(res);
    res.on("finish", () => {
      const routePath = (req.route as { path?: string } | undefined)?.path;
      if (state && routePath) state.route = routePath;
    });
    next();
  });

  const fail = (res: Response, err: ServiceError) => sendProblem(res, err, ctx.links.base, ctx.source);
  const json = (res: Response, status: number, body: unknown) => res.status(status).type("application/json").send(JSON.stringify(body));

  mountDiscovery(app, ctx);
  let openapi: CompressedBody | undefined;
  app.get("/openapi.json", (req, res) => {
    openapi ??= new CompressedBody(JSON.stringify(openApiDocument(ctx.links.base, ctx.config.auth.mode)));
    openapi.send(req, res, "application/json", "public, max-age=3600");
  });
  // The API's front door: every REST operation with its summary (from the OpenAPI document, so the
  // two cannot disagree), the document itself, the docs page and the MCP endpoint.
  let index: string | undefined;
  const apiIndex = (_req: Request, res: Response) => {
    index ??= JSON.stringify({
      schema: "service.api_index.v1",
      source: ctx.source,
      endpoints: Object.entries(openApiDocument(ctx.links.base, ctx.config.auth.mode).paths as Record<string, { get?: { summary?: string } }>)
        .filter(([path, item]) => path.startsWith("/api/v1/") && path !== "/api/v1/" && item.get)
        .map(([path, item]) => ({ method: "GET", path, url: `${ctx.links.base}${path}`, summary: item.get!.summary ?? null })),
      openapi: ctx.links.openapi,
      docs: ctx.links.docs,
      mcp: `${ctx.links.base}/mcp`,
    });
    res.status(200).type("application/json").setHeader("Cache-Control", "public, max-age=3600").send(index);
  };
  // Routing is not strict: /api/v1 is answered too.
  app.get("/api/v1/", apiIndex);
  // Liveness: the process answers. Readiness: data loaded and not draining for shutdown.
  app.get("/healthz", (_req, res) => json(res, 200, { status: "ok", source: ctx.source }));
  app.get("/readyz", (_req, res) => {
    const checks = {
      catalog: ctx.catalog.spots.length > 0,
      tides: ctx.catalog.spots.every((s) => s.tide_station === null || ctx.harmonicTides.station(s.tide_station)),
      warm: !ctx.warming,
      draining: ctx.draining,
      redis: redisState(ctx.redis),
      redis_memory: redisMemoryState(ctx.redis),
    };
    const ready = checks.catalog && checks.tides && checks.warm && !checks.draining;
    if (!ready) res.setHeader("Retry-After", "5");
    // Redis down, not answering or refusing writes (out of memory) is degraded, not unready: every
    // instance shares the one Redis, so taking them out of rotation would stop the service; each
    // serves from its own memory instead.
    const degraded = checks.redis === "down" || checks.redis_memory === "full";
    json(res, ready ? 200 : 503, { status: ready ? (degraded ? "degraded" : "ok") : ctx.draining ? "draining" : "starting", checks, source: ctx.source });
  });
  registerSharePages(app, ctx);
  registerDocsPage(app, ctx);
  registerValidation(app, ctx);
  registerFrontPage(app, ctx);

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
