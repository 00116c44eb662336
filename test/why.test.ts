// The sentence a period's `why` says, branch by branch (src/model/why.ts): what caps or limits
// the score, the shared wind word, the seasonal-norm and after-dark openings, where the
// numbers come from, and the uncalibrated note; plus the season names (the wind words' edges are in
// wind-words.test.ts).
import { describe, expect, it } from "vitest";
import { SEASONAL_NORM_LABEL, isSeasonalTierLabel, seasonOf, tierLabelFor, typicalFor } from "../src/model/norms.js";
import type { ScoreBreakdown } from "../src/model/score.js";
import { UNRANKED_NOTES, explainRating, type WhyInputs } from "../src/model/why.js";

const breakdown = (over: Partial<ScoreBreakdown> & { lost?: ScoreBreakdown["lost"] }): ScoreBreakdown => {
  const lost = over.lost ?? { visibility: 0, swell: 0, wind: 0 };
  const points = { visibility: 40 - lost.visibility, swell: 30 - lost.swell, wind: 30 - lost.wind };
  const uncapped = points.visibility + points.swell + points.wind;
  return { score: uncapped, uncapped, points, lost, cappedBy: null, ...over };
};

const base: WhyInputs = {
  breakdown: breakdown({}),
  rating: "excellent",
  visFt: 62.4,
  swellFt: 1.26,
  swellFromDeg: 180,
  windKt: 2.6,
  gustKt: 3.4,
  windFromDeg: 90,
  windOnshore: false,
  night: false,
  sunrise: null,
  basis: "live",
  seasonal: false,
  date: "2026-11-21",
  unranked: null,
  satelliteAgeH: null,
  satelliteObservedAt: null,
};
const why = (over: Partial<WhyInputs>) => explainRating({ ...base, ...over });
const LIVE = "Visibility: the spot's typical level, moved by swell, wind and rain against the month's normal.";

