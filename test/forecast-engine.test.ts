// The forecast engine on inputs built by hand: which hours a period reads, what it does with unknown
// values, where the satellite observation stops counting, which inputs each period credits, and the
// tide events the forecast keeps. The HTTP tests reach the engine only through the embedded data,
// which is complete, gap-free and never satellite-anchored; these cover what live data brings.
import { getPosition } from "suncalc";
import { describe, expect, it } from "vitest";
import { Catalog, type Spot } from "../src/catalog/catalog.js";
import { buildSpotForecast, provenanceOf, type PeriodResult, type SpotForecast } from "../src/forecast/engine.js";
import { UNRANKED_NOTES } from "../src/model/why.js";
import { emptyInputs, NO_ORIGIN, type HourlyInputs, type InputField, type Origin, type TideEvent, type TideSeries } from "../src/sources/types.js";

const HOUR = 3_600_000;
const NOW = new Date("2026-11-21T19:00:00Z"); // 09:00 in Honolulu
const LOOKBACK_H = 76;
const START = new Date(NOW.getTime() - LOOKBACK_H * HOUR);
const HOURS = LOOKBACK_H + 7 * 24 + 26;

const catalog = Catalog.load();
const hanauma = catalog.spot("hanauma-bay")!;
/**
 * Open to the south only, so wind and swell from other quarters are (partly) sheltered; ranked (its
 * level calibrated, in a region published `full`), so no note is appended; and with no closures, so
 * no period's why starts with one (the closure test gives Hanauma Bay its own days back).
 */
const SOUTH_FACING: Spot = {
  ...hanauma,
  exposure: ["S"],
  swell_exposure: 1,
  access: [],
  levelCalibrated: true,
  ranked: true,
  // Three publishers and a ×1.5 range: the level's evidence weighs 1, so the confidence is the inputs' alone.
  band: { ranges: Array.from({ length: 12 }, () => ({ low: 40, high: 60 })), publishers: 3, estimated: false },
  region: { ...hanauma.region, decision_support: "full" },
};

const LIVE: Origin = { id: "test:live", climatology: false, fetchedAt: new Date(NOW.getTime() - 20 * 60_000), credits: [] };
const NORMS: Origin = { id: "climatology:test", climatology: true, fetchedAt: null, credits: [] };
const RAIN: Origin = { id: "test:rain", climatology: false, fetchedAt: new Date(NOW.getTime() - 30 * 60_000), credits: [] };
const SATELLITE: Origin = { id: "test:satellite", climatology: false, fetchedAt: new Date(NOW.getTime() - 6 * HOUR), credits: [], observation: true };

type Value = number | ((h: number) => number);

/** Inputs on the engine's hour grid: calm, clear weather from LIVE unless changed. */
function inputs(over: Partial<Record<InputField, Value>> = {}, origins: Origin[] = [LIVE]): HourlyInputs {
  const inp = emptyInputs(START, HOURS);
  inp.origins = origins;
  const calm: Partial<Record<InputField, Value>> = {
    swell1_height_m: 0.3,
    swell1_period_s: 10,
    swell1_from_deg: 180,
    wind_speed_kt: 5,
    wind_gust_kt: 8,
    wind_from_deg: 180,
    precip_mm: 0,
    cloud_pct: 20,
    water_temp_c: 25,
  };
  for (const [f, v] of Object.entries({ ...calm, ...over }) as [InputField, Value][]) set(inp, f, v, 0);
  return inp;
}

/** Sets a field on every hour (or per hour), from origin index `origin`. */
function set(inp: HourlyInputs, f: InputField, v: Value, origin: number, hours: (h: number) => boolean = () => true): void {
  for (let h = 0; h < inp.hours; h++) {
    if (!hours(h)) continue;
    const x = typeof v === "function" ? v(h) : v;
    inp.values[f][h] = x;
    inp.origin[f][h] = Number.isNaN(x) ? NO_ORIGIN : origin;
  }
}

