// Everything a handler needs, built once at start-up and passed in: configuration, the clock, the
// catalogue, the forecast service and the logger. Handlers never reach for globals. This module
// holds only the shape (and the pure link helpers); src/compose.ts builds it. It imports nothing
// but types from the layers below it (docs/development.md, "Layers").
import type { Logger } from "pino";
import type { Redis } from "ioredis";
import type { Source as SourceObject } from "../base/attribution.js";
import type { Catalog } from "../catalog/catalog.js";
import type { Regulations } from "../catalog/regulations.js";
import type { Clock } from "../base/clock.js";
import type { Config } from "../base/config.js";
import type { ForecastService } from "../forecast/service.js";
import type { CardImages } from "./render/card-image.js";
import type { ClimatologySource } from "../sources/climatology.js";
import type { HarmonicTideSource } from "../sources/tides.js";
import type { Upstreams } from "../sources/live.js";
import type { Meter } from "./metering/meter.js";
import type { AnswerCache } from "./answer-cache.js";
import type { Validation } from "./validation/validation.js";

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
  /** The spot's forecast page; `date` and `activity` highlight a day; `units` switches them (and is remembered). */
  spotPage(spotId: string, date?: string, activity?: string | null, units?: string): string;
  /** The region's page: the best spot per activity today and tomorrow, its rules and its spots. */
  regionPage(regionId: string, units?: string): string;
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
    spotPage: (id, date, activity, units) =>
      fillTemplate(`${base}/spots/{spot}?date={date}&activity={activity}&units={units}`, { spot: id, date: date ?? "", activity: activity ?? "", units: units ?? "" }),
    regionPage: (id, units) => fillTemplate(`${base}/regions/{region}?units={units}`, { region: id, units: units ?? "" }),
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
