import { describe, expect, it } from "vitest";
import { SWELL_POINTS, VISIBILITY_CAP, VISIBILITY_POINTS, WIND_POINTS } from "../src/model/score.js";
import { HORIZONTAL_VISIBILITY_MAX_M, horizontalVisibilityM, KD490_MIN, kdParFromKd490, secchiDepthM } from "../src/model/optics.js";
import { exposureWeight, orbitalVelocity, SHELTERED_WEIGHT, swellAtSpot } from "../src/model/swell.js";
import {
  estimateVisibility,
  LIGHT_FACTOR,
  SATELLITE_MAX_AGE_H,
  SATELLITE_MIN_WEIGHT,
  satelliteWeight,
  SWELL_FACTOR,
  visibilityConfidence,
  WIND_PENALTY,
  type VisibilityInputs,
} from "../src/model/visibility.js";

describe("optics: Kd490 → Secchi depth (Morel 2007 Kd(PAR), Z_SD = 1.7/Kd(PAR))", () => {
  // Reference values computed in the research notes for the same formulas.
  it.each([
    [0.02, 0.036, 48],
    [0.03, 0.067, 25],
    [0.05, 0.103, 16],
    [0.08, 0.14, 12],
    [0.12, 0.181, 9],
    [0.2, 0.256, 7],
    [0.35, 0.392, 4],
    [0.6, 0.615, 2.8],
  ])("Kd490 %s → Kd(PAR) %s, Secchi ≈ %s m", (kd, kdPar, zsd) => {
    expect(kdParFromKd490(kd)).toBeCloseTo(kdPar, 2);
    expect(Math.abs(secchiDepthM(kd) - zsd)).toBeLessThan(0.7);
  });
  it("gets clearer as attenuation falls", () => {
    expect(horizontalVisibilityM(0.03)).toBeGreaterThan(horizontalVisibilityM(0.08));
  });
  it("sees horizontally 4.8/c with c = 3·Kd(PAR): a little short of Secchi, never past the cap", () => {
    // Davies-Colley 1988 / Hou, Lee & Weidemann 2007: the horizontal path sees beam attenuation.
    expect(horizontalVisibilityM(0.08)).toBeCloseTo(4.8 / (3 * kdParFromKd490(0.08)), 6);
    expect(horizontalVisibilityM(0.08)).toBeLessThan(secchiDepthM(0.08));
    expect(horizontalVisibilityM(0.05)).toBeGreaterThan(14);
    // At the pure-water floor 1.0 × Secchi said 91 m; the cap holds it to the clearest water divers see.
    expect(horizontalVisibilityM(KD490_MIN)).toBe(HORIZONTAL_VISIBILITY_MAX_M);
    expect(horizontalVisibilityM(0.001)).toBe(HORIZONTAL_VISIBILITY_MAX_M);
  });
});

describe("satellite Kd490 as a recent-clarity baseline", () => {
  it.each([
    [7, true],
    [11, true],
    [13, true],
    [14, false],
  ])("an observation %s days old at the period shapes the number: %s", (days, used) => {
    expect(days * 24 <= SATELLITE_MAX_AGE_H).toBe(used);
    expect(satelliteWeight(days * 24) >= SATELLITE_MIN_WEIGHT).toBe(used);
  });
  const EVIDENCE = { publishers: 3, estimated: false, rangeRatio: 1.5 };
  it("weighs a week-old observation more than an 11-day-old one, and both above a heuristic's confidence", () => {
    expect(satelliteWeight(7 * 24)).toBeGreaterThan(satelliteWeight(11 * 24));
    expect(visibilityConfidence("satellite", false, 11 * 24, EVIDENCE)).toBeGreaterThan(visibilityConfidence("heuristic", false, null, EVIDENCE));
    expect(visibilityConfidence("satellite", false, 7 * 24, EVIDENCE)).toBeGreaterThan(visibilityConfidence("satellite", false, 11 * 24, EVIDENCE));
  });
});

