import { describe, expect, it } from "vitest";
import { periodSlots } from "../src/model/periods.js";
import { Catalog } from "../src/catalog/catalog.js";
import { addDays, dateLabel, daysBetween, intlOffsetMinutes, isKnownTimeZone, isoWithOffset, isValidDate, localDate, offsetMinutes, zonedInstant, zoneTable } from "../src/base/zone.js";

const H = 3_600_000;

describe("offsets and local dates", () => {
  it.each([
    ["Pacific/Honolulu", "2026-11-21T19:00:00Z", -600],
    ["America/Los_Angeles", "2026-11-21T19:00:00Z", -480],
    ["America/Los_Angeles", "2026-07-01T19:00:00Z", -420],
    ["Australia/Sydney", "2026-11-21T19:00:00Z", 660],
    ["Australia/Sydney", "2026-07-01T19:00:00Z", 600],
    ["America/Cancun", "2026-11-21T19:00:00Z", -300],
  ])("%s at %s is UTC%s min", (tz, at, off) => {
    expect(offsetMinutes(new Date(at), tz)).toBe(off);
  });

  it("gives each zone its own calendar date for one instant", () => {
    const t = new Date("2026-11-21T19:00:00Z");
    expect(localDate(t, "Pacific/Honolulu")).toBe("2026-11-21");
    expect(localDate(t, "Australia/Sydney")).toBe("2026-11-22");
  });

  it("writes ISO date-times with the zone's offset", () => {
    expect(isoWithOffset(new Date("2026-11-21T19:00:00Z"), "Pacific/Honolulu")).toBe("2026-11-21T09:00:00-10:00");
    expect(isoWithOffset(new Date("2026-11-21T19:00:00Z"), "Australia/Sydney")).toBe("2026-11-22T06:00:00+11:00");
  });
});

describe("zonedInstant across DST", () => {
  it("maps wall-clock hours to instants", () => {
    expect(zonedInstant("2026-11-21", 6, "Pacific/Honolulu").toISOString()).toBe("2026-11-21T16:00:00.000Z");
    expect(zonedInstant("2026-11-22", 0, "Australia/Sydney").toISOString()).toBe("2026-11-21T13:00:00.000Z");
  });
  it("moves a spring-forward gap hour to just after the gap", () => {
    // 2026-03-08 02:00 does not exist in Los Angeles; 03:00 PDT is 10:00Z.
    expect(zonedInstant("2026-03-08", 2, "America/Los_Angeles").toISOString()).toBe("2026-03-08T10:00:00.000Z");
    expect(zonedInstant("2026-03-08", 3, "America/Los_Angeles").toISOString()).toBe("2026-03-08T10:00:00.000Z");
  });
  it("takes the earlier instant in a fall-back overlap", () => {
    // 2026-11-01 01:00 happens twice in Los Angeles: 08:00Z (PDT) and 09:00Z (PST).
    expect(zonedInstant("2026-11-01", 1, "America/Los_Angeles").toISOString()).toBe("2026-11-01T08:00:00.000Z");
  });
});

describe("period grid", () => {
  const lengths = (date: string, tz: string) => periodSlots(date, 1, tz).map((s) => (s.end.getTime() - s.start.getTime()) / H);

  it("has eight 3-hour blocks on an ordinary day, starting on local 00, 03 … 21", () => {
    const slots = periodSlots("2026-11-21", 1, "Pacific/Honolulu");
    expect(slots.map((s) => s.startHour)).toEqual([0, 3, 6, 9, 12, 15, 18, 21]);
    expect(lengths("2026-11-21", "Pacific/Honolulu")).toEqual([3, 3, 3, 3, 3, 3, 3, 3]);
    expect(slots.map((s) => isoWithOffset(s.start, "Pacific/Honolulu").slice(11, 16))).toEqual(["00:00", "03:00", "06:00", "09:00", "12:00", "15:00", "18:00", "21:00"]);
  });
  it("has a 2-hour block when clocks spring forward and a 4-hour block when they fall back", () => {
    expect(lengths("2026-03-08", "America/Los_Angeles")).toEqual([2, 3, 3, 3, 3, 3, 3, 3]);
    expect(lengths("2026-11-01", "America/Los_Angeles")).toEqual([4, 3, 3, 3, 3, 3, 3, 3]);
    // Sydney (southern hemisphere): DST starts 2026-10-04 02:00, ends 2026-04-05 03:00.
    expect(lengths("2026-10-04", "Australia/Sydney")).toEqual([2, 3, 3, 3, 3, 3, 3, 3]);
    expect(lengths("2026-04-05", "Australia/Sydney")).toEqual([4, 3, 3, 3, 3, 3, 3, 3]);
  });
  it("tiles time without gaps or overlaps across a week with a DST change", () => {
    const slots = periodSlots("2026-10-30", 7, "America/Los_Angeles");
    for (let i = 1; i < slots.length; i++) expect(slots[i]!.start.getTime()).toBe(slots[i - 1]!.end.getTime());
    expect(slots).toHaveLength(56);
  });
  it("builds a zone's grid once and keeps at most 1,001 grids, starting afresh after a thousand more", () => {
    // Distinct first dates make distinct grids; the probe is one grid asked about again and again.
    let n = 0;
    const fresh = () => periodSlots(addDays("2030-01-01", n++), 1, "Pacific/Honolulu");
    const probe = () => periodSlots("2029-06-15", 1, "Pacific/Honolulu");
    let kept = probe();
    fresh();
    expect(probe()).toBe(kept);
    // Earlier tests in this file left some grids: add grids until the store starts afresh, which
    // drops the probe; building it again leaves two grids stored.
    for (let guard = 0; probe() === kept; guard++) {
      expect(guard, "the grid store never starts afresh").toBeLessThan(3000);
      fresh();
    }
    kept = probe();
    let added = 0;
    while (probe() === kept && added < 3000) {
      fresh();
      added++;
    }
    // 2 + 999 = 1,001 grids are kept; the thousandth new one finds the store over 1,000 and clears it.
    expect(added).toBe(1000);
  });
});

