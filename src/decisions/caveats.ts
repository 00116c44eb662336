// The caveats a decision attaches (spec: Caveat codes), each with a message a host can relay as is.
import type { Activity } from "../base/activities.js";
import type { AreaRule } from "../catalog/regulations.js";
import type { Freshness } from "../sources/freshness.js";
import type { CaveatCode, CaveatSchema } from "../schemas/decisions.js";
import type { z } from "zod";

export type Caveat = z.infer<typeof CaveatSchema>;

/** Lead time, in days, from which a pick carries long_lead_time. */
export const LONG_LEAD_DAYS = 3;

const STALE_MESSAGES: Partial<Record<Freshness, string>> = {
  none: "Live forecasts were unavailable, so this uses seasonal norms for the time of year, not a forecast. Treat it as a rough guide.",
  stale: "The upstream forecast behind this is more than a day old; newer data could change it.",
  aging: "The upstream forecast behind this is several hours old; newer data could change it.",
};

export interface CaveatContext {
  activity: Activity;
  visibilitySource: "satellite" | "heuristic" | null;
  freshness: Freshness;
  daysAhead: number;
  rating: string | null;
  snappedFrom: { lat: number; lon: number; distanceKm: number; spotName: string } | null;
  regulatedAreas: readonly AreaRule[];
  regulationsReadable: boolean;
  /** The spot's reservations and permits for this activity (catalogue `access`), each with its source. */
  accessRequirements: readonly { rule: string; source: string }[];
  /**
   * Whether the spot's typical visibility is calibrated to published figures (src/catalog/levels.ts).
   * Decisions rank only calibrated spots, so a shipped pick always is; a pick that was not would say
   * its level is our judgement rather than borrow the calibrated wording.
   */
  levelCalibrated: boolean;
}

export function caveatsFor(c: CaveatContext): Caveat[] {
  const out: Caveat[] = [];
  const add = (code: CaveatCode, message: string) => out.push({ code, message });
  if (!c.levelCalibrated) {
    add("visibility_estimated", "Visibility is estimated, and this spot's typical visibility is our own judgement: no published figure that fits the spot was found. It can be off by a wide margin.");
  } else if (c.visibilitySource === "heuristic") {
    add("visibility_estimated", "Visibility is estimated: the spot's typical visibility from published figures, moved by swell, wind and rain. It is not observed and can be off by a wide margin.");
  }
  const stale = STALE_MESSAGES[c.freshness];
  if (stale) add("stale_inputs", stale);
  if (c.daysAhead >= LONG_LEAD_DAYS) add("long_lead_time", `This is ${c.daysAhead} days ahead; forecasts this far out often change. Check again closer to the day.`);
  if (c.rating === "fair" || c.rating === "no-go") {
    add("marginal_conditions", `Conditions are rated ${c.rating}: expect poor visibility, surge or chop. Consider another day or spot, and only go if you are comfortable in these conditions.`);
  }
  if (c.snappedFrom) {
    add("location_snapped", `You asked about ${c.snappedFrom.lat}, ${c.snappedFrom.lon}; this is ${c.snappedFrom.spotName}, ${c.snappedFrom.distanceKm} km away.`);
  }
  if (c.activity.model === "proxy") {
    add("proxy_activity_model", `The score is the shared snorkel-calibrated score, not one made for ${c.activity.label.toLowerCase()}. ${c.activity.notScored}.`);
  }
  const regulated = regulatedAreaMessage(c);
  if (regulated !== null) add("regulated_area", regulated);
  if (c.activity.id === "spearfish") {
    if (!c.regulationsReadable) {
      add("regulations_not_checked", "Marine protected area data could not be read, so no spot was excluded for closures. Check local closures before fishing.");
    }
    add("verify_fishing_rules", "Seasons, bag and size limits and gear rules are not modelled. Check current fishing regulations before you go.");
  }
  return out;
}

/**
 * The one regulated_area message of a pick, or null when no rule applies: the venue's entry rules
 * (reservations, permits) and, for spearfishing, the rules of the rules-only areas the spot lies in,
 * each quoted once however many times it is recorded, then where to check them.
 */
function regulatedAreaMessage(c: CaveatContext): string | null {
  const rules = new Set(c.accessRequirements.map((r) => r.rule));
  // Quote the rule our area data records, so the reason reaches a text-only reader.
  if (c.activity.id === "spearfish" && c.regulationsReadable) for (const a of c.regulatedAreas) rules.add(`Inside ${a.name}: ${a.rule}.`);
  if (rules.size === 0) return null;
  const sources = [...new Set(c.accessRequirements.map((r) => r.source))];
  return `${[...rules].join(" ")} Check the current rules before you go${sources.length > 0 ? `: ${sources.join(" and ")}` : "."}`;
}
