// prestart: compile TypeScript only when a source file is newer than the last build, so
// `npm start` is instant on an up-to-date checkout and never runs stale code after an edit.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const marker = join(root, "dist/.tsbuildinfo");
const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = Math.max(newest(join(root, "src")), newest(join(root, "tools")), statSync(join(root, "tsconfig.json")).mtimeMs);
if (sources > built) {
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
}
