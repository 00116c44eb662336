// The published artefacts, checked the way a user meets them (npm run package:check, run by .ci/run):
//   1. npm pack (prepack builds from scratch, beside dist/, which stays) and install the tarball into an empty directory with
//      --omit=dev; no dev dependency may be present.
//   2. `npx ocean-conditions` serves HTTP: /readyz, a conditions answer, and a /server.json valid
//      against the registry's schema.
//   3. `npx ocean-conditions --stdio` speaks MCP: tools/list and one recommend_spot call.
//   4. The MCP Bundle: the tarball's contents plus `npm ci --omit=dev` plus manifest.json;
//      `mcpb validate` and `mcpb pack`, the .mcpb's size, then the bundle unpacked and started the
//      way a desktop host starts it (the manifest's mcp_config) for a tools/list.
//   5. The checked-in server.json against the registry's schema.
// Offline data (DATA_SOURCE=offline) throughout, so the check never depends on the upstreams.
// Prints one line per step; exits non-zero on the first failure. --keep leaves the work directory.
/* global fetch, AbortSignal */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";
import { buildBundle, bundleName } from "./pack-mcpb.mjs";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";

const root = new URL("..", import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const work = mkdtempSync(join(tmpdir(), "ocean-package-check-"));
const keep = process.argv.includes("--keep");
const TOOL_NAMES = ["get_conditions", "list_coverage", "recommend_spot", "best_day"];
const SPOT = "shelly-beach-manly";
const BUILD_TOOLS = ["typescript", "tsx", "vitest", "eslint", "esbuild", "@anthropic-ai/mcpb"];
const children = new Set();

const step = (msg) => console.log(`package-check: ${msg}`);
function fail(msg) {
  throw new Error(msg);
}
function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 600_000, ...opts });
}
const npm = (args, cwd) => run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=warn"], { cwd });

function registryValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(join(root, "test/fixtures/registry-server.schema.json"), "utf8")));
}
function mustValidate(doc, what) {
  const validate = registryValidator();
  if (!validate(doc)) fail(`${what} fails the registry schema: ${JSON.stringify(validate.errors)}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitReady(base, child, deadlineMs) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) fail(`the HTTP server exited with ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  fail(`${base}/readyz did not answer 200 within ${deadlineMs / 1000} s`);
}

/** Stops a server started in its own process group (npx and the node it runs), SIGKILL after 30 s. */
async function stop(child) {
  children.delete(child);
  const group = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", r));
  group("SIGTERM");
  const timer = setTimeout(() => group("SIGKILL"), 30_000);
  await exited;
  clearTimeout(timer);
}

/** Connects the official MCP client to a stdio command, lists the tools and (optionally) asks one question. */
async function stdioSession(command, args, cwd, env, ask) {
  const transport = new StdioClientTransport({ command, args, cwd, env: { ...process.env, ...env }, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name: "package-check", version: pkg.version });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    if (JSON.stringify(names) !== JSON.stringify(TOOL_NAMES)) fail(`tools/list gave ${JSON.stringify(names)}`);
    if (!ask) return names;
    const r = await client.callTool({ name: "recommend_spot", arguments: { activity: "snorkel", region: "us-hi-kona", limit: 1 } });
    if (r.isError || r.structuredContent?.schema !== "service.recommendation.v1") fail(`recommend_spot answered ${JSON.stringify(r).slice(0, 300)}`);
    return names;
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : e}\n--- server stderr ---\n${stderr.slice(-2000)}`, { cause: e });
  } finally {
    await client.close().catch(() => {});
  }
}

async function main() {
  step(`working in ${work}`);

  // 1. The tarball, installed into an empty directory with production dependencies only.
  // prepack builds beside dist/ and brings the build in file by file: dist/ must survive npm pack.
  const distBefore = existsSync(join(root, "dist")) ? statSync(join(root, "dist")).ino : null;
  const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work, "--loglevel=warn"], { cwd: root }));
  if (distBefore !== null && statSync(join(root, "dist"), { throwIfNoEntry: false })?.ino !== distBefore) fail("npm pack replaced dist/ in the checkout");
  if (distBefore !== null) step("npm pack left the checkout's dist/ in place (prepack builds beside it)");
  const tarball = join(work, packed[0].filename);
  step(`packed ${packed[0].filename}: ${packed[0].entryCount} files, ${(packed[0].size / 1024).toFixed(0)} KB`);
  const app = join(work, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "ocean-conditions-install-check", version: "0.0.0", private: true }));
  npm(["install", "--omit=dev", tarball], app);
  // The toolchain must be absent: everything below then runs without TypeScript, tsx or the test tools.
  const present = BUILD_TOOLS.filter((d) => existsSync(join(app, "node_modules", d)));
  if (present.length) fail(`build tools installed with --omit=dev: ${present.join(", ")}`);
  step(`installed into an empty directory with --omit=dev (no ${BUILD_TOOLS.join(", ")})`);

  // 2. npx ocean-conditions: HTTP.
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_BASE_URL: base, DATA_SOURCE: "offline", LOG_LEVEL: "warn" };
  // Its own process group: npx does not pass SIGTERM on to the server it started.
  const http = spawn("npx", ["--no-install", "ocean-conditions"], { cwd: app, env, stdio: ["ignore", "inherit", "inherit"], detached: true });
  children.add(http);
  try {
    await waitReady(base, http, 120_000);
    const res = await fetch(`${base}/api/v1/conditions?spot=${SPOT}`);
    const body = await res.json();
    if (res.status !== 200 || body.schema !== "service.conditions.v1" || body.spot?.id !== SPOT) {
      fail(`GET /api/v1/conditions?spot=${SPOT} gave ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
    step(
      `npx ocean-conditions: HTTP 200 ${body.schema} for ${body.spot.name}: now ${body.now?.rating} (${body.now?.score}), ${body.periods?.length ?? 0} periods, ${body.range?.from}..${body.range?.to}`,
    );
    const served = await (await fetch(`${base}/server.json`)).json();
    mustValidate(served, "GET /server.json");
    if (served.remotes?.[0]?.url !== `${base}/mcp`) fail(`GET /server.json names ${served.remotes?.[0]?.url} as the remote`);
    step(`npx ocean-conditions: GET /server.json is valid with ${base}/mcp as the remote`);
  } finally {
    await stop(http);
  }

  // 3. npx ocean-conditions --stdio: MCP.
  await stdioSession("npx", ["--no-install", "ocean-conditions", "--stdio"], app, { DATA_SOURCE: "offline", LOG_LEVEL: "warn" }, true);
  step(`npx ocean-conditions --stdio: tools/list gave ${TOOL_NAMES.join(", ")}; recommend_spot answered`);

  // 4. The MCP Bundle, built as `npm run pack:mcpb` builds it (scripts/pack-mcpb.mjs).
  const bundle = join(work, bundleName());
  const { size } = buildBundle(tarball, work, bundle);
  step("mcpb validate manifest.json: valid");
  step(`mcpb pack: ${bundle} is ${(size / 1024 / 1024).toFixed(1)} MB (${size} bytes)`);
  const mcpb = join(root, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");
  const unpacked = join(work, "unpacked");
  run(process.execPath, [mcpb, "unpack", bundle, unpacked], { stdio: ["ignore", "pipe", "inherit"] });
  const manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8"));
  const launch = await getMcpConfigForManifest({ manifest, extensionPath: unpacked, systemDirs: {}, userConfig: { data_source: "offline" }, pathSeparator: "/" });
  if (!launch) fail("mcpb could not make a launch configuration from the manifest");
  if (launch.env.OPEN_METEO_API_KEY !== "") fail(`an unset API key reaches the server as ${JSON.stringify(launch.env.OPEN_METEO_API_KEY)}`);
  const command = launch.command === "node" ? process.execPath : launch.command;
  await stdioSession(command, launch.args, unpacked, { ...launch.env, LOG_LEVEL: "warn" }, false);
  step(`bundle started as a desktop host starts it (${launch.command} ${launch.args.map((a) => a.replace(unpacked, "<bundle>")).join(" ")}): tools/list gave ${TOOL_NAMES.length} tools`);

  // 5. The checked-in server.json.
  mustValidate(JSON.parse(readFileSync(join(root, "server.json"), "utf8")), "server.json");
  step("server.json: valid against the registry schema (2025-12-11)");
}

try {
  await main();
  step("all checks passed");
} catch (e) {
  console.error(`package-check: FAILED: ${e instanceof Error ? e.message : e}`);
  process.exitCode = 1;
} finally {
  for (const c of children) await stop(c);
  if (keep) step(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