describe("calendar dates", () => {
  it.each([
    ["2026-02-28", true],
    ["2026-02-29", false],
    ["2028-02-29", true],
    ["2026-02-30", false],
    ["2026-13-01", false],
    ["2026-1-5", false],
    ["20261121", false],
    ["2026-11-21T00:00", false],
  ])("%s valid: %s", (s, ok) => expect(isValidDate(s)).toBe(ok));

  it("does arithmetic and labels", () => {
    expect(addDays("2026-12-29", 6)).toBe("2027-01-04");
    expect(daysBetween("2026-11-21", "2026-11-27")).toBe(6);
    expect(dateLabel("2026-11-21", "2026-11-21")).toBe("Today");
    expect(dateLabel("2026-11-22", "2026-11-21")).toBe("Tomorrow");
    expect(dateLabel("2026-11-28", "2026-11-21")).toBe("Sat, Nov 28");
    // Weekdays across a leap day, a new year and before 1970.
    for (const [date, label] of [
      ["2024-02-29", "Thu, Feb 29"],
      ["2027-01-04", "Mon, Jan 4"],
      ["2026-12-02", "Wed, Dec 2"],
      ["1969-12-31", "Wed, Dec 31"],
    ])
      expect(dateLabel(date!, "2026-11-21")).toBe(label);
    expect(daysBetween("2024-02-28", "2024-03-01")).toBe(2);
  });
});

describe("the offset table (data/time-zones.json)", () => {
  it("covers every zone of the catalogue, so the service never loads ICU's zone data for them", () => {
    const zones = new Set(Catalog.load().regions.map((r) => r.timezone));
    const missing = [...zones].filter((z) => !zoneTable().zones[z]);
    expect(missing, "run npm run data:zones").toEqual([]);
  });

  it("agrees with this runtime's time-zone rules at every change it lists and every 29 hours in between", () => {
    const { from, until, zones } = zoneTable();
    const disagree: string[] = [];
    for (const [zone, changes] of Object.entries(zones)) {
      const instants: number[] = [];
      for (let i = 2; i < changes.length; i += 2) instants.push(changes[i]! * 60_000 - 60_000, changes[i]! * 60_000);
      for (let t = from; t < until; t += 29 * H) instants.push(t);
      for (const t of instants) {
        const want = intlOffsetMinutes(t, zone);
        if (offsetMinutes(t, zone) !== want) {
          disagree.push(`${zone} at ${new Date(t).toISOString()}: table ${offsetMinutes(t, zone)}, runtime ${want}`);
          break;
        }
      }
    }
    // A runtime with the table's rules or newer ones (a country changed its clocks) fails here:
    // regenerate the table. An older Node (its tz release before the table's) is the one out of
    // date, and the service follows the table, so there the differences are only listed.
    const runtimeTz = process.versions.tz ?? "";
    if (runtimeTz !== "" && runtimeTz < zoneTable().tz) {
      if (disagree.length > 0) console.warn(`tz ${runtimeTz} here is older than the table's ${zoneTable().tz}; they differ at: ${disagree.join("; ")}`);
      return;
    }
    expect(disagree, `the table was written from tz ${zoneTable().tz}, this runtime has ${runtimeTz}: run npm run data:zones`).toEqual([]);
  });

  it("asks Intl for a zone it does not list and for years outside it", () => {
    expect(zoneTable().zones["Europe/Vienna"]).toBeUndefined();
    expect(offsetMinutes(new Date("2026-07-01T12:00:00Z"), "Europe/Vienna")).toBe(120);
    expect(offsetMinutes(new Date("2026-12-01T12:00:00Z"), "Europe/Vienna")).toBe(60);
    expect(isKnownTimeZone("Europe/Vienna")).toBe(true);
    expect(isKnownTimeZone("Mars/Olympus_Mons")).toBe(false);
    // Sydney's daylight time in 2045, beyond the table's years.
    expect(zoneTable().until).toBeLessThan(Date.parse("2045-01-15T00:00:00Z"));
    expect(offsetMinutes(new Date("2045-01-15T00:00:00Z"), "Australia/Sydney")).toBe(660);
    expect(offsetMinutes(new Date("2045-07-15T00:00:00Z"), "Australia/Sydney")).toBe(600);
    // Newfoundland, half an hour off the hour, changes clocks at 05:30 UTC: right on either side.
    expect(offsetMinutes(new Date("2026-03-08T05:29:00Z"), "America/St_Johns")).toBe(-210);
    expect(offsetMinutes(new Date("2026-03-08T05:31:00Z"), "America/St_Johns")).toBe(-150);
  });

  it("refuses an invalid date as Intl does, in a zone the table lists too", () => {
    expect(zoneTable().zones["Pacific/Honolulu"]).toBeDefined();
    expect(() => isoWithOffset(new Date(Number.NaN), "Pacific/Honolulu")).toThrow(RangeError);
  });
});
