// The calibration on the shipped catalogue (src/catalog/levels.ts, src/forecast/calibration.ts,
// docs/model.md): every region is published `full` exactly when its data meet the rule; under
// seasonal norms every calibrated spot's visibility lies inside its pooled published range; levels
// do not jump between months unless their sources do; the coverage endpoint says why each
// `conditions_only` region is not ranked; and the generated tables in the docs are current, with every
// reference cited. The rule's arithmetic, on made-up spots, is in calibration-rule.test.ts.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { MAX_MONTH_STEP, monthSteps, regionLevels, spotLevel, uncounted } from "../src/catalog/levels.js";
import type { RegionCalibration } from "../src/forecast/calibration.js";
import type { CoverageJson } from "../src/schemas/catalog.js";
import { liveTiers, renderRubric, renderTiers, RUBRIC_DOC, tierCounts, withRubric } from "../scripts/rubric-table.js";
import { RUBRIC_CAPS } from "../src/model/score.js";
import { CALIBRATION_DOC, currentCalibration, NULL_BASELINE_FT, regionsEarning, renderCalibration, withCalibration } from "../scripts/calibration-table.js";
import { COVERAGE_DOC, renderCoverage, withCoverage } from "../scripts/coverage-table.js";
import { startService, type TestService } from "./helpers/service.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

