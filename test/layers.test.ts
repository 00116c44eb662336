// The import layers (.dependency-cruiser.mjs, checked by `npm run lint`): every module has exactly
// one layer, the diagram in docs/development.md is the one the generator makes from them, and the
// rules refuse what they are meant to refuse (an import upward, a circle of type-only imports).
import { execFile } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { checkedModules, currentLayerDiagram, LAYERS_DOC, layersOf, loadLayers, withLayers } from "../scripts/layer-diagram.js";
import { PROJECT_ROOT } from "../src/paths.js";

describe("layers", () => {
  it("puts every module of src/ and tools/ on exactly one layer", async () => {
    const layers = await loadLayers();
    const files = checkedModules();
    expect(files).toContain("src/compose.ts");
    expect(files).toContain("tools/best-day.ts");
    const misplaced = files.map((f) => ({ f, on: layersOf(f, layers) })).filter(({ on }) => on.length !== 1);
    expect(misplaced).toEqual([]);
  });

  it("keeps the composition root on top and the context's types below every handler", async () => {
    const layers = await loadLayers();
    const names = layers.map((l) => l.name);
    expect(names.at(-1)).toBe("root");
    expect(names.indexOf("context")).toBeLessThan(names.indexOf("cards"));
    expect(names.indexOf("cards")).toBeLessThan(names.indexOf("decisions"));
    const on = (f: string) => layersOf(f, layers)[0];
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
      const out = await run(process.execPath, [bin, "src", "tools", "--config", join(PROJECT_ROOT, ".dependency-cruiser.mjs"), "--output-type", "json"], { cwd: dir, maxBuffer: 16 << 20 }).catch(
        (e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }),
      );
      const result = JSON.parse(out.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
      return result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
    }

    it("refuses an upward import, a type-only import circle and a module with no layer", { timeout: 120_000 }, async () => {
      write("src/clock.ts", 'import type { Wiring } from "./compose.js";\nexport type Clock = Wiring;\n');
      write("src/compose.ts", "export interface Wiring { a: number }\n");
      write("src/cards/a.ts", 'import type { B } from "./b.js";\nexport interface A { b: B }\n');
      write("src/cards/b.ts", 'import type { A } from "./a.js";\nexport interface B { a: A | null }\n');
      write("src/stray.ts", 'import type { A } from "./cards/a.js";\nexport type S = A;\n');
      write("tools/fine.ts", 'import type { Clock } from "../src/clock.js";\nexport type F = Clock;\n');
      const found = await violations();
      expect(found).toContainEqual({ rule: "no-upward-from-base", from: "src/clock.ts", to: "src/compose.ts" });
      expect(found).toContainEqual({ rule: "no-circular", from: "src/cards/a.ts", to: "src/cards/b.ts" });
      expect(found).toContainEqual({ rule: "in-a-layer", from: "src/stray.ts", to: "src/cards/a.ts" });
      expect(found.filter((v) => v.from === "tools/fine.ts")).toEqual([]);
    });
  });
});
