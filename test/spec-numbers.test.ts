// The numbers a user relies on, stated here from the spec and the published model rather than read
// back from the code under test: tier edges, the score caps on both sides of each edge (and each cap
// actually reached), the confidence factors and labels, and the freshness windows. A changed number
// in the code fails here until the change is made on purpose in both places.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confidenceOf, leadTimeFactor } from "../src/decisions/confidence.js";
import { effectiveWindKt, scoreConditions as scoreOf } from "../src/model/score.js";
import { NO_DATA_COLOR, ratingFor, TIERS } from "../src/model/tiers.js";
import { freshnessFactor, freshnessOf } from "../src/sources/freshness.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import type { Origin } from "../src/sources/types.js";
import { startService, type TestService } from "./helpers/service.js";

/** Spec section 4: excellent >= 80, great >= 60, good >= 40, fair >= 20, otherwise no-go. */
function specTier(score: number): string {
  if (score >= 80) return "excellent";
  if (score >= 60) return "great";
  if (score >= 40) return "good";
  if (score >= 20) return "fair";
  return "no-go";
}

describe("tier edges (spec section 4)", () => {
  it("puts every integer score from 0 to 100 in the spec's tier", () => {
    const checked: number[] = [];
    for (let s = 0; s <= 100; s++) {
      expect({ s, rating: ratingFor(s) }).toEqual({ s, rating: specTier(s) });
      checked.push(s);
    }
    expect(checked).toHaveLength(101);
    expect(ratingFor(null)).toBeNull();
    // Never produced (scores are clamped to 0), but anything below the bottom edge is still no-go.
    expect(ratingFor(-1)).toBe("no-go");
  });

  it("gives a card a hex tier_color even without a tier (spec: SpotCard), distinct from the tiers' colours", () => {
    expect(NO_DATA_COLOR).toMatch(/^#[0-9A-F]{6}$/);
    expect(TIERS.map((t) => t.color)).not.toContain(NO_DATA_COLOR);
  });
});

describe("ratings in conditions answers (through HTTP)", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  it("derives every period's rating from its score by the spec's tiers, across all tiers", async () => {
    const seen = new Map<string, number>();
    const spots = svc.ctx.catalog.regions.flatMap((r) => r.spots.slice(0, 2));
    expect(spots.length).toBeGreaterThan(8);
    for (const spot of spots) {
      const { status, body } = await svc.json<ConditionsJson>(`/api/v1/conditions?spot=${spot.id}`);
      expect(status).toBe(200);
      expect(body.periods.length).toBeGreaterThan(40);
      for (const p of [body.now, ...body.periods]) {
        if (!p) continue;
        expect(p.score).not.toBeNull();
        expect({ spot: spot.id, start: p.start, score: p.score, rating: p.rating }).toEqual({ spot: spot.id, start: p.start, score: p.score, rating: specTier(p.score!) });
        seen.set(p.rating!, (seen.get(p.rating!) ?? 0) + 1);
      }
    }
    // The catalogue's week covers more than one tier, so the rule is exercised on several edges.
    expect(seen.size).toBeGreaterThanOrEqual(3);
  });
});

/** The score of visibility, swell at the spot and sustained wind, onshore, no gust reported, in daylight. */
const scoreConditions = (visFt: number, swellFt: number, windKt: number, gustKt: number | null = null, onshore = 1, dark = false) => scoreOf({ visFt, swellFt, windKt, gustKt, onshore, dark });

// A perfectly calm, clear reference: 80 ft of visibility, no swell, no wind scores the full 100.
const CLEAR = 80;
const FLAT = 0;
const CALM = 0;

