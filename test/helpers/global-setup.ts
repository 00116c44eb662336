// Once before the suite: the compiled build made current (`node scripts/ensure-built.mjs`, what
// `npm start` runs first), so tests that start the service as a process of their own run node on the
// compiled entry point (test/helpers/process.ts) instead of compiling the TypeScript in every
// process. On an up-to-date checkout this is instant; after an edit it compiles once.
//
// Type errors do not stop the tests: tsc still writes the build, and types are `npm run
// typecheck`'s to judge (as when the tests compiled with tsx, which ignores them). Only a missing
// build does. Watch mode (`npx vitest`) runs this once: after an edit there, the process tests keep
// the build they started with until vitest is restarted.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../src/base/paths.js";
import { SERVICE_ARGS } from "./process.js";

export default function setup(): void {
  try {
    execFileSync(process.execPath, [join(PROJECT_ROOT, "scripts/ensure-built.mjs")], { cwd: PROJECT_ROOT, stdio: "inherit" });
  } catch (err) {
    if (!existsSync(join(PROJECT_ROOT, SERVICE_ARGS[0]!))) throw err;
    console.warn("TypeScript reported errors (above; `npm run typecheck` lists them all). The tests that start the service as a process run the build tsc wrote anyway.");
  }
}
