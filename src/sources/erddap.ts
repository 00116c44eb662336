// NOAA CoastWatch ERDDAP Kd490 (satellite water clarity) behind the Source interface. One griddap
// request per region fetches the latest day's pixels over the region's box; each spot takes the
// median of the valid pixels within SATELLITE_RADIUS_KM. The VIIRS product comes first (about 7
// days behind real time); where clouds leave too few pixels, or it times out or fails, the
// gap-filled product (about 11 days behind) is asked; where neither has any, the last observation
// is carried forward while it is young enough to matter. The products change once a day and are a
// week old when they arrive, so a region is asked once per UTC day, behind callers' requests, and no
// caller ever waits on ERDDAP's 8–18 s answers: until the day's answer is in, the last one is used.
import type { DataCredit } from "../base/attribution.js";
import type { Region, Spot } from "../catalog/catalog.js";
import { HOUR_MS } from "../base/clock.js";
import { KD490_MAX } from "../model/optics.js";
import { SATELLITE_MAX_AGE_H } from "../model/visibility.js";
import { distanceKm } from "../catalog/geo.js";
import type { CacheEntry, UpstreamCache } from "./cache.js";
import { ShapeError, UpstreamError, type UpstreamClient } from "./http.js";
import type { Ticket } from "./scheduler.js";
import { emptyInputs, type HourlyInputs, type Origin, type Source } from "./types.js";

export const COASTWATCH_CREDIT: DataCredit = {
  provider: "NOAA CoastWatch",
  credit: "Kd490: NOAA CoastWatch/NESDIS STAR VIIRS ocean colour via ERDDAP",
  url: "https://coastwatch.noaa.gov/",
  license: "U.S. Government public data (see dataset license attribute)",
};

/** A region whose ERDDAP fetch failed is not asked again for this long. */
export const ERDDAP_RETRY_FAILED_MS = 3_600_000;

/** Pixels within this distance of a spot feed its median (4 km pixels: about a dozen). */
export const SATELLITE_RADIUS_KM = 8;
/** Fewer valid pixels than this is a cloud edge or a coastal artefact, not an observation. */
export const SATELLITE_MIN_PIXELS = 3;

const KD_VARIABLE = "kd_490";
const KM_PER_DEG_LAT = 111.32;

/** A spot's satellite observation as cached (its Origin is made per cache entry). */
export interface Kd490Reading {
  kd490: number;
  observedAt: number;
  pixels: number;
  dataset: string;
}

export interface Kd490Batch {
  readings: Map<string, Kd490Reading>;
}

interface Pixel {
  lat: number;
  lon: number;
  kd: number;
}

interface Grid {
  time: number;
  pixels: Pixel[];
}

/** The box around a region's spots, widened by the pixel radius. */
export function regionBox(region: Region): { south: number; north: number; west: number; east: number } {
  const dLat = SATELLITE_RADIUS_KM / KM_PER_DEG_LAT;
  const midLat = (region.bbox.south + region.bbox.north) / 2;
  const dLon = dLat / Math.cos((midLat * Math.PI) / 180);
  const r = (v: number) => Number(v.toFixed(3));
  return { south: r(region.bbox.south - dLat), north: r(region.bbox.north + dLat), west: r(region.bbox.west - dLon), east: r(region.bbox.east + dLon) };
}

