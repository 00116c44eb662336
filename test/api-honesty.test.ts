// What a diver reads, through the real HTTP server with the embedded (offline) data: tides that
// rise and fall with the water, seasonal norms labelled as such next to every score, a best day
// that does not chase noise, one wording for wind, visibility caps without cliffs, and text that
// names the rule behind every exclusion and caveat.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BEST_DAY_NOISE_MARGIN } from "../src/decisions/evaluate.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import type { BestDayJson } from "../src/schemas/decisions.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const conditions = (qs: string) => svc.json<ConditionsJson>(`/api/v1/conditions?${qs}`);

describe("tides at subordinate stations (item 1)", () => {
  for (const spot of ["kuilima-cove", "kawela-bay", "lanikai-beach", "moku-manu"]) {
    it(`${spot} on 2026-11-27: highs and lows alternate and every period's state follows its heights`, async () => {
      const { status, body } = await conditions(`spot=${spot}&from=2026-11-27&to=2026-11-28`);
      expect(status).toBe(200);
      const types = body.tide_events.map((e) => e.type);
      for (let i = 1; i < types.length; i++) expect(types[i]).not.toBe(types[i - 1]);
      const ps = body.periods;
      for (let i = 1; i < ps.length - 1; i++) {
        const p = ps[i]!;
        const prev = ps[i - 1]!.tide_height_ft!;
        const next = ps[i + 1]!.tide_height_ft!;
        // A period called rising (falling) is not between two lower (higher) neighbours.
        if (p.tide_state === "rising") expect(next > prev || next >= p.tide_height_ft!, `${p.start}`).toBe(true);
        if (p.tide_state === "falling") expect(next < prev || next <= p.tide_height_ft!, `${p.start}`).toBe(true);
      }
    });
  }

  it("kuilima-cove 2026-11-27: the low between the morning high and the afternoon high is in the table", async () => {
    const { body } = await conditions("spot=kuilima-cove&from=2026-11-27&to=2026-11-27");
    const day = body.tide_events.filter((e) => e.time.startsWith("2026-11-27"));
    expect(day.map((e) => e.type)).toEqual(["high", "low", "high", "low"]);
    expect(day[0]!.time).toMatch(/^2026-11-27T05:0\d/);
    expect(day[0]!.height_ft).toBeCloseTo(2.72, 1);
    // The 09:00–12:00 and 12:00–15:00 periods fall from the 05:01 high towards the 12:20 low.
    const at = (h: string) => body.periods.find((p) => p.start === `2026-11-27T${h}:00:00-10:00`)!;
    expect(at("09").tide_state).toBe("falling");
    expect(at("09").tide_height_ft!).toBeGreaterThan(at("12").tide_height_ft!);
  });
});

describe("visibility caps without cliffs (item 7)", () => {
  it("camp-cove at 23:00 Sydney: the nowcast and the 21:00 period with the same visibility get the same cap", async () => {
    const late = await startService({ now: "2026-11-21T12:00:00Z" });
    try {
      const { body } = await late.json<ConditionsJson>("/api/v1/conditions?spot=camp-cove&from=2026-11-21&to=2026-11-21");
      const now = body.now!;
      const period = body.periods.find((p) => p.start === "2026-11-21T21:00:00+11:00")!;
      expect(now.start).toBe("2026-11-21T23:00:00+11:00");
      // Both show 10 ft: the same cap (fair 35), where the nowcast used to read good 55.
      expect(now.visibility_ft).toBe(period.visibility_ft);
      expect(now.rating).toBe(period.rating);
      expect(Math.abs(now.score! - period.score!)).toBeLessThanOrEqual(5);
    } finally {
      await late.close();
    }
  });
});

describe("best day does not chase noise (item 5)", () => {
  const cases = [
    ["snorkel", "us-hi-oahu"],
    ["dive", "us-hi-maui"],
  ] as const;
  for (const [activity, region] of cases) {
    it(`${activity} in ${region}: the nearest day within ${BEST_DAY_NOISE_MARGIN} points of the top score wins`, async () => {
      const { status, body } = await svc.json<BestDayJson>(`/api/v1/best-day?activity=${activity}&region=${region}`);
      expect(status).toBe(200);
      const scored = body.days.filter((d) => d.score !== null);
      const top = Math.max(...scored.map((d) => d.score!));
      const nearest = scored.find((d) => d.score! >= top - BEST_DAY_NOISE_MARGIN)!;
      expect(body.best!.date).toBe(nearest.date);
      expect(body.best!.score).toBe(nearest.score);
      // Every farther day beats it by no more than the margin; a farther winner would need more.
      for (const d of scored) if (d.date > nearest.date) expect(d.score! - body.best!.score).toBeLessThanOrEqual(BEST_DAY_NOISE_MARGIN);
      if (body.best!.date === body.range.from) expect(body.best!.caveats.map((c) => c.code)).not.toContain("long_lead_time");
      if (body.runner_up && body.runner_up.score >= body.best!.score - BEST_DAY_NOISE_MARGIN && body.runner_up.score <= body.best!.score + BEST_DAY_NOISE_MARGIN) {
        expect(body.best!.why.versus_next).toContain(`${BEST_DAY_NOISE_MARGIN}-point noise margin`);
      }
    });
  }

  it("O'ahu snorkel on flat norms: today, not a later day at the same score", async () => {
    const { body } = await svc.json<BestDayJson>("/api/v1/best-day?activity=snorkel&region=us-hi-oahu");
    const today = body.days.find((d) => d.date === "2026-11-21")!;
    const later = body.days.filter((d) => d.date > "2026-11-21" && d.score !== null);
    if (later.every((d) => d.score! - today.score! <= BEST_DAY_NOISE_MARGIN)) expect(body.best!.date).toBe("2026-11-21");
    expect(body.best!.date_label).toBe(today.date_label);
  });
});
