// Where scored pairs are kept. With REDIS_URL: in Redis, one hash and one time index per region,
// bounded and expiring, so every instance adds to and reads one record and a restart keeps it.
// Without: in this process's memory, with the same bounds, lost on restart (and the report says so).
import type { Redis } from "ioredis";
import { DAY_MS } from "../../base/clock.js";
import { WINDOW_DAYS, type Pair } from "../../model/skill.js";
import { SATELLITE_MAX_AGE_H } from "../../model/visibility.js";

/** Pairs are kept while their observation could still fall in a window: the window plus the longest satellite lag. */
export const RETENTION_MS = WINDOW_DAYS * DAY_MS + Math.ceil(SATELLITE_MAX_AGE_H / 24) * DAY_MS;
/** At most this many pairs per region (one per spot and day; the oldest go first). */
export const MAX_PAIRS_PER_REGION = 4000;

export const pairKey = (p: { spot: string; date: string }) => `${p.spot}|${p.date}`;

export interface PairStore {
  readonly kind: "redis" | "memory";
  /** Which of these pair keys the region does not hold yet. */
  missing(region: string, keys: readonly string[]): Promise<string[]>;
  /** Adds pairs; a pair already held (same spot and date) is kept as first written. */
  add(region: string, pairs: readonly Pair[], nowMs: number): Promise<void>;
  /** The region's pairs observed at or after `fromMs`. */
  list(region: string, fromMs: number): Promise<Pair[]>;
}

export class MemoryPairStore implements PairStore {
  readonly kind = "memory";
  readonly #regions = new Map<string, Map<string, Pair>>();

  async missing(region: string, keys: readonly string[]): Promise<string[]> {
    const held = this.#regions.get(region);
    return keys.filter((k) => !held?.has(k));
  }

  async add(region: string, pairs: readonly Pair[], nowMs: number): Promise<void> {
    let held = this.#regions.get(region);
    if (!held) this.#regions.set(region, (held = new Map()));
    for (const p of pairs) if (!held.has(pairKey(p))) held.set(pairKey(p), p);
    const cutoff = nowMs - RETENTION_MS;
    for (const [k, p] of held) if (p.observedAt < cutoff) held.delete(k);
    if (held.size > MAX_PAIRS_PER_REGION) {
      const oldest = [...held.values()].sort((a, b) => a.observedAt - b.observedAt).slice(0, held.size - MAX_PAIRS_PER_REGION);
      for (const p of oldest) held.delete(pairKey(p));
    }
  }

  async list(region: string, fromMs: number): Promise<Pair[]> {
    return [...(this.#regions.get(region)?.values() ?? [])].filter((p) => p.observedAt >= fromMs);
  }
}

const PREFIX = "validation:v1:";

export class RedisPairStore implements PairStore {
  readonly kind = "redis";
  constructor(readonly redis: Redis) {}

  #keys(region: string) {
    return { pairs: `${PREFIX}${region}:pairs`, index: `${PREFIX}${region}:index` };
  }

  async missing(region: string, keys: readonly string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const held = await this.redis.hmget(this.#keys(region).pairs, ...keys);
    return keys.filter((_, i) => held[i] === null);
  }

  async add(region: string, pairs: readonly Pair[], nowMs: number): Promise<void> {
    const k = this.#keys(region);
    const m = this.redis.multi();
    for (const p of pairs) {
      m.hsetnx(k.pairs, pairKey(p), JSON.stringify(p));
      m.zadd(k.index, "NX", p.observedAt, pairKey(p));
    }
    await m.exec();
    // Bounds: drop what no window can reach, then the oldest beyond the cap; the keys expire with the record.
    const stale = await this.redis.zrangebyscore(k.index, "-inf", `(${nowMs - RETENTION_MS}`);
    const over = Math.max(0, (await this.redis.zcard(k.index)) - stale.length - MAX_PAIRS_PER_REGION);
    const oldest = over > 0 ? await this.redis.zrange(k.index, stale.length, stale.length + over - 1) : [];
    const drop = [...stale, ...oldest];
    const t = this.redis.multi();
    if (drop.length > 0) t.hdel(k.pairs, ...drop).zrem(k.index, ...drop);
    t.pexpire(k.pairs, RETENTION_MS).pexpire(k.index, RETENTION_MS);
    await t.exec();
  }

  async list(region: string, fromMs: number): Promise<Pair[]> {
    const k = this.#keys(region);
    const members = await this.redis.zrangebyscore(k.index, fromMs, "+inf");
    if (members.length === 0) return [];
    const values = await this.redis.hmget(k.pairs, ...members);
    return values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as Pair);
  }
}
