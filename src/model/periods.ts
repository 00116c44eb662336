// The period grid: 3-hour blocks aligned to spot-local 00/03/…/21. A DST change makes that day's
// block around the change 2 or 4 hours long; every block still starts on its local hour.
import { DAYLIGHT_FIRST_START_HOUR, DAYLIGHT_LAST_START_HOUR, PERIOD_HOURS } from "../base/limits.js";
import { addDays, isoWithOffset, zonedInstant } from "../base/zone.js";

export interface PeriodSlot {
  /** Spot-local date the block starts on. */
  date: string;
  /** Spot-local hour the block starts at (0, 3, …, 21). */
  startHour: number;
  start: Date;
  end: Date;
  /** `start` and `end` as periods show them (ISO 8601 with the zone's offset), built once per zone. */
  startIso: string;
  endIso: string;
}

// Every spot of a region shares its zone and day: the grid is built once per zone and date.
const slotCache = new Map<string, readonly PeriodSlot[]>();

/** Blocks for each local date from `firstDate` for `days` days, in order (shared: do not mutate). */
export function periodSlots(firstDate: string, days: number, timeZone: string): readonly PeriodSlot[] {
  const key = `${timeZone}|${firstDate}|${days}`;
  const hit = slotCache.get(key);
  if (hit) return hit;
  const slots: PeriodSlot[] = [];
  for (let d = 0; d < days; d++) {
    const date = addDays(firstDate, d);
    for (let startHour = 0; startHour < 24; startHour += PERIOD_HOURS) {
      const start = zonedInstant(date, startHour, timeZone);
      const end = startHour + PERIOD_HOURS < 24 ? zonedInstant(date, startHour + PERIOD_HOURS, timeZone) : zonedInstant(addDays(date, 1), 0, timeZone);
      slots.push({ date, startHour, start, end, startIso: isoWithOffset(start, timeZone), endIso: isoWithOffset(end, timeZone) });
    }
  }
  if (slotCache.size > 1000) slotCache.clear();
  slotCache.set(key, slots);
  return slots;
}

/** Daylight periods are the ones starting 06:00–17:59 local (spec, decisions rule 2). */
export function isDaylightSlot(startHour: number): boolean {
  return startHour >= DAYLIGHT_FIRST_START_HOUR && startHour <= DAYLIGHT_LAST_START_HOUR;
}

/** When the last daylight period of a spot-local date ends: after it, the date has no daylight left to rank. */
export function daylightEnd(date: string, timeZone: string): Date {
  return periodSlots(date, 1, timeZone)
    .filter((s) => isDaylightSlot(s.startHour))
    .at(-1)!.end;
}
