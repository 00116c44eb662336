// The two test tiers (test/tiers.ts, docs/development.md): every file the slow tier names exists, so
// a renamed file cannot drop out of both tiers or slip into the fast one unnoticed, and the
// configuration that picks them refuses a tier it does not know.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { SLOW_TESTS } from "./tiers.js";

describe("the test tiers", () => {
  it("names only test files that exist, each once", () => {
    for (const f of SLOW_TESTS) expect(existsSync(join(PROJECT_ROOT, f)), f).toBe(true);
    expect(new Set(SLOW_TESTS).size).toBe(SLOW_TESTS.length);
  });

  it("leaves most files in the fast tier", () => {
    const all = readdirSync(join(PROJECT_ROOT, "test")).filter((f) => f.endsWith(".test.ts"));
    expect(SLOW_TESTS.length).toBeLessThan(all.length / 2);
  });
});
