// Share images drawn in worker threads: at most RENDER_CONCURRENCY at once (default cores − 1, at least one),
// at most RENDER_QUEUE waiting; past that a render is refused at once with 503 unavailable and
// Retry-After instead of piling up. One caller holds at most a quarter of those places (drawn and
// waiting together; RenderPool.share), so a caller keeping many fresh renders in flight is refused
// its own past that while everyone else's cards are still drawn; and the last free place is kept for
// a caller with none in flight, so four callers (four addresses, or four /64s of one /48) holding a
// quarter each cannot fill the renderer between them. Drawing a card takes about 45 ms of CPU; in the main thread that
// held up every other request for as long.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { ServiceError } from "../../base/errors.js";
import { PROJECT_ROOT } from "../../base/paths.js";
import type { CardImageModel } from "./card-draw.js";
import type { CardRenderer } from "./card-image.js";

/** Places kept free for callers holding none: a caller with renders in flight may not take the last. */
const PLACES_KEPT_FOR_NEWCOMERS = 1;

/** Seconds a caller refused by a full render queue is asked to wait. */
export const RENDER_BUSY_RETRY_S = 2;

interface Job {
  model: CardImageModel;
  resolve(png: Buffer): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** Cards sent to this worker by message id (a message carries the id of the card it answers). */
  ids: Map<number, Job>;
  dead: boolean;
  /** Retires the worker once it has been idle RENDER_IDLE_MS. */
  idle?: NodeJS.Timeout;
}

/**
 * A render worker with nothing to draw for this long is stopped, and its memory (its own heap, the
 * renderer's libraries and fonts, resvg's allocations: about 33 MB of RSS) returned; the next
 * card starts a new one, which costs what the first card after start does (BENCHMARKS.md).
 */
export const RENDER_IDLE_MS = 10_000;

/**
 * The worker's entry: the built .js in dist/src/share, or, when running from TypeScript sources
 * (tests, tsx), the .ts file loaded through tsx's loader inside the worker. Found from the project's
 * root, not from this module's URL: the built entry point is one bundled file in dist/src
 * (scripts/bundle-entry.mjs), whose URL this module shares.
 */
function spawnWorker(fontDirectory: string | undefined): Worker {
  const compiled = import.meta.url.endsWith(".js");
  const entry = pathToFileURL(join(PROJECT_ROOT, compiled ? "dist/src/services/render/render-worker.js" : "src/services/render/render-worker.ts"));
  // A small young generation, as the main process runs with (package.json "start"): a card's
  // garbage is short-lived, and each worker's heap adds to the process's RSS.
  const resourceLimits = { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB };
  const workerData = { fontDirectory };
  if (compiled) return new Worker(entry, { resourceLimits, workerData });
  const tsx = import.meta.resolve("tsx/esm/api");
  return new Worker(`import(${JSON.stringify(tsx)}).then((api) => api.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)}))`, { eval: true, resourceLimits, workerData });
}

const WORKER_YOUNG_GENERATION_MB = 6;

/** A worker collects its heap after this many cards (src/services/render/render-worker.ts says why)... */
export const RENDER_COLLECT_EVERY = 4;
/** ...and once it has had nothing to draw for this long. */
export const RENDER_COLLECT_IDLE_MS = 500;

/** What a worker sends back: a card (or why it failed) by message id, or word of a collection. */
export type RenderReply = { id: number; png: Uint8Array } | { id: number; error: string } | { collected: true };

export class RenderPool implements CardRenderer {
  readonly #size: number;
  readonly #queueMax: number;
  /** Renders drawn or waiting per owner (the caller that asked for them). */
  readonly #owners = new Map<string, number>();
  /** At most this many of those per owner: a quarter of the places, at least one. */
  readonly share: number;
  readonly #idleMs: number;
  readonly #fontDirectory: string | undefined;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  #nextId = 0;
  #closed = false;
  #collections = 0;

  /** `fontDirectory`: where the workers write the font files (tests); the user's shared one by default. */
  constructor(opts: { concurrency: number; queue: number; idleMs?: number; fontDirectory?: string }) {
    this.#size = opts.concurrency;
    this.#queueMax = opts.queue;
    this.share = Math.max(1, Math.ceil((opts.concurrency + opts.queue) / 4));
    this.#idleMs = opts.idleMs ?? RENDER_IDLE_MS;
    this.#fontDirectory = opts.fontDirectory;
  }

  /** Workers running (an idle one is stopped after RENDER_IDLE_MS). */
  get workers(): number {
    return this.#slots.length;
  }

