// The live upstreams, built once from configuration: one scheduler lane per upstream service (both
// Open-Meteo APIs share one: the limits are per client IP), one client (timeout + circuit breaker)
// and one bounded cache per upstream, the four adapters, the preferred tide source, and the
// refresh-ahead ticker that keeps recently asked regions fresh so requests rarely wait on an upstream.
// Spots without a tide station get the modelled tide read off the marine answer (tide-model.ts).
import type { Logger } from "pino";
import { SERVICE_NAME, SERVICE_VERSION } from "../base/attribution.js";
import { DAY_MS, HOUR_MS, type Clock } from "../base/clock.js";
import type { Config } from "../base/config.js";
import { REFRESH_MS } from "../base/limits.js";
import { CircuitBreaker } from "./breaker.js";
import { UpstreamCache } from "./cache.js";
import { CoopsTideSource, PreferredTideSource } from "./coops.js";
import { ERDDAP_RETRY_FAILED_MS, ErddapKd490Source, type Kd490Batch } from "./erddap.js";
import { UpstreamClient } from "./http.js";
import { FRESHNESS_LEVELS } from "./freshness.js";
import { ModelRunWatch } from "./model-runs.js";
import { FORECAST, MARINE, OpenMeteoSource, type OpenMeteoBatch } from "./open-meteo.js";
import { MemoryUpstreamBudget, RefreshGovernor, UpstreamLane, type QuotaWindow, type UpstreamBudget } from "./scheduler.js";
import { LEASE_MARGIN_MS, RedisLink, RedisUpstreamBudget, SharedAnswers, Wakeups } from "./shared.js";
import type { Redis } from "ioredis";
import type { HarmonicTideSource } from "./tides.js";
import { MODELLED_TIDE_ID } from "./tide-model.js";
import type { Source, TideEvent } from "./types.js";
import type { Region } from "../catalog/catalog.js";
import { OpenMeteoHindcast } from "./hindcast.js";

export const UPSTREAMS = ["open-meteo-marine", "open-meteo-forecast", "noaa-coops", "erddap"] as const;
export type UpstreamName = (typeof UPSTREAMS)[number];

/** A forecast older than this is not served, even when nothing newer can be had. */
export const MAX_STALE_MS = 3 * DAY_MS;
/** Regions asked about within this long are refreshed ahead of each hour. */
export const RECENT_MS = 3 * HOUR_MS;
/**
 * How long before the hour turns the next hour's data is fetched for recently asked regions: each
 * region at its own minute in this span, so refreshes spread out. The earliest lead keeps an answer
 * `live` (< 90 min old) until the end of the hour it is for.
 */
export const REFRESH_AHEAD_MS = 25 * 60_000;
export const REFRESH_AHEAD_MIN_MS = 3 * 60_000;
/** Requests at once to ERDDAP and CO-OPS (neither publishes a limit; both are shared public servers). */
export const ERDDAP_CONCURRENCY = 2;
export const COOPS_CONCURRENCY = 2;
/** How often the ticker looks for refreshes due. */
export const REFRESH_TICK_MS = 60_000;
/**
 * Open-Meteo work no caller is owed (refresh-ahead, and a new model run while the answer at hand is
 * young) goes only while the lane's spending stays within this share of each quota window, the day's
 * share paced over the UTC day with REFRESH_PACE_HEADSTART_MS of head start (scheduler.ts,
 * RefreshGovernor). The rest is left to callers whose answer would otherwise leave the `recent` window.
 */
export const REFRESH_SHARE = 0.4;
export const REFRESH_PACE_HEADSTART_MS = 3 * HOUR_MS;
/** A held-back answer is kept only while it stays younger than the `recent` freshness window. */
/**
 * The validation hindcast goes only in a quiet minute: while the minute's Open-Meteo spending (callers
 * included) stays within this share of the per-minute limit, so it never competes with a burst of callers.
 */
export const HINDCAST_MINUTE_SHARE = 0.1;
export const HOLD_MAX_AGE_MS = FRESHNESS_LEVELS.find((f) => f.id === "recent")!.maxAgeMs;

/** Share of UPSTREAM_CACHE_MB each upstream's cache may use. */
const CACHE_SHARE: Record<UpstreamName, number> = { "open-meteo-marine": 0.35, "open-meteo-forecast": 0.35, "noaa-coops": 0.15, erddap: 0.15 };

