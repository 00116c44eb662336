import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scoreConditions, VISIBILITY_CAP, visibilityCap } from "../src/forecast/score.js";
import { ratingFor, TIERS } from "../src/forecast/tiers.js";

const vis = fc.double({ min: 0, max: 150, noNaN: true });
const swell = fc.double({ min: 0, max: 20, noNaN: true });
const wind = fc.double({ min: 0, max: 50, noNaN: true });

describe("condition score", () => {
  it("is an integer from 0 to 100", () => {
    fc.assert(
      fc.property(vis, swell, wind, (v, s, w) => {
        const { score } = scoreConditions(v, s, w);
        return Number.isInteger(score) && score >= 0 && score <= 100;
      }),
      { numRuns: 3000 },
    );
  });

  it("never drops when visibility rises", () => {
    fc.assert(
      fc.property(vis, vis, swell, wind, (a, b, s, w) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        return scoreConditions(hi, s, w).score >= scoreConditions(lo, s, w).score;
      }),
      { numRuns: 3000 },
    );
  });

  it("never rises when swell or wind grows", () => {
    fc.assert(
      fc.property(vis, swell, swell, wind, wind, (v, s1, s2, w1, w2) => {
        const [sLo, sHi] = s1 <= s2 ? [s1, s2] : [s2, s1];
        const [wLo, wHi] = w1 <= w2 ? [w1, w2] : [w2, w1];
        return scoreConditions(v, sHi, w1).score <= scoreConditions(v, sLo, w1).score && scoreConditions(v, s1, wHi).score <= scoreConditions(v, s1, wLo).score;
      }),
      { numRuns: 3000 },
    );
  });

  it("is capped by visibility however calm the rest is", () => {
    fc.assert(
      fc.property(vis, swell, wind, (v, s, w) => scoreConditions(v, s, w).score <= visibilityCap(v)),
      { numRuns: 3000 },
    );
    for (const [ft, max] of VISIBILITY_CAP) expect(scoreConditions(ft, 0, 0).score).toBeLessThanOrEqual(max);
    expect(ratingFor(scoreConditions(39.9, 0, 0).score)).toBe("great");
    expect(ratingFor(scoreConditions(40, 0, 0).score)).toBe("excellent");
    const murkyButFlat = scoreConditions(8, 0, 0);
    expect(murkyButFlat.cappedBy).toBe("visibility");
    expect(ratingFor(murkyButFlat.score)).toBe("fair");
  });

  it("has no cliffs: the cap rises by at most a point per tenth of a foot, and never falls", () => {
    for (let v = 0; v < 60; v += 0.1) {
      const step = visibilityCap(v + 0.1) - visibilityCap(v);
      expect(step).toBeGreaterThanOrEqual(0);
      expect(step).toBeLessThanOrEqual(1);
    }
    // camp-cove's 10 ft either side of a rounding boundary: the same tier, two points apart at most
    // (it used to be fair 35 against good 55).
    const [a, b] = [scoreConditions(9.6, 0.5, 8).score, scoreConditions(10.2, 0.5, 8).score];
    expect(Math.abs(a - b)).toBeLessThanOrEqual(2);
    expect(ratingFor(a)).toBe(ratingFor(b));
  });

  it("rates a clear calm day excellent and a big swell day poorly", () => {
    expect(ratingFor(scoreConditions(90, 0.5, 5).score)).toBe("excellent");
    expect(scoreConditions(60, 9, 8).score).toBeLessThanOrEqual(10);
    expect(scoreConditions(60, 9, 8).cappedBy).toBe("swell");
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
