// Real service processes sharing one redis-server and the upstream emulator: the instance holding
// a fetch lease is killed in the middle of the fetch; another instance completes it once the lease
// expires, and its caller gets an answer, not a 5xx.
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { PROJECT_ROOT } from "../src/paths.js";
import { LEASE_MARGIN_MS } from "../src/sources/shared.js";
import { startStubUpstreams } from "../scripts/stub/upstreams.js";
import { freePort } from "./helpers/ports.js";
import { describeWithRedis, startRedis } from "./helpers/redis.js";
import { NO_RATE_LIMITS } from "./helpers/service.js";

const UPSTREAM_TIMEOUT_MS = 6_000;
const LEASE_MS = UPSTREAM_TIMEOUT_MS + LEASE_MARGIN_MS;

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  cleanups = [];
});

interface Proc {
  child: ChildProcess;
  base: string;
  out: () => string;
}

async function serviceProcess(env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...NO_RATE_LIMITS, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await gone;
    }
  });
  // Start-up compiles the service with tsx: over a minute when the machine is busy elsewhere.
  await expect.poll(() => out.includes('"msg":"listening"'), { timeout: 240_000, interval: 100 }).toBe(true);
  return { child, base: `http://127.0.0.1:${port}`, out: () => out };
}

describeWithRedis("a lease holder killed mid-fetch", () => {
  it("another instance completes the fetch within the lease TTL, and its caller gets a 200", async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    // Slow upstreams: every answer takes 3 s, so a fetch is under way when its holder is killed.
    const stub = await startStubUpstreams({ scenario: "calm", delayMs: 3_000, latencyScale: 0.01 });
    cleanups.push(() => stub.close());
    const env = { DATA_SOURCE: "live", REDIS_URL: redis.url, UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS), ERDDAP_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS), ...stub.env };

    // Both instances are up before the fetch starts, so B's start-up is not part of what is timed.
    const [a, b] = await Promise.all([serviceProcess(env), serviceProcess(env)]);
    // A caller asks A; once the emulator has A's weather request, A holds that region's leases.
    const first = fetch(`${a.base}/api/v1/conditions?spot=hanauma-bay`, { signal: AbortSignal.timeout(90_000) }).catch((e: unknown) => e);
    await expect.poll(() => stub.requests.some((r) => r.upstream === "marine"), { timeout: 60_000, interval: 50 }).toBe(true);
    a.child.kill("SIGKILL");
    const killedAt = performance.now();
    stub.delayMs = 0;
    // A's own caller loses the connection (the process is gone), never a 5xx answer.
    expect(await first).toBeInstanceOf(Error);

    const res = await fetch(`${b.base}/api/v1/conditions?spot=hanauma-bay`, { signal: AbortSignal.timeout(90_000) });
    const body = (await res.json()) as { data_quality: { freshness: string }; sources: string[] };
    expect(res.status).toBe(200);
    expect(body.data_quality.freshness).toBe("live");
    expect(body.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "open-meteo:forecast"]));
    // B waited on the dead holder's lease rather than fetching beside it, then fetched once itself:
    // answered once the lease ran out.
    const waited = performance.now() - killedAt;
    expect(waited).toBeGreaterThan(LEASE_MS / 2);
    expect(waited).toBeLessThan(LEASE_MS + 45_000);
    expect(stub.requests.filter((r) => r.upstream === "marine")).toHaveLength(2);
    expect(b.out()).not.toMatch(/"level":50/);
  }, 600_000);
});
