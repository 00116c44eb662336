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
}

/** calmer_surface: less swell, then less wind; clearer_water: more visibility; calm_wind: less wind. */
export type TieBreak = "calmer_surface" | "clearer_water" | "calm_wind";

export const ACTIVITIES: readonly Activity[] = [
  {
    id: "snorkel",
    label: "Snorkeling",
    model: "native",
    note: "Ranked spots and best day; the score is calibrated for snorkeling.",
    activityFit: 1.0,
    tieBreak: ["calmer_surface"],
    notScored: null,
  },
  {
    id: "dive",
    label: "Scuba diving",
    model: "proxy",
    note: "Shared score; ties break on visibility. Conditions at depth (current, thermocline) are not scored.",
    activityFit: 0.85,
    tieBreak: ["clearer_water", "calmer_surface"],
    notScored: "Conditions at depth (current, thermocline) are not scored",
  },
  {
    id: "freedive",
    label: "Freediving",
    model: "proxy",
    note: "Shared score; ties break on visibility, then calm wind. Depth, current and thermocline are not scored.",
    activityFit: 0.85,
    tieBreak: ["clearer_water", "calm_wind"],
    notScored: "Depth, current and thermocline are not scored",
  },
  {
    id: "spearfish",
    label: "Spearfishing",
    model: "proxy",
    note: "Shared score and visibility. Spots inside marine areas closed to spearfishing are excluded; seasons and bag limits are not modelled.",
    activityFit: 0.85,
    tieBreak: ["clearer_water", "calmer_surface"],
    notScored: "Fish activity, seasons, bag limits, current and thermocline are not scored",
  },
  {
    id: "surf",
    label: "Surfing",
    model: "unsupported",
    note: "Not ranked. Swell, wind and tide facts are available from the conditions endpoint and the get_conditions tool.",
    activityFit: 0,
    tieBreak: [],
    notScored: null,
  },
];

export function activity(id: ActivityId): Activity {
  return ACTIVITIES.find((a) => a.id === id)!;
}

export function isActivityId(s: string): s is ActivityId {
  return (ACTIVITY_IDS as readonly string[]).includes(s);
}
