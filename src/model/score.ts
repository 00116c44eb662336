// The 0–100 condition score for the native activity (snorkelling; shared by the proxy activities),
// as a rubric: points earned from visibility, swell at the spot and wind (gusts included), then the
// caps of RUBRIC_CAPS, each a threshold with the published source it rests on (docs/model.md, "The
// score's rubric", is generated from these tables and the suite pins it to them).
//
//   score = min( visibility points (0–40) + swell points (0–30) + wind points (0–30),
//                every cap whose threshold the period reaches )
//
// Each part is non-decreasing in visibility and non-increasing in swell, wind and gust, and so is each
// cap, so the score is monotonic: clearer water, smaller swell or lighter wind never lower it.
// Visibility is a hard cap (spec): murky water limits the score however calm the rest is; the cap
// rises continuously with visibility (no cliffs). The tiers stay the spec's (excellent ≥ 80, great
// ≥ 60, good ≥ 40, fair ≥ 20); the caps decide which tier a threshold allows.
import { at, type Curve } from "./curve.js";
import { OPEN_WATER_GUST_FACTOR } from "./wind-words.js";

export const VISIBILITY_POINTS: Curve = [
  [0, 0],
  [5, 4],
  [10, 11],
  [20, 21],
  [30, 28],
  [40, 33],
  [60, 37],
  [80, 40],
];
/** Surge-equivalent swell at the spot (ft) → points. */
export const SWELL_POINTS: Curve = [
  [0, 30],
  [1, 27],
  [2, 22],
  [3, 16],
  [4, 11],
  [6, 5],
  [8, 2],
  [10, 0],
];
/**
 * The wind the surface feels (kt: the sustained wind, or a gust read as the mean wind whose usual
 * gust it is, whichever is more, each weighted for onshore or offshore) → points. Full points to a
 * light breeze (force 2), none from a near gale (force 7).
 */
export const WIND_POINTS: Curve = [
  [6, 30],
  [10, 25],
  [16, 14],
  [21, 6],
  [27, 1],
  [28, 0],
];

/**
 * Visibility cap (ft → highest score allowed), continuous and non-decreasing so a fraction of a foot
 * never moves a spot across a tier: 5 ft → 15, 10 ft → 35 (fair), 20 ft → 55 (good), 30 ft → 75
 * (great), 40 ft → 80 (excellent needs at least 40 ft), no cap from 50 ft. Between the anchors the
 * cap is interpolated, and rounded down so that, e.g., 39 ft stays below excellent.
 */
export const VISIBILITY_CAP: Curve = [
  [0, 5],
  [5, 15],
  [10, 35],
  [20, 55],
  [30, 75],
  [40, 80],
  [50, 100],
];

/** A published statement a threshold rests on. */
export interface RubricSource {
  name: string;
  url: string;
  /** What it says, quoted or closely paraphrased. */
  says: string;
}

export type CapInput = "swell" | "wind" | "gust" | "light";

export interface CapRule {
  input: CapInput;
  /** At or above this (ft of surge-equivalent swell; kt of sustained wind or gust); for `light`, 1 = wholly dark. */
  atLeast: number;
  /** The highest score allowed there. */
  max: number;
  /** Why the threshold is where it is, in a few words. */
  reason: string;
  sources: readonly RubricSource[];
}

