// Freshness of the upstream inputs a response used (DESIGN: live < 90 min, recent < 6 h,
// aging < 24 h, stale older, none = no upstream input at all), and the decision-layer factor for each.
import type { Origin } from "./types.js";

export const FRESHNESS_LEVELS = [
  { id: "live", maxAgeMs: 90 * 60_000, factor: 1.0 },
  { id: "recent", maxAgeMs: 6 * 3_600_000, factor: 0.9 },
  { id: "aging", maxAgeMs: 24 * 3_600_000, factor: 0.8 },
  { id: "stale", maxAgeMs: Number.POSITIVE_INFINITY, factor: 0.7 },
  { id: "none", maxAgeMs: Number.NaN, factor: 0.6 },
] as const;

export type Freshness = (typeof FRESHNESS_LEVELS)[number]["id"];
export const FRESHNESS_IDS = FRESHNESS_LEVELS.map((f) => f.id) as [Freshness, ...Freshness[]];

/** Freshness from the oldest fetch among the upstream forecast origins used (not embedded norms, not dated observations). */
export function freshnessOf(origins: Iterable<Origin>, now: Date): Freshness {
  let oldest: number | null = null;
  for (const o of origins) {
    if (o.climatology || o.observation || o.fetchedAt === null) continue;
    const t = o.fetchedAt.getTime();
    if (oldest === null || t < oldest) oldest = t;
  }
  if (oldest === null) return "none";
  const age = now.getTime() - oldest;
  return FRESHNESS_LEVELS.find((f) => age < f.maxAgeMs)?.id ?? "stale";
}

export function freshnessFactor(f: Freshness): number {
  return FRESHNESS_LEVELS.find((l) => l.id === f)!.factor;
}
