// Environment → typed configuration, validated once at start-up with messages a person can act on.
import { availableParallelism } from "node:os";
import { z } from "zod";
import { OPEN_METEO_FREE_TIER } from "./upstream-limits.js";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
/** DATA_SOURCE values: live upstreams when reachable with labelled seasonal norms otherwise, live only, or offline only. */
export const DATA_SOURCES = ["auto", "live", "offline"] as const;

const Port = z.coerce.number().int().min(0).max(65535);
const HttpUrl = z.url({ protocol: /^https?$/ });
const Count = z.coerce.number().int().min(0).max(100_000_000);

/**
 * Every environment variable the service reads, with its default. The README's configuration
 * table is written from this list; keep them in step.
 */
const EnvSchema = z.object({
  PORT: Port.default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_SOURCE: z.enum(DATA_SOURCES).default("auto"),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  /** Deep link for the `app` links; `{spot}`, `{date}` and `{activity}` are filled in. */
  APP_LINK_TEMPLATE: z.string().min(1).optional(),
  /** Extra Host names /mcp accepts, comma-separated (the public host and loopback are always allowed). */
  MCP_ALLOWED_HOSTS: z.string().optional(),
  /** Extra Origin host names /mcp accepts from browsers, comma-separated. */
  MCP_ALLOWED_ORIGINS: z.string().optional(),
  /** `off`: every MCP tool call goes through the SDK; `on`: a call of a kind the SDK has answered is written into its envelope (src/mcp/replay.ts). */
  MCP_REPLAY: z.enum(["on", "off"]).default("on"),
  // The process's memory measures (src/runtime/), each with its switch; docs/operations.md gives the measurements.
  /** V8's heap growth per full collection, percent; 0 leaves V8's own factor. */
  RUNTIME_HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(100).default(10),
  /** Compact the heap once the service falls idle. */
  RUNTIME_IDLE_COMPACTION: z.enum(["on", "off"]).default("on"),
  /** Keep one flat copy of the strings cached forecasts share. */
  RUNTIME_INTERN: z.enum(["on", "off"]).default("on"),
  // Live upstreams (docs/live-data.md). Defaults are the real public endpoints.
  /** Default: the free host, or its `customer-` twin when OPEN_METEO_API_KEY is set. */
  OPEN_METEO_MARINE_URL: HttpUrl.optional(),
  /** Default: the free host, or its `customer-` twin when OPEN_METEO_API_KEY is set. */
  OPEN_METEO_FORECAST_URL: HttpUrl.optional(),
  /** Commercial Open-Meteo key, sent as `apikey=`; the default URLs then move to the `customer-` hosts. */
  OPEN_METEO_API_KEY: z.string().min(1).optional(),
  COOPS_URL: HttpUrl.default("https://api.tidesandcurrents.noaa.gov/api/prod/datagetter"),
  ERDDAP_URL: HttpUrl.default("https://coastwatch.noaa.gov/erddap"),
  /** Kd490 griddap datasets, tried in order: near-real-time VIIRS first, then the gap-filled product. */
  ERDDAP_KD490_DATASETS: z
    .string()
    .regex(/^[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*$/, "comma-separated ERDDAP dataset ids")
    .default("noaacwNPPVIIRSkd490Daily,noaacwNPPN20S3AkdSCIDINEOF2kmDaily"),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(8000),
  /** ERDDAP griddap answers take 8–18 s: its own, longer timeout. */
  ERDDAP_TIMEOUT_MS: z.coerce.number().int().min(50).max(300_000).default(30_000),
  /** Open-Meteo requests running at once (free tier: 1 per client IP; raise it for a commercial key). */
  OPEN_METEO_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(OPEN_METEO_FREE_TIER.concurrency),
  /** Open-Meteo weighted calls per UTC minute, hour and day (free tier: 600, 5,000, 10,000). */
  OPEN_METEO_CALLS_PER_MINUTE: Count.default(OPEN_METEO_FREE_TIER.perMinute),
  OPEN_METEO_CALLS_PER_HOUR: Count.default(OPEN_METEO_FREE_TIER.perHour),
  OPEN_METEO_CALLS_PER_DAY: Count.default(OPEN_METEO_FREE_TIER.perDay),
  /** Consecutive failures that open an upstream's circuit breaker. */
  BREAKER_FAILURES: z.coerce.number().int().min(1).max(100).default(3),
  /** Seconds an open breaker waits before letting one probe call through. */
  BREAKER_COOLDOWN_S: z.coerce.number().min(0.01).max(3600).default(120),
  /** Memory budget for cached upstream responses, all upstreams together. */
  UPSTREAM_CACHE_MB: z.coerce.number().min(1).max(4096).default(32),
  // Rate limits (README "Limits"). A cap of 0 turns that cap off.
  RATE_LIMIT_FACTS_PER_HOUR: Count.default(300),
  RATE_LIMIT_FACTS_PER_DAY: Count.default(2000),
  RATE_LIMIT_SPOTS_PER_HOUR: Count.default(30),
  RATE_LIMIT_SPOTS_PER_DAY: Count.default(100),
  RATE_LIMIT_DECISIONS_BURST: Count.default(20),
  RATE_LIMIT_DECISIONS_WINDOW_S: z.coerce.number().int().min(1).max(3600).default(10),
  /** Fresh renders (share images and pages not in cache) per caller per hour; cache hits are free. */
  RATE_LIMIT_RENDERS_PER_HOUR: Count.default(120),
  /** Failed key attempts (unknown or revoked keys) per address per 15 minutes. */
  RATE_LIMIT_FAILED_KEYS: Count.default(20),
  /** Callers whose counters this instance keeps in memory; the least recently seen are forgotten first. */
  RATE_LIMIT_MAX_CALLERS: z.coerce.number().int().min(100).max(10_000_000).default(50_000),
  /** Share images drawn at once (default: one per core but one, at least 1) and how many may wait. */
  RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  RENDER_QUEUE: z.coerce.number().int().min(0).max(1000).default(8),
  /** Open connections in total and from one address (IPv6: one /64); keep-alive shortens under pressure. */
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(256),
  /** Requests one address may send a second on average, every route (0: no budget; see docs/operations.md). */
  MAX_REQUESTS_PER_SECOND_PER_IP: z.coerce.number().int().min(0).max(1_000_000).default(128),
  /** Requests one address may send at once before the per-second budget applies. */
  MAX_REQUEST_BURST_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(64),
  /** Cap multiplier for user-triggered AI fetchers, which share a few addresses among many people. */
  AI_FETCHER_MULTIPLIER: z.coerce.number().min(1).max(1000).default(10),
  /** Honour X-Forwarded-For: a hop count, or trusted proxy addresses/subnets ("true" is refused). */
  TRUST_PROXY: z.string().min(1).default("false"),
  /** Counters (and the keyed allotments) in Redis, shared by every instance; memory when unset. */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Score each satellite observation against the model from Open-Meteo's hindcast of its day (GET /api/v1/validation). */
  VALIDATION_SCORING: z.enum(["on", "off"]).default("on"),
  // Keys (README "Keys").
  AUTH_MODE: z.enum(["open", "metered"]).default("open"),
  /** JSON list of {key, status: active|revoked, allotment?}; required when AUTH_MODE=metered. */
  API_KEYS_FILE: z.string().min(1).optional(),
  /** Where a 402 free_allotment_exhausted points the caller. */
  UPGRADE_URL: HttpUrl.optional(),
});

/** Names of every environment variable read at start-up (the README documents each). */
export const ENV_VARS = Object.keys(EnvSchema.shape);

export type DataSourceMode = (typeof DATA_SOURCES)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  /** Public address without a trailing slash; used in every link, `source.url` and problem `type`. */
  publicBaseUrl: string;
  dataSource: DataSourceMode;
  logLevel: LogLevel;
  appLinkTemplate: string;
  /** Host names /mcp accepts (DNS-rebinding guard). */
  mcpAllowedHosts: string[];
  /** Origin host names /mcp accepts; requests without an Origin always pass. */
  mcpAllowedOrigins: string[];
  /** MCP tool calls of a kind the SDK has answered run here and are written in its envelope (MCP_REPLAY; src/mcp/replay.ts). */
  mcpReplay: boolean;
  /** The process's memory measures (RUNTIME_*; src/runtime/). */
  runtime: { heapGrowingPercent: number; idleCompaction: boolean; intern: boolean };
  upstreams: UpstreamConfig;
  rateLimits: RateLimitConfig;
  /** Renders at once and renders waiting (share images, pages). */
  render: { concurrency: number; queue: number };
  /** Connection caps (src/http/server-hooks.ts). */
  connections: { max: number; perIp: number; requestsPerSecondPerIp: number; requestBurstPerIp: number };
  /** Express "trust proxy" setting (false: the socket address is the caller). */
  trustProxy: false | number | string;
  redisUrl: string | null;
  /** Satellite observations scored against the model in live mode (two Open-Meteo requests per region and day). */
  validationScoring: boolean;
  auth: { mode: "open" | "metered"; keysFile: string | null; upgradeUrl: string };
}

