// Reading the upstreams' real formats: Open-Meteo (object or array, units, nulls, timestamps),
// CO-OPS (strings, `error` key on HTTP 200) and ERDDAP griddap tables. Most fixtures are written by
// hand from the documented formats; the "recorded" ones are real answers published by other projects
// (test/fixtures/recorded/SOURCES.md says where each comes from).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NoDataError, parseRetryAfterMs, ShapeError } from "../src/sources/http.js";
import { FORECAST, MARINE, OPEN_METEO_CREDIT, openMeteoCallWeight, parseOpenMeteo, QUERY_POINT_MAX_OFFSET_KM, queryPlan, requestUrl, seriesToInputs } from "../src/sources/open-meteo.js";
import { distanceKm } from "../src/catalog/geo.js";
import { coopsUrl, coopsWindow, parseCoops } from "../src/sources/coops.js";
import { griddapUrl, parseGriddap, SATELLITE_MIN_PIXELS, spotMedian } from "../src/sources/erddap.js";
import { Catalog } from "../src/catalog/catalog.js";
import type { Origin } from "../src/sources/types.js";

const H = 3_600_000;
/** Query points near the fixtures' grid cell (21.25, -157.708). */
const pts = (n: number) => Array.from({ length: n }, () => ({ lat: 21.25, lon: -157.7 }));
const T0 = Date.parse("2026-11-21T00:00:00Z");
/** What a series stores: single precision. */
const single = (xs: number[]) => [...Float32Array.from(xs)];

/** A marine answer for one point, as Open-Meteo writes it. */
function marineLocation(over: Record<string, unknown> = {}, hourly: Record<string, unknown[]> = {}) {
  return {
    latitude: 21.25,
    longitude: -157.708,
    generationtime_ms: 0.41,
    utc_offset_seconds: 0,
    timezone: "GMT",
    timezone_abbreviation: "GMT",
    elevation: 0.0,
    hourly_units: {
      time: "iso8601",
      swell_wave_height: "m",
      swell_wave_period: "s",
      swell_wave_direction: "°",
      secondary_swell_wave_height: "m",
      secondary_swell_wave_period: "s",
      secondary_swell_wave_direction: "°",
      sea_surface_temperature: "°C",
    },
    hourly: {
      time: ["2026-11-21T00:00", "2026-11-21T01:00", "2026-11-21T02:00", "2026-11-21T03:00"],
      swell_wave_height: [0.62, null, 0.7, 0.71],
      swell_wave_period: [13.1, null, 12.9, 12.8],
      swell_wave_direction: [187, null, 190, 191],
      secondary_swell_wave_height: [0.3, 0.3, null, null],
      secondary_swell_wave_period: [7.5, 7.4, null, null],
      secondary_swell_wave_direction: [65, 66, null, null],
      sea_surface_temperature: [26.9, 26.9, 26.8, null],
      ...hourly,
    },
    ...over,
  };
}