describe("swell physics", () => {
  // Linear wave theory values from the research notes.
  it.each([
    [1, 6, 10, 0.31],
    [1, 6, 20, 0.11],
    [1, 14, 10, 0.46],
    [1, 14, 20, 0.3],
    [2, 15, 10, 0.93],
  ])("H=%s m T=%s s depth %s m → near-bed velocity ≈ %s m/s", (h, t, d, ub) => {
    expect(orbitalVelocity(h, t, d)).toBeCloseTo(ub, 1);
  });

  it("weights swell by the spot's exposure", () => {
    expect(exposureWeight(180, ["S", "SW"])).toBe(1);
    expect(exposureWeight(200, ["S"])).toBe(1);
    expect(exposureWeight(0, ["S", "SW"])).toBe(SHELTERED_WEIGHT);
    const between = exposureWeight(225 + 45, ["S", "SW"]);
    expect(between).toBeGreaterThan(SHELTERED_WEIGHT);
    expect(between).toBeLessThan(1);
  });

  it("adds swell trains by energy at the spot and keeps the dominant one's period and direction", () => {
    const s = swellAtSpot(
      [
        { heightM: 2, periodS: 14, fromDeg: 315 },
        { heightM: 0.6, periodS: 13, fromDeg: 190 },
      ],
      ["S", "SE"],
    )!;
    expect(s.fromDeg).toBe(190);
    expect(s.periodS).toBe(13);
    expect(s.heightM).toBeCloseTo(Math.sqrt(0.6 ** 2 + (2 * SHELTERED_WEIGHT) ** 2), 6);
    expect(swellAtSpot([], ["S"])).toBeNull();
  });

  it("gives a tie at the spot to the train listed first (the primary swell)", () => {
    const s = swellAtSpot(
      [
        { heightM: 1, periodS: 9, fromDeg: 180 },
        { heightM: 1, periodS: 15, fromDeg: 190 },
      ],
      ["S"],
    )!;
    expect(s.periodS).toBe(9);
    expect(s.fromDeg).toBe(180);
  });
});

describe("heuristic visibility", () => {
  const calm: VisibilityInputs = {
    clarityFt: 80,
    bottom: "sand",
    depthM: 6,
    runoff: 0.5,
    swellHeightM: 0.2,
    swellPeriodS: 8,
    windKt: 5,
    windOnshore: 1,
    rainIndexMm: 0,
    // A calm normal month: the response then reads as the physics alone.
    normal: { swellHeightM: 0.2, swellPeriodS: 8, windKt: 5, windOnshore: 1, rainIndexMm: 0 },
    tideState: null,
    sunAltitudeDeg: 45,
    satellite: null,
  };
  it("keeps the calm-day clarity in calm, dry daylight", () => {
    expect(estimateVisibility(calm)!.ft).toBeCloseTo(80, 0);
  });
  it("loses visibility to swell, onshore wind, rain and darkness", () => {
    const base = estimateVisibility(calm)!.ft;
    expect(estimateVisibility({ ...calm, swellHeightM: 2, swellPeriodS: 14 })!.ft).toBeLessThan(base * 0.5);
    expect(estimateVisibility({ ...calm, windKt: 25 })!.ft).toBeLessThan(base);
    expect(estimateVisibility({ ...calm, windKt: 25, windOnshore: 0 })!.ft).toBeGreaterThan(estimateVisibility({ ...calm, windKt: 25 })!.ft);
    expect(estimateVisibility({ ...calm, rainIndexMm: 30 })!.ft).toBeLessThan(base * 0.7);
    expect(estimateVisibility({ ...calm, sunAltitudeDeg: -20 })!.ft).toBeCloseTo(base * 0.6, 0);
  });
  it("anchors on a young satellite observation and says so", () => {
    const v = estimateVisibility({ ...calm, satellite: { visibilityM: 10, ageH: 0 } })!;
    expect(v.source).toBe("satellite");
    expect(v.ft).toBeLessThan(50);
    const old = estimateVisibility({ ...calm, satellite: { visibilityM: 10, ageH: 240 } })!;
    expect(old.ft).toBeGreaterThan(v.ft);
  });
  it("refuses to guess without swell or wind", () => {
    expect(estimateVisibility({ ...calm, swellHeightM: null })).toBeNull();
    expect(estimateVisibility({ ...calm, windKt: null })).toBeNull();
  });
});

describe("spot shelter", () => {
  it("scales every swell train by the spot's swell_exposure", () => {
    const open = swellAtSpot([{ heightM: 2, periodS: 13, fromDeg: 300 }], ["NW"], 1)!;
    const sheltered = swellAtSpot([{ heightM: 2, periodS: 13, fromDeg: 300 }], ["NW"], 0.25)!;
    expect(sheltered.heightM).toBeCloseTo(open.heightM * 0.25, 6);
  });
});

describe("the model's tables", () => {
  // `at` (its interpolation and clamping: visibility-model.test.ts) relies on each table's x values
  // strictly increasing: an equal pair would divide by zero, a falling one would skip a segment.
  it.each([
    ["VISIBILITY_POINTS", VISIBILITY_POINTS],
    ["SWELL_POINTS", SWELL_POINTS],
    ["WIND_POINTS", WIND_POINTS],
    ["VISIBILITY_CAP", VISIBILITY_CAP],
    ["SWELL_FACTOR", SWELL_FACTOR],
    ["WIND_PENALTY", WIND_PENALTY],
    ["LIGHT_FACTOR", LIGHT_FACTOR],
  ] as const)("%s has at least two points, with strictly increasing x", (_name, curve) => {
    expect(curve.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < curve.length; i++) expect(curve[i]![0]).toBeGreaterThan(curve[i - 1]![0]);
  });
});
