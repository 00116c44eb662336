// GET /api/v1/validation: the validation record as JSON (CORS and the common headers come from the
// app's prelude, like every route).
import type { Express } from "express";
import type { ServiceContext } from "../context.js";
import { ServiceError } from "../errors.js";
import { VALIDATION_PATH } from "./report.js";

/** The figures change only when observations arrive (once a day per region): a few minutes' caching is honest. */
export const VALIDATION_MAX_AGE_S = 300;

export function registerValidation(app: Express, ctx: ServiceContext): void {
  app.get(VALIDATION_PATH, async (_req, res, next) => {
    let body;
    try {
      body = await ctx.validation.report();
    } catch (err) {
      ctx.log.warn({ err: err instanceof Error ? err.message : String(err) }, "validation record unreadable");
      return next(new ServiceError("unavailable", "The validation record cannot be read right now (its shared store does not answer).", { retryAfterS: 30 }));
    }
    res.status(200).type("application/json").setHeader("Cache-Control", `public, max-age=${VALIDATION_MAX_AGE_S}`).send(JSON.stringify(body));
  });
}
