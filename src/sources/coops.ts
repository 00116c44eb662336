// NOAA CO-OPS tide predictions (datagetter, product=predictions, interval=hilo, MLLW, feet, GMT) for
// spots whose station is a NOAA one, and the tide source the service uses: CO-OPS when it answers,
// the offline harmonic prediction otherwise (and always for non-NOAA stations).
import type { DataCredit } from "../base/attribution.js";
import type { Spot } from "../catalog/catalog.js";
import { DAY_MS } from "../base/clock.js";
import type { CacheEntry, UpstreamCache } from "./cache.js";
import { NoDataError, ShapeError, UpstreamError, type UpstreamClient } from "./http.js";
import type { HarmonicTideSource } from "./tides.js";
import type { Origin, TideEvent, TideSeries, TideSource } from "./types.js";
import { LRUCache } from "lru-cache";

export const COOPS_CREDIT: DataCredit = {
  provider: "NOAA CO-OPS",
  credit: "Tide predictions: NOAA Center for Operational Oceanographic Products and Services",
  url: "https://tidesandcurrents.noaa.gov/",
  license: "Public domain (U.S. Government)",
};

const NOAA_PREFIX = "noaa/";
/** Identifies us to CO-OPS, which asks callers to name their application. */
const APPLICATION = "ocean-conditions";

export function coopsStationId(tideStation: string | null): string | null {
  return tideStation !== null && tideStation.startsWith(NOAA_PREFIX) ? tideStation.slice(NOAA_PREFIX.length) : null;
}

const yyyymmdd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, "");

/** Whole UTC days covering [start, end]; the window moves once a day, so one call per station per day. */
export function coopsWindow(start: Date, end: Date): { begin: number; end: number } {
  return { begin: Math.floor(start.getTime() / DAY_MS) * DAY_MS, end: Math.floor(end.getTime() / DAY_MS) * DAY_MS };
}

export function coopsUrl(base: string, station: string, window: { begin: number; end: number }): URL {
  const u = new URL(base);
  const p = {
    product: "predictions",
    station,
    begin_date: yyyymmdd(window.begin),
    end_date: yyyymmdd(window.end),
    datum: "MLLW",
    units: "english",
    time_zone: "gmt",
    interval: "hilo",
    format: "json",
    application: APPLICATION,
  };
  for (const [k, v] of Object.entries(p)) u.searchParams.set(k, v);
  return u;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `{"predictions":[{"t":"2025-07-01 13:15","v":"0.118","type":"L"}]}`: times in the requested zone
 * (GMT), heights as strings. Errors come back as HTTP 200 with an `error` key.
 */
export function parseCoops(body: unknown): TideEvent[] {
  if (!isObject(body)) throw new ShapeError("not an object");
  if (body.error !== undefined) {
    const msg = isObject(body.error) && typeof body.error.message === "string" ? body.error.message : JSON.stringify(body.error);
    throw new NoDataError(`CO-OPS: ${msg.slice(0, 200)}`);
  }
  if (!Array.isArray(body.predictions)) throw new ShapeError("no predictions array");
  const events: TideEvent[] = [];
  for (const p of body.predictions) {
    if (!isObject(p) || typeof p.t !== "string") throw new ShapeError("prediction without t");
    const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})$/.exec(p.t);
    const time = m ? Date.parse(`${m[1]}T${m[2]}:00Z`) : Number.NaN;
    const heightFt = typeof p.v === "string" && p.v.trim() !== "" ? Number(p.v) : typeof p.v === "number" ? p.v : Number.NaN;
    const type = p.type === "H" || p.type === "HH" ? "high" : p.type === "L" || p.type === "LL" ? "low" : null;
    if (Number.isNaN(time) || !Number.isFinite(heightFt) || type === null) throw new ShapeError(`unreadable prediction ${JSON.stringify(p).slice(0, 80)}`);
    events.push({ type, time: new Date(time), heightFt });
  }
  if (events.length === 0) throw new NoDataError("CO-OPS: no predictions in the window");
  return events.sort((a, b) => a.time.getTime() - b.time.getTime());
}

export interface CoopsDeps {
  url: string;
  client: UpstreamClient;
  cache: UpstreamCache<TideEvent[]>;
  harmonics: HarmonicTideSource;
}

/** Stations CO-OPS said it has no predictions for are not asked again for this long. */
const NO_DATA_MEMORY_MS = DAY_MS;

export class CoopsTideSource implements TideSource {
  readonly id = "noaa-coops";
  readonly #origins = new WeakMap<CacheEntry<TideEvent[]>, Origin>();
  // Subordinate ids (TPT…, TWC…) that CO-OPS does not serve; bounded by the catalogue's stations.
  readonly #noData = new LRUCache<string, number>({ max: 1024 });

  constructor(readonly deps: CoopsDeps) {}

  static sizeOf(events: TideEvent[]): number {
    return 64 + events.length * 64;
  }

  /** Null when the spot's station is not a NOAA one, or CO-OPS has nothing for it. */
  async extremes(spot: Spot, start: Date, end: Date): Promise<TideSeries | null> {
    const station = coopsStationId(spot.tide_station);
    if (station === null) return null;
    const now = this.deps.client.opts.clock.now().getTime();
    const refusedAt = this.#noData.get(station);
    if (refusedAt !== undefined && now - refusedAt < NO_DATA_MEMORY_MS) return null;
    const window = coopsWindow(start, end);
    const key = `${station}|${window.begin}|${window.end}`;
    let entry: CacheEntry<TideEvent[]>;
    try {
      entry = await this.deps.cache.get(key, (ticket) => this.deps.client.getJson(coopsUrl(this.deps.url, station, window), parseCoops, { ticket }));
    } catch (e) {
      if (e instanceof UpstreamError && e.kind === "data") {
        this.#noData.set(station, now);
        return null;
      }
      throw e;
    }
    const events = entry.value.filter((e) => e.time >= start && e.time <= end);
    const stationId = `${NOAA_PREFIX}${station}`;
    const name = this.deps.harmonics.station(stationId)?.name ?? station;
    return { stationId, stationName: name, events, origin: this.#origin(entry, station) };
  }

  #origin(entry: CacheEntry<TideEvent[]>, station: string): Origin {
    let o = this.#origins.get(entry);
    if (!o) {
      o = { id: `noaa-coops:${station}`, climatology: false, fetchedAt: entry.fetchedAt, credits: [COOPS_CREDIT] };
      this.#origins.set(entry, o);
    }
    return o;
  }
}

/**
 * CO-OPS when it answers for the spot's station; the harmonic prediction otherwise. A spot without a
 * station gets the modelled tide (live upstreams only), or none.
 */
export class PreferredTideSource implements TideSource {
  readonly id = "tides";

  constructor(
    readonly coops: CoopsTideSource,
    readonly harmonics: HarmonicTideSource,
    readonly modelled: TideSource | null = null,
  ) {}

  async extremes(spot: Spot, start: Date, end: Date): Promise<TideSeries | null> {
    if (spot.tide_station === null) return this.modelled ? this.modelled.extremes(spot, start, end) : null;
    try {
      const live = await this.coops.extremes(spot, start, end);
      if (live && live.events.length > 0) return live;
    } catch {
      // CO-OPS down, slow or rate-limiting (already logged by the client): tides are predictable.
    }
    return this.harmonics.extremes(spot, start, end);
  }
}
