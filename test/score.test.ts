import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scoreConditions, VISIBILITY_CAPS, visibilityCap } from "../src/forecast/score.js";
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
    for (const cap of VISIBILITY_CAPS) {
      const justBelow = scoreConditions(cap.below - 0.01, 0, 0);
      expect(justBelow.score).toBeLessThanOrEqual(cap.max);
    }
    const murkyButFlat = scoreConditions(8, 0, 0);
    expect(murkyButFlat.cappedBy).toBe("visibility");
    expect(ratingFor(murkyButFlat.score)).toBe("fair");
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
