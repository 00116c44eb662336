// The audit of picks a diver must be able to trust, run over every region × ranked activity × day of
// the horizon with every region published `full` (the ranked test catalogue, so regions not yet
// calibrated are audited too): no spearfishing pick inside an area closed to it, no breath-hold
// pick deeper than the breath-hold range, `ok` only with picks, one regulated_area caveat per pick,
// no "calm" from a gentle breeze up, and a best day that is the best. Each rule is read from the data here, not from the code that
// applies it. Runs in-process on the real tools (the HTTP tests cover the same answers one by one).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BREATH_HOLD_DEPTH_M } from "../src/base/activities.js";
import { FixedClock } from "../src/base/clock.js";
import { loadConfig } from "../src/base/config.js";
import { createContext } from "../src/compose.js";
import type { ServiceContext } from "../src/services/context.js";
import { createLogger } from "../src/base/logger.js";
import { DATA_DIR } from "../src/base/paths.js";
import type { BestDayJson, RecommendationJson } from "../src/schemas/decisions.js";
import { bestDay } from "../src/answers/best-day.js";
import { recommendSpot } from "../src/answers/recommend-spot.js";
import { DEFAULT_NOW } from "./helpers/service.js";
import { rankedTestCatalog } from "./helpers/catalog.js";

const ACTIVITIES = ["snorkel", "dive", "freedive", "spearfish"] as const;
const DAYS = ["2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"];

/** Spots inside an area the data close to spearfishing, read straight from the data file. */
const closedToSpearfishing = new Set(
  (JSON.parse(readFileSync(join(DATA_DIR, "protected-areas.json"), "utf8")) as { areas: { designation: string; spots: string[] }[] }).areas
    .filter((a) => a.designation === "closed_to_spearfishing")
    .flatMap((a) => a.spots),
);

let ctx: ServiceContext;
const recommendations: { q: string; r: RecommendationJson }[] = [];
const bestDays: { q: string; r: BestDayJson }[] = [];

beforeAll(async () => {
  ctx = createContext({
    config: loadConfig({ DATA_SOURCE: "offline", LOG_LEVEL: "silent" }),
    clock: new FixedClock(DEFAULT_NOW),
    catalog: rankedTestCatalog(),
    log: createLogger("silent"),
  });
  for (const region of ctx.catalog.regions) {
    for (const activity of ACTIVITIES) {
      for (const date of DAYS) recommendations.push({ q: `${activity}@${region.id} ${date}`, r: await recommendSpot({ activity, region: region.id, date, limit: 5 }, ctx) });
      bestDays.push({ q: `${activity}@${region.id}`, r: await bestDay({ activity, region: region.id }, ctx) });
    }
  }
}, 600_000);
afterAll(() => ctx.close());

describe("every region × activity × day, every region ranked", () => {
  it("asked every question and got ranked answers", () => {
    expect(recommendations.length).toBe(ctx.catalog.regions.length * ACTIVITIES.length * DAYS.length);
    expect(recommendations.filter(({ r }) => r.picks.length > 0).length).toBeGreaterThan(recommendations.length / 2);
  });

  it("never picks a spot for spearfishing inside an area closed to it", () => {
    const bad = recommendations.flatMap(({ q, r }) => (r.query.activity === "spearfish" ? r.picks.filter((p) => closedToSpearfishing.has(p.spot.id)).map((p) => `${q}: ${p.spot.id}`) : []));
    const badBest = bestDays.flatMap(({ q, r }) => (r.query.activity === "spearfish" && r.best && closedToSpearfishing.has(r.best.spot.id) ? [`${q}: ${r.best.spot.id}`] : []));
    expect([...bad, ...badBest]).toEqual([]);
  });

  it(`never picks a spot typically deeper than ${BREATH_HOLD_DEPTH_M} m for a breath-hold activity`, () => {
    const deep = (id: string) => ctx.catalog.spot(id)!.typical_depth_m > BREATH_HOLD_DEPTH_M;
    const bad = recommendations.flatMap(({ q, r }) => (["freedive", "spearfish"].includes(r.query.activity ?? "") ? r.picks.filter((p) => deep(p.spot.id)).map((p) => `${q}: ${p.spot.id}`) : []));
    expect(bad).toEqual([]);
  });

  it("answers ok only with picks, and a best day only when one exists", () => {
    expect(recommendations.filter(({ r }) => r.status === "ok" && r.picks.length === 0).map(({ q }) => q)).toEqual([]);
    expect(bestDays.filter(({ r }) => r.status === "ok" && r.best === null).map(({ q }) => q)).toEqual([]);
  });

  it("carries at most one regulated_area caveat per pick", () => {
    const picks = [...recommendations.flatMap(({ q, r }) => r.picks.map((p) => ({ q, p }))), ...bestDays.flatMap(({ q, r }) => (r.best ? [{ q, p: r.best }] : []))];
    expect(picks.filter(({ p }) => p.caveats.filter((c) => c.code === "regulated_area").length > 1).map(({ q, p }) => `${q}: ${p.spot.id}`)).toEqual([]);
  });

  it("never calls the wind calm from a gentle breeze (Beaufort 3, 7 kt) up, in any text a pick carries", () => {
    const picks = [...recommendations.flatMap(({ q, r }) => r.picks.map((p) => ({ q, p }))), ...bestDays.flatMap(({ q, r }) => (r.best ? [{ q, p: r.best }] : []))];
    const windy = picks.filter(({ p }) => (p.metrics.wind_speed_kt ?? 0) >= 7);
    expect(windy.length).toBeGreaterThan(100);
    const calm = windy.filter(({ p }) => /\bcalm\b/i.test(JSON.stringify([p.why, p.card])));
    expect(calm.map(({ q, p }) => `${q}: ${p.spot.id} ${p.metrics.wind_speed_kt} kt`)).toEqual([]);
  });

  it("names the best day: the highest score, the nearer day on a tie, never behind its runner-up", () => {
    const wrong: string[] = [];
    for (const { q, r } of bestDays) {
      if (!r.best) continue;
      const scored = r.days.filter((d) => d.score !== null);
      const top = Math.max(...scored.map((d) => d.score!));
      if (r.best.score !== top || r.best.date !== scored.find((d) => d.score === top)!.date) wrong.push(`${q}: best ${r.best.date} ${r.best.score}, top ${top}`);
      if (r.runner_up && r.runner_up.score > r.best.score) wrong.push(`${q}: runner-up ${r.runner_up.score} above ${r.best.score}`);
    }
    expect(wrong).toEqual([]);
  });
});
