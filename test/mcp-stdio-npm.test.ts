// A strict stdio host reads every line of stdout as a JSON-RPC message: `npm run -s mcp:stdio`, as
// the README gives it (npm's `-s` keeps npm's own banner out), must write nothing else there. The
// checkout no longer sets npm's JSON mode for it, so `npm install` prints npm's normal output.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../src/base/paths.js";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "strict-host", version: "1" } },
};

describe("npm run -s mcp:stdio", () => {
  it("leaves npm's own output as npm prints it: the checkout sets no JSON mode", () => {
    const npmrc = join(PROJECT_ROOT, ".npmrc");
    if (existsSync(npmrc)) expect(readFileSync(npmrc, "utf8")).not.toMatch(/^\s*json\s*=\s*true/m);
  });

  it("writes only JSON-RPC lines to stdout, from npm's start to the answer", async () => {
    const child = spawn("npm", ["run", "-s", "mcp:stdio"], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_SOURCE: "offline", LOG_LEVEL: "info" },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    try {
      const answered = new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => {
          stdout += d.toString();
          if (stdout.includes('"id":1')) resolve();
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code} before answering:\n${stderr.slice(-2000)}`)));
      });
      child.stdin.write(JSON.stringify(INITIALIZE) + "\n");
      await answered;
    } finally {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
    }
    const lines = stdout.split("\n").filter((l, i, all) => i < all.length - 1 || l !== "");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line), `stdout line ${JSON.stringify(line)}`).not.toThrow();
    const answer = lines.map((l) => JSON.parse(l) as { id?: number; result?: { serverInfo?: { name: string } } }).find((m) => m.id === 1);
    expect(answer?.result?.serverInfo?.name).toBe("io.github.ocean-conditions/ocean-conditions");
    // The service's logs went to stderr.
    expect(stderr).toMatch(/serving MCP over stdio/);
  }, 240_000);
});
