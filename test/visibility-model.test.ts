// The visibility model's numbers as docs/model.md states them, worked by hand here rather than read
// from the code: the factor for swell, wind, rain, tide and light, the satellite blend and its
// fading weight, the optics from Kd490, the rain memory, the confidence, the piecewise curves and
// the wave physics (linear theory: u_b = πH / (T·sinh kh)).
import { describe, expect, it } from "vitest";
import { at } from "../src/model/curve.js";
import { horizontalVisibilityM, kdParFromKd490, secchiDepthM } from "../src/model/optics.js";
import { exposureWeight, orbitalVelocity, surgeEquivalentM, swellAtSpot, waveNumber } from "../src/model/swell.js";
import { estimateVisibility, evidenceFactor, rainIndexAt, satelliteWeight, SATELLITE_MAX_AGE_H, visibilityConfidence, type VisibilityInputs } from "../src/model/visibility.js";

const calm: VisibilityInputs = {
  clarityFt: 80,
  bottom: "sand",
  depthM: 8,
  runoff: 0.5,
  swellHeightM: 0,
  swellPeriodS: 10,
  windKt: 5,
  windOnshore: 1,
  rainIndexMm: 0,
  // A month whose normal conditions are calm: every factor of F is 1 under them, so each factor of
  // the response reads as the physics alone.
  normal: { swellHeightM: 0, swellPeriodS: 10, windKt: 5, windOnshore: 1, rainIndexMm: 0 },
  tideState: null,
  sunAltitudeDeg: 30,
  satellite: null,
};
const est = (over: Partial<VisibilityInputs>) => estimateVisibility({ ...calm, ...over })!;

describe("the factors", () => {
  it("keeps the calm-day clarity when nothing acts on it", () => {
    expect(est({})).toMatchObject({ ft: 80, source: "heuristic", baselineFt: 80, factors: { swell: 1, wind: 1, rain: 1, response: 1, tide: 1, light: 1 }, orbitalMs: 0 });
  });

  it("wind: 8 % lost at 15 kt, 18 % at 20 kt, 45 % from 40 kt straight onshore; offshore wind does 40 % of that", () => {
    expect(est({ windKt: 10 }).factors.wind).toBe(1);
    expect(est({ windKt: 15 }).factors.wind).toBeCloseTo(0.92, 10);
    expect(est({ windKt: 20 }).factors.wind).toBeCloseTo(0.82, 10);
    expect(est({ windKt: 22.5 }).factors.wind).toBeCloseTo(1 - 0.23, 10);
    expect(est({ windKt: 50 }).factors.wind).toBeCloseTo(0.55, 10);
    expect(est({ windKt: 20, windOnshore: 0 }).factors.wind).toBeCloseTo(1 - 0.18 * 0.4, 10);
    expect(est({ windKt: 20, windOnshore: 0.5 }).factors.wind).toBeCloseTo(1 - 0.18 * 0.7, 10);
    expect(est({ windKt: 20 }).ft).toBeCloseTo(80 * 0.82, 10);
  });

  it("rain: a spot with runoff 1 loses half its visibility at 20 mm of decayed rain", () => {
    expect(est({ runoff: 1, rainIndexMm: 20 }).factors.rain).toBeCloseTo(0.5, 10);
    expect(est({ runoff: 0.5, rainIndexMm: 20 }).factors.rain).toBeCloseTo(1 / 1.5, 10);
    expect(est({ rainIndexMm: null }).factors.rain).toBe(1);
  });

  it("tide: rising or high water nudges up, falling or low down, by 6 % × (0.3 + 0.7 × runoff)", () => {
    const nudge = 0.06 * (0.3 + 0.7 * 0.5);
    expect(est({ tideState: "rising" }).factors.tide).toBeCloseTo(1 + nudge, 10);
    expect(est({ tideState: "high" }).factors.tide).toBeCloseTo(1 + nudge, 10);
    expect(est({ tideState: "falling" }).factors.tide).toBeCloseTo(1 - nudge, 10);
    expect(est({ tideState: "low" }).factors.tide).toBeCloseTo(1 - nudge, 10);
    expect(est({ tideState: "rising", runoff: 0 }).factors.tide).toBeCloseTo(1.018, 10);
  });

  it("light: 0.6 after dark (sun 6° below the horizon), 0.85 at sunset, full from 20° up", () => {
    expect(est({ sunAltitudeDeg: -20 }).factors.light).toBe(0.6);
    expect(est({ sunAltitudeDeg: -3 }).factors.light).toBeCloseTo(0.725, 10);
    expect(est({ sunAltitudeDeg: 0 }).factors.light).toBe(0.85);
    expect(est({ sunAltitudeDeg: 10 }).factors.light).toBeCloseTo(0.925, 10);
    expect(est({ sunAltitudeDeg: 45 }).factors.light).toBe(1);
  });

  it("swell: stirs the bottom only above its threshold (sand 0.12 m/s, reef 0.25), down to 0.2 at 1 m/s over it", () => {
    // 0.7 m of 10 s swell in 8 m of water: kh ≈ 0.59, so u_b = π·0.7 / (10·sinh 0.59) ≈ 0.35 m/s at the bed.
    const e = est({ swellHeightM: 0.7 });
    expect(e.orbitalMs).toBeCloseTo(0.352, 3);
    const u = e.orbitalMs;
    // Sand (0.12): excess ≈ 0.23, between 0.2 (0.63) and 0.4 (0.43) on the curve.
    expect(e.factors.swell).toBeCloseTo(0.63 + ((0.43 - 0.63) * (u - 0.12 - 0.2)) / 0.2, 10);
    // Reef (0.25): excess ≈ 0.10, between 0.1 (0.8) and 0.2 (0.63).
    expect(est({ swellHeightM: 0.7, bottom: "reef" }).factors.swell).toBeCloseTo(0.8 + ((0.63 - 0.8) * (u - 0.25 - 0.1)) / 0.1, 10);
    // Rock (0.28): excess ≈ 0.07, between 0 (1) and 0.1 (0.8); kelp (0.22) and mixed (0.18) in turn.
    expect(est({ swellHeightM: 0.7, bottom: "rock" }).factors.swell).toBeCloseTo(1 - (0.2 * (u - 0.28)) / 0.1, 10);
    expect(est({ swellHeightM: 0.7, bottom: "kelp" }).factors.swell).toBeCloseTo(0.8 + ((0.63 - 0.8) * (u - 0.22 - 0.1)) / 0.1, 10);
    expect(est({ swellHeightM: 0.7, bottom: "mixed" }).factors.swell).toBeCloseTo(0.8 + ((0.63 - 0.8) * (u - 0.18 - 0.1)) / 0.1, 10);
    expect(est({ swellHeightM: 1.5 }).factors.swell).toBeCloseTo(0.43 + ((0.29 - 0.43) * (est({ swellHeightM: 1.5 }).orbitalMs - 0.12 - 0.4)) / 0.3, 10);
    expect(est({ swellHeightM: 0.1, bottom: "rock" }).factors.swell).toBe(1);
    expect(est({ swellHeightM: 8, swellPeriodS: 16, depthM: 3 }).factors.swell).toBe(0.2);
  });

  it("never reads less than 1 ft, and refuses to guess without swell or wind", () => {
    expect(est({ clarityFt: 2, windKt: 45, sunAltitudeDeg: -30, rainIndexMm: 200, runoff: 1, swellHeightM: 4 }).ft).toBe(1);
    expect(estimateVisibility({ ...calm, swellHeightM: null })).toBeNull();
    expect(estimateVisibility({ ...calm, swellPeriodS: null })).toBeNull();
    expect(estimateVisibility({ ...calm, windKt: null })).toBeNull();
  });
});

