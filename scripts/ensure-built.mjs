// prepare/prestart: compile TypeScript only when a source file is newer than the last build, so
// `npm start` is instant on an up-to-date checkout and never runs stale code after an edit.
// A production install (`npm ci --omit=dev`) has no TypeScript: there the build made beforehand is
// used as it is, and a missing build is reported with the command that makes one.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const marker = join(root, "dist/.tsbuildinfo");
const entry = join(root, "dist/src/main.js");
const tsc = join(root, "node_modules/typescript/bin/tsc");
const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function newestSource() {
  return Math.max(newest(join(root, "src")), statSync(join(root, "tsconfig.json")).mtimeMs);
}

if (!existsSync(tsc)) {
  if (!existsSync(entry)) {
    console.error("ocean-conditions: dist/ is missing and TypeScript is not installed (a production install omits it).");
    console.error("Build once with the dev dependencies (npm ci && npm run build), then install with npm ci --omit=dev.");
    process.exit(1);
  }
  if (existsSync(join(root, "src")) && newestSource() > built) {
    console.warn("ocean-conditions: dist/ is older than src/ and TypeScript is not installed; serving the older build.");
  }
  process.exit(0);
}

const sources = newestSource();
if (sources > built || !existsSync(entry)) {
  try {
    // Compiler messages go to stderr: stdout may be an MCP host's protocol stream (npm run mcp:stdio).
    execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: [0, 2, 2] });
  } finally {
    // The entry point is bundled from the sources (scripts/bundle-entry.mjs), also when tsc reported
    // type errors: tsc writes its output anyway, and the tests judge the build as tsc left it.
    const { bundleEntry } = await import("./bundle-entry.mjs");
    await bundleEntry(root);
    // tsc leaves its marker alone when only src/main.ts changed (it is bundled, not compiled).
    if (existsSync(marker)) utimesSync(marker, new Date(), new Date());
  }
}
