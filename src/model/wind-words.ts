// The one wind vocabulary: the WMO Beaufort force of the wind speed as it is shown (the sustained
// wind in whole knots), said by every text that describes wind (the period's and the pick's `why`,
// the pick's factors, the card's wind metric and so the Markdown, the share image and pages, and the
// MCP view). A gust is shown beside it ("10 kt gusting 16") and counts in the score
// (src/model/score.ts), but never changes the word: "moderate breeze, 10 kt" would be a word one
// force off the number beside it.
//
// Source: the Beaufort scale as the WMO defines it (force, name, mean wind at 10 m in knots and the
// state of the open sea), as published by the UK Met Office,
// https://www.metoffice.gov.uk/weather/guides/coast-and-sea/beaufort-scale.

/**
 * The usual peak gust over open water as a multiple of the hour's mean wind (WMO/TD-No. 1555,
 * Harper, Kepert & Ginger 2010, "Guidelines for converting between various wind averaging periods
 * in tropical cyclone conditions", at-sea and off-sea exposures: about 1.3–1.5; 1.4 is the middle).
 * The seasonal norms make their gusts with it, and the score reads a gust as the mean wind whose
 * usual gust it is.
 */
export const OPEN_WATER_GUST_FACTOR = 1.4;

/** The Beaufort scale, force 0 to 12: each force's name, its lowest mean wind in whole knots, and the sea it raises. */
export const WIND_BANDS = [
  { force: 0, word: "calm", minKt: 0, sea: "sea like a mirror" },
  { force: 1, word: "light air", minKt: 1, sea: "ripples like scales, no foam crests" },
  { force: 2, word: "light breeze", minKt: 4, sea: "small wavelets, glassy crests that do not break" },
  { force: 3, word: "gentle breeze", minKt: 7, sea: "large wavelets, crests begin to break, scattered white horses" },
  { force: 4, word: "moderate breeze", minKt: 11, sea: "small waves, fairly frequent white horses" },
  { force: 5, word: "fresh breeze", minKt: 17, sea: "moderate waves, many white horses, some spray" },
  { force: 6, word: "strong breeze", minKt: 22, sea: "large waves, white foam crests everywhere, spray" },
  { force: 7, word: "near gale", minKt: 28, sea: "sea heaps up, foam blown in streaks" },
  { force: 8, word: "gale", minKt: 34, sea: "moderately high waves, crests break into spindrift" },
  { force: 9, word: "strong gale", minKt: 41, sea: "high waves, dense streaks of foam" },
  { force: 10, word: "storm", minKt: 48, sea: "very high waves with long overhanging crests" },
  { force: 11, word: "violent storm", minKt: 56, sea: "exceptionally high waves" },
  { force: 12, word: "hurricane force", minKt: 64, sea: "air filled with foam and spray" },
] as const;

export type WindBand = (typeof WIND_BANDS)[number];
export type WindWord = WindBand["word"];

/** The Beaufort band of a wind speed as shown: in whole knots, so "11 kt" is never called a gentle breeze. */
export function beaufort(speedKt: number): WindBand {
  const kt = Math.round(speedKt);
  let band: WindBand = WIND_BANDS[0];
  for (const b of WIND_BANDS) if (kt >= b.minKt) band = b;
  return band;
}

/** The Beaufort name of a wind speed as shown (whole knots). */
export function windWord(speedKt: number): WindWord {
  return beaufort(speedKt).word;
}