describe("level and response", () => {
  // A winter month whose normal is 1.4 m of 14 s swell onshore at 15 kt with some rain: what a typical
  // published figure for the month already holds.
  const winter = { swellHeightM: 1.4, swellPeriodS: 14, windKt: 15, windOnshore: 1, rainIndexMm: 5 };
  const atNormal = { ...calm, ...winter, normal: winter, bottom: "reef" as const, depthM: 6 };

  it("gives the typical level exactly under the month's normal conditions, however rough they are", () => {
    const e = estimateVisibility(atNormal)!;
    expect(e.factors).toMatchObject({ swell: 1, wind: 1, rain: 1, response: 1 });
    expect(e.ft).toBe(80);
    // Tide and light still act on the level (they are not in F).
    expect(estimateVisibility({ ...atNormal, sunAltitudeDeg: 0 })!.ft).toBeCloseTo(80 * 0.85, 10);
  });

  it("lowers the level by the period's departure from normal: each factor over the normal's", () => {
    const stormy = estimateVisibility({ ...atNormal, swellHeightM: 2.5, windKt: 25 })!;
    const swellNow = estimateVisibility({ ...atNormal, swellHeightM: 2.5, normal: { ...winter, swellHeightM: 0 } })!.factors.swell;
    const swellNormal = estimateVisibility({ ...atNormal, normal: { ...winter, swellHeightM: 0 } })!.factors.swell;
    expect(stormy.factors.swell).toBeCloseTo(swellNow / swellNormal, 10);
    expect(stormy.factors.wind).toBeCloseTo((1 - 0.28) / (1 - 0.08), 10);
    expect(stormy.ft).toBeCloseTo(80 * stormy.factors.swell * stormy.factors.wind, 10);
    expect(stormy.ft).toBeLessThan(80);
  });

  it("raises it on a calmer, drier period than normal, at most to 1.5 times the level", () => {
    const calmer = estimateVisibility({ ...atNormal, swellHeightM: 1.3, windKt: 14 })!;
    expect(calmer.factors.response).toBeLessThan(1.5);
    expect(calmer.ft).toBeGreaterThan(80);
    expect(calmer.ft).toBeCloseTo(80 * calmer.factors.swell * calmer.factors.wind * calmer.factors.rain, 10);
    const glassy = estimateVisibility({ ...atNormal, swellHeightM: 0, windKt: 0, rainIndexMm: 0 })!;
    expect(glassy.factors.swell * glassy.factors.wind * glassy.factors.rain).toBeGreaterThan(1.5);
    expect(glassy.factors.response).toBe(1.5);
    expect(glassy.ft).toBe(120);
  });

  it("leaves the level unmoved when the normal conditions are unknown", () => {
    expect(estimateVisibility({ ...atNormal, swellHeightM: 3, normal: null })!.ft).toBe(80);
    expect(estimateVisibility({ ...atNormal, swellHeightM: 3, normal: { ...winter, windKt: null } })!.ft).toBe(80);
  });
});

