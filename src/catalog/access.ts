// Venue access from the catalogue (spot `access`): whether a spot is closed on a spot-local date
// (weekday and seasonal closures), and the reservations and permits a visitor needs. Closed spots are
// excluded from decisions as `closed_on_date`; reservations and permits travel with picks as caveats.
import type { RankedActivity } from "./schema.js";
import { WEEKDAYS, type AccessRule } from "./schema.js";

/** How a closure is said beside a score (a period's why, a page's "Now" box, a card): one wording everywhere. */
export const CLOSED_ON_DATE = "Closed on this date";

type Closure = Extract<AccessRule, { kind: "closed_weekdays" | "closed_season" }>;
type Requirement = Extract<AccessRule, { kind: "reservation" | "permit" }>;

/** The rule that closes the spot on `date` (YYYY-MM-DD, spot-local), or null when it is open. */
export function closureOn(access: readonly AccessRule[], date: string): Closure | null {
  // Most spots have no access rules: no date to read.
  if (access.length === 0) return null;
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const weekday = WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]!;
  const monthDay = date.slice(5);
  for (const rule of access) {
    if (rule.kind === "closed_weekdays" && rule.weekdays.includes(weekday)) return rule;
    if (rule.kind === "closed_season" && inSeason(monthDay, rule.from, rule.to)) return rule;
  }
  return null;
}

/** Reservations and permits that apply to the activity (all of them when the activity is unranked). */
export function requirementsFor(access: readonly AccessRule[], activity: RankedActivity | null): Requirement[] {
  return access.filter((r): r is Requirement => (r.kind === "reservation" || r.kind === "permit") && (activity === null || !r.activities || r.activities.includes(activity)));
}

/** Inclusive MM-DD window; a window whose start is after its end runs across the new year. */
function inSeason(monthDay: string, from: string, to: string): boolean {
  return from <= to ? monthDay >= from && monthDay <= to : monthDay >= from || monthDay <= to;
}
