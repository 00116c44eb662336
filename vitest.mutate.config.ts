// The test files mutation testing runs against the domain core (stryker.config.mjs): the behaviour
// and unit tests that reach forecast/, decisions/, metering/ (with a real redis-server for the
// shared counters), freshness and the answer cache. Browser, soak, fuzz, stdio and documentation
// tests are left out: they reach the core only through paths these already drive, and each would
// multiply the run time of every surviving mutant. The upstream fault tests are left out too: their
// 600 ms upstream timeouts do not hold under instrumentation.
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import base from "./vitest.config.js";

// Quickest first. Each mutant runs the tests that reach it and stops at the first failure, so a
// mutant a unit test kills costs milliseconds instead of waiting behind the HTTP files (vitest's
// own order is slowest first).
export const MUTATION_TEST_FILES = [
  "test/physics.test.ts",
  "test/decisions-unit.test.ts",
  "test/decisions-request.test.ts",
  "test/caller.test.ts",
  "test/answer-cache.test.ts",
  "test/metering.test.ts",
  "test/decisions-day.test.ts",
  "test/time.test.ts",
  "test/score.test.ts",
  "test/why.test.ts",
  "test/visibility-model.test.ts",
  "test/forecast-engine.test.ts",
  "test/forecast-service.test.ts",
  "test/calibration-rule.test.ts",
  "test/live-cache-breaker.test.ts",
  "test/spec-numbers.test.ts",
  "test/tides.test.ts",
  "test/api-conditions.test.ts",
  "test/api-honesty.test.ts",
  "test/api-decisions-text.test.ts",
  "test/schema-snapshots.test.ts",
  "test/mcp-contract.test.ts",
  "test/redis.test.ts",
  "test/keys.test.ts",
  "test/api-caching.test.ts",
  "test/api-best-day.test.ts",
  "test/rate-limits.test.ts",
  "test/api-recommendations.test.ts",
];

class QuickestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => MUTATION_TEST_FILES.findIndex((t) => f.moduleId.endsWith(t));
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

// Spread, not mergeConfig: merging would append this list to the base `include` instead of replacing it.
export default defineConfig({
  ...base,
  // Each file isolated, as when these results were measured: mutation runs are not CPU-bound on
  // imports the way the whole suite is (vitest.config.ts), and a mutant must not leak into the next file.
  // No global setup: none of these files starts the service as a process, and the build it makes
  // current (test/helpers/global-setup.ts) would compile Stryker's instrumented sources.
  test: { ...base.test, include: MUTATION_TEST_FILES, isolate: true, globalSetup: [], sequence: { sequencer: QuickestFirst } },
});