/** The month's normal conditions: the calm inputs, so a period's factors read as its departure from calm. */
const CALM_NORMAL = inputs();
const build = (inp: HourlyInputs, spot: Spot = SOUTH_FACING, tides: TideSeries | null = null, normal: HourlyInputs | null = CALM_NORMAL): SpotForecast =>
  buildSpotForecast({ spot, inputs: inp, normal, tides, now: NOW });
/** The hour index of an instant on the input grid. */
const idx = (t: Date) => (t.getTime() - START.getTime()) / HOUR;
const hoursOf = (p: PeriodResult) => Array.from({ length: idx(p.end) - idx(p.start) }, (_, i) => idx(p.start) + i);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const r1 = (x: number) => Math.round(x * 10) / 10;

describe("the hours a period reads", () => {
  it("averages wind over the period's own hours, takes its highest gust, and reads no hour of its neighbours", () => {
    const f = build(inputs({ wind_speed_kt: (h) => (h % 50) / 2, wind_gust_kt: (h) => 400 - h, wind_from_deg: (h) => (h * 7) % 360 }));
    expect(f.periods).toHaveLength(7 * 8 - 3); // today from 09:00, then six whole days
    for (const p of f.periods) {
      const hs = hoursOf(p);
      expect(hs.length).toBe(3);
      expect(p.windKt).toBe(r1(mean(hs.map((h) => (h % 50) / 2))));
      // Gusts fall hour by hour: the highest is the period's first hour, not any earlier one.
      expect(p.gustKt).toBe(400 - hs[0]!);
    }
  });

  it("sets a period's wind direction from its own hours only, weighted by wind speed", () => {
    const first = build(inputs()).periods[4]!;
    const own = new Set(hoursOf(first));
    const [a, b, c] = [...own];
    // Inside the period: 20 kt from the east twice, 1 kt from the north once; every other hour from the west.
    const f = build(
      inputs({
        wind_from_deg: (h) => (h === a || h === c ? 90 : h === b ? 0 : 270),
        wind_speed_kt: (h) => (h === b ? 1 : 20),
      }),
    );
    const p = f.periods[4]!;
    // The speed-weighted circular mean of 90°, 90° (20 kt each) and 0° (1 kt): 88.6°. Unweighted it would be 63°.
    expect(p.windFromDeg).toBe(89);
    expect(f.periods[3]!.windFromDeg).toBe(270);
    expect(f.periods[5]!.windFromDeg).toBe(270);
  });

  it("skips unknown hours instead of letting them spoil the period", () => {
    const f0 = build(inputs());
    const p0 = f0.periods[6]!;
    const [a] = hoursOf(p0);
    const gap = (v: number) => (h: number) => (h === a ? Number.NaN : v);
    const f = build(inputs({ wind_speed_kt: (h) => (h === a ? Number.NaN : h % 3 === 0 ? 12 : 6), wind_gust_kt: gap(15), wind_from_deg: gap(200), water_temp_c: gap(24) }));
    const p = f.periods[6]!;
    const rest = hoursOf(p).slice(1);
    expect(p.windKt).toBe(r1(mean(rest.map((h) => (h % 3 === 0 ? 12 : 6)))));
    expect(p.gustKt).toBe(15);
    expect(p.windFromDeg).toBe(200);
    expect(p.waterTempC).toBe(24);
    expect(p.score).not.toBeNull();
  });

  it("rates nothing where swell or wind is unknown, and says which", () => {
    const day2 = (h: number) => h >= idx(NOW) + 24 && h < idx(NOW) + 48;
    const inp = inputs();
    set(inp, "wind_speed_kt", Number.NaN, 0, day2);
    const f = build(inp);
    const dark = f.periods.filter((p) => day2(idx(p.start)));
    expect(dark.length).toBe(8);
    for (const p of dark) {
      expect(p.score).toBeNull();
      expect(p.rating).toBeNull();
      expect(p.windKt).toBeNull();
      expect(p.seasonal).toBe(false);
      expect(p.json.why).toBe("No wind data for this period, so it cannot be rated.");
    }
    const both = inputs();
    set(both, "wind_speed_kt", Number.NaN, 0, day2);
    set(both, "swell1_height_m", Number.NaN, 0, day2);
    expect(build(both).periods.find((p) => day2(idx(p.start)))!.json.why).toBe("No swell and wind data for this period, so it cannot be rated.");
    const swell = inputs();
    set(swell, "swell1_period_s", Number.NaN, 0, day2);
    const q = build(swell).periods.find((p) => day2(idx(p.start)))!;
    expect(q.swellFt).toBeNull();
    expect(q.json.why).toBe("No swell data for this period, so it cannot be rated.");
  });

  it("answers for the current hour as a one-hour nowcast, never a daylight period", () => {
    const f = build(inputs());
    expect(f.nowcast).toMatchObject({ kind: "nowcast", start: NOW, end: new Date(NOW.getTime() + HOUR), daylight: false });
    expect(f.nowcast!.json.start).toBe("2026-11-21T09:00:00-10:00");
    expect(f.nowcast!.json.end).toBe("2026-11-21T10:00:00-10:00");
    expect(f.periods[0]).toMatchObject({ kind: "forecast", startHour: 9, daylight: true });
  });
});

