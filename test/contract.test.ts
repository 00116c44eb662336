// What a strict REST client checks field by field against the spec: every operation answers only
// the status/code pairs spec section 7 lists for it, a repeated parameter is that parameter's own
// 400, typed fields keep their types, and one distance is written one way in one answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIVITY_IDS } from "../src/base/activities.js";
import { ERROR_CODES } from "../src/base/errors.js";
import { BestDaySchema, RecommendationSchema } from "../src/schemas/decisions.js";
import { expectProblem } from "./helpers/problem.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

/** Spec section 7: which statuses each operation may answer, and which codes each status has. */
const SPEC_STATUSES: Record<string, number[]> = {
  conditions: [400, 404, 422, 429, 503],
  spots: [400, 429],
  recommendations: [400, 401, 402, 404, 422, 429, 503],
  "best-day": [400, 401, 402, 404, 422, 429, 503],
  coverage: [],
};
const SPEC_CODES: Record<number, string[]> = {
  400: [
    "missing_location",
    "ambiguous_location",
    "invalid_coordinates",
    "invalid_date",
    "invalid_range",
    "range_too_long",
    "missing_activity",
    "unknown_activity",
    "invalid_limit",
    "invalid_radius",
    "one_spot_per_request",
  ],
  404: ["unknown_spot", "no_spot_nearby"],
  422: ["outside_horizon"],
};

describe("only the spec's status/code pairs", () => {
  it.each([
    ["recommendations", "activity=snorkel&region=nope", 404, "unknown_spot"],
    ["best-day", "activity=snorkel&region=nope", 404, "unknown_spot"],
    ["spots", "region=us-hi-oahu&region=us-hi-maui", 400, "ambiguous_location"],
    ["spots", "q=cove&q=bay", 400, "ambiguous_location"],
    ["recommendations", "activity=snorkel&region=us-hi-oahu&region=us-hi-maui", 400, "ambiguous_location"],
    ["best-day", "activity=snorkel&region=us-hi-oahu&region=us-hi-maui", 400, "ambiguous_location"],
    ["recommendations", "activity=snorkel&activity=dive&region=us-hi-oahu", 400, "unknown_activity"],
    ["recommendations", "activity=snorkel&region=us-hi-oahu&limit=2&limit=3", 400, "invalid_limit"],
    ["best-day", "activity=snorkel&region=us-hi-oahu&from=2026-11-22&from=2026-11-23", 400, "invalid_date"],
    ["conditions", "spot=hanauma-bay&spot=sharks-cove", 400, "one_spot_per_request"],
  ])("%s?%s → %i %s", async (op, qs, status, code) => {
    const res = await svc.json(`/api/v1/${op}?${qs}`);
    expectProblem(svc, res.status, res.body, status, code);
    expect(SPEC_STATUSES[op]).toContain(status);
    expect(SPEC_CODES[status]).toContain(code);
    expect(String(res.body.detail)).not.toMatch(/repeated 1 times/);
  });

  it("an unknown region is a 404 unknown_spot whose detail names the region and lists the real ones", async () => {
    const { body } = await svc.json("/api/v1/recommendations?activity=snorkel&region=nope");
    expect(body.detail).toContain("`nope`");
    expect(body.detail).toContain("us-hi-oahu");
    expect(Object.keys(ERROR_CODES)).not.toContain("unknown_region");
  });

  it("a repeated activity is unknown_activity listing the allowed values", async () => {
    const { body } = await svc.json("/api/v1/best-day?activity=snorkel&activity=dive&region=us-hi-oahu");
    expect(body.code).toBe("unknown_activity");
    for (const id of ACTIVITY_IDS) expect(body.detail).toContain(id);
    expect(body.allowed).toEqual([...ACTIVITY_IDS]);
  });

  it("coverage refuses nothing: a repeated region lists each region, an unknown one a note", async () => {
    const both = await svc.json<{ regions: { id: string }[]; notes: string[] }>("/api/v1/coverage?region=us-hi-oahu&region=us-hi-maui");
    expect(both.status).toBe(200);
    expect(both.body.regions.map((r) => r.id).sort()).toEqual(["us-hi-maui", "us-hi-oahu"]);
    const long = "x".repeat(70);
    const unknown = await svc.json<{ regions: unknown[]; notes: string[] }>(`/api/v1/coverage?region=${long}&region=us-hi-oahu`);
    expect(unknown.status).toBe(200);
    expect(unknown.body.regions).toHaveLength(1);
    expect(unknown.body.notes[0]).toContain(long);
  });
});

describe("typed fields keep their types", () => {
  it("best-day range.requested_from and requested_to are dates even when not given", async () => {
    const { body } = await svc.json<{ range: Record<string, string> }>("/api/v1/best-day?activity=snorkel&region=us-hi-oahu&to=2026-11-23");
    expect(body.range).toEqual({ from: "2026-11-21", to: "2026-11-23", requested_from: "2026-11-21", requested_to: "2026-11-23" });
    BestDaySchema.parse(body);
  });

  it("clamps a past best-day `from` to today before the 7-day limit: 14 days ending today is today", async () => {
    const res = await svc.json<{ range: unknown; days: unknown[] }>("/api/v1/best-day?activity=snorkel&region=us-hi-oahu&from=2026-11-08&to=2026-11-21");
    expect(res.status).toBe(200);
    expect(res.body.range).toEqual({ from: "2026-11-21", to: "2026-11-21", requested_from: "2026-11-08", requested_to: "2026-11-21" });
    expect(res.body.days).toHaveLength(1);
    // A window of more than 7 days from today is still refused.
    const long = await svc.json("/api/v1/best-day?activity=snorkel&region=us-hi-oahu&from=2026-11-08&to=2026-11-28");
    expectProblem(svc, long.status, long.body, 400, "range_too_long");
  });
});

describe("one distance, one way", () => {
  type Rec = {
    status: string;
    message: string;
    coverage: { nearest_covered: { distance_km: number } | null };
    facts_hint: { message: string } | null;
    picks: { distance_km: number | null }[];
    card_markdown: string;
  };

  it("not_covered: the nearest spot's distance is the same number in the field and the message", async () => {
    const { body } = await svc.json<Rec>("/api/v1/recommendations?activity=snorkel&lat=25.77&lon=-80.13");
    RecommendationSchema.parse(body);
    const km = body.coverage.nearest_covered!.distance_km;
    expect(Number.isInteger(km * 10)).toBe(true);
    expect(body.message).toContain(`, ${km} km away.`);
  });

  it("a point: the nearest spot's distance in the message and each pick's distance in the cards use one decimal", async () => {
    const { body } = await svc.json<Rec>("/api/v1/recommendations?activity=snorkel&lat=21.28&lon=-157.75&radius_km=25&limit=5");
    expect(body.status).toBe("ok");
    const km = body.coverage.nearest_covered!.distance_km;
    expect(body.message).toContain(`, ${km} km from your point`);
    for (const p of body.picks) {
      expect(Number.isInteger(p.distance_km! * 10)).toBe(true);
      expect(body.card_markdown).toContain(`· ${p.distance_km} km away`);
    }
  });

  it("surf at an uncovered point says the place is uncovered before naming a far spot", async () => {
    const { body } = await svc.json<Rec>("/api/v1/recommendations?activity=surf&lat=25.77&lon=-80.13");
    expect(body.status).toBe("activity_not_modeled");
    const km = body.coverage.nearest_covered!.distance_km;
    expect(body.message).toMatch(/outside coverage/);
    expect(body.facts_hint!.message).toMatch(/outside coverage/);
    expect(body.facts_hint!.message).toContain(`${km} km away`);
  });
});