describe("visibility is a hard cap (spec section 1; model: excellent needs 40 ft)", () => {
  it("scores a clear, flat, calm day 100", () => {
    expect(scoreConditions(CLEAR, FLAT, CALM).score).toBe(100);
  });

  it("never rates water under 40 ft excellent, however calm; 40 ft can be", () => {
    for (const [vis, expected] of [
      [39.99, 79],
      [39.5, 79],
      [38, 79],
      [35, 77],
    ] as const) {
      const { score, cappedBy } = scoreConditions(vis, FLAT, CALM);
      expect({ vis, score, cappedBy }).toEqual({ vis, score: expected, cappedBy: "visibility" });
      expect(specTier(score)).toBe("great");
    }
    const forty = scoreConditions(40, FLAT, CALM);
    expect(forty.score).toBe(80);
    expect(specTier(forty.score)).toBe("excellent");
  });

  // The model's visibility cap (docs/model.md): one continuous curve through 0 ft → 5, 5 ft → 15,
  // 10 ft → 35, 20 ft → 55, 30 ft → 75, 40 ft → 80 and 50 ft → no cap, interpolated linearly between
  // those anchors and rounded down. Values worked out by hand from that description, not from the code.
  it.each([
    [0, 5],
    [4.99, 14], // 5 + 10 × 4.99/5 = 14.98
    [5, 15],
    [9.99, 34], // 15 + 20 × 4.99/5 = 34.96
    [10, 35],
    [19.99, 54], // 35 + 20 × 9.99/10 = 54.98
    [20, 55],
    [29.99, 74],
    [30, 75],
    [35, 77], // 75 + 5 × 5/10 = 77.5
    [39.99, 79], // stays below excellent
    [40, 80],
    [45, 90], // 80 + 20 × 5/10
  ])("%s ft on a flat calm day scores exactly %s (capped by visibility)", (vis, cap) => {
    const r = scoreConditions(vis, FLAT, CALM);
    expect(r.uncapped).toBeGreaterThan(cap);
    expect({ score: r.score, cappedBy: r.cappedBy }).toEqual({ score: cap, cappedBy: "visibility" });
  });

  it("has no cliff: a fraction of a foot moves the score by at most a point or two, never down", () => {
    let previous = -1;
    let steps = 0;
    for (let tenths = 0; tenths <= 600; tenths++) {
      const { score } = scoreConditions(tenths / 10, FLAT, CALM);
      expect(score).toBeGreaterThanOrEqual(previous);
      if (previous >= 0) expect(score - previous).toBeLessThanOrEqual(2);
      previous = score;
      steps++;
    }
    expect(steps).toBe(601);
  });

  it("holds each cap however calm the rest, down to the murkiest water", () => {
    expect(specTier(scoreConditions(4.99, FLAT, CALM).score)).toBe("no-go");
    expect(specTier(scoreConditions(9.99, FLAT, CALM).score)).toBe("fair");
    expect(specTier(scoreConditions(19.99, FLAT, CALM).score)).toBe("good");
    expect(specTier(scoreConditions(29.99, FLAT, CALM).score)).toBe("great");
  });
});

