// Memory given back once a burst of requests is over.
//
// Under load the heap grows (answers, forecasts, compiled code, buffers of the responses written),
// and V8 keeps the pages it grew into. Its own memory reducer returns them only some 10–15 s after
// allocation slows (measured: 174 → 148 MB about 15 s after a mixed load stopped; BENCHMARKS.md,
// "Memory budget"). So this collector runs one full, compacting collection (src/heap.ts) as soon as the server has been quiet
// for IDLE_COLLECT_QUIET_MS, when the heap has grown by IDLE_COLLECT_GROWTH_BYTES since the last
// collection. The growth rule keeps it to about one collection per burst: light traffic, which
// grows the heap slowly, never triggers it, and a steady load never falls quiet.
//
// The cost: the collection is a pause of the main thread (30–60 ms at the heap sizes under load),
// taken when no request has arrived for half a second. A request arriving during it waits that long.
import type { EventEmitter } from "node:events";
import { getHeapStatistics } from "node:v8";
import { collectHeap } from "../heap.js";

/** Quiet time (no new request) before a collection. */
export const IDLE_COLLECT_QUIET_MS = 500;
/** Growth of the committed heap since the last collection that makes one worth its pause. */
export const IDLE_COLLECT_GROWTH_BYTES = 16 * 1024 * 1024;
/** How often the collector looks, and how many looks in a row must see no new request. */
const LOOK_MS = 250;
const QUIET_LOOKS = IDLE_COLLECT_QUIET_MS / LOOK_MS;

export interface IdleCollector {
  /** Full collections run so far. */
  readonly collections: number;
  /** One look: collects if no request has arrived for QUIET_LOOKS looks and the heap has grown enough. */
  look(): boolean;
  stop(): void;
}

export function collectWhenIdle(
  server: Pick<EventEmitter, "on" | "off">,
  opts: {
    collect?: () => void;
    heapBytes?: () => number;
    growthBytes?: number;
    timer?: boolean;
    /** Told the committed heap before and after each collection (the service logs it at debug level). */
    onCollect?: (before: number, after: number) => void;
  } = {},
): IdleCollector {
  const collect = opts.collect ?? collectHeap;
  const heapBytes = opts.heapBytes ?? (() => getHeapStatistics().total_heap_size);
  const growth = opts.growthBytes ?? IDLE_COLLECT_GROWTH_BYTES;
  let requests = 0;
  let seen = 0;
  let baseline = heapBytes();
  let collections = 0;
  const onRequest = () => void requests++;
  server.on("request", onRequest);
  let quietLooks = 0;
  const look = (): boolean => {
    quietLooks = requests === seen ? quietLooks + 1 : 0;
    seen = requests;
    const heap = heapBytes();
    // Growth counts from the smallest heap since the last collection (V8 shrinks it on its own too).
    baseline = Math.min(baseline, heap);
    if (quietLooks < QUIET_LOOKS || heap < baseline + growth) return false;
    collect();
    collections++;
    baseline = heapBytes();
    opts.onCollect?.(heap, baseline);
    return true;
  };
  const timer = opts.timer === false ? undefined : setInterval(look, LOOK_MS).unref();
  return {
    get collections() {
      return collections;
    },
    look,
    stop() {
      clearInterval(timer);
      server.off("request", onRequest);
    },
  };
}
