// The render pool stops a worker that has had nothing to draw for a while (its memory is returned),
// and the next card starts a new one that draws the same bytes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spotDay } from "../src/decisions/spot-day.js";
import { cardImageModel } from "../src/share/card-image.js";
import { RenderPool } from "../src/share/render-pool.js";
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
});