/** Caps per caller; 0 = no cap. */
export interface RateLimitConfig {
  factsPerHour: number;
  factsPerDay: number;
  spotsPerHour: number;
  spotsPerDay: number;
  decisionsBurst: number;
  decisionsWindowS: number;
  rendersPerHour: number;
  failedKeys: number;
  /** Callers kept in memory per instance (least recently seen evicted first). */
  maxCallers: number;
  aiFetcherMultiplier: number;
}

export interface UpstreamConfig {
  marineUrl: string;
  forecastUrl: string;
  openMeteoApiKey: string | null;
  coopsUrl: string;
  /** ERDDAP server root, without a trailing slash (".../erddap"). */
  erddapUrl: string;
  kd490Datasets: string[];
  timeoutMs: number;
  erddapTimeoutMs: number;
  /** Open-Meteo requests at once, and weighted calls per window (0 = no cap). */
  openMeteo: { concurrency: number; perMinute: number; perHour: number; perDay: number };
  breakerFailures: number;
  breakerCooldownMs: number;
  cacheBytes: number;
}

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];
const list = (s: string | undefined) =>
  (s ?? "")
    .split(",")
    .map((x) => x.trim().toLowerCase())
    .filter(Boolean);

/**
 * TRUST_PROXY: "false", a hop count, or trusted proxy addresses/subnets. "true" would trust every
 * hop, so the client-chosen leftmost X-Forwarded-For address would be the caller and each made-up
 * address a fresh budget: it is refused.
 */
