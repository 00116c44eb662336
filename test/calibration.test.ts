// The visibility calibration (src/forecast/calibration.ts, docs/model.md): the rule that a region is
// `full` only when at least 80 % of its spots have a published reference and the model falls within
// it, enforced on the shipped data and shown through the coverage endpoint; the rule's own arithmetic;
// and the generated table in docs/model.md kept current, with every reference cited.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { checkSpot, FULL_SUPPORT_SHARE, summariseRegion, type RegionCalibration } from "../src/forecast/calibration.js";
import type { CoverageJson } from "../src/schemas/catalog.js";
import { CALIBRATION_DOC, currentCalibration, renderCalibration, withCalibration } from "../scripts/calibration-table.js";
import { COVERAGE_DOC, renderCoverage, withCoverage } from "../scripts/coverage-table.js";
import { startService, type TestService } from "./helpers/service.js";

const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const ref = (low: number, high: number | null, months = ALL) => ({ low_ft: low, high_ft: high, months, scope: "site" as const, source: "https://example.org/", says: "x" });
const spot = (id: string, refs: ReturnType<typeof ref>[]) => ({ id, name: id, visibility_refs: refs });
const flat = (ft: number) => Array<number>(12).fill(ft);

describe("the calibration rule", () => {
  it("counts a month within range inside the published range, with no ceiling for a floor-only figure", () => {
    expect(checkSpot(spot("a", [ref(40, 80)]), flat(60)).within).toBe(true);
    expect(checkSpot(spot("a", [ref(40, 80)]), flat(85)).within).toBe(false);
    expect(checkSpot(spot("a", [ref(50, null)]), flat(140)).within).toBe(true);
    expect(checkSpot(spot("a", [ref(50, null)]), flat(45)).within).toBe(false);
  });

  it("measures error from the middle of a range, and as the shortfall below a floor-only figure", () => {
    expect(checkSpot(spot("a", [ref(40, 80)]), flat(70)).months[0]!.error_ft).toBe(10);
    expect(checkSpot(spot("a", [ref(50, null)]), flat(40)).months[0]!.error_ft).toBe(10);
    expect(checkSpot(spot("a", [ref(50, null)]), flat(140)).months[0]!.error_ft).toBe(0);
  });

  it("allows ±25 % around a single typical figure", () => {
    expect(checkSpot(spot("a", [ref(100, 100)]), flat(76)).within).toBe(true);
    expect(checkSpot(spot("a", [ref(100, 100)]), flat(74)).within).toBe(false);
  });

  it("judges a spot on the months its references cover, passing it when at least 80 % of them are within", () => {
    const winterMiss = [10, 10, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60]; // 10 of 12 months within
    expect(checkSpot(spot("a", [ref(40, 80)]), winterMiss).within).toBe(true);
    expect(checkSpot(spot("a", [ref(40, 80)]), [10, 10, 10, ...flat(60).slice(3)]).within).toBe(false);
    const summerOnly = checkSpot(spot("a", [ref(40, 80, [6, 7, 8])]), [...flat(10).slice(0, 5), 60, 60, 60, ...flat(10).slice(8)]);
    expect(summerOnly.months.map((m) => m.month)).toEqual([6, 7, 8]);
    expect(summerOnly.within).toBe(true);
    expect(checkSpot(spot("a", []), flat(60)).within).toBeNull();
  });

  it("gives a region `full` only when 80 % of all its spots have a reference and are within it", () => {
    const region = { id: "r", name: "R", decision_support: "full" as const };
    const good = (i: number) => checkSpot(spot(`s${i}`, [ref(40, 80)]), flat(60));
    const noRef = (i: number) => checkSpot(spot(`n${i}`, []), flat(60));
    const miss = (i: number) => checkSpot(spot(`m${i}`, [ref(40, 80)]), flat(20));
    expect(FULL_SUPPORT_SHARE).toBe(0.8);
    expect(summariseRegion(region, [...[0, 1, 2, 3, 4, 5, 6, 7].map(good), noRef(0), miss(0)]).earnsFull).toBe(true);
    expect(summariseRegion(region, [...[0, 1, 2, 3, 4, 5, 6].map(good), noRef(0), noRef(1), miss(0)]).earnsFull).toBe(false);
    expect(summariseRegion(region, [...[0, 1, 2, 3, 4, 5, 6].map(good), miss(0), miss(1), miss(2)]).earnsFull).toBe(false);
  });
});

describe("the shipped catalogue", () => {
  let regions: RegionCalibration[];
  let svc: TestService;
  beforeAll(async () => {
    regions = await currentCalibration();
    svc = await startService({ catalog: Catalog.load() });
  }, 120_000);
  afterAll(() => svc.close());

  it("publishes a region `full` only when its calibration earns it", () => {
    const unearned = regions.filter((r) => r.published === "full" && !r.earnsFull).map((r) => `${r.region.id}: ${r.withinRange}/${r.spotCount} spots within range`);
    expect(unearned).toEqual([]);
  });

  it("tells callers which regions rank, through the coverage endpoint", async () => {
    const { body } = await svc.json<CoverageJson>("/api/v1/coverage");
    const earned = new Map(regions.map((r) => [r.region.id, r.earnsFull]));
    // Every region, listed with the support its data publishes, and `full` only where it was earned.
    const published = new Map(Catalog.load().regions.map((r) => [r.id, r.decision_support]));
    expect(body.regions.map((r) => r.id).sort()).toEqual([...published.keys()].sort());
    for (const r of body.regions) expect(r.decision_support, r.id).toBe(published.get(r.id));
    for (const r of body.regions) if (r.decision_support === "full") expect(earned.get(r.id), r.id).toBe(true);
  });

  it("declines decisions in a region that has not earned `full` (O'ahu today)", async () => {
    const oahu = regions.find((r) => r.region.id === "us-hi-oahu")!;
    expect(oahu.earnsFull).toBe(false);
    const { body } = await svc.json<{ status: string; picks: unknown[] }>("/api/v1/recommendations?activity=snorkel&region=us-hi-oahu");
    expect(body.status).toBe("conditions_only");
    expect(body.picks).toEqual([]);
  });

  it("keeps the table in docs/model.md current (npm run docs:calibration rewrites it)", () => {
    const doc = readFileSync(CALIBRATION_DOC, "utf8");
    expect(withCalibration(doc, renderCalibration(regions)) === doc, "docs/model.md calibration table is stale: run npm run docs:calibration").toBe(true);
  });

  it("keeps the coverage table and totals in docs/data.md current (npm run docs:coverage rewrites them)", () => {
    const doc = readFileSync(COVERAGE_DOC, "utf8");
    const catalog = Catalog.load();
    expect(withCoverage(doc, renderCoverage(catalog, regions)) === doc, "docs/data.md coverage table is stale: run npm run docs:coverage").toBe(true);
    expect(doc).toContain(`${catalog.spots.length} spots in ${catalog.regions.length} regions.`);
  });

  it("cites every reference in the table", () => {
    const doc = readFileSync(CALIBRATION_DOC, "utf8");
    const sources = Catalog.load().spots.flatMap((s) => s.visibility_refs.map((r) => r.source));
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((u) => !doc.includes(`<${u}>`))).toEqual([]);
  });
});
