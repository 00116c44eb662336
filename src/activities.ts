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
}

export const ACTIVITIES: readonly Activity[] = [
  {
    id: "snorkel",
    label: "Snorkeling",
    model: "native",
    note: "Ranked spots and best day; the score is calibrated for snorkeling.",
    activityFit: 1.0,
  },
  {
    id: "dive",
    label: "Scuba diving",
    model: "proxy",
    note: "Shared score; ties break on visibility. Conditions at depth (current, thermocline) are not scored.",
    activityFit: 0.85,
  },
  {
    id: "freedive",
    label: "Freediving",
    model: "proxy",
    note: "Shared score; ties break on visibility, then calm wind. Depth, current and thermocline are not scored.",
    activityFit: 0.85,
  },
  {
    id: "spearfish",
    label: "Spearfishing",
    model: "proxy",
    note: "Shared score and visibility. Spots inside marine areas closed to spearfishing are excluded; seasons and bag limits are not modelled.",
    activityFit: 0.85,
  },
  {
    id: "surf",
    label: "Surfing",
    model: "unsupported",
    note: "Not ranked. Swell, wind and tide facts are available from the conditions endpoint and the get_conditions tool.",
    activityFit: 0,
  },
];

export function activity(id: ActivityId): Activity {
  return ACTIVITIES.find((a) => a.id === id)!;
}

export function isActivityId(s: string): s is ActivityId {
  return (ACTIVITY_IDS as readonly string[]).includes(s);
}
