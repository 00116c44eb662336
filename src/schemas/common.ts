// Wire schemas shared by every response (spec section 2). Written once in zod; they type the
// handlers, validate responses in tests, and become the MCP output schemas and the OpenAPI document.
// Every key is required; unknown values are null, never omitted.
import { z } from "zod";
import { ALL_ERROR_CODES } from "../base/errors.js";

/** A calendar date as the wire writes it, YYYY-MM-DD. */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const DateString = z.string().regex(DATE_PATTERN).meta({ description: "Spot-local calendar date, YYYY-MM-DD", example: "2026-11-22" });
export const DateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/)
  .meta({ description: "ISO 8601 date-time with the spot's UTC offset", example: "2026-11-22T09:00:00-10:00" });
export const Uri = z.url();

export const SourceSchema = z
  .strictObject({
    name: z.string().meta({ description: "The service's name" }),
    url: Uri.meta({ description: "The service's public address" }),
    docs: Uri.meta({ description: "Developer documentation" }),
    citation: z.string().meta({ description: "Ready-to-use one-line citation" }),
  })
  .meta({ id: "Source", description: "Attribution: show it wherever results are displayed." });

export const RegionRef = z
  .strictObject({
    id: z.string().meta({ description: "Slug {iso-country}-{admin1}-{area}", example: "us-hi-oahu" }),
    name: z.string(),
    country: z.string().nullable().meta({ description: "ISO 3166-1 alpha-2" }),
    admin1: z.string().nullable().meta({ description: "ISO 3166-2 subdivision" }),
  })
  .meta({ id: "Region" });

export const DataCreditSchema = z
  .strictObject({
    provider: z.string(),
    credit: z.string().meta({ description: "Attribution text the licence requires; show it with the data" }),
    url: Uri,
    license: z.string(),
  })
  .meta({ id: "DataCredit" });

export const ProblemSchema = z
  .looseObject({
    type: Uri.meta({ description: "{base_url}/openapi.json#problem-<code>" }),
    title: z.string().meta({ description: "Short lower-case summary" }),
    status: z.number().int(),
    detail: z.string().meta({ description: "Human-readable explanation" }),
    code: z.enum(ALL_ERROR_CODES as [string, ...string[]]).meta({ description: "Stable machine code" }),
    source: SourceSchema,
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details (application/problem+json)." });

export const Nullable = {
  int: () => z.number().int().nullable(),
  num: () => z.number().nullable(),
  str: () => z.string().nullable(),
};
