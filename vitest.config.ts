import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Generous: the suite must pass on a shared 2-core machine with both cores busy elsewhere, where
    // the heaviest tests run ten times slower than on a quiet one. No test asserts on speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll gives up after 1 s by default: far too short for a page rendering on a busy machine.
    expect: { poll: { timeout: 30_000, interval: 50 } },
    pool: "forks",
    // Two test files at a time, whatever the core count (vitest's default on two cores is one): most
    // of the suite's time is spent waiting on servers, processes and upstream timeouts, not on CPU.
    maxWorkers: 2,
    reporters: ["default"],
  },
});
