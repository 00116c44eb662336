// Rate limits (spec section 8): facts per hour and per day; distinct spots per hour and per day,
// where a spot already asked about that UTC day never counts again; decisions throttled in short
// bursts; fresh renders of share images and pages; failed key attempts per address.
//
// Counters are fixed windows that start at a caller's first request. A user-triggered AI fetcher
// uses the caller's one counter with a larger quota (the multiplier), so changing the User-Agent
// never buys a second budget. Counters live in Redis when REDIS_URL is set, so several instances
// enforce one limit; otherwise, and while Redis is unreachable, in this instance's memory, in a
// structure capped at RATE_LIMIT_MAX_CALLERS callers where the least recently seen caller is
// forgotten first (a forgotten caller starts again with a fresh budget).
import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import type { RateLimitConfig } from "../../base/config.js";
import { systemClock, type Clock } from "../../base/clock.js";

export const POLICY_NAMES = ["facts-hour", "facts-day", "spots-hour", "spots-day", "decisions-burst", "renders-hour", "renders-network-hour", "failed-keys"] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

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

export interface Policy {
  name: PolicyName;
  /** Quota for ordinary callers and for AI fetchers (one counter, two quotas). */
  quota: number;
  aiQuota: number;
  windowS: number;
}

const DAY_S = 86_400;
/** Distinct lists of policy names kept looked up (the callers pass a handful of constant lists). */
const POLICY_LISTS_KEPT = 64;
const HOUR_S = 3600;
/**
 * Fresh renders per IPv6 /48 per hour, as a multiple of the per-caller (/64) budget: generous for a
 * site whose many people share a /48, but one allocation cannot mint 65,536 budgets.
 */
export const RENDERS_PER_NETWORK_FACTOR = 16;
/** Failed key attempts are counted per address over this window. */
export const FAILED_KEYS_WINDOW_S = 900;

/** A counter after an increment (or a look): how many requests this window, and ms until it resets. */
interface Count {
  count: number;
  msLeft: number;
}

/**
 * Each caller counts one towards a bound given as `maxSize`, not `max`: lru-cache allocates its
 * tables for `max` entries up front (1.8 MB for these two at the default 50,000 callers, held from
 * start-up by a process that may never see a hundred), and grows them as entries come for `maxSize`.
 */
const ONE = () => 1;

/**
 * Window counters of every caller in memory: one small array per caller (a count and a reset time
 * per policy), in an LRU capped at `maxCallers`, so a flood of new addresses evicts the least
 * recently seen callers instead of growing without bound.
 */
export class MemoryCounters {
  // Plain arrays of numbers: a typed array costs several hundred bytes more per caller in V8.
  readonly #callers: LRUCache<string, number[]>;

  constructor(maxCallers: number) {
    this.#callers = new LRUCache({ maxSize: maxCallers, sizeCalculation: ONE });
  }

  get size(): number {
    return this.#callers.size;
  }

  #slots(caller: string, create: boolean): number[] | undefined {
    let slots = this.#callers.get(caller);
    if (!slots && create) this.#callers.set(caller, (slots = new Array<number>(POLICY_NAMES.length * 2).fill(0)));
    return slots;
  }

  incr(caller: string, policy: PolicyName, windowS: number, by: number, now: number): Count {
    const slots = this.#slots(caller, by > 0);
    if (!slots) return { count: 0, msLeft: windowS * 1000 };
    const i = POLICY_NAMES.indexOf(policy) * 2;
    if (now >= slots[i + 1]!) {
      slots[i] = 0;
      slots[i + 1] = now + windowS * 1000;
    }
    slots[i] = Math.max(0, slots[i]! + by);
    return { count: slots[i]!, msLeft: slots[i + 1]! - now };
  }

  get(caller: string, policy: PolicyName, windowS: number, now: number): Count {
    const slots = this.#callers.peek(caller);
    const i = POLICY_NAMES.indexOf(policy) * 2;
    if (!slots || now >= slots[i + 1]!) return { count: 0, msLeft: windowS * 1000 };
    return { count: slots[i]!, msLeft: slots[i + 1]! - now };
  }
}

