// npm run pack:mcpb: builds the MCP Bundle, ocean-conditions-<version>.mcpb, in the current directory.
// The bundle is the npm package's files (npm pack, so exactly what is published), its production
// dependencies installed from the lockfile, and manifest.json; `mcpb validate`, then `mcpb pack`.
// scripts/package-check.mjs builds it the same way and then starts it as a desktop host does.
// Needs the npm registry (or a warm npm cache) for `npm ci --omit=dev`.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const mcpb = join(root, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 600_000, ...opts });
}

/** The bundle's file name for this version. */
export const bundleName = () => `${pkg.name}-${pkg.version}.mcpb`;

/**
 * Packs the bundle from a tarball made by `npm pack`, staging in `work`; writes it to `out`.
 * Returns the bundle's path and size in bytes.
 */
export function buildBundle(tarball, work, out) {
  const stage = join(work, "bundle");
  mkdirSync(stage, { recursive: true });
  run("tar", ["-xzf", tarball, "-C", stage]);
  const dir = join(stage, "package");
  copyFileSync(join(root, "package-lock.json"), join(dir, "package-lock.json"));
  copyFileSync(join(root, "manifest.json"), join(dir, "manifest.json"));
  // --json=false: npm's summary is not wanted here whatever the checkout's .npmrc says.
  run("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=warn", "--json=false"], { cwd: dir });
  rmSync(join(dir, "package-lock.json"));
  run(process.execPath, [mcpb, "validate", join(dir, "manifest.json")]);
  run(process.execPath, [mcpb, "pack", dir, out]);
  return { path: out, size: statSync(out).size };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const work = mkdtempSync(join(tmpdir(), "ocean-conditions-mcpb-"));
  try {
    const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work, "--loglevel=warn"], { cwd: root }));
    // Where the user ran npm (npm runs scripts from the package root).
    const out = resolve(process.env.INIT_CWD ?? process.cwd(), bundleName());
    const { size } = buildBundle(join(work, packed[0].filename), work, out);
    console.error(`pack:mcpb: ${out} (${(size / 1024 / 1024).toFixed(1)} MB); open it with a desktop host (Claude Desktop: Settings → Extensions)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
