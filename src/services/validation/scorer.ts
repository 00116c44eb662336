// Scores every satellite observation: when a Kd490 value for a spot and day arrives, the model's
// visibility for that spot and day is computed from the inputs for that day (the live hindcast of
// swell, wind and rain; never the satellite value) and the pair is kept (store.ts).
import { getPosition } from "suncalc";
import type { Logger } from "pino";
import type { Catalog, Region, Spot } from "../../catalog/catalog.js";
import { DAY_MS, HOUR_MS, hourFloor, type Clock } from "../../base/clock.js";
import { conditionsOf, INPUT_LOOKBACK_H } from "../../forecast/engine.js";
import type { NormalConditions } from "../../forecast/service.js";
import { estimateVisibility, M_PER_FT, satelliteVisibilityM } from "../../model/visibility.js";
import type { Kd490Batch, Kd490Reading } from "../../sources/erddap.js";
import { SourceUnavailableError, type HourlyInputs } from "../../sources/types.js";
import { monthOf } from "../../base/zone.js";
import { HindcastDeferred, type Hindcast } from "../../sources/hindcast.js";
import type { Pair } from "../../model/skill.js";
import { pairKey, RETENTION_MS, type PairStore } from "./store.js";

/**
 * The model is read over three hours around the satellite's view: VIIRS crosses at about 13:30 local
 * solar time (the gap-filled product is built from such passes).
 */
export const OVERPASS_SOLAR_H = 13.5;
export const OVERPASS_SPAN_H = 3;

/**
 * The UTC hours [start, end) the model is read over for an observation of `date` (YYYY-MM-DD) at
 * longitude `lon`: that date's early afternoon in local solar time (in Hawaiʻi it falls just after
 * midnight UTC the next day).
 */
export function overpassWindow(date: string, lon: number): { start: Date; end: Date; mid: Date } {
  const utcH = OVERPASS_SOLAR_H - lon / 15;
  const start = hourFloor(Date.parse(`${date}T00:00:00Z`) + (utcH - OVERPASS_SPAN_H / 2) * HOUR_MS);
  const end = new Date(start.getTime() + OVERPASS_SPAN_H * HOUR_MS);
  return { start, end, mid: new Date((start.getTime() + end.getTime()) / 2) };
}

/**
 * What the model says for the spot over the overpass window from `inputs` (which must start
 * INPUT_LOOKBACK_H before it): the typical level moved by the response and the light, with no
 * satellite baseline and no tide (its ±6 % nudge depends on the hour, not the day). Null when
 * swell or wind is unknown.
 */
export function modelFor(spot: Spot, date: string, inputs: HourlyInputs, normal: HourlyInputs | null): { modelFt: number; levelFt: number } | null {
  const { start, end, mid } = overpassWindow(date, spot.lon);
  const c = conditionsOf(inputs, spot, start, end, null);
  const levelFt = spot.clarity_ft[monthOf(date) - 1]!;
  const vis = estimateVisibility({
    clarityFt: levelFt,
    bottom: spot.bottom,
    depthM: spot.typical_depth_m,
    runoff: spot.runoff,
    ...c.conditions,
    normal: normal ? conditionsOf(normal, spot, start, end, null).conditions : null,
    tideState: null,
    sunAltitudeDeg: getPosition(mid, spot.lat, spot.lon).altitude,
    satellite: null,
  });
  return vis ? { modelFt: vis.ft, levelFt } : null;
}

const MAX_SEEN = 50_000;

/** A region whose hindcast failed is not asked again for this long. */
export const SCORE_RETRY_MS = HOUR_MS;
/** A region whose hindcast was held back (no quiet minute, background share spent) is tried again after this. */
export const DEFERRED_RETRY_MS = 60_000;

export interface ScorerDeps {
  catalog: Catalog;
  clock: Clock;
  log: Logger;
  store: PairStore;
  hindcast: Hindcast | null;
  normals: NormalConditions | null;
}

interface Candidate {
  spot: Spot;
  reading: Kd490Reading;
  date: string;
  key: string;
}

export class Scorer {
  readonly #inflight = new Set<Promise<void>>();
  readonly #busy = new Set<string>();
  /** Observations received and not yet scored, per region (kept across a failed or deferred hindcast). */
  readonly #queue = new Map<string, { region: Region; todo: Map<string, Candidate> }>();
  /** When a region whose hindcast failed or was held back may be tried again. */
  readonly #retryAt = new Map<string, number>();
  /** Scored pairs seen by this process (saves asking the store again). */
  readonly #seen = new Set<string>();

  constructor(readonly deps: ScorerDeps) {}

