// The plain-language reason for a rating: one sentence naming what limits it, and one saying where
// the numbers come from.
import { compass8, round } from "../catalog/geo.js";
import { SEASONAL_NORM_LABEL, seasonOf } from "./norms.js";
import { beaufort, OPEN_WATER_GUST_FACTOR, windWord } from "./wind-words.js";
import type { Rating } from "./tiers.js";
import type { Limiter, ScoreBreakdown } from "./score.js";

export interface WhyInputs {
  breakdown: ScoreBreakdown;
  rating: Rating;
  visFt: number;
  swellFt: number;
  swellFromDeg: number;
  windKt: number;
  gustKt: number | null;
  windFromDeg: number | null;
  windOnshore: boolean;
  night: boolean;
  /** The sun rises inside the window (spot-local HH:MM), which then starts in the dark; null otherwise. */
  sunrise: string | null;
  basis: Basis;
  /** Some input came from seasonal norms (with a satellite basis too: the satellite shapes only visibility). */
  seasonal: boolean;
  /** Spot-local date of the period (names the season for seasonal norms). */
  date: string;
  /** Why decisions do not rank this spot: its own level is not calibrated, or its region is not `full`; null when they do. */
  unranked: Unranked;
  satelliteAgeH: number | null;
  /** When the satellite observation was made (UTC), for the label. */
  satelliteObservedAt: Date | null;
}

export type Basis = "climatology" | "live" | "satellite";

const ft = (v: number) => `${Math.round(v)} ft`;
// Same rounding as the period's swell_height_ft, so the sentence and the number agree.
const swellFt = (v: number) => `${round(v, 1)} ft`;
const kt = (v: number) => `${Math.round(v)} kt`;

function swellPhrase(i: WhyInputs): string {
  return `${swellFt(i.swellFt)} of ${compass8(i.swellFromDeg)} swell reaching the spot`;
}
/** "18 kt E wind gusting 25 kt (fresh breeze) blowing onshore": the Beaufort name of the speed shown after the numbers. */
function windPhrase(i: WhyInputs): string {
  const dir = i.windFromDeg === null ? "" : `${compass8(i.windFromDeg)} `;
  return `${kt(i.windKt)} ${dir}wind${gusting(i)} (${windWord(i.windKt)})${i.windOnshore ? " blowing onshore" : ""}`;
}
function gusting(i: WhyInputs): string {
  return i.gustKt !== null && Math.round(i.gustKt) > Math.round(i.windKt) ? ` gusting ${kt(i.gustKt)}` : "";
}

export function explainRating(i: WhyInputs): string {
  const b = i.breakdown;
  const word = windWord(i.windKt);
  // Flat water only at force 0–1, the gust read as the mean whose usual gust it is included, with a
  // small swell (at most 8 of its 30 points lost). "Calm" is said only of force 0, the Beaufort calm.
  const glassy = beaufort(Math.max(i.windKt, (i.gustKt ?? 0) / OPEN_WATER_GUST_FACTOR)).force <= 1;
  const calmSeas = b.points.swell >= 22 && glassy;
  const wind = `${kt(i.windKt)}${gusting(i)} wind`;
  let lead: string;
  // A limit is named only where the score lost to it: an excellent period is never "capped" or "limited".
  if (b.cappedBy && i.rating !== "excellent") {
    const capped: Record<Limiter, string> = {
      visibility: `Visibility near ${ft(i.visFt)} caps this at ${i.rating}${calmSeas ? " despite flat seas" : glassy ? "" : ` (${word}, ${wind})`}`,
      swell: `${capitalise(swellPhrase(i))} caps this at ${i.rating}`,
      wind: `${capitalise(windPhrase(i))} caps this at ${i.rating}`,
      light: `Dark throughout the window, which caps this at ${i.rating} (visibility around ${ft(i.visFt)}, swell ${swellFt(i.swellFt)}, ${wind})`,
    };
    lead = capped[b.cappedBy];
  } else {
    const lostTotal = b.lost.visibility + b.lost.swell + b.lost.wind;
    const main = (Object.keys(b.lost) as (keyof typeof b.lost)[]).reduce((a, c) => (b.lost[c] > b.lost[a] ? c : a));
    if (lostTotal <= 12 || i.rating === "excellent") {
      const water = glassy && word === "calm" ? "Clear, calm water" : `Clear water, ${word}`;
      lead = `${water}: about ${ft(i.visFt)} visibility, ${swellFt(i.swellFt)} swell and ${wind}`;
    } else {
      const limits: Record<keyof typeof b.lost, string> = {
        visibility: `Visibility around ${ft(i.visFt)} is the main limit; swell ${swellFt(i.swellFt)}, ${wind} (${word})`,
        swell: `${capitalise(swellPhrase(i))} is the main limit; visibility around ${ft(i.visFt)}, ${wind} (${word})`,
        wind: `${capitalise(windPhrase(i))} is the main limit; visibility around ${ft(i.visFt)}, swell ${swellFt(i.swellFt)}`,
      };
      lead = limits[main];
    }
  }
  // A score from seasonal norms says so first, and claims only what is typical for the season.
  const opening = [i.seasonal ? `${capitalise(SEASONAL_NORM_LABEL)}, typical for ${seasonOf(i.date)}` : null, i.night && b.cappedBy !== "light" ? "after dark" : null].filter(Boolean).join(", ");
  if (opening) lead = `${capitalise(opening)}: ${lowerFirst(lead)}`;
  const basis =
    i.basis === "climatology"
      ? "Seasonal norms, not a live forecast."
      : i.basis === "satellite"
        ? `Visibility leans on satellite ocean colour observed ${i.satelliteObservedAt?.toISOString().slice(0, 10) ?? "recently"} (${Math.max(1, Math.round((i.satelliteAgeH ?? 0) / 24))} days before this forecast), weighted by its age.${i.seasonal ? " Other inputs are seasonal norms, not a live forecast." : ""}`
        : "Visibility: the spot's typical level, moved by swell, wind and rain against the month's normal.";
  const dawn = i.sunrise ? ` The window starts before sunrise (${i.sunrise}).` : "";
  return `${lead}.${dawn} ${basis}${i.unranked ? ` ${UNRANKED_NOTES[i.unranked]}` : ""}`;
}

export type Unranked = "spot" | "region" | null;

/** Why a spot is not ranked, as said beside its score (reasons, cards, pages). */
export function unrankedOf(spot: { levelCalibrated: boolean; ranked: boolean }): Unranked {
  return spot.ranked ? null : spot.levelCalibrated ? "region" : "spot";
}

/** Said wherever a spot's score is shown but decisions do not rank it. */
export const UNRANKED_NOTES: Record<"spot" | "region", string> = {
  spot: "This spot's typical visibility is an estimate, not yet calibrated to a published figure, so its score is a rough guide and it is not ranked.",
  region: "Too few spots in this region are calibrated to published typical visibility to rank them yet, so the score is a rough guide and spots here are not ranked.",
};

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
