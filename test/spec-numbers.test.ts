// The numbers a user relies on, stated here from the spec and the published model rather than read
// back from the code under test: tier edges, the score caps on both sides of each edge (and each cap
// actually reached), the confidence factors and labels, and the freshness windows. A changed number
// in the code fails here until the change is made on purpose in both places.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confidenceOf, leadTimeFactor } from "../src/decisions/confidence.js";
import { effectiveWindKt, scoreConditions } from "../src/forecast/score.js";
import { NO_DATA_COLOR, ratingFor, TIERS } from "../src/forecast/tiers.js";
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

// A perfectly calm, clear reference: 80 ft of visibility, no swell, no wind scores the full 100.
const CLEAR = 80;
const FLAT = 0;
const CALM = 0;

describe("visibility is a hard cap (spec section 1; model: excellent needs 40 ft)", () => {
  it("scores a clear, flat, calm day 100", () => {
    expect(scoreConditions(CLEAR, FLAT, CALM).score).toBe(100);
  });

  it("never rates water under 40 ft excellent, however calm; 40 ft can be", () => {
    for (const [vis, expected] of [[39.99, 79], [39.5, 79], [38, 79], [35, 77]] as const) {
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

  // Effective wind: at or above 25 kt at most 35, 30 kt at most 15.
  it.each([
    [25, 35],
    [29.99, 35],
    [30, 15],
    [40, 15],
  ])("%s kt of wind on clear flat water scores exactly %s (capped by wind)", (wind, cap) => {
    const r = scoreConditions(CLEAR, FLAT, wind);
    expect(r.uncapped).toBeGreaterThan(cap);
    expect({ score: r.score, cappedBy: r.cappedBy }).toEqual({ score: cap, cappedBy: "wind" });
  });

  it("applies no wind cap just under 25 kt", () => {
    const r = scoreConditions(CLEAR, FLAT, 24.99);
    expect(r.cappedBy).toBeNull();
    expect(r.score).toBeGreaterThan(35);
  });

  it("names no cap when the score only reaches a cap without being lowered by it", () => {
    // 4 ft (4 points) + 6 ft of swell (6 points) + 24 kt of wind (2.8 points) = 12.8 → 13, which is
    // the 4 ft cap (5 + 10 × 4/5 = 13); at 23 kt the sum is 14 and the cap lowers it.
    const r = scoreConditions(4, 6, 24);
    expect(r).toMatchObject({ score: 13, uncapped: 13, cappedBy: null });
    expect(scoreConditions(4, 6, 23)).toMatchObject({ score: 13, uncapped: 14, cappedBy: "visibility" });
  });

  it("counts wind straight offshore at 70 % and straight onshore at 100 % (docs/model.md)", () => {
    expect(effectiveWindKt(20, 0)).toBeCloseTo(14, 9);
    expect(effectiveWindKt(20, 0.5)).toBeCloseTo(17, 9);
    expect(effectiveWindKt(20, 1)).toBeCloseTo(20, 9);
    // So 30 kt offshore (21 effective) escapes both wind caps that 30 kt onshore meets.
    expect(scoreConditions(CLEAR, FLAT, effectiveWindKt(30, 0)).cappedBy).toBeNull();
    expect(scoreConditions(CLEAR, FLAT, effectiveWindKt(30, 1))).toMatchObject({ score: 15, cappedBy: "wind" });
  });

  it("reports the points each part lost against its maximum (visibility 45, swell 35, wind 20)", () => {
    expect(scoreConditions(CLEAR, FLAT, CALM).lost).toEqual({ visibility: 0, swell: 0, wind: 0 });
    const r = scoreConditions(10, 5, 18);
    expect(r.lost.visibility).toBeCloseTo(45 - r.points.visibility, 9);
    expect(r.lost.swell).toBeCloseTo(35 - r.points.swell, 9);
    expect(r.lost.wind).toBeCloseTo(20 - r.points.wind, 9);
    expect(r.lost.visibility + r.lost.swell + r.lost.wind).toBeCloseTo(100 - (r.points.visibility + r.points.swell + r.points.wind), 9);
    for (const part of ["visibility", "swell", "wind"] as const) expect(r.lost[part], part).toBeGreaterThan(0);
  });

  it("lets the lowest cap win when several apply", () => {
    expect(scoreConditions(19.99, 8, CALM)).toMatchObject({ score: 10, cappedBy: "swell" });
    expect(scoreConditions(29.99, 6, 30)).toMatchObject({ score: 15, cappedBy: "wind" });
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