describe("swell and wind as the period shows them", () => {
  it("converts swell height to feet and keeps directions within 0–359°", () => {
    const north: Spot = { ...SOUTH_FACING, exposure: ["N"] };
    const p = build(inputs({ swell1_height_m: 2, swell1_from_deg: 359.7, wind_from_deg: 359.8 }), north).periods[0]!;
    expect(p.json.swell_height_m).toBe(2);
    expect(p.json.swell_height_ft).toBe(6.6);
    expect(p.json.swell_from_deg).toBe(0);
    expect(p.json.wind_from_deg).toBe(0);
    expect(p.json.why).toContain("6.6 ft of N swell");
  });

  it("counts wind 45° off the only open octant as half onshore, like wind from an unknown direction", () => {
    // Exposure weight 0.55 there: halfway between sheltered (0.1) and open (1).
    const strong = { wind_speed_kt: 22, wind_gust_kt: 26 };
    const offset = build(inputs({ ...strong, wind_from_deg: 225 })).periods;
    const unknown = build(inputs({ ...strong, wind_from_deg: Number.NaN })).periods;
    const onshore = build(inputs({ ...strong, wind_from_deg: 180 })).periods;
    for (let i = 0; i < offset.length; i++) {
      expect(offset[i]!.json.visibility_m).toBe(unknown[i]!.json.visibility_m);
      expect(offset[i]!.score).toBe(unknown[i]!.score);
    }
    // Straight onshore wind costs more than that.
    expect(onshore.filter((p, i) => p.json.visibility_m! < offset[i]!.json.visibility_m!).length).toBe(onshore.length);
    expect(onshore[0]!.json.why).toContain("blowing onshore");
  });

  it("calls wind onshore from half onshore up, never when its direction is unknown", () => {
    // 28 kt caps the score, so the sentence names the wind.
    const phrase = (wind_from_deg: number) => build(inputs({ wind_speed_kt: 28, wind_gust_kt: 28, wind_from_deg })).periods[0]!.json.why;
    const lead = / (caps this|is the main limit)/;
    expect(phrase(180)).toMatch(/^28 kt S wind \(near gale\) blowing onshore caps this/);
    expect(phrase(225)).toMatch(new RegExp(`^28 kt SW wind \\(near gale\\) blowing onshore${lead.source}`));
    expect(phrase(0)).toMatch(new RegExp(`^28 kt N wind \\(near gale\\)${lead.source}`));
    expect(phrase(Number.NaN)).toMatch(new RegExp(`^28 kt wind \\(near gale\\)${lead.source}`));
  });

  it("gives visibility in metres as well as feet", () => {
    for (const p of build(inputs({ wind_speed_kt: (h) => h % 30 })).periods) {
      expect(Math.abs(p.json.visibility_m! - p.visFt! * 0.3048)).toBeLessThanOrEqual(0.2);
    }
  });

  it("says after dark only once the sun is more than 0.833° below the horizon", () => {
    // A spot moved west until the sun is just up (0.2–0.8°) at 07:30 local, the middle of the 06:00 period.
    const mid = new Date("2026-11-23T17:30:00Z");
    let lon = -157.7;
    while (getPosition(mid, hanauma.lat, lon).altitude * (180 / Math.PI) > 0.5) lon -= 0.01;
    const altitude = getPosition(mid, hanauma.lat, lon).altitude * (180 / Math.PI);
    expect(altitude).toBeGreaterThan(0.2);
    expect(altitude).toBeLessThan(0.8);
    const dawn = build(inputs(), { ...SOUTH_FACING, lon }).periods.find((p) => p.start.getTime() === mid.getTime() - 90 * 60_000)!;
    expect(dawn.json.why).not.toMatch(/after dark/i);
    const before = build(inputs(), { ...SOUTH_FACING, lon: lon - 1 }).periods.find((p) => p.start.getTime() === mid.getTime() - 90 * 60_000)!;
    expect(before.json.why).toMatch(/^After dark: /);
  });

  it("says after dark for night periods and notes regions whose model is uncalibrated", () => {
    const f = build(inputs({ wind_speed_kt: 30, wind_gust_kt: 40 }));
    const night = f.periods.find((p) => p.startHour === 21)!;
    expect(night.json.why).toMatch(/^After dark: /);
    expect(f.periods[0]!.json.why).not.toContain("fter dark");
    expect(f.periods[0]!.json.why).not.toContain("not yet calibrated");
    expect(f.periods[0]!.json.why).not.toContain("not ranked");
    // Not ranked because its own level is an estimate, or because its region is not ranked yet.
    const estimated: Spot = { ...SOUTH_FACING, levelCalibrated: false, ranked: false };
    expect(build(inputs(), estimated).periods[0]!.json.why).toContain(UNRANKED_NOTES.spot);
    const unrankedRegion: Spot = { ...SOUTH_FACING, ranked: false, region: { ...hanauma.region, decision_support: "conditions_only" } };
    expect(build(inputs(), unrankedRegion).periods[0]!.json.why).toContain(UNRANKED_NOTES.region);
  });

  it("starts every period of a closed day with the closure, and no other day's", () => {
    // Hanauma Bay closes on Mondays and Tuesdays; the forecast starts on a Saturday.
    const f = build(inputs(), { ...SOUTH_FACING, access: hanauma.access });
    const days = new Map<string, string[]>();
    for (const p of f.periods) days.set(p.date, [...(days.get(p.date) ?? []), p.json.why ?? ""]);
    const closed = [...days].filter(([, whys]) => whys.every((w) => w.startsWith("Closed on this date: Hanauma Bay Nature Preserve is closed all day on Mondays and Tuesdays.")));
    const open = [...days].filter(([, whys]) => whys.every((w) => !w.includes("Closed on this date")));
    expect(closed.map(([d]) => new Date(`${d}T12:00:00Z`).getUTCDay()).sort()).toEqual([1, 2]);
    expect(closed.length + open.length).toBe(days.size);
  });
});

