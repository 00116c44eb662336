// The heap's compaction once the event loop falls idle (src/runtime/idle-compaction.ts), in a process of its
// own: it sets V8 flags and collects the whole heap, which a test worker shared with other files
// must not have done to it.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CONTINUE_BYTES, startedSemiSpaceMb } from "../src/runtime/idle-compaction.js";
import { PROJECT_ROOT } from "../src/base/paths.js";

interface Report {
  /** Compactions made while the loop was kept busy, and once it had fallen idle. */
  whileBusy: number;
  /** …while the loop was quiet but a request was still being answered. */
  whileWaiting: number;
  afterIdle: number;
  /** What each compaction gave back (bytes of committed heap). */
  gaveBack: number[];
  /** Committed heap and heap in use (MB) before and after. */
  before: { total: number; used: number };
  after: { total: number; used: number };
  /** The data the heap held, summed before and after: a compaction moves objects, never loses one. */
  checksum: [number, number];
  /** The young generation of a thread started before the compactions and of one started after. */
  young: [number, number];
}

// A heap left as a burst of work leaves it: two seconds of the loop busy making many small objects,
// two in three of them then dropped, so the pages they filled are a third full. Then idle until the
// compaction has happened (the event, not a time: the test's own timeout is the only clock).
const CHILD = `
import { getHeapStatistics } from "node:v8";
import { Worker } from "node:worker_threads";
import { CONTINUE_BYTES, startIdleCompaction } from ${JSON.stringify(pathToFileURL(join(PROJECT_ROOT, "dist/src/runtime/idle-compaction.js")).href)};
const mb = (n) => Math.round(n / 1048576 * 10) / 10;
const heap = () => { const h = getHeapStatistics(); return { total: mb(h.total_heap_size), used: mb(h.used_heap_size) }; };
// The young generation a new thread's isolate gets (a render worker starts after a compaction too).
const youngOfNewThread = () => new Promise((resolve) => {
  const w = new Worker("const v8 = require('v8'); const a = []; for (let i = 0; i < 1e6; i++) a.push({ i }); require('worker_threads').parentPort.postMessage(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);", { eval: true, execArgv: [] });
  w.once("message", (n) => { resolve(n); void w.terminate(); });
});
const youngBefore = await youngOfNewThread();
const gaveBack = [];
let seriesOver;
const over = new Promise((r) => (seriesOver = r));
// A request still being answered for the first four idle checks once the burst is over (as one
// waiting on an upstream leaves the loop quiet): no compaction may run while it waits.
let waitingChecks = 0;
let whileWaiting = -1;
const compaction = startIdleCompaction(
  (c) => {
    gaveBack.push(c.heapBeforeBytes - c.heapAfterBytes);
    if (c.heapBeforeBytes - c.heapAfterBytes < CONTINUE_BYTES) seriesOver();
  },
  () => {
    if (whileWaiting >= 0) return false;
    if (++waitingChecks === 4) whileWaiting = compaction.count;
    return true;
  },
);
// The burst, with the loop busy throughout: two seconds of work that leaves the heap some 40 MB larger.
let kept = [];
let i = 0;
const busyUntil = Date.now() + 2000;
await new Promise((done) => {
  const work = () => {
    const t = Date.now();
    while (Date.now() - t < 20) if (i < 600000) for (let j = 0; j < 1000; j++, i++) kept.push({ i, text: "value " + i });
    if (Date.now() < busyUntil) setImmediate(work); else done();
  };
  work();
});
kept = kept.filter((o) => o.i % 3 === 0);
const sum = () => kept.reduce((s, o) => s + o.i + o.text.length, 0);
const checksum = sum();
const whileBusy = compaction.count;
const before = heap();
// Held open until the series of compactions is over (one that gave back little ends it).
const hold = setInterval(() => {}, 1000);
await over;
clearInterval(hold);
compaction.stop();
console.log(JSON.stringify({ whileBusy, whileWaiting, afterIdle: compaction.count, gaveBack, before, after: heap(), checksum: [checksum, sum()], young: [youngBefore, await youngOfNewThread()] }));
`;

function runChild(): Promise<Report> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ["--max-semi-space-size=2", "--input-type=module", "-e", CHILD], { timeout: 60_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as Report),
    ),
  );
}

describe("the heap's compaction when idle", () => {
  it("waits while the loop is busy or a request is being answered, then compacts until little is left to give back, keeping every object", async () => {
    const r = await runChild();
    expect(r.whileBusy).toBe(0);
    expect(r.whileWaiting).toBe(0);
    // A series: each compaction moves a few MB, the next follows while the last gave back enough.
    expect(r.afterIdle).toBeGreaterThan(1);
    expect(r.gaveBack.length).toBe(r.afterIdle);
    expect(r.gaveBack.slice(0, -1).every((b) => b >= CONTINUE_BYTES)).toBe(true);
    expect(r.checksum[1]).toBe(r.checksum[0]);
    // The V8 flag the compaction sets for its collection leaves no trace on isolates made later.
    expect(r.young[1]).toBe(r.young[0]);
    // Pages a third full were emptied and given back: the committed heap came down to near what is in use.
    expect(r.after.total).toBeLessThan(r.before.total - 10);
    expect(r.after.total - r.after.used).toBeLessThan(8);
  }, 90_000);

  it("knows the young-generation size the process was started with, to set it back", () => {
    expect(startedSemiSpaceMb(["--max-semi-space-size=2", "dist/src/main.js"])).toBe(2);
    expect(startedSemiSpaceMb(["--max_semi_space_size", "4"])).toBe(4);
    expect(startedSemiSpaceMb(["--enable-source-maps", ""])).toBe(0);
  });
});
