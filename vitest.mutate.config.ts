// The test files mutation testing runs against the domain core (stryker.config.mjs): the behaviour
// and unit tests that reach forecast/, decisions/, metering/ (with a real redis-server for the
// shared counters), freshness and the answer cache. Browser, soak, fuzz, stdio and documentation
// tests are left out: they reach the core only through paths these already drive, and each would
// multiply the run time of every surviving mutant. The upstream fault tests are left out too: their
// 600 ms upstream timeouts do not hold under instrumentation.
import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

export const MUTATION_TEST_FILES = [
  "test/spec-numbers.test.ts",
  "test/score.test.ts",
  "test/decisions-unit.test.ts",
  "test/physics.test.ts",
  "test/time.test.ts",
  "test/tides.test.ts",
  "test/keys.test.ts",
  "test/rate-limits.test.ts",
  "test/redis.test.ts",
  "test/api-caching.test.ts",
  "test/live-cache-breaker.test.ts",
  "test/api-recommendations.test.ts",
  "test/api-best-day.test.ts",
  "test/api-conditions.test.ts",
];

// Spread, not mergeConfig: merging would append this list to the base `include` instead of replacing it.
export default defineConfig({ ...base, test: { ...base.test, include: MUTATION_TEST_FILES } });
