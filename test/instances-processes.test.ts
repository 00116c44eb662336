// Real service processes (the compiled `dist/src/main.js`, the system clock) sharing one redis-server and the
// upstream emulator: three instances take the workload of one for the same upstream requests and
// no 429s; and the instance holding a fetch lease is killed in the middle of the fetch, another
// instance completes it once the lease expires, and its caller gets an answer, not a 5xx.
import { spawn, type ChildProcess } from "node:child_process";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { ACTIVITY_IDS } from "../src/base/activities.js";
import { Catalog } from "../src/catalog/catalog.js";
import { DAY_MS, HOUR_MS } from "../src/base/clock.js";
import { OPEN_METEO_FREE_TIER } from "../src/base/upstream-limits.js";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { REFRESH_AHEAD_MS, REFRESH_TICK_MS } from "../src/sources/live.js";
import { LEASE_MARGIN_MS } from "../src/sources/shared.js";
import { startStubUpstreams, STUB_UPSTREAMS, type StubUpstreams } from "../scripts/stub/upstreams.js";
import { TEST_LATENCY_SCALE } from "./helpers/live.js";
import { freePort } from "./helpers/ports.js";
import { describeWithRedis, startRedis } from "./helpers/redis.js";
import { NO_RATE_LIMITS } from "./helpers/service.js";
import { regionsWithinMinute } from "./helpers/catalog.js";
import { SERVICE_ARGS } from "./helpers/process.js";

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
  const child = spawn(process.execPath, SERVICE_ARGS, {
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
  // Start-up loads the whole service: up to a minute when the machine is busy elsewhere.
  await expect.poll(() => out.includes('"msg":"listening"'), { timeout: 240_000, interval: 100 }).toBe(true);
  return { child, base: `http://127.0.0.1:${port}`, out: () => out };
}

/** Waits until the process has warmed up (/readyz 200), as a load balancer would. */
async function ready(p: Proc): Promise<Proc> {
  await expect.poll(() => p.out().includes('"msg":"warmed up: ready"'), { timeout: 120_000, interval: 200 }).toBe(true);
  return p;
}

/** Stops a process and waits for it to be gone. */
async function stop(p: Proc): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const gone = new Promise((resolve) => p.child.once("exit", resolve));
  p.child.kill("SIGKILL");
  await gone;
}

/** Until the emulator has seen no new request for 3 s (background satellite fetches included). */
async function quiet(stub: StubUpstreams): Promise<void> {
  const total = () => STUB_UPSTREAMS.reduce((a, u) => a + stub.calls[u], 0);
  let last = -1;
  let since = performance.now();
  await expect
    .poll(
      () => {
        const t = total();
        if (t !== last) [last, since] = [t, performance.now()];
        return performance.now() - since >= 3_000;
      },
      { timeout: 120_000, interval: 250 },
    )
    .toBe(true);
}

/**
 * Every spot's conditions and every region × activity decision, 96 at a time, spread
 * round-robin over the processes (the test is the load balancer). Returns the statuses and the
 * UTC hours it could have fetched for: the hours it ran in, and the next one when it ran within
 * the refresh-ahead span of the hour's end.
 */
