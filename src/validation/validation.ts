// The validation record of one instance: where pairs are kept, what scores new observations, and
// the report built from them.
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Source as SourceObject } from "../attribution.js";
import type { Catalog, Region } from "../catalog/catalog.js";
import type { Clock } from "../clock.js";
import type { NormalConditions } from "../forecast/service.js";
import type { Kd490Batch } from "../sources/erddap.js";
import type { Hindcast } from "./hindcast.js";
import { regionValidation, validationReport, type ValidationJson } from "./report.js";
import { Scorer } from "./scorer.js";
import { MemoryPairStore, RedisPairStore, type PairStore } from "./store.js";

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

export class Validation {
  readonly store: PairStore;
  #scorer: Scorer | null = null;

  constructor(readonly deps: ValidationDeps) {
    this.store = deps.redis ? new RedisPairStore(deps.redis) : new MemoryPairStore();
  }

  /** Live mode: the hindcast the scorer reads the model's inputs from. */
  attach(hindcast: Hindcast): void {
    this.#scorer = new Scorer({ catalog: this.deps.catalog, clock: this.deps.clock, log: this.deps.log.child({ component: "validation" }), store: this.store, hindcast, normals: this.deps.normals });
  }

  /** A Kd490 batch arrived for a region: its new observations are scored in the background. */
  observe(region: Region, batch: Kd490Batch): void {
    this.#scorer?.observe(region, batch);
  }

  async settled(): Promise<void> {
    await this.#scorer?.settled();
  }

  report(): Promise<ValidationJson> {
    const d = this.deps;
    return validationReport({ catalog: d.catalog, store: this.store, now: d.clock.now(), source: d.source, dataMode: d.dataMode, docs: d.docs });
  }

  /** The factor (at most 1) by which a region's visibility confidence is lowered while its response does worse than climatology. */
  async confidenceFactor(region: Region): Promise<number> {
    return (await regionValidation(region, this.store, this.deps.clock.now())).confidence_factor;
  }
}