describe("the satellite blend", () => {
  it("weighs a fresh observation 0.8 against the seasonal clarity, fading with an 8-day e-folding age", () => {
    const fresh = est({ satellite: { visibilityM: 30, ageH: 0 } });
    expect(fresh.source).toBe("satellite");
    expect(fresh.baselineFt).toBeCloseTo(0.8 * (30 / 0.3048) + 0.2 * 80, 10);
    const week = est({ satellite: { visibilityM: 30, ageH: 192 } });
    const w = 0.8 * Math.exp(-1);
    expect(week.baselineFt).toBeCloseTo(w * (30 / 0.3048) + (1 - w) * 80, 10);
    expect(satelliteWeight(-5)).toBe(0.8);
    expect(satelliteWeight(192)).toBeCloseTo(w, 12);
    expect(SATELLITE_MAX_AGE_H).toBeCloseTo(192 * Math.log(0.8 / 0.15), 10);
    expect(satelliteWeight(SATELLITE_MAX_AGE_H)).toBeCloseTo(0.15, 12);
  });

  it("states confidence as the inputs' weight (0.6 + 0.3 × the satellite's relative weight, 0.6 heuristic, 0.35 on norms) times the level's evidence", () => {
    const BEST = { publishers: 3, estimated: false, rangeRatio: 1.5 };
    expect(evidenceFactor(BEST)).toBe(1);
    expect(visibilityConfidence("satellite", false, 0, BEST)).toBeCloseTo(0.9, 12);
    expect(visibilityConfidence("satellite", true, 192, BEST)).toBeCloseTo(0.6 + 0.3 * Math.exp(-1), 12);
    expect(visibilityConfidence("satellite", false, null, BEST)).toBe(0.6);
    expect(visibilityConfidence("heuristic", false, 10, BEST)).toBe(0.6);
    expect(visibilityConfidence("heuristic", true, null, BEST)).toBe(0.35);
    // Evidence: one source 0.8, two 0.9, three or more 1; an estimated level 0.55; a range ×2 wide 0.92, ×3 0.8, ×4 0.7.
    expect(evidenceFactor({ ...BEST, publishers: 1 })).toBe(0.8);
    expect(evidenceFactor({ ...BEST, publishers: 2 })).toBe(0.9);
    expect(evidenceFactor({ publishers: 0, estimated: true, rangeRatio: 1.5 })).toBe(0.55);
    expect(evidenceFactor({ ...BEST, rangeRatio: 2 })).toBeCloseTo(0.92, 12);
    expect(evidenceFactor({ ...BEST, rangeRatio: 3 })).toBeCloseTo(0.8, 12);
    expect(evidenceFactor({ ...BEST, rangeRatio: 6 })).toBeCloseTo(0.7, 12);
    expect(visibilityConfidence("heuristic", true, null, { publishers: 1, estimated: false, rangeRatio: 3 })).toBeCloseTo(0.35 * 0.8 * 0.8, 12);
  });
});

describe("optics from Kd490 (Morel 2007, Davies-Colley 1988)", () => {
  it("converts Kd490 to Kd(PAR), Secchi depth 1.7 / Kd(PAR) and sighting range 4.8 / (3 Kd(PAR)), capped at 40 m", () => {
    const kd = 0.0864 + 0.884 * 0.05 - 0.00137 / 0.05;
    expect(kdParFromKd490(0.05)).toBeCloseTo(kd, 12);
    expect(secchiDepthM(0.05)).toBeCloseTo(1.7 / kd, 12);
    expect(horizontalVisibilityM(0.05)).toBeCloseTo(4.8 / (3 * kd), 12);
    expect(horizontalVisibilityM(0.001)).toBe(40);
    expect(kdParFromKd490(0.001)).toBeCloseTo(0.0864 + 0.884 * 0.0166 - 0.00137 / 0.0166, 12);
    expect(kdParFromKd490(10)).toBeCloseTo(0.0864 + 0.884 * 6 - 0.00137 / 6, 12);
  });
});