describe("the shipped catalogue", () => {
  let regions: RegionCalibration[];
  let svc: TestService;
  const records = Catalog.readRecords();
  beforeAll(async () => {
    regions = await currentCalibration();
    svc = await startService({ catalog: Catalog.load() });
  }, 300_000);
  afterAll(() => svc.close());

  it("publishes each region `full` exactly when its data meet the rule", () => {
    const wrong = records
      .map((r) => ({ r, v: regionLevels(r) }))
      .filter(({ r, v }) => (r.decision_support === "full") !== v.earnsFull)
      .map(({ r, v }) => `${r.id}: published ${r.decision_support}, rule says ${v.earnsFull ? "full" : `conditions_only (${v.reason})`}`);
    expect(wrong).toEqual([]);
  });

  it("keeps every calibrated spot's visibility from seasonal norms inside its pooled published range, every month", () => {
    const outside: string[] = [];
    let checked = 0;
    for (const r of regions) {
      for (const s of r.spots) {
        if (!s.level.calibrated) continue;
        s.modelWithin.forEach((within, m) => {
          // A month the spot is closed throughout has no range to be inside.
          if (within === null) return;
          checked++;
          const range = s.level.months[m]!.range!;
          if (!within) outside.push(`${s.spot.id} ${MONTHS[m]}: model ${s.model_ft[m]} ft, published ${range.low}–${range.high}`);
        });
      }
    }
    expect(checked).toBeGreaterThan(12 * 100);
    expect(outside).toEqual([]);
  });

  it("moves no spot's level, and no region's median visibility, more than ×1.25 between adjacent months unless its sources do", () => {
    const mid = (range: { low: number; high: number } | null) => (range === null ? null : Math.sqrt(range.low * range.high));
    const steps: string[] = [];
    for (const r of regions) {
      for (const s of r.spots) {
        for (const step of monthSteps(s.level.months.map((m) => m.level_ft))) {
          const a = mid(s.level.months[step.from - 1]!.range);
          const b = mid(s.level.months[step.to - 1]!.range);
          // A step the pooled published ranges themselves take is the sources', not ours.
          const cited = a !== null && b !== null && Math.max(a, b) / Math.min(a, b) > MAX_MONTH_STEP;
          if (!cited) steps.push(`${s.spot.id}: ${MONTHS[step.from - 1]} → ${MONTHS[step.to - 1]} ×${step.ratio.toFixed(2)}`);
        }
      }
      const medians = MONTHS.map((_, m) => {
        const xs = r.spots.map((s) => s.model_ft[m]!).sort((x, y) => x - y);
        return xs[Math.floor(xs.length / 2)]!;
      });
      for (const step of monthSteps(medians)) steps.push(`${r.region.id} median: ${MONTHS[step.from - 1]} → ${MONTHS[step.to - 1]} ×${step.ratio.toFixed(2)}`);
    }
    expect(steps).toEqual([]);
  });

  it("rests a calibrated level on a counting source of the kind the data name, and never on a dive log", () => {
    const wrong: string[] = [];
    for (const s of records.flatMap((r) => r.spots)) {
      if (!spotLevel(s).calibrated) continue;
      const kinds = new Set(s.visibility_refs.filter((r) => uncounted(r, s) === null).map((r) => r.kind));
      if (!kinds.has(s.clarity_kind as never)) wrong.push(`${s.id}: level from ${s.clarity_kind}, counting sources ${[...kinds].join(", ")}`);
    }
    expect(wrong).toEqual([]);
    for (const s of records.flatMap((r) => r.spots).filter((x) => x.clarity_kind === "log")) expect(spotLevel(s).calibrated, s.id).toBe(false);
  });

  it(`earns more regions than the null baseline of ${NULL_BASELINE_FT} ft everywhere, all year`, () => {
    const model = regionsEarning(records);
    const constant = regionsEarning(records, () => Array<number>(12).fill(NULL_BASELINE_FT));
    expect(constant.length).toBeLessThan(model.length);
  });

  it("tells callers which regions rank, and why the others do not, through the coverage endpoint", async () => {
    const { body } = await svc.json<CoverageJson>("/api/v1/coverage");
    const published = new Map(records.map((r) => [r.id, r.decision_support]));
    expect(body.regions.map((r) => r.id).sort()).toEqual([...published.keys()].sort());
    for (const r of body.regions) expect(r.decision_support, r.id).toBe(published.get(r.id));
    for (const r of records.filter((x) => x.decision_support === "conditions_only")) {
      const reason = regionLevels(r).reason!;
      expect(reason).toMatch(new RegExp(`^${r.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: `));
      expect(body.notes).toContain(`Not ranked: ${reason}`);
    }
    expect(body.notes.filter((n) => n.startsWith("Not ranked: "))).toHaveLength(records.filter((x) => x.decision_support === "conditions_only").length);
  });

  it("keeps the tables in docs/model.md current (npm run docs:calibration rewrites them)", () => {
    const doc = readFileSync(CALIBRATION_DOC, "utf8");
    expect(withCalibration(doc, renderCalibration(regions, records)) === doc, "docs/model.md calibration table is stale: run npm run docs:calibration").toBe(true);
  });

  it("keeps the score's rubric and the ratings' shares in docs/model.md current (npm run docs:rubric rewrites them)", async () => {
    const doc = readFileSync(RUBRIC_DOC, "utf8");
    const catalog = Catalog.load();
    const counts = await tierCounts(catalog);
    const live = await liveTiers(catalog);
    const fresh = withRubric(doc, renderRubric(), renderTiers(counts, new Map(catalog.regions.map((r) => [r.id, r.name])), live));
    expect(fresh === doc, "docs/model.md rubric or tier shares are stale: run npm run docs:rubric").toBe(true);
    // Every cap's threshold and source is in the table, so the table and the code cannot disagree.
    for (const c of RUBRIC_CAPS) for (const s of c.sources) expect(doc).toContain(s.url);
    // It rates every spot of the shipped catalogue over the year: about 50 s on a quiet machine,
    // past the default 120 s when the suite's other files share the two cores (seen in CI).
  }, 600_000);

  it("keeps the coverage table and totals in docs/data.md current (npm run docs:coverage rewrites them)", () => {
    const doc = readFileSync(COVERAGE_DOC, "utf8");
    const catalog = Catalog.load();
    expect(withCoverage(doc, renderCoverage(catalog, regions)) === doc, "docs/data.md coverage table is stale: run npm run docs:coverage").toBe(true);
    expect(doc).toContain(`${catalog.spots.length} spots in ${catalog.regions.length} regions.`);
  });

  it("cites every reference in the table, with its kind", () => {
    const doc = readFileSync(CALIBRATION_DOC, "utf8");
    const refs = records.flatMap((r) => r.spots.flatMap((s) => s.visibility_refs));
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => !doc.includes(`<${r.source}>`)).map((r) => r.source)).toEqual([]);
  });
});