describe("Open-Meteo answers", () => {
  it("reads a single point (bare object) and treats every null as unknown", () => {
    const b = parseOpenMeteo(marineLocation(), MARINE, pts(1));
    const p = b.points[0]!;
    expect(p.start).toBe(T0);
    expect(p.hours).toBe(4);
    // Stored in single precision; read back at the published decimals (seriesToInputs, below).
    expect([...p.values.swell1_height_m!]).toEqual(single([0.62, Number.NaN, 0.7, 0.71]));
    expect([...p.values.water_temp_c!]).toEqual(single([26.9, 26.9, 26.8, Number.NaN]));
    expect(p.values.swell3_height_m).toBeDefined();
  });

  it("says a train is absent (zero height) where the primary swell is known and the secondary is not", () => {
    const p = parseOpenMeteo(marineLocation(), MARINE, pts(1)).points[0]!;
    expect([...p.values.swell2_height_m!]).toEqual(single([0.3, 0.3, 0, 0]));
    expect([...p.values.swell2_period_s!]).toEqual(single([7.5, 7.4, Number.NaN, Number.NaN]));
    // The tertiary train was not in the answer at all: absent wherever the primary is known.
    expect([...p.values.swell3_height_m!]).toEqual([0, Number.NaN, 0, 0]);
  });

  it("joins on timestamps, not array positions", () => {
    const shuffled = marineLocation(
      {},
      {
        time: ["2026-11-21T03:00", "2026-11-21T00:00", "garbage", "2026-11-21T01:00"],
        swell_wave_height: [3, 0.5, 9, 1],
      },
    );
    const p = parseOpenMeteo(shuffled, MARINE, pts(1)).points[0]!;
    expect(p.start).toBe(T0);
    expect([...p.values.swell1_height_m!]).toEqual([0.5, 1, Number.NaN, 3]);
  });

  it("applies utc_offset_seconds, so a non-GMT answer still lands on the right UTC hours", () => {
    const local = marineLocation({ utc_offset_seconds: -36000, timezone: "Pacific/Honolulu" });
    expect(parseOpenMeteo(local, MARINE, pts(1)).points[0]!.start).toBe(T0 + 10 * H);
  });

  it("converts from the units the answer declares and refuses units it does not know", () => {
    const imperial = marineLocation({
      hourly_units: { ...marineLocation().hourly_units, swell_wave_height: "ft", sea_surface_temperature: "°F", swell_wave_period: "min" },
    });
    imperial.hourly.swell_wave_height = [2, 2, 2, 2];
    imperial.hourly.sea_surface_temperature = [77, 77, 77, 77];
    const b = parseOpenMeteo(imperial, MARINE, pts(1));
    const p = b.points[0]!;
    expect(p.values.swell1_height_m![0]).toBeCloseTo(0.6096, 6);
    expect(p.values.water_temp_c![0]).toBeCloseTo(25, 6);
    expect(p.values.swell1_period_s).toBeUndefined();
    expect(b.notes.join()).toMatch(/swell_wave_period: unknown unit "min"/);
  });

  it("reads wind in km/h as knots and moves preceding-hour sums and gusts to the hour they cover", () => {
    const fc = {
      latitude: 32.85,
      longitude: -117.27,
      utc_offset_seconds: 0,
      hourly_units: { time: "iso8601", wind_speed_10m: "km/h", wind_gusts_10m: "km/h", wind_direction_10m: "°", precipitation: "mm", cloud_cover: "%" },
      hourly: {
        time: ["2026-11-21T00:00", "2026-11-21T01:00", "2026-11-21T02:00"],
        wind_speed_10m: [18.52, 37.04, null],
        wind_gusts_10m: [27.78, 55.56, 9.26],
        wind_direction_10m: [270, 275, 280],
        precipitation: [0, 2.5, 0.4],
        cloud_cover: [40, 100, 101],
      },
    };
    const p = parseOpenMeteo(fc, FORECAST, [{ lat: 32.86, lon: -117.26 }]).points[0]!;
    expect([...p.values.wind_speed_kt!].map((v) => Math.round(v * 100) / 100)).toEqual([10, 20, Number.NaN]);
    // precipitation at 01:00 fell during 00:00–01:00, so it belongs to the hour starting 00:00.
    expect([...p.values.precip_mm!]).toEqual(single([2.5, 0.4, Number.NaN]));
    expect(p.values.wind_gust_kt![0]).toBeCloseTo(30, 6);
    // 101 % cloud is junk.
    expect([...p.values.cloud_pct!]).toEqual([40, 100, Number.NaN]);
  });

  it("drops an all-zero swell as a masked cell but keeps the sea temperature", () => {
    const zero = marineLocation({}, { swell_wave_height: [0, 0, null, 0], swell_wave_period: [0, 0, 0, 0], swell_wave_direction: [0, 0, 0, 0], secondary_swell_wave_height: [0, 0, 0, 0] });
    const b = parseOpenMeteo(zero, MARINE, pts(1));
    expect(b.points[0]!.values.swell1_height_m).toBeUndefined();
    expect(b.points[0]!.values.swell2_height_m).toBeUndefined();
    expect(b.points[0]!.values.water_temp_c![0]).toBe(Math.fround(26.9));
    expect(b.notes.join()).toMatch(/all-zero swell/);
  });

  it("reads a coordinate list as an array in request order, or by location_id when given", () => {
    const a = marineLocation({}, { swell_wave_height: [1, 1, 1, 1] });
    const b = marineLocation({}, { swell_wave_height: [2, 2, 2, 2] });
    expect(parseOpenMeteo([a, b], MARINE, pts(2)).points.map((p) => p.values.swell1_height_m![0])).toEqual([1, 2]);
    const ided = [
      { ...b, location_id: 1 },
      { ...a, location_id: 0 },
    ];
    expect(parseOpenMeteo(ided, MARINE, pts(2)).points.map((p) => p.values.swell1_height_m![0])).toEqual([1, 2]);
    // As Open-Meteo writes it: location_id only when not 0, so the first location has none.
    const real = [{ ...b, location_id: 1 }, a];
    expect(parseOpenMeteo(real, MARINE, pts(2)).points.map((p) => p.values.swell1_height_m![0])).toEqual([1, 2]);
    expect(() => parseOpenMeteo([a, a], MARINE, pts(2))).not.toThrow();
    expect(() =>
      parseOpenMeteo(
        [
          { ...a, location_id: 1 },
          { ...b, location_id: 1 },
        ],
        MARINE,
        pts(2),
      ),
    ).toThrow(ShapeError);
  });

  it('reads a variable the model never supplies (all null, unit "undefined") as absent, without a note', () => {
    const loc = marineLocation({}, { tertiary_swell_wave_height: [null, null, null, null] });
    (loc.hourly_units as Record<string, string>).tertiary_swell_wave_height = "undefined";
    const batch = parseOpenMeteo(loc, { ...MARINE, variables: { ...MARINE.variables, tertiary_swell_wave_height: { field: "swell3_height_m", kind: "length_m" } } }, pts(1));
    expect(batch.notes).toEqual([]);
    expect(batch.points[0]!.values.swell3_height_m![0]).toBe(0);
  });

  it.each([
    ["a different number of points", [marineLocation()], 2],
    ["a bare object for several points", marineLocation(), 2],
    ["no hourly block", { latitude: 1 }, 1],
    ["time that is not a list", marineLocation({ hourly: { time: "2026-11-21T00:00" } }), 1],
    ["a variable longer than time", marineLocation({}, { swell_wave_height: [1, 2, 3, 4, 5] }), 1],
    ["no readable timestamps", marineLocation({}, { time: ["yesterday", "today", "x", "y"] }), 1],
    ["an error object", { error: true, reason: "Cannot initialize WeatherVariable from invalid String value" }, 1],
    ["an answer for somewhere else", marineLocation({ latitude: 33.1, longitude: -117.3 }), 1],
    ["a string", "ok", 1],
  ])("refuses %s", (_what, body, n) => {
    expect(() => parseOpenMeteo(body, MARINE, pts(n))).toThrow(ShapeError);
  });

  it(`asks every spot at a point within ${QUERY_POINT_MAX_OFFSET_KM} km of it`, () => {
    let farthest = 0;
    for (const region of Catalog.load().regions) {
      const plan = queryPlan(region);
      for (const s of region.spots) {
        const p = plan.points[plan.pointOf.get(s.id)!]!;
        farthest = Math.max(farthest, distanceKm(s.lat, s.lon, p.lat, p.lon));
      }
    }
    expect(farthest).toBeLessThanOrEqual(QUERY_POINT_MAX_OFFSET_KM);
  });

  it("credits the models best_match really uses, not GFS-Wave", () => {
    expect(OPEN_METEO_CREDIT.credit).toMatch(/Météo-France/);
    expect(OPEN_METEO_CREDIT.credit).not.toMatch(/GFS-Wave/);
  });

  it("asks in GMT for all of a region's points in one request", () => {
    const catalog = Catalog.load();
    const oahu = catalog.region("us-hi-oahu")!;
    const plan = queryPlan(oahu);
    expect(plan.points.length).toBeLessThanOrEqual(oahu.spots.length);
    expect(new Set(plan.pointOf.values()).size).toBe(plan.points.length);
    const u = requestUrl("https://marine-api.open-meteo.com/v1/marine", MARINE, plan, null);
    expect(u.searchParams.get("timezone")).toBe("GMT");
    expect(u.searchParams.get("latitude")!.split(",")).toHaveLength(plan.points.length);
    // best_match never has a tertiary swell: it is not asked for.
    expect(u.searchParams.get("hourly")!.split(",")).toEqual(Object.keys(MARINE.variables));
    expect(u.searchParams.get("hourly")).not.toMatch(/tertiary/);
    expect(u.searchParams.has("apikey")).toBe(false);
    const f = requestUrl("https://api.open-meteo.com/v1/forecast", FORECAST, plan, "k");
    expect(f.searchParams.get("wind_speed_unit")).toBe("kn");
    expect(f.searchParams.get("past_days")).toBe("4");
    expect(f.searchParams.get("apikey")).toBe("k");
  });

  it("counts calls the way Open-Meteo does: per location, more past 10 variables or 14 days", () => {
    expect(openMeteoCallWeight(MARINE, 1)).toBe(1);
    expect(openMeteoCallWeight(FORECAST, 7)).toBe(7);
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`v${i}`, { field: "swell1_height_m", kind: "length_m" }] as const));
    expect(openMeteoCallWeight({ ...MARINE, variables: eleven }, 2)).toBeCloseTo(2.2, 9);
    expect(openMeteoCallWeight({ ...FORECAST, pastDays: 20, forecastDays: 8 }, 1)).toBe(2);
  });

  it("copies a series onto the requested hours by time, with its origin", () => {
    const p = parseOpenMeteo(marineLocation(), MARINE, pts(1)).points[0]!;
    const origin: Origin = { id: "open-meteo:marine", climatology: false, fetchedAt: new Date(T0), credits: [] };
    const inputs = seriesToInputs(p, origin, new Date(T0 + 2 * H), new Date(T0 + 6 * H));
    expect([...inputs.values.swell1_height_m]).toEqual([0.7, 0.71, Number.NaN, Number.NaN]);
    expect([...inputs.origin.swell1_height_m]).toEqual([0, 0, 255, 255]);
    expect(inputs.origins).toEqual([origin]);
  });
});