describe("where the numbers come from", () => {
  it("credits each period with exactly the inputs it read, rain memory included, in index order", () => {
    const inp = inputs({}, [LIVE, NORMS, RAIN]);
    set(inp, "precip_mm", Number.NaN, 0);
    const p = build(inputs()).periods[10]!;
    const midIdx = Math.floor(idx(new Date((p.start.getTime() + p.end.getTime()) / 2)));
    // Rain fell from RAIN 71 h before the period's middle hour, and in that very hour; none known otherwise.
    set(inp, "precip_mm", 2, 2, (h) => h === midIdx - 71 || h === midIdx);
    // Swell from norms (index 1) is read before wind from LIVE (index 0).
    set(inp, "swell1_height_m", 0.3, 1);
    const f = build(inp);
    expect(f.periods[10]!.origins).toEqual([0, 1, 2]);
    // 72 h after the first shower only the later one is remembered; a period before either none.
    const later = f.periods.find((q) => Math.floor(idx(new Date((q.start.getTime() + q.end.getTime()) / 2))) - midIdx >= 72)!;
    expect(later.origins).toEqual([0, 1]);
    // The shower in the period's middle hour alone is credited too.
    const only = inputs({}, [LIVE, NORMS, RAIN]);
    set(only, "precip_mm", Number.NaN, 0);
    set(only, "precip_mm", 2, 2, (h) => h === midIdx);
    expect(build(only).periods[10]!.origins).toEqual([0, 2]);
    expect(f.periods.every((q) => q.origins.every((i) => i >= 0 && i < 3))).toBe(true);
  });

  it("credits a period past the end of the inputs with the rain it remembers, once", () => {
    const short = emptyInputs(START, LOOKBACK_H + 48);
    short.origins = [LIVE];
    set(short, "precip_mm", 0, 0);
    const past = build(short).periods.filter((q) => idx(q.start) >= LOOKBACK_H + 48);
    expect(past.length).toBeGreaterThan(0);
    for (const q of past) expect(q).toMatchObject({ score: null, origins: [0] });
  });

  it("credits nothing to a period no input reached", () => {
    const inp = inputs();
    for (const field of Object.keys(inp.values) as InputField[]) set(inp, field, Number.NaN, 0, (h) => h >= idx(NOW) + 48);
    const f = build(inp);
    const last = f.periods[f.periods.length - 1]!;
    expect(last.origins).toEqual([]);
    expect(last.score).toBeNull();
    expect(last.seasonal).toBe(false);
  });

  it("marks a period seasonal when any input it was scored on is a seasonal norm, and says so", () => {
    const inp = inputs({}, [LIVE, NORMS]);
    set(inp, "swell1_height_m", 0.3, 1, (h) => h >= idx(NOW) + 24);
    const f = build(inp);
    const live = f.periods[0]!;
    const seasonal = f.periods.find((p) => p.date === "2026-11-23")!;
    expect(live).toMatchObject({ seasonal: false, confidence: 0.6, visibilitySource: "heuristic" });
    expect(live.json.why).toMatch(/Visibility: the spot's typical level, moved by swell, wind and rain against the month's normal\.$/);
    expect(seasonal).toMatchObject({ seasonal: true, confidence: 0.35 });
    expect(seasonal.json.why).toMatch(/^Seasonal norms?, typical for /i);
    expect(seasonal.json.why).toContain("Seasonal norms, not a live forecast.");
    const prov = provenanceOf(f, f.periods);
    expect(prov.sources).toEqual(["test:live", "climatology:test", "suncalc"]);
    // An unrated period is not a seasonal score, whatever it read.
    set(inp, "wind_speed_kt", Number.NaN, 0, (h) => h >= idx(NOW) + 24);
    const unrated = build(inp).periods.find((p) => p.date === "2026-11-23")!;
    expect(unrated).toMatchObject({ score: null, seasonal: false });
    expect(provenanceOf(f, [live]).sources).toEqual(["test:live", "suncalc"]);
  });

  it("lists a forecast's sources in index order whichever period read them first", () => {
    const inp = inputs({}, [LIVE, NORMS]);
    // The first days read only norms, the later ones only LIVE.
    for (const field of Object.keys(inp.values) as InputField[]) {
      const v = inp.values[field];
      set(
        inp,
        field,
        (h) => v[h]!,
        1,
        (h) => h < idx(NOW) + 48,
      );
    }
    const f = build(inp);
    expect(f.periods[0]!.origins).toEqual([1]);
    expect(provenanceOf(f, f.periods).sources).toEqual(["test:live", "climatology:test", "suncalc"]);
  });
});

