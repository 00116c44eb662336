// Every key the spec lists is present in every response type (unknown = null, never omitted): each
// body is parsed with the strict zod schema it is documented by, which rejects missing and extra keys.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { CoverageSchema, SpotListSchema } from "../src/schemas/catalog.js";
import { ProblemSchema } from "../src/schemas/common.js";
import { ConditionsSchema } from "../src/schemas/conditions.js";
import { BestDaySchema, RecommendationSchema } from "../src/schemas/decisions.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const cases: [string, z.ZodType, string][] = [
  ["conditions", ConditionsSchema, "/api/v1/conditions?spot=hanauma-bay"],
  ["conditions (lat/lon, future range)", ConditionsSchema, "/api/v1/conditions?lat=32.85&lon=-117.27&from=2026-11-24&to=2026-11-25"],
  ["spots", SpotListSchema, "/api/v1/spots"],
  ["spots (near a point)", SpotListSchema, "/api/v1/spots?lat=20&lon=-156"],
  ["coverage", CoverageSchema, "/api/v1/coverage"],
  ["recommendation ok", RecommendationSchema, "/api/v1/recommendations?activity=dive&region=us-hi-maui"],
  ["recommendation ok, one pick far ahead", RecommendationSchema, "/api/v1/recommendations?activity=snorkel&region=us-hi-oahu&date=2026-11-27&limit=1"],
  ["recommendation not_covered", RecommendationSchema, "/api/v1/recommendations?activity=snorkel&lat=0&lon=0"],
  ["recommendation conditions_only", RecommendationSchema, "/api/v1/recommendations?activity=snorkel&region=us-ca-catalina"],
  ["recommendation activity_not_modeled", RecommendationSchema, "/api/v1/recommendations?activity=surf&spot=waimea-bay"],
  ["best-day ok", BestDaySchema, "/api/v1/best-day?activity=freedive&lat=19.6&lon=-156&radius_km=50"],
  ["best-day not_covered", BestDaySchema, "/api/v1/best-day?activity=snorkel&lat=0&lon=0"],
  ["best-day activity_not_modeled", BestDaySchema, "/api/v1/best-day?activity=surf&region=au-nsw-sydney"],
  ["problem 400", ProblemSchema, "/api/v1/conditions"],
  ["problem 404", ProblemSchema, "/api/v1/recommendations?activity=snorkel&spot=nope"],
  ["problem 422", ProblemSchema, "/api/v1/best-day?activity=snorkel&region=us-hi-oahu&from=2027-01-01"],
];

describe("every key present in every response type", () => {
  it.each(cases)("%s", async (_name, schema, path) => {
    const res = await svc.get(path);
    const body = (await res.json()) as unknown;
    const parsed = schema.safeParse(body);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    expect(JSON.stringify(body)).not.toContain("undefined");
  });
});
