// The one wind vocabulary: a word from the Beaufort scale, judged on the sustained wind and its gust,
// said by every text that describes wind (the period's and the pick's `why`, the pick's factors, the
// card's wind metric and so the Markdown, the share image and pages, and the MCP view).
//
// The Beaufort scale names the sustained (10-minute mean) wind at 10 m and says how the sea looks
// under it. A diver reads "calm" as flat water, so calm is only forces 0–1 (under 4 kt: at most
// ripples); from a gentle breeze (force 3, 7–10 kt) there are scattered whitecaps, and a moderate
// breeze (force 4, 11–16 kt) raises small waves with frequent whitecaps.
//
// Gusts: over open water the peak gust in an hour is about OPEN_WATER_GUST_FACTOR times the mean, so
// a gust of that size is part of the force the mean already names. A gust beyond it means the wind
// blows harder than its mean says: the word is then the force whose usual gust it is, that is the
// force of gust ÷ OPEN_WATER_GUST_FACTOR. 10 kt gusting 14 stays a gentle breeze; 10 kt gusting 16
// reads as 11.4 kt, a moderate breeze.

/**
 * The usual peak gust over open water as a multiple of the hour's mean wind (WMO/TD-No. 1555,
 * Harper, Kepert & Ginger 2010, "Guidelines for converting between various wind averaging periods
 * in tropical cyclone conditions", at-sea and off-sea exposures: about 1.3–1.5; 1.4 is the middle).
 * The seasonal norms make their gusts with it too.
 */
export const OPEN_WATER_GUST_FACTOR = 1.4;

/** The words, lightest first, each from its lowest wind in whole knots and the Beaufort forces it covers. */
export const WIND_BANDS = [
  { word: "calm", minKt: 0, beaufort: "0–1", sea: "flat, at most ripples" },
  { word: "light breeze", minKt: 4, beaufort: "2", sea: "small wavelets, glassy crests" },
  { word: "gentle breeze", minKt: 7, beaufort: "3", sea: "large wavelets, scattered whitecaps" },
  { word: "moderate breeze", minKt: 11, beaufort: "4", sea: "small waves, frequent whitecaps" },
  { word: "fresh breeze", minKt: 17, beaufort: "5", sea: "moderate waves, many whitecaps, some spray" },
  { word: "strong wind", minKt: 22, beaufort: "6 and up", sea: "large waves, whitecaps everywhere, spray" },
] as const;

export type WindWord = (typeof WIND_BANDS)[number]["word"];

/**
 * The wind a period's word is judged on (kt): the mean, or the gust ÷ OPEN_WATER_GUST_FACTOR when
 * that is higher (gust unknown: the mean alone).
 */
export function judgedWindKt(speedKt: number, gustKt: number | null): number {
  return gustKt === null ? speedKt : Math.max(speedKt, gustKt / OPEN_WATER_GUST_FACTOR);
}

/**
 * The word for a mean wind and its gust. The judged wind is taken in whole knots, as the texts show
 * speeds, so "11 kt" is never called a gentle breeze.
 */
export function windWord(speedKt: number, gustKt: number | null): WindWord {
  const kt = Math.round(judgedWindKt(speedKt, gustKt));
  let word: WindWord = WIND_BANDS[0].word;
  for (const band of WIND_BANDS) if (kt >= band.minKt) word = band.word;
  return word;
}
