// Share routes: the card PNG (problem+json on error, never a broken image), the share page and the
// spot forecast page (HTML, with HTML error pages). Caching follows the forecast: it changes only
// on the hour, so responses may be reused until then, and a card's ETag is its content key.
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseQuery } from "node:querystring";
import type { Express, NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import { hourFloor } from "../base/clock.js";
import type { Raw } from "../catalog/params.js";
import { SPOT_DAY_ERRORS, spotDay } from "../decisions/spot-day.js";
import type { ServiceContext } from "../services/context.js";
import { isServiceError, ServiceError, type ErrorCode } from "../base/errors.js";
import type { CardImageModel } from "../services/render/card-draw.js";
import { cardImageModel } from "../services/render/card-image.js";
import { FORECAST_PAGE_ERRORS, forecastPage } from "../pages/forecast-page.js";
import { PAGE_CSP } from "../pages/html.js";
import { asServiceError } from "../web/failures.js";
import { etagMatches, secondsUntilRefresh } from "../web/caching.js";
import { sendProblem } from "../web/problem.js";
import { applyCommonHeaders, callerOf, requestState, writeHeadAll } from "../web/request-state.js";
import { errorPage, sharePage } from "../pages/share-page.js";
import { REGION_PAGE_ERRORS, regionOrThrow, regionPage } from "../pages/region-page.js";
import { unitsAsked, unitsCookie, unitsRemembered, type Units } from "../pages/units.js";

/**
 * Every code each route can refuse with, for the OpenAPI document: its handler's, plus
 * invalid_parameter for a path segment that is not valid percent-encoding (the router refuses it
 * before the handler runs), and rate_limited when the caller's render budget is spent (the image's
 * full render queue is the handler's unavailable).
 */
export const SHARE_ROUTE_ERRORS = {
  cardImage: [...SPOT_DAY_ERRORS, "invalid_parameter", "rate_limited"],
  sharePage: [...SPOT_DAY_ERRORS, "invalid_parameter", "rate_limited"],
  forecastPage: [...FORECAST_PAGE_ERRORS, "invalid_parameter", "rate_limited"],
  regionPage: [...REGION_PAGE_ERRORS, "invalid_parameter", "rate_limited"],
} as const satisfies Record<string, readonly ErrorCode[]>;

/** What a card shows and its content key, for one spot, date and activity as asked, in one hour. */
interface CardEntry {
  model: CardImageModel;
  etag: string;
  forecastAt: Date;
  hour: number;
  spotId: string;
  /** The spot's forecast version it was built from (null: a refresh was due, so it is not reused). */
  version: string | null;
}

/** A built HTML page and what it was built from. */
interface CachedPage {
  html: string;
  builtFor: Date;
  hour: number;
  version: string | null;
}

/** Memory for built pages (a forecast page is about 40 KB, counted twice as UTF-16): some 100 pages, the most recently asked; a page costs about 5 ms to build again. */
const PAGE_CACHE_BYTES = 8 * 1024 * 1024;

/** Cards remembered (each under 2 KB): every spot × 7 days × activity with room to spare. */
const CARD_ENTRIES = 5_000;

/** The card image's path, as OpenAPI writes it. */
export const CARD_IMAGE_PATH = "/cards/{spot}/{date}.png";
const CARD_PATH = /^\/cards\/([^/]+)\/([^/]+)\.png$/;

/**
 * GET /cards/{spot}/{date}.png, served from node:http like the API: Express cost about 150 µs of
 * CPU per cached 72 KB PNG (measured), more than the rest of the route. Returns false when the path
 * is not a card image, for Express to answer. A card's content changes only with the hour or its
 * spot's forecast: what it shows and its ETag are kept per spot, date and activity as asked, so a
 * cached PNG or a 304 costs a lookup, not a judgement of the spot's day.
 */
export function createCardImageRoute(ctx: ServiceContext): (req: IncomingMessage, res: ServerResponse, path: string, query: string) => boolean {
  const cards = new LRUCache<string, CardEntry>({ max: CARD_ENTRIES });
  const currentCard = async (spot: string, date: string, activity: unknown): Promise<CardEntry> => {
    const key = JSON.stringify([spot, date, activity]);
    const hour = hourFloor(ctx.clock.now()).getTime();
    const hit = cards.get(key);
    if (hit && hit.hour === hour && hit.version !== null && hit.version === ctx.forecasts.versionOf(hit.spotId)) return hit;
    const before = ctx.forecasts.versionOf(spot);
    const day = await spotDay({ spot, date, activity: activity as Raw }, ctx);
    const model = cardImageModel(day);
    const entry: CardEntry = { model, etag: ctx.cardImages.etag(model), forecastAt: day.forecastAt, hour, spotId: day.spot.id, version: settledVersion(before, ctx.forecasts.versionOf(day.spot.id)) };
    cards.set(key, entry);
    return entry;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse, spotRaw: string, dateRaw: string, query: string) => {
    try {
      let spot: string, date: string;
      try {
        spot = decodeURIComponent(spotRaw);
        date = decodeURIComponent(dateRaw);
      } catch {
        throw new ServiceError("invalid_parameter", "This address is not valid: part of it is not correctly percent-encoded.");
      }
      const card = await currentCard(spot, date, parseQuery(query).activity);
      const headers = ["ETag", card.etag, "Cache-Control", cacheControl(card.forecastAt)];
      if (etagMatches(req.headers["if-none-match"], card.etag)) {
        writeHeadAll(res, 304, headers);
        res.end();
        return;
      }
      // Only a card that must be drawn counts against the caller's render budget.
      const caller = ctx.cardImages.isReady(card.etag) ? null : callerOf(ctx, req, res);
      if (caller) await ctx.meter.admitRender(caller);
      const { png } = await ctx.cardImages.get(card.model, card.etag, caller?.id);
      writeHeadAll(res, 200, [...headers, "Content-Type", "image/png", "Content-Length", String(png.length)]);
      res.end(req.method === "HEAD" ? undefined : png);
    } catch (e) {
      const { error, unexpected } = asServiceError(e);
      if (unexpected) ctx.log.error({ err: e, route: CARD_IMAGE_PATH }, "card image failed");
      if (!res.headersSent) {
        applyCommonHeaders(res);
        sendProblem(res, error, ctx.links.base, ctx.source);
      }
    }
  };
  const cacheControl = (builtFor: Date) => `public, max-age=${secondsUntilRefresh(ctx.clock.now(), builtFor)}`;

  return (req, res, path, query) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const m = CARD_PATH.exec(path);
    if (!m) return false;
    const state = requestState(res);
    if (state) state.route = CARD_IMAGE_PATH;
    void serve(req, res, m[1]!, m[2]!, query);
    return true;
  };
}

