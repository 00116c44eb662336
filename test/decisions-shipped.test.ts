// Decisions on the catalogue as shipped (not the ranked test catalogue), through real HTTP: every
// region published `full` answers `ok` with picks for snorkelling and diving on a day with daylight,
// and a best day, each quoting the conditions endpoint exactly; every `conditions_only` region
// declines and says so. What a new user asking "where should I snorkel tomorrow" actually gets.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import type { BestDayJson, RecommendationJson } from "../src/schemas/decisions.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
const catalog = Catalog.load();
const full = catalog.regions.filter((r) => r.decision_support === "full");
const unranked = catalog.regions.filter((r) => r.decision_support === "conditions_only");
// Tomorrow everywhere at the pinned time (2026-11-21T19:00Z), so every region has a whole day of daylight.
const DATE = "2026-11-22";

beforeAll(async () => {
  svc = await startService({ catalog });
});
afterAll(() => svc.close());

/** The conditions period a pick or day quotes, from the conditions endpoint. */
async function quoted(spotId: string, date: string, start: string) {
  const c = await svc.json<ConditionsJson>(`/api/v1/conditions?spot=${spotId}&from=${date}&to=${date}`);
  expect(c.status).toBe(200);
  return c.body.periods.find((p) => p.start === start);
}

describe("the shipped catalogue ranks", () => {
  it("publishes most regions `full`", () => {
    expect(full.length).toBeGreaterThan(catalog.regions.length / 2);
  });

  for (const activity of ["snorkel", "dive"] as const) {
    it(`answers ok with ${activity} picks in every full region tomorrow, each quoting the conditions exactly`, async () => {
      const empty: string[] = [];
      const noneToRank: string[] = [];
      let picks = 0;
      let judged = 0;
      for (const region of full) {
        const { status, body } = await svc.json<RecommendationJson>(`/api/v1/recommendations?activity=${activity}&region=${region.id}&date=${DATE}&limit=5`);
        expect(status, region.id).toBe(200);
        // A region can rank on its dive sites while no calibrated spot suits this activity (the Crystal
        // Coast's and Plymouth's boat-dived wrecks for snorkelling; Palm Beach's two snorkel spots have
        // no published figure): it
        // answers no_data and says why, never an estimate ranked as if calibrated.
        const levels = catalog.levels(region).spots;
        if (!region.spots.some((s) => levels.find((x) => x.id === s.id)!.calibrated && !s.unsuited[activity])) {
          expect(body.status, region.id).toBe("no_data");
          expect(body.picks, region.id).toEqual([]);
          noneToRank.push(region.id);
          continue;
        }
        expect(body.status, region.id).toBe("ok");
        expect(body.date).toBe(DATE);
        if (body.picks.length === 0) empty.push(region.id);
        for (const p of body.picks) {
          expect(p.spot.region.id).toBe(region.id);
          const period = await quoted(p.spot.id, p.date, p.best_window.start);
          expect(period, `${p.spot.id} ${p.best_window.start}`).toBeDefined();
          expect(p.score).toBe(period!.score);
          expect(p.rating).toBe(period!.rating);
          expect(p.metrics.visibility_ft).toBe(period!.visibility_ft);
          expect(p.metrics.swell_height_ft).toBe(period!.swell_height_ft);
          // A pick whose spot's typical level is judged, not calibrated, says so.
          const calibrated = catalog.levels(region).spots.find((x) => x.id === p.spot.id)!.calibrated;
          const estimated = p.caveats.find((c) => c.code === "visibility_estimated")!.message;
          expect(estimated, p.spot.id).toContain(calibrated ? "typical visibility from published figures" : "typical visibility is our own judgement");
          if (!calibrated) judged++;
          picks++;
        }
      }
      expect(empty).toEqual([]);
      expect(noneToRank.sort()).toEqual(activity === "snorkel" ? ["gb-con-south-cornwall", "us-fl-palm-beach", "us-nc-crystal-coast"] : []);
      expect(picks).toBeGreaterThanOrEqual(full.length);
      expect(judged).toBeLessThan(picks);
    });
  }

  it("names a best day for diving in every full region, quoting the conditions of the winning window", async () => {
    for (const region of full) {
      const { status, body } = await svc.json<BestDayJson>(`/api/v1/best-day?activity=dive&region=${region.id}`);
      expect(status, region.id).toBe(200);
      expect(body.status, region.id).toBe("ok");
      expect(body.best, region.id).not.toBeNull();
      const period = await quoted(body.best!.spot.id, body.best!.date, body.best!.best_window.start);
      expect(period!.score).toBe(body.best!.score);
      expect(period!.visibility_ft).toBe(body.best!.metrics.visibility_ft);
    }
  });

  it("declines in every conditions_only region and says why in the coverage notes", async () => {
    const { body: coverage } = await svc.json<{ notes: string[] }>("/api/v1/coverage");
    for (const region of unranked) {
      const { body } = await svc.json<RecommendationJson>(`/api/v1/recommendations?activity=snorkel&region=${region.id}`);
      expect(body.status, region.id).toBe("conditions_only");
      expect(body.picks).toEqual([]);
      expect(
        coverage.notes.some((n) => n.startsWith(`Not ranked: ${region.name}: `)),
        region.id,
      ).toBe(true);
    }
  });
});
