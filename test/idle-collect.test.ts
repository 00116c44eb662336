import { EventEmitter } from "node:events";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { collectHeap } from "../src/heap.js";
import { collectWhenIdle, IDLE_COLLECT_GROWTH_BYTES } from "../src/http/idle-collect.js";

const MB = 1024 * 1024;

/** A server that only emits requests, and a heap whose size the test sets. */
function setup() {
  const server = new EventEmitter();
  let heap = 60 * MB;
  let collected = 0;
  const collector = collectWhenIdle(server, {
    timer: false,
    heapBytes: () => heap,
    collect: () => {
      collected++;
      heap = 62 * MB;
    },
  });
  return {
    collector,
    request: () => server.emit("request"),
    grow: (bytes: number) => void (heap += bytes),
    setHeap: (bytes: number) => void (heap = bytes),
    collected: () => collected,
    listeners: () => server.listenerCount("request"),
  };
}

describe("collecting when idle", () => {
  it("collects once a burst that grew the heap is over, and not while requests keep arriving", () => {
    const s = setup();
    s.grow(IDLE_COLLECT_GROWTH_BYTES + MB);
    // A steady load: a request between every two looks, never quiet.
    for (let i = 0; i < 10; i++) {
      s.request();
      expect(s.collector.look()).toBe(false);
    }
    // Quiet: the first look sees no new request, the second collects.
    expect(s.collector.look()).toBe(false);
    expect(s.collector.look()).toBe(true);
    expect(s.collected()).toBe(1);
    // Still quiet, heap not grown since: no second collection.
    for (let i = 0; i < 10; i++) expect(s.collector.look()).toBe(false);
    expect(s.collector.collections).toBe(1);
  });

  it("does not collect for light traffic that grows the heap less than the threshold", () => {
    const s = setup();
    for (let i = 0; i < 20; i++) {
      s.request();
      s.grow(MB / 2);
      s.collector.look();
      s.collector.look();
      s.collector.look();
    }
    // 10 MB grown in all, with quiet looks throughout.
    expect(s.collected()).toBe(0);
    s.grow(IDLE_COLLECT_GROWTH_BYTES);
    s.collector.look();
    expect(s.collected()).toBe(1);
  });

  it("counts growth from the smallest heap seen, so a heap V8 shrank on its own is not collected again for nothing", () => {
    const s = setup();
    s.setHeap(40 * MB);
    s.collector.look();
    s.setHeap(40 * MB + IDLE_COLLECT_GROWTH_BYTES - MB);
    s.collector.look();
    s.collector.look();
    expect(s.collected()).toBe(0);
    s.grow(2 * MB);
    expect(s.collector.look()).toBe(true);
  });

  it("stops listening when stopped", () => {
    const s = setup();
    expect(s.listeners()).toBe(1);
    s.collector.stop();
    expect(s.listeners()).toBe(0);
  });

  it("the collection is V8's own full collection, which frees dead objects, and leaves no global gc behind", async () => {
    // An object only a weak reference holds, in the old generation by now, survives until a full collection.
    const ref = new WeakRef({ big: new Array(1000).fill(1) });
    // A weak reference keeps its target for the rest of the job that made (or read) it.
    const nextJob = () => new Promise((resolve) => setImmediate(resolve));
    await nextJob();
    expect(ref.deref()).toBeDefined();
    await nextJob();
    collectHeap();
    expect(ref.deref()).toBeUndefined();
    // The flag is off again: a context made afterwards has no `gc` of its own.
    expect(runInNewContext("typeof gc")).toBe("undefined");
  });
});