function parseTrustProxy(v: string): false | number | string {
  if (v === "false" || v === "0") return false;
  if (v === "true") {
    throw new ConfigError(
      'Invalid configuration:\n  TRUST_PROXY="true" would let any client choose its address with X-Forwarded-For. Give the number of proxies in front of the service (e.g. TRUST_PROXY=1) or their addresses/subnets (e.g. TRUST_PROXY="loopback, 10.0.0.0/8").',
    );
  }
  return /^\d+$/.test(v) ? Number(v) : v;
}

/** Open-Meteo serves keyed (commercial) calls only on the `customer-` hosts, so a key picks those. */
function openMeteoHost(hostAndPath: string, apiKey: string | undefined): string {
  return `https://${apiKey ? "customer-" : ""}${hostAndPath}`;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Reads and validates configuration from an environment map (default `process.env`). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const key = String(i.path[0] ?? "?");
      return `  ${key}=${JSON.stringify(env[key])}: ${i.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.AUTH_MODE === "metered" && !e.API_KEYS_FILE) {
    throw new ConfigError("Invalid configuration:\n  API_KEYS_FILE is required when AUTH_MODE=metered (a JSON list of {key, status, allotment?}).");
  }
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl,
    dataSource: e.DATA_SOURCE,
    logLevel: e.LOG_LEVEL,
    appLinkTemplate: e.APP_LINK_TEMPLATE ?? `${publicBaseUrl}/spots/{spot}?date={date}&activity={activity}`,
    mcpAllowedHosts: [...new Set([new URL(publicBaseUrl).hostname, ...LOOPBACK, ...list(e.MCP_ALLOWED_HOSTS)])],
    mcpReplay: e.MCP_REPLAY === "on",
    runtime: { heapGrowingPercent: e.RUNTIME_HEAP_GROWING_PERCENT, idleCompaction: e.RUNTIME_IDLE_COMPACTION === "on", intern: e.RUNTIME_INTERN === "on" },
    mcpAllowedOrigins: [...new Set([new URL(publicBaseUrl).hostname, ...LOOPBACK, ...list(e.MCP_ALLOWED_ORIGINS)])],
    upstreams: {
      marineUrl: e.OPEN_METEO_MARINE_URL ?? openMeteoHost("marine-api.open-meteo.com/v1/marine", e.OPEN_METEO_API_KEY),
      forecastUrl: e.OPEN_METEO_FORECAST_URL ?? openMeteoHost("api.open-meteo.com/v1/forecast", e.OPEN_METEO_API_KEY),
      openMeteoApiKey: e.OPEN_METEO_API_KEY ?? null,
      coopsUrl: e.COOPS_URL,
      erddapUrl: e.ERDDAP_URL.replace(/\/+$/, ""),
      kd490Datasets: e.ERDDAP_KD490_DATASETS.split(","),
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
      erddapTimeoutMs: e.ERDDAP_TIMEOUT_MS,
      openMeteo: { concurrency: e.OPEN_METEO_CONCURRENCY, perMinute: e.OPEN_METEO_CALLS_PER_MINUTE, perHour: e.OPEN_METEO_CALLS_PER_HOUR, perDay: e.OPEN_METEO_CALLS_PER_DAY },
      breakerFailures: e.BREAKER_FAILURES,
      breakerCooldownMs: Math.round(e.BREAKER_COOLDOWN_S * 1000),
      cacheBytes: Math.round(e.UPSTREAM_CACHE_MB * 1024 * 1024),
    },
    rateLimits: {
      factsPerHour: e.RATE_LIMIT_FACTS_PER_HOUR,
      factsPerDay: e.RATE_LIMIT_FACTS_PER_DAY,
      spotsPerHour: e.RATE_LIMIT_SPOTS_PER_HOUR,
      spotsPerDay: e.RATE_LIMIT_SPOTS_PER_DAY,
      decisionsBurst: e.RATE_LIMIT_DECISIONS_BURST,
      decisionsWindowS: e.RATE_LIMIT_DECISIONS_WINDOW_S,
      rendersPerHour: e.RATE_LIMIT_RENDERS_PER_HOUR,
      failedKeys: e.RATE_LIMIT_FAILED_KEYS,
      maxCallers: e.RATE_LIMIT_MAX_CALLERS,
      aiFetcherMultiplier: e.AI_FETCHER_MULTIPLIER,
    },
    // One core is left to the thread that answers requests (one worker on a 1- or 2-core machine).
    render: { concurrency: e.RENDER_CONCURRENCY ?? Math.max(1, availableParallelism() - 1), queue: e.RENDER_QUEUE },
    connections: { max: e.MAX_CONNECTIONS, perIp: e.MAX_CONNECTIONS_PER_IP, requestsPerSecondPerIp: e.MAX_REQUESTS_PER_SECOND_PER_IP, requestBurstPerIp: e.MAX_REQUEST_BURST_PER_IP },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    redisUrl: e.REDIS_URL ?? null,
    validationScoring: e.VALIDATION_SCORING === "on",
    auth: { mode: e.AUTH_MODE, keysFile: e.API_KEYS_FILE ?? null, upgradeUrl: e.UPGRADE_URL ?? `${publicBaseUrl}/docs#keys` },
  };
}
