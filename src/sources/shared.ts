// Several instances, one upstream footprint (only when REDIS_URL is set). Upstream answers are kept
// in Redis per (upstream, group, period) with their fetch time, long enough to serve as last-good
// after a restart; a lease per (upstream, group, period) lets exactly one instance fetch while the
// others poll for its answer; the scheduler's concurrency and quotas are counted in Redis, since
// the upstream limits the deployment (one client IP behind a NAT), not one process.
//
// Algorithms (docs/operations.md "Running several instances"):
// - Answers: `oc:up:{upstream}:{group}:{period}` holds the encoded answer and its fetch time, with a
//   TTL of the period plus MAX_STALE, so last-good answers outlive every instance.
// - Leases: `SET oc:lease:… <instance> NX PX <leaseMs>`. The holder fetches, stores the answer,
//   deletes the lease and publishes on `oc:done:…`; on failure it leaves a short failure mark (and
//   publishes) so waiters serve last-good instead of asking again. Waiters subscribe to that
//   channel and look again when told, or every LEASE_POLL_SUBSCRIBED_MS; without a subscription
//   they poll every LEASE_POLL_MS. A crashed holder's lease expires after leaseMs and the next
//   waiter takes it over.
// - Concurrency: a semaphore in a sorted set (member = slot id, score = expiry, Redis's own TIME):
//   expired slots are dropped, a slot is taken while fewer than `concurrency` remain. The holder
//   renews its own slot every third of its lifetime and whenever the lane hands it to the next
//   local request, and frees exactly that slot; a crashed holder's slot frees itself when it expires.
// - Quotas: fixed UTC windows, one INCRBY counter per window (`oc:quota:{lane}:{window}:{start}`)
//   expiring with the window, and one shared "blocked until" after an upstream refusal.
// Every Redis failure falls back to this instance's own behaviour (MemoryUpstreamBudget, a local
// fetch); the connection's state changes are logged once each (context.ts).
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { UpstreamError, type UpstreamFailure } from "./http.js";
import { fromSingle } from "./types.js";
import { MemoryUpstreamBudget, windowReset, type QuotaWindow, type QuotaWindowId, type SlotHandle, type UpstreamBudget } from "./scheduler.js";

/** How often an instance waiting on another's lease (or on a shared slot) looks again. */
export const LEASE_POLL_MS = 100;
/**
 * How often a lease waiter looks again while subscribed to the holder's "done" channel: the
 * message wakes it at once; the look is for a holder that died (its lease expires unannounced).
 */
export const LEASE_POLL_SUBSCRIBED_MS = 1_000;
/** A lease outlives the fetch it guards by this much (the upstream timeout bounds the fetch). */
export const LEASE_MARGIN_MS = 5_000;
/** How long a failed fetch's mark tells waiters to serve last-good rather than ask again. */
export const FAILURE_MARK_MS = 10_000;
/** How long a fresh instance's Redis users wait for the first connection before going it alone. */
export const START_WAIT_MS = 3_000;
const WINDOW_MS: Record<QuotaWindowId, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** This process, as named in leases and slots. */
export const INSTANCE_ID = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** Runs Redis commands, answering undefined (the caller falls back) when Redis cannot. */
export class RedisLink {
  // Until the first connection is made (or START_WAIT_MS passes), commands wait for it: a fresh
  // instance must not fetch on its own just because its connection is a moment behind its listener.
  readonly #started: Promise<void>;

  constructor(readonly redis: Redis) {
    this.#started =
      redis.status === "ready"
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, START_WAIT_MS);
            timer.unref();
            redis.once("ready", () => {
              clearTimeout(timer);
              resolve();
            });
          });
  }

  get usable(): boolean {
    return this.redis.status === "ready";
  }

  async run<T>(op: (r: Redis) => Promise<T>): Promise<T | undefined> {
    await this.#started;
    if (!this.usable) return undefined;
    try {
      return await op(this.redis);
    } catch {
      return undefined;
    }
  }
}

/** A subscription to one channel: `next` resolves on its next message, or after `ms` at the latest. */
export interface Wakeup {
  next(ms: number): Promise<void>;
  stop(): void;
}

/**
 * Lease waiters' wake-ups: a channel per answer key, on a second connection of this process (a
 * subscribed connection runs no other command), opened on first use and closed with the main one.
 */
export class Wakeups {
  #sub: Redis | null = null;
  readonly #listeners = new Map<string, Set<() => void>>();

  constructor(readonly redis: Redis) {
    // Opened with the main connection, so the first waiter finds it ready.
    this.#subscriber();
  }

