// A share-image render worker (src/share/render-pool.ts): draws one card per message, off the
// main thread, so a render never holds up the event loop that answers everyone else.
import { parentPort } from "node:worker_threads";
import { localRenderer, type CardImageModel } from "./card-image.js";

const renderer = localRenderer();

parentPort!.on("message", (msg: { id: number; model: CardImageModel }) => {
  renderer.render(msg.model).then(
    (png) => {
      // The PNG's memory moves to the main thread instead of being copied.
      const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength).slice();
      parentPort!.postMessage({ id: msg.id, png: bytes }, [bytes.buffer]);
    },
    (err: unknown) => parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
