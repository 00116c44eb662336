// The composition root: the one place that builds a running service from its configuration
// (sources → forecast service → catalogue checks → metering → renderer → answer cache → warm-up)
// and hands handlers the plain ServiceContext (src/services/context.ts). Only the entry point, the tests,
// scripts and benchmarks import it; nothing in src/ or tools/ does (docs/development.md, "Layers").
import { intern } from "./runtime/flat.js";
import type { Logger } from "pino";
import { sourceObject } from "./base/attribution.js";
import { Catalog } from "./catalog/catalog.js";
import { loadRegulations } from "./catalog/regulations.js";
import type { Clock } from "./base/clock.js";
import type { Config } from "./base/config.js";
import { makeLinks, type ServiceContext } from "./services/context.js";
import { ForecastService } from "./forecast/service.js";
import { CardImages } from "./services/render/card-image.js";
import { RenderPool } from "./services/render/render-pool.js";
import { ClimatologySource, loadClimatology, unknownZoneSpots } from "./sources/climatology.js";
import type { ClimatologyTable } from "./sources/climatology-schema.js";
import { HarmonicTideSource, loadTideStations } from "./sources/tides.js";
import { CompositeSource } from "./sources/composite.js";
import { createUpstreams } from "./sources/live.js";
import { Validation } from "./services/validation/validation.js";
import { connectRedis } from "./base/redis.js";
import { KeyRegistry } from "./services/metering/keys.js";
import { Meter } from "./services/metering/meter.js";
import { AnswerCache } from "./services/answer-cache.js";
import { warmUp } from "./answers/warm-up.js";
import type { Source, TideSource } from "./sources/types.js";

export interface ContextOptions {
  config: Config;
  clock: Clock;
  log: Logger;
  catalog?: Catalog;
  /** Override the hourly source (tests use stubs of upstreams through the real adapters). */
  source?: Source;
  tides?: TideSource;
  /** Seasonal-norm tables by region id (default data/climatology; planning runs pass cloned regions'). */
  climatology?: Map<string, ClimatologyTable>;
  /** Protected-areas file (default data/protected-areas.json). */
  protectedAreasFile?: string;
  /** Share-image renderer (tests pass one with a small cache). */
  cardImages?: CardImages;
}

export function createContext(opts: ContextOptions): ServiceContext {
  const catalog = opts.catalog ?? Catalog.load();
  const climatology = new ClimatologySource(opts.climatology ?? loadClimatology());
  const harmonicTides = new HarmonicTideSource(loadTideStations());
  for (const spot of catalog.spots) {
    if (spot.tide_station !== null && !harmonicTides.station(spot.tide_station))
      throw new Error(`spot ${spot.id}: tide station ${spot.tide_station} missing from data/tide-stations.json (run npm run data:tides)`);
    if (!climatology.table(spot.region.id)) throw new Error(`region ${spot.region.id}: no seasonal norms in data/climatology`);
  }
  for (const region of catalog.regions) {
    const unknown = unknownZoneSpots(climatology.table(region.id)!, new Set(region.spots.map((s) => s.id)));
    if (unknown.length) throw new Error(`region ${region.id}: water_temp_zones name spots not in the region: ${unknown.join(", ")}`);
  }
  const regulations = loadRegulations(catalog, opts.protectedAreasFile);
  if (!regulations.readable) opts.log.error({ err: regulations.error }, "protected-area data unreadable: spearfishing picks will carry regulations_not_checked");
  const mode = opts.config.dataSource;
  const redis = opts.config.redisUrl ? connectRedis(opts.config.redisUrl, opts.log) : null;
  const validation = new Validation({
    catalog,
    clock: opts.clock,
    log: opts.log,
    redis,
    normals: climatology,
    source: sourceObject(opts.config.publicBaseUrl),
    dataMode: mode,
    docs: `${opts.config.publicBaseUrl}/docs`,
  });
  const upstreams =
    mode === "offline"
      ? null
      : createUpstreams({ config: opts.config, clock: opts.clock, log: opts.log, harmonics: harmonicTides, redis, onKd490: (r, b) => validation.observe(r, b), onTick: () => validation.retry() });
  if (upstreams && opts.config.validationScoring) validation.attach(upstreams.hindcast);
  const source = opts.source ?? new CompositeSource(mode, upstreams?.sources ?? [], climatology);
  const tides = opts.tides ?? upstreams?.tides ?? harmonicTides;
  const forecasts = new ForecastService({ source, tides, clock: opts.clock, normals: climatology, ...(opts.config.runtime.intern ? { keepString: intern } : {}) }, catalog);
  const keys = opts.config.auth.mode === "metered" && opts.config.auth.keysFile ? KeyRegistry.load(opts.config.auth.keysFile) : null;
  const meter = new Meter({ config: opts.config, keys, catalog, clock: opts.clock, redis });
  if (opts.config.auth.mode === "metered" && !redis) {
    opts.log.warn("AUTH_MODE=metered without REDIS_URL: key allotments are counted in this process's memory and start again from zero on every restart");
  }
  const ctx: ServiceContext = {
    config: opts.config,
    clock: opts.clock,
    catalog,
    forecasts,
    climatology,
    harmonicTides,
    regulations,
    upstreams,
    log: opts.log,
    cardImages: opts.cardImages ?? new CardImages({ renderer: new RenderPool(opts.config.render) }),
    meter,
    answers: new AnswerCache(opts.clock, forecasts, catalog),
    redis,
    validation,
    source: sourceObject(opts.config.publicBaseUrl),
    links: makeLinks(opts.config),
    draining: false,
    warming: false,
    async warmUp() {
      ctx.warming = true;
      try {
        await warmUp(ctx);
      } finally {
        ctx.warming = false;
      }
    },
    async close() {
      upstreams?.stop();
      await ctx.cardImages.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
  return ctx;
}