/**
 * The forecast version a cached card or page may be kept under: the one read after building, unless
 * the forecast moved on while it was built (then the build may have read the older data, and it is
 * not kept). Before the hour's first build there is no version to compare, and the one after stands.
 */
function settledVersion(before: string | null, after: string | null): string | null {
  return before === null || before === after ? after : null;
}

export function registerSharePages(app: Express, ctx: ServiceContext): void {
  const cacheFor = (res: Response, builtFor: Date) => res.setHeader("Cache-Control", `public, max-age=${secondsUntilRefresh(ctx.clock.now(), builtFor)}`);

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

  // Built pages, for the data hour: valid while the hour and the spot's forecast version are the
  // same. Only a page that must be built counts against the caller's render budget.
  const pages = new LRUCache<string, CachedPage>({ maxSize: PAGE_CACHE_BYTES, sizeCalculation: (p) => p.html.length * 2 + 256 });
  const cachedPage = async (req: Request, spotIds: string | readonly string[], build: () => Promise<{ html: string; builtFor: Date }>, units: Units | null = null): Promise<CachedPage> => {
    const key = JSON.stringify([req.path, req.query.date ?? null, req.query.activity ?? null, units]);
    const hour = hourFloor(ctx.clock.now()).getTime();
    // A region page rests on every spot of its region: its version is theirs together (null while any has none).
    const ids = typeof spotIds === "string" ? [spotIds] : spotIds;
    const versionNow = () => {
      const vs = ids.map((id) => ctx.forecasts.versionOf(id));
      return vs.some((v) => v === null) ? null : vs.join(" ");
    };
    const hit = pages.get(key);
    if (hit && hit.hour === hour && hit.version === versionNow()) return hit;
    await ctx.meter.admitRender(callerOf(ctx, req, req.res!));
    const before = versionNow();
    const built = await build();
    const page: CachedPage = { ...built, hour, version: settledVersion(before, versionNow()) };
    if (page.version !== null) pages.set(key, page);
    return page;
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

  htmlRoute("/s/:spot/:date", async (req, res) => {
    const page = await cachedPage(req, req.params.spot as string, async () => {
      const day = await spotDay({ spot: req.params.spot, date: req.params.date, activity: req.query.activity }, ctx);
      return { html: sharePage(day, ctx), builtFor: day.forecastAt };
    });
    cacheFor(res, page.builtFor);
    return page.html;
  });

  /**
   * The visitor's units: a link's `?units=` (remembered in a cookie from then on), else the cookie,
   * else null (the page takes its region's). The page differs by cookie, so caches are told so.
   */
  const unitsOf = (req: Request, res: Response): Units | null => {
    res.setHeader("Vary", "Cookie");
    const asked = unitsAsked(req.query.units);
    if (asked) {
      res.setHeader("Set-Cookie", unitsCookie(asked));
      return asked;
    }
    return unitsRemembered(req.headers.cookie);
  };

  htmlRoute("/spots/:spot", async (req, res) => {
    const units = unitsOf(req, res);
    const page = await cachedPage(req, req.params.spot as string, () => forecastPage({ spot: req.params.spot, date: req.query.date, activity: req.query.activity, units }, ctx), units);
    cacheFor(res, page.builtFor);
    return page.html;
  });

  htmlRoute("/regions/:region", async (req, res) => {
    const region = regionOrThrow(ctx, req.params.region as string);
    const units = unitsOf(req, res);
    const page = await cachedPage(
      req,
      region.spots.map((s) => s.id),
      () => regionPage(region.id, ctx, units),
      units,
    );
    cacheFor(res, page.builtFor);
    return page.html;
  });
}
