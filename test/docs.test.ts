// The README is the front door and docs/ the reference. Their examples are real responses
// (scripts/readme-examples.ts) and must stay valid against the schemas they illustrate; every environment
// variable and error code the service uses is documented; every relative link points at a file that exists.
// The commands in them are run by test/doc-commands.test.ts.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { Catalog } from "../src/catalog/catalog.js";
import { renderReadmeSummary, withReadmeSummary } from "../scripts/coverage-table.js";
import { ENV_VARS } from "../src/base/config.js";
import { ALL_ERROR_CODES } from "../src/base/errors.js";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { CoverageSchema, SpotListSchema } from "../src/schemas/catalog.js";
import { ConditionsSchema } from "../src/schemas/conditions.js";
import { BestDaySchema, RecommendationSchema } from "../src/schemas/decisions.js";
import { ToolErrorSchema } from "../src/schemas/tool-error.js";
import { exampleDocuments, generateExamples, withExamples } from "../scripts/readme-examples.js";

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), "utf8");
const readme = read("README.md");
const documents = exampleDocuments().map((path) => ({ name: relative(PROJECT_ROOT, path), path, text: readFileSync(path, "utf8") }));

const SCHEMAS: Record<string, z.ZodType> = {
  conditions: ConditionsSchema,
  spots: SpotListSchema,
  coverage: CoverageSchema,
  recommendation: RecommendationSchema,
  "recommendation-not-covered": RecommendationSchema,
  "recommendation-conditions-only": RecommendationSchema,
  "best-day": BestDaySchema,
  "tool-error": ToolErrorSchema,
};

const examples = documents.flatMap((doc) => [...doc.text.matchAll(/<!-- example: ([a-z-]+) -->\n```json\n([\s\S]*?)\n```/g)].map((m) => [`${doc.name}: ${m[1]!}`, m[1]!, m[2]!] as const));

describe("README and docs/", () => {
  it("show the service's real current output (npm run docs:examples rewrites it)", async () => {
    const generated = await generateExamples();
    const stale = documents.filter((doc) => withExamples(doc.text, generated) !== doc.text).map((doc) => doc.name);
    expect(stale, "examples are stale: run npm run docs:examples, then review the diff").toEqual([]);
  });

  it("have an example of every response type", () => {
    expect([...new Set(examples.map(([, name]) => name))].sort()).toEqual(Object.keys(SCHEMAS).sort());
  });

  it.each(examples)("example %s is valid against its schema", (_label, name, json) => {
    const parsed = SCHEMAS[name]!.safeParse(JSON.parse(json));
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });

  it("document every environment variable in docs/operations.md", () => {
    const ops = read("docs/operations.md");
    expect(ENV_VARS.length).toBeGreaterThan(10);
    for (const v of ENV_VARS) expect(ops, v).toContain(`\`${v}\``);
  });

  it("give the AI fetchers' distinct-spot ceiling as half of the shipped catalogue", () => {
    const total = Catalog.load().spots.length;
    const [, half, of] = /never past half the catalogue \((\d+) of\s+(\d+) spots/.exec(read("docs/operations.md")) ?? [];
    expect([Number(half), Number(of)]).toEqual([Math.ceil(total / 2), total]);
  });

  it("document every error code the service can answer with in docs/api.md", () => {
    const api = read("docs/api.md");
    expect(ALL_ERROR_CODES.length).toBeGreaterThan(10);
    for (const code of ALL_ERROR_CODES) expect(api, code).toContain(`\`${code}\``);
  });

  it("say in the README what the catalogue holds and ranks, from the data (npm run docs:coverage rewrites it)", () => {
    const catalog = Catalog.load();
    expect(withReadmeSummary(readme, renderReadmeSummary(catalog)) === readme, "README.md's coverage summary is stale: run npm run docs:coverage").toBe(true);
    // Every region is named in it, and the ranked count is the data's.
    for (const r of catalog.regions) expect(readme).toContain(r.name);
    expect(readme).toContain(`in ${catalog.regions.filter((r) => r.decision_support === "full").length} regions`);
  });

  it("give a new user the two commands in a README short enough to read in minutes", () => {
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm install && npm test");
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  });

  it("link only to files that exist", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const doc of documents) {
      for (const m of doc.text.matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue;
        checked++;
        if (!existsSync(join(dirname(doc.path), target))) broken.push(`${doc.name} → ${target}`);
      }
    }
    expect(checked).toBeGreaterThan(8);
    expect(broken).toEqual([]);
  });
});