describe("the lead sentence", () => {
  it("calls a day that lost at most 12 points (or any excellent day) clear, naming its visibility, swell and wind", () => {
    expect(why({ windKt: 0.4, gustKt: 0.5 })).toBe(`Clear, calm water: about 62 ft visibility, 1.3 ft swell and 0 kt gusting 1 kt wind. ${LIVE}`);
    // An excellent period is never "limited" by what it lost.
    expect(why({ breakdown: breakdown({ lost: { visibility: 7, swell: 3, wind: 10 } }), rating: "excellent", windKt: 9, gustKt: 12 })).toBe(
      `Clear water, gentle breeze: about 62 ft visibility, 1.3 ft swell and 9 kt gusting 12 kt wind. ${LIVE}`,
    );
    expect(why({ breakdown: breakdown({ cappedBy: "visibility", lost: { visibility: 7, swell: 0, wind: 0 } }), rating: "excellent" })).not.toMatch(/caps this/);
    expect(why({})).toBe(`Clear water, light air: about 62 ft visibility, 1.3 ft swell and 3 kt wind. ${LIVE}`);
    expect(why({ breakdown: breakdown({ lost: { visibility: 4, swell: 4, wind: 4 } }), windKt: 12, gustKt: 18 })).toBe(
      `Clear water, moderate breeze: about 62 ft visibility, 1.3 ft swell and 12 kt gusting 18 kt wind. ${LIVE}`,
    );
  });

  it("names the part that lost the most once more than 12 points are lost", () => {
    const lost = (visibility: number, swell: number, wind: number) => breakdown({ lost: { visibility, swell, wind } });
    expect(why({ breakdown: lost(13, 0, 0), rating: "good" })).toBe(`Visibility around 62 ft is the main limit; swell 1.3 ft, 3 kt wind (light air). ${LIVE}`);
    expect(why({ breakdown: lost(2, 11, 0), rating: "good" })).toBe(`1.3 ft of S swell reaching the spot is the main limit; visibility around 62 ft, 3 kt wind (light air). ${LIVE}`);
    expect(why({ breakdown: lost(2, 3, 9), rating: "good", windKt: 18, gustKt: 18, windOnshore: true })).toBe(
      `18 kt E wind (fresh breeze) blowing onshore is the main limit; visibility around 62 ft, swell 1.3 ft. ${LIVE}`,
    );
  });

  it("names visibility, then swell, then wind when two parts lost the same", () => {
    const lost = (visibility: number, swell: number, wind: number) => breakdown({ lost: { visibility, swell, wind } });
    expect(why({ breakdown: lost(7, 7, 0), rating: "good" })).toMatch(/^Visibility around 62 ft is the main limit/);
    expect(why({ breakdown: lost(0, 7, 7), rating: "good" })).toMatch(/^1\.3 ft of S swell reaching the spot is the main limit/);
    expect(why({ breakdown: lost(7, 0, 7), rating: "good" })).toMatch(/^Visibility around 62 ft is the main limit/);
  });

  it("calls the seas flat only while the swell has lost at most 8 of its 30 points", () => {
    const capped = (swellLost: number) => breakdown({ cappedBy: "visibility", lost: { visibility: 20, swell: swellLost, wind: 0 } });
    const at = (swellLost: number) => why({ breakdown: capped(swellLost), rating: "fair", visFt: 19.6, windKt: 3, gustKt: 4.6, swellFt: 0.5 });
    expect(at(8)).toBe(`Visibility near 20 ft caps this at fair despite flat seas. ${LIVE}`);
    expect(at(9)).toBe(`Visibility near 20 ft caps this at fair. ${LIVE}`);
  });

  it("calls the seas flat only at force 0–1, gusts included, and calm only at force 0", () => {
    const capped = breakdown({ cappedBy: "visibility", lost: { visibility: 20, swell: 0, wind: 0 } });
    const at = (windKt: number, gustKt: number) => why({ breakdown: capped, rating: "fair", visFt: 19.6, windKt, gustKt, swellFt: 0.5 });
    expect(at(3, 4.8)).toBe(`Visibility near 20 ft caps this at fair despite flat seas. ${LIVE}`);
    expect(at(3, 6)).toBe(`Visibility near 20 ft caps this at fair (light air, 3 kt gusting 6 kt wind). ${LIVE}`);
    expect(at(10, 14)).toBe(`Visibility near 20 ft caps this at fair (gentle breeze, 10 kt gusting 14 kt wind). ${LIVE}`);
    expect(at(10, 16)).toBe(`Visibility near 20 ft caps this at fair (gentle breeze, 10 kt gusting 16 kt wind). ${LIVE}`);
  });

  it("names the cap that set the score", () => {
    const capped = (cappedBy: ScoreBreakdown["cappedBy"]) => breakdown({ cappedBy, lost: { visibility: 20, swell: 0, wind: 0 } });
    expect(why({ breakdown: capped("visibility"), rating: "fair", visFt: 19.6, windKt: 3, gustKt: 4.6, swellFt: 0.5 })).toBe(`Visibility near 20 ft caps this at fair despite flat seas. ${LIVE}`);
    // Calm wind but swell that cost points: no "calm seas", and no wind words either.
    expect(why({ breakdown: breakdown({ cappedBy: "visibility", points: { visibility: 10, swell: 20, wind: 20 } }), rating: "fair", visFt: 19.6, windKt: 3, gustKt: 4.6 })).toBe(
      `Visibility near 20 ft caps this at fair. ${LIVE}`,
    );
    expect(why({ breakdown: capped("visibility"), rating: "fair", visFt: 19.6, windKt: 20, gustKt: 28 })).toBe(
      `Visibility near 20 ft caps this at fair (fresh breeze, 20 kt gusting 28 kt wind). ${LIVE}`,
    );
    expect(why({ breakdown: capped("swell"), rating: "no-go", swellFt: 6.04, swellFromDeg: 315 })).toBe(`6 ft of NW swell reaching the spot caps this at no-go. ${LIVE}`);
    expect(why({ breakdown: capped("wind"), rating: "no-go", windKt: 26.4, gustKt: 26, windFromDeg: null })).toBe(`26 kt wind (strong breeze) caps this at no-go. ${LIVE}`);
  });
});