describe("a satellite observation", () => {
  const kd490 = 0.05;
  const withSatellite = (ageH: number, origins: Origin[] = [LIVE, SATELLITE]) => {
    const inp = inputs({}, origins);
    inp.satellite = { kd490, observedAt: new Date(NOW.getTime() - ageH * HOUR), pixels: 9, origin: SATELLITE };
    return inp;
  };
  const ageAt = (ageH: number, p: PeriodResult) => ageH + ((p.start.getTime() + p.end.getTime()) / 2 - NOW.getTime()) / HOUR;
  // docs/model.md: confidence 0.6 + 0.3 × the observation's weight relative to a fresh one, decaying over 8 days.
  const expected = (age: number) => Math.round((0.6 + 0.3 * Math.exp(-age / (8 * 24))) * 100) / 100;

  it("anchors every period, with confidence falling as the observation ages into the forecast, and is credited", () => {
    const f = build(withSatellite(24));
    expect(f.satelliteAgeH).toBe(24);
    for (const p of [...f.periods, f.nowcast!]) {
      expect(p.visibilitySource).toBe("satellite");
      expect(p.confidence).toBe(expected(ageAt(24, p)));
      expect(p.origins).toContain(1);
    }
    expect(f.periods[0]!.confidence).toBeGreaterThan(f.periods[f.periods.length - 1]!.confidence!);
    expect(f.periods[0]!.json.why).toContain("satellite ocean colour observed 2026-11-20 (1 days before this forecast)");
    expect(provenanceOf(f, f.periods).sources).toContain("test:satellite");
  });

  it("stops counting once the observation is older than about 13.4 days at the period", () => {
    // Its weight falls from 0.8 to 0.15 over 192 h × ln(0.8 / 0.15) = 321.4 h.
    const maxAgeH = 192 * Math.log(0.8 / 0.15);
    const f = build(withSatellite(240));
    const used = f.periods.filter((p) => p.visibilitySource === "satellite");
    const notUsed = f.periods.filter((p) => p.visibilitySource === "heuristic");
    expect(used.length).toBeGreaterThan(0);
    expect(notUsed.length).toBeGreaterThan(0);
    for (const p of used) expect(ageAt(240, p)).toBeLessThanOrEqual(maxAgeH);
    for (const p of notUsed) {
      expect(ageAt(240, p)).toBeGreaterThan(maxAgeH);
      expect(p.confidence).toBe(0.6);
      expect(p.origins).not.toContain(1);
    }
  });

  it("is used from the moment it was observed, never before", () => {
    expect(build(withSatellite(0)).periods.every((p) => p.visibilitySource === "satellite")).toBe(true);
    const future = build(withSatellite(-2));
    expect(future.periods.every((p) => p.visibilitySource === "heuristic")).toBe(true);
  });

  it("keeps naming the other inputs as seasonal norms when they are", () => {
    const inp = withSatellite(24, [NORMS, SATELLITE]);
    const p = build(inp).periods[0]!;
    expect(p.visibilitySource).toBe("satellite");
    expect(p.seasonal).toBe(true);
    expect(p.json.why).toContain("Visibility leans on satellite ocean colour");
    expect(p.json.why).toContain("Other inputs are seasonal norms, not a live forecast.");
    expect(p.confidence).toBe(expected(ageAt(24, p)));
  });
});

