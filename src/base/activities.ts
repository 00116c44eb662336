// Activities and how each is modelled (spec section 1). The decision layer reads `model`,
// `activityFit` and `tieBreak` from here; coverage publishes the rest.

export const ACTIVITY_IDS = ["snorkel", "dive", "freedive", "spearfish", "surf"] as const;
export type ActivityId = (typeof ACTIVITY_IDS)[number];

export interface Activity {
  id: ActivityId;
  label: string;
  model: "native" | "proxy" | "unsupported";
  note: string;
  /** Decision-layer confidence factor: 1.0 native, 0.85 proxy. */
  activityFit: number;
  /** What breaks a tie in score, in order (spec decisions rule 3). */
  tieBreak: readonly TieBreak[];
  /** For proxy models: what the shared score leaves out, said on every pick. */
  notScored: string | null;
  /**
   * Done on one breath (freediving, spearfishing): spots deeper than a recreational breath-hold
   * dive reaches are excluded (src/decisions/suitability.ts).
   */
  breathHold: boolean;
}

/** calmer_surface: less swell, then less wind; clearer_water: more visibility; calm_wind: less wind. */
export type TieBreak = "calmer_surface" | "clearer_water" | "calm_wind";

/**
 * Deepest typical depth, metres, at which a spot is judged for a breath-hold activity: what an
 * experienced recreational freediver or spearfisher reaches on a dive of about a minute. Dives "of
 * approximately 1 minute and 15 or 20 meters" are the usual ones for the average experienced
 * spearfisher (Wikipedia, Spearfishing: https://en.wikipedia.org/w/index.php?oldid=71155094&title=Spearfishing);
 * PADI's freediving standards stop the entry Freediver course at 16 m and ask an Advanced Freediver
 * for a 20 m constant-weight dive, within a 24 m course limit
 * (https://crystalfreediving.com/2018/05/18/padi-freediving-key-standards/). A spot whose typical
 * depth is deeper is a scuba site for these activities (src/decisions/suitability.ts).
 */
export const BREATH_HOLD_DEPTH_M = 20;

export const ACTIVITIES: readonly Activity[] = [
  {
    id: "snorkel",
    label: "Snorkeling",
    model: "native",
    note: "The score is made for snorkeling; spots are ranked only where their typical visibility is calibrated to published figures.",
    activityFit: 1.0,
    tieBreak: ["calmer_surface"],
    notScored: null,
    breathHold: false,
  },
  {
    id: "dive",
    label: "Scuba diving",
    model: "proxy",
    note: "Shared score; ties break on visibility. Conditions at depth (current, thermocline) are not scored.",
    activityFit: 0.85,
    tieBreak: ["clearer_water", "calmer_surface"],
    notScored: "Conditions at depth (current, thermocline) are not scored",
    breathHold: false,
  },
  {
    id: "freedive",
    label: "Freediving",
    model: "proxy",
    note: `Shared score; ties break on visibility, then calm wind. Spots typically deeper than ${BREATH_HOLD_DEPTH_M} m, beyond a recreational breath-hold dive, are excluded; depth, current and thermocline are not scored.`,
    activityFit: 0.85,
    tieBreak: ["clearer_water", "calm_wind"],
    notScored: "Depth, current and thermocline are not scored",
    breathHold: true,
  },
  {
    id: "spearfish",
    label: "Spearfishing",
    model: "proxy",
    note: `Shared score and visibility. Spots inside marine areas closed to spearfishing, and spots typically deeper than ${BREATH_HOLD_DEPTH_M} m (beyond a recreational breath-hold dive), are excluded; seasons and bag limits are not modelled.`,
    activityFit: 0.85,
    tieBreak: ["clearer_water", "calmer_surface"],
    notScored: "Fish activity, seasons, bag limits, current and thermocline are not scored",
    breathHold: true,
  },
  {
    id: "surf",
    label: "Surfing",
    model: "unsupported",
    note: "Not ranked. Swell, wind and tide facts are available from the conditions endpoint and the get_conditions tool.",
    activityFit: 0,
    tieBreak: [],
    notScored: null,
    breathHold: false,
  },
];

export function activity(id: ActivityId): Activity {
  return ACTIVITIES.find((a) => a.id === id)!;
}

export function isActivityId(s: string): s is ActivityId {
  return (ACTIVITY_IDS as readonly string[]).includes(s);
}
