// Fields every decision response shares (Recommendation and BestDay), and the statuses that end a
// decision early: activity_not_modeled, not_covered and conditions_only (spec section 3).
import type { Activity } from "../base/activities.js";
import { DISCLAIMER } from "../base/attribution.js";
import { hourFloor } from "../base/clock.js";
import type { ServiceContext } from "../services/context.js";
import { roundKm } from "../catalog/geo.js";
import type { z } from "zod";
import type { ActivityInfoSchema } from "../schemas/catalog.js";
import type { ConsideredSchema, CoverageInfoSchema, DECISION_STATUSES, EXCLUSION_REASONS, FactsHintSchema } from "../schemas/decisions.js";
import { isoWithOffset } from "../base/zone.js";
import type { DecisionQuery, Destination } from "./request.js";

export const PRICING = { layer: "decision", plan: "early-access" } as const;

export type DecisionStatus = (typeof DECISION_STATUSES)[number];

/** Said wherever a region published `conditions_only` declines to rank (decisions, cards, pages). */
export function notRankedSentence(regionName: string): string {
  return `${regionName} has conditions but too few spots with a calibrated typical visibility yet, so spots there are not ranked.`;
}

/** A few words per exclusion reason, to group excluded spots under (the region page); each spot's own note says the rest. */
export const EXCLUSION_HEADINGS: Record<(typeof EXCLUSION_REASONS)[number], string> = {
  closed_to_spearfishing: "Closed to spearfishing",
  closed_on_date: "Closed this day",
  unsuited_depth: "Depth does not fit",
  unsuited_entry: "Entry does not fit",
  unsuited_hazard: "Hazard for this activity",
  unsuited_access: "Not a normal day trip",
  unsuited_use: "Water set aside for another use",
  visibility_not_calibrated: "Typical visibility not calibrated",
  region_not_ranked: "Region not ranked",
};

/** Exclusions that are a rule of the place or the activity (not "not ranked"), which a declined answer still says. */
export function ruleExclusions(excluded: z.infer<typeof ConsideredSchema>["excluded"]) {
  return excluded.filter((e) => e.reason !== "visibility_not_calibrated" && e.reason !== "region_not_ranked");
}

/**
 * The message of a decision a `conditions_only` region declines: why it is not ranked, every rule
 * that excludes a spot for the activity (a closure, a no-take reserve, a depth), and the spots whose
 * facts get_conditions gives, by id, so a caller can go on without guessing.
 */
export function declinedMessage(ctx: Pick<ServiceContext, "catalog">, region: Destination & { covered: true }, activityLabel: string, excluded: z.infer<typeof ConsideredSchema>["excluded"]): string {
  const levels = ctx.catalog.levels(region.region);
  const parts = [`${notRankedSentence(region.region.name)} ${levels.reason ?? ""}`.trim()];
  const rules = ruleExclusions(excluded);
  if (rules.length > 0) {
    parts.push(`Whatever the conditions, for ${activityLabel.toLowerCase()}: ${rules.map((e) => `${e.spot.name}: ${e.note.replace(/\.$/, "")}`).join("; ")}.`);
  }
  const open = region.candidates.map((c) => c.spot).filter((s) => !rules.some((e) => e.spot.id === s.id));
  if (open.length > 0) {
    parts.push(`For the facts, call get_conditions with a spot: ${open.map((s) => `${s.id} (${s.name})`).join(", ")}.`);
  }
  return parts.join(" ");
}

export function activityInfo(a: Activity): z.infer<typeof ActivityInfoSchema> {
  return { id: a.id, label: a.label, model: a.model, note: a.note };
}

export function coverageOf(dest: Destination): z.infer<typeof CoverageInfoSchema> {
  const nearest = dest.nearest
    ? {
        spot: { id: dest.nearest.spot.id, name: dest.nearest.spot.name },
        region: { id: dest.nearest.spot.region.id, name: dest.nearest.spot.region.name },
        distance_km: roundKm(dest.nearest.distanceKm),
      }
    : null;
  return dest.covered ? { status: "covered", regions: [dest.region.id], nearest_covered: nearest } : { status: "not_covered", regions: [], nearest_covered: nearest };
}

export const NOTHING_CONSIDERED: z.infer<typeof ConsideredSchema> = { scored: 0, excluded: [], skipped: [] };