describe("CO-OPS answers", () => {
  it("reads high/low predictions: GMT times, heights as strings", () => {
    const events = parseCoops({
      predictions: [
        { t: "2026-11-21 13:15", v: "0.118", type: "L" },
        { t: "2026-11-21 06:02", v: "1.905", type: "H" },
      ],
    });
    expect(events).toEqual([
      { type: "high", time: new Date("2026-11-21T06:02:00Z"), heightFt: 1.905 },
      { type: "low", time: new Date("2026-11-21T13:15:00Z"), heightFt: 0.118 },
    ]);
  });
  it("treats the HTTP 200 `error` key as a healthy 'no data here'", () => {
    expect(() => parseCoops({ error: { message: "No Predictions data was found. Please make sure the Datum input is valid." } })).toThrow(NoDataError);
  });
  it.each([
    ["no predictions", {}],
    ["a prediction without time", { predictions: [{ v: "1.0", type: "H" }] }],
    ["an empty height", { predictions: [{ t: "2026-11-21 13:15", v: "", type: "L" }] }],
    ["an unknown type", { predictions: [{ t: "2026-11-21 13:15", v: "1", type: "X" }] }],
    ["a local time format", { predictions: [{ t: "11/21/2026 1:15 PM", v: "1", type: "L" }] }],
  ])("refuses %s", (_w, body) => {
    expect(() => parseCoops(body)).toThrow(ShapeError);
  });
  it("asks for the documented product, datum, units and zone over whole UTC days", () => {
    const w = coopsWindow(new Date("2026-11-17T15:00:00Z"), new Date("2026-11-30T05:00:00Z"));
    const u = coopsUrl("https://api.tidesandcurrents.noaa.gov/api/prod/datagetter", "1612340", w);
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      product: "predictions",
      station: "1612340",
      begin_date: "20261117",
      end_date: "20261130",
      datum: "MLLW",
      units: "english",
      time_zone: "gmt",
      interval: "hilo",
      format: "json",
    });
  });
});

