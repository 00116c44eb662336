// Everything a handler needs, built once at start-up and passed in: configuration, the clock, the
// catalogue, the forecast service and the logger. Handlers never reach for globals.
import type { Logger } from "pino";
import { sourceObject, type Source as SourceObject } from "./attribution.js";
import { Catalog } from "./catalog/catalog.js";
import { loadRegulations, type Regulations } from "./catalog/regulations.js";
import type { Clock } from "./clock.js";
import type { Config } from "./config.js";
import { ForecastService } from "./forecast/service.js";
import { CardImages } from "./share/card-image.js";
import { RenderPool } from "./share/render-pool.js";
import { ClimatologySource, loadClimatology, unknownZoneSpots } from "./sources/climatology.js";
import type { ClimatologyTable } from "./sources/climatology-schema.js";
import { HarmonicTideSource, loadTideStations } from "./sources/tides.js";
import { CompositeSource } from "./sources/composite.js";
import { createUpstreams, type Upstreams } from "./sources/live.js";
import type { Redis } from "ioredis";
import { connectRedis } from "./redis.js";
import { KeyRegistry } from "./metering/keys.js";
import { Meter } from "./metering/meter.js";
import { AnswerCache } from "./answer-cache.js";
import { warmUp } from "./warm-up.js";
import { Validation } from "./validation/validation.js";
import type { Source, TideSource } from "./sources/types.js";

export interface ServiceContext {
  config: Config;
  clock: Clock;
  catalog: Catalog;
  forecasts: ForecastService;
  climatology: ClimatologySource;
  harmonicTides: HarmonicTideSource;
  /** Protected areas; `readable: false` when the file could not be read (spearfishing then checks nothing). */
  regulations: Regulations;
  /** The live upstream adapters; null with DATA_SOURCE=offline, which never calls out. */
  upstreams: Upstreams | null;
  log: Logger;
  /** Share-image renderer: fonts read once, rendered PNGs cached by content. */
  cardImages: CardImages;
  /** Keys, rate limits and allotments for every metered call. */
  meter: Meter;
  /** Answers by operation and arguments, shared by REST and MCP, valid while their data is. */
  answers: AnswerCache;
  /** Redis connection when REDIS_URL is set (rate limits, upstream answers, leases and upstream limits shared across instances). */
  redis: Redis | null;
  /** Satellite observations scored against the visibility model (GET /api/v1/validation). */
  validation: Validation;
  /** The `source` object every JSON body carries. */
  source: SourceObject;
  links: Links;
  /** Set when shutting down: /readyz answers 503 so load balancers stop sending. */
  draining: boolean;
  /**
   * Work done ahead of requests once the service is listening (see warm-up.ts): the tide tables,
   * then one decision and one conditions answer per region. Requests never wait for it, but
   * /readyz reports `starting` while it runs. The share-image renderer is not warmed: it loads on
   * the first PNG (about 0.4 s once) and holds about 70 MB, which a process serving only the API
   * and MCP never needs.
   */
  warmUp(): Promise<void>;
  /** True while the warm-up runs (readiness waits for it). */
  warming: boolean;
  /** Releases connections (Redis) and timers (refresh ticker). */
  close(): Promise<void>;
}

export interface Links {
  base: string;
  docs: string;
  openapi: string;
  conditions(spotId: string): string;
  /** The spot's forecast page; `date` and `activity` highlight a day. */
  spotPage(spotId: string, date?: string, activity?: string | null): string;
  app(spotId: string, date?: string, activity?: string): string;
  /** Share page with Open Graph tags for a card. */
  share(spotId: string, date: string, activity: string | null): string;
  /** 1200x630 PNG share image for a card. */
  cardImage(spotId: string, date: string, activity: string | null): string;
}

export function makeLinks(config: Config): Links {
  const base = config.publicBaseUrl;
  return {
    base,
    docs: `${base}/docs`,
    openapi: `${base}/openapi.json`,
    conditions: (id) => `${base}/api/v1/conditions?spot=${encodeURIComponent(id)}`,
    spotPage: (id, date, activity) => fillTemplate(`${base}/spots/{spot}?date={date}&activity={activity}`, { spot: id, date: date ?? "", activity: activity ?? "" }),
    app: (id, date, activity) => fillTemplate(config.appLinkTemplate, { spot: id, date: date ?? "", activity: activity ?? "" }),
    share: (id, date, activity) => `${base}/s/${encodeURIComponent(id)}/${date}${activity ? `?activity=${activity}` : ""}`,
    cardImage: (id, date, activity) => `${base}/cards/${encodeURIComponent(id)}/${date}.png${activity ? `?activity=${activity}` : ""}`,
  };
}

/** Fills `{name}` placeholders; query parameters left empty are dropped. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  const filled = template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(values[k] ?? ""));
  const [path, query] = filled.split("?", 2) as [string, string | undefined];
  if (query === undefined) return path;
  const kept = query.split("&").filter((kv) => kv !== "" && !kv.endsWith("="));
  return kept.length > 0 ? `${path}?${kept.join("&")}` : path;
}

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
    if (spot.tide_station !== null && !harmonicTides.station(spot.tide_station)) throw new Error(`spot ${spot.id}: tide station ${spot.tide_station} missing from data/tide-stations.json (run npm run data:tides)`);
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
  const validation = new Validation({ catalog, clock: opts.clock, log: opts.log, redis, normals: climatology, source: sourceObject(opts.config.publicBaseUrl), dataMode: mode, docs: `${opts.config.publicBaseUrl}/docs` });
  const upstreams = mode === "offline" ? null : createUpstreams({ config: opts.config, clock: opts.clock, log: opts.log, harmonics: harmonicTides, redis, onKd490: (r, b) => validation.observe(r, b), onTick: () => validation.retry() });
  if (upstreams && opts.config.validationScoring) validation.attach(upstreams.hindcast);
  const source = opts.source ?? new CompositeSource(mode, upstreams?.sources ?? [], climatology);
  const tides = opts.tides ?? upstreams?.tides ?? harmonicTides;
  const forecasts = new ForecastService({ source, tides, clock: opts.clock, normals: climatology }, catalog);
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
