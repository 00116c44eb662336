// The README's examples are real responses (scripts/readme-examples.ts) and must stay valid against
// the schemas they illustrate; every environment variable and error code the service uses is documented.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ENV_VARS } from "../src/config.js";
import { ALL_ERROR_CODES } from "../src/errors.js";
import { PROJECT_ROOT } from "../src/paths.js";
import { CoverageSchema, SpotListSchema } from "../src/schemas/catalog.js";
import { ConditionsSchema } from "../src/schemas/conditions.js";
import { BestDaySchema, RecommendationSchema } from "../src/schemas/decisions.js";
import { ToolErrorSchema } from "../src/schemas/tool-error.js";
import { generateExamples, withExamples } from "../scripts/readme-examples.js";

const readme = readFileSync(`${PROJECT_ROOT}/README.md`, "utf8");

const SCHEMAS: Record<string, z.ZodType> = {
  conditions: ConditionsSchema,
  spots: SpotListSchema,
  coverage: CoverageSchema,
  recommendation: RecommendationSchema,
  "recommendation-not-covered": RecommendationSchema,
  "best-day": BestDaySchema,
  "tool-error": ToolErrorSchema,
};

describe("README", () => {
  const examples = [...readme.matchAll(/<!-- example: ([a-z-]+) -->\n```json\n([\s\S]*?)\n```/g)].map((m) => [m[1]!, m[2]!] as const);

  it("shows the service's real current output (npm run docs:examples rewrites it)", async () => {
    expect(withExamples(readme, await generateExamples()) === readme, "README examples are stale: run npm run docs:examples").toBe(true);
  });

  it("has an example of every response type", () => {
    expect(examples.map(([n]) => n).sort()).toEqual(Object.keys(SCHEMAS).sort());
  });

  it.each(examples)("example %s is valid against its schema", (name, json) => {
    const parsed = SCHEMAS[name]!.safeParse(JSON.parse(json));
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });

  it("documents every environment variable", () => {
    for (const v of ENV_VARS) expect(readme, v).toContain(`\`${v}\``);
  });

  it("documents every error code the service can answer with", () => {
    for (const code of ALL_ERROR_CODES) expect(readme, code).toContain(`\`${code}\``);
  });

  it("gives a new user the two commands", () => {
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm install && npm test");
  });
});