describe("ERDDAP griddap tables", () => {
  const table = (rows: unknown[][], names = ["time", "altitude", "latitude", "longitude", "kd_490"]) => ({
    table: { columnNames: names, columnTypes: ["String", "double", "double", "double", "float"], columnUnits: ["UTC", "m", "degrees_north", "degrees_east", "m-1"], rows },
  });
  const t = "2026-11-20T12:00:00Z";
  const spot = { lat: 21.27, lon: -157.7 };

  it("takes the median of the valid pixels near the spot, skipping nulls and far pixels", () => {
    const g = parseGriddap(
      table([
        [t, 0, 21.2625, -157.7, 0.041],
        [t, 0, 21.3, -157.7, 0.05],
        [t, 0, 21.27, -157.72, 0.03],
        [t, 0, 21.28, -157.69, null],
        [t, 0, 22.5, -157.7, 0.9],
      ]),
    );
    expect(g.time).toBe(Date.parse(t));
    expect(spotMedian(g, spot)).toEqual({ kd490: 0.041, pixels: 3 });
  });
  it(`needs at least ${SATELLITE_MIN_PIXELS} valid pixels`, () => {
    const g = parseGriddap(
      table([
        [t, 0, 21.27, -157.7, 0.04],
        [t, 0, 21.27, -157.71, null],
        [t, 0, 21.27, -157.69, 0.05],
      ]),
    );
    expect(spotMedian(g, spot)).toBeNull();
  });
  it("finds columns by name, whatever their order", () => {
    const g = parseGriddap(table([[0.04, 21.27, -157.7, t]], ["kd_490", "latitude", "longitude", "time"]));
    expect(g.pixels).toEqual([{ lat: 21.27, lon: -157.7, kd: 0.04 }]);
  });
  it.each([
    ["no table", {}],
    ["missing columns", table([], ["time", "lat", "lon", "kd"])],
    ["rows that are not arrays", table([{ a: 1 } as unknown as unknown[]])],
    ["no time", table([[null, 0, 21.27, -157.7, 0.04]])],
  ])("refuses %s", (_w, body) => {
    expect(() => parseGriddap(body)).toThrow(ShapeError);
  });
  it("asks for the latest step over the region's box, in the axis order the dataset stores", () => {
    const region = Catalog.load().region("us-hi-oahu")!;
    const up = decodeURIComponent(griddapUrl("https://coastwatch.noaa.gov/erddap", "ds", region, false).search);
    expect(up).toMatch(/^\?kd_490\[\(last\)\]\[0\]\[\((21\.\d+)\):1:\((21\.\d+)\)\]\[\((-158\.\d+)\):1:\((-157\.\d+)\)\]$/);
    const down = decodeURIComponent(griddapUrl("https://coastwatch.noaa.gov/erddap", "ds", region, true).search);
    const [, a, b] = /\]\[0\]\[\(([\d.]+)\):1:\(([\d.]+)\)\]/.exec(down)!;
    expect(Number(a)).toBeGreaterThan(Number(b));
  });
});