describe("the opening and where the numbers come from", () => {
  it("opens with the seasonal-norm label and the season, and says the numbers are norms", () => {
    expect(why({ seasonal: true, basis: "climatology" })).toBe(
      "Seasonal norm, typical for late November: clear water, light air: about 62 ft visibility, 1.3 ft swell and 3 kt wind. Seasonal norms, not a live forecast.",
    );
  });

  it("says after dark at night, after the seasonal label when both apply", () => {
    expect(why({ night: true })).toBe(`After dark: clear water, light air: about 62 ft visibility, 1.3 ft swell and 3 kt wind. ${LIVE}`);
    expect(why({ night: true, seasonal: true, basis: "climatology" })).toMatch(/^Seasonal norm, typical for late November, after dark: clear water, light air/);
  });

  it("says when a window starts before sunrise, and caps a wholly dark one at good", () => {
    expect(why({ sunrise: "06:42", rating: "great", breakdown: breakdown({ lost: { visibility: 0, swell: 0, wind: 10 } }) })).toContain(". The window starts before sunrise (06:42). Visibility:");
    expect(why({ night: true, rating: "good", breakdown: breakdown({ cappedBy: "light" }) })).toBe(
      `Dark throughout the window, which caps this at good (visibility around 62 ft, swell 1.3 ft, 3 kt wind). ${LIVE}`,
    );
  });

  it("dates a satellite observation and counts its age in whole days, at least one", () => {
    const sat = { basis: "satellite" as const, satelliteObservedAt: new Date("2026-11-18T21:30:00Z") };
    expect(why({ ...sat, satelliteAgeH: 70 })).toMatch(/\. Visibility leans on satellite ocean colour observed 2026-11-18 \(3 days before this forecast\), weighted by its age\.$/);
    expect(why({ ...sat, satelliteAgeH: 5 })).toContain("(1 days before this forecast)");
    expect(why({ ...sat, satelliteAgeH: 70, seasonal: true })).toMatch(/weighted by its age\. Other inputs are seasonal norms, not a live forecast\.$/);
    expect(why({ basis: "satellite", satelliteAgeH: null, satelliteObservedAt: null })).toContain("observed recently (1 days before this forecast)");
  });

  it("ends with why the spot is not ranked: its own level estimated, or its region not yet ranked", () => {
    expect(why({ unranked: "spot" })).toBe(`Clear water, light air: about 62 ft visibility, 1.3 ft swell and 3 kt wind. ${LIVE} ${UNRANKED_NOTES.spot}`);
    expect(why({ unranked: "region" })).toBe(`Clear water, light air: about 62 ft visibility, 1.3 ft swell and 3 kt wind. ${LIVE} ${UNRANKED_NOTES.region}`);
    expect(UNRANKED_NOTES.spot).toMatch(/not yet calibrated to a published figure/);
  });
});

describe("season names", () => {
  it("splits a month into early (1–10), mid (11–20) and late (21–)", () => {
    expect(["2026-03-01", "2026-03-10", "2026-03-11", "2026-03-20", "2026-03-21", "2026-12-31"].map(seasonOf)).toEqual([
      "early March",
      "early March",
      "mid-March",
      "mid-March",
      "late March",
      "late December",
    ]);
    expect(typicalFor("2026-01-15")).toBe("Typical for mid-January");
  });

  it("names every month in full", () => {
    const months = Array.from({ length: 12 }, (_, i) => seasonOf(`2026-${String(i + 1).padStart(2, "0")}-15`));
    expect(months).toEqual(["mid-January", "mid-February", "mid-March", "mid-April", "mid-May", "mid-June", "mid-July", "mid-August", "mid-September", "mid-October", "mid-November", "mid-December"]);
  });

  it("labels a seasonal tier beside its name, and recognises that label", () => {
    expect(SEASONAL_NORM_LABEL).toBe("seasonal norm");
    expect(tierLabelFor("Excellent", true)).toBe("Excellent · seasonal norm");
    expect(tierLabelFor("Excellent", false)).toBe("Excellent");
    expect(isSeasonalTierLabel("Good · seasonal norm")).toBe(true);
    expect(isSeasonalTierLabel("Good seasonal norm")).toBe(false);
    expect(isSeasonalTierLabel("Good")).toBe(false);
  });
});
