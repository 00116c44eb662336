import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { capOf, RUBRIC_CAPS, scoreConditions, VISIBILITY_CAP, visibilityCap, type ScoreInputs } from "../src/model/score.js";
import { ratingFor, TIERS } from "../src/model/tiers.js";

const vis = fc.double({ min: 0, max: 150, noNaN: true });
const swell = fc.double({ min: 0, max: 20, noNaN: true });
const wind = fc.double({ min: 0, max: 50, noNaN: true });
const onshore = fc.double({ min: 0, max: 1, noNaN: true });
const dark = fc.boolean();
const score = (visFt: number, swellFt: number, windKt: number, over: Partial<ScoreInputs> = {}) => scoreConditions({ visFt, swellFt, windKt, gustKt: null, onshore: 1, dark: false, ...over });

describe("condition score", () => {
  it("is an integer from 0 to 100", () => {
    fc.assert(
      fc.property(vis, swell, wind, wind, onshore, dark, (v, s, w, g, o, d) => {
        const { score: x } = scoreConditions({ visFt: v, swellFt: s, windKt: w, gustKt: g, onshore: o, dark: d });
        return Number.isInteger(x) && x >= 0 && x <= 100;
      }),
      { numRuns: 3000 },
    );
  });

  it("never drops when visibility rises", () => {
    fc.assert(
      fc.property(vis, vis, swell, wind, onshore, dark, (a, b, s, w, o, d) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        return score(hi, s, w, { onshore: o, dark: d }).score >= score(lo, s, w, { onshore: o, dark: d }).score;
      }),
      { numRuns: 3000 },
    );
  });

  it("never rises when swell, wind or gust grows, or when the window is dark", () => {
    fc.assert(
      fc.property(vis, swell, swell, wind, wind, wind, onshore, (v, s1, s2, w1, w2, g, o) => {
        const [sLo, sHi] = s1 <= s2 ? [s1, s2] : [s2, s1];
        const [wLo, wHi] = w1 <= w2 ? [w1, w2] : [w2, w1];
        const at = (s: number, w: number, gust: number | null, d = false) => score(v, s, w, { gustKt: gust, onshore: o, dark: d }).score;
        return at(sHi, w1, g) <= at(sLo, w1, g) && at(s1, wHi, g) <= at(s1, wLo, g) && at(s1, w1, Math.max(g, wHi)) <= at(s1, w1, g) && at(s1, w1, g, true) <= at(s1, w1, g);
      }),
      { numRuns: 3000 },
    );
  });

  it("is capped by visibility however calm the rest is", () => {
    fc.assert(
      fc.property(vis, swell, wind, (v, s, w) => score(v, s, w).score <= visibilityCap(v)),
      { numRuns: 3000 },
    );
    for (const [ft, max] of VISIBILITY_CAP) expect(score(ft, 0, 0).score).toBeLessThanOrEqual(max);
    expect(ratingFor(score(39.9, 0, 0).score)).toBe("great");
    expect(ratingFor(score(40, 0, 0).score)).toBe("excellent");
    const murkyButFlat = score(8, 0, 0);
    expect(murkyButFlat.cappedBy).toBe("visibility");
    expect(ratingFor(murkyButFlat.score)).toBe("fair");
  });

  it("has no cliffs: the cap rises by at most a point per tenth of a foot, and never falls", () => {
    for (let v = 0; v < 60; v += 0.1) {
      const step = visibilityCap(v + 0.1) - visibilityCap(v);
      expect(step).toBeGreaterThanOrEqual(0);
      expect(step).toBeLessThanOrEqual(1);
    }
    // camp-cove's 10 ft either side of a rounding boundary: the same tier, two points apart at most.
    const [a, b] = [score(9.6, 0.5, 8).score, score(10.2, 0.5, 8).score];
    expect(Math.abs(a - b)).toBeLessThanOrEqual(2);
    expect(ratingFor(a)).toBe(ratingFor(b));
  });

  it("rates a clear calm day excellent and a big swell day poorly", () => {
    expect(ratingFor(score(90, 0.5, 5).score)).toBe("excellent");
    expect(score(60, 9, 8).score).toBeLessThanOrEqual(10);
    expect(score(60, 9, 8).cappedBy).toBe("swell");
  });
});