const recorded = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/recorded/${name}`, import.meta.url), "utf8"));

describe("recorded upstream answers", () => {
  it("CO-OPS: reads a real hilo answer (station 9411340, MLLW, feet, GMT) into alternating highs and lows", () => {
    const events = parseCoops(recorded("coops-hilo-9411340-20261008-20261022.json"));
    expect(events).toHaveLength(54);
    expect(events[0]).toEqual({ type: "high", time: new Date("2026-10-08T03:09:00Z"), heightFt: 5.449 });
    expect(events[1]).toEqual({ type: "low", time: new Date("2026-10-08T09:35:00Z"), heightFt: 0.189 });
    // "5.95" and "00:00" as the service writes them: two decimals only, and midnight.
    expect(events.find((e) => e.time.toISOString() === "2026-10-11T17:11:00.000Z")?.heightFt).toBe(5.95);
    expect(events.find((e) => e.time.toISOString() === "2026-10-12T00:00:00.000Z")).toEqual({ type: "low", time: new Date("2026-10-12T00:00:00Z"), heightFt: 0.055 });
    expect(events.at(-1)).toEqual({ type: "low", time: new Date("2026-10-22T21:00:00Z"), heightFt: 1.49 });
    // Each high stands above the lows either side of it, even on the days the pair is 0.2 ft apart.
    let pairs = 0;
    for (let i = 1; i < events.length; i++) {
      const [a, b] = [events[i - 1]!, events[i]!];
      expect(b.time.getTime()).toBeGreaterThan(a.time.getTime());
      expect(b.type).not.toBe(a.type);
      expect(b.type === "high" ? b.heightFt > a.heightFt : b.heightFt < a.heightFt).toBe(true);
      pairs++;
    }
    expect(pairs).toBe(53);
    const highs = events.filter((e) => e.type === "high").map((e) => e.heightFt);
    const lows = events.filter((e) => e.type === "low").map((e) => e.heightFt);
    expect(Math.max(...highs)).toBe(5.95);
    expect(Math.min(...lows)).toBe(0.055);
  });

  it("CO-OPS: treats its real HTTP-200 error body as no data for that station", () => {
    expect(() => parseCoops(recorded("coops-error-9411189.json"))).toThrow(NoDataError);
    expect(() => parseCoops(recorded("coops-error-9411189.json"))).toThrow(/No Predictions data was found/);
  });

  it("Open-Meteo forecast: reads a real answer in local time and km/h into UTC hours and knots", () => {
    const b = parseOpenMeteo(recorded("open-meteo-forecast-52.28n-6.87e.json"), FORECAST, [{ lat: 52.28, lon: 6.87 }]);
    expect(b.notes).toEqual([]);
    const p = b.points[0]!;
    // 00:00 in Europe/Amsterdam at UTC+2 (utc_offset_seconds 7200) is 22:00 UTC the day before.
    expect(p.start).toBe(Date.parse("2026-10-02T22:00:00Z"));
    expect(p.hours).toBe(3);
    const kt = (kmh: number) => kmh / 1.852;
    expect([...p.values.wind_speed_kt!].map((v) => Number(v.toFixed(3)))).toEqual([9.0, 8.3, 6.8].map((v) => Number(kt(v).toFixed(3))));
    expect([...p.values.wind_from_deg!]).toEqual([142, 144, 153]);
    expect([...p.values.cloud_pct!]).toEqual([1, 48, 47]);
    // Gusts and precipitation are totals over the preceding hour: each value belongs to the hour before its stamp.
    expect([...p.values.wind_gust_kt!].map((v) => (Number.isNaN(v) ? null : Number(v.toFixed(3))))).toEqual([kt(14.0), kt(11.5), null].map((v) => (v === null ? null : Number(v.toFixed(3)))));
    expect([...p.values.precip_mm!]).toEqual([0, 0, Number.NaN]);
  });
});

describe("Retry-After", () => {
  const now = new Date("2026-11-21T19:00:00Z");
  it("reads delay-seconds and HTTP dates", () => {
    expect(parseRetryAfterMs("120", now)).toBe(120_000);
    expect(parseRetryAfterMs("Sat, 21 Nov 2026 19:05:00 GMT", now)).toBe(300_000);
    expect(parseRetryAfterMs("soon", now)).toBeNull();
    expect(parseRetryAfterMs(null, now)).toBeNull();
  });
});