describe("swell and wind caps (the model's table)", () => {
  // Surge-equivalent swell at the spot: at or above 4 ft at most 50, 6 ft at most 25, 8 ft at most 10.
  it.each([
    [4, 50],
    [5.99, 50],
    [6, 25],
    [7.99, 25],
    [8, 10],
    [12, 10],
  ])("%s ft of swell in clear calm water scores exactly %s (capped by swell)", (swell, cap) => {
    const r = scoreConditions(CLEAR, swell, CALM);
    expect(r.uncapped).toBeGreaterThan(cap);
    expect({ score: r.score, cappedBy: r.cappedBy }).toEqual({ score: cap, cappedBy: "swell" });
  });

  it("applies no swell cap just under 4 ft", () => {
    const r = scoreConditions(CLEAR, 3.99, CALM);
    expect(r.cappedBy).toBeNull();
    expect(r.score).toBeGreaterThan(50);
  });

  // Sustained wind as reported (docs/model.md, the rubric): from 11 kt (force 4) at most 79, 17 kt
  // (force 5) at most 59, 22 kt (force 6) at most 39, 28 kt (force 7) at most 19.
  it.each([
    [11, 79],
    [16.99, 79],
    [17, 59],
    [21.99, 59],
    [22, 39],
    [27.99, 39],
    [28, 19],
    [40, 19],
  ])("%s kt of wind on clear flat water scores at most %s (capped by wind)", (wind, cap) => {
    const r = scoreConditions(CLEAR, FLAT, wind);
    expect(r.score).toBeLessThanOrEqual(cap);
    if (r.uncapped > cap) expect({ score: r.score, cappedBy: r.cappedBy }).toEqual({ score: cap, cappedBy: "wind" });
  });

  // Gusts as reported: from 25 kt at most 79, 28 kt at most 59, 34 kt at most 39, 41 kt at most 19.
  it.each([
    [25, 79],
    [28, 59],
    [34, 39],
    [41, 19],
  ])("a %s kt gust over a 5 kt breeze on clear flat water scores exactly %s (capped by wind)", (gust, cap) => {
    expect(scoreConditions(CLEAR, FLAT, 5, gust)).toMatchObject({ score: cap, cappedBy: "wind" });
  });

  it("applies no wind cap just under 11 kt, nor to a gust under 25 kt", () => {
    const r = scoreConditions(CLEAR, FLAT, 10.99);
    expect(r.cappedBy).toBeNull();
    expect(r.score).toBeGreaterThanOrEqual(80);
    expect(scoreConditions(CLEAR, FLAT, 5, 24.99).score).toBeGreaterThanOrEqual(80);
  });

  it("caps a window wholly after dark at 59 (good), however clear and calm", () => {
    expect(scoreConditions(CLEAR, FLAT, CALM, null, 1, true)).toMatchObject({ score: 59, cappedBy: "light" });
  });

  it("names no cap when the score only reaches a cap without being lowered by it", () => {
    // Murky flat calm water at 2 ft: 1.6 + 30 + 30 = 61.6 → 62, which the 2 ft cap (5 + 10 × 2/5 = 9) lowers.
    expect(scoreConditions(2, FLAT, CALM)).toMatchObject({ score: 9, uncapped: 62, cappedBy: "visibility" });
    // 4 ft (3.2 points) + 10 ft of swell (0) + 27 kt of wind (1 point) = 4.2 → 4, under the 4 ft cap of 13 and the wind cap of 39.
    expect(scoreConditions(4, 10, 27)).toMatchObject({ score: 4, uncapped: 4, cappedBy: null });
  });

  it("counts wind straight offshore at 70 % and straight onshore at 100 % for the points, but caps on the wind as reported", () => {
    expect(effectiveWindKt(20, 0)).toBeCloseTo(14, 9);
    expect(effectiveWindKt(20, 0.5)).toBeCloseTo(17, 9);
    expect(effectiveWindKt(20, 1)).toBeCloseTo(20, 9);
    // 14 kt offshore earns the points of 9.8 kt, but meets the 11 kt cap all the same.
    const offshore = scoreConditions(CLEAR, FLAT, 14, null, 0);
    const onshore = scoreConditions(CLEAR, FLAT, 14, null, 1);
    expect(offshore.points.wind).toBeGreaterThan(onshore.points.wind);
    expect(offshore).toMatchObject({ score: 79, cappedBy: "wind" });
  });

  it("reports the points each part lost against its maximum (visibility 40, swell 30, wind 30)", () => {
    expect(scoreConditions(CLEAR, FLAT, CALM).lost).toEqual({ visibility: 0, swell: 0, wind: 0 });
    const r = scoreConditions(10, 5, 18);
    expect(r.lost.visibility).toBeCloseTo(40 - r.points.visibility, 9);
    expect(r.lost.swell).toBeCloseTo(30 - r.points.swell, 9);
    expect(r.lost.wind).toBeCloseTo(30 - r.points.wind, 9);
    expect(r.lost.visibility + r.lost.swell + r.lost.wind).toBeCloseTo(100 - (r.points.visibility + r.points.swell + r.points.wind), 9);
    for (const part of ["visibility", "swell", "wind"] as const) expect(r.lost[part], part).toBeGreaterThan(0);
  });

  it("lets the lowest cap win when several apply", () => {
    expect(scoreConditions(19.99, 8, CALM)).toMatchObject({ score: 10, cappedBy: "swell" });
    expect(scoreConditions(29.99, 6, 30)).toMatchObject({ score: 19, cappedBy: "wind" });
    expect(scoreConditions(4.99, 4, 25)).toMatchObject({ score: 14, cappedBy: "visibility" });
  });
});

