// The one habitat rule: which scope of published visibility figure may calibrate which kind of spot
// (docs/model.md, "Calibration"). A spot's habitat follows from its catalogue record (depth, bottom,
// shelter, runoff); a reference's scope is what water its figure describes. A page about the spot
// itself (`site`) always fits; an island-wide figure does not describe a sandy lagoon, and a dive
// centre's average over its walls and passes describes neither a lagoon nor a shallow reef flat.
import type { ReferenceScope, SpotRecord } from "./schema.js";

export const SPOT_HABITATS = ["open", "shallow", "lagoon", "turbid"] as const;
export type SpotHabitat = (typeof SPOT_HABITATS)[number];

/** Typical depth (m) at or below which a spot is shallow water: swell and bathers stir its bottom. */
export const SHALLOW_MAX_M = 6;
/** Runoff at or above which rain and streams decide the water (a harbour, a river mouth). */
export const TURBID_MIN_RUNOFF = 0.5;
/** Swell exposure at or below which a shallow mixed bottom counts as sheltered lagoon water. */
export const SHELTERED_MAX_EXPOSURE = 0.3;

/** What a spot's water is, from its record. */
export function habitatOf(spot: Pick<SpotRecord, "typical_depth_m" | "bottom" | "runoff" | "swell_exposure">): SpotHabitat {
  if (spot.runoff >= TURBID_MIN_RUNOFF) return "turbid";
  if (spot.typical_depth_m <= SHALLOW_MAX_M) {
    if (spot.bottom === "sand" || (spot.bottom === "mixed" && spot.swell_exposure <= SHELTERED_MAX_EXPOSURE)) return "lagoon";
    return "shallow";
  }
  return "open";
}

export const HABITAT_WORDS: Record<SpotHabitat, string> = {
  open: `open water deeper than ${SHALLOW_MAX_M} m`,
  shallow: `a shallow reef or rock bottom (${SHALLOW_MAX_M} m or less)`,
  lagoon: `a shallow sandy or sheltered lagoon bottom (${SHALLOW_MAX_M} m or less)`,
  turbid: "water that runoff decides (a harbour, a stream mouth)",
};

/** Which spot habitats a figure of each scope may calibrate. */
export const HABITAT_FITS: Record<ReferenceScope, readonly SpotHabitat[]> = {
  bay: ["open", "shallow", "lagoon", "turbid"],
  coast: ["open", "shallow"],
  outer_reef: ["open"],
  centre: ["open"],
  elsewhere: [],
};

export const SCOPE_WORDS: Record<ReferenceScope, string> = {
  bay: "the bay, cove or lagoon the spot lies in",
  coast: "an island's or a coast's reefs as a whole",
  outer_reef: "outer reefs, walls and passes",
  centre: "a dive centre's average over its sites",
  elsewhere: "another place",
};

/** Whether a reference of this scope describes water like the spot's; a `site` page (no scope) always does. */
export function scopeFits(scope: ReferenceScope | undefined, habitat: SpotHabitat): boolean {
  return scope === undefined || HABITAT_FITS[scope].includes(habitat);
}
