// Admission for every metered call, REST or MCP alike: keys in metered mode (decisions only; facts
// stay keyless), per-caller rate limits, the distinct-spot caps, failed key attempts per address,
// the render budget of share images and pages, and the free allotment of a key. An allotment is
// taken atomically when the call is admitted (so concurrent calls can never overspend it) and given
// back if the answer then fails. Test keys are never charged.
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import type { Catalog } from "../../catalog/catalog.js";
import type { Clock } from "../../base/clock.js";
import type { Config } from "../../base/config.js";
import { ServiceError, type ErrorCode } from "../../base/errors.js";
import { SNAP_DISTANCE_KM } from "../../base/limits.js";
import { parsePoint, parseSpotId, type Raw } from "../../catalog/params.js";
import { aiFetcherOf, callerAddress, callerNetwork, type Caller } from "./caller.js";
import { KEY_QUERY_PARAMS, presentedKey, type KeyRegistry } from "./keys.js";
import { LimitExceeded, rateLimitHeaders, RateLimits, type PolicyName } from "./limits.js";

export const OPERATIONS = ["conditions", "spots", "coverage", "recommendations", "best-day", "validation"] as const;
export type Operation = (typeof OPERATIONS)[number];

const POLICIES: Record<Operation, readonly PolicyName[]> = {
  conditions: ["facts-hour", "facts-day"],
  spots: ["facts-hour", "facts-day"],
  // The coverage listing is how a caller learns what exists (and what its other calls may ask): it
  // counts toward no cap, and the spec lists no error for it.
  coverage: [],
  recommendations: ["decisions-burst"],
  "best-day": ["decisions-burst"],
  // The validation record is served from a copy built at most once a minute; metered like the facts,
  // so a flood of it spends the flooder's budget, not the instance's Redis and CPU.
  validation: ["facts-hour", "facts-day"],
};
const SPOT_POLICIES: readonly PolicyName[] = ["spots-hour", "spots-day"];
const RENDER_POLICIES: readonly PolicyName[] = ["renders-hour"];
const NETWORK_RENDER_POLICIES: readonly PolicyName[] = ["renders-network-hour"];
const FAILED_KEY_POLICIES: readonly PolicyName[] = ["failed-keys"];
const isDecision = (op: Operation) => op === "recommendations" || op === "best-day";

export interface Admission {
  /** RateLimit-Policy / RateLimit headers describing the caller's budget. */
  headers: Record<string, string>;
  /** Call when the answer could not be given: returns the allotment taken for it, if any. */
  refund(): Promise<void>;
}

const NO_REFUND = async () => {};

/** Seconds a live key waits when its allotment cannot be checked (Redis unreachable in metered mode). */
const ALLOTMENT_UNAVAILABLE_RETRY_S = 30;

/** How long a charge's record is kept in Redis: long enough for a refund to follow it after an outage. */
export const CHARGE_RECORD_MS = 10 * 60_000;
/** How often refunds whose outcome was unknown are tried again while any wait. */
const PENDING_REFUND_RETRY_MS = 2_000;
/** Refunds waiting for Redis, at most (each a key id and a call id). */
const MAX_PENDING_REFUNDS = 10_000;

// Takes one call of a key's allotment unless used up, recording the charge under its call id, so a
// refund can find it; a call already refunded (its refund ran first) is never charged.
// KEYS: counter, charge record; ARGV: allotment, record ms. 1 = taken, 0 = not.
const TAKE = `
if redis.call('GET', KEYS[2]) then return 0 end
local used = redis.call('INCR', KEYS[1])
if used > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return 0
end
redis.call('SET', KEYS[2], 'charged', 'PX', ARGV[2])
return 1`;

// Gives back the call's charge once, however often it is asked; if the charge has not happened yet
// (a take still in flight to a Redis that hung), marks the call refunded so the take never charges.
const GIVE_BACK = `
if redis.call('GET', KEYS[2]) == 'charged' then
  redis.call('DECR', KEYS[1])
end
redis.call('SET', KEYS[2], 'refunded', 'PX', ARGV[1])
return 1`;

/**
 * Decision calls used per key: a Redis counter when REDIS_URL is set (one count for every instance),
 * else this instance's memory (keys come from a fixed file, so this map is bounded by it).
 * With Redis configured but unreachable, `take` throws: a live key fails closed. A take whose
 * outcome is unknown (Redis stopped answering while it was in flight, and may still run it when it
 * resumes) is refunded once Redis answers again: each charge carries a call id, and a refund is
 * idempotent and may even run before the charge, so a refused call never costs the key a call.
 */