describe("freshness windows (live < 90 min, recent < 6 h, aging < 24 h, stale older, none)", () => {
  const now = new Date("2026-11-21T19:00:00Z");
  const fetched = (minutesAgo: number): Origin => ({ id: "open-meteo:marine", climatology: false, fetchedAt: new Date(now.getTime() - minutesAgo * 60_000), credits: [] });
  const norms: Origin = { id: "climatology:us-hi-oahu", climatology: true, fetchedAt: null, credits: [] };

  it.each([
    [0, "live"],
    [89.99, "live"],
    [90, "recent"],
    [359.99, "recent"],
    [360, "aging"],
    [1439.99, "aging"],
    [1440, "stale"],
    [10_000, "stale"],
  ])("inputs fetched %s min ago are %s", (minutes, want) => {
    expect(freshnessOf([fetched(minutes)], now)).toBe(want);
  });

  it("goes by the oldest upstream input and ignores seasonal norms; none when nothing came from upstream", () => {
    expect(freshnessOf([fetched(10), fetched(120), norms], now)).toBe("recent");
    expect(freshnessOf([fetched(120), norms, fetched(10)], now)).toBe("recent");
    expect(freshnessOf([norms], now)).toBe("none");
    expect(freshnessOf([], now)).toBe("none");
  });

  it("leaves out a satellite observation, dated and weighed on its own, and norms even when they carry a fetch time", () => {
    const observation: Origin = { ...fetched(2000), observation: true };
    expect(freshnessOf([fetched(10), observation], now)).toBe("live");
    expect(freshnessOf([observation], now)).toBe("none");
    expect(freshnessOf([{ ...norms, fetchedAt: new Date(now.getTime() - 3000 * 60_000) }, fetched(10)], now)).toBe("live");
  });
});

describe("decision confidence (spec: Confidence)", () => {
  it("maps freshness to its factor: live 1.0, recent 0.9, aging 0.8, stale 0.7, none 0.6", () => {
    const table = (["live", "recent", "aging", "stale", "none"] as const).map((f) => [f, freshnessFactor(f)]);
    expect(Object.fromEntries(table)).toEqual({ live: 1, recent: 0.9, aging: 0.8, stale: 0.7, none: 0.6 });
  });

  it("multiplies the five factors: visibility source 1.0 satellite / 0.8 heuristic, activity fit 1.0 native / 0.85 proxy", () => {
    const c = confidenceOf({ model: 0.8, visibilitySource: "satellite", freshness: "recent", daysAhead: 0, activityFit: 1 });
    expect(c).toEqual({ value: 0.72, label: "high", factors: { model: 0.8, visibility_source: 1, freshness: 0.9, lead_time: 1, activity_fit: 1 } });
    const d = confidenceOf({ model: 0.8, visibilitySource: "heuristic", freshness: "aging", daysAhead: 1, activityFit: 0.85 });
    expect(d.factors).toEqual({ model: 0.8, visibility_source: 0.8, freshness: 0.8, lead_time: 0.95, activity_fit: 0.85 });
    expect(d.value).toBe(0.413); // 0.8 × 0.8 × 0.8 × 0.95 × 0.85 = 0.41344
    expect(d.label).toBe("medium");
  });

  it("labels high at 0.65 and above, medium at 0.4 and above, low below", () => {
    const at = (model: number) => confidenceOf({ model, visibilitySource: "satellite", freshness: "live", daysAhead: 0, activityFit: 1 });
    expect([at(0.65).label, at(0.64).label, at(0.4).label, at(0.39).label, at(0).label]).toEqual(["high", "medium", "medium", "low", "low"]);
  });

  it("decays lead time 5% a day to a floor of 0.6", () => {
    const days = [0, 1, 2, 6, 9, 10, 11, 30];
    expect(days.map((d) => Number(leadTimeFactor(d).toFixed(4)))).toEqual([1, 0.95, 0.9025, 0.7351, 0.6302, 0.6, 0.6, 0.6]);
  });
});