export interface Upstreams {
  /** Hourly sources in priority order (the composite falls back past them). */
  sources: Source[];
  tides: PreferredTideSource;
  breakers: Record<UpstreamName, CircuitBreaker>;
  /** Scheduler lanes: "open-meteo" (both APIs), "noaa-coops", "erddap". */
  lanes: Record<"open-meteo" | "noaa-coops" | "erddap", UpstreamLane>;
  caches: Record<UpstreamName, UpstreamCache<unknown>>;
  /** Open-Meteo model run times (metadata files), checked before an hourly re-download. */
  runs: ModelRunWatch;
  /** Holds Open-Meteo background work within REFRESH_SHARE of the quota windows. */
  governor: RefreshGovernor;
  /** Fetches the next hour's data for recently asked regions when the hour is about to turn. */
  refreshAhead(): Promise<number>;
  /** Open-Meteo's answers for past days, through the same clients (the validation record's model inputs). */
  hindcast: OpenMeteoHindcast;
  /** Resolves once every upstream fetch under way (background ones included) has finished. */
  settled(): Promise<void>;
  /** Starts the refresh-ahead ticker (npm start); tests call refreshAhead() directly. */
  start(): void;
  stop(): void;
}

export interface UpstreamDeps {
  config: Config;
  clock: Clock;
  log: Logger;
  harmonics: HarmonicTideSource;
  /** With REDIS_URL: upstream answers, leases and the scheduler's limits shared by every instance. */
  redis?: Redis | null;
  /** Told of each Kd490 batch fetched (the validation record). */
  onKd490?: (region: Region, batch: Kd490Batch) => void;
  /** Called on each refresh-ahead tick (the validation record retries what it held back). */
  onTick?: () => void;
}

