// The visibility calibration (src/forecast/calibration.ts, docs/model.md): the rule that a region is
// `full` only when at least 80 % of its spots have a published reference and the model falls within
// it, enforced on the shipped data and shown through the coverage endpoint; the rule's own arithmetic;
// and the generated table in docs/model.md kept current, with every reference cited. The rule's
// arithmetic, on made-up spots and one real region, is in calibration-rule.test.ts.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import type { RegionCalibration } from "../src/forecast/calibration.js";
import type { CoverageJson } from "../src/schemas/catalog.js";
import { CALIBRATION_DOC, currentCalibration, renderCalibration, withCalibration } from "../scripts/calibration-table.js";
import { COVERAGE_DOC, renderCoverage, withCoverage } from "../scripts/coverage-table.js";
import { startService, type TestService } from "./helpers/service.js";

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
