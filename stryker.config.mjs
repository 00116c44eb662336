// Mutation testing of the domain core (`npm run mutate`): StrykerJS with the vitest runner and the
// TypeScript checker. Surviving mutants are either killed by a test or listed, with the reason they
// are equivalent, in stryker-survivors.md beside this file.
// CPU is the constraint: one test runner, per-test coverage so each mutant runs only the tests that
// reach it, and vitest's `related` so the dry run only loads test files that import the core.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts", related: true },
  checkers: ["typescript"],
  tsconfigFile: "tsconfig.json",
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: "perTest",
  // Results are kept in reports/stryker-incremental.json: the next run tests again only the mutants
  // whose code or covering tests changed (`npm run mutate -- --force` tests everything).
  incremental: true,
  concurrency: 1,
  timeoutMS: 20_000,
  timeoutFactor: 2,
  ignoreStatic: false,
  mutate: [
    "src/forecast/**/*.ts",
    "src/model/**/*.ts",
    "src/decisions/**/*.ts",
    "src/services/metering/**/*.ts",
    "src/sources/freshness.ts",
    "src/services/answer-cache.ts",
  ],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