describe("the rubric (docs/model.md, generated from RUBRIC_CAPS)", () => {
  // The thresholds the issue set and the sources give, stated here rather than read from the table.
  it("never rates 17 kt sustained or 25 kt gusts excellent, nor 28 kt gusts great or excellent, whatever else", () => {
    fc.assert(
      fc.property(vis, fc.double({ min: 17, max: 60, noNaN: true }), onshore, (v, w, o) => score(v, 0, w, { onshore: o }).score < 80),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(vis, wind, fc.double({ min: 25, max: 60, noNaN: true }), onshore, (v, w, g, o) => score(v, 0, w, { gustKt: g, onshore: o }).score < 80),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(vis, wind, fc.double({ min: 28, max: 60, noNaN: true }), onshore, (v, w, g, o) => score(v, 0, w, { gustKt: g, onshore: o }).score < 60),
      { numRuns: 2000 },
    );
    // Offshore wind is not let off: the Scapa Flow case, 17 kt gusting 25 blowing off the land.
    const scapa = score(90, 0.5, 17, { gustKt: 25, onshore: 0 });
    expect(ratingFor(scapa.score)).toBe("good");
    expect(scapa.cappedBy).toBe("wind");
  });

  it("never rates a period wholly in darkness great or excellent", () => {
    fc.assert(
      fc.property(vis, swell, wind, (v, s, w) => score(v, s, w, { dark: true }).score < 60),
      { numRuns: 2000 },
    );
    const night = score(90, 0.5, 5, { dark: true });
    expect(night).toMatchObject({ score: 59, cappedBy: "light" });
  });

  it("keeps each input's caps monotonic: a higher threshold never allows a higher score", () => {
    for (const input of ["swell", "wind", "gust"] as const) {
      const rules = RUBRIC_CAPS.filter((c) => c.input === input).sort((a, b) => a.atLeast - b.atLeast);
      for (let i = 1; i < rules.length; i++) expect(rules[i]!.max, `${input} ${rules[i]!.atLeast}`).toBeLessThan(rules[i - 1]!.max);
    }
    expect([capOf("wind", 10.9), capOf("wind", 11), capOf("wind", 17), capOf("wind", 22), capOf("wind", 28)]).toEqual([100, 79, 59, 39, 19]);
    expect([capOf("gust", 24.9), capOf("gust", 25), capOf("gust", 28), capOf("gust", 34), capOf("gust", 41)]).toEqual([100, 79, 59, 39, 19]);
  });

  it("rests every cap on at least one published source, with what it says", () => {
    for (const c of RUBRIC_CAPS) {
      expect(c.sources.length, `${c.input} ${c.atLeast}`).toBeGreaterThan(0);
      for (const s of c.sources) {
        expect(s.url).toMatch(/^https?:\/\//);
        expect(s.says.length).toBeGreaterThan(20);
      }
    }
  });

  it("counts gusts in the points too: a gust beyond the mean's usual gust costs points", () => {
    expect(score(90, 0.5, 8, { gustKt: 20 }).score).toBeLessThan(score(90, 0.5, 8, { gustKt: 11 }).score);
    expect(score(90, 0.5, 8, { gustKt: 11 }).score).toBe(score(90, 0.5, 8).score);
  });
});

describe("tiers", () => {
  it.each([
    [100, "excellent"],
    [80, "excellent"],
    [79, "great"],
    [60, "great"],
    [59, "good"],
    [40, "good"],
    [39, "fair"],
    [20, "fair"],
    [19, "no-go"],
    [0, "no-go"],
  ])("%s → %s", (s, r) => expect(ratingFor(s)).toBe(r));
  it("carries the spec's colours", () => {
    expect(Object.fromEntries(TIERS.map((t) => [t.id, t.color]))).toEqual({
      excellent: "#09A1FB",
      great: "#27D667",
      good: "#FFD321",
      fair: "#FF9D25",
      "no-go": "#F73726",
    });
  });
});
