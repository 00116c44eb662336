// Answers cached per operation and arguments, shared by the REST routes and the MCP tools. An answer
// depends only on the hour (periods end on the hour; local midnight and the 18:00 roll-forward fall on
// whole UTC hours in every catalogue zone) and on the forecasts of the spots it can have read, which
// the answer itself names: a conditions answer its spot, a decision the regions it covered. A cached
// answer stays valid while the hour and each of those forecasts' versions are unchanged. REST serves
// the stored bytes with an ETag; concurrent misses for one key compute once.
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Catalog } from "./catalog/catalog.js";
import { hourFloor, type Clock } from "./clock.js";
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
      return [];
  }
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
  /** Current version of a spot's forecast (null while a refresh is due: nothing is reused). */
  versionOf(spotId: string): string | null;
}

/** A value as written in a key: never throws, whatever the value (an object with a `toString` member included). */
const keyPart = (v: unknown): string => (v !== null && typeof v === "object" ? JSON.stringify(v) : String(v));

export const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;

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
    const entries = Object.entries(args)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => [k, Array.isArray(v) ? v.map(keyPart) : keyPart(v)] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `${op}?${JSON.stringify(entries)}`;
  }

  /** The cached answer when still valid, else computes it (once for concurrent callers). Errors are not cached. */
  async get<T>(op: Operation, args: Record<string, unknown>, compute: () => Promise<T> | T): Promise<CachedAnswer<T>> {
    const key = AnswerCache.key(op, args);
    const hit = this.#entries.get(key) as CachedAnswer<T> | undefined;
    if (hit && this.#valid(hit)) return hit;
    let pending = this.#inflight.get(key) as Promise<CachedAnswer<T>> | undefined;
    if (!pending) {
      pending = this.#compute(op, key, compute).finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, pending);
    }
    return pending;
  }

  /** Whether an answer handed out earlier is still right: same hour, same versions of what it read. */
  isCurrent(answer: CachedAnswer<unknown>): boolean {
    return this.#valid(answer);
  }

  get size(): number {
    return this.#entries.size;
  }

  #valid(e: CachedAnswer<unknown>): boolean {
    if (e.hour !== hourFloor(this.#clock.now()).getTime()) return false;
    for (const [spot, version] of e.deps) if (this.#versions.versionOf(spot) !== version) return false;
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