  /**
   * Called with each Kd490 batch the service receives for a region: its new observations join the
   * region's queue, scored in the background. Regions whose hindcast failed or was held back are
   * tried again here once SCORE_RETRY_MS has passed, so no observation waits for its own region's next batch.
   */
  observe(region: Region, batch: Kd490Batch): void {
    if (!this.deps.hindcast) return;
    const now = this.deps.clock.now().getTime();
    let q = this.#queue.get(region.id);
    if (!q) this.#queue.set(region.id, (q = { region, todo: new Map() }));
    for (const spot of region.spots) {
      const reading = batch.readings.get(spot.id);
      // An observation from the future of the service's clock is not a dated observation yet.
      if (!reading || reading.observedAt > now) continue;
      const date = new Date(reading.observedAt).toISOString().slice(0, 10);
      const key = pairKey({ spot: spot.id, date });
      if (!this.#seen.has(`${region.id}|${key}`)) q.todo.set(key, { spot, reading, date, key });
    }
    for (const { region: r } of this.#queue.values()) this.#start(r, now);
  }

  #start(region: Region, now: number): void {
    const q = this.#queue.get(region.id);
    if (!q || q.todo.size === 0 || this.#busy.has(region.id)) return;
    if (now < (this.#retryAt.get(region.id) ?? 0)) return;
    // What no window can reach any more is not worth a hindcast.
    for (const [k, c] of q.todo) if (c.reading.observedAt < now - RETENTION_MS) q.todo.delete(k);
    const todo = [...q.todo.values()];
    if (todo.length === 0) return;
    this.#busy.add(region.id);
    const p = this.#score(region, todo)
      .then(() => {
        this.#retryAt.delete(region.id);
        for (const c of todo) q.todo.delete(c.key);
      })
      .catch((err: unknown) => {
        const deferred = err instanceof HindcastDeferred;
        this.#retryAt.set(region.id, this.deps.clock.now().getTime() + (deferred ? DEFERRED_RETRY_MS : SCORE_RETRY_MS));
        if (deferred) return;
        this.deps.log.warn({ err: err instanceof Error ? err.message : String(err), region: region.id, waiting: q.todo.size }, "validation: observations not scored yet (will retry)");
      })
      .finally(() => {
        this.#busy.delete(region.id);
        this.#inflight.delete(p);
        // Observations that arrived meanwhile.
        this.#start(region, this.deps.clock.now().getTime());
      });
    this.#inflight.add(p);
  }

  /** Observations received and not yet scored. */
  get waiting(): number {
    let n = 0;
    for (const q of this.#queue.values()) n += q.todo.size;
    return n;
  }

  /** Tries again the regions whose observations wait (called on each refresh-ahead tick). */
  retry(): void {
    const now = this.deps.clock.now().getTime();
    for (const { region } of this.#queue.values()) this.#start(region, now);
  }

  /** Resolves once the scoring under way has finished. */
  async settled(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.all([...this.#inflight]);
  }

  async #score(region: Region, candidates: Candidate[]): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const missing = new Set(
      await this.deps.store.missing(
        region.id,
        candidates.map((c) => c.key),
      ),
    );
    for (const c of candidates) if (!missing.has(c.key)) this.#seen.add(`${region.id}|${c.key}`);
    const todo = candidates.filter((c) => missing.has(c.key));
    if (todo.length === 0) return;
    // One hindcast covers every date to score: from the earliest window's rain lookback to the latest window's end.
    let start = Infinity;
    let end = -Infinity;
    for (const c of todo) {
      const w = overpassWindow(c.date, c.spot.lon);
      start = Math.min(start, w.start.getTime() - INPUT_LOOKBACK_H * HOUR_MS);
      end = Math.max(end, w.end.getTime());
    }
    const s = new Date(start);
    const e = new Date(Math.min(end, Math.floor(now / DAY_MS) * DAY_MS + DAY_MS));
    const inputs = await this.deps.hindcast!.inputs(region, s, e);
    const pairs: Pair[] = [];
    for (const c of todo) {
      const spotInputs = inputs.get(c.spot.id);
      if (!spotInputs) continue;
      const model = modelFor(c.spot, c.date, spotInputs, this.#normal(c.spot, s, e));
      if (!model) continue;
      pairs.push({
        spot: c.spot.id,
        region: region.id,
        date: c.date,
        observedAt: c.reading.observedAt,
        modelFt: round2(model.modelFt),
        levelFt: model.levelFt,
        satelliteFt: round2(satelliteVisibilityM(c.reading.kd490) / M_PER_FT),
        kd490: c.reading.kd490,
        dataset: c.reading.dataset,
      });
    }
    if (pairs.length === 0) return;
    await this.deps.store.add(region.id, pairs, now);
    // A bound on what this process remembers having scored; the store stays the record.
    if (this.#seen.size > MAX_SEEN) this.#seen.clear();
    for (const p of pairs) this.#seen.add(`${region.id}|${pairKey(p)}`);
    this.deps.log.info({ region: region.id, pairs: pairs.length }, "validation: observations scored");
  }

  #normal(spot: Spot, start: Date, end: Date): HourlyInputs | null {
    try {
      return this.deps.normals?.hourlySync(spot, start, end) ?? null;
    } catch (err) {
      if (err instanceof SourceUnavailableError) return null;
      throw err;
    }
  }
}

const round2 = (v: number) => Math.round(v * 100) / 100;
