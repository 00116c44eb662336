// Cache of upstream answers keyed by spot group (a region, a tide station…) and model period (the
// hour): a lookup hits when the group has an answer for the current period.
// Bounded by bytes (lru-cache); concurrent misses share one upstream call (single flight); on a
// failed refresh the last good answer is served, its real fetch time telling the caller how old it
// is; groups asked about recently are refreshed ahead of the period's end so users rarely wait, each
// group at its own minute so refreshes spread out instead of leaving in one burst. A fetch carries a
// scheduler ticket: refresh-ahead waits behind callers, and is promoted when a caller joins it.
//
// Where the upstream says when it has something new (Open-Meteo's model runs, model-runs.ts), a
// period's answer is first checked: when nothing newer exists the previous answer is kept for the new
// period and recorded as confirmed at this check (`checkedAt`), without downloading it again. A
// governor (scheduler.ts) may hold back a download that no caller is owed: refresh-ahead, or a new
// run while the answer at hand stays within `holdMaxAgeMs` to the end of the period; the answer is
// then kept with its true age (`held`).
import { LRUCache } from "lru-cache";
import type { Logger } from "pino";
import type { Clock } from "../base/clock.js";
import { callerTicket, refreshTicket, type Ticket } from "./scheduler.js";
import type { SharedAnswers } from "./shared.js";

export interface CacheEntry<V> {
  value: V;
  /** When the upstream answered (the download). */
  fetchedAt: Date;
  /**
   * When the upstream last had nothing newer than this answer: the download itself, or a later run
   * check that confirmed it. Freshness counts from here.
   */
  checkedAt: Date;
  /** Start (epoch ms) of the model period the entry serves. */
  period: number;
  /** Kept for this period although the upstream may have something newer: the download was held back. */
  held?: boolean;
}

/** A group's answers, oldest period first, and their size with each distinct value counted once. */
interface GroupAnswers<V> {
  list: CacheEntry<V>[];
  bytes: number;
}

export type Loader<V> = (ticket: Ticket) => Promise<V>;

/**
 * Whether the upstream has anything newer than an entry's download (true: download again). A throw
 * means it cannot tell, and the answer is downloaded again as without the check.
 */
export type NewerCheck<V> = (entry: CacheEntry<V>) => Promise<boolean>;

/** Reserves a download no caller is owed, or answers null when the governor holds it back. */
export type DownloadGovernor = (group: string) => Promise<(() => void) | null>;

/** A background refresh the governor held back, with no answer young enough to keep instead. */
export class RefreshDeferred extends Error {
  override name = "RefreshDeferred";
}

export interface UpstreamCacheOptions<V> {
  name: string;
  clock: Clock;
  /** Length of a model period: an entry is current for the period it was fetched in. */
  periodMs: number;
  maxBytes: number;
  sizeOf: (value: V) => number;
  /** Last good answers older than this are not served when a refresh fails. */
  maxStaleMs: number;
  /**
   * How long before a period ends a recently asked group is fetched for the next one: each group
   * gets its own lead between `refreshAheadMinMs` and this, so refreshes spread over that span.
   */
  refreshAheadMs: number;
  refreshAheadMinMs?: number;
  /** A group counts as recently asked for this long after a request. */
  recentMs: number;
  /** After a failed background fetch (`peek`), the group is not tried again for this long. */
  retryFailedAfterMs?: number;
  /** Whether an upstream call could go out now (the breaker's view); used for `revision`. */
  canCall: () => boolean;
  /**
   * Answers and fetch leases shared with other instances (REDIS_URL): a miss here reads Redis
   * first, one instance fetches, and last-good answers survive restarts.
   */
  shared?: SharedAnswers | null;
  /** Holds back downloads no caller is owed (refresh-ahead, or a new run while the answer is young). */
  governor?: DownloadGovernor | null;
  /**
   * A held-back answer is kept only while it stays younger than this (from its `checkedAt`) to the
   * end of the period it is kept for; past that a caller's download goes regardless of the governor.
   */
  holdMaxAgeMs?: number;
  log: Logger;
}

