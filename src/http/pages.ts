// Share routes: the card PNG (problem+json on error, never a broken image), the share page and the
// spot forecast page (HTML, with HTML error pages). Caching follows the forecast: it changes only
// on the hour, so responses may be reused until then, and a card's ETag is its content key.
import type { Express, NextFunction, Request, Response } from "express";
import { SPOT_DAY_ERRORS, spotDay } from "../cards/spot-day.js";
import type { ServiceContext } from "../context.js";
import { isServiceError, ServiceError, type ErrorCode } from "../errors.js";
import { REFRESH_MS } from "../limits.js";
import { cardImageModel } from "../share/card-image.js";
import { FORECAST_PAGE_ERRORS, forecastPage } from "../share/forecast-page.js";
import { PAGE_CSP } from "../share/html.js";
import { errorPage, sharePage } from "../share/share-page.js";

/** Seconds until the forecast built at `builtFor` (an hour boundary) is replaced; at least a minute. */
export function secondsUntilRefresh(builtFor: Date, now: Date): number {
  return Math.max(60, Math.round((builtFor.getTime() + REFRESH_MS - now.getTime()) / 1000));
}

/** True when an If-None-Match header names this ETag (weak or strong, or `*`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * Every code each route can refuse with, for the OpenAPI document: its handler's, plus
 * invalid_parameter for a path segment that is not valid percent-encoding (the router refuses it
 * before the handler runs).
 */
export const SHARE_ROUTE_ERRORS = {
  cardImage: [...SPOT_DAY_ERRORS, "invalid_parameter"],
  sharePage: [...SPOT_DAY_ERRORS, "invalid_parameter"],
  forecastPage: [...FORECAST_PAGE_ERRORS, "invalid_parameter"],
} as const satisfies Record<string, readonly ErrorCode[]>;

export function registerSharePages(app: Express, ctx: ServiceContext): void {
  const cacheFor = (res: Response, builtFor: Date) =>
    res.setHeader("Cache-Control", `public, max-age=${secondsUntilRefresh(builtFor, ctx.clock.now())}`);

  const sendPage = (res: Response, status: number, body: string) => {
    res.setHeader("Content-Security-Policy", PAGE_CSP);
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.status(status).type("text/html; charset=utf-8").send(body);
  };

  const sendErrorPage = (res: Response, err: ServiceError) => {
    if (err.retryAfterS !== undefined) res.setHeader("Retry-After", String(err.retryAfterS));
    res.setHeader("Cache-Control", "no-store");
    sendPage(res, err.status, errorPage(err.status, err.title.charAt(0).toUpperCase() + err.title.slice(1), err.detail, ctx));
  };

  /** HTML routes answer errors with an HTML page carrying the problem's status. */
  const htmlRoute = (path: string, render: (req: Request, res: Response) => Promise<string>) => {
    app.get(path, async (req, res) => {
      try {
        const body = await render(req, res);
        sendPage(res, 200, body);
      } catch (e) {
        const err = isServiceError(e) ? e : new ServiceError("unavailable", "The page could not be built just now; please retry shortly.", { retryAfterS: 30 });
        if (!isServiceError(e)) ctx.log.error({ err: e, path: req.path }, "page failed");
        sendErrorPage(res, err);
      }
    });
    // A path segment that is not valid percent-encoding fails in the router, before the route runs:
    // answer it with an HTML page too, not the API's problem+json. Mounted on the fixed prefix, as a
    // pattern with parameters would fail to decode in the same way.
    app.use(path.slice(0, path.indexOf("/:")), (err: unknown, _req: Request, res: Response, next: NextFunction) => {
      if ((err as { status?: number }).status !== 400) return next(err);
      sendErrorPage(res, new ServiceError("invalid_parameter", "This address is not valid: part of it is not correctly percent-encoded."));
    });
  };

  app.get("/cards/:spot/:date.png", async (req: Request, res: Response, next: NextFunction) => {
    try {
      const day = await spotDay({ spot: req.params.spot, date: req.params.date, activity: req.query.activity }, ctx);
      const model = cardImageModel(day);
      const etag = ctx.cardImages.etag(model);
      res.setHeader("ETag", etag);
      cacheFor(res, day.forecastAt);
      if (etagMatches(req.get("If-None-Match"), etag)) {
        res.status(304).end();
        return;
      }
      const { png } = await ctx.cardImages.get(model);
      res.type("image/png").send(png);
    } catch (e) {
      next(e);
    }
  });

  htmlRoute("/s/:spot/:date", async (req, res) => {
    const day = await spotDay({ spot: req.params.spot, date: req.params.date, activity: req.query.activity }, ctx);
    cacheFor(res, day.forecastAt);
    return sharePage(day, ctx);
  });

  htmlRoute("/spots/:spot", async (req, res) => {
    const rendered = await forecastPage({ spot: req.params.spot, date: req.query.date, activity: req.query.activity }, ctx);
    cacheFor(res, rendered.builtFor);
    return rendered.html;
  });
}
