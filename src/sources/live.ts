// The live upstreams, built once from configuration: one client (timeout + circuit breaker) and one
// bounded cache per upstream, the four adapters, the preferred tide source, and the refresh-ahead
// ticker that keeps recently asked regions fresh so requests rarely wait on an upstream.
import type { Logger } from "pino";
import { SERVICE_NAME, SERVICE_VERSION } from "../attribution.js";
import { DAY_MS, HOUR_MS, type Clock } from "../clock.js";
import type { Config } from "../config.js";
import { REFRESH_MS } from "../limits.js";
import { CircuitBreaker } from "./breaker.js";
import { UpstreamCache } from "./cache.js";
import { CoopsTideSource, PreferredTideSource } from "./coops.js";
import { ErddapKd490Source, type Kd490Batch } from "./erddap.js";
import { UpstreamClient } from "./http.js";
import { FORECAST, MARINE, OpenMeteoSource, type OpenMeteoBatch } from "./open-meteo.js";
import type { HarmonicTideSource } from "./tides.js";
import type { Source, TideEvent } from "./types.js";

export const UPSTREAMS = ["open-meteo-marine", "open-meteo-forecast", "noaa-coops", "erddap"] as const;
export type UpstreamName = (typeof UPSTREAMS)[number];

/** A forecast older than this is not served, even when nothing newer can be had. */
export const MAX_STALE_MS = 3 * DAY_MS;
/** Regions asked about within this long are refreshed ahead of each hour. */
export const RECENT_MS = 3 * HOUR_MS;
/** How long before the hour turns the next hour's data is fetched for recently asked regions. */
export const REFRESH_AHEAD_MS = 10 * 60_000;
/** How often the ticker looks for refreshes due. */
export const REFRESH_TICK_MS = 60_000;

/** Share of UPSTREAM_CACHE_MB each upstream's cache may use. */
const CACHE_SHARE: Record<UpstreamName, number> = { "open-meteo-marine": 0.35, "open-meteo-forecast": 0.35, "noaa-coops": 0.15, erddap: 0.15 };

export interface Upstreams {
  /** Hourly sources in priority order (the composite falls back past them). */
  sources: Source[];
  tides: PreferredTideSource;
  breakers: Record<UpstreamName, CircuitBreaker>;
  caches: Record<UpstreamName, UpstreamCache<unknown>>;
  /** Fetches the next hour's data for recently asked regions when the hour is about to turn. */
  refreshAhead(): Promise<number>;
  /** Starts the refresh-ahead ticker (npm start); tests call refreshAhead() directly. */
  start(): void;
  stop(): void;
}

export interface UpstreamDeps {
  config: Config;
  clock: Clock;
  log: Logger;
  harmonics: HarmonicTideSource;
}

export function createUpstreams({ config, clock, log, harmonics }: UpstreamDeps): Upstreams {
  const u = config.upstreams;
  const ulog = log.child({ component: "upstreams" });
  const userAgent = `${SERVICE_NAME.replace(/\s+/g, "-").toLowerCase()}/${SERVICE_VERSION} (+${config.publicBaseUrl})`;

  const breakers = {} as Record<UpstreamName, CircuitBreaker>;
  const clients = {} as Record<UpstreamName, UpstreamClient>;
  for (const name of UPSTREAMS) {
    breakers[name] = new CircuitBreaker(name, { failureThreshold: u.breakerFailures, cooldownMs: u.breakerCooldownMs, clock, log: ulog });
    clients[name] = new UpstreamClient(name, { breaker: breakers[name], timeoutMs: u.timeoutMs, clock, log: ulog, userAgent });
  }
  const cache = <V>(name: UpstreamName, periodMs: number, sizeOf: (v: V) => number, refreshAheadMs: number) =>
    new UpstreamCache<V>({
      name,
      clock,
      periodMs,
      maxBytes: Math.floor(u.cacheBytes * CACHE_SHARE[name]),
      sizeOf,
      maxStaleMs: MAX_STALE_MS,
      refreshAheadMs,
      recentMs: RECENT_MS,
      canCall: () => breakers[name].wouldAllow(),
      log: ulog,
    });

  const caches = {
    "open-meteo-marine": cache<OpenMeteoBatch>("open-meteo-marine", REFRESH_MS, OpenMeteoSource.sizeOf, REFRESH_AHEAD_MS),
    "open-meteo-forecast": cache<OpenMeteoBatch>("open-meteo-forecast", REFRESH_MS, OpenMeteoSource.sizeOf, REFRESH_AHEAD_MS),
    // Tide predictions do not change: one answer per station and day, never refreshed ahead.
    "noaa-coops": cache<TideEvent[]>("noaa-coops", DAY_MS, CoopsTideSource.sizeOf, 0),
    erddap: cache<Kd490Batch>("erddap", REFRESH_MS, ErddapKd490Source.sizeOf, REFRESH_AHEAD_MS),
  };

  const marine = new OpenMeteoSource(MARINE, { url: u.marineUrl, apiKey: u.openMeteoApiKey, client: clients["open-meteo-marine"], cache: caches["open-meteo-marine"] });
  const forecast = new OpenMeteoSource(FORECAST, { url: u.forecastUrl, apiKey: u.openMeteoApiKey, client: clients["open-meteo-forecast"], cache: caches["open-meteo-forecast"] });
  const erddap = new ErddapKd490Source({ url: u.erddapUrl, datasets: u.kd490Datasets, client: clients.erddap, cache: caches.erddap });
  const coops = new CoopsTideSource({ url: u.coopsUrl, client: clients["noaa-coops"], cache: caches["noaa-coops"], harmonics });

  const refreshAhead = async () => {
    const counts = await Promise.all([caches["open-meteo-marine"], caches["open-meteo-forecast"], caches.erddap].map((c) => c.refreshAhead()));
    return counts.reduce((a, b) => a + b, 0);
  };
  let timer: NodeJS.Timeout | null = null;
  return {
    sources: [marine, forecast, erddap],
    tides: new PreferredTideSource(coops, harmonics),
    breakers,
    caches: caches as Record<UpstreamName, UpstreamCache<unknown>>,
    refreshAhead,
    start() {
      timer ??= setInterval(() => void refreshAhead().catch((e: unknown) => ulog.error({ err: e }, "refresh-ahead failed")), REFRESH_TICK_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
