// A share-image render worker (src/services/render/render-pool.ts): draws one card per message, off the
// main thread, so a render never holds up the event loop that answers everyone else.
import { parentPort, workerData } from "node:worker_threads";
import { compactingCollection, exposeGc } from "../../runtime/idle-compaction.js";
import { localRenderer, type CardImageModel } from "./card-draw.js";
import { RENDER_COLLECT_EVERY, RENDER_COLLECT_IDLE_MS, type RenderReply } from "./render-pool.js";

const renderer = localRenderer(undefined, (workerData as { fontDirectory?: string } | null)?.fontDirectory);

/**
 * resvg keeps each card's parsed SVG tree and its 1200×630 pixmap (about 4 MB) outside V8's heap,
 * freed only when the small objects that wrap them are collected. V8 does not know what they hold,
 * so it collects them late: drawing 100 cards in a row left the process at 232 MB, against 130 MB
 * with a full collection every fourth card (BENCHMARKS.md, "Memory budget"; measured with the
 * earlier renderer, whose own garbage was larger). So this worker collects its own heap after every
 * RENDER_COLLECT_EVERY cards, and once when it falls idle, after the card has been sent; the idle
 * one also compacts, so the worker's part-used heap pages go back too (a worker after 48 cards: heap
 * 11.0 → 9.7 MB committed, the process's RSS 5 MB less).
 * The `gc` function comes from V8's flag, set here rather than on the command line so every way of
 * starting the service (npm start, tests, a process manager) behaves the same.
 */
const collect = exposeGc();
let sinceCollect = 0;
let idle: NodeJS.Timeout | undefined;

function collectNow(compact: boolean): void {
  clearTimeout(idle);
  idle = undefined;
  sinceCollect = 0;
  if (compact) compactingCollection(collect);
  else collect();
  parentPort!.postMessage({ collected: true } satisfies RenderReply);
}

/** After each card, drawn or failed (a failed one may have allocated as much). */
function afterCard(): void {
  if (++sinceCollect >= RENDER_COLLECT_EVERY) collectNow(false);
  idle = setTimeout(() => collectNow(true), RENDER_COLLECT_IDLE_MS).unref();
}

parentPort!.on("message", (msg: { id: number; model: CardImageModel }) => {
  clearTimeout(idle);
  renderer.render(msg.model).then(
    (png) => {
      // The PNG's memory moves to the main thread instead of being copied.
      const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength).slice();
      parentPort!.postMessage({ id: msg.id, png: bytes } satisfies RenderReply, [bytes.buffer]);
      afterCard();
    },
    (err: unknown) => {
      parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) } satisfies RenderReply);
      afterCard();
    },
  );
});