  /** Renders being drawn and waiting (tests and the bench read these). */
  get busy(): number {
    return this.#slots.filter((s) => s.job).length;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  /** Heap collections the workers have made to free the renderer's memory (RENDER_COLLECT_EVERY). */
  get collections(): number {
    return this.#collections;
  }

  render(model: CardImageModel, owner?: string): Promise<Buffer> {
    if (this.#closed) return Promise.reject(new ServiceError("unavailable", "The service is shutting down.", { retryAfterS: RENDER_BUSY_RETRY_S }));
    const held = owner === undefined ? 0 : (this.#owners.get(owner) ?? 0);
    const freePlaces = this.#size - this.busy + this.#queueMax - this.#queue.length;
    if (owner !== undefined && held > 0 && freePlaces <= PLACES_KEPT_FOR_NEWCOMERS && held < this.share) {
      return Promise.reject(
        new ServiceError("unavailable", `The renderer's last free place is kept for callers with no share image being drawn, and ${held} of yours are. Retry in ${RENDER_BUSY_RETRY_S} s.`, {
          retryAfterS: RENDER_BUSY_RETRY_S,
        }),
      );
    }
    if (owner !== undefined && held >= this.share) {
      return Promise.reject(
        new ServiceError("unavailable", `${held} of your share images are already being drawn, your share of the renderer. Retry in ${RENDER_BUSY_RETRY_S} s.`, {
          retryAfterS: RENDER_BUSY_RETRY_S,
        }),
      );
    }
    const drawing = new Promise<Buffer>((resolve, reject) => {
      const job: Job = { model, resolve, reject };
      const free = this.#slots.find((s) => !s.job) ?? (this.#slots.length < this.#size ? this.#spawn() : undefined);
      if (free) return this.#start(free, job);
      if (this.#queue.length >= this.#queueMax) {
        return reject(
          new ServiceError("unavailable", `Share images are being drawn at capacity (${this.#size} at once, ${this.#queueMax} waiting). Retry in ${RENDER_BUSY_RETRY_S} s.`, {
            retryAfterS: RENDER_BUSY_RETRY_S,
          }),
        );
      }
      this.#queue.push(job);
    });
    if (owner === undefined) return drawing;
    this.#owners.set(owner, held + 1);
    const release = () => {
      const left = (this.#owners.get(owner) ?? 1) - 1;
      if (left > 0) this.#owners.set(owner, left);
      else this.#owners.delete(owner);
    };
    drawing.then(release, release);
    return drawing;
  }

  async warm(): Promise<void> {
    // Workers load their renderer on their first card.
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new ServiceError("unavailable", "The service is shutting down.", { retryAfterS: RENDER_BUSY_RETRY_S }));
    await Promise.all(this.#slots.splice(0).map((s) => s.worker.terminate()));
  }

  #spawn(): Slot {
    const slot: Slot = { worker: spawnWorker(this.#fontDirectory), job: null, ids: new Map(), dead: false };
    const ids = slot.ids;
    slot.worker.unref();
    slot.worker.on("message", (msg: RenderReply) => {
      if ("collected" in msg) {
        this.#collections++;
        return;
      }
      const job = ids.get(msg.id);
      ids.delete(msg.id);
      if (!job) return;
      if ("png" in msg) job.resolve(Buffer.from(msg.png.buffer, msg.png.byteOffset, msg.png.byteLength));
      else job.reject(new Error(`card render failed: ${msg.error}`));
      this.#finish(slot);
    });
    const fail = (err: Error) => {
      // A worker that dies takes its card with it; the next card gets a new worker.
      if (slot.dead) return;
      slot.dead = true;
      const i = this.#slots.indexOf(slot);
      if (i >= 0) this.#slots.splice(i, 1);
      for (const job of ids.values()) job.reject(err);
      ids.clear();
      const next = this.#queue.shift();
      if (next && !this.#closed) this.#start(this.#spawn(), next);
    };
    slot.worker.on("error", fail);
    slot.worker.on("exit", (code) => {
      if (!this.#closed) fail(new Error(`render worker exited (${code})`));
    });
    this.#slots.push(slot);
    return slot;
  }

  #start(slot: Slot, job: Job): void {
    clearTimeout(slot.idle);
    slot.job = job;
    const id = this.#nextId++;
    slot.ids.set(id, job);
    slot.worker.postMessage({ id, model: job.model });
  }

  #finish(slot: Slot): void {
    slot.job = null;
    const next = this.#queue.shift();
    if (next) this.#start(slot, next);
    else slot.idle = setTimeout(() => this.#retire(slot), this.#idleMs).unref();
  }

  /** Stops an idle worker (not a failure: its exit is expected). */
  #retire(slot: Slot): void {
    if (slot.job || slot.dead) return;
    slot.dead = true;
    const i = this.#slots.indexOf(slot);
    if (i >= 0) this.#slots.splice(i, 1);
    void slot.worker.terminate();
  }
}