export function createUpstreams({ config, clock, log, harmonics, redis, onKd490, onTick }: UpstreamDeps): Upstreams {
  const u = config.upstreams;
  const ulog = log.child({ component: "upstreams" });
  const userAgent = `${SERVICE_NAME.replace(/\s+/g, "-").toLowerCase()}/${SERVICE_VERSION} (+${config.publicBaseUrl})`;

  const om = u.openMeteo;
  const quotas: QuotaWindow[] = (
    [
      { id: "minute", limit: om.perMinute },
      { id: "hour", limit: om.perHour },
      { id: "day", limit: om.perDay },
    ] as const
  ).filter((w) => w.limit > 0);
  const link = redis ? new RedisLink(redis) : null;
  const wakeups = redis ? new Wakeups(redis) : null;
  // A lease (and a shared slot) outlives the longest fetch; a crashed holder's is taken over after it.
  const leaseMs = (name: UpstreamName) => (name === "erddap" ? u.erddapTimeoutMs : u.timeoutMs) + LEASE_MARGIN_MS;
  const budget = (name: string, concurrency: number, windows: QuotaWindow[]): UpstreamBudget =>
    link ? new RedisUpstreamBudget(link, name, concurrency, windows, Math.max(u.timeoutMs, u.erddapTimeoutMs) + LEASE_MARGIN_MS) : new MemoryUpstreamBudget(concurrency, windows);
  const lane = (name: string, concurrency: number, windows: QuotaWindow[] = []) => new UpstreamLane(name, { budget: budget(name, concurrency, windows), clock, log: ulog });
  const lanes = { "open-meteo": lane("open-meteo", om.concurrency, quotas), "noaa-coops": lane("noaa-coops", COOPS_CONCURRENCY), erddap: lane("erddap", ERDDAP_CONCURRENCY) };
  const laneOf: Record<UpstreamName, UpstreamLane> = {
    "open-meteo-marine": lanes["open-meteo"],
    "open-meteo-forecast": lanes["open-meteo"],
    "noaa-coops": lanes["noaa-coops"],
    erddap: lanes.erddap,
  };

  const breakers = {} as Record<UpstreamName, CircuitBreaker>;
  const clients = {} as Record<UpstreamName, UpstreamClient>;
  for (const name of UPSTREAMS) {
    breakers[name] = new CircuitBreaker(name, { failureThreshold: u.breakerFailures, cooldownMs: u.breakerCooldownMs, clock, log: ulog });
    const timeoutMs = name === "erddap" ? u.erddapTimeoutMs : u.timeoutMs;
    clients[name] = new UpstreamClient(name, { breaker: breakers[name], lane: laneOf[name], timeoutMs, clock, log: ulog, userAgent });
  }
  // Metadata requests wait their turn in the Open-Meteo lane (one request at a time per address) but
  // weigh nothing; their own breaker keeps a missing metadata file from pausing the data APIs.
  const runsClient = new UpstreamClient("open-meteo-runs", {
    breaker: new CircuitBreaker("open-meteo-runs", { failureThreshold: u.breakerFailures, cooldownMs: u.breakerCooldownMs, clock, log: ulog }),
    lane: lanes["open-meteo"],
    timeoutMs: u.timeoutMs,
    clock,
    log: ulog,
    userAgent,
  });
  const runs = new ModelRunWatch({ client: runsClient, urls: { marine: u.marineUrl, forecast: u.forecastUrl }, clock });
  const governor = new RefreshGovernor({ budget: lanes["open-meteo"].opts.budget, windows: quotas, share: REFRESH_SHARE, headstartMs: REFRESH_PACE_HEADSTART_MS, clock });
  const governed = (weightOf: (group: string) => number) => ({ governor: (group: string) => governor.reserve(weightOf(group)), holdMaxAgeMs: HOLD_MAX_AGE_MS });

  const cache = <V>(name: UpstreamName, periodMs: number, sizeOf: (v: V) => number, refreshAheadMs: number, retryFailedAfterMs?: number, extra?: ReturnType<typeof governed>) =>
    new UpstreamCache<V>({
      ...extra,
      name,
      clock,
      periodMs,
      maxBytes: Math.floor(u.cacheBytes * CACHE_SHARE[name]),
      sizeOf,
      maxStaleMs: MAX_STALE_MS,
      refreshAheadMs,
      refreshAheadMinMs: Math.min(refreshAheadMs, REFRESH_AHEAD_MIN_MS),
      recentMs: RECENT_MS,
      retryFailedAfterMs,
      canCall: () => breakers[name].wouldAllow() && !laneOf[name].paused(),
      shared: link ? new SharedAnswers({ link, wakeups, leaseMs: leaseMs(name), maxStaleMs: MAX_STALE_MS, now: () => clock.now() }) : null,
      log: ulog,
    });

  const caches = {
    "open-meteo-marine": cache<OpenMeteoBatch>(
      "open-meteo-marine",
      REFRESH_MS,
      OpenMeteoSource.sizeOf,
      REFRESH_AHEAD_MS,
      undefined,
      governed((g): number => marine.weightOf(g)),
    ),
    "open-meteo-forecast": cache<OpenMeteoBatch>(
      "open-meteo-forecast",
      REFRESH_MS,
      OpenMeteoSource.sizeOf,
      REFRESH_AHEAD_MS,
      undefined,
      governed((g): number => forecast.weightOf(g)),
    ),
    // Tide predictions do not change: one answer per station and day, never refreshed ahead.
    "noaa-coops": cache<TideEvent[]>("noaa-coops", DAY_MS, CoopsTideSource.sizeOf, 0),
    // A daily product days behind: asked once per region and UTC day, never waited on (erddap.ts).
    erddap: cache<Kd490Batch>("erddap", DAY_MS, ErddapKd490Source.sizeOf, 0, ERDDAP_RETRY_FAILED_MS),
  };

  const marine: OpenMeteoSource = new OpenMeteoSource(MARINE, { url: u.marineUrl, apiKey: u.openMeteoApiKey, client: clients["open-meteo-marine"], cache: caches["open-meteo-marine"], runs });
  const forecast: OpenMeteoSource = new OpenMeteoSource(FORECAST, {
    url: u.forecastUrl,
    apiKey: u.openMeteoApiKey,
    client: clients["open-meteo-forecast"],
    cache: caches["open-meteo-forecast"],
    runs,
  });
  const erddap = new ErddapKd490Source({ url: u.erddapUrl, datasets: u.kd490Datasets, client: clients.erddap, cache: caches.erddap, onBatch: onKd490 });
  const coops = new CoopsTideSource({ url: u.coopsUrl, client: clients["noaa-coops"], cache: caches["noaa-coops"], harmonics });

  const refreshAhead = async () => {
    const counts = await Promise.all([caches["open-meteo-marine"], caches["open-meteo-forecast"]].map((c) => c.refreshAhead()));
    onTick?.();
    return counts.reduce((a, b) => a + b, 0);
  };
  let timer: NodeJS.Timeout | null = null;
  return {
    sources: [marine, forecast, erddap],
    tides: new PreferredTideSource(coops, harmonics, { id: MODELLED_TIDE_ID, extremes: (spot, start, end) => marine.modelledTide(spot, start, end) }),
    breakers,
    lanes,
    caches: caches as Record<UpstreamName, UpstreamCache<unknown>>,
    runs,
    governor,
    hindcast: new OpenMeteoHindcast({
      marine: { client: clients["open-meteo-marine"], url: u.marineUrl },
      forecast: { client: clients["open-meteo-forecast"], url: u.forecastUrl },
      apiKey: u.openMeteoApiKey,
      clock,
      governor,
      quietMinute: quotas.some((w) => w.id === "minute")
        ? new RefreshGovernor({ budget: lanes["open-meteo"].opts.budget, windows: quotas.filter((w) => w.id === "minute"), share: HINDCAST_MINUTE_SHARE, headstartMs: 0, clock })
        : undefined,
    }),
    refreshAhead,
    async settled() {
      await Promise.all(Object.values(caches).map((c) => c.settled()));
    },
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
