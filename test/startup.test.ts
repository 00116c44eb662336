// What `npm start` says when it starts: on a terminal, one readable block with where to go and what
// the answers rest on; otherwise (a pipe, a process manager) JSON log lines only, as before.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DATA_SOURCES } from "../src/base/config.js";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { readableLine } from "../src/base/logger.js";
import { DATA_MODE_WORDS, startupBlock } from "../src/startup.js";
import { SERVICE_ARGS } from "./helpers/process.js";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) {
    try {
      process.kill(-c.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  }
});

/** Starts the service (PORT=0) and collects stdout until `until` matches it. */
function start(command: string, args: readonly string[], until: RegExp): Promise<string> {
  const child = spawn(command, [...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_SOURCE: "offline", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.push(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) resolve(out);
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${out}\n${err}`)));
  });
}

const SERVICE = [process.execPath, SERVICE_ARGS] as const;

describe("the start-up block", () => {
  it.each(DATA_SOURCES)("names the front page, the API, /mcp, /docs, an example and the data (%s)", (mode) => {
    const block = startupBlock({ base: "http://localhost:3000", dataSource: mode, spots: 274, regions: 28, logLevel: "info" });
    for (const url of [
      "http://localhost:3000/\n",
      "http://localhost:3000/api/v1/",
      "http://localhost:3000/mcp",
      "http://localhost:3000/docs",
      "curl 'http://localhost:3000/api/v1/conditions?spot=hanauma-bay'",
    ]) {
      expect(block).toContain(url);
    }
    expect(block.replace(/\s+/g, " ")).toContain(DATA_MODE_WORDS[mode]);
    expect(block).toContain(`DATA_SOURCE=${mode}`);
    const lines = block.trim().split("\n");
    expect(lines.length).toBeLessThanOrEqual(14);
    expect(lines.filter((l) => l.length > 90 && !l.includes("http"))).toEqual([]);
  });
});

describe("log lines on a terminal", () => {
  it("read as time, level, message and fields; anything not JSON passes through", () => {
    const line = JSON.stringify({
      level: 40,
      time: "2026-11-21T19:00:00.000Z",
      service: "ocean-conditions",
      upstream: "erddap",
      breaker: { from: "closed", to: "open" },
      msg: "upstream erddap failed",
    });
    expect(readableLine(line)).toMatch(/^\d\d:\d\d:\d\d WARN {2}upstream erddap failed {2}upstream=erddap breaker=\{"from":"closed","to":"open"\}\n$/);
    expect(readableLine("not json\n")).toBe("not json\n");
  });
});

describe("npm start's entry", () => {
  it("is one bundled file: it imports none of dist's own modules, so node loads one module at start", () => {
    // scripts/bundle-entry.mjs; the render worker alone loads from the rest of dist/.
    const entry = readFileSync(join(PROJECT_ROOT, SERVICE[1][0]!), "utf8");
    expect(entry).not.toMatch(/^(?:import|export)\b[^\n]*\bfrom\s*["']\.{1,2}\//m);
    expect(entry).toContain("function createContext(");
    expect(entry).toMatch(/^\/\/# sourceMappingURL=main\.js\.map$/m);
  });

  it("is plain ASCII, so V8 holds its source at one byte a character", () => {
    // One character above U+00FF anywhere in it doubles the heap its source takes (scripts/bundle-entry.mjs).
    const entry = readFileSync(join(PROJECT_ROOT, SERVICE[1][0]!));
    expect(entry.findIndex((b) => b > 0x7f)).toBe(-1);
    // The service's own wording with its dashes and ellipses is in it, escaped.
    expect(entry.toString("latin1")).toMatch(/\\u2013/);
  });

  it("logs JSON lines only when stdout is not a terminal", async () => {
    const out = await start(...SERVICE, /"msg":"listening"/);
    const lines = out.trim().split("\n");
    for (const l of lines) expect(() => JSON.parse(l), l).not.toThrow();
    const listening = lines.map((l) => JSON.parse(l) as { msg: string; port?: number }).find((l) => l.msg === "listening")!;
    expect(listening.port).toBeGreaterThan(0);
    expect(out).not.toContain("Front page");
    const res = await fetch(`http://127.0.0.1:${listening.port}/api/v1/conditions?spot=hanauma-bay`);
    expect(res.status).toBe(200);
  }, 120_000);

  it.skipIf(!existsSync("/usr/bin/script"))(
    "prints the block on a terminal, with the port it took, and the example answers",
    async () => {
      // util-linux `script` gives the service a pseudo-terminal as stdout.
      const cmd = `${SERVICE[0]} ${SERVICE[1].join(" ")}`;
      const out = await start("script", ["-qfec", cmd, "/dev/null"], /warmed up: ready/);
      // Log lines after the block are readable, not JSON.
      expect(out).toMatch(/\d\d:\d\d:\d\d INFO {2}warmed up: ready {2}ms=\d+/);
      expect(out).not.toMatch(/\{"level":/);
      expect(out).toMatch(/ocean-conditions \d+\.\d+\.\d+: dive and snorkel conditions, \d+ spots in \d+ regions/);
      expect(out).toContain(DATA_MODE_WORDS.offline.split(" ").slice(0, 4).join(" "));
      expect(out).not.toMatch(/"msg":"listening"/);
      const example = /curl '(http:\/\/localhost:(\d+)\/api\/v1\/conditions\?spot=hanauma-bay)'/.exec(out);
      expect(example?.[2]).not.toBe("0");
      const res = await fetch(example![1]!.replace("localhost", "127.0.0.1"));
      expect(res.status).toBe(200);
    },
    120_000,
  );
});