  #subscriber(): Redis {
    if (this.#sub) return this.#sub;
    const sub = this.redis.duplicate();
    // Its state changes are the main connection's to log; while it is down, waiters poll.
    sub.on("error", () => {});
    sub.on("message", (channel: string) => this.#listeners.get(channel)?.forEach((wake) => wake()));
    this.redis.once("end", () => sub.disconnect());
    this.#sub = sub;
    return sub;
  }

  /** Subscribes to `channel`; null when the subscriber connection cannot (the caller polls). */
  async listen(channel: string): Promise<Wakeup | null> {
    if (this.redis.status !== "ready") return null;
    const sub = this.#subscriber();
    if (sub.status !== "ready") return null;
    // A message that comes while the waiter is looking (not waiting) is kept for its next wait.
    let told = false;
    let wake: (() => void) | null = null;
    const listener = () => (wake ? wake() : (told = true));
    let set = this.#listeners.get(channel);
    const first = !set;
    if (!set) this.#listeners.set(channel, (set = new Set()));
    set.add(listener);
    const stop = () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(channel) === set) {
        this.#listeners.delete(channel);
        sub.unsubscribe(channel).catch(() => {});
      }
    };
    if (first) {
      try {
        await sub.subscribe(channel);
      } catch {
        stop();
        return null;
      }
    }
    return {
      next: (ms) =>
        new Promise<void>((resolve) => {
          if (told) {
            told = false;
            return resolve();
          }
          const done = () => {
            clearTimeout(timer);
            wake = null;
            resolve();
          };
          const timer = setTimeout(done, ms);
          wake = done;
        }),
      stop,
    };
  }
}

// --- answers ------------------------------------------------------------------------------------

/**
 * JSON with the types upstream answers hold: Date, Map, Float64Array and Float32Array (NaN kept; a
 * float32 written at the decimals it is read with, `fromSingle`).
 */
export function encodeValue(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    if (raw instanceof Date) return { $d: raw.getTime() };
    if (v instanceof Map) return { $m: [...v.entries()] };
    if (v instanceof Float64Array) return { $f: Array.from(v, (x) => (Number.isFinite(x) ? x : null)) };
    if (v instanceof Float32Array) return { $f4: Array.from(v, (x) => (Number.isFinite(x) ? fromSingle(x) : null)) };
    return v;
  });
}

export function decodeValue(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (typeof o.$d === "number" && Object.keys(o).length === 1) return new Date(o.$d);
      if (Array.isArray(o.$m) && Object.keys(o).length === 1) return new Map(o.$m as [unknown, unknown][]);
      if (Array.isArray(o.$f) && Object.keys(o).length === 1) return Float64Array.from(o.$f as (number | null)[], (x) => x ?? Number.NaN);
      if (Array.isArray(o.$f4) && Object.keys(o).length === 1) return Float32Array.from(o.$f4 as (number | null)[], (x) => x ?? Number.NaN);
    }
    return v;
  });
}

export interface SharedEntry<V> {
  value: V;
  fetchedAt: Date;
  period: number;
}

export interface SharedAnswersOptions {
  link: RedisLink;
  /** Wakes lease waiters when the holder is done; without it (or while it cannot) they poll. */
  wakeups?: Wakeups | null;
  /** A lease's lifetime: the longest a fetch may take, plus a margin. */
  leaseMs: number;
  /** How long an answer is kept after its period: the oldest last-good ever served. */
  maxStaleMs: number;
  now: () => Date;
}

/** Upstream answers and fetch leases in Redis, for every instance. */
export class SharedAnswers {
  constructor(readonly opts: SharedAnswersOptions) {}

