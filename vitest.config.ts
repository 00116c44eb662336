import { defineConfig } from "vitest/config";
import { SLOW_TESTS } from "./test/tiers.js";

// Two tiers (test/tiers.ts): `npm test` runs the fast one, `npm run test:slow` the slow one and
// `npm run test:all` both in one run (CI). TEST_TIER picks: fast (the default), slow or all.
const tier = process.env.TEST_TIER ?? "fast";
if (!["fast", "slow", "all"].includes(tier)) throw new Error(`TEST_TIER must be fast, slow or all, not ${tier}`);

export default defineConfig({
  test: {
    include: tier === "slow" ? [...SLOW_TESTS] : ["test/**/*.test.ts"],
    exclude: tier === "fast" ? [...SLOW_TESTS, "**/node_modules/**"] : ["**/node_modules/**"],
    // The compiled build made current once, for the tests that start the service as a process.
    globalSetup: ["test/helpers/global-setup.ts"],
    // Generous: the suite must pass on a shared 2-core machine with both cores busy elsewhere, where
    // the heaviest tests run ten times slower than on a quiet one. No test asserts on speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll gives up after 1 s by default: far too short for a page rendering on a busy machine.
    expect: { poll: { timeout: 30_000, interval: 50 } },
    pool: "forks",
    // Three test files at a time, whatever the core count (vitest's default on two cores is one):
    // much of the suite's time is spent waiting on upstream timeouts, servers and processes, and a
    // third file fills those waits. On two cores: 346 s with two, 292 s with three (user CPU 7.8 and
    // 7.4 min). Before the test processes ran the compiled build, the suite was CPU-bound and a third
    // file gained nothing.
    maxWorkers: 3,
    // Test files share their worker's module cache instead of importing the service afresh for each
    // file: the suite is CPU-bound on two cores, and the imports were a quarter of its CPU (user time
    // 12.4 → 9.1 min, wall 505 → 397 s, measured). Safe because no test changes process-wide state
    // (test/suite-isolation.test.ts fails on a mock, a stubbed global or an environment write) and the
    // service's module-level caches are pure functions of their keys; every test starts its own
    // service and context.
    isolate: false,
    reporters: ["default"],
  },
});