/** The same window counters in Redis: one key per caller and policy, expiring with its window. */
async function redisIncr(redis: Redis, key: string, windowS: number, by: number): Promise<Count> {
  const res = await redis.multi().set(key, 0, "EX", windowS, "NX").incrby(key, by).pttl(key).exec();
  if (!res) throw new Error("redis transaction aborted");
  for (const [err] of res) if (err) throw err;
  const count = Number(res[1]![1]);
  const ttl = Number(res[2]![1]);
  return { count, msLeft: ttl > 0 ? ttl : windowS * 1000 };
}

// Windows run on the clock's monotonic count (Clock.elapsedMs): they measure elapsed time, not the
// forecast clock, and a test's FixedClock moves them without sleeping.
export class RateLimits {
  readonly #policies = new Map<PolicyName, Policy>();
  readonly #clock: Clock;
  readonly #redis: Redis | null;
  readonly #memory: MemoryCounters;
  // Spots a caller has asked about, per UTC day (memory store); capped like the counters.
  readonly #seen: LRUCache<string, Set<string>>;

  constructor(cfg: RateLimitConfig, redis: Redis | null, catalogSize: number, clock: Clock = systemClock) {
    this.#clock = clock;
    this.#redis = redis;
    this.#memory = new MemoryCounters(cfg.maxCallers);
    this.#seen = new LRUCache({ maxSize: Math.min(cfg.maxCallers, 20_000), sizeCalculation: ONE, ttl: 2 * DAY_S * 1000 });
    const m = cfg.aiFetcherMultiplier;
    // Distinct-spot caps stay meaningful for AI fetchers: multiplied, but never past half the
    // catalogue (or the ordinary cap, when that is already larger), so no caller maps it whole.
    const spotCap = (quota: number) => Math.max(quota, Math.min(Math.round(quota * m), Math.ceil(catalogSize / 2)));
    const defs: [PolicyName, number, number, number][] = [
      ["facts-hour", cfg.factsPerHour, Math.round(cfg.factsPerHour * m), HOUR_S],
      ["facts-day", cfg.factsPerDay, Math.round(cfg.factsPerDay * m), DAY_S],
      ["spots-hour", cfg.spotsPerHour, spotCap(cfg.spotsPerHour), HOUR_S],
      ["spots-day", cfg.spotsPerDay, spotCap(cfg.spotsPerDay), DAY_S],
      ["decisions-burst", cfg.decisionsBurst, Math.round(cfg.decisionsBurst * m), cfg.decisionsWindowS],
      ["renders-hour", cfg.rendersPerHour, Math.round(cfg.rendersPerHour * m), HOUR_S],
      ["renders-network-hour", cfg.rendersPerHour * RENDERS_PER_NETWORK_FACTOR, Math.round(cfg.rendersPerHour * RENDERS_PER_NETWORK_FACTOR * m), HOUR_S],
      // Failed keys are not multiplied: a fetcher for many people still presents few keys.
      ["failed-keys", cfg.failedKeys, cfg.failedKeys, FAILED_KEYS_WINDOW_S],
    ];
    for (const [name, quota, aiQuota, windowS] of defs) if (quota > 0) this.#policies.set(name, { name, quota, aiQuota, windowS });
  }

  /** Callers counted in this instance's memory (bounded by RATE_LIMIT_MAX_CALLERS). */
  get trackedCallers(): number {
    return this.#memory.size;
  }

  // The callers' lists of policy names are constants: each one's policies are looked up once.
  readonly #policyLists = new Map<readonly PolicyName[], Policy[]>();

  /** The policies a request is subject to (disabled caps are absent). */
  policies(names: readonly PolicyName[]): Policy[] {
    let list = this.#policyLists.get(names);
    if (!list) {
      list = names.map((n) => this.#policies.get(n)).filter((p): p is Policy => p !== undefined);
      if (this.#policyLists.size < POLICY_LISTS_KEPT) this.#policyLists.set(names, list);
    }
    return list;
  }

  /** Without Redis, counted at once in memory (no promise to wait for). */
  #incr(p: Policy, callerId: string, by: number): Promise<Count> | Count {
    return this.#redis ? this.#redisOrMemoryIncr(this.#redis, p, callerId, by) : this.#memory.incr(callerId, p.name, p.windowS, by, this.#clock.elapsedMs());
  }

  async #redisOrMemoryIncr(redis: Redis, p: Policy, callerId: string, by: number): Promise<Count> {
    try {
      return await redisIncr(redis, `oc:rl:${p.name}:${callerId}`, p.windowS, by);
    } catch {
      // Redis unreachable: this instance's memory counts until it is back.
      return this.#memory.incr(callerId, p.name, p.windowS, by, this.#clock.elapsedMs());
    }
  }