  #key(kind: "up" | "lease" | "fail" | "done", upstream: string, group: string, period: number): string {
    return `oc:${kind}:${upstream}:${group}:${period}`;
  }

  #decode<V>(text: string): SharedEntry<V> {
    const e = decodeValue(text) as { value: V; fetchedAt: Date; period: number };
    return { value: e.value, fetchedAt: new Date(e.fetchedAt), period: e.period };
  }

  /**
   * The (upstream, group, period) answer: from Redis if another instance fetched it, else fetched
   * by whichever instance takes the lease while the others wait for it. Without Redis, `fetch` runs here.
   */
  async load<V>(upstream: string, group: string, period: number, periodMs: number, fetch: () => Promise<V>): Promise<SharedEntry<V>> {
    const local = async () => ({ value: await fetch(), fetchedAt: this.opts.now(), period });
    const entryKey = this.#key("up", upstream, group, period);
    const leaseKey = this.#key("lease", upstream, group, period);
    const failKey = this.#key("fail", upstream, group, period);
    const doneChannel = this.#key("done", upstream, group, period);
    const giveUpAt = performance.now() + 2 * this.opts.leaseMs;
    let wakeup: Wakeup | null | undefined;
    try {
      for (;;) {
        const found = await this.opts.link.run((r) => r.mget(entryKey, failKey));
        if (found === undefined) return await local();
        if (found[0]) return this.#decode<V>(found[0]);
        if (found[1]) throw failureOf(found[1], upstream);
        const lease = await this.opts.link.run((r) => r.set(leaseKey, INSTANCE_ID, "PX", this.opts.leaseMs, "NX"));
        if (lease === undefined) return await local();
        if (lease === "OK") {
          // The previous holder may have finished between our look and our lease: its answer, or
          // its failure mark, is then there to take rather than fetching again.
          const after = await this.opts.link.run((r) => r.mget(entryKey, failKey));
          if (after?.[0] || after?.[1]) await this.opts.link.run((r) => r.del(leaseKey));
          if (after?.[0]) return this.#decode<V>(after[0]);
          if (after?.[1]) throw failureOf(after[1], upstream);
          let entry: SharedEntry<V>;
          try {
            entry = await local();
          } catch (e) {
            await this.opts.link.run((r) => r.multi().set(failKey, failureMark(e), "PX", FAILURE_MARK_MS).del(leaseKey).publish(doneChannel, "failed").exec());
            throw e;
          }
          const text = encodeValue({ value: entry.value, fetchedAt: entry.fetchedAt, period });
          await this.opts.link.run((r) =>
            r
              .multi()
              .set(entryKey, text, "PX", periodMs + this.opts.maxStaleMs)
              .del(leaseKey)
              .publish(doneChannel, "stored")
              .exec(),
          );
          return entry;
        }
        if (performance.now() > giveUpAt) throw new Error(`${upstream}: timed out waiting for another instance's fetch`);
        if (wakeup === undefined && this.opts.wakeups) {
          // Subscribed before looking again, so a holder finishing meanwhile is not missed.
          wakeup = await this.opts.wakeups.listen(doneChannel);
          if (wakeup) continue;
        }
        await (wakeup ? wakeup.next(LEASE_POLL_SUBSCRIBED_MS) : new Promise((resolve) => setTimeout(resolve, LEASE_POLL_MS)));
      }
    } finally {
      wakeup?.stop();
    }
  }

  /** The newest answer stored for a group at or before `period`, fetched at or after `oldest`. */
  async latest<V>(upstream: string, group: string, period: number, periodMs: number, oldest: number): Promise<SharedEntry<V> | undefined> {
    const keys: string[] = [];
    for (let p = period; p + periodMs > oldest; p -= periodMs) keys.push(this.#key("up", upstream, group, p));
    if (keys.length === 0) return undefined;
    const found = await this.opts.link.run((r) => r.mget(...keys));
    const text = found?.find((t) => t !== null);
    if (!text) return undefined;
    const e = this.#decode<V>(text);
    return e.fetchedAt.getTime() >= oldest ? e : undefined;
  }
}

/**
 * A failed fetch as its waiters should see it: the holder's UpstreamError (kind, status, retry
 * hint) when it was one, so that, for instance, CO-OPS saying it has no data for a station is
 * remembered by every instance that asked, not only by the one that fetched.
 */
function failureMark(e: unknown): string {
  if (!(e instanceof UpstreamError)) return "{}";
  const prefix = `${e.upstream}: `;
  const message = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
  return JSON.stringify({ upstream: e.upstream, kind: e.kind, message, retryAfterS: e.retryAfterS, status: e.status });
}

function failureOf(mark: string, upstream: string): Error {
  let m: { upstream?: string; kind?: UpstreamFailure; message?: string; retryAfterS?: number; status?: number | null } = {};
  try {
    m = JSON.parse(mark) as typeof m;
  } catch {
    // an older mark ("1"): no details
  }
  if (m.upstream && m.kind && m.message !== undefined) return new UpstreamError(m.upstream, m.kind, `${m.message} (fetched by another instance)`, m.retryAfterS ?? 60, m.status ?? null);
  return new Error(`${upstream}: the fetch another instance made just failed`);
}

// --- the scheduler's budget -----------------------------------------------------------------------

