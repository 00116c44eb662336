// The plain-language reason for a rating: one sentence naming what limits it, and one saying where
// the numbers come from.
import { compass8, round } from "../geo.js";
import { SEASONAL_NORM_LABEL, seasonOf } from "./norms.js";
import { windWord } from "./wind-words.js";
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
/** "18 kt E wind gusting 25 kt (fresh breeze) blowing onshore": the shared wind word after the numbers. */
function windPhrase(i: WhyInputs): string {
  const dir = i.windFromDeg === null ? "" : `${compass8(i.windFromDeg)} `;
  return `${kt(i.windKt)} ${dir}wind${gusting(i)} (${windWord(i.windKt, i.gustKt)})${i.windOnshore ? " blowing onshore" : ""}`;
}
function gusting(i: WhyInputs): string {
  return i.gustKt !== null && Math.round(i.gustKt) > Math.round(i.windKt) ? ` gusting ${kt(i.gustKt)}` : "";
}

export function explainRating(i: WhyInputs): string {
  const b = i.breakdown;
  const word = windWord(i.windKt, i.gustKt);
  // "Calm" only when the shared wind word is calm (under 4 kt, gusts included) and the swell is small.
  const calmSeas = b.points.swell >= 26 && word === "calm";
  const wind = `${kt(i.windKt)}${gusting(i)} wind`;
  let lead: string;
  if (b.cappedBy) {
    const capped: Record<Limiter, string> = {
      visibility: `Visibility near ${ft(i.visFt)} caps this at ${i.rating}${calmSeas ? " despite calm seas" : word === "calm" ? "" : ` (${word}, ${wind})`}`,
      swell: `${capitalise(swellPhrase(i))} caps this at ${i.rating}`,
      wind: `${capitalise(windPhrase(i))} caps this at ${i.rating}`,
    };
    lead = capped[b.cappedBy];
  } else {
    const lostTotal = b.lost.visibility + b.lost.swell + b.lost.wind;
    const main = (Object.keys(b.lost) as Limiter[]).reduce((a, c) => (b.lost[c] > b.lost[a] ? c : a));
    if (lostTotal <= 12) {
      const water = word === "calm" ? "Clear, calm water" : `Clear water, ${word}`;
      lead = `${water}: about ${ft(i.visFt)} visibility, ${swellFt(i.swellFt)} swell and ${wind}`;
    } else {
      const limits: Record<Limiter, string> = {
        visibility: `Visibility around ${ft(i.visFt)} is the main limit; swell ${swellFt(i.swellFt)}, ${wind} (${word})`,
        swell: `${capitalise(swellPhrase(i))} is the main limit; visibility around ${ft(i.visFt)}, ${wind} (${word})`,
        wind: `${capitalise(windPhrase(i))} is the main limit; visibility around ${ft(i.visFt)}, swell ${swellFt(i.swellFt)}`,
      };
      lead = limits[main];
    }
  }
  // A score from seasonal norms says so first, and claims only what is typical for the season.
  const opening = [i.seasonal ? `${capitalise(SEASONAL_NORM_LABEL)}, typical for ${seasonOf(i.date)}` : null, i.night ? "after dark" : null]
    .filter(Boolean)
    .join(", ");
  if (opening) lead = `${capitalise(opening)}: ${lowerFirst(lead)}`;
  const basis =
    i.basis === "climatology"
      ? "Seasonal norms, not a live forecast."
      : i.basis === "satellite"
        ? `Visibility leans on satellite ocean colour observed ${i.satelliteObservedAt?.toISOString().slice(0, 10) ?? "recently"} (${Math.max(1, Math.round((i.satelliteAgeH ?? 0) / 24))} days before this forecast), weighted by its age.${i.seasonal ? " Other inputs are seasonal norms, not a live forecast." : ""}`
        : "Visibility: the spot's typical level, moved by swell, wind and rain against the month's normal.";
  return `${lead}. ${basis}${i.unranked ? ` ${UNRANKED_NOTES[i.unranked]}` : ""}`;
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
