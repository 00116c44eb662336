// The import layers (.dependency-cruiser.mjs, checked by `npm run lint`): every module has exactly
// one layer, the diagram in docs/development.md is the one the generator makes from them, and the
// rules refuse what they are meant to refuse (an import upward, a circle of type-only imports).
import { execFile } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { checkedModules, currentLayerDiagram, LAYERS_DOC, layersOf, loadLayers, srcFolders, withLayers } from "../scripts/layer-diagram.js";
import { PROJECT_ROOT } from "../src/base/paths.js";

describe("layers", () => {
  it("puts every module of src/ on exactly one layer, each folder of src/ being one layer", async () => {
    const layers = await loadLayers();
    const files = checkedModules();
    expect(files).toContain("src/compose.ts");
    expect(files).toContain("src/answers/best-day.ts");
    const misplaced = files.map((f) => ({ f, on: layersOf(f, layers) })).filter(({ on }) => on.length !== 1);
    expect(misplaced).toEqual([]);
    expect(srcFolders()).toEqual(
      layers
        .map((l) => l.folder)
        .filter((f) => f !== "src/")
        .sort(),
    );
    expect(new Set(layers.map((l) => l.folder)).size).toBe(layers.length);
  });

  it("keeps src/ itself to the entry point, the composition root and the start-up block", () => {
    const top = checkedModules().filter((f) => !f.slice(4).includes("/"));
    expect(top).toEqual(["src/compose.ts", "src/main.ts", "src/startup.ts"]);
  });

  it("keeps the composition root on top and the context's types below every handler", async () => {
    const layers = await loadLayers();
    const names = layers.map((l) => l.name);
    expect(names.at(-1)).toBe("root");
    const on = (f: string) => layersOf(f, layers)[0];
    expect(names.indexOf(on("src/services/context.ts")!)).toBeLessThan(names.indexOf("decisions"));
    expect([on("src/main.ts"), on("src/compose.ts")]).toEqual(["root", "root"]);
  });

  it("shows in docs/development.md the diagram the generator makes (npm run docs:layers)", async () => {
    const doc = readFileSync(LAYERS_DOC, "utf8");
    expect(withLayers(doc, await currentLayerDiagram())).toBe(doc);
  });

  describe("the checker", () => {
    const dir = mkdtempSync(join(tmpdir(), "layers-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };

    async function violations(): Promise<{ rule: string; from: string; to: string }[]> {
      write("tsconfig.json", readFileSync(join(PROJECT_ROOT, "tsconfig.json"), "utf8"));
      const bin = join(PROJECT_ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
      const run = promisify(execFile);
      const out = await run(process.execPath, [bin, "src", "--config", join(PROJECT_ROOT, ".dependency-cruiser.mjs"), "--output-type", "json"], { cwd: dir, maxBuffer: 16 << 20 }).catch(
        (e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }),
      );
      const result = JSON.parse(out.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
      return result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
    }

    it("refuses an upward import, a circle, two folders importing each other and a folder with no layer", { timeout: 120_000 }, async () => {
      write("src/base/clock.ts", 'import type { Wiring } from "../compose.js";\nexport type Clock = Wiring;\n');
      write("src/compose.ts", "export interface Wiring { a: number }\n");
      write("src/decisions/a.ts", 'import type { B } from "./b.js";\nexport interface A { b: B }\n');
      write("src/decisions/b.ts", 'import type { A } from "./a.js";\nexport interface B { a: A | null }\n');
      // No module circle, but services/one/ and services/two/ import each other.
      write("src/services/one/x.ts", 'import type { Y } from "../two/y.js";\nexport type X = Y;\n');
      write("src/services/two/y.ts", "export type Y = number;\n");
      write("src/services/two/z.ts", 'import type { W } from "../one/w.js";\nexport type Z = W;\n');
      write("src/services/one/w.ts", "export type W = string;\n");
      write("src/stray/s.ts", 'import type { A } from "../decisions/a.js";\nexport type S = A;\n');
      write("src/answers/fine.ts", 'import type { Clock } from "../base/clock.js";\nexport type F = Clock;\n');
      const found = await violations();
      expect(found).toContainEqual({ rule: "no-upward-from-base", from: "src/base/clock.ts", to: "src/compose.ts" });
      expect(found).toContainEqual({ rule: "no-circular", from: "src/decisions/a.ts", to: "src/decisions/b.ts" });
      expect(found.filter((v) => v.rule === "no-circular-folders").map((v) => [v.from, v.to].sort().join(" ↔ "))).toContain("src/services/one ↔ src/services/two");
      expect(found).toContainEqual({ rule: "in-a-layer", from: "src/stray/s.ts", to: "src/decisions/a.ts" });
      expect(found.filter((v) => v.from === "src/answers/fine.ts")).toEqual([]);
    });
  });
});