export class Allotments {
  readonly #redis: Redis | null;
  readonly #memory = new Map<string, number>();
  readonly #pending = new Map<string, string>();
  #retry: NodeJS.Timeout | null = null;

  constructor(redis: Redis | null) {
    this.#redis = redis;
    redis?.on("ready", () => void this.settlePending());
  }

  /** Takes one call for `callId`; false (and nothing taken) when `allotment` is used up. */
  async take(keyId: string, allotment: number, callId: string): Promise<boolean> {
    if (this.#redis) {
      try {
        return (await this.#redis.eval(TAKE, 2, `oc:allotment:${keyId}`, `oc:charge:${keyId}:${callId}`, allotment, CHARGE_RECORD_MS)) === 1;
      } catch (e) {
        // It may have run, or may yet: refunded as soon as Redis answers.
        this.#remember(keyId, callId);
        throw e;
      }
    }
    const used = this.#memory.get(keyId) ?? 0;
    if (used >= allotment) return false;
    this.#memory.set(keyId, used + 1);
    return true;
  }

  async giveBack(keyId: string, callId: string): Promise<void> {
    if (this.#redis) {
      try {
        await this.#redis.eval(GIVE_BACK, 2, `oc:allotment:${keyId}`, `oc:charge:${keyId}:${callId}`, CHARGE_RECORD_MS);
      } catch {
        this.#remember(keyId, callId);
      }
      return;
    }
    this.#memory.set(keyId, Math.max(0, (this.#memory.get(keyId) ?? 1) - 1));
  }

  /** Refunds still waiting for Redis (tests, and /readyz could report it). */
  get pendingRefunds(): number {
    return this.#pending.size;
  }

  #remember(keyId: string, callId: string): void {
    if (this.#pending.size >= MAX_PENDING_REFUNDS) return;
    this.#pending.set(callId, keyId);
    this.#retry ??= setInterval(() => void this.settlePending(), PENDING_REFUND_RETRY_MS);
    this.#retry.unref();
  }

  /** Tries every waiting refund once; those that fail again keep waiting. */
  async settlePending(): Promise<void> {
    const redis = this.#redis;
    if (!redis) return;
    for (const [callId, keyId] of [...this.#pending]) {
      try {
        await redis.eval(GIVE_BACK, 2, `oc:allotment:${keyId}`, `oc:charge:${keyId}:${callId}`, CHARGE_RECORD_MS);
        this.#pending.delete(callId);
      } catch {
        return;
      }
    }
    if (this.#pending.size === 0 && this.#retry) {
      clearInterval(this.#retry);
      this.#retry = null;
    }
  }
}

export interface RequestFacts {
  ip: string | null;
  authorization?: string | null;
  serviceKey?: string | null;
  userAgent?: string | null;
}

export class Meter {
  readonly limits: RateLimits;
  readonly #config: Config;
  readonly #keys: KeyRegistry | null;
  readonly #catalog: Catalog;
  readonly #clock: Clock;
  readonly #allotments: Allotments;
  /**
   * Addresses locked out for failed keys, and until when (the clock's elapsed ms), in this
   * instance's memory as well as Redis: a lockout stands here even if Redis loses its counter
   * (evicted under memory pressure, or a restart without persistence), so a flood of new callers
   * cannot lift it. Bounded like the in-memory counters.
   */
  readonly #lockouts: LRUCache<string, number>;

  constructor(opts: { config: Config; keys: KeyRegistry | null; catalog: Catalog; clock: Clock; redis: Redis | null }) {
    this.#config = opts.config;
    this.#keys = opts.keys;
    this.#catalog = opts.catalog;
    this.#clock = opts.clock;
    this.limits = new RateLimits(opts.config.rateLimits, opts.redis, opts.catalog.spots.length, opts.clock);
    this.#allotments = new Allotments(opts.redis);
    this.#lockouts = new LRUCache({ max: Math.max(1, opts.config.rateLimits.maxCallers) });
  }

  #lock(address: string, seconds: number): void {
    this.#lockouts.set(address, this.#clock.elapsedMs() + seconds * 1000);
  }

  /** Seconds left of this instance's record of a lockout (0: none). */
  #lockedFor(address: string): number {
    const until = this.#lockouts.get(address);
    if (until === undefined) return 0;
    const left = Math.ceil((until - this.#clock.elapsedMs()) / 1000);
    if (left <= 0) this.#lockouts.delete(address);
    return Math.max(0, left);
  }

  get metered(): boolean {
    return this.#config.auth.mode === "metered";
  }

  identify(r: RequestFacts): Caller {
    const key = presentedKey({ authorization: r.authorization ?? null, "x-service-key": r.serviceKey ?? null });
    const record = this.metered && key ? (this.#keys?.lookup(key) ?? null) : null;
    const valid = record?.status === "active" ? record : null;
    return {
      id: valid ? `key:${valid.id}` : `ip:${r.ip ? callerAddress(r.ip) : "unknown"}`,
      ip: r.ip,
      presentedKey: key,
      key: record,
      aiFetcher: aiFetcherOf(r.userAgent),
      local: false,
    };
  }

  async admit(op: Operation, args: Record<string, Raw>, caller: Caller, viaUrl = false): Promise<Admission> {
    const atOnce = this.admitAtOnce(op, caller);
    if (atOnce) return atOnce;
    if (this.metered && isDecision(op)) await this.#checkKey(caller, args, viaUrl);
    const ai = caller.aiFetcher !== null;
    let states;
    try {
      states = await this.limits.consume(POLICIES[op], caller.id, ai);
      if (op === "conditions") states.push(...(await this.#meterSpot(args, caller.id, ai)));
    } catch (e) {
      throw this.#refusal(e);
    }
    const key = caller.key;
    if (this.metered && isDecision(op) && key && !key.test && key.allotment !== null) {
      let taken: boolean;
      const callId = randomUUID();
      try {
        taken = await this.#allotments.take(key.id, key.allotment, callId);
      } catch {
        throw new ServiceError("unavailable", "This key's allotment cannot be checked just now (its store is unreachable), so the call was not made. Retry shortly.", {
          retryAfterS: ALLOTMENT_UNAVAILABLE_RETRY_S,
        });
      }
      if (!taken) {
        throw new ServiceError("free_allotment_exhausted", `This key's free allotment of ${key.allotment} decision calls is used up.`, {
          upgradeUrl: this.#config.auth.upgradeUrl,
        });
      }
      return {
        headers: rateLimitHeaders(states),
        refund: async () => {
          await this.#allotments.giveBack(key.id, callId);
        },
      };
    }
    return { headers: rateLimitHeaders(states), refund: NO_REFUND };
  }

  /**
   * `admit` decided in this turn, where nothing needs waiting for: a local caller, or a call that
   * only counts against the caller's rate limits while they are kept in this instance's memory (no
   * key to check, no distinct spot to mark, no Redis). Throws the refusal `admit` would reject
   * with; undefined when only `admit` can decide.
   */
  admitAtOnce(op: Operation, caller: Caller): Admission | undefined {
    if (caller.local) return { headers: {}, refund: NO_REFUND };
    if (op === "conditions" || (this.metered && isDecision(op))) return undefined;
    let states;
    try {
      states = this.limits.consumeAtOnce(POLICIES[op], caller.id, caller.aiFetcher !== null);
    } catch (e) {
      throw this.#refusal(e);
    }
    return states && { headers: rateLimitHeaders(states), refund: NO_REFUND };
  }

  /**
   * Counts one fresh render (a share image or page not in cache) against the caller's render
   * budget; throws 429 rate_limited when it is spent. Cached images and pages never count. An
   * IPv6 caller's /48 has a budget of its own too (RENDERS_PER_NETWORK_FACTOR times larger).
   */
  async admitRender(caller: Caller): Promise<void> {
    if (caller.local) return;
    const ai = caller.aiFetcher !== null;
    const network = caller.id.startsWith("ip:") ? callerNetwork(caller.ip) : null;
    try {
      await this.limits.consume(RENDER_POLICIES, caller.id, ai);
      if (network) {
        try {
          await this.limits.consume(NETWORK_RENDER_POLICIES, `ip:${network}`, ai);
        } catch (e) {
          await this.limits.refund(RENDER_POLICIES, caller.id);
          throw e;
        }
      }
    } catch (e) {
      throw this.#refusal(e);
    }
  }

  /** A LimitExceeded as the 429 the caller sees (anything else as is). */
  #refusal(e: unknown): unknown {
    if (e instanceof LimitExceeded) {
      const breadth = e.policy === "spots-hour" || e.policy === "spots-day";
      const code: ErrorCode = breadth ? "breadth_limit" : "rate_limited";
      throw new ServiceError(
        code,
        e.policy === "renders-network-hour"
          ? `Too many fresh share images from this network (IPv6 /48) this hour. Retry in ${e.retryAfterS} s.`
          : breadth
            ? `Too many different spots (${e.policy === "spots-hour" ? "this hour" : "today"}): spots you already asked about today still answer. Retry in ${e.retryAfterS} s.`
            : `Too many requests for ${e.policy.replace("-", " per ").replace("burst", `${this.#config.rateLimits.decisionsWindowS} s`)}. Retry in ${e.retryAfterS} s.`,
        { retryAfterS: e.retryAfterS, headers: rateLimitHeaders(e.states), extra: { policy: e.policy } },
      );
    }
    return e;
  }

  async #checkKey(caller: Caller, args: Record<string, Raw>, viaUrl: boolean): Promise<void> {
    const auth = { "WWW-Authenticate": 'Bearer realm="ocean-conditions"' };
    if (viaUrl && Object.keys(args).some((k) => KEY_QUERY_PARAMS.includes(k.toLowerCase()))) {
      throw new ServiceError("invalid_key", "Keys are never accepted in the URL, where they leak into logs and histories. Send Authorization: Bearer <key> or X-Service-Key: <key>.", {
        headers: auth,
      });
    }
    if (!caller.presentedKey) {
      throw new ServiceError("key_required", "Decisions need a key: send Authorization: Bearer <key> or X-Service-Key: <key>. Facts (conditions, spots, coverage) stay keyless.", { headers: auth });
    }
    // Failed attempts are counted per address; past the cap every keyed call from that address is
    // refused until the window ends, valid keys included, so guessing learns nothing meanwhile.
    const address = `ip:${caller.ip ? callerAddress(caller.ip) : "unknown"}`;
    const lockedOut = (seconds: number) =>
      new ServiceError("rate_limited", `Too many failed key attempts from this address. Retry in ${seconds} s.`, {
        retryAfterS: Math.max(1, seconds),
        extra: { policy: "failed-keys" },
      });
    const remembered = this.#lockedFor(address);
    if (remembered > 0) throw lockedOut(remembered);
    const [failed] = await this.limits.peek(FAILED_KEY_POLICIES, address, false);
    if (failed && failed.remaining === 0) {
      this.#lock(address, failed.resetS);
      throw lockedOut(failed.resetS);
    }
    const refusal = !caller.key
      ? new ServiceError("invalid_key", "This key is not recognised.", { headers: auth })
      : caller.key.status === "revoked"
        ? new ServiceError("key_revoked", "This key has been revoked.", { headers: auth })
        : null;
    if (refusal) {
      const states = await this.limits.consume(FAILED_KEY_POLICIES, address, false).catch(() => undefined);
      const state = states?.[0];
      if (state && state.remaining === 0) this.#lock(address, state.resetS);
      throw refusal;
    }
  }

  /** Counts a spot against the distinct-spot caps the first time the caller asks about it today. */
  async #meterSpot(args: Record<string, Raw>, callerId: string, ai: boolean) {
    const spot = this.#spotOf(args);
    if (!spot) return [];
    const day = this.#clock.now().toISOString().slice(0, 10);
    if (!(await this.limits.markSpot(callerId, day, spot))) return this.limits.peek(SPOT_POLICIES, callerId, ai);
    try {
      return await this.limits.consume(SPOT_POLICIES, callerId, ai);
    } catch (e) {
      await this.limits.forgetSpot(callerId, day, spot);
      throw e;
    }
  }

  /** The spot a conditions request will resolve to, or null when it will be refused anyway. */
  #spotOf(args: Record<string, Raw>): string | null {
    // Own properties only: nothing an argument object inherits is read as an argument.
    const own = (k: string): Raw => (Object.hasOwn(args, k) ? args[k] : undefined);
    try {
      const id = parseSpotId(own("spot"));
      if (id !== undefined) return this.#catalog.spot(id)?.id ?? null;
      const point = parsePoint(own("lat"), own("lon"));
      if (!point) return null;
      const near = this.#catalog.nearest(point.lat, point.lon);
      return near.distanceKm <= SNAP_DISTANCE_KM ? near.spot.id : null;
    } catch {
      return null;
    }
  }
}