describe("tides", () => {
  const TIDE: Origin = { id: "test:tides", climatology: false, fetchedAt: null, credits: [] };
  const series = (events: TideEvent[]): TideSeries => ({ stationId: "1", stationName: "Test", events, origin: TIDE });
  // High and low water every 6 h 12 min from two days before the forecast to two days after it.
  const events: TideEvent[] = Array.from({ length: 45 }, (_, i) => ({
    type: i % 2 === 0 ? "high" : "low",
    time: new Date(NOW.getTime() - 48 * HOUR + i * 372 * 60_000),
    heightFt: i % 2 === 0 ? 2 : 0,
  }));

  it("keeps the high and low waters from the first period's start to the last period's end", () => {
    const f0 = build(inputs());
    const first = f0.periods[0]!.start;
    const last = f0.periods[f0.periods.length - 1]!.end;
    // One event exactly at each edge: the start is in, the end is out.
    const all = [...events, { type: "low" as const, time: first, heightFt: 0 }, { type: "high" as const, time: last, heightFt: 2 }].sort((a, b) => a.time.getTime() - b.time.getTime());
    const f = build(inputs(), SOUTH_FACING, series(all));
    const inside = all.filter((e) => e.time >= first && e.time < last);
    expect(f.tideEvents).toEqual(inside);
    expect(f.tideEvents[0]!.time).toEqual(first);
    expect(f.tideEvents[f.tideEvents.length - 1]!.time.getTime()).toBeGreaterThan(last.getTime() - 7 * HOUR);
    expect(f.periods.every((p) => p.tideState !== null)).toBe(true);
    expect(provenanceOf(f, f.periods).sources).toContain("test:tides");
  });

  it("credits the tide station only when one of its events falls within the forecast", () => {
    const outside = events.filter((e) => e.time < NOW);
    const f = build(inputs(), SOUTH_FACING, series(outside));
    expect(f.tideEvents).toEqual([]);
    expect(provenanceOf(f, f.periods).sources).not.toContain("test:tides");
  });
});