export function griddapUrl(base: string, dataset: string, region: Region, latDescending: boolean): URL {
  const b = regionBox(region);
  const lat = latDescending ? `[(${b.north}):1:(${b.south})]` : `[(${b.south}):1:(${b.north})]`;
  // time: the latest step; altitude: the single level (index 0) these ocean-colour grids carry.
  const query = `${KD_VARIABLE}[(last)][0]${lat}[(${b.west}):1:(${b.east})]`;
  return new URL(`${base}/griddap/${dataset}.json?${encodeURI(query).replace(/\[/g, "%5B").replace(/\]/g, "%5D")}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads a griddap .json table; columns are found by name, never by position. */
export function parseGriddap(body: unknown): Grid {
  if (!isObject(body) || !isObject(body.table)) throw new ShapeError("no table");
  const { columnNames, rows } = body.table;
  if (!Array.isArray(columnNames) || !Array.isArray(rows)) throw new ShapeError("table without columnNames/rows");
  const col = (name: string) => columnNames.indexOf(name);
  const [ti, la, lo, kd] = [col("time"), col("latitude"), col("longitude"), col(KD_VARIABLE)];
  if (ti < 0 || la < 0 || lo < 0 || kd < 0) throw new ShapeError(`columns ${JSON.stringify(columnNames)}`);
  let time = Number.NaN;
  const pixels: Pixel[] = [];
  for (const row of rows) {
    if (!Array.isArray(row)) throw new ShapeError("row is not an array");
    const t = typeof row[ti] === "string" ? Date.parse(row[ti] as string) : Number.NaN;
    if (!Number.isNaN(t)) time = Number.isNaN(time) ? t : Math.max(time, t);
    const [lat, lon, v] = [row[la], row[lo], row[kd]];
    // Cloud, land and glint come back as null (ERDDAP writes NaN as null).
    if (typeof lat !== "number" || typeof lon !== "number" || typeof v !== "number" || !(v > 0) || v > KD490_MAX) continue;
    pixels.push({ lat, lon, kd: v });
  }
  if (Number.isNaN(time)) throw new ShapeError("no readable time");
  return { time, pixels };
}

/** Median Kd490 of the valid pixels near a spot, or null when there are too few. */
export function spotMedian(grid: Grid, spot: { lat: number; lon: number }): { kd490: number; pixels: number } | null {
  const near = grid.pixels.filter((p) => distanceKm(spot.lat, spot.lon, p.lat, p.lon) <= SATELLITE_RADIUS_KM).map((p) => p.kd);
  if (near.length < SATELLITE_MIN_PIXELS) return null;
  near.sort((a, b) => a - b);
  const m = near.length >> 1;
  const kd490 = near.length % 2 === 1 ? near[m]! : (near[m - 1]! + near[m]!) / 2;
  return { kd490, pixels: near.length };
}

const AXIS_ORDER = "latitude stored north to south";

/**
 * ERDDAP refuses a south→north range on a north→south axis ("StartIndex … is greater than
 * StopIndex"): a 400 on current servers, a 500 on older ones still in service (rerddap#71). The
 * server is fine; the query must follow the storage order.
 */
export function axisOrderRefusal(status: number, text: string): string | null {
  return (status === 400 || status === 500) && /StartIndex=\d+ is greater than StopIndex/i.test(text) ? AXIS_ORDER : null;
}

/** Datasets known to store latitude north→south (both CoastWatch Kd490 grids); others are learned. */
const KNOWN_DESCENDING = ["noaacwNPPVIIRSkd490Daily", "noaacwNPPN20S3AkdSCIDINEOF2kmDaily"];

export interface ErddapDeps {
  url: string;
  datasets: readonly string[];
  client: UpstreamClient;
  cache: UpstreamCache<Kd490Batch>;
  /** Told of each batch fetched for a region (the validation record scores its observations). */
  onBatch?: (region: Region, batch: Kd490Batch) => void;
}

export class ErddapKd490Source implements Source {
  readonly id = "erddap";
  readonly #origins = new WeakMap<CacheEntry<Kd490Batch>, Map<string, Origin>>();
  // Datasets found to store latitude north→south; griddap wants constraints in storage order.
  readonly #descending = new Set<string>(KNOWN_DESCENDING);

  constructor(readonly deps: ErddapDeps) {}

  static sizeOf(b: Kd490Batch): number {
    return 128 + b.readings.size * 96;
  }

  async hourly(spot: Spot, start: Date, end: Date): Promise<HourlyInputs> {
    const entry = await this.deps.cache.peek(spot.region.id, (ticket) => this.#load(spot.region, ticket));
    const hours = Math.max(0, Math.round((end.getTime() - start.getTime()) / HOUR_MS));
    const out = emptyInputs(start, hours);
    const r = entry?.value.readings.get(spot.id);
    if (entry && r && this.deps.client.opts.clock.now().getTime() - r.observedAt <= SATELLITE_MAX_AGE_H * HOUR_MS) {
      const origin = this.#origin(entry, r.dataset);
      out.origins.push(origin);
      out.satellite = { kd490: r.kd490, observedAt: new Date(r.observedAt), pixels: r.pixels, origin };
    }
    return out;
  }

  /** Never null: nobody waits on ERDDAP, so an answer changes only when a new batch arrives. */
  revision(spot: Spot): string | null {
    return String(this.deps.cache.latest(spot.region.id)?.fetchedAt.getTime() ?? "-");
  }

  async #load(region: Region, ticket: Ticket): Promise<Kd490Batch> {
    const readings = new Map<string, Kd490Reading>();
    const now = this.deps.client.opts.clock.now().getTime();
    let lastError: unknown = null;
    let answered = 0;
    for (const dataset of this.deps.datasets) {
      const missing = region.spots.filter((s) => !readings.has(s.id));
      if (missing.length === 0) break;
      let grid: Grid;
      try {
        grid = await this.#grid(dataset, region, ticket);
      } catch (e) {
        lastError = e;
        // A timeout, a 502 or an unreadable answer may be this dataset's alone: try the next one.
        // An open breaker or a paused lane stops every dataset on the server.
        if (e instanceof UpstreamError && (e.kind === "circuit_open" || e.kind === "rate_limited")) break;
        continue;
      }
      answered++;
      if (now - grid.time > SATELLITE_MAX_AGE_H * HOUR_MS) continue;
      for (const s of missing) {
        const m = spotMedian(grid, s);
        if (m) readings.set(s.id, { ...m, observedAt: grid.time, dataset });
      }
    }
    // Under cloud today, yesterday's observation still says something: carry it forward (the
    // engine fades its weight with age) until it is too old to matter.
    const previous = this.deps.cache.latest(region.id)?.value.readings;
    for (const s of region.spots) {
      const old = previous?.get(s.id);
      if (!readings.has(s.id) && old && now - old.observedAt <= SATELLITE_MAX_AGE_H * HOUR_MS) readings.set(s.id, old);
    }
    // Nothing answered: fail, so the cache serves the last good batch with its real (older) fetch time.
    if (answered === 0 && lastError) throw lastError;
    const batch = { readings };
    this.deps.onBatch?.(region, batch);
    return batch;
  }

  async #grid(dataset: string, region: Region, ticket: Ticket): Promise<Grid> {
    const descending = this.#descending.has(dataset);
    try {
      return await this.deps.client.getJson(griddapUrl(this.deps.url, dataset, region, descending), parseGriddap, { ticket, refusal: axisOrderRefusal });
    } catch (e) {
      if (e instanceof UpstreamError && e.kind === "data" && e.message.includes(AXIS_ORDER)) {
        // Learned either way round: a dataset may be re-gridded.
        if (descending) this.#descending.delete(dataset);
        else this.#descending.add(dataset);
        return this.deps.client.getJson(griddapUrl(this.deps.url, dataset, region, !descending), parseGriddap, { ticket });
      }
      throw e;
    }
  }

  #origin(entry: CacheEntry<Kd490Batch>, dataset: string): Origin {
    let byDataset = this.#origins.get(entry);
    if (!byDataset) {
      byDataset = new Map();
      this.#origins.set(entry, byDataset);
    }
    let o = byDataset.get(dataset);
    if (!o) {
      o = { id: `erddap:${dataset}`, climatology: false, fetchedAt: entry.fetchedAt, credits: [COASTWATCH_CREDIT], observation: true };
      byDataset.set(dataset, o);
    }
    return o;
  }
}
