// Open-Meteo Marine (/v1/marine: swell trains, sea temperature) and Forecast (/v1/forecast: wind,
// gusts, rain, cloud) behind the Source interface. One request per region and endpoint carries all
// its spots as a coordinate list; answers are asked in GMT, joined on timestamps, converted from the
// units the answer declares, and every value may be null.
import { HOUR_MS } from "../base/clock.js";
import type { DataCredit } from "../base/attribution.js";
import type { Region, Spot } from "../catalog/catalog.js";
import { distanceKm } from "../catalog/geo.js";
import type { CacheEntry, NewerCheck, UpstreamCache } from "./cache.js";
import { ShapeError, type UpstreamClient } from "./http.js";
import type { ModelRunWatch } from "./model-runs.js";
import type { Ticket } from "./scheduler.js";
import { MODELLED_TIDE_CREDIT, MODELLED_TIDE_ID, modelledTide, SEA_LEVEL_VARIABLE, type ModelledTide } from "./tide-model.js";
import { emptyInputs, fromSingle, SWELL_TRAINS, type HourlyInputs, type InputField, type Origin, type Source, type TideSeries } from "./types.js";

export const OPEN_METEO_CREDIT: DataCredit = {
  provider: "Open-Meteo",
  // What `best_match` really uses here: waves and sea temperature from Météo-France MFWAM and DWD,
  // ECMWF WAM when those are stale (no GFS-Wave); wind and rain from NOAA NCEP GFS/HRRR in the US.
  credit: "Weather data by Open-Meteo.com (waves and sea temperature: Météo-France MFWAM, DWD wave models, ECMWF WAM; wind and rain: NOAA NCEP GFS/HRRR)",
  url: "https://open-meteo.com/",
  license: "CC BY 4.0",
};

/**
 * Spots are asked about at their own coordinates, rounded to this grid. A coarser grid saved calls
 * but moved points up to 3.7 km, some onto land: rounding moves a point off its spot at random, so
 * calls are saved by sharing points instead (QUERY_MERGE_KM).
 */
export const QUERY_GRID_DEG = 0.001;

/**
 * A spot within this distance of another spot's query point reads that point instead of its own.
 * The finest wave grid behind the marine API is 0.08° (about 9 km, MFWAM), so two spots 1 km apart
 * nearly always read the same sea cell; most wind models are 2–13 km (AROME's 1.3 km over France is
 * the finest), so a neighbouring cell at most. The shared point is a spot's own position, on the
 * water's edge, never a centroid that may fall on land. 538 spots: 538 → 441 points, the calls of
 * every download down by 18 % (docs/live-data.md).
 */
export const QUERY_MERGE_KM = 1;
/** The farthest a query point can sit from a spot that reads it. */
export const QUERY_POINT_MAX_OFFSET_KM = QUERY_MERGE_KM;

type UnitKind = "length_m" | "period_s" | "direction_deg" | "temperature_c" | "speed_kt" | "precip_mm" | "percent";

/** Accepted `hourly_units` per kind, as a conversion to our unit; anything else is refused. */
const UNIT_CONVERSIONS: Record<UnitKind, Record<string, (v: number) => number>> = {
  length_m: { m: (v) => v, ft: (v) => v * 0.3048 },
  period_s: { s: (v) => v },
  direction_deg: { "°": (v) => v },
  temperature_c: { "°C": (v) => v, "°F": (v) => ((v - 32) * 5) / 9 },
  speed_kt: { kn: (v) => v, "km/h": (v) => v / 1.852, "m/s": (v) => (v * 3600) / 1852, mph: (v) => (v * 1609.344) / 1852 },
  precip_mm: { mm: (v) => v, inch: (v) => v * 25.4 },
  percent: { "%": (v) => v },
};

/** Physically possible range per kind; values outside are junk and read as unknown. */
const VALID_RANGE: Record<UnitKind, [number, number]> = {
  length_m: [0, 30],
  period_s: [0, 40],
  direction_deg: [0, 360],
  temperature_c: [-3, 40],
  speed_kt: [0, 200],
  precip_mm: [0, 500],
  percent: [0, 100],
};

interface VariableSpec {
  field: InputField;
  kind: UnitKind;
  /**
   * Open-Meteo stamps sums and maxima over the preceding hour with the hour's END (precipitation,
   * gusts), while our slots are stamped with their start: such values move back one hour.
   */
  precedingHour?: boolean;
}