export class UpstreamCache<V> {
  readonly #opts: UpstreamCacheOptions<V>;
  // Per group, its answers by period (oldest first): the newest one the current period may see, and
  // one fetched ahead for the next period, invisible until then. A confirmed or held answer is the
  // previous download kept for a new period: the same value, counted once in the group's size.
  readonly #entries: LRUCache<string, GroupAnswers<V>>;
  readonly #inflight = new Map<string, { promise: Promise<CacheEntry<V>>; ticket: Ticket }>();
  // Recently asked groups and how to load them, for refresh-ahead. Bounded like the entries.
  readonly #recent: LRUCache<string, { askedAt: number; load: Loader<V>; newer?: NewerCheck<V> }>;
  // When a background fetch last failed, per group: a failing upstream is not asked on every request.
  readonly #failedAt: LRUCache<string, number>;
  #evictions = 0;
  #warnedAt = Number.NEGATIVE_INFINITY;

  constructor(opts: UpstreamCacheOptions<V>) {
    this.#opts = opts;
    this.#entries = new LRUCache({
      maxSize: opts.maxBytes,
      sizeCalculation: (g) => Math.max(1, g.bytes),
      dispose: (_g, group, reason) => {
        if (reason === "evict") this.#evicted(group);
      },
    });
    this.#recent = new LRUCache({ max: 4096 });
    this.#failedAt = new LRUCache({ max: 4096 });
  }

  /**
   * A group pushed out by the byte bound. When it was asked about recently, its callers will download
   * it again (a caller with no answer at hand is owed one): the cache is too small for the traffic,
   * and the operator is told, at most once an hour (docs/operations.md, UPSTREAM_CACHE_MB).
   */
  #evicted(group: string): void {
    this.#evictions++;
    const now = this.#opts.clock.now().getTime();
    const asked = this.#recent.peek(group)?.askedAt;
    if (asked === undefined || now - asked > this.#opts.recentMs || now - this.#warnedAt < 3_600_000) return;
    this.#warnedAt = now;
    this.#opts.log.warn(
      { cache: this.#opts.name, group, maxBytes: this.#opts.maxBytes },
      "upstream cache full: a recently asked answer was evicted and will be downloaded again; raise UPSTREAM_CACHE_MB",
    );
  }

  #period(now: number): number {
    return Math.floor(now / this.#opts.periodMs) * this.#opts.periodMs;
  }

  /** The group's answer stored for exactly this period, if any (`touch`: counts as a use for the LRU). */
  #at(group: string, period: number, touch = false): CacheEntry<V> | undefined {
    const g = touch ? this.#entries.get(group) : this.#entries.peek(group);
    return g?.list.find((e) => e.period === period);
  }

  /**
   * Stores an answer for its period. Answers for periods before the newest one the current period
   * sees are dropped: nothing reads them again (`latest` returns the newest), and a group's size
   * stays one or two downloads however many hours it is confirmed or held.
   */
  #put(group: string, entry: CacheEntry<V>): CacheEntry<V> {
    const current = this.#period(this.#opts.clock.now().getTime());
    const list = [...(this.#entries.peek(group)?.list ?? []).filter((e) => e.period !== entry.period), entry].sort((a, b) => a.period - b.period);
    const visible = list.findLast((e) => e.period <= current)?.period ?? Number.NEGATIVE_INFINITY;
    const kept = list.filter((e) => e.period >= visible);
    let bytes = 0;
    for (const v of new Set(kept.map((e) => e.value))) bytes += this.#opts.sizeOf(v);
    this.#entries.set(group, { list: kept, bytes });
    return entry;
  }

  /**
   * The group's answer for the current model period: cached, or fetched once however many callers
   * wait for it. When the fetch fails, the last good answer (if not too old) is returned instead;
   * only when there is none does the upstream's error propagate.
   */
  async get(group: string, load: Loader<V>, newer?: NewerCheck<V>): Promise<CacheEntry<V>> {
    const now = this.#opts.clock.now().getTime();
    const period = this.#period(now);
    this.#recent.set(group, { askedAt: now, load, newer });
    const have = this.#at(group, period, true);
    if (have) {
      // The first ask of a new period drops the answers it replaced.
      if (this.#entries.peek(group)!.list[0] !== have) this.#put(group, have);
      return have;
    }
    try {
      return await this.#fetch(group, period, load, callerTicket(), newer);
    } catch (e) {
      const last = this.latest(group) ?? (await this.#sharedLatest(group, period, now));
      if (last) return last;
      throw e;
    }
  }

  /** Last-good from Redis (another instance's, or this one's before a restart), kept here too. */
  async #sharedLatest(group: string, period: number, now: number): Promise<CacheEntry<V> | undefined> {
    const shared = this.#opts.shared;
    if (!shared) return undefined;
    const found = await shared.latest<V>(this.#opts.name, group, period, this.#opts.periodMs, now - this.#opts.maxStaleMs);
    if (!found) return undefined;
    return this.#put(group, { ...found, checkedAt: found.fetchedAt });
  }

  /**
   * For data no caller should wait on (a satellite observation days old): the newest answer at
   * hand, if any, while the current period's is fetched behind callers' requests when due. With
   * nothing here (a fresh instance), the newest last-good in Redis is read back and kept.
   */
  async peek(group: string, load: Loader<V>): Promise<CacheEntry<V> | undefined> {
    const now = this.#opts.clock.now().getTime();
    const period = this.#period(now);
    this.#recent.set(group, { askedAt: now, load });
    const key = `${group}|${period}`;
    const failedAt = this.#failedAt.get(group);
    const resting = failedAt !== undefined && now - failedAt < (this.#opts.retryFailedAfterMs ?? this.#opts.periodMs);
    if (!resting && !this.#at(group, period) && !this.#inflight.has(key) && this.#opts.canCall()) {
      this.#fetch(group, period, load, refreshTicket()).catch((err: unknown) => {
        this.#failedAt.set(group, this.#opts.clock.now().getTime());
        this.#opts.log.debug({ cache: this.#opts.name, group, err: (err as Error).message }, "background fetch failed; keeping the last answer");
      });
    }
    return this.latest(group) ?? (await this.#sharedLatest(group, period, now));
  }

  /** The newest answer for a group up to the current period, if not too old to serve. */
  latest(group: string): CacheEntry<V> | undefined {
    const now = this.#opts.clock.now().getTime();
    const oldest = now - this.#opts.maxStaleMs;
    const period = this.#period(now);
    const e = this.#entries.peek(group)?.list.findLast((x) => x.period <= period);
    return e && e.period + this.#opts.periodMs > oldest && e.checkedAt.getTime() >= oldest ? e : undefined;
  }

  /**
   * Identifies the answer a request would get now (its fetch time), or null while the current
   * period has none and the upstream may be called: a request then fetches, so nothing built earlier
   * stands.
   */
  revision(group: string): string | null {
    const current = this.#at(group, this.#period(this.#opts.clock.now().getTime()));
    if (current) return revisionOf(current);
    if (this.#opts.canCall()) return null;
    const last = this.latest(group);
    return last ? revisionOf(last) : "-";
  }

  /**
   * Fetches the next period's answer for every group asked about within `recentMs`, once the current
   * period is within `refreshAheadMs` of its end. Failures are logged and leave the old answer in place.
   */
  async refreshAhead(): Promise<number> {
    const now = this.#opts.clock.now().getTime();
    const next = this.#period(now) + this.#opts.periodMs;
    if (next - now > this.#opts.refreshAheadMs || !this.#opts.canCall()) return 0;
    const jobs: Promise<unknown>[] = [];
    const due = [...this.#recent.entries()].filter(([group, { askedAt }]) => now - askedAt <= this.#opts.recentMs && !this.#at(group, next) && next - now <= this.#leadOf(group));
    // The most recently asked are decided first: when the governor runs short, the regions asked
    // longest ago are the ones whose refresh is stretched.
    due.sort((a, b) => b[1].askedAt - a[1].askedAt);
    for (const [group, { load, newer }] of due) {
      jobs.push(
        this.#fetch(group, next, load, refreshTicket(), newer).catch((err: unknown) =>
          this.#opts.log.debug({ cache: this.#opts.name, group, err: (err as Error).message }, "refresh-ahead failed or deferred; keeping the last answer"),
        ),
      );
    }
    await Promise.all(jobs);
    return jobs.length;
  }

  /** This group's refresh lead: a stable spot in [refreshAheadMinMs, refreshAheadMs] from its name. */
  #leadOf(group: string): number {
    const min = this.#opts.refreshAheadMinMs ?? this.#opts.refreshAheadMs;
    let h = 2166136261;
    for (let i = 0; i < group.length; i++) h = Math.imul(h ^ group.charCodeAt(i), 16777619) >>> 0;
    return min + ((h % 1000) / 1000) * (this.#opts.refreshAheadMs - min);
  }

  /**
   * The group's answer for `period`, once however many ask: the previous answer confirmed when the
   * upstream has nothing newer, kept when the governor holds a download back that no caller is owed,
   * downloaded otherwise.
   */
  #fetch(group: string, period: number, load: Loader<V>, ticket: Ticket, newer?: NewerCheck<V>): Promise<CacheEntry<V>> {
    const key = `${group}|${period}`;
    const pending = this.#inflight.get(key);
    if (pending) {
      // A caller joining a refresh-ahead moves it up the queue.
      if (ticket.priority === "caller") pending.ticket.priority = "caller";
      return pending.promise;
    }
    const store = (entry: CacheEntry<V>) => this.#put(group, entry);
    const promise = this.#decide(group, period, load, ticket, newer, store).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, { promise, ticket });
    return promise;
  }

  async #decide(group: string, period: number, load: Loader<V>, ticket: Ticket, newer: NewerCheck<V> | undefined, store: (e: CacheEntry<V>) => CacheEntry<V>): Promise<CacheEntry<V>> {
    const now = () => this.#opts.clock.now().getTime();
    const prev = newer ? (this.latest(group) ?? (await this.#sharedLatest(group, this.#period(now()), now()))) : undefined;
    if (prev && newer) {
      let hasNewer = true;
      try {
        hasNewer = await newer(prev);
      } catch (err) {
        this.#opts.log.debug({ cache: this.#opts.name, group, err: (err as Error).message }, "run check failed; downloading as without it");
      }
      if (!hasNewer) return store({ value: prev.value, fetchedAt: prev.fetchedAt, checkedAt: new Date(now()), period });
    }
    const canHold = prev !== undefined && this.#opts.holdMaxAgeMs !== undefined && period + this.#opts.periodMs - prev.checkedAt.getTime() < this.#opts.holdMaxAgeMs;
    const governor = this.#opts.governor;
    if (governor && (ticket.priority === "refresh" || canHold)) {
      const release = await governor(group);
      if (!release) {
        if (prev && canHold) return store({ value: prev.value, fetchedAt: prev.fetchedAt, checkedAt: prev.checkedAt, period, held: true });
        throw new RefreshDeferred(`${this.#opts.name} ${group}: refresh held back by the governor`);
      }
      try {
        return await this.#download(group, period, load, ticket, store);
      } finally {
        release();
      }
    }
    return this.#download(group, period, load, ticket, store);
  }

  #download(group: string, period: number, load: Loader<V>, ticket: Ticket, store: (e: CacheEntry<V>) => CacheEntry<V>): Promise<CacheEntry<V>> {
    const shared = this.#opts.shared;
    if (shared) return shared.load(this.#opts.name, group, period, this.#opts.periodMs, () => load(ticket)).then((e) => store({ ...e, checkedAt: e.fetchedAt }));
    return load(ticket).then((value) => {
      const at = this.#opts.clock.now();
      return store({ value, fetchedAt: at, checkedAt: at, period });
    });
  }

  /** Resolves once every fetch now under way has finished (tests, bench, shutdown). */
  async settled(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight.values()].map((f) => f.promise));
  }

  /** Entries held and their total size, for tests and the bounded-memory check. */
  stats(): { groups: number; entries: number; bytes: number; maxBytes: number; evictions: number } {
    let entries = 0;
    for (const g of this.#entries.values()) entries += g.list.length;
    return { groups: this.#entries.size, entries, bytes: this.#entries.calculatedSize, maxBytes: this.#opts.maxBytes, evictions: this.#evictions };
  }
}

/** Identifies an answer: its download and its last confirmation (a confirmation changes its freshness). */
function revisionOf(e: CacheEntry<unknown>): string {
  return e.checkedAt.getTime() === e.fetchedAt.getTime() ? String(e.fetchedAt.getTime()) : `${e.fetchedAt.getTime()}+${e.checkedAt.getTime()}`;
}