const src = (name: string, url: string, says: string): RubricSource => ({ name, url, says });
const BEAUFORT = src(
  "WMO Beaufort scale, as published by the UK Met Office",
  "https://www.metoffice.gov.uk/weather/marine/guide/beaufortscale.html",
  "Force 4, moderate breeze, 11–16 kt: small waves, becoming longer, fairly frequent white horses; force 5, fresh breeze, 17–21 kt: moderate waves, many white horses; force 6, strong breeze, 22–27 kt: large waves begin to form, white foam crests are more extensive everywhere; force 7, near gale, 28–33 kt: sea heaps up; force 8, gale, 34–40 kt; force 9, strong gale, 41–47 kt.",
);
const KAUAI_SEA_TOURS = src(
  "Kauai Sea Tours (snorkel operator), Does wind affect snorkeling conditions?",
  "https://kauaiseatours.com/wind-and-snorkeling-conditions/",
  "Winds over 10 miles per hour can create waves of up to 3-feet in height. This wave action will make it harder to swim comfortably.",
);
const DIVER_FORCE_5 = src(
  "DIVER magazine (UK), The shipping news",
  "http://www.divernet.com/general-diving/p302357-the-shipping-news-.html",
  "In general, force 5 is the limit for diving … the problem is kitting up on a rocking boat and then, more importantly, being able to see and safely recover divers after the dive.",
);
const SMALL_CRAFT_F6 = src(
  "Met Éireann's small craft warning, as reported by The Irish Times",
  "https://irishtimes-irishtimes-prod.web.arc-cdn.net/news/weather-warning-service-for-small-boats-1.350190",
  "A small craft warning is issued for winds of force 6 or more (22 knots or more) expected within 10 nautical miles of the coast.",
);
const SMALL_CRAFT_HAWAII = src(
  "US National Weather Service, Honolulu: small craft advisory (advisory text republished by Big Island Now)",
  "https://bigislandnow.com/2019/12/07/small-craft-advisory-54/",
  "A small craft advisory means that wind speeds of 25 to 33 knots and/or seas 10 feet or greater are expected to produce conditions hazardous to small craft.",
);
const SURF_OPERATORS = src(
  "Tropical Snorkeling (snorkel guidebook authors), Ocean snorkeling conditions",
  "https://www.tropicalsnorkeling.com/ocean-snorkeling-conditions.html",
  "If there are waves of much size at all, don't go out … the underwater visibility almost always becomes greatly reduced.",
);
const NAUI_SURGE = src(
  "NAUI Master Scuba Diver manual, the diving environment",
  "http://magazinevolume.com/19116TC/pubData/SEO/Page_195.html",
  "In most areas with large waves, surf, and heavy surge, visibility will be poor.",
);
const HIGH_SURF_HAWAII = src(
  "US National Weather Service, Honolulu: high surf advisory criteria (The Honolulu Advertiser)",
  "http://the.honoluluadvertiser.com/article/2001/Oct/28/ln/ln09a.html",
  "A high surf advisory involves waves 15 feet on north-facing shores, 12 feet on west-facing shores, and 8 feet on south- and east-facing shores.",
);
const DAYLIGHT = src(
  "Hawaiʻi Ocean Safety (State of Hawaiʻi), Plan your ocean activities",
  "https://oceansafety.hawaii.gov/plan-your-ocean-activities/",
  "Schedule your visit to the beach during daylight hours.",
);
const NIGHT_DIVING = src(
  "NAUI Master Scuba Diver manual, night diving",
  "https://magazinevolume.com/20047TC/pubData/SEO/Page_224.html",
  "At least one waterproof light is required for each diver on a night dive.",
);
const LIMITED_VISIBILITY = src(
  "NAUI Master Scuba Diver manual, limited visibility and night diving",
  "https://magazinevolume.com/20047TC/pubData/SEO/Page_218.html",
  "Underwater visibility is considered limited when you cannot see another diver at a distance of 3 m (10 feet) or less in a horizontal direction.",
);

/** The sources of the visibility cap (VISIBILITY_CAP): at 10 ft visibility is "limited", so the score is at most fair. */
export const VISIBILITY_CAP_SOURCES: readonly RubricSource[] = [LIMITED_VISIBILITY];

/**
 * The caps, every one monotonic in its input: reaching a threshold lowers the highest score allowed,
 * never raises it. Sustained wind and gusts are taken as reported, not weighted for offshore shelter:
 * a snorkeler swims, and a boat rides, through them wherever the wind blows from.
 */
