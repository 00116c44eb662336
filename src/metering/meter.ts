// Admission for every metered call, REST or MCP alike: keys in metered mode (decisions only; facts
// stay keyless), per-caller rate limits, the distinct-spot caps, and the free allotment of a key,
// which is charged only when a decision call succeeds. Test keys are never charged.
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Catalog } from "../catalog/catalog.js";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import { ServiceError, type ErrorCode } from "../errors.js";
import { SNAP_DISTANCE_KM } from "../limits.js";
import { parsePoint, parseSpotId, type Raw } from "../params.js";
import { aiFetcherOf, type Caller } from "./caller.js";
import { KEY_QUERY_PARAMS, presentedKey, type KeyRegistry } from "./keys.js";
import { LimitExceeded, rateLimitHeaders, RateLimits, type PolicyName } from "./limits.js";

export const OPERATIONS = ["conditions", "spots", "coverage", "recommendations", "best-day"] as const;
export type Operation = (typeof OPERATIONS)[number];

const POLICIES: Record<Operation, readonly PolicyName[]> = {
  conditions: ["facts-hour", "facts-day"],
  spots: ["facts-hour", "facts-day"],
  coverage: ["facts-hour", "facts-day"],
  recommendations: ["decisions-burst"],
  "best-day": ["decisions-burst"],
};
const SPOT_POLICIES: readonly PolicyName[] = ["spots-hour", "spots-day"];
const isDecision = (op: Operation) => op === "recommendations" || op === "best-day";

export interface Admission {
  /** RateLimit-Policy / RateLimit headers describing the caller's budget. */
  headers: Record<string, string>;
  /** Call after a successful answer: charges a keyed decision call to the key's allotment. */
  charge(): Promise<void>;
}

const NO_CHARGE = async () => {};

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
  readonly #allotments: RateLimiterAbstract;

  constructor(opts: { config: Config; keys: KeyRegistry | null; catalog: Catalog; clock: Clock; redis: Redis | null }) {
    this.#config = opts.config;
    this.#keys = opts.keys;
    this.#catalog = opts.catalog;
    this.#clock = opts.clock;
    this.limits = new RateLimits(opts.config.rateLimits, opts.redis);
    // Allotments never reset (duration 0); their own counter per key, compared with the key's allotment.
    const allot = { keyPrefix: "oc:allotment", points: Number.MAX_SAFE_INTEGER, duration: 0 };
    const memory = new RateLimiterMemory(allot);
    this.#allotments = opts.redis ? new RateLimiterRedis({ ...allot, storeClient: opts.redis, insuranceLimiter: memory }) : memory;
  }

  get metered(): boolean {
    return this.#config.auth.mode === "metered";
  }

  identify(r: RequestFacts): Caller {
    const key = presentedKey({ authorization: r.authorization ?? null, "x-service-key": r.serviceKey ?? null });
    const record = this.metered && key ? (this.#keys?.lookup(key) ?? null) : null;
    const valid = record?.status === "active" ? record : null;
    return {
      id: valid ? `key:${valid.id}` : `ip:${r.ip ?? "unknown"}`,
      ip: r.ip,
      presentedKey: key,
      key: record,
      aiFetcher: aiFetcherOf(r.userAgent),
      local: false,
    };
  }

  async admit(op: Operation, args: Record<string, Raw>, caller: Caller, viaUrl = false): Promise<Admission> {
    if (caller.local) return { headers: {}, charge: NO_CHARGE };
    if (this.metered && isDecision(op)) this.#checkKey(caller, args, viaUrl);
    const ai = caller.aiFetcher !== null;
    let states;
    try {
      states = await this.limits.consume(POLICIES[op], caller.id, ai);
      if (op === "conditions") states.push(...(await this.#meterSpot(args, caller.id, ai)));
    } catch (e) {
      if (e instanceof LimitExceeded) {
        const breadth = e.policy === "spots-hour" || e.policy === "spots-day";
        const code: ErrorCode = breadth ? "breadth_limit" : "rate_limited";
        throw new ServiceError(
          code,
          breadth
            ? `Too many different spots (${e.policy === "spots-hour" ? "this hour" : "today"}): spots you already asked about today still answer. Retry in ${e.retryAfterS} s.`
            : `Too many requests for ${e.policy.replace("-", " per ").replace("burst", `${this.#config.rateLimits.decisionsWindowS} s`)}. Retry in ${e.retryAfterS} s.`,
          { retryAfterS: e.retryAfterS, headers: rateLimitHeaders(e.states), extra: { policy: e.policy } },
        );
      }
      throw e;
    }
    const key = caller.key;
    if (this.metered && isDecision(op) && key && !key.test && key.allotment !== null) {
      const used = (await this.#allotments.get(key.id))?.consumedPoints ?? 0;
      if (used >= key.allotment) {
        throw new ServiceError("free_allotment_exhausted", `This key's free allotment of ${key.allotment} decision calls is used up.`, {
          upgradeUrl: this.#config.auth.upgradeUrl,
        });
      }
      return {
        headers: rateLimitHeaders(states),
        charge: async () => {
          await this.#allotments.consume(key.id, 1);
        },
      };
    }
    return { headers: rateLimitHeaders(states), charge: NO_CHARGE };
  }

  #checkKey(caller: Caller, args: Record<string, Raw>, viaUrl: boolean): void {
    const auth = { "WWW-Authenticate": 'Bearer realm="ocean-conditions"' };
    if (viaUrl && Object.keys(args).some((k) => KEY_QUERY_PARAMS.includes(k.toLowerCase()))) {
      throw new ServiceError("invalid_key", "Keys are never accepted in the URL, where they leak into logs and histories. Send Authorization: Bearer <key> or X-Service-Key: <key>.", { headers: auth });
    }
    if (!caller.presentedKey) {
      throw new ServiceError("key_required", "Decisions need a key: send Authorization: Bearer <key> or X-Service-Key: <key>. Facts (conditions, spots, coverage) stay keyless.", { headers: auth });
    }
    if (!caller.key) throw new ServiceError("invalid_key", "This key is not recognised.", { headers: auth });
    if (caller.key.status === "revoked") throw new ServiceError("key_revoked", "This key has been revoked.", { headers: auth });
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
    try {
      const id = parseSpotId(args.spot);
      if (id !== undefined) return this.#catalog.spot(id)?.id ?? null;
      const point = parsePoint(args.lat, args.lon);
      if (!point) return null;
      const near = this.#catalog.nearest(point.lat, point.lon);
      return near.distanceKm <= SNAP_DISTANCE_KM ? near.spot.id : null;
    } catch {
      return null;
    }
  }
}
