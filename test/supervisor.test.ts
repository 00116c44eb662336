// The real process under a supervisor whose log reader stops reading: the service keeps answering,
// drops the log lines it cannot write (and says so once the reader is back), and SIGTERM still
// ends it within the grace period. Also: readiness waits for the start-up warm-up.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SHUTDOWN_GRACE_MS } from "../src/http/shutdown.js";
import { LOG_QUEUE_BYTES } from "../src/base/logger.js";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { freePort } from "./helpers/ports.js";
import { SERVICE_ARGS } from "./helpers/process.js";

const exitOf = (child: ChildProcess) => new Promise<{ code: number | null; at: number }>((resolve) => child.on("exit", (code) => resolve({ code, at: performance.now() })));

/** Log lines of this size (a 404's route is logged) fill the pipe and the bounded queue in a few hundred requests. */
const LONG_PATH = `/${"x".repeat(4000)}`;
const CALLS_TO_OVERFLOW = Math.ceil((LOG_QUEUE_BYTES + 256 * 1024) / 4000) + 50;

describe("a log reader that stops reading", () => {
  it("HTTP: requests keep being answered, and SIGTERM exits within the grace period", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, SERVICE_ARGS, {
      cwd: PROJECT_ROOT,
      // Hundreds of requests from one address as fast as they go: no per-address budget here.
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_SOURCE: "offline", LOG_LEVEL: "info", MAX_REQUESTS_PER_SECOND_PER_IP: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = exitOf(child);
    let out = "";
    const onData = (d: Buffer) => (out += d.toString());
    child.stdout!.on("data", onData);
    const base = `http://127.0.0.1:${port}`;
    try {
      await expect.poll(() => out.includes('"msg":"listening"'), { timeout: 30_000, interval: 100 }).toBe(true);
      await expect.poll(async () => (await fetch(`${base}/readyz`).catch(() => null))?.status, { timeout: 30_000, interval: 200 }).toBe(200);
      expect(out).toContain('"msg":"warmed up: ready"');

      // The reader stops: nothing more is read from the process's stdout.
      child.stdout!.off("data", onData);
      child.stdout!.pause();
      for (let i = 0; i < CALLS_TO_OVERFLOW; i += 10) {
        const batch = await Promise.all(Array.from({ length: 10 }, () => fetch(`${base}${LONG_PATH}`, { signal: AbortSignal.timeout(20_000) }).then((r) => r.status)));
        expect(batch.every((s) => s === 404)).toBe(true);
      }
      // Still answering, at its normal speed, with the log pipe full.
      const t0 = performance.now();
      const answer = await fetch(`${base}/api/v1/conditions?spot=hanauma-bay`, { signal: AbortSignal.timeout(20_000) });
      expect(answer.status).toBe(200);
      expect(performance.now() - t0).toBeLessThan(5_000);

      const signalled = performance.now();
      child.kill("SIGTERM");
      const { code, at } = await exited;
      expect(code).toBe(0);
      expect(at - signalled).toBeLessThan(SHUTDOWN_GRACE_MS);
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);

  it("stdio: tool calls keep being answered while stderr is not read", async () => {
    const child = spawn(process.execPath, [...SERVICE_ARGS, "--stdio"], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_SOURCE: "offline", LOG_LEVEL: "info" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = exitOf(child);
    child.stderr!.pause(); // never read
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    const send = (msg: unknown) => child.stdin!.write(`${typeof msg === "string" ? msg : JSON.stringify(msg)}\n`);
    try {
      send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "supervisor-test", version: "1" } } });
      await expect.poll(() => out.includes('"id":1'), { timeout: 30_000, interval: 100 }).toBe(true);
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      // Each invalid message is logged with its validation error (a few KB): far more than the pipe and the queue hold.
      for (let i = 0; i < 1500; i++) send({ jsonrpc: "1.0", bad: i });
      send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_conditions", arguments: { spot: "hanauma-bay" } } });
      await expect.poll(() => out.includes('"id":2'), { timeout: 60_000, interval: 100 }).toBe(true);
      const reply = JSON.parse(out.split("\n").find((l) => l.includes('"id":2'))!) as { result: { structuredContent: { schema: string } } };
      expect(reply.result.structuredContent.schema).toBe("service.conditions.v1");

      const signalled = performance.now();
      child.kill("SIGTERM");
      const { at } = await exited;
      expect(at - signalled).toBeLessThan(SHUTDOWN_GRACE_MS);
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);
});

describe("npm start under a supervisor", () => {
  // npm runs the start script through a shell; SIGTERM to npm ends npm and the shell, and the server
  // used to be handed to init and keep serving on its port, so a restart failed with EADDRINUSE.
  it.each(["SIGTERM", "SIGKILL"] as const)(
    "%s to the npm process ends the server and frees its port",
    async (signal) => {
      const port = await freePort();
      const npm = spawn("npm", ["start", "--silent"], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_SOURCE: "offline", LOG_LEVEL: "info" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      npm.stdout!.on("data", (d: Buffer) => (out += d.toString()));
      const base = `http://127.0.0.1:${port}`;
      let serverPid: number | undefined;
      try {
        // The first start may compile the build (prestart).
        await expect.poll(() => out.includes('"msg":"listening"'), { timeout: 150_000, interval: 200 }).toBe(true);
        // The server is below npm (and the shell npm starts), not npm itself.
        serverPid = descendants(npm.pid!).find((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("dist/src/main.js"));
        expect(serverPid).toBeDefined();
        expect((await fetch(`${base}/healthz`)).status).toBe(200);

        // SIGKILL leaves npm's shell behind, still the server's parent: the server watches npm itself.
        npm.kill(signal);
        await expect.poll(() => out.includes('"msg":"shut down cleanly"'), { timeout: 30_000, interval: 200 }).toBe(true);
        await expect.poll(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status ?? "closed", { timeout: 30_000, interval: 200 }).toBe("closed");
        await expect.poll(() => alive(serverPid!), { timeout: 30_000, interval: 200 }).toBe(false);
      } finally {
        npm.kill("SIGKILL");
        if (serverPid !== undefined && alive(serverPid)) process.kill(serverPid, "SIGKILL");
      }
    },
    240_000,
  );
});

/** Every process below `pid` (Linux /proc). */
function descendants(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