/** The zone that dates a decision: the destination's region, or the nearest covered spot's. */
export function decisionZone(dest: Destination): string {
  return dest.covered ? dest.region.timezone : dest.nearest.spot.timezone;
}

/**
 * A decision's `generated_at`: the time of the data it was made from (the newest forecast it read),
 * or the start of the hour when it read none. The same data gives the same answer everywhere.
 */
export function decisionDataTime(ctx: Pick<ServiceContext, "clock">, dest: Destination, dataTimes: readonly (Date | null)[] = []): string {
  let t = hourFloor(ctx.clock.now());
  for (const d of dataTimes) if (d !== null && d > t) t = d;
  return isoWithOffset(t, decisionZone(dest));
}

export function commonFields(ctx: Pick<ServiceContext, "clock" | "source">, q: DecisionQuery, dest: Destination) {
  return {
    source: ctx.source,
    activity: activityInfo(q.activity),
    generated_at: decisionDataTime(ctx, dest),
    disclaimer: DISCLAIMER,
    pricing: { ...PRICING },
    coverage: coverageOf(dest),
  };
}

export type EarlyStatus = { status: DecisionStatus; message: string; facts_hint: z.infer<typeof FactsHintSchema> };

/**
 * The fields of a decision a `conditions_only` region declines, in response order: every spot it
 * looked at with its rule or why it is not ranked, and the message that says so (declinedMessage).
 */
export function declinedFields(
  ctx: Pick<ServiceContext, "catalog">,
  dest: Destination & { covered: true },
  activityLabel: string,
  excluded: z.infer<typeof ConsideredSchema>["excluded"],
  skipped: z.infer<typeof ConsideredSchema>["skipped"],
) {
  return {
    data_credits: [],
    status: "conditions_only" as const,
    considered: { scored: 0, excluded, skipped },
    message: declinedMessage(ctx, dest, activityLabel, excluded),
    facts_hint: null,
  };
}

/** The fields every decision answer that stops before ranking shares, in response order. */
export function unrankedFields(e: EarlyStatus) {
  return { data_credits: [], status: e.status, considered: NOTHING_CONSIDERED, message: e.message, facts_hint: e.facts_hint };
}

/**
 * A status that answers without looking at any spot, or null to go on: a `conditions_only` region
 * goes on, so that its answer can say which rules exclude which spots before it declines to rank.
 */
export function earlyStatus(ctx: Pick<ServiceContext, "links">, q: DecisionQuery, dest: Destination): EarlyStatus | null {
  if (q.activity.model === "unsupported") {
    if (!dest.covered) {
      // Surf at a place outside coverage: say it is uncovered before pointing at a spot far away.
      const n = dest.nearest;
      const where = `${dest.point.lat}, ${dest.point.lon} is outside coverage: the nearest covered spot is ${n.spot.name} (${n.spot.region.name}), ${roundKm(n.distanceKm)} km away.`;
      return {
        status: "activity_not_modeled",
        message: `${q.activity.label} is not ranked, and ${where} Swell, wind and tide facts for covered spots come from the get_conditions tool or the conditions endpoint.`,
        facts_hint: {
          endpoint: ctx.links.conditions(n.spot.id),
          tool: "get_conditions",
          message: `${where} Call get_conditions with spot "${n.spot.id}" only if that spot is useful to you.`,
        },
      };
    }
    const spot = dest.candidates[0]?.spot ?? dest.region.spots[0]!;
    return {
      status: "activity_not_modeled",
      message: `${q.activity.label} is not ranked. Swell, wind and tide facts for every covered spot come from the get_conditions tool or the conditions endpoint.`,
      facts_hint: {
        endpoint: ctx.links.conditions(spot.id),
        tool: "get_conditions",
        message: `Call get_conditions with spot "${spot.id}" (or any covered spot) for swell, wind and tide by 3-hour period.`,
      },
    };
  }
  if (!dest.covered) {
    const n = dest.nearest;
    return {
      status: "not_covered",
      message: `No covered spot within range of ${dest.point.lat}, ${dest.point.lon}. The nearest covered spot is ${n.spot.name} (${n.spot.region.name}), ${roundKm(n.distanceKm)} km away.`,
      facts_hint: null,
    };
  }
  return null;
}
