// Peer suites against the real service: `conformance` runs the official MCP conformance suite's
// server scenarios, `inspector` runs MCP Inspector's CLI `tools/list --strict` in both protocol eras, then Inspector
// 1.0.3's CLI listing and calling every tool.
// Both need Node 22, which .ci/peers installs from the npm registry (never globally) next to the two
// tools; the service itself runs on this Node (20). The service is built, started on a free
// 127.0.0.1 port with offline data, and stopped at the end. Exit code: non-zero on any failure.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const peers = join(root, ".ci/peers");
const mode = process.argv[2];
if (mode !== "conformance" && mode !== "inspector") {
  console.error("usage: node scripts/peer-suites.mjs conformance|inspector");
  process.exit(2);
}

/** Installs the peer tools from their lockfile when missing or older than it. */
function ensurePeers() {
  const installed = join(peers, "node_modules/.package-lock.json");
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(join(peers, "package-lock.json")).mtimeMs) return;
  const npm = process.env.npm_execpath;
  const [cmd, args] = npm ? [process.execPath, [npm]] : ["npm", []];
  execFileSync(cmd, [...args, "ci", "--no-audit", "--no-fund", "--prefix", peers], { stdio: "inherit" });
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function startService() {
  execFileSync(process.execPath, [join(root, "scripts/ensure-built.mjs")], { stdio: "inherit" });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [join(root, "dist/src/main.js")], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), PUBLIC_BASE_URL: base, DATA_SOURCE: "offline", LOG_LEVEL: "warn" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // Generous: the first start loads the catalogue, tides and fonts on a busy machine.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it was ready`);
    try {
      if ((await globalThis.fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the service did not answer /healthz within 120 s");
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Runs a peer tool on the Node 22 from .ci/peers; resolves with its exit code and stderr. */
function runPeer(script, args, env = {}) {
  const node22 = join(peers, "node_modules/node/bin/node");
  return new Promise((resolve) => {
    const child = spawn(node22, [join(peers, "node_modules", script), ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
      process.stderr.write(d);
    });
    child.once("exit", (code) => resolve({ code: code ?? 1, stderr }));
  });
}

async function conformance(base) {
  const out = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
  try {
    const { code } = await runPeer("@modelcontextprotocol/conformance/dist/index.js", [
      "server",
      "--url",
      `${base}/mcp`,
      "--expected-failures",
      join(root, ".ci/conformance-expected-failures.yml"),
      "-o",
      out,
    ]);
    return code;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function inspector(base) {
  const home = mkdtempSync(join(tmpdir(), "mcp-inspector-"));
  let failed = 0;
  try {
    for (const era of ["legacy", "modern"]) {
      console.log(`\n=== MCP Inspector CLI ${JSON.parse(readFileSync(join(peers, "node_modules/@modelcontextprotocol/inspector/package.json"), "utf8")).version}: tools/list --strict (${era}) ===`);
      const { code, stderr } = await runPeer(
        "@modelcontextprotocol/inspector/clients/launcher/build/index.js",
        ["--cli", `${base}/mcp`, "--method", "tools/list", "--strict", "--protocol-era", era, "--output", join(home, `tools-${era}.json`)],
        { HOME: home, MCP_CATALOG_PATH: join(home, "mcp.json") },
      );
      const problems = stderr.split("\n").filter((l) => /^(Warning|Error)\b/.test(l));
      if (code !== 0 || problems.length > 0) {
        console.error(`Inspector --strict (${era}): exit ${code}, ${problems.length} schema problem(s)`);
        failed++;
      } else {
        console.log(`Inspector --strict (${era}): no schema problems.`);
      }
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  failed += await inspectorV1(base);
  return failed === 0 ? 0 : 1;
}

/**
 * MCP Inspector 1.0.3's CLI (the v1 line many hosts' developers still have) over Streamable HTTP:
 * tools/list, a call of each tool, a tool error and resources/list must each exit 0 with the answer
 * a client expects (structuredContent on every call, isError only on the error).
 */
async function inspectorV1(base) {
  const calls = [
    { args: ["--method", "tools/list"], check: (r) => Array.isArray(r.tools) && r.tools.length === 4 },
    { args: ["--method", "resources/list"], check: (r) => r.resources?.some((x) => x.uri.startsWith("ui://")) },
    { args: ["--method", "tools/call", "--tool-name", "list_coverage"], check: (r) => !r.isError && r.structuredContent?.regions?.length > 0 },
    { args: ["--method", "tools/call", "--tool-name", "get_conditions", "--tool-arg", "spot=hanauma-bay"], check: (r) => !r.isError && r.structuredContent?.spot?.id === "hanauma-bay" },
    {
      args: ["--method", "tools/call", "--tool-name", "recommend_spot", "--tool-arg", "activity=snorkel", "--tool-arg", "region=us-hi-oahu"],
      check: (r) => !r.isError && Array.isArray(r.structuredContent?.picks),
    },
    { args: ["--method", "tools/call", "--tool-name", "best_day", "--tool-arg", "spot=hanauma-bay", "--tool-arg", "activity=snorkel"], check: (r) => !r.isError && r.structuredContent !== undefined },
    {
      args: ["--method", "tools/call", "--tool-name", "best_day", "--tool-arg", "spot=nope", "--tool-arg", "activity=snorkel"],
      check: (r) => r.isError === true && r.structuredContent?.error?.code === "unknown_spot",
    },
  ];
  const version = JSON.parse(readFileSync(join(peers, "node_modules/inspector-v1/package.json"), "utf8")).version;
  console.log(`\n=== MCP Inspector CLI ${version}: list, call every tool, a tool error ===`);
  let failed = 0;
  for (const { args, check } of calls) {
    const out = await runPeerCapture("inspector-v1/cli/build/cli.js", ["--cli", `${base}/mcp`, "--transport", "http", ...args]);
    let ok = out.code === 0;
    try {
      ok &&= Boolean(check(JSON.parse(out.stdout)));
    } catch {
      ok = false;
    }
    console.log(`${ok ? "ok  " : "FAIL"} ${args.join(" ")}`);
    if (!ok) {
      console.error(out.stdout.slice(0, 2000));
      failed++;
    }
  }
  return failed;
}

/** Like runPeer, with stdout captured (the CLI prints the JSON-RPC result there). */
function runPeerCapture(script, args) {
  const node22 = join(peers, "node_modules/node/bin/node");
  return new Promise((resolve) => {
    const child = spawn(node22, [join(peers, "node_modules", script), ...args], { stdio: ["ignore", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.once("exit", (code) => resolve({ code: code ?? 1, stdout }));
  });
}

ensurePeers();
const service = await startService();
let code;
try {
  code = mode === "conformance" ? await conformance(service.base) : await inspector(service.base);
} finally {
  await service.stop();
}
process.exit(code);
