import { readFileSync } from "node:fs";
import { stationsById } from "@neaps/tide-database";
import { describe, expect, it } from "vitest";
import { HarmonicTideSource, tideHeightAt, tideStateAt, type TideStationRecord } from "../src/sources/tides.js";
import type { TideEvent } from "../src/sources/types.js";

const FT_PER_M = 1 / 0.3048;
const fixture = JSON.parse(readFileSync(new URL("./fixtures/noaa-hilo.json", import.meta.url), "utf8")) as {
  stations: { station: string; name: string; official: { time: string; height_m: number; type: "high" | "low" }[] }[];
};

describe("harmonic tides against official NOAA high/low predictions", () => {
  const stations = new Map(fixture.stations.map((s) => [s.station, stationsById.get(s.station) as unknown as TideStationRecord]));
  const source = new HarmonicTideSource(stations);

  // Strict for Kamalo Harbor (Hawaiʻi) and Nurse Channel; Friday Harbor's large mixed tide is
  // reported against a looser height bound (measured worst case 0.114 ft).
  const tolerances: Record<string, { minutes: number; feet: number }> = {
    "noaa/1613077": { minutes: 10, feet: 0.1 },
    "noaa/TEC4635": { minutes: 10, feet: 0.1 },
    "noaa/9449880": { minutes: 10, feet: 0.15 },
  };

  for (const st of fixture.stations) {
    it(`${st.name}: every high and low within ${tolerances[st.station]!.minutes} min and ${tolerances[st.station]!.feet} ft`, () => {
      const series = source.extremesSync(st.station, new Date("2026-07-14T22:00:00Z"), new Date("2026-07-18T00:00:00Z"))!;
      expect(series.events.length).toBe(st.official.length);
      for (const o of st.official) {
        const t = new Date(o.time).getTime();
        const nearest = series.events.reduce((a, b) => (Math.abs(b.time.getTime() - t) < Math.abs(a.time.getTime() - t) ? b : a));
        expect(nearest.type).toBe(o.type);
        expect(Math.abs(nearest.time.getTime() - t) / 60_000).toBeLessThanOrEqual(tolerances[st.station]!.minutes);
        expect(Math.abs(nearest.heightFt - o.height_m * FT_PER_M)).toBeLessThanOrEqual(tolerances[st.station]!.feet);
      }
    });
  }

  it("returns nothing for a station it does not have", () => {
    expect(source.extremesSync("noaa/0000000", new Date(), new Date())).toBeNull();
  });
});

describe("reading heights and states off a high/low table", () => {
  const ev = (type: "high" | "low", iso: string, heightFt: number): TideEvent => ({ type, time: new Date(iso), heightFt });
  const events = [ev("low", "2026-11-21T00:00:00Z", 0), ev("high", "2026-11-21T06:00:00Z", 2), ev("low", "2026-11-21T12:00:00Z", 0.4)];

  it("interpolates by cosine between extremes", () => {
    expect(tideHeightAt(events, new Date("2026-11-21T00:00:00Z"))).toBeCloseTo(0, 6);
    expect(tideHeightAt(events, new Date("2026-11-21T03:00:00Z"))).toBeCloseTo(1, 6);
    expect(tideHeightAt(events, new Date("2026-11-21T06:00:00Z"))).toBeCloseTo(2, 6);
    expect(tideHeightAt(events, new Date("2026-11-21T09:00:00Z"))).toBeCloseTo(1.2, 6);
    expect(tideHeightAt(events, new Date("2026-11-20T23:00:00Z"))).toBeNull();
  });
  it("calls the tide high or low within an hour of an extreme, else rising or falling", () => {
    expect(tideStateAt(events, new Date("2026-11-21T00:30:00Z"))).toBe("low");
    expect(tideStateAt(events, new Date("2026-11-21T03:00:00Z"))).toBe("rising");
    expect(tideStateAt(events, new Date("2026-11-21T05:10:00Z"))).toBe("high");
    expect(tideStateAt(events, new Date("2026-11-21T06:59:00Z"))).toBe("high");
    expect(tideStateAt(events, new Date("2026-11-21T09:00:00Z"))).toBe("falling");
    expect(tideStateAt(events, new Date("2026-11-21T13:00:00Z"))).toBeNull();
  });
});