async function workload(procs: Proc[], stub: StubUpstreams): Promise<{ statuses: number[]; refused: string[]; hours: number }> {
  // Regions weighing at most half of Open-Meteo's calls a minute: the rest is the validation
  // hindcast's tenth and room, so a refusal here is never the quota (which is not what this measures).
  const regions = regionsWithinMinute(0.5);
  const cat = new Catalog(Catalog.readRecords().filter((x) => regions.includes(x.id)));
  const paths = [...cat.spots.map((s) => `/api/v1/conditions?spot=${s.id}`), ...cat.regions.flatMap((r) => ACTIVITY_IDS.map((a) => `/api/v1/recommendations?activity=${a}&region=${r.id}`))];
  const started = Date.now();
  // Like a load balancer's connection pool: at most IN_FLIGHT requests at once (each process caps
  // connections per address at 256, and a balancer is one address).
  const IN_FLIGHT = 96;
  const statuses: number[] = new Array<number>(paths.length);
  // What a refused request was told, so a failure says why (the problem's code and detail).
  const refused: string[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < paths.length; i = next++) {
      const r = await fetch(procs[i % procs.length]!.base + paths[i], { signal: AbortSignal.timeout(120_000) });
      const body = await r.text();
      statuses[i] = r.status;
      if (r.status !== 200) refused.push(`${paths[i]} ${r.status}: ${body.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  await quiet(stub);
  const ended = Date.now() + REFRESH_AHEAD_MS + REFRESH_TICK_MS;
  return { statuses, refused, hours: Math.floor(ended / HOUR_MS) - Math.floor(started / HOUR_MS) + 1 };
}

describeWithRedis("three service processes sharing one Redis", () => {
  it("take the workload of one for at most one more upstream request per (upstream, group, hour), and no 429s", async () => {
    const [r1, r3] = [await startRedis(), await startRedis()];
    cleanups.push(
      () => r1.stop(),
      () => r3.stop(),
    );
    const stub1 = await startStubUpstreams({ scenario: "calm", latencyScale: TEST_LATENCY_SCALE });
    const stub3 = await startStubUpstreams({ scenario: "calm", latencyScale: TEST_LATENCY_SCALE });
    cleanups.push(
      () => stub1.close(),
      () => stub3.close(),
    );
    // The upstream timeout is the test's own, at its ceiling: the emulator answers within its scaled
    // latency, so a refusal can only come from the emulator, never from a machine too busy to read
    // the answer within 8 s (which made this test fail under load with 503 data_unavailable).
    const env = (stub: StubUpstreams, url: string) => ({ DATA_SOURCE: "live", REDIS_URL: url, UPSTREAM_TIMEOUT_MS: "120000", ERDDAP_TIMEOUT_MS: "120000", ...stub.env });
    // All four start at once (start-up is the slow part on a busy machine); each takes traffic once warm.
    const [one, ...three] = await Promise.all([serviceProcess(env(stub1, r1.url)).then(ready), ...[0, 1, 2].map(() => serviceProcess(env(stub3, r3.url)).then(ready))]);

    const single = await workload([one!], stub1);
    await stop(one!);
    const shared = await workload(three, stub3);
    // A refusal says why: what the caller was told, and the instances' warnings and errors.
    const why = (w: { refused: string[] }, procs: Proc[]) =>
      [
        ...w.refused.slice(0, 3),
        ...procs.flatMap((p) =>
          p
            .out()
            .split("\n")
            .filter((l) => /"level":(40|50)/.test(l))
            .slice(0, 5),
        ),
      ].join("\n");
    expect(new Set(single.statuses), why(single, [one!])).toEqual(new Set([200]));
    expect(new Set(shared.statuses), why(shared, three)).toEqual(new Set([200]));

    // Groups: regions (Open-Meteo, ERDDAP) and tide stations (CO-OPS). Daily answers (CO-OPS,
    // ERDDAP) are asked once per UTC day, so the hours count for them only across midnight.
    const cat = Catalog.load();
    const groups = { marine: cat.regions.length, forecast: cat.regions.length, erddap: cat.regions.length, coops: new Set(cat.spots.map((s) => s.tide_station)).size };
    const daily = { marine: false, forecast: false, erddap: true, coops: true };
    const days = Math.floor((Date.now() + REFRESH_AHEAD_MS) / DAY_MS) === Math.floor(Date.now() / DAY_MS) ? 1 : 2;
    const report = STUB_UPSTREAMS.map((u) => ({ u, one: stub1.calls[u], three: stub3.calls[u], allowed: stub1.calls[u] + groups[u] * (daily[u] ? days : shared.hours) }));
    for (const r of report) expect(r.three, JSON.stringify(r)).toBeLessThanOrEqual(r.allowed);
    for (const r of report) expect(r.one, r.u).toBeGreaterThan(0);
    // Three processes on their own would each fetch every region: sharing keeps Open-Meteo near one's.
    expect(stub3.calls.marine + stub3.calls.forecast).toBeLessThan(3 * (stub1.calls.marine + stub1.calls.forecast));
    // No refusals, and never more Open-Meteo requests at once than the deployment's one client IP may send.
    for (const stub of [stub1, stub3]) {
      expect(Object.values(stub.openMeteo.counters.refused).reduce((a, b) => a + b, 0)).toBe(0);
      expect(stub.openMeteo.counters.maxInFlight).toBeLessThanOrEqual(OPEN_METEO_FREE_TIER.concurrency);
    }
    // The quota is counted once for the three: Redis's daily count is the emulator's weighted count.
    const client = new Redis(r3.url);
    cleanups.push(async () => void client.disconnect());
    const dayKeys = await client.keys("oc:quota:open-meteo:day:*");
    const counted = (await Promise.all(dayKeys.map((k) => client.get(k)))).reduce((a, v) => a + Number(v), 0);
    expect(counted).toBe(stub3.openMeteo.counters.weightedCalls);
    for (const p of three) expect(p.out()).not.toMatch(/"level":50/);
  }, 300_000);
});

describeWithRedis("a lease holder killed mid-fetch", () => {
  it("another instance completes the fetch within the lease TTL, and its caller gets a 200", async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    // Slow upstreams: every answer takes 3 s, so a fetch is under way when its holder is killed.
    const stub = await startStubUpstreams({ scenario: "calm", delayMs: 3_000, latencyScale: 0.01 });
    cleanups.push(() => stub.close());
    // Scoring satellite observations would add its own hindcast request to the marine count below.
    const env = { DATA_SOURCE: "live", REDIS_URL: redis.url, UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS), ERDDAP_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS), VALIDATION_SCORING: "off", ...stub.env };

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
