// Forecasts on demand: pulls inputs from the configured Source and tides, runs the engine, and keeps
// the result for the rest of the hour (periods end on the hour, so a forecast computed for an hour
// is the right answer for every request in it). Concurrent requests for one spot share one build.
import { LRUCache } from "lru-cache";
import type { Catalog, Spot } from "../catalog/catalog.js";
import { HOUR_MS, hourFloor, type Clock } from "../base/clock.js";
import { HORIZON_DAYS } from "../base/limits.js";
import { SourceUnavailableError, type HourlyInputs, type Source, type TideEvent, type TideSeries, type TideSource } from "../sources/types.js";
import { buildSpotForecast, INPUT_LOOKBACK_H, type SpotForecast } from "./engine.js";

/** The month's normal conditions for a spot over any hours: the embedded seasonal norms. */
export interface NormalConditions {
  hourlySync(spot: Spot, start: Date, end: Date): HourlyInputs;
}

export interface ForecastServiceDeps {
  source: Source;
  tides: TideSource;
  clock: Clock;
  /**
   * What the spot's typical visibility level assumes of swell, wind and rain; a forecast moves the
   * level by its departure from them. Absent: visibility stays at the typical level.
   */
  normals?: NormalConditions;
  /**
   * Called on each string a cached forecast keeps for the hour (each period's start, end and why)
   * before it is cached: the composition root passes the runtime's string interning
   * (src/runtime/flat.ts, RUNTIME_INTERN) or nothing.
   */
  keepString?: (s: string) => string;
}

/** Replaces the strings a forecast keeps for the hour by what `keep` returns for them. */
function keepStrings(forecast: SpotForecast, keep: (s: string) => string): void {
  for (const p of forecast.nowcast ? [...forecast.periods, forecast.nowcast] : forecast.periods) {
    const json = p.json as { start: string; end: string; why: string | null };
    json.start = keep(json.start);
    json.end = keep(json.end);
    if (json.why !== null) json.why = keep(json.why);
  }
}

export interface TimedForecast {
  forecast: SpotForecast;
  /**
   * The time of the data the forecast was built from: the start of its hour, or the newest upstream
   * fetch it read when that is later. Never the wall clock of the build, so the same data gives the
   * same answer (and ETag) on every instance and after any eviction.
   */
  generatedAt: Date;
  /** The source revision its inputs were read at, when the source says (undefined: read it after). */
  revision?: string | null;
}

export class ForecastService {
  readonly #deps: ForecastServiceDeps;
  readonly #cache: LRUCache<string, TimedForecast>;
  // The key of each spot's latest build (one per catalogue spot).
  readonly #builtKey = new Map<string, string>();
  // The current key last computed for each spot (one per catalogue spot; see #currentKey).
  readonly #lastKey = new Map<string, { hour: number; rev: string; key: string }>();
  readonly #inflight = new Map<string, Promise<TimedForecast>>();
  /** The hour of the forecasts held. */
  #hour = 0;

  readonly #catalog: Catalog;

  constructor(deps: ForecastServiceDeps, catalog: Catalog) {
    this.#deps = deps;
    this.#catalog = catalog;
    // At most one entry per spot: a build replaces the spot's previous one (see forecast()), and
    // forecasts of an earlier hour are dropped when the hour turns. The bound is a backstop.
    this.#cache = new LRUCache({ max: Math.max(64, catalog.spots.length) });
  }

  get clock(): Clock {
    return this.#deps.clock;
  }

