// The validation record of one instance: where pairs are kept, what scores new observations, and
// the report built from them.
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Source as SourceObject } from "../../base/attribution.js";
import type { Catalog, Region } from "../../catalog/catalog.js";
import { HOUR_MS, type Clock } from "../../base/clock.js";
import type { NormalConditions } from "../../forecast/service.js";
import type { Kd490Batch } from "../../sources/erddap.js";
import type { Hindcast } from "../../sources/hindcast.js";
import { regionValidation, validationReport, type ValidationJson } from "./report.js";
import { createHash } from "node:crypto";
import { Scorer } from "./scorer.js";
import { MemoryPairStore, RedisPairStore, type PairStore } from "./store.js";

/** How often the decisions' confidence factors are read again from the record. */
export const FACTOR_REFRESH_MS = HOUR_MS;

export interface ValidationDeps {
  catalog: Catalog;
  clock: Clock;
  log: Logger;
  redis: Redis | null;
  normals: NormalConditions | null;
  source: SourceObject;
  dataMode: string;
  docs: string;
}

/**
 * How long a built record is served before it is built again when this instance added no pair: what
 * another instance scored shows up within this. A build reads every region's pairs (about 120–200 ms
 * of CPU with a month of pairs held); a served one costs a lookup.
 */
export const REPORT_REFRESH_MS = 60_000;

/** The record as served: its body once serialised, and a strong ETag of it. */
export interface BuiltReport {
  body: ValidationJson;
  json: string;
  etag: string;
}

export class Validation {
  readonly store: PairStore;
  #scorer: Scorer | null = null;
  #built: { report: BuiltReport; at: number; generation: number } | null = null;
  #building: Promise<BuiltReport> | null = null;
  /** Bumped whenever this instance adds pairs, so the next request builds the record again. */
  #generation = 0;
  /** Whether the last read of the store failed: a failing store is logged once per change, not per request. */
  #storeFailing = false;
  readonly #factors = new Map<string, number>();
  #factorsReadAt = -Infinity;
  #reading: Promise<unknown> | null = null;

  constructor(readonly deps: ValidationDeps) {
    const store: PairStore = deps.redis ? new RedisPairStore(deps.redis) : new MemoryPairStore();
    // Every write goes through here, so a built record knows when it is out of date.
    this.store = {
      kind: store.kind,
      missing: (region, keys) => store.missing(region, keys),
      list: (region, fromMs) => store.list(region, fromMs),
      add: async (region, pairs, nowMs) => {
        await store.add(region, pairs, nowMs);
        this.#generation++;
      },
    };
  }

  /** Live mode: the hindcast the scorer reads the model's inputs from. */
  attach(hindcast: Hindcast): void {
    this.#scorer = new Scorer({ catalog: this.deps.catalog, clock: this.deps.clock, log: this.deps.log.child({ component: "validation" }), store: this.store, hindcast, normals: this.deps.normals });
  }

  /** A Kd490 batch arrived for a region: its new observations are scored in the background. */
  observe(region: Region, batch: Kd490Batch): void {
    this.#scorer?.observe(region, batch);
  }

  /** Observations received and not yet scored (held back for a quiet minute, or their hindcast failed). */
  get waiting(): number {
    return this.#scorer?.waiting ?? 0;
  }

  /** Retries observations held back (the refresh-ahead ticker calls it each minute). */
  retry(): void {
    this.#scorer?.retry();
  }

  async settled(): Promise<void> {
    await this.#scorer?.settled();
  }

  /**
   * The record, built at most once per REPORT_REFRESH_MS (sooner when this instance added pairs),
   * one build shared by every request that arrives during it. Throws when the store cannot be read
   * and nothing was built before; logs the store's failure and its recovery once each.
   */
  async served(): Promise<BuiltReport> {
    const now = this.deps.clock.now().getTime();
    const built = this.#built;
    if (built && built.generation === this.#generation && now - built.at < REPORT_REFRESH_MS) return built.report;
    this.#building ??= (async () => {
      const generation = this.#generation;
      try {
        const body = await this.report();
        const json = JSON.stringify(body);
        const report = { body, json, etag: `"${createHash("sha256").update(json).digest("base64url").slice(0, 27)}"` };
        this.#built = { report, at: this.deps.clock.now().getTime(), generation };
        if (this.#storeFailing) this.deps.log.info("validation record readable again");
        this.#storeFailing = false;
        return report;
      } catch (err) {
        if (!this.#storeFailing) this.deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, "validation record unreadable");
        this.#storeFailing = true;
        throw err;
      }
    })().finally(() => (this.#building = null));
    return this.#building;
  }

  async report(): Promise<ValidationJson> {
    const d = this.deps;
    const body = await validationReport({ catalog: d.catalog, store: this.store, now: d.clock.now(), source: d.source, dataMode: d.dataMode, docs: d.docs });
    for (const r of body.regions) this.#factors.set(r.region, r.confidence_factor);
    return body;
  }

  /** The factor (at most 1) by which a region's visibility confidence is lowered while its response does worse than climatology. */
  async confidenceFactor(region: Region): Promise<number> {
    const f = (await regionValidation(region, this.store, this.deps.clock.now())).confidence_factor;
    this.#factors.set(region.id, f);
    return f;
  }

  /**
   * The same factor as last read from the record (1 until read), for the decisions' confidence, which
   * cannot wait on the store. Read again in the background at most once per FACTOR_REFRESH_MS, so an
   * instance that scores nothing itself follows the shared record.
   */
  confidenceFactorSync(regionId: string): number {
    const now = this.deps.clock.now().getTime();
    if (now - this.#factorsReadAt >= FACTOR_REFRESH_MS && !this.#reading) {
      this.#factorsReadAt = now;
      this.#reading = Promise.all(this.deps.catalog.regions.map((r) => this.confidenceFactor(r)))
        .catch((err: unknown) => this.deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, "validation record unreadable: confidence factors kept"))
        .finally(() => (this.#reading = null));
    }
    return this.#factors.get(regionId) ?? 1;
  }

  /** Resolves once a background read of the factors under way has finished. */
  async factorsRead(): Promise<void> {
    await this.#reading;
  }
}
