// Graceful shutdown of the real process: SIGTERM while a request is in flight (held by a slow
// upstream) lets that request finish with a full answer, refuses new connections, and exits 0.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { startStubUpstreams } from "../scripts/stub/upstreams.js";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { freePort } from "./helpers/ports.js";
import { SERVICE_ARGS } from "./helpers/process.js";

describe("graceful shutdown", () => {
  it("finishes in-flight requests, stops accepting, and exits 0 on SIGTERM", async () => {
    const stub = await startStubUpstreams({ scenario: "calm", now: () => new Date(), delayMs: 1500 });
    const port = await freePort();
    const child = spawn(process.execPath, SERVICE_ARGS, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...stub.env, PORT: String(port), HOST: "127.0.0.1", DATA_SOURCE: "live", UPSTREAM_TIMEOUT_MS: "8000", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await expect.poll(() => output.includes('"msg":"listening"'), { timeout: 90_000, interval: 50 }).toBe(true);
      const base = `http://127.0.0.1:${port}`;
      // Ready once the start-up warm-up is done.
      await expect.poll(async () => (await fetch(`${base}/readyz`)).status, { timeout: 30_000, interval: 200 }).toBe(200);

      const upstreamCalls = () => Object.values(stub.calls).reduce((a, b) => a + b, 0);
      const before = upstreamCalls();
      const started = performance.now();
      const inFlight = fetch(`${base}/api/v1/conditions?spot=hanauma-bay`).then(async (r) => ({ status: r.status, body: (await r.json()) as { sources: string[] } }));
      // SIGTERM once the service is provably working on the request (its upstream call reached the
      // stub, which holds it 1.5 s), not after a fixed pause a busy machine may outrun.
      await expect.poll(upstreamCalls, { timeout: 20_000, interval: 20 }).toBeGreaterThan(before);
      child.kill("SIGTERM");

      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body.sources).toContain("open-meteo:marine");
      expect(performance.now() - started).toBeGreaterThan(1400);
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
      expect(await exited).toBe(0);
      expect(output).toContain("shutting down: finishing in-flight requests");
      expect(output).toContain("shut down cleanly");
    } finally {
      child.kill("SIGKILL");
      await stub.close();
    }
  }, 180_000);
});
