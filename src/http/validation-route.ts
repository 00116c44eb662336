// GET /api/v1/validation: the validation record as JSON (CORS and the common headers come from the
// app's prelude, like every route), served from the record built at most once a minute
// (src/services/validation/validation.ts), with a strong ETag (If-None-Match → 304), metered like the facts
// (a 304 too: it is a request all the same).
import type { Express } from "express";
import type { ServiceContext } from "../services/context.js";
import { ServiceError } from "../base/errors.js";
import { VALIDATION_PATH } from "../services/validation/report.js";
import { etagMatches } from "../web/caching.js";
import { callerOf } from "../web/request-state.js";

/** The figures change only when observations arrive (once a day per region): a few minutes' caching is honest. */
export const VALIDATION_MAX_AGE_S = 300;

export function registerValidation(app: Express, ctx: ServiceContext): void {
  app.get(VALIDATION_PATH, async (req, res, next) => {
    try {
      const admission = await ctx.meter.admit("validation", {}, callerOf(ctx, req, res));
      for (const [name, value] of Object.entries(admission.headers)) res.setHeader(name, value);
    } catch (e) {
      return next(e);
    }
    let built;
    try {
      built = await ctx.validation.served();
    } catch {
      // Logged once per change of state by the record itself, not once per request.
      return next(new ServiceError("unavailable", "The validation record cannot be read right now (its shared store does not answer).", { retryAfterS: 30 }));
    }
    res.setHeader("Cache-Control", `public, max-age=${VALIDATION_MAX_AGE_S}`);
    res.setHeader("ETag", built.etag);
    if (etagMatches(req.headers["if-none-match"], built.etag)) return void res.status(304).end();
    res.status(200).type("application/json").send(built.json);
  });
}
