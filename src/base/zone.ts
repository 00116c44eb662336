// Spot-local calendar arithmetic on IANA zones. Dates are "YYYY-MM-DD" strings in the spot's zone;
// instants are Date objects.
//
// A zone's UTC offset comes from data/time-zones.json: every offset change of each catalogue zone
// from 2020 to 2040, written by `npm run data:zones` from this runtime's own time-zone rules (Intl,
// the ICU that Node ships), which the test suite checks it still agrees with. Asking Intl instead
// costs a process about 12 MB of memory (ICU's zone and locale data, and a formatter per zone;
// measured over the catalogue's 34 zones on Node 20) and microseconds per call. A zone the table
// lacks, or an instant outside its years, is asked of Intl.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DAY_MS, HOUR_MS } from "./clock.js";
import { DATA_DIR } from "./paths.js";

/** The offset table as data/time-zones.json holds it. */
export interface ZoneTable {
  /** The IANA time-zone database release the offsets were read from (`process.versions.tz`). */
  tz: string;
  /** The years covered, as instants in ms: [from, until). */
  from: number;
  until: number;
  /** Per zone, its offset changes as pairs: minutes since the epoch, then the offset in minutes from then on. */
  zones: Record<string, number[]>;
}

let table: ZoneTable | undefined;

export function zoneTable(): ZoneTable {
  table ??= JSON.parse(readFileSync(join(DATA_DIR, "time-zones.json"), "utf8")) as ZoneTable;
  return table;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partsFormatters.set(timeZone, f);
  }
  return f;
}

/** UTC offset of `timeZone` at instant `ms` (whole seconds), in minutes, as Intl reads the zone's rules. */
export function intlOffsetMinutes(ms: number, timeZone: string): number {
  const p: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(new Date(ms))) if (part.type !== "literal") p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

// Intl is slow; its answers are kept per zone and quarter hour of UTC (offsets change a few times a
// year, at a whole quarter hour of UTC even where the zone is half an hour off the hour, as
// Newfoundland is; this is only asked for zones and years the table does not cover).
const QUARTER_MS = HOUR_MS / 4;
const offsetCache = new Map<string, Map<number, number>>();

function intlOffsetCached(ms: number, timeZone: string): number {
  const quarter = Math.floor(ms / QUARTER_MS);
  let zone = offsetCache.get(timeZone);
  if (!zone) offsetCache.set(timeZone, (zone = new Map()));
  const cached = zone.get(quarter);
  if (cached !== undefined) return cached;
  const minutes = intlOffsetMinutes(quarter * QUARTER_MS, timeZone);
  if (zone.size > 20_000) zone.clear();
  zone.set(quarter, minutes);
  return minutes;
}

/** UTC offset of `timeZone` at instant `t`, in minutes (e.g. -600 for Honolulu). */
export function offsetMinutes(t: Date | number, timeZone: string): number {
  const ms = typeof t === "number" ? t : t.getTime();
  const { from, until, zones } = zoneTable();
  const changes = zones[timeZone];
  // Outside the table (and an invalid date, which Intl refuses with a RangeError) Intl answers.
  if (!changes || changes.length < 2 || !(ms >= from && ms < until)) return intlOffsetCached(ms, timeZone);
  // The last change at or before this minute (the first pair is the offset at `from`).
  const minute = Math.floor(ms / 60_000);
  let lo = 0;
  let hi = changes.length / 2 - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (changes[2 * mid]! <= minute) lo = mid;
    else hi = mid - 1;
  }
  return changes[2 * lo + 1]!;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

