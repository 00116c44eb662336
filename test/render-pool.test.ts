// The render pool stops a worker that has had nothing to draw for a while (its memory is returned),
// and the next card starts a new one that draws the same bytes. A worker collects its heap every
// few cards and once idle, so resvg's memory outside the heap is freed as it goes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spotDay } from "../src/decisions/spot-day.js";
import { cardImageModel } from "../src/services/render/card-image.js";
import { RENDER_COLLECT_EVERY, RenderPool } from "../src/services/render/render-pool.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

describe("render pool", () => {
  it("stops an idle worker, and draws the next card with a new one", async () => {
    const model = cardImageModel(await spotDay({ spot: "hanauma-bay", date: "2026-11-22", activity: "snorkel" }, svc.ctx));
    const pool = new RenderPool({ concurrency: 1, queue: 4, idleMs: 50 });
    try {
      const first = await pool.render(model);
      expect(first.subarray(1, 4).toString("latin1")).toBe("PNG");
      await expect.poll(() => pool.workers, { timeout: 20_000 }).toBe(0);
      const again = await pool.render(model);
      expect(again.equals(first)).toBe(true);
      expect(pool.workers).toBe(1);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it(`collects a worker's heap after every ${RENDER_COLLECT_EVERY} cards, and once the worker falls idle`, async () => {
    const model = cardImageModel(await spotDay({ spot: "sharks-cove", date: "2026-11-22", activity: "dive" }, svc.ctx));
    const pool = new RenderPool({ concurrency: 1, queue: RENDER_COLLECT_EVERY * 2 });
    try {
      const cards = await Promise.all(Array.from({ length: RENDER_COLLECT_EVERY * 2 }, () => pool.render(model)));
      expect(new Set(cards.map((c) => c.toString("base64"))).size).toBe(1);
      // The collection follows the card it counts, so its word comes after that card.
      await expect.poll(() => pool.collections, { timeout: 20_000 }).toBe(2);
      expect(pool.workers).toBe(1);
      await pool.render(model);
      await expect.poll(() => pool.collections, { timeout: 20_000 }).toBe(3);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
