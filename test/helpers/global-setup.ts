// Once before the suite: the compiled build made current (`node scripts/ensure-built.mjs`, what
// `npm start` runs first), so tests that start the service as a process of its own run it the way
// `npm start` does (test/helpers/process.ts) instead of compiling the TypeScript in every process.
// On an up-to-date checkout this is instant; after an edit it compiles once.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../src/paths.js";

export default function setup(): void {
  execFileSync(process.execPath, [join(PROJECT_ROOT, "scripts/ensure-built.mjs")], { cwd: PROJECT_ROOT, stdio: "inherit" });
}