// Takes a slot, or keeps one held, while fewer than ARGV[2] unexpired ones are held; the slot's
// expiry becomes now + ttl. KEYS[1] zset; ARGV: ttl ms, limit, slot id. 1 = held, 0 = not.
const HOLD_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return 1
end
return 0`;

// Raises a "blocked until" (epoch ms) and never lowers it. KEYS[1]; ARGV[1] until.
const RAISE_BLOCK = `
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > cur then redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[1]) end
return 1`;

/**
 * A slot taken from Redis (`local` is set when Redis could not be asked and this process's own
 * budget gave it). While held it is renewed every third of its lifetime, so neither a long fetch
 * nor a chain of local hand-overs outlives it; a crashed holder stops renewing and its slot expires.
 */
interface RedisSlot extends SlotHandle {
  local: SlotHandle | null;
  timer: NodeJS.Timeout | null;
}

// Slot ids are unique in the process, whichever budget takes them (tests run several instances in one).
let slotsTaken = 0;

/** One upstream's concurrency and quotas counted in Redis for every instance; this process's own when Redis fails. */
export class RedisUpstreamBudget implements UpstreamBudget {
  readonly sharedPollMs = LEASE_POLL_MS;
  readonly #local: MemoryUpstreamBudget;
  /** Renewals that found the slot gone (expired while Redis was unreachable, or Redis restarted and others took it). */
  lostSlots = 0;

  constructor(
    readonly link: RedisLink,
    readonly lane: string,
    readonly concurrency: number,
    readonly windows: readonly QuotaWindow[],
    /** A slot's lifetime without renewal: a crashed holder's slot is free again after it. */
    readonly slotTtlMs: number,
  ) {
    this.#local = new MemoryUpstreamBudget(concurrency, windows);
  }

  #windowKey(id: QuotaWindowId, now: number): string {
    return `oc:quota:${this.lane}:${id}:${Math.floor(now / WINDOW_MS[id]) * WINDOW_MS[id]}`;
  }

  #hold(id: string): Promise<unknown> {
    return this.link.run((r) => r.eval(HOLD_SLOT, 1, `oc:slots:${this.lane}`, this.slotTtlMs, this.concurrency, id));
  }

  async tryTakeSlot(): Promise<SlotHandle | null> {
    const id = `${INSTANCE_ID}:${++slotsTaken}`;
    const got = await this.#hold(id);
    if (got === undefined) {
      const local = await this.#local.tryTakeSlot();
      if (!local) return null;
      const slot: RedisSlot = { id: local.id, local, timer: null };
      return slot;
    }
    if (got !== 1) return null;
    const slot: RedisSlot = { id, local: null, timer: null };
    slot.timer = setInterval(() => void this.renewSlot(slot), Math.max(50, Math.floor(this.slotTtlMs / 3)));
    slot.timer.unref();
    return slot;
  }

  async renewSlot(handle: SlotHandle): Promise<void> {
    const slot = handle as RedisSlot;
    if (slot.local || !slot.timer) return;
    // 0: the slot expired meanwhile and others hold every place; the fetch under way goes on (it
    // cannot be recalled), and the next renewal takes the place back when one frees.
    if ((await this.#hold(slot.id)) === 0) this.lostSlots++;
  }

  async releaseSlot(handle: SlotHandle): Promise<void> {
    const slot = handle as RedisSlot;
    if (slot.local) return this.#local.releaseSlot(slot.local);
    if (!slot.timer) return;
    clearInterval(slot.timer);
    slot.timer = null;
    await this.link.run((r) => r.zrem(`oc:slots:${this.lane}`, slot.id));
  }

  async blockedUntil(weight: number, now: number): Promise<number> {
    const keys = [`oc:block:${this.lane}`, ...this.windows.map((w) => this.#windowKey(w.id, now))];
    const got = await this.link.run((r) => r.mget(...keys));
    if (got === undefined) return this.#local.blockedUntil(weight, now);
    const blocked = Number(got[0] ?? 0);
    let until = blocked > now ? blocked : 0;
    this.windows.forEach((w, i) => {
      if (Number(got[i + 1] ?? 0) + weight > w.limit) until = Math.max(until, windowReset(w.id, now));
    });
    return until;
  }

  async spend(weight: number, now: number): Promise<void> {
    await this.#local.spend(weight, now);
    await this.link.run((r) => {
      const m = r.multi();
      for (const w of this.windows) m.incrby(this.#windowKey(w.id, now), weight).pexpire(this.#windowKey(w.id, now), WINDOW_MS[w.id] + 60_000);
      return m.exec();
    });
  }

  async block(until: number): Promise<void> {
    await this.#local.block(until);
    await this.link.run((r) => r.eval(RAISE_BLOCK, 1, `oc:block:${this.lane}`, Math.round(until)));
  }

  async spent(id: QuotaWindowId, now: number): Promise<number> {
    const got = await this.link.run((r) => r.get(this.#windowKey(id, now)));
    return got === undefined ? this.#local.spent(id, now) : Number(got ?? 0);
  }
}