export interface OpenMeteoEndpoint {
  kind: "marine" | "forecast";
  variables: Record<string, VariableSpec>;
  /** The modelled sea level (metres), asked only where some spot has no tide station (MARINE_WITH_TIDE). */
  seaLevel?: string;
  pastDays: number;
  forecastDays: number;
  params: Record<string, string>;
}

export const MARINE: OpenMeteoEndpoint = {
  kind: "marine",
  // Seven variables, so a location counts as one call (an eleventh would make it 1.1). Total wave
  // height and currents are not inputs of the engine, so they are not asked for.
  variables: {
    swell_wave_height: { field: "swell1_height_m", kind: "length_m" },
    swell_wave_period: { field: "swell1_period_s", kind: "period_s" },
    swell_wave_direction: { field: "swell1_from_deg", kind: "direction_deg" },
    secondary_swell_wave_height: { field: "swell2_height_m", kind: "length_m" },
    secondary_swell_wave_period: { field: "swell2_period_s", kind: "period_s" },
    secondary_swell_wave_direction: { field: "swell2_from_deg", kind: "direction_deg" },
    // No tertiary swell: `best_match` (Météo-France, DWD, ECMWF WAM) never has one, answering null
    // with the unit "undefined"; a third train reads as absent.
    sea_surface_temperature: { field: "water_temp_c", kind: "temperature_c" },
  },
  // The period containing "now" may have started up to 4 h before 00:00 UTC today.
  pastDays: 1,
  // 8 UTC days reach past local midnight after today + 6 in every covered zone.
  forecastDays: 8,
  params: { cell_selection: "sea" },
};

/**
 * Days of the past a marine request with the modelled sea level asks for: with the 8 days ahead, 14
 * days, the most Open-Meteo still counts as one call (max(1, days/14)), and nearly a whole spring–neap
 * cycle (14.77 days) for the MLLW estimate (tide-model.ts).
 */
export const MODELLED_TIDE_PAST_DAYS = 6;

/**
 * The marine request of a region where some spot has no tide station: the same variables plus
 * `sea_level_height_msl` (eight in all, still one call per location) over 14 days (still one call):
 * the modelled tide costs no extra call. The variable list is per request, so every point of such a
 * region is asked for it; only the points of spots without a station are read (QueryPlan.tidePoints).
 */
export const MARINE_WITH_TIDE: OpenMeteoEndpoint = { ...MARINE, seaLevel: SEA_LEVEL_VARIABLE, pastDays: MODELLED_TIDE_PAST_DAYS };

export const FORECAST: OpenMeteoEndpoint = {
  kind: "forecast",
  variables: {
    wind_speed_10m: { field: "wind_speed_kt", kind: "speed_kt" },
    wind_gusts_10m: { field: "wind_gust_kt", kind: "speed_kt", precedingHour: true },
    wind_direction_10m: { field: "wind_from_deg", kind: "direction_deg" },
    precipitation: { field: "precip_mm", kind: "precip_mm", precedingHour: true },
    cloud_cover: { field: "cloud_pct", kind: "percent" },
  },
  // 72 h of antecedent rain before a first period that may start 4 h before today's 00:00 UTC.
  pastDays: 4,
  forecastDays: 8,
  // The spot is on the water's edge: the nearest cell, not the default land cell, has its wind.
  params: { wind_speed_unit: "kn", precipitation_unit: "mm", cell_selection: "nearest" },
};

/**
 * Calls Open-Meteo counts for one request: max(1, variables/10) × max(1, days/14) per location
 * (open-meteo.com/en/pricing FAQ; several locations multiply it, open-meteo/open-meteo#1295).
 */
export function openMeteoCallWeight(endpoint: OpenMeteoEndpoint, locations: number): number {
  const variables = hourlyVariables(endpoint).length;
  const days = endpoint.pastDays + endpoint.forecastDays;
  return locations * Math.max(1, variables / 10) * Math.max(1, days / 14);
}

/** Every hourly variable a request for the endpoint names. */
export function hourlyVariables(endpoint: OpenMeteoEndpoint): string[] {
  return [...Object.keys(endpoint.variables), ...(endpoint.seaLevel ? [endpoint.seaLevel] : [])];
}

/** One query point's hourly series on a contiguous UTC grid; NaN = unknown. */
export interface PointSeries {
  start: number;
  hours: number;
  /**
   * Single precision: Open-Meteo publishes one or two decimals, which a float32 keeps to seven
   * significant digits, and a region's answer takes half the cache it would in doubles.
   */
  values: Partial<Record<InputField, Float32Array>>;
  /**
   * High and low waters read off the modelled sea level, for points of spots without a tide station;
   * null when the model has none there (e.g. outside its sea mask). Absent when not asked for.
   */
  tide?: ModelledTide | null;
}

