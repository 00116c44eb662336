// The one wording rule for wind: "calm", "breezy" or "windy" from the mean speed and the gust, used by
// the period's `why`, the card metrics (and so the Markdown, the share image and page, and the MCP
// view). Thresholds follow the Beaufort scale as it reads on the water: up to a gentle breeze
// (Beaufort 3, under 11 kt) the surface is at most scattered whitecaps; from a fresh breeze
// (Beaufort 5, 17 kt) there are many whitecaps and chop a snorkeler feels. Gusts count too: a 10 kt
// mean gusting 25 is not calm.

export type WindWord = "calm" | "breezy" | "windy";

/** Calm: mean below this (kt) and gusts below CALM_MAX_GUST_KT. */
export const CALM_MAX_SPEED_KT = 11;
export const CALM_MAX_GUST_KT = 16;
/** Windy: mean at or above this (kt), or gusts at or above WINDY_MIN_GUST_KT. */
export const WINDY_MIN_SPEED_KT = 17;
export const WINDY_MIN_GUST_KT = 25;

/** The word for a mean wind and its gust (gust unknown: judged on the mean alone). */
export function windWord(speedKt: number, gustKt: number | null): WindWord {
  const gust = gustKt ?? speedKt;
  if (speedKt >= WINDY_MIN_SPEED_KT || gust >= WINDY_MIN_GUST_KT) return "windy";
  if (speedKt < CALM_MAX_SPEED_KT && gust < CALM_MAX_GUST_KT) return "calm";
  return "breezy";
}
