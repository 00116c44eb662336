// The suite runs without per-file isolation (vitest.config.ts: test files share their worker's
// modules). That is only sound while no test changes what the next file in the same worker sees:
// module mocks, stubbed globals or environment, process-wide environment writes or listeners.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../src/base/paths.js";

const FORBIDDEN: [RegExp, string][] = [
  [/\bvi\.(mock|doMock|stubEnv|stubGlobal|spyOn)\(/, "a module mock, stub or spy outlives its file when files share modules"],
  [/process\.env(\.[A-Za-z_]\w*|\[[^\]]+\])\s*=(?!=)/, "an environment write outlives its file; pass env to the service under test instead"],
  [/\bdelete\s+process\.env\b/, "an environment write outlives its file"],
  [/\bprocess\.(on|once|chdir)\(/, "a process-wide listener or working directory outlives its file"],
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

describe("the test suite without per-file isolation", () => {
  it("has no test that changes process-wide state", () => {
    const self = join(PROJECT_ROOT, "test/suite-isolation.test.ts");
    const found: string[] = [];
    for (const file of testFiles(join(PROJECT_ROOT, "test"))) {
      if (file === self) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          for (const [pattern, why] of FORBIDDEN) if (pattern.test(line)) found.push(`${file.slice(PROJECT_ROOT.length + 1)}:${i + 1}: ${why}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("recognises what it forbids", () => {
    const hits = (line: string) => FORBIDDEN.filter(([p]) => p.test(line)).length;
    expect(hits('vi.mock("../src/base/clock.js")')).toBe(1);
    expect(hits("process.env.DATA_SOURCE = 'live'")).toBe(1);
    expect(hits('process.env["X"] = "1"')).toBe(1);
    expect(hits("delete process.env.X")).toBe(1);
    expect(hits('process.on("exit", f)')).toBe(1);
    expect(hits("const x = process.env.DATA_SOURCE === 'live'")).toBe(0);
    expect(hits("env: { ...process.env, PORT: '1' }")).toBe(0);
  });
});
