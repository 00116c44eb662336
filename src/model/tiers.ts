// Rating tiers (spec section 4 conventions and the SpotCard colours): the one place they live.

export const TIERS = [
  { id: "excellent", min: 80, label: "Excellent", color: "#09A1FB" },
  { id: "great", min: 60, label: "Great", color: "#27D667" },
  { id: "good", min: 40, label: "Good", color: "#FFD321" },
  { id: "fair", min: 20, label: "Fair", color: "#FF9D25" },
  { id: "no-go", min: 0, label: "No-go", color: "#F73726" },
] as const;

export type Tier = (typeof TIERS)[number];
export type Rating = Tier["id"];
export const RATINGS = TIERS.map((t) => t.id) as [Rating, ...Rating[]];

/** Colour shown when there is no score (unknown conditions). */
export const NO_DATA_COLOR = "#8A94A6";

export function tierFor(score: number): Tier {
  return TIERS.find((t) => score >= t.min) ?? TIERS[TIERS.length - 1]!;
}

export function ratingFor(score: number | null): Rating | null {
  return score === null ? null : tierFor(score).id;
}

export function tierById(id: Rating): Tier {
  return TIERS.find((t) => t.id === id)!;
}