describe("rain memory", () => {
  it("sums the last 72 hours of rain, each hour decayed by e^(-age/36 h), skipping unknown hours", () => {
    const rain = new Float64Array(100).fill(0);
    rain[99] = 10;
    rain[63] = 10; // 36 h old
    rain[28] = 50; // 71 h old: still remembered
    rain[27] = 500; // 72 h old: forgotten
    rain[98] = Number.NaN;
    expect(rainIndexAt(rain, 99)).toBeCloseTo(10 + 10 * Math.exp(-1) + 50 * Math.exp(-71 / 36), 10);
    expect(rainIndexAt(rain, 5)).toBe(0);
    expect(rainIndexAt(new Float64Array(10).fill(Number.NaN), 9)).toBeNull();
    const head = new Float64Array(3).fill(Number.NaN);
    head[0] = 4;
    expect(rainIndexAt(head, 2)).toBeCloseTo(4 * Math.exp(-2 / 36), 12);
  });
});

describe("curves and waves", () => {
  it("interpolates a curve linearly and clamps it at both ends", () => {
    const c = [
      [0, 1],
      [10, 0.5],
      [20, 0.3],
    ] as const;
    expect([at(c, -5), at(c, 0), at(c, 5), at(c, 10), at(c, 15), at(c, 20), at(c, 99)]).toEqual([1, 1, 0.75, 0.5, 0.4, 0.3, 0.3]);
  });

  it("follows linear wave theory: deep-water wavelength gT²/2π, and no orbital velocity without a wave", () => {
    // Deep water (h ≫ L/2): k = 2π / (gT²/2π).
    expect(waveNumber(8, 500)).toBeCloseTo((2 * Math.PI) / ((9.81 * 64) / (2 * Math.PI)), 6);
    // Shallow water: L ≈ T·sqrt(gh).
    expect((2 * Math.PI) / waveNumber(12, 1)).toBeCloseTo(12 * Math.sqrt(9.81 * 1), 0);
    const kh = waveNumber(10, 8) * 8;
    expect(orbitalVelocity(1, 10, 8)).toBeCloseTo(Math.PI / (10 * Math.sinh(kh)), 12);
    expect(orbitalVelocity(0, 10, 8)).toBe(0);
    expect(orbitalVelocity(1, 0, 8)).toBe(0);
  });

  it("weights swell by exposure: 1 within 22.5° of an open octant, 0.1 from 67.5°, linear between", () => {
    expect([exposureWeight(200, ["S"]), exposureWeight(202.5, ["S"]), exposureWeight(225, ["S"]), exposureWeight(247.5, ["S"]), exposureWeight(0, ["S"])]).toEqual([1, 1, 0.55, 0.1, 0.1]);
    expect(exposureWeight(10, ["S", "N"])).toBe(1);
  });

  it("adds swell trains by energy, keeps the biggest train's period and direction, and skips broken ones", () => {
    const s = swellAtSpot(
      [
        { heightM: 1, periodS: 14, fromDeg: 180 },
        { heightM: 2, periodS: 7, fromDeg: 225 },
        { heightM: Number.NaN, periodS: 9, fromDeg: 180 },
        { heightM: 3, periodS: 0, fromDeg: 180 },
        { heightM: 3, periodS: 9, fromDeg: Number.NaN },
      ],
      ["S"],
      0.5,
    )!;
    // 0.5 × (1 × 1) and 0.5 × (2 × 0.55): 0.5 m and 0.55 m.
    expect(s.heightM).toBeCloseTo(Math.sqrt(0.5 ** 2 + 0.55 ** 2), 12);
    expect(s).toMatchObject({ periodS: 7, fromDeg: 225 });
    expect(swellAtSpot([], ["S"])).toBeNull();
    expect(swellAtSpot([{ heightM: 0, periodS: 8, fromDeg: 0 }], ["S"])).toEqual({ heightM: 0, periodS: 8, fromDeg: 0 });
  });

  it("feels long-period swell harder: height × sqrt(T / 10), between 0.8 and 1.4 times", () => {
    expect(surgeEquivalentM(2, 10)).toBe(2);
    expect(surgeEquivalentM(2, 14.4)).toBeCloseTo(2 * 1.2, 12);
    expect(surgeEquivalentM(2, 30)).toBeCloseTo(2.8, 12);
    expect(surgeEquivalentM(2, 4)).toBeCloseTo(1.6, 12);
  });
});
