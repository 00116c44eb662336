// Which test files are the slow tier (npm run test:slow; npm run test:all runs both tiers, and CI
// runs that): everything that starts a second process (the service, redis-server, the stdio
// transport, the pack build, lint's dependency check), drives Chromium, sweeps the whole catalogue or
// a whole day of upstream budget, or waits on real server timeouts and fault sequences. The rest is
// the fast tier, `npm test`, run before every commit. Listed by file, so a new file is fast unless
// it is named here; docs/development.md says which to run when.
export const SLOW_TESTS: readonly string[] = [
  // Second processes: the service, its supervisor and stdio transport, redis-server, npm pack, tools.
  "test/instances-processes.test.ts",
  "test/instances.test.ts",
  "test/supervisor.test.ts",
  "test/mcp-stdio.test.ts",
  "test/mcp-stdio-npm.test.ts",
  "test/shutdown.test.ts",
  "test/idle-compaction.test.ts",
  "test/doc-commands.test.ts",
  "test/one-answer.test.ts",
  "test/layers.test.ts",
  "test/release-metadata.test.ts",
  "test/startup.test.ts",
  "test/pack-build.test.ts",
  "test/redis.test.ts",
  "test/redis-durable.test.ts",
  "test/redis-hang.test.ts",
  "test/redis-full.test.ts",
  "test/allotments.test.ts",
  "test/metering.test.ts",
  "test/validation-live.test.ts",
  // Chromium.
  "test/mcp-view.test.ts",
  "test/share-browser.test.ts",
  "test/pages-a11y.test.ts",
  "test/front-page.test.ts",
  "test/docs-page.test.ts",
  // Whole-catalogue and whole-day sweeps, fuzz at depth, the soak.
  "test/calibration.test.ts",
  "test/catalogue.test.ts",
  "test/score-properties.test.ts",
  "test/decisions-audit.test.ts",
  "test/live-budget.test.ts",
  "test/fuzz.test.ts",
  "test/soak.test.ts",
  // Real server timeouts, the live fault matrix and the emulators' own suites.
  "test/http-limits.test.ts",
  "test/api-live-faults.test.ts",
  "test/live-emulator.test.ts",
  "test/emulator.test.ts",
];
