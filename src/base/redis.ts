// The one Redis connection an instance holds (rate limits, upstream answers, leases, upstream limits).
//
// Redis is a dependency that can hang as well as refuse: a server that is stopped (or swapping, or
// behind a dead NAT entry) keeps its socket open and never answers. So every command has a deadline
// (REDIS_COMMAND_TIMEOUT_MS), and the connection is a breaker:
// - closed (`up`): commands go to Redis;
// - open (`down`): the first command past its deadline, or a refused or lost connection, drops the
//   connection. Until a new one has answered its handshake, every command fails at once (no
//   offline queue), so each user falls back to this instance's memory without waiting: rate
//   limits count locally, upstream answers are fetched locally, and key allotments fail closed;
// - the client reconnects on its own (backing off up to 2 s); a connection counts again only once
//   Redis has answered its handshake (INFO) within the deadline, which closes the breaker.
// Each change of state is logged once; `/readyz` reports it (redisState).
//
// A Redis that answers can still refuse writes for want of memory (`OOM command not allowed`: its
// maxmemory reached with nothing it may evict). The connection is then `full` until a write
// succeeds again: logged once each way, and `/readyz` says `degraded` (redisMemoryState). Each user
// already falls back as for a refusal (rate limits count in memory, answers are fetched locally;
// allotments fail closed).
import type { Logger } from "pino";
import type { Redis } from "ioredis";
import { createRequire } from "node:module";

/**
 * Deadline of one Redis command. A healthy Redis answers in well under a millisecond; this is far
 * under a request's own budget, so a hung Redis costs a metered request at most this once (the
 * first command past it opens the breaker, and every later command fails at once).
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** The connection's state as `/readyz` reports it: null without REDIS_URL. */
export type RedisState = "up" | "down" | null;

export function redisState(redis: Redis | null): RedisState {
  if (!redis) return null;
  return redis.status === "ready" && breakers.get(redis)?.up !== false ? "up" : "down";
}

/** Whether the connection's Redis refuses writes for want of memory: null without REDIS_URL. */
export type RedisMemoryState = "ok" | "full" | null;

export function redisMemoryState(redis: Redis | null): RedisMemoryState {
  if (!redis) return null;
  return breakers.get(redis)?.full ? "full" : "ok";
}

/** Each connection's breaker: closed (`up`) once Redis has answered a handshake, open after a failure; `full` after an OOM refusal. */
const breakers = new WeakMap<Redis, { up: boolean; full: boolean }>();

/** Commands that never need memory: their success says nothing about whether writes are accepted. */
const READS = new Set([
  "get",
  "mget",
  "pttl",
  "ttl",
  "exists",
  "smembers",
  "sismember",
  "scard",
  "zscore",
  "zcard",
  "zrange",
  "info",
  "ping",
  "keys",
  "scan",
  "subscribe",
  "psubscribe",
  "unsubscribe",
  "punsubscribe",
  "multi",
  "client",
  "select",
  "hello",
  "auth",
]);

/** An OOM refusal, on its own or inside a transaction's EXECABORT. */
function isOom(err: unknown): boolean {
  const e = err as { message?: unknown; previousErrors?: { message?: unknown }[] } | null;
  const oom = (m: unknown) => typeof m === "string" && m.startsWith("OOM");
  return !!e && (oom(e.message) || (e.previousErrors ?? []).some((p) => oom(p.message)));
}

const TIMED_OUT = "Command timed out";

/**
 * One connection for everything shared across instances; commands fail fast (and each user falls
 * back to this instance's memory) while it is down or not answering. Each change of state is logged once.
 */
export function connectRedis(url: string, log: Logger): Redis {
  // Loaded only when configured (~70 ms of start-up otherwise).
  const { Redis: RedisClient } = createRequire(import.meta.url)("ioredis") as typeof import("ioredis");
  const redis = new RedisClient(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    // The deadline is applied below (sendCommand), not by the client's own commandTimeout.
    lazyConnect: false,
    // Commands in flight when the connection drops are failed, never replayed on the next one.
    autoResendUnfulfilledCommands: false,
  });
  const breaker = { up: false, full: false };
  breakers.set(redis, breaker);
  const down = (message: string, err: string) => {
    if (breaker.up) log.warn({ err }, message);
    breaker.up = false;
  };
  redis.on("ready", () => {
    if (!breaker.up) log.info("redis connected: rate limits, upstream answers, leases and upstream limits shared across instances");
    breaker.up = true;
  });
  const unavailable = "redis unavailable: rate limits, upstream answers, leases and upstream limits fall back to this instance's memory";
  redis.on("error", (err: Error) => down(unavailable, err.message));
  // A server that shuts down closes the connection cleanly, with no error.
  redis.on("close", () => down(unavailable, "connection closed"));
  // The breaker: a command past its deadline fails, and on a ready connection drops that connection.
  // The deadline is measured on this process's loop, so a loop held up by other work (a busy
  // machine, a long computation) must not count as Redis not answering: when the timer fires, the
  // answer may already be waiting unread on the socket, because timers run before I/O in a loop
  // turn. So the check is deferred to the same turn's check phase (setImmediate), after I/O has
  // been read: only a command still unanswered then has timed out.
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command, stream) => {
    const reply = send(command, stream);
    let settled = false;
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (settled) return;
          command.reject(new Error(TIMED_OUT));
          if (!breaker.up) return;
          down(
            "redis not answering: rate limits, upstream answers, leases and upstream limits fall back to this instance's memory",
            `${command.name}: no answer within ${REDIS_COMMAND_TIMEOUT_MS} ms`,
          );
          // Destroyed, not ended: a hung server never acknowledges a polite close. The client then
          // fails what is in flight and reconnects on its own.
          redis.stream.destroy();
        }),
      REDIS_COMMAND_TIMEOUT_MS,
    );
    const done = () => {
      settled = true;
      clearTimeout(timer);
    };
    const write = !READS.has(String(command.name).toLowerCase());
    command.promise.then(
      () => {
        done();
        if (write && breaker.full) {
          breaker.full = false;
          log.info("redis accepting writes again");
        }
      },
      (err: unknown) => {
        done();
        if (isOom(err) && !breaker.full) {
          breaker.full = true;
          log.warn(
            { err: (err as Error).message },
            "redis out of memory: it refuses writes; rate limits and upstream answers fall back to this instance's memory, key allotments fail closed. Raise maxmemory, or see docs/operations.md",
          );
        }
      },
    );
    return reply;
  }) as typeof redis.sendCommand;
  return redis;
}
