// Whether a spot suits an activity: the catalogue's judgement (a spot's `unsuited` entry) and the
// breath-hold depth rule, which covers every spot so a deep wreck never becomes a freediving or
// spearfishing pick for want of a hand-written entry. src/decisions/evaluate.ts applies them in
// order: the judgement, then spearfishing closures (the law says more than the depth), then depth.
import { BREATH_HOLD_DEPTH_M, type Activity } from "../base/activities.js";
import type { SpotRecord, UNSUITED_REASONS } from "../catalog/schema.js";
import { formatDepth } from "../model/format.js";

export interface Unsuitability {
  reason: (typeof UNSUITED_REASONS)[number];
  note: string;
}

/**
 * "Typical depth 85 ft (26 m): beyond the 66 ft (20 m) recreational breath-hold range." when a
 * breath-hold activity meets a spot whose typical depth is past BREATH_HOLD_DEPTH_M; otherwise null.
 */
export function breathHoldDepthNote(spot: Pick<SpotRecord, "typical_depth_m">, activity: Pick<Activity, "breathHold">): string | null {
  if (!activity.breathHold || spot.typical_depth_m <= BREATH_HOLD_DEPTH_M) return null;
  return `Typical depth ${formatDepth(spot.typical_depth_m)}: beyond the ${formatDepth(BREATH_HOLD_DEPTH_M)} recreational breath-hold range.`;
}

/**
 * The catalogue's judgement that a spot does not suit the activity (a harbour's traffic, a
 * submarine's route), or null. It keeps its reason; when the spot is also past the breath-hold range
 * and the reason is another, the note says the depth as well.
 */
export function judgedUnsuitability(spot: Pick<SpotRecord, "typical_depth_m" | "unsuited">, activity: Pick<Activity, "id" | "breathHold">): Unsuitability | null {
  const judged = activity.id === "surf" ? undefined : spot.unsuited[activity.id];
  if (!judged) return null;
  const tooDeep = breathHoldDepthNote(spot, activity);
  return { reason: judged.reason, note: tooDeep && judged.reason !== "unsuited_depth" ? `${judged.note} ${tooDeep}` : judged.note };
}

/** The breath-hold depth rule as an exclusion (`unsuited_depth`, the depth named), or null. */
export function depthUnsuitability(spot: Pick<SpotRecord, "typical_depth_m">, activity: Pick<Activity, "breathHold">): Unsuitability | null {
  const note = breathHoldDepthNote(spot, activity);
  return note === null ? null : { reason: "unsuited_depth", note };
}