describe("the typical level and the departure from normal", () => {
  const level = SOUTH_FACING.clarity_ft[10]!; // November
  /** Periods in full daylight (light factor 1); no tides are given, so the tide factor is 1 too. */
  const sunlit = (f: SpotForecast) => f.periods.filter((p) => getPosition(new Date((p.start.getTime() + p.end.getTime()) / 2), SOUTH_FACING.lat, SOUTH_FACING.lon).altitude >= 20); // suncalc 2 gives degrees

  it("gives the spot's typical level in every sunlit period when the inputs are the month's normal, however rough", () => {
    const rough = inputs({ swell1_height_m: 2, swell1_period_s: 14, wind_speed_kt: 22, precip_mm: 1 });
    const f = build(rough, SOUTH_FACING, null, rough);
    expect(sunlit(f).length).toBeGreaterThan(10);
    for (const p of sunlit(f)) expect(p.visFt).toBe(Math.round(level));
  });

  it("lowers it when a period is rougher than normal and raises it when calmer, reading the normal over the same hours", () => {
    const normal = inputs({ swell1_height_m: 1, swell1_period_s: 12, wind_speed_kt: 12 });
    const rougher = build(inputs({ swell1_height_m: 2.5, swell1_period_s: 12, wind_speed_kt: 25 }), SOUTH_FACING, null, normal);
    const calmer = build(inputs({ swell1_height_m: 0.3, swell1_period_s: 12, wind_speed_kt: 5 }), SOUTH_FACING, null, normal);
    for (const p of sunlit(rougher)) expect(p.visFt!).toBeLessThan(level);
    for (const p of sunlit(calmer)) expect(p.visFt!).toBeGreaterThan(level);
    for (const p of sunlit(calmer)) expect(p.visFt!).toBeLessThanOrEqual(Math.round(level * 1.5));
    // A normal that is rough only in the first days moves only those days.
    const stormyStart = inputs({ swell1_height_m: (h) => (h < LOOKBACK_H + 24 ? 2.5 : 1), swell1_period_s: 12, wind_speed_kt: 12 });
    const f = build(stormyStart, SOUTH_FACING, null, stormyStart);
    for (const p of sunlit(f)) expect(p.visFt).toBe(Math.round(level));
  });

  it("keeps the level when the normal conditions are unknown, and credits no input for them", () => {
    const f = build(inputs({ swell1_height_m: 3, swell1_period_s: 14 }), SOUTH_FACING, null, null);
    for (const p of sunlit(f)) expect(p.visFt).toBe(Math.round(level));
    const normed = build(inputs(), SOUTH_FACING, null, inputs({}, [NORMS]));
    expect(provenanceOf(normed, normed.periods).sources).toEqual(["test:live", "suncalc"]);
    expect(normed.periods.some((p) => p.seasonal)).toBe(false);
  });
});
