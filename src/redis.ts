// The one Redis connection an instance holds (rate limits, upstream answers, leases, upstream limits).
import type { Logger } from "pino";
import type { Redis } from "ioredis";
import { createRequire } from "node:module";

/**
 * One connection for everything shared across instances; commands fail fast (and each user falls
 * back to this instance's memory) while it is down. Each change of state is logged once.
 */
export function connectRedis(url: string, log: Logger): Redis {
  // Loaded only when configured (~70 ms of start-up otherwise).
  const { Redis: RedisClient } = createRequire(import.meta.url)("ioredis") as typeof import("ioredis");
  const redis = new RedisClient(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, commandTimeout: 2000, lazyConnect: false });
  let up = false;
  redis.on("ready", () => {
    if (!up) log.info("redis connected: rate limits, upstream answers, leases and upstream limits shared across instances");
    up = true;
  });
  redis.on("error", (err: Error) => {
    if (up) log.warn({ err: err.message }, "redis unavailable: rate limits, upstream answers, leases and upstream limits fall back to this instance's memory");
    up = false;
  });
  return redis;
}
