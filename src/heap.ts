// A full, compacting collection of V8's heap, run on demand: by the HTTP server once a burst of
// requests is over (src/http/idle-collect.ts) and by a render worker after its cards
// (src/share/render-worker.ts).
//
// `gc` comes from V8's `--expose-gc`, set here only for the moment it takes to fetch the function,
// so every way of starting the service (npm start, tests, a process manager) behaves the same and
// no other context finds a global `gc` it did not ask for. A plain full collection frees the dead
// objects but keeps the pages they sat on: after the bench's mixed workload the main heap went
// 95 → 91 MB. With `--compact-on-every-full-gc`, turned on for this one collection, V8 moves the
// live objects together and gives the emptied pages back, as its memory reducer does some 10–15 s
// after a load: 95 → 73 MB, and 21 MB less RSS one second later (BENCHMARKS.md, "Memory budget").
// The flags are the process's, read by the collector when it starts, so one collection is affected.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | undefined;

export function collectHeap(): void {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
    setFlagsFromString("--no-expose-gc");
  }
  setFlagsFromString("--compact-on-every-full-gc");
  try {
    gc();
  } finally {
    setFlagsFromString("--no-compact-on-every-full-gc");
  }
}