export const RUBRIC_CAPS: readonly CapRule[] = [
  { input: "swell", atLeast: 4, max: 50, reason: "surge stirs the bottom and pushes swimmers onto the reef: at best good", sources: [SURF_OPERATORS, NAUI_SURGE] },
  { input: "swell", atLeast: 6, max: 25, reason: "breaking waves and strong surge at the entry: at best fair", sources: [NAUI_SURGE] },
  { input: "swell", atLeast: 8, max: 10, reason: "high surf on south- and east-facing shores: no-go", sources: [HIGH_SURF_HAWAII] },
  { input: "wind", atLeast: 11, max: 79, reason: "moderate breeze (force 4): small waves, fairly frequent white horses, never excellent", sources: [BEAUFORT, KAUAI_SEA_TOURS] },
  { input: "wind", atLeast: 17, max: 59, reason: "fresh breeze (force 5): many white horses, the usual limit for dive boats, never great", sources: [BEAUFORT, DIVER_FORCE_5] },
  { input: "wind", atLeast: 22, max: 39, reason: "strong breeze (force 6): small craft warning, at best fair", sources: [BEAUFORT, SMALL_CRAFT_F6] },
  { input: "wind", atLeast: 28, max: 19, reason: "near gale (force 7): the sea heaps up, no-go", sources: [BEAUFORT] },
  { input: "gust", atLeast: 25, max: 79, reason: "gusts of small-craft-advisory strength: never excellent", sources: [SMALL_CRAFT_HAWAII] },
  { input: "gust", atLeast: 28, max: 59, reason: "near-gale gusts (force 7): never great", sources: [BEAUFORT] },
  { input: "gust", atLeast: 34, max: 39, reason: "gale-force gusts (force 8): at best fair", sources: [BEAUFORT] },
  { input: "gust", atLeast: 41, max: 19, reason: "strong-gale gusts (force 9): no-go", sources: [BEAUFORT] },
  { input: "light", atLeast: 1, max: 59, reason: "wholly after dark: a light and night training needed, never great", sources: [DAYLIGHT, NIGHT_DIVING] },
];

/** Onshore wind roughens the water more than offshore wind of the same speed (points only). */
export function effectiveWindKt(windKt: number, onshore: number): number {
  return windKt * (0.7 + 0.3 * onshore);
}

export interface ScoreInputs {
  /** Horizontal visibility as shown, ft. */
  visFt: number;
  /** Surge-equivalent swell at the spot, ft. */
  swellFt: number;
  /** Sustained wind as reported, kt. */
  windKt: number;
  /** Peak gust as reported, kt; null when unknown. */
  gustKt: number | null;
  /** How far the wind blows onshore, 0 (offshore) … 1 (onshore). */
  onshore: number;
  /** The period lies wholly between sunset and sunrise. */
  dark: boolean;
}

export type Limiter = "visibility" | "swell" | "wind" | "light";
type Part = "visibility" | "swell" | "wind";

export interface ScoreBreakdown {
  score: number;
  uncapped: number;
  points: Record<Part, number>;
  /** Points short of the maximum, per part. */
  lost: Record<Part, number>;
  /** The cap that set the score (a gust cap counts as wind), if one did. */
  cappedBy: Limiter | null;
}

export const MAX_POINTS: Record<Part, number> = { visibility: 40, swell: 30, wind: 30 };

export function visibilityCap(visFt: number): number {
  return Math.floor(at(VISIBILITY_CAP, visFt));
}

/** The lowest cap of `input` that `value` reaches (100 when none). */
export function capOf(input: CapInput, value: number): number {
  return RUBRIC_CAPS.filter((c) => c.input === input && value >= c.atLeast).reduce((m, c) => Math.min(m, c.max), 100);
}

/** The wind the surface feels, for points: the sustained wind or the gust's usual mean, weighted for onshore. */
export function feltWindKt(windKt: number, gustKt: number | null, onshore: number): number {
  const fromGust = gustKt === null ? 0 : gustKt / OPEN_WATER_GUST_FACTOR;
  return effectiveWindKt(Math.max(windKt, fromGust), onshore);
}

export function scoreConditions(i: ScoreInputs): ScoreBreakdown {
  const points = {
    visibility: at(VISIBILITY_POINTS, i.visFt),
    swell: at(SWELL_POINTS, i.swellFt),
    wind: at(WIND_POINTS, feltWindKt(i.windKt, i.gustKt, i.onshore)),
  };
  const uncapped = Math.round(points.visibility + points.swell + points.wind);
  const caps: [Limiter, number][] = [
    ["visibility", visibilityCap(i.visFt)],
    ["swell", capOf("swell", i.swellFt)],
    ["wind", Math.min(capOf("wind", i.windKt), i.gustKt === null ? 100 : capOf("gust", i.gustKt))],
    ["light", i.dark ? capOf("light", 1) : 100],
  ];
  let score = uncapped;
  let cappedBy: Limiter | null = null;
  for (const [limiter, cap] of caps) {
    if (cap < score) {
      score = cap;
      cappedBy = limiter;
    }
  }
  const lost = {
    visibility: MAX_POINTS.visibility - points.visibility,
    swell: MAX_POINTS.swell - points.swell,
    wind: MAX_POINTS.wind - points.wind,
  };
  return { score: Math.max(0, Math.min(100, score)), uncapped, points, lost, cappedBy };
}
