// Input rules shared by the REST routes and the MCP tools, so both reject the same inputs with the
// same codes. REST hands over raw query values (strings, or arrays when a key repeats); MCP hands
// over typed arguments. Every parser accepts both.
import { didYouMean, suggestSpots } from "./suggest.js";
import type { Catalog, Spot } from "./catalog.js";
import { ServiceError, type ErrorCode } from "../base/errors.js";
import { SPOT_ID_PATTERN } from "../base/limits.js";
import { isValidDate } from "../base/zone.js";

export type Raw = string | number | readonly unknown[] | undefined | null | unknown;

/**
 * Each operation parameter's own 400 code (spec section 7): what a repeated or unreadable value of
 * that parameter is refused with, on REST and MCP alike. A repeated `region` or `q` names more than
 * one place, so it is `ambiguous_location`; `invalid_parameter` is left for route-level refusals and
 * for MCP arguments a tool does not take.
 */
export const PARAMETER_CODES = {
  activity: "unknown_activity",
  region: "ambiguous_location",
  q: "ambiguous_location",
  spot: "one_spot_per_request",
  lat: "invalid_coordinates",
  lon: "invalid_coordinates",
  date: "invalid_date",
  from: "invalid_date",
  to: "invalid_date",
  limit: "invalid_limit",
  radius_km: "invalid_radius",
} as const satisfies Record<string, ErrorCode>;

export const codeOfParameter = (name: string): ErrorCode => (PARAMETER_CODES as Record<string, ErrorCode>)[name] ?? "invalid_parameter";

function single(name: string, v: Raw, code: ErrorCode): string | number | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) {
    throw new ServiceError(code, v.length > 1 ? `Give \`${name}\` once; it was given ${v.length} times.` : `\`${name}\` must be a single value, not a list.`);
  }
  if (typeof v === "string" || typeof v === "number") return v;
  throw new ServiceError(code, `\`${name}\` must be a single value.`);
}

/** A present, non-empty string parameter, or undefined. Refused with the parameter's own code. */
export function optionalString(name: string, v: Raw, code: ErrorCode = codeOfParameter(name)): string | undefined {
  const s = single(name, v, code);
  if (s === undefined) return undefined;
  const str = String(s).trim();
  return str === "" ? undefined : str;
}

function number(name: string, v: Raw, code: ErrorCode): number | undefined {
  const s = single(name, v, code);
  if (s === undefined || s === "") return undefined;
  const n = typeof s === "number" ? s : /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(s) ? Number(s) : Number.NaN;
  if (!Number.isFinite(n)) throw new ServiceError(code, `\`${name}\` must be a number; got ${JSON.stringify(s)}.`);
  return n;
}

export interface Point {
  lat: number;
  lon: number;
}

/** lat and lon together, in range; undefined when neither is given. */
export function parsePoint(latRaw: Raw, lonRaw: Raw): Point | undefined {
  const lat = number("lat", latRaw, "invalid_coordinates");
  const lon = number("lon", lonRaw, "invalid_coordinates");
  if (lat === undefined && lon === undefined) return undefined;
  if (lat === undefined || lon === undefined) {
    throw new ServiceError("invalid_coordinates", "Give `lat` and `lon` together (decimal degrees).");
  }
  if (lat < -90 || lat > 90) throw new ServiceError("invalid_coordinates", `\`lat\` must be between -90 and 90; got ${lat}.`);
  if (lon < -180 || lon > 180) throw new ServiceError("invalid_coordinates", `\`lon\` must be between -180 and 180; got ${lon}.`);
  return { lat, lon };
}

/** A spot id parameter: one value only (`one_spot_per_request`), matching the id pattern. */
export function parseSpotId(v: Raw): string | undefined {
  const s = optionalString("spot", v, "one_spot_per_request");
  if (s !== undefined && s.includes(",")) {
    throw new ServiceError("one_spot_per_request", "Ask about one spot per request; `spot` held a list.");
  }
  return s;
}

/** Where every spot is listed, for a caller of either interface (MCP tool errors carry the same detail). */
export const LISTS_SPOTS = "Every spot is listed by the list_coverage tool (REST: /api/v1/spots).";

/** Looks a spot id up, with suggestions when it is not known. */
export function resolveSpot(catalog: Catalog, id: string): Spot {
  const spot = SPOT_ID_PATTERN.test(id) ? catalog.spot(id) : undefined;
  if (spot) return spot;
  const suggestions = suggestSpots(catalog, id).map((s) => s.id);
  const form = SPOT_ID_PATTERN.test(id) ? "" : ` Spot ids are lower-case letters, digits and hyphens (${SPOT_ID_PATTERN.source}).`;
  throw new ServiceError("unknown_spot", `No spot with id \`${id}\`.${form}${didYouMean(suggestions)} ${LISTS_SPOTS}`, { extra: { suggestions } });
}

/** A YYYY-MM-DD calendar date that exists (2026-02-30 does not). */
export function parseDate(name: string, v: Raw): string | undefined {
  const s = optionalString(name, v, "invalid_date");
  if (s === undefined) return undefined;
  if (!isValidDate(s)) throw new ServiceError("invalid_date", `\`${name}\` must be a real calendar date written YYYY-MM-DD; got ${JSON.stringify(s)}.`);
  return s;
}

export { number as parseNumber };

const isScalar = (v: unknown) => v === null || v === undefined || typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/**
 * Tool arguments are strings, numbers, booleans or lists of them. Anything else (an object such
 * as {"toString": "snorkel"}) is refused before it reaches a handler or a cache key.
 */
export function requireScalarArguments(args: Record<string, unknown>): void {
  for (const [name, v] of Object.entries(args)) {
    if (isScalar(v) || (Array.isArray(v) && v.every((x) => isScalar(x)))) continue;
    throw new ServiceError("invalid_parameter", `${name} must be a string, number or boolean, or a list of them.`);
  }
}
