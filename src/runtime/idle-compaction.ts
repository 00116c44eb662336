// Gives the heap's free pages back once a burst of work is over, instead of some 10–25 s later.
//
// Under load V8 collects often (src/runtime/heap.ts sets a small growth step), but an ordinary full
// collection only moves objects off pages that are nearly empty, so after a burst the old space is
// left with many part-used pages: about 20 MB committed above what is live after the bench's mixed
// workload. V8's memory reducer compacts them, but only once it has seen the allocation rate stay
// low for a while, 10–25 s later, and sometimes not at all. This timer watches the event loop: once
// it has been nearly idle for IDLE_TICKS checks in a row, and the committed heap has grown by
// GROWTH_BYTES since the last compaction (or since the watch began), it makes a full collection
// with V8's selection for memory (see compactingCollection), and another at each following idle
// check while the last still gave back CONTINUE_BYTES. The heap in use cannot tell garbage from
// live data until a collection has run, so growth is the trigger: a compaction that finds
// everything live costs one pause and waits for the next GROWTH_BYTES. Each collection takes the
// main thread for about 60–100 ms, only when nothing was waiting for it (BENCHMARKS.md, "Memory
// budget").
import { performance, type EventLoopUtilization } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** How often the event loop's use is read. */
export const IDLE_CHECK_MS = 250;
/** The loop counts as idle over a check when it was busy less than this share of it. */
export const IDLE_UTILIZATION = 0.02;
/** Checks in a row the loop must be idle before a compaction: half a second. */
export const IDLE_TICKS = 2;
/** Growth of the committed heap since the last compaction that makes the next one worth its pause. */
export const GROWTH_BYTES = 12 * 1024 * 1024;
/** A compaction that gave back at least this much is followed by another at the next idle check. */
export const CONTINUE_BYTES = 4 * 1024 * 1024;

/** V8's `gc` function, from its flag, set and cleared again so no other context finds a global `gc`. */
export function exposeGc(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  setFlagsFromString("--no-expose-gc");
  return gc;
}

/**
 * `--max-semi-space-size` as the process was started with (`npm start` passes 2), or 0, V8's
 * default. Setting `--optimize-for-size` also sets that flag to 1 (a V8 implication) and clearing it
 * does not set it back, so every isolate made afterwards (a render worker) would get a young
 * generation half the size; compactingCollection restores it.
 */
export function startedSemiSpaceMb(args: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)]): number {
  let mb = 0;
  for (let i = 0; i < args.length; i++) {
    const m = /^--max[-_]semi[-_]space[-_]size(?:=(\d+))?$/.exec(args[i]!);
    if (m) mb = Number(m[1] ?? args[i + 1]) || 0;
  }
  return mb;
}
const SEMI_SPACE_MB = startedSemiSpaceMb();

/**
 * One full collection that moves the live objects off the emptiest pages, so those pages go back.
 * V8 then picks pages as it does for a process short of memory (`--optimize-for-size`, set for this
 * collection only): pages at least a fifth free, emptiest first, up to about 6 MB of objects moved.
 * Moving every page's objects instead (`--compact-on-every-full-gc`) gave back a little more in one
 * go but copied all that is live (about 40 MB) before freeing the old pages: RSS rose by that much
 * for the 150 ms of the collection, which in the bench was the run's peak.
 */
export function compactingCollection(gc: () => void): void {
  setFlagsFromString("--optimize-for-size");
  try {
    gc();
  } finally {
    setFlagsFromString("--no-optimize-for-size");
    setFlagsFromString(`--max-semi-space-size=${SEMI_SPACE_MB}`);
  }
}

/** What one compaction did: its time on the main thread, and the committed heap before and after. */
export interface Compaction {
  ms: number;
  heapBeforeBytes: number;
  heapAfterBytes: number;
}

export interface IdleCompaction {
  /** Compactions made so far. */
  readonly count: number;
  stop(): void;
}

/**
 * Starts the watch on this thread's event loop and heap. `waiting` says whether a request is still
 * being answered: one waiting on an upstream leaves the loop quiet, and must not then wait behind a
 * collection too. The timer does not keep the process alive.
 */
export function startIdleCompaction(onCompaction?: (c: Compaction) => void, waiting: () => boolean = () => false): IdleCompaction {
  const gc = exposeGc();
  let count = 0;
  let quiet = 0;
  let floor = getHeapStatistics().total_heap_size;
  let continuing = false;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy >= IDLE_UTILIZATION || waiting()) {
      quiet = 0;
      return;
    }
    if (++quiet < IDLE_TICKS) return;
    const before = getHeapStatistics().total_heap_size;
    if (!continuing && before < floor + GROWTH_BYTES) {
      // The heap may also have shrunk (V8's memory reducer): growth counts from its smallest since.
      floor = Math.min(floor, before);
      return;
    }
    const started = performance.now();
    compactingCollection(gc);
    count++;
    floor = getHeapStatistics().total_heap_size;
    continuing = before - floor >= CONTINUE_BYTES;
    onCompaction?.({ ms: performance.now() - started, heapBeforeBytes: before, heapAfterBytes: floor });
    // The collection's own time must not count as the loop being busy at the next check.
    last = performance.eventLoopUtilization();
  }, IDLE_CHECK_MS);
  timer.unref();
  return {
    get count() {
      return count;
    },
    stop: () => clearInterval(timer),
  };
}