  async #get(p: Policy, callerId: string): Promise<Count> {
    if (this.#redis) {
      try {
        const [count, ttl] = await Promise.all([this.#redis.get(`oc:rl:${p.name}:${callerId}`), this.#redis.pttl(`oc:rl:${p.name}:${callerId}`)]);
        return { count: Number(count ?? 0), msLeft: ttl > 0 ? ttl : p.windowS * 1000 };
      } catch {
        /* memory below */
      }
    }
    return this.#memory.get(callerId, p.name, p.windowS, this.#clock.elapsedMs());
  }

  /** Counts one request against each policy; throws LimitExceeded naming the first that is out. */
  async consume(names: readonly PolicyName[], callerId: string, ai: boolean): Promise<PolicyState[]> {
    const atOnce = this.consumeAtOnce(names, callerId, ai);
    if (atOnce) return atOnce;
    const states: PolicyState[] = [];
    for (const p of this.policies(names)) {
      const c = await this.#incr(p, callerId, 1);
      if (over(p, ai, c, states)) {
        // A refused request does not use up budget it was not given.
        await this.#incr(p, callerId, -1);
        throw exceeded(p, c, states);
      }
    }
    return states;
  }

  /**
   * `consume` decided in this turn when the counters are in this instance's memory (no Redis
   * configured): the states, or throws LimitExceeded. Undefined with Redis (then `consume`).
   */
  consumeAtOnce(names: readonly PolicyName[], callerId: string, ai: boolean): PolicyState[] | undefined {
    if (this.#redis) return undefined;
    const states: PolicyState[] = [];
    for (const p of this.policies(names)) {
      const c = this.#memory.incr(callerId, p.name, p.windowS, 1, this.#clock.elapsedMs());
      if (over(p, ai, c, states)) {
        this.#memory.incr(callerId, p.name, p.windowS, -1, this.#clock.elapsedMs());
        throw exceeded(p, c, states);
      }
    }
    return states;
  }

  /** Gives back one request (a refund when the work it paid for was not done). */
  async refund(names: readonly PolicyName[], callerId: string): Promise<void> {
    for (const p of this.policies(names)) await this.#incr(p, callerId, -1);
  }

  /** Current state without counting (for headers on policies a request did not touch). */
  async peek(names: readonly PolicyName[], callerId: string, ai: boolean): Promise<PolicyState[]> {
    const out: PolicyState[] = [];
    for (const p of this.policies(names)) out.push(stateOf(p, ai ? p.aiQuota : p.quota, await this.#get(p, callerId)));
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
        const results = await this.#redis
          .multi()
          .sadd(key, spot)
          .expire(key, 2 * DAY_S)
          .exec();
        const [err, added] = results?.[0] ?? [new Error("no reply"), 0];
        if (err) throw err;
        return added === 1;
      } catch {
        // Redis unavailable: fall through to this instance's memory, like the counters.
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

/** Records a policy's state after a count in `states`; true when the count is past the caller's quota. */
function over(p: Policy, ai: boolean, c: Count, states: PolicyState[]): boolean {
  const quota = ai ? p.aiQuota : p.quota;
  states.push(stateOf(p, quota, c));
  return c.count > quota;
}

const exceeded = (p: Policy, c: Count, states: PolicyState[]) => new LimitExceeded(p.name, Math.max(1, Math.ceil(c.msLeft / 1000)), states);

function stateOf(p: Policy, quota: number, c: Count): PolicyState {
  return { name: p.name, quota, windowS: p.windowS, remaining: Math.max(0, quota - c.count), resetS: Math.max(0, Math.ceil(c.msLeft / 1000)) };
}

/** `RateLimit-Policy` and `RateLimit` header values (IETF httpapi-ratelimit-headers draft). */
export function rateLimitHeaders(states: readonly PolicyState[]): Record<string, string> {
  if (states.length === 0) return {};
  return {
    "RateLimit-Policy": states.map((s) => `"${s.name}";q=${s.quota};w=${s.windowS}`).join(", "),
    RateLimit: states.map((s) => `"${s.name}";r=${s.remaining};t=${s.resetS}`).join(", "),
  };
}
