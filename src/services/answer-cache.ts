// Answers cached per operation and arguments, shared by the REST routes and the MCP tools. An answer
// depends only on the hour (periods end on the hour; local midnight and the 18:00 roll-forward fall on
// whole UTC hours in every catalogue zone) and on the forecasts of the spots it can have read, which
// the answer itself names: a conditions answer its spot, a decision the regions it covered. A cached
// answer stays valid while the hour and each of those forecasts' versions are unchanged. REST serves
// the stored bytes with an ETag; concurrent misses for one key compute once.
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Catalog } from "../catalog/catalog.js";
import { hourFloor, type Clock } from "../base/clock.js";
import type { Operation } from "./metering/meter.js";

/** Spots an answer depends on, with the version of each one's forecast when it was computed. */
export type Dependencies = Map<string, string | null>;

/** The spots whose forecasts an answer of each operation can have read (a superset is safe). */
export function dependenciesOf(op: Operation, value: unknown, catalog: Catalog): string[] {
  switch (op) {
    case "conditions":
      return [(value as { spot: { id: string } }).spot.id];
    case "recommendations":
    case "best-day":
      return (value as { coverage: { regions: string[] } }).coverage.regions.flatMap((r) => catalog.region(r)?.spots.map((s) => s.id) ?? []);
    case "spots":
    case "coverage":
    case "validation":
      return [];
  }
}

/**
 * The canonical form of a question's arguments: an absent argument and a null one are the same
 * (not given, so its default applies and the echo shows null), and keys are in one order.
 */
export function canonicalArgs(args: Record<string, unknown>): Record<string, unknown> {
  // A null-prototype object: an argument named `__proto__` is then a key like any other, never the
  // object's prototype (a replayed call once carried `"__proto__": {"spot": …}`, and the meter read
  // `spot` through it). Such names are refused before they get here (forbiddenArgName).
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(args).sort()) {
    const v = args[k];
    if (v !== undefined && v !== null) out[k] = v;
  }
  return out;
}

/** Argument names no tool or endpoint takes that a plain object would treat specially. */
export const FORBIDDEN_ARG_NAMES: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** The first own argument name that is forbidden, or null. */
export function forbiddenArgName(args: object): string | null {
  return Object.keys(args).find((k) => FORBIDDEN_ARG_NAMES.has(k)) ?? null;
}

export interface CachedAnswer<T> {
  value: T;
  hour: number;
  deps: Dependencies;
  /** The JSON body, serialised once. */
  body: Buffer;
  etag: string;
  /** Markdown for MCP hosts, rendered on first use. */
  markdown?: string;
}

export interface VersionSource {
  /**
   * Current version of a spot's forecast (null while a refresh is due: nothing is reused), for the
   * hour given (the start of the current UTC hour in ms, when the caller has already read the clock).
   */
  versionOf(spotId: string, hour?: number): string | null;
}

/** A value as written in a key: never throws, whatever the value (an object with a `toString` member included). */
const keyPart = (v: unknown): string => (v !== null && typeof v === "object" ? JSON.stringify(v) : String(v));

/**
 * Bytes of answers kept per instance, by their own count (each body twice, for the value beside
 * it). A miss costs little once the forecasts are in memory (a region's recommendations re-ranked
 * and serialised in about a millisecond, BENCHMARKS.md), so the bound is set by memory: 8 MiB keeps
 * about 90–240 answers of the sizes the bench measures (46 KB for a spot's conditions, 17–28 KB for
 * a decision), the questions asked again within the hour.
 */
export const ANSWER_CACHE_BYTES = 8 * 1024 * 1024;

export class AnswerCache {
  readonly #clock: Clock;
  readonly #versions: VersionSource;
  readonly #catalog: Catalog;
  readonly #entries = new LRUCache<string, CachedAnswer<unknown>>({ maxSize: ANSWER_CACHE_BYTES, sizeCalculation: (e) => e.body.length * 2 + 512 });
  readonly #inflight = new Map<string, Promise<CachedAnswer<unknown>>>();

  constructor(clock: Clock, versions: VersionSource, catalog: Catalog) {
    this.#clock = clock;
    this.#versions = versions;
    this.#catalog = catalog;
  }

  /** Stable key for an operation and its arguments, however they were written (REST strings or MCP values). */
  static key(op: Operation, args: Record<string, unknown>): string {
    const entries = Object.entries(canonicalArgs(args)).map(([k, v]) => [k, Array.isArray(v) ? v.map(keyPart) : keyPart(v)] as const);
    return `${op}?${JSON.stringify(entries)}`;
  }

  /**
   * The cached answer when still valid, else computes it (once for concurrent callers). `compute`
   * is handed the canonical arguments the key was made from, never the caller's own, so nothing in
   * an answer (its `query` echo) can depend on a difference the key ignores. Errors are not cached.
   */
  async get<T>(op: Operation, args: Record<string, unknown>, compute: (canonical: Record<string, unknown>) => Promise<T> | T): Promise<CachedAnswer<T>> {
    const canonical = canonicalArgs(args);
    return this.getCanonical(op, canonical, AnswerCache.key(op, canonical), compute);
  }

  /**
   * The answer kept under `key` while it is still valid, else undefined; nothing is computed. Lets a
   * caller that already has the key (see `get`) answer a hit without waiting a turn of the event loop.
   */
  current<T>(key: string): CachedAnswer<T> | undefined {
    const hit = this.#entries.get(key) as CachedAnswer<T> | undefined;
    return hit && this.#valid(hit) ? hit : undefined;
  }

  /**
   * `get` for arguments already in canonical form (`canonicalArgs`) with their `key`: callers that
   * see the same question many times keep both rather than derive them on each call.
   */
  async getCanonical<T>(op: Operation, canonical: Record<string, unknown>, key: string, compute: (canonical: Record<string, unknown>) => Promise<T> | T): Promise<CachedAnswer<T>> {
    const hit = this.current<T>(key);
    if (hit) return hit;
    let pending = this.#inflight.get(key) as Promise<CachedAnswer<T>> | undefined;
    if (!pending) {
      pending = this.#compute(op, key, () => compute(canonical)).finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, pending);
    }
    return pending;
  }

  get size(): number {
    return this.#entries.size;
  }

  #valid(e: CachedAnswer<unknown>): boolean {
    // The clock is read once for every spot the answer depends on (16 for a Cape Peninsula decision).
    const hour = hourFloor(this.#clock.now()).getTime();
    if (e.hour !== hour) return false;
    for (const [spot, version] of e.deps) if (version === null || this.#versions.versionOf(spot, hour) !== version) return false;
    return true;
  }

  async #compute<T>(op: Operation, key: string, compute: () => Promise<T> | T): Promise<CachedAnswer<T>> {
    const hour = hourFloor(this.#clock.now()).getTime();
    const value = await compute();
    // Versions read after computing: if a forecast moved on meanwhile, the entry is simply stale.
    const deps: Dependencies = new Map(dependenciesOf(op, value, this.#catalog).map((id) => [id, this.#versions.versionOf(id)]));
    const body = Buffer.from(JSON.stringify(value));
    const entry: CachedAnswer<T> = { value, hour, deps, body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` };
    // A forecast with a refresh due has no version: its answers are not kept.
    if ([...deps.values()].every((v) => v !== null)) this.#entries.set(key, entry as CachedAnswer<unknown>);
    return entry;
  }
}
