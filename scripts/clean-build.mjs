// prepack: a clean build for the published package, so files of deleted sources never ship.
// The build is made from scratch in a temporary directory beside dist/, then brought into dist/ file by file: a
// changed file is replaced in one rename, a file the fresh build no longer has is removed, and an
// unchanged file is left alone. dist/ itself never disappears, so a server running from this checkout
// (which loads fonts, the card view and some modules lazily) keeps working while `npm pack` runs.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { bundleEntry } from "./bundle-entry.mjs";

/** Every file below `dir`, as paths relative to it. */
function files(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name), base) : [relative(base, join(dir, e.name))]));
}

/**
 * Makes `to` hold exactly the files of `from` (except `keep`), touching only what differs: changed and
 * new files arrive by rename from a copy beside them, stale files are removed. Returns what changed.
 */
export function syncTree(from, to, keep = []) {
  const fresh = new Set(files(from));
  const changed = [];
  const removed = [];
  mkdirSync(to, { recursive: true });
  for (const f of fresh) {
    const target = join(to, f);
    const source = join(from, f);
    if (existsSync(target) && statSync(target).size === statSync(source).size && readFileSync(target).equals(readFileSync(source))) continue;
    mkdirSync(dirname(target), { recursive: true });
    const staging = `${target}.${process.pid}.tmp`;
    copyFileSync(source, staging);
    renameSync(staging, target);
    changed.push(f);
  }
  for (const f of files(to)) {
    if (fresh.has(f) || keep.includes(f)) continue;
    rmSync(join(to, f));
    removed.push(f);
  }
  return { changed, removed };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const root = new URL("..", import.meta.url).pathname;
  // Beside dist/, so the source maps' relative paths are the ones a build in dist/ writes.
  const out = mkdtempSync(join(root, ".pack-build-"));
  try {
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json"), "--outDir", out, "--tsBuildInfoFile", join(out, ".tsbuildinfo")], { stdio: "inherit" });
    rmSync(join(out, ".tsbuildinfo"));
    await bundleEntry(root, join(out, "src/main.js"));
    // dist/.tsbuildinfo belongs to the incremental build (scripts/ensure-built.mjs) and stays.
    const { changed, removed } = syncTree(out, join(root, "dist"), [".tsbuildinfo"]);
    console.error(`prepack: clean build; dist/ updated in place (${changed.length} files written, ${removed.length} stale files removed)`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