export interface OpenMeteoBatch {
  points: PointSeries[];
  /** What was refused while reading (unknown units, suspect series), for the log. */
  notes: string[];
}

/** The points a region's spots are asked at, and which point each spot reads. */
export interface QueryPlan {
  region: string;
  points: { lat: number; lon: number }[];
  pointOf: Map<string, number>;
  /** Points read by a spot without a tide station: their modelled sea level gives the spot's tide. */
  tidePoints: number[];
}

export function queryPlan(region: Region): QueryPlan {
  const points: QueryPlan["points"] = [];
  const pointOf = new Map<string, number>();
  // In catalogue order, so a plan is the same on every instance and every start.
  for (const s of region.spots) {
    let i = points.findIndex((p) => distanceKm(s.lat, s.lon, p.lat, p.lon) <= QUERY_MERGE_KM);
    if (i < 0) {
      i = points.length;
      points.push({ lat: snap(s.lat), lon: snap(s.lon) });
    }
    pointOf.set(s.id, i);
  }
  const tidePoints = [...new Set(region.spots.filter((s) => s.tide_station === null).map((s) => pointOf.get(s.id)!))].sort((a, b) => a - b);
  return { region: region.id, points, pointOf, tidePoints };
}

/** The request a region's plan needs from `endpoint`: the marine one with the sea level where a spot has no station. */
export function endpointFor(endpoint: OpenMeteoEndpoint, plan: QueryPlan): OpenMeteoEndpoint {
  return endpoint.kind === "marine" && plan.tidePoints.length > 0 ? MARINE_WITH_TIDE : endpoint;
}

function snap(deg: number): number {
  return Number((Math.round(deg / QUERY_GRID_DEG) * QUERY_GRID_DEG).toFixed(3));
}

