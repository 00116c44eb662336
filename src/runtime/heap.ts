// V8's heap growth per full collection (RUNTIME_HEAP_GROWING_PERCENT, default 10; 0 leaves V8's own
// factor). V8 grows the heap by up to 4× its live size after a full collection, which let promoted
// garbage take the heap past 300 MB under load; with a 10 % step it stays near what is live
// (BENCHMARKS.md, "Memory budget"). Set by the entry point once the modules are loaded, not on the
// command line: while they load the small step made V8 collect over and over, about a tenth of the
// time from start to the first answer.
import { setFlagsFromString } from "node:v8";

/** Sets V8's heap growth step, or leaves V8's own when `percent` is 0. */
export function setHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
