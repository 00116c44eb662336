// The plain-language reason for a rating: one sentence naming what limits it, and one saying where
// the numbers come from.
import { compass8, round } from "../geo.js";
import type { Rating } from "./tiers.js";
import type { Limiter, ScoreBreakdown } from "./score.js";

export interface WhyInputs {
  breakdown: ScoreBreakdown;
  rating: Rating;
  visFt: number;
  swellFt: number;
  swellFromDeg: number;
  windKt: number;
  windFromDeg: number | null;
  windOnshore: boolean;
  night: boolean;
  basis: "climatology" | "live" | "satellite";
  satelliteAgeH: number | null;
  /** When the satellite observation was made (UTC), for the label. */
  satelliteObservedAt: Date | null;
}

const ft = (v: number) => `${Math.round(v)} ft`;
// Same rounding as the period's swell_height_ft, so the sentence and the number agree.
const swellFt = (v: number) => `${round(v, 1)} ft`;
const kt = (v: number) => `${Math.round(v)} kt`;

function swellPhrase(i: WhyInputs): string {
  return `${swellFt(i.swellFt)} of ${compass8(i.swellFromDeg)} swell reaching the spot`;
}
function windPhrase(i: WhyInputs): string {
  const dir = i.windFromDeg === null ? "" : `${compass8(i.windFromDeg)} `;
  return `${kt(i.windKt)} ${dir}wind${i.windOnshore ? " blowing onshore" : ""}`;
}

export function explainRating(i: WhyInputs): string {
  const b = i.breakdown;
  const calmSeas = b.points.swell >= 26 && b.points.wind >= 11;
  let lead: string;
  if (b.cappedBy) {
    const capped: Record<Limiter, string> = {
      visibility: `Visibility near ${ft(i.visFt)} caps this at ${i.rating}${calmSeas ? " despite calm seas" : ""}`,
      swell: `${capitalise(swellPhrase(i))} caps this at ${i.rating}`,
      wind: `${capitalise(windPhrase(i))} caps this at ${i.rating}`,
    };
    lead = capped[b.cappedBy];
  } else {
    const lostTotal = b.lost.visibility + b.lost.swell + b.lost.wind;
    const main = (Object.keys(b.lost) as Limiter[]).reduce((a, c) => (b.lost[c] > b.lost[a] ? c : a));
    if (lostTotal <= 12) {
      lead = `Clear, calm water: about ${ft(i.visFt)} visibility, ${swellFt(i.swellFt)} swell and ${kt(i.windKt)} wind`;
    } else {
      const limits: Record<Limiter, string> = {
        visibility: `Visibility around ${ft(i.visFt)} is the main limit; swell ${swellFt(i.swellFt)}, wind ${kt(i.windKt)}`,
        swell: `${capitalise(swellPhrase(i))} is the main limit; visibility around ${ft(i.visFt)}, wind ${kt(i.windKt)}`,
        wind: `${capitalise(windPhrase(i))} is the main limit; visibility around ${ft(i.visFt)}, swell ${swellFt(i.swellFt)}`,
      };
      lead = limits[main];
    }
  }
  if (i.night) lead = `After dark: ${lead.charAt(0).toLowerCase()}${lead.slice(1)}`;
  const basis =
    i.basis === "climatology"
      ? "Seasonal norms, not a live forecast."
      : i.basis === "satellite"
        ? `Visibility leans on satellite ocean colour observed ${i.satelliteObservedAt?.toISOString().slice(0, 10) ?? "recently"} (${Math.max(1, Math.round((i.satelliteAgeH ?? 0) / 24))} days before this forecast), weighted by its age.`
        : "Visibility estimated from swell, wind and rain.";
  return `${lead}. ${basis}`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