export function requestUrl(base: string, endpoint: OpenMeteoEndpoint, plan: QueryPlan, apiKey: string | null): URL {
  const u = new URL(base);
  u.searchParams.set("latitude", plan.points.map((p) => p.lat.toFixed(3)).join(","));
  u.searchParams.set("longitude", plan.points.map((p) => p.lon.toFixed(3)).join(","));
  u.searchParams.set("hourly", hourlyVariables(endpoint).join(","));
  // GMT: with any other zone Open-Meteo applies one fixed offset to the whole series, ignoring DST.
  u.searchParams.set("timezone", "GMT");
  u.searchParams.set("past_days", String(endpoint.pastDays));
  u.searchParams.set("forecast_days", String(endpoint.forecastDays));
  for (const [k, v] of Object.entries(endpoint.params)) u.searchParams.set(k, v);
  if (apiKey) u.searchParams.set("apikey", apiKey);
  return u;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Longest series accepted (days); a longer one is not an answer to our request. */
const MAX_SERIES_HOURS = 40 * 24;

/**
 * Open-Meteo answers for the nearest grid cell (for the sea cell it searches up to ~16 km,
 * open-meteo#862); an answer for a point farther than this from ours is not an answer about it.
 */
export const MAX_CELL_DISTANCE_KM = 50;

/**
 * Reads an Open-Meteo answer for the `requested` query points. A list of coordinates comes back as
 * a JSON array in request order (a single point as a bare object). With the sea level asked for, the
 * modelled tide is read for the `tidePoints` (every point when not given).
 */
export function parseOpenMeteo(body: unknown, endpoint: OpenMeteoEndpoint, requested: readonly { lat: number; lon: number }[], tidePoints?: readonly number[]): OpenMeteoBatch {
  const expected = requested.length;
  let list: unknown[];
  if (Array.isArray(body)) list = body;
  else if (isObject(body) && expected === 1) list = [body];
  else throw new ShapeError(isObject(body) && body.error === true ? `error: ${String(body.reason)}` : "expected an array of locations");
  if (list.length !== expected) throw new ShapeError(`expected ${expected} locations, got ${list.length}`);
  // `location_id` is written only when it is not 0, so the first location has none: when any
  // location carries one, a missing id is 0 and the ids give the order.
  const ids = list.map((l) => (isObject(l) && typeof l.location_id === "number" ? l.location_id : null));
  if (ids.some((id) => id !== null)) {
    const ordered = new Array<unknown>(expected);
    list.forEach((l, i) => {
      const id = ids[i] ?? 0;
      if (!Number.isInteger(id) || id < 0 || id >= expected || ordered[id] !== undefined) throw new ShapeError("inconsistent location_id");
      ordered[id] = l;
    });
    list = ordered;
  }
  list.forEach((l, i) => {
    const at = isObject(l) ? { lat: l.latitude, lon: l.longitude } : {};
    if (typeof at.lat === "number" && typeof at.lon === "number") {
      const km = distanceKm(at.lat, at.lon, requested[i]!.lat, requested[i]!.lon);
      if (km > MAX_CELL_DISTANCE_KM) throw new ShapeError(`location ${i} answered for a point ${Math.round(km)} km away`);
    }
  });
  const notes: string[] = [];
  const tided = endpoint.seaLevel ? new Set(tidePoints ?? requested.map((_, i) => i)) : new Set<number>();
  const points = list.map((l, i) => parseLocation(l, endpoint, notes, i, tided.has(i)));
  return { points, notes };
}

function parseLocation(loc: unknown, endpoint: OpenMeteoEndpoint, notes: string[], index: number, withTide: boolean): PointSeries {
  if (!isObject(loc) || !isObject(loc.hourly)) throw new ShapeError(`location ${index}: no hourly block`);
  const hourly = loc.hourly;
  const units = isObject(loc.hourly_units) ? loc.hourly_units : {};
  if (!Array.isArray(hourly.time)) throw new ShapeError(`location ${index}: no hourly.time`);
  const offsetMs = typeof loc.utc_offset_seconds === "number" ? loc.utc_offset_seconds * 1000 : 0;
  const times = hourly.time.map((t) => parseTime(t, offsetMs));
  const valid = times.filter((t) => !Number.isNaN(t));
  if (valid.length === 0) throw new ShapeError(`location ${index}: no readable timestamps`);
  const start = Math.min(...valid);
  const hours = (Math.max(...valid) - start) / HOUR_MS + 1;
  if (hours > MAX_SERIES_HOURS) throw new ShapeError(`location ${index}: series spans ${hours} h`);

  const values: PointSeries["values"] = {};
  for (const [name, spec] of Object.entries(endpoint.variables)) {
    const raw = hourly[name];
    if (raw === undefined) continue;
    if (!Array.isArray(raw) || raw.length !== times.length) throw new ShapeError(`location ${index}: ${name} does not match hourly.time`);
    const unit = units[name];
    const convert = typeof unit === "string" ? UNIT_CONVERSIONS[spec.kind][unit] : undefined;
    // A variable the model does not supply comes back all null with the unit "undefined": absent, not suspect.
    if (unit === "undefined" && raw.every((v) => v === null)) continue;
    if (!convert) {
      notes.push(`${name}: unknown unit ${JSON.stringify(unit)} at location ${index}, ignored`);
      continue;
    }
    const [lo, hi] = VALID_RANGE[spec.kind];
    const out = new Float32Array(hours).fill(Number.NaN);
    for (let i = 0; i < raw.length; i++) {
      const t = times[i]!;
      const v = raw[i];
      if (Number.isNaN(t) || typeof v !== "number" || !Number.isFinite(v)) continue;
      const slot = (t - start) / HOUR_MS - (spec.precedingHour ? 1 : 0);
      const x = convert(v);
      if (slot >= 0 && x >= lo && x <= hi) out[slot] = x;
    }
    values[spec.field] = out;
  }
  if (endpoint.kind === "marine") cleanSwell(values, hours, notes, index);
  if (!withTide || !endpoint.seaLevel) return { start, hours, values };
  const level = readSeries(hourly[endpoint.seaLevel], units[endpoint.seaLevel], endpoint.seaLevel, times, start, hours, notes, index);
  return { start, hours, values, tide: level ? modelledTide(start, level) : null };
}

/** Sea level above global mean sea level: metres (or feet), within ±10 m; outside is junk. */
const SEA_LEVEL_UNITS: Record<string, (v: number) => number> = { m: (v) => v, ft: (v) => v * 0.3048 };
const SEA_LEVEL_RANGE_M = 10;

/** The modelled sea level on the hour grid; null when absent (all null, unit "undefined") or refused. */
function readSeries(raw: unknown, unit: unknown, name: string, times: readonly number[], start: number, hours: number, notes: string[], index: number): Float64Array | null {
  if (raw === undefined) return null;
  if (!Array.isArray(raw) || raw.length !== times.length) throw new ShapeError(`location ${index}: ${name} does not match hourly.time`);
  // Outside the ocean model's sea mask the column is all null with the unit "undefined": no tide there.
  if (unit === "undefined" && raw.every((v) => v === null)) return null;
  const convert = typeof unit === "string" ? SEA_LEVEL_UNITS[unit] : undefined;
  if (!convert) {
    notes.push(`${name}: unknown unit ${JSON.stringify(unit)} at location ${index}, ignored`);
    return null;
  }
  const out = new Float64Array(hours).fill(Number.NaN);
  for (let i = 0; i < raw.length; i++) {
    const t = times[i]!;
    const v = raw[i];
    if (Number.isNaN(t) || typeof v !== "number" || !Number.isFinite(v)) continue;
    const x = convert(v);
    if (Math.abs(x) <= SEA_LEVEL_RANGE_M) out[(t - start) / HOUR_MS] = x;
  }
  return out;
}

/** "2025-07-01T00:00" (naive, in the answer's zone) or unix seconds → epoch ms on the hour; NaN otherwise. */
function parseTime(t: unknown, offsetMs: number): number {
  let ms: number;
  if (typeof t === "number") ms = t * 1000;
  else if (typeof t === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(t)) ms = Date.parse(`${t}:00Z`) - offsetMs;
  else return Number.NaN;
  return Number.isFinite(ms) && ms % HOUR_MS === 0 ? ms : Number.NaN;
}

function cleanSwell(values: PointSeries["values"], hours: number, notes: string[], index: number): void {
  const primary = values.swell1_height_m;
  if (!primary) return;
  // GFS-Wave answers all zeros for cells it treats as land (open-meteo#1524): a primary swell that
  // is exactly zero at every hour is a masked cell, not a flat sea. Drop every train so the hours
  // read as unknown (auto mode then falls back to seasonal norms for them).
  const known = primary.filter((v) => !Number.isNaN(v));
  if (known.length > 0 && known.every((v) => v === 0)) {
    for (const train of SWELL_TRAINS) for (const f of train) delete values[f];
    notes.push(`all-zero swell at location ${index}, dropped as suspect`);
    return;
  }
  // Where the model gives a primary swell but no secondary/tertiary, there is no such train: say so
  // with a zero height, so a per-field fallback never grafts a seasonal train onto a live sea state.
  for (const [hf] of SWELL_TRAINS.slice(1)) {
    const h = (values[hf] ??= new Float32Array(hours).fill(Number.NaN));
    for (let i = 0; i < hours; i++) if (!Number.isNaN(primary[i]!) && Number.isNaN(h[i]!)) h[i] = 0;
  }
}

function batchBytes(b: OpenMeteoBatch): number {
  let n = 256;
  for (const p of b.points) {
    for (const a of Object.values(p.values)) n += a.byteLength + 64;
    if (p.tide) n += 64 + p.tide.events.length * 64;
  }
  return n;
}

export interface OpenMeteoDeps {
  url: string;
  apiKey: string | null;
  client: UpstreamClient;
  cache: UpstreamCache<OpenMeteoBatch>;
  /** Model run times: with them, an hourly re-check downloads only when a model has a new run. */
  runs?: ModelRunWatch | null;
}

export class OpenMeteoSource implements Source {
  readonly id: string;
  readonly #plans = new Map<string, QueryPlan>();
  readonly #checks = new Map<string, NewerCheck<OpenMeteoBatch>>();
  readonly #origins = new WeakMap<CacheEntry<OpenMeteoBatch>, Origin>();
  readonly #tideOrigins = new WeakMap<CacheEntry<OpenMeteoBatch>, Origin>();

  constructor(
    readonly endpoint: OpenMeteoEndpoint,
    readonly deps: OpenMeteoDeps,
  ) {
    this.id = `open-meteo:${endpoint.kind}`;
  }

  static sizeOf = batchBytes;

  plan(region: Region): QueryPlan {
    let p = this.#plans.get(region.id);
    if (!p) {
      p = queryPlan(region);
      this.#plans.set(region.id, p);
    }
    return p;
  }

  /** Calls Open-Meteo counts for one download of a region's batch (0 for a region never planned here). */
  weightOf(regionId: string): number {
    const plan = this.#plans.get(regionId);
    return plan ? openMeteoCallWeight(endpointFor(this.endpoint, plan), plan.points.length) : 0;
  }

  /** Whether a model the region's answer rests on has a run newer than the entry's download. */
  #newerCheck(region: Region): NewerCheck<OpenMeteoBatch> | undefined {
    const runs = this.deps.runs;
    if (!runs) return undefined;
    let check = this.#checks.get(region.id);
    if (!check) {
      check = async (entry) => (await runs.check(this.endpoint.kind, region, entry.fetchedAt.getTime())).newer.length > 0;
      this.#checks.set(region.id, check);
    }
    return check;
  }

  async hourly(spot: Spot, start: Date, end: Date): Promise<HourlyInputs> {
    const plan = this.plan(spot.region);
    const entry = await this.#entry(spot, plan);
    const series = entry.value.points[plan.pointOf.get(spot.id)!]!;
    return seriesToInputs(series, this.#origin(entry), start, end);
  }

  #entry(spot: Spot, plan: QueryPlan): Promise<CacheEntry<OpenMeteoBatch>> {
    return this.deps.cache.get(plan.region, (ticket) => this.#load(plan, ticket), this.#newerCheck(spot.region));
  }

  /**
   * The modelled tide of a spot without a tide station, from the same marine answer (and download) as
   * its swell: null for a spot with a station, for the forecast API, and when the model or the
   * upstream has none (a tide is never worth failing a forecast for).
   */
  async modelledTide(spot: Spot, start: Date, end: Date): Promise<TideSeries | null> {
    if (this.endpoint.kind !== "marine" || spot.tide_station !== null) return null;
    const plan = this.plan(spot.region);
    let entry: CacheEntry<OpenMeteoBatch>;
    try {
      entry = await this.#entry(spot, plan);
    } catch {
      // Already logged by the client; the hourly inputs say what failed.
      return null;
    }
    const tide = entry.value.points[plan.pointOf.get(spot.id)!]?.tide;
    if (!tide) return null;
    const events = tide.events.filter((e) => e.time >= start && e.time <= end);
    return { stationId: MODELLED_TIDE_ID, stationName: "modelled sea level (Open-Meteo)", events, origin: this.#tideOrigin(entry) };
  }

  revision(spot: Spot): string | null {
    return this.deps.cache.revision(spot.region.id);
  }

  async #load(plan: QueryPlan, ticket: Ticket): Promise<OpenMeteoBatch> {
    const endpoint = endpointFor(this.endpoint, plan);
    const url = requestUrl(this.deps.url, endpoint, plan, this.deps.apiKey);
    const weight = openMeteoCallWeight(endpoint, plan.points.length);
    const batch = await this.deps.client.getJson(url, (body) => parseOpenMeteo(body, endpoint, plan.points, plan.tidePoints), { ticket, weight });
    if (batch.notes.length > 0) this.deps.client.opts.log.warn({ upstream: this.id, region: plan.region, notes: batch.notes }, "open-meteo answer partly refused");
    return batch;
  }

  #origin(entry: CacheEntry<OpenMeteoBatch>): Origin {
    let o = this.#origins.get(entry);
    if (!o) {
      // Freshness counts from the last check that found nothing newer upstream (a confirmation is as
      // current as a download); `generated_at` and the credits are unaffected.
      o = { id: this.id, climatology: false, fetchedAt: entry.checkedAt, credits: [OPEN_METEO_CREDIT] };
      this.#origins.set(entry, o);
    }
    return o;
  }

  #tideOrigin(entry: CacheEntry<OpenMeteoBatch>): Origin {
    let o = this.#tideOrigins.get(entry);
    if (!o) {
      o = { id: MODELLED_TIDE_ID, climatology: false, fetchedAt: entry.checkedAt, credits: [MODELLED_TIDE_CREDIT] };
      this.#tideOrigins.set(entry, o);
    }
    return o;
  }
}

/** Copies a point's series onto the requested hour grid, matching hours by time. */
export function seriesToInputs(series: PointSeries, origin: Origin, start: Date, end: Date): HourlyInputs {
  const hours = Math.max(0, Math.round((end.getTime() - start.getTime()) / HOUR_MS));
  const out = emptyInputs(start, hours);
  out.origins.push(origin);
  const shift = (start.getTime() - series.start) / HOUR_MS;
  for (const [field, src] of Object.entries(series.values) as [InputField, Float32Array][]) {
    const dst = out.values[field];
    const org = out.origin[field];
    for (let h = 0; h < hours; h++) {
      const v = src[h + shift];
      if (v === undefined || Number.isNaN(v)) continue;
      dst[h] = fromSingle(v);
      org[h] = 0;
    }
  }
  return out;
}
