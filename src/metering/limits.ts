// Rate limits (spec section 8) with rate-limiter-flexible: facts per hour and per day; distinct spots
// per hour and per day, where a spot already asked about that UTC day never counts again; decisions
// throttled in short bursts. Counters live in memory, or in Redis when REDIS_URL is set so several
// instances enforce one limit (each Redis limiter falls back to a memory one if Redis fails).
import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { RateLimitConfig } from "../config.js";

export type PolicyName = "facts-hour" | "facts-day" | "spots-hour" | "spots-day" | "decisions-burst";

export interface PolicyState {
  name: PolicyName;
  quota: number;
  windowS: number;
  remaining: number;
  resetS: number;
}

export class LimitExceeded extends Error {
  override name = "LimitExceeded";
  constructor(
    readonly policy: PolicyName,
    readonly retryAfterS: number,
    readonly states: PolicyState[],
  ) {
    super(`${policy} exceeded`);
  }
}

interface Policy {
  name: PolicyName;
  quota: number;
  windowS: number;
  limiter: RateLimiterAbstract;
}

const DAY_S = 86_400;

export class RateLimits {
  readonly #policies: Record<"normal" | "ai", Map<PolicyName, Policy>>;
  readonly #redis: Redis | null;
  // Spots a caller has asked about, per UTC day (memory store).
  // lru-cache preallocates `max` slots: 20,000 caller-days per instance is ample (the oldest go first).
  readonly #seen = new LRUCache<string, Set<string>>({ max: 20_000, ttl: 2 * DAY_S * 1000 });

  constructor(cfg: RateLimitConfig, redis: Redis | null) {
    this.#redis = redis;
    const defs: [PolicyName, number, number][] = [
      ["facts-hour", cfg.factsPerHour, 3600],
      ["facts-day", cfg.factsPerDay, DAY_S],
      ["spots-hour", cfg.spotsPerHour, 3600],
      ["spots-day", cfg.spotsPerDay, DAY_S],
      ["decisions-burst", cfg.decisionsBurst, cfg.decisionsWindowS],
    ];
    const build = (tier: "normal" | "ai", multiplier: number) =>
      new Map(
        defs
          .filter(([, quota]) => quota > 0)
          .map(([name, quota, windowS]): [PolicyName, Policy] => {
            const points = Math.round(quota * multiplier);
            const opts = { keyPrefix: `oc:rl:${tier}:${name}`, points, duration: windowS };
            const memory = new RateLimiterMemory(opts);
            const limiter = redis ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: memory }) : memory;
            return [name, { name, quota: points, windowS, limiter }];
          }),
      );
    this.#policies = { normal: build("normal", 1), ai: build("ai", cfg.aiFetcherMultiplier) };
  }

  /** The policies of this tier that a request is subject to (disabled caps are absent). */
  policies(names: readonly PolicyName[], ai: boolean): Policy[] {
    const tier = this.#policies[ai ? "ai" : "normal"];
    return names.map((n) => tier.get(n)).filter((p): p is Policy => p !== undefined);
  }

  /** Takes one point from each policy; throws LimitExceeded naming the first that is out. */
  async consume(names: readonly PolicyName[], callerId: string, ai: boolean): Promise<PolicyState[]> {
    const states: PolicyState[] = [];
    for (const p of this.policies(names, ai)) {
      try {
        const res = await p.limiter.consume(callerId, 1);
        states.push(stateOf(p, res));
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        states.push(stateOf(p, e));
        throw new LimitExceeded(p.name, Math.max(1, Math.ceil(e.msBeforeNext / 1000)), states);
      }
    }
    return states;
  }

  /** Current state without consuming (for headers on policies a request did not touch). */
  async peek(names: readonly PolicyName[], callerId: string, ai: boolean): Promise<PolicyState[]> {
    const out: PolicyState[] = [];
    for (const p of this.policies(names, ai)) {
      const res = await p.limiter.get(callerId);
      out.push(res ? stateOf(p, res) : { name: p.name, quota: p.quota, windowS: p.windowS, remaining: p.quota, resetS: p.windowS });
    }
    return out;
  }

  /**
   * Marks `spot` as asked about by the caller today; true when it is new today (and so must count
   * against the distinct-spot caps). `forget` undoes it when the caps refuse the spot.
   */
  async markSpot(callerId: string, day: string, spot: string): Promise<boolean> {
    const key = `oc:seen:${callerId}:${day}`;
    if (this.#redis) {
      try {
        const results = await this.#redis.multi().sadd(key, spot).expire(key, 2 * DAY_S).exec();
        const [err, added] = results?.[0] ?? [new Error("no reply"), 0];
        if (err) throw err;
        return added === 1;
      } catch {
        // Redis unavailable: fall through to this instance's memory, like the limiters' insurance.
      }
    }
    let set = this.#seen.get(key);
    if (!set) this.#seen.set(key, (set = new Set()));
    if (set.has(spot)) return false;
    set.add(spot);
    return true;
  }

  async forgetSpot(callerId: string, day: string, spot: string): Promise<void> {
    const key = `oc:seen:${callerId}:${day}`;
    if (this.#redis) {
      try {
        await this.#redis.srem(key, spot);
      } catch {
        /* memory fallback below */
      }
    }
    this.#seen.get(key)?.delete(spot);
  }
}

function stateOf(p: Policy, res: RateLimiterRes): PolicyState {
  return { name: p.name, quota: p.quota, windowS: p.windowS, remaining: Math.max(0, res.remainingPoints), resetS: Math.max(0, Math.ceil(res.msBeforeNext / 1000)) };
}

/** `RateLimit-Policy` and `RateLimit` header values (IETF httpapi-ratelimit-headers draft). */
export function rateLimitHeaders(states: readonly PolicyState[]): Record<string, string> {
  if (states.length === 0) return {};
  return {
    "RateLimit-Policy": states.map((s) => `"${s.name}";q=${s.quota};w=${s.windowS}`).join(", "),
    RateLimit: states.map((s) => `"${s.name}";r=${s.remaining};t=${s.resetS}`).join(", "),
  };
}
