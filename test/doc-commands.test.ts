// Every command a reader can copy from README.md and docs/*.md (test/helpers/doc-commands.ts finds
// them by reading the documents) either runs here against a real server, exactly as written but for
// the port, or is named below with the reason it cannot run inside a test. A new command in the docs
// fails this test until it is one or the other.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { documentedCommands, documentedHostConfigs, type DocCommand, type HostConfig } from "./helpers/doc-commands.js";
import { freePort } from "./helpers/ports.js";

const scripts = (JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** Commands a test cannot run, each with why (and where it is covered instead). */
const NOT_RUN: { pattern: RegExp; reason: string }[] = [
  { pattern: /^npm install && npm start$/, reason: "npm install would reinstall node_modules under the running suite; npm start is what serves the commands below" },
  { pattern: /^npm install && npm test$/, reason: "the whole suite, of which this test is part" },
  { pattern: /^npm test$/, reason: "the fast tier of the suite" },
  { pattern: /^npm run test:(slow|all)$/, reason: "the slow tier (of which this test is part) and the whole suite" },
  { pattern: /^npm run test:mcp-sdk-only$/, reason: "the MCP test files again with MCP_REPLAY=off; CI runs it after the whole suite" },
  { pattern: /^npm run format$/, reason: "rewrites the source; npm run lint checks the same formatting" },
  { pattern: /^sudo apt-get install /, reason: "installs system packages" },
  { pattern: /^npm run dev$/, reason: "a file watcher that runs until stopped" },
  { pattern: /^npm run (lint|typecheck)$/, reason: "checks of the source, run before every commit and by CI, not a behaviour of the service" },
  {
    pattern: /^npm run (data:check|data:tides|data:levels|data:exposure)\b/,
    reason: "data maintenance scripts; their rules are tested in test/coastline.test.ts, test/calibration-rule.test.ts, test/exposure-check.test.ts, test/tides.test.ts",
  },
  { pattern: /^npm run data:zones$/, reason: "rewrites data/time-zones.json; test/time.test.ts fails when the table misses a catalogue zone or disagrees with the runtime's time-zone rules" },
  { pattern: /^npm run data:map$/, reason: "rewrites a checked-in asset; test/front-page.test.ts fails when it differs from what the script makes" },
  { pattern: /^npm run docs:(calibration|coverage|layers|rubric)$/, reason: "rewrite checked-in tables and diagrams; test/calibration.test.ts and test/layers.test.ts fail when they are stale" },
  { pattern: /^npm run (bench|budget)\b/, reason: "measurements that take minutes; performance is measured, not asserted in tests" },
  { pattern: /^(npm run mutate\b|npx stryker run |node scripts\/mutation-merge\.mjs )/, reason: "mutation testing runs the suite hundreds of times (9–48 min)" },
  { pattern: /^npm run (conformance|inspector:strict)$/, reason: "peer suites fetched from the npm registry" },
  { pattern: /^npm run live:smoke\b/, reason: "calls the real upstreams (needs the internet)" },
  { pattern: /^npm run stub( -- |$)/, reason: "the emulator serves until stopped; test/emulator.test.ts and test/live-emulator.test.ts start it" },
  { pattern: /^DATA_SOURCE=live .* npm start$/, reason: "a live server pointed at the emulator; test/api-live.test.ts runs that pairing in-process" },
  { pattern: /^npx ocean-conditions( --stdio)?$/, reason: "needs the package published to npm; npm run package:check runs both against a locally packed tarball" },
  { pattern: /^git clone /, reason: "fetches the repository from the network" },
  { pattern: /^npm ci( --omit=dev)?$/, reason: "reinstalls node_modules under the running suite" },
  { pattern: /^npm run build$/, reason: "rewrites dist/ under the running suite; the suite makes the build current once before it starts (test/helpers/global-setup.ts)" },
  { pattern: /^(PORT=\d+ )?npm start( &)?$/, reason: "serves until stopped; test/startup.test.ts starts the same entry" },
  { pattern: /^PUBLIC_BASE_URL=\S+ HOST=\S+ PORT=\d+ TRUST_PROXY=\S+ npm start$/, reason: "a production start; test/config.test.ts and test/api-http.test.ts cover these settings" },
  { pattern: /^redis-server /, reason: "a Redis server that runs until stopped; test/redis.test.ts starts its own" },
  { pattern: /^export REDIS_URL=/, reason: "sets the shell's environment for the instances below; test/instances-processes.test.ts runs three instances on one Redis" },
];

const commands = documentedCommands();
const runnable = (c: DocCommand) => /^curl\b/.test(c.text) || /^[A-Za-z_][A-Za-z0-9_]*=\$\(/.test(c.text);
const label = (c: DocCommand) => `${c.doc}:${c.line}: ${c.text}`;

/** Runs one documented command in bash, its block's assignments first, with the port substituted. */
function run(c: DocCommand, base: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = [
    // Every curl in a test fails on an HTTP error status and shows why.
    'curl() { command curl --fail-with-body --silent --show-error --max-time 120 "$@"; }',
    "set -e",
    ...c.setup,
    c.text,
  ]
    .join("\n")
    .replaceAll("http://localhost:3000", base);
  return new Promise((resolve) => {
    execFile("bash", ["-c", script], { timeout: 180_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("the commands in README.md and docs/", () => {
  it("are found by reading the documents", () => {
    // The README alone has the quick start, three curls and an assignment.
    expect(commands.filter((c) => c.doc === "README.md").length).toBeGreaterThanOrEqual(6);
    expect(commands.filter(runnable).length).toBeGreaterThanOrEqual(5);
  });

  it("either run in this test or are named with the reason they cannot", () => {
    const unaccounted = commands.filter((c) => !runnable(c) && !NOT_RUN.some((n) => n.pattern.test(c.text))).map(label);
    expect(unaccounted, "run it below, or add it to NOT_RUN with a reason").toEqual([]);
  });

  it("name no command that the docs no longer have", () => {
    const stale = NOT_RUN.filter((n) => !commands.some((c) => n.pattern.test(c.text))).map((n) => String(n.pattern));
    expect(stale).toEqual([]);
  });

  it("name only npm scripts that exist, in blocks and in running text", () => {
    const text = ["README.md", ...commands.map((c) => c.doc)].map((d) => readFileSync(join(PROJECT_ROOT, d), "utf8")).join("\n");
    const named = [...new Set([...text.matchAll(/npm run (?:-s )?([a-z][a-z0-9:-]*)/g)].map((m) => m[1]!))];
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((s) => !(s in scripts))).toEqual([]);
  });

  it("carry no fixed date, which would leave the 7-day horizon", () => {
    // An MCP protocol version is a name, not a date.
    const dated = commands.filter((c) => /\b20\d\d-\d\d-\d\d\b/.test(c.text.replace(/(MCP-Protocol-Version: |protocolVersion":")20\d\d-\d\d-\d\d/g, "")));
    expect(dated.map(label)).toEqual([]);
  });
});

// The service as a reader starts it (npm start, the shipped catalogue, the real clock), on a free
// port; the commands compute their dates from today.
let base = "";
let server: ChildProcess | undefined;
let output = "";
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn("npm", ["start"], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_BASE_URL: base, DATA_SOURCE: "offline", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  server.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  server.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  // Waits on readiness (the server's own signal), not on a fixed time.
  for (const until = Date.now() + 240_000; ; await new Promise((r) => setTimeout(r, 250))) {
    if (server.exitCode !== null) throw new Error(`npm start exited with ${server.exitCode}:\n${output}`);
    if (
      (await fetch(`${base}/readyz`).then(
        (r) => r.status,
        () => 0,
      )) === 200
    )
      break;
    if (Date.now() > until) throw new Error(`npm start was not ready within 240 s:\n${output}`);
  }
}, 250_000);
afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server!.once("exit", resolve));
  process.kill(-server.pid!, "SIGTERM");
  await exited;
});

describe("the runnable commands, against a real server", () => {
  it.each(commands.filter(runnable).map((c) => [label(c), c] as const))(
    "%s",
    async (_label, c) => {
      const { code, stdout, stderr } = await run(c, base);
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      if (!/^curl\b/.test(c.text)) return;
      const body = JSON.parse(stdout) as Record<string, unknown>;
      if ("jsonrpc" in body) {
        // MCP: a result, not a JSON-RPC error nor a tool error.
        expect(body.error).toBeUndefined();
        const result = body.result as { isError?: boolean; structuredContent?: { schema?: string } };
        expect(result.isError ?? false).toBe(false);
        expect(result.structuredContent?.schema).toMatch(/^service\.[a-z_]+\.v1$/);
      } else {
        expect(body.schema).toMatch(/^service\.[a-z_]+\.v1$/);
        expect(body.source).toBeTruthy();
      }
    },
    200_000,
  );
});

const TOOL_NAMES = ["get_conditions", "list_coverage", "recommend_spot", "best_day"];
const hostConfigs = documentedHostConfigs();
/** A host configuration is tried unless it launches the unpublished npm package. */
const NOT_TRIED = (h: HostConfig) => (h.server.command === "npx" ? "launches the npm package, which is not published yet; npm run package:check runs it from a packed tarball" : null);

describe("the MCP host configurations in README.md and docs/", () => {
  it("are found by reading the documents: remote URLs and local commands", () => {
    expect(hostConfigs.filter((h) => h.server.url).length).toBeGreaterThanOrEqual(2);
    expect(hostConfigs.filter((h) => h.server.command === "node").length).toBeGreaterThanOrEqual(2);
    expect(hostConfigs.filter((h) => !h.server.url && !h.server.command)).toEqual([]);
  });

  it.each(hostConfigs.filter((h) => !NOT_TRIED(h)).map((h) => [`${h.doc}:${h.line}: ${JSON.stringify(h.server)}`, h] as const))(
    "%s connects the official client and lists the four tools",
    async (_label, h) => {
      const client = new Client({ name: "docs-host", version: "1" });
      let stderr = "";
      const transport = h.server.url
        ? new StreamableHTTPClientTransport(new URL(h.server.url.replace("http://localhost:3000", base)))
        : new StdioClientTransport({
            command: h.server.command === "node" ? process.execPath : h.server.command!,
            args: (h.server.args ?? []).map((a) => a.replace("/absolute/path/to/ocean-conditions", PROJECT_ROOT)),
            cwd: PROJECT_ROOT,
            env: { ...process.env, ...h.server.env, DATA_SOURCE: "offline" } as Record<string, string>,
            stderr: "pipe",
          });
      if (transport instanceof StdioClientTransport) transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
      try {
        await client.connect(transport, { timeout: 240_000 });
        const { tools } = await client.listTools(undefined, { timeout: 240_000 });
        expect(
          tools.map((t) => t.name),
          stderr,
        ).toEqual(TOOL_NAMES);
      } finally {
        await client.close();
      }
    },
    250_000,
  );
});
