// `npm pack` builds the package from scratch (prepack, scripts/clean-build.mjs) without taking dist/
// away from a server running in the same checkout: the fresh build is made beside it and brought in
// file by file.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../src/base/paths.js";
// @ts-expect-error a plain ES module script without type declarations
import { syncTree } from "../scripts/clean-build.mjs";

const sync = syncTree as (from: string, to: string, keep?: string[]) => { changed: string[]; removed: string[] };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "sync-tree-"));
  dirs.push(dir);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

describe("syncTree", () => {
  it("writes changed and new files, removes stale ones, leaves unchanged files and the directory in place", () => {
    const from = tree({ "src/a.js": "a2", "src/b.js": "b", "src/new/c.js": "c" });
    const to = tree({ "src/a.js": "a1", "src/b.js": "b", "src/gone.js": "old", ".tsbuildinfo": "{}" });
    const before = { dir: statSync(to).ino, b: statSync(join(to, "src/b.js")).ino };
    const { changed, removed } = sync(from, to, [".tsbuildinfo"]);
    expect(changed.sort()).toEqual(["src/a.js", "src/new/c.js"]);
    expect(removed).toEqual(["src/gone.js"]);
    expect(readFileSync(join(to, "src/a.js"), "utf8")).toBe("a2");
    expect(readFileSync(join(to, "src/new/c.js"), "utf8")).toBe("c");
    expect(existsSync(join(to, "src/gone.js"))).toBe(false);
    expect(existsSync(join(to, ".tsbuildinfo"))).toBe(true);
    expect({ dir: statSync(to).ino, b: statSync(join(to, "src/b.js")).ino }).toEqual(before);
  });
});

describe("prepack (scripts/clean-build.mjs) in this checkout", () => {
  it("leaves dist/ in place with the entry point, and drops files of deleted sources", async () => {
    const dist = join(PROJECT_ROOT, "dist");
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.prepack).toBe("node scripts/clean-build.mjs");
    mkdirSync(join(dist, "src"), { recursive: true });
    const stale = join(dist, "src", "deleted-source-for-test.js");
    writeFileSync(stale, "export {};\n");
    const inode = statSync(dist).ino;
    const stderr = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [join(PROJECT_ROOT, "scripts/clean-build.mjs")], { cwd: PROJECT_ROOT, timeout: 300_000 }, (err, _out, errText) => (err ? reject(err) : resolve(errText))),
    );
    expect(stderr).toMatch(/dist\/ updated in place/);
    expect(statSync(dist).ino).toBe(inode);
    expect(existsSync(join(dist, "src/main.js"))).toBe(true);
    expect(existsSync(stale)).toBe(false);
    // The temporary build beside dist/ is gone.
    expect(readdirSync(PROJECT_ROOT).filter((n) => n.startsWith(".pack-build-"))).toEqual([]);
  }, 320_000);
});