function dateString(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${pad2(month)}-${pad2(day)}`;
}

/** Spot-local calendar date of instant `t`. */
export function localDate(t: Date, timeZone: string): string {
  const shifted = new Date(t.getTime() + offsetMinutes(t, timeZone) * 60_000);
  return dateString(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, shifted.getUTCDate());
}

/** Spot-local hour (0-23) of instant `t`. */
export function localHour(t: Date, timeZone: string): number {
  const shifted = new Date(t.getTime() + offsetMinutes(t, timeZone) * 60_000);
  return shifted.getUTCHours();
}

/** "+HH:MM" / "-HH:MM" for an offset in minutes. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/** ISO 8601 date-time carrying the zone's offset at that instant, e.g. "2026-11-21T06:00:00-10:00". */
export function isoWithOffset(t: Date, timeZone: string): string {
  const off = offsetMinutes(t, timeZone);
  const s = new Date(t.getTime() + off * 60_000);
  return `${dateString(s.getUTCFullYear(), s.getUTCMonth() + 1, s.getUTCDate())}` + `T${pad2(s.getUTCHours())}:${pad2(s.getUTCMinutes())}:${pad2(s.getUTCSeconds())}${formatOffset(off)}`;
}

/** "HH:MM" wall-clock time of `t` in the zone. */
export function localHHMM(t: Date, timeZone: string): string {
  const s = new Date(t.getTime() + offsetMinutes(t, timeZone) * 60_000);
  return `${pad2(s.getUTCHours())}:${pad2(s.getUTCMinutes())}`;
}

/**
 * The instant at which the zone's wall clock reads `date` `hour`:00. In a spring-forward gap the
 * first instant after the gap is returned; in a fall-back overlap, the earlier of the two.
 */
export function zonedInstant(date: string, hour: number, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const wallAsUtc = Date.UTC(y, m - 1, d, hour);
  // Try the offsets in force a day either side of the guess; pick the earliest that maps back exactly.
  const candidates = new Set<number>();
  for (const probe of [wallAsUtc - DAY_MS, wallAsUtc, wallAsUtc + DAY_MS]) {
    candidates.add(offsetMinutes(new Date(probe), timeZone));
  }
  let best: number | null = null;
  for (const off of candidates) {
    const t = wallAsUtc - off * 60_000;
    if (offsetMinutes(new Date(t), timeZone) === off && (best === null || t < best)) best = t;
  }
  if (best !== null) return new Date(best);
  // Gap: the wall time does not exist; use the offset before the gap, which lands just after it.
  const before = offsetMinutes(new Date(wallAsUtc - DAY_MS), timeZone);
  return new Date(wallAsUtc - before * 60_000);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `s` is a real calendar date written YYYY-MM-DD (rejects 2026-02-30). */
export function isValidDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || y < 1900 || y > 2999) return false;
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Calendar arithmetic on YYYY-MM-DD strings. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d) + days * DAY_MS);
  return dateString(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** Whole days from `a` to `b` (b - a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((utcDay(b) - utcDay(a)) / DAY_MS);
}

/** Midnight UTC of a YYYY-MM-DD date, in ms (read by position: every date label and closure reads one). */
function utcDay(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}

/** Month 1-12 of a YYYY-MM-DD date. */
export function monthOf(date: string): number {
  return Number(date.slice(5, 7));
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
// 1970-01-01 was a Thursday.
const WEEKDAY_OF = (date: string) => WEEKDAYS[(((Math.round(utcDay(date) / DAY_MS) + 4) % 7) + 7) % 7]!;

/** "Today", "Tomorrow", or a short label such as "Sat, Nov 28", relative to spot-local `today`. */
export function dateLabel(date: string, today: string): string {
  const diff = daysBetween(today, date);
  if (diff === 0) return "Today";
  if (diff === 1) return "Tomorrow";
  return shortDate(date);
}

/** The absolute short label of a date, e.g. "Sat, Nov 28": what a shared image shows, since "Today" ages. */
export function shortDate(date: string): string {
  return `${WEEKDAY_OF(date)}, ${MONTHS[monthOf(date) - 1]} ${Number(date.slice(8, 10))}`;
}

/** True when the IANA zone is known: in the offset table, or to this runtime's Intl. */
export function isKnownTimeZone(timeZone: string): boolean {
  if (zoneTable().zones[timeZone]) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}