  /**
   * The spot's forecast for the current hour and the source's current data: a refreshed upstream
   * answer (or a refresh falling due) changes the source's revision, and with it the key.
   */
  async forecast(spot: Spot): Promise<TimedForecast> {
    const hour = hourFloor(this.#deps.clock.now());
    if (hour.getTime() !== this.#hour) this.#turnHour(hour.getTime());
    const key = this.#key(spot, hour);
    const hit = key === null ? undefined : this.#cache.get(key);
    if (hit) return hit;
    // Builds while a refresh is due share one flight too.
    const flight = key ?? `${spot.id}|${hour.getTime()}|due`;
    let pending = this.#inflight.get(flight);
    if (!pending) {
      pending = this.#build(spot, hour)
        .then((built) => {
          // Stored under the revision the build actually read (its fetch may have moved it on);
          // not at all if the refresh it tried is still due, so the next request tries again.
          const rev = built.revision === undefined ? this.#revision(spot) : built.revision;
          if (rev !== null) {
            const readKey = `${spot.id}|${hour.getTime()}|${rev}`;
            // The spot's previous build (an earlier hour or revision) is never served again,
            // unless it is the current one and this build read older data.
            const previous = this.#builtKey.get(spot.id);
            if (previous !== undefined && previous !== readKey && previous !== this.#key(spot, hour)) this.#cache.delete(previous);
            if (this.#deps.keepString) keepStrings(built.forecast, this.#deps.keepString);
            this.#cache.set(readKey, built);
            this.#builtKey.set(spot.id, readKey);
          }
          return built;
        })
        .finally(() => this.#inflight.delete(flight));
      this.#inflight.set(flight, pending);
    }
    return pending;
  }

  /**
   * The version of a spot's current forecast; answers built from another version are stale. Null
   * while a refresh is due, and while this hour's latest build read older data than the source now
   * has (an answer arrived during the build): answers computed now are then not kept.
   */
  versionOf(spotId: string, hour: number = hourFloor(this.#deps.clock.now()).getTime()): string | null {
    const spot = this.#catalog.spot(spotId);
    const key = spot ? this.#currentKey(spot, hour) : null;
    if (key === null) return null;
    const built = this.#builtKey.get(spotId);
    // The usual case, checked first: the spot's latest build is the current version.
    if (built === key) return key;
    const builtThisHour = built !== undefined && built.slice(0, built.lastIndexOf("|")) === key.slice(0, key.lastIndexOf("|"));
    return builtThisHour && !this.#cache.has(key) ? null : key;
  }

  /**
   * `#key` for the hour given, the string kept per spot while the hour and the source's revision
   * stay the same: an answer's validity check reads every spot it covers on each request, and
   * compares these by identity instead of building a new string each time.
   */
  #currentKey(spot: Spot, hour: number): string | null {
    const rev = this.#revision(spot);
    if (rev === null) return null;
    const last = this.#lastKey.get(spot.id);
    if (last !== undefined && last.hour === hour && last.rev === rev) return last.key;
    const key = `${spot.id}|${hour}|${rev}`;
    this.#lastKey.set(spot.id, { hour, rev, key });
    return key;
  }

  /** Forecasts of an earlier hour can never be served again: dropped at once, not when evicted. */
  #turnHour(hour: number): void {
    this.#hour = hour;
    const current = `|${hour}|`;
    for (const key of [...this.#cache.keys()]) if (!key.includes(current)) this.#cache.delete(key);
  }

  /** Null while the source has a refresh due. */
  #key(spot: Spot, hour: Date): string | null {
    const rev = this.#revision(spot);
    return rev === null ? null : `${spot.id}|${hour.getTime()}|${rev}`;
  }

  #revision(spot: Spot): string | null {
    return this.#deps.source.revision ? this.#deps.source.revision(spot) : "";
  }

  /** Forecasts held, for the bounded-memory check. */
  get cachedForecasts(): number {
    return this.#cache.size;
  }

  /** High and low waters from the forecast's own tide source, for any span (the forecast keeps only its periods'). */
  async tideExtremes(spot: Spot, start: Date, end: Date): Promise<TideEvent[]> {
    return (await this.#deps.tides.extremes(spot, start, end))?.events ?? [];
  }

  #normal(spot: Spot, start: Date, end: Date): HourlyInputs | null {
    const normals = this.#deps.normals;
    if (!normals) return null;
    try {
      return normals.hourlySync(spot, start, end);
    } catch (err) {
      // A region without norms cannot say what is normal there: its level stands.
      if (err instanceof SourceUnavailableError) return null;
      throw err;
    }
  }

  async #build(spot: Spot, hour: Date): Promise<TimedForecast> {
    const start = new Date(hour.getTime() - INPUT_LOOKBACK_H * HOUR_MS);
    // The horizon ends at local midnight after today + 6; 26 h of slack covers any UTC offset.
    const end = new Date(hour.getTime() + (HORIZON_DAYS * 24 + 26) * HOUR_MS);
    const [inputs, tides] = await Promise.all([
      this.#deps.source.hourly(spot, start, end),
      this.#deps.tides.extremes(spot, new Date(start.getTime() - 24 * HOUR_MS), new Date(end.getTime() + 24 * HOUR_MS)),
    ]);
    const forecast = buildSpotForecast({ spot, inputs, normal: this.#normal(spot, start, end), tides, now: hour });
    return { forecast, generatedAt: dataTimeOf(hour, inputs, tides), revision: inputs.revision };
  }
}

/** The hour, or the newest fetch among the inputs that were fetched (embedded data never is). */
function dataTimeOf(hour: Date, inputs: HourlyInputs, tides: TideSeries | null): Date {
  let t = hour.getTime();
  const fetched = [...inputs.origins, inputs.satellite?.origin, tides?.origin].map((o) => o?.fetchedAt?.getTime() ?? 0);
  for (const f of fetched) if (f > t) t = f;
  return new Date(t);
}
