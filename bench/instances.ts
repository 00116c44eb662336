// Upstream requests per hour with 1 and 3 instances sharing one redis-server, against the upstream
// emulator (npm run bench:instances), and three processes without Redis for comparison. The workload is every
// spot's conditions and every region × activity decision of the shipped catalogue, spread
// round-robin over the instances and sent at once. Two measurements, one JSON line per run:
// - real processes (`src/main.ts`, the system clock): the cold hour, the workload sent twice in a
//   row (the second pass should reach no upstream), each process taking traffic once warmed up;
// - in one process with pinned clocks (real processes cannot be moved in time): the workload at
//   :00 and :30 of two hours, with the refresh-ahead run at :40 and :57 as its ticker would. Hour 1
//   starts cold; hour 2 is the steady state.
// And what a lease waiter costs: two instances wait on a third's 300 ms fetch, told by pub/sub or
// polling; how long after the holder's answer they have it, and the Redis commands the wait takes.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ACTIVITY_IDS } from "../src/base/activities.js";
import { Catalog } from "../src/catalog/catalog.js";
import { FixedClock } from "../src/base/clock.js";
import { loadConfig } from "../src/base/config.js";
import { createContext } from "../src/compose.js";
import type { ServiceContext } from "../src/services/context.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/base/logger.js";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { RedisLink, SharedAnswers, Wakeups } from "../src/sources/shared.js";
import { startStubUpstreams, STUB_UPSTREAMS, type StubUpstreams } from "../scripts/stub/upstreams.js";
import { START as START_COMMAND } from "./start-command.js";

const START = Date.parse("2026-11-21T19:00:00Z");
const MIN = 60_000;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

async function redisServer(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "ignore"] });
  await new Promise<void>((resolve) => proc.stdout.on("data", (d: Buffer) => d.toString().includes("Ready to accept") && resolve()));
  return { url: `redis://127.0.0.1:${port}`, stop: () => proc.kill("SIGTERM") };
}

interface Instance {
  ctx: ServiceContext;
  clock: FixedClock;
  base: string;
  close(): Promise<void>;
}

async function instance(stub: StubUpstreams, redisUrl: string | null): Promise<Instance> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    ...stub.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_BASE_URL: base,
    DATA_SOURCE: "live",
    LOG_LEVEL: "silent",
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    RATE_LIMIT_FACTS_PER_HOUR: "0",
    RATE_LIMIT_FACTS_PER_DAY: "0",
    RATE_LIMIT_SPOTS_PER_HOUR: "0",
    RATE_LIMIT_SPOTS_PER_DAY: "0",
    RATE_LIMIT_DECISIONS_BURST: "0",
  });
  const clock = new FixedClock(new Date(START));
  const ctx = createContext({ config, clock, log: createLogger("silent"), catalog: Catalog.load() });
  const server = createServer(createApp(ctx));
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  const redis = ctx.redis;
  if (redis && redis.status !== "ready") await new Promise((r) => redis.once("ready", r));
  return {
    ctx,
    clock,
    base,
    async close() {
      await ctx.upstreams?.settled();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await ctx.close();
    },
  };
}

/** Sends the workload round-robin to these base URLs; answers' statuses, counted. */
async function send(bases: string[], cat: Catalog): Promise<Record<number, number>> {
  const paths = [...cat.spots.map((s) => `/api/v1/conditions?spot=${s.id}`), ...cat.regions.flatMap((r) => ACTIVITY_IDS.map((a) => `/api/v1/recommendations?activity=${a}&region=${r.id}`))];
  const statuses = await Promise.all(paths.map((p, i) => fetch(bases[i % bases.length]! + p).then(async (r) => (await r.arrayBuffer(), r.status))));
  const counted: Record<number, number> = {};
  for (const st of statuses) counted[st] = (counted[st] ?? 0) + 1;
  return counted;
}

async function workload(instances: Instance[]): Promise<void> {
  const statuses = await send(
    instances.map((i) => i.base),
    instances[0]!.ctx.catalog,
  );
  if (Object.keys(statuses).some((st) => st !== "200")) throw new Error(`non-200 answers: ${JSON.stringify(statuses)}`);
  await Promise.all(instances.map((i) => i.ctx.upstreams!.settled()));
}

const total = (stub: StubUpstreams) => STUB_UPSTREAMS.reduce((a, u) => a + stub.calls[u], 0);

async function run(n: number, shared: boolean): Promise<void> {
  const redis = shared ? await redisServer() : null;
  const instances: Instance[] = [];
  const stub = await startStubUpstreams({ scenario: "calm", now: () => instances[0]!.clock.now(), latencyScale: 0.01 });
  for (let i = 0; i < n; i++) instances.push(await instance(stub, redis?.url ?? null));
  const at = (minutes: number) => instances.forEach((i) => i.clock.set(START + minutes * MIN));
  const hours: Record<string, number>[] = [];
  for (const h of [0, 1]) {
    const before = Object.fromEntries(STUB_UPSTREAMS.map((u) => [u, stub.calls[u]]));
    const totalBefore = total(stub);
    for (const m of [0, 30]) {
      at(h * 60 + m);
      await workload(instances);
    }
    for (const m of [40, 57]) {
      at(h * 60 + m);
      await Promise.all(instances.map((i) => i.ctx.upstreams!.refreshAhead()));
    }
    hours.push({ ...Object.fromEntries(STUB_UPSTREAMS.map((u) => [u, stub.calls[u] - before[u]!])), total: total(stub) - totalBefore });
  }
  const refused = stub.openMeteo.counters.refused;
  // What the shared answers take in Redis: bytes per stored upstream answer, by upstream.
  const bytes = redis ? await redisBytes(redis.url) : null;
  console.log(
    JSON.stringify({
      mode: "in-process, pinned clocks",
      instances: n,
      redis: shared,
      spots: instances[0]!.ctx.catalog.spots.length,
      regions: instances[0]!.ctx.catalog.regions.length,
      hour1_cold: hours[0],
      hour2_steady: hours[1],
      open_meteo_429s: Object.values(refused).reduce((a, b) => a + b, 0),
      open_meteo_max_in_flight: stub.openMeteo.counters.maxInFlight,
      redis_max_bytes_per_answer: bytes,
    }),
  );
  for (const i of instances) await i.close();
  await stub.close();
  redis?.stop();
}

/** What one upstream answer takes in Redis, by upstream (the largest seen). */
async function redisBytes(url: string): Promise<Record<string, number>> {
  const { Redis } = await import("ioredis");
  const r = new Redis(url);
  const out: Record<string, number> = {};
  for (const key of await r.keys("oc:up:*")) {
    const upstream = key.split(":")[2]!;
    out[upstream] = Math.max(out[upstream] ?? 0, Number(await r.call("MEMORY", "USAGE", key)));
  }
  r.disconnect();
  return out;
}

/** The process `npm start` runs, on a free port, resolved once it has warmed up (as a balancer waits for /readyz). */
async function serviceProcess(stub: StubUpstreams, redisUrl: string | null): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, START_COMMAND.args, {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      ...START_COMMAND.env,
      ...stub.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_SOURCE: "live",
      LOG_LEVEL: "info",
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      RATE_LIMIT_FACTS_PER_HOUR: "0",
      RATE_LIMIT_FACTS_PER_DAY: "0",
      RATE_LIMIT_SPOTS_PER_HOUR: "0",
      RATE_LIMIT_SPOTS_PER_DAY: "0",
      RATE_LIMIT_DECISIONS_BURST: "0",
    },
    stdio: ["ignore", "pipe", "ignore"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes('"msg":"warmed up: ready"')) resolve();
    });
    child.once("exit", (code) => reject(new Error(`service exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${port}`, child };
}

/** Until the emulator has seen no new request for 3 s (background satellite fetches included). */
async function quiet(stub: StubUpstreams): Promise<void> {
  let last = -1;
  for (;;) {
    const t = total(stub);
    if (t === last) return;
    last = t;
    await new Promise((r) => setTimeout(r, 3_000));
  }
}

async function runProcesses(n: number, shared: boolean): Promise<void> {
  const redis = shared ? await redisServer() : null;
  const stub = await startStubUpstreams({ scenario: "calm", latencyScale: 0.01 });
  const procs = await Promise.all(Array.from({ length: n }, () => serviceProcess(stub, redis?.url ?? null)));
  const cat = Catalog.load();
  const started = new Date().toISOString();
  const passes: Record<string, unknown>[] = [];
  for (let pass = 0; pass < 2; pass++) {
    const before = Object.fromEntries(STUB_UPSTREAMS.map((u) => [u, stub.calls[u]]));
    const totalBefore = total(stub);
    const statuses = await send(
      procs.map((p) => p.base),
      cat,
    );
    await quiet(stub);
    passes.push({ ...Object.fromEntries(STUB_UPSTREAMS.map((u) => [u, stub.calls[u] - before[u]!])), total: total(stub) - totalBefore, statuses });
  }
  const refused = stub.openMeteo.counters.refused;
  console.log(
    JSON.stringify({
      mode: "processes",
      instances: n,
      redis: shared,
      spots: cat.spots.length,
      regions: cat.regions.length,
      started,
      ended: new Date().toISOString(),
      cold: passes[0],
      again: passes[1],
      open_meteo_429s: Object.values(refused).reduce((a, b) => a + b, 0),
      open_meteo_max_in_flight: stub.openMeteo.counters.maxInFlight,
      redis_max_bytes_per_answer: redis ? await redisBytes(redis.url) : null,
    }),
  );
  for (const p of procs) p.child.kill("SIGTERM");
  await stub.close();
  redis?.stop();
}

/** Lease waits, told (pub/sub) or polling: ROUNDS keys, each fetched by one instance while two wait. */
async function leaseWait(told: boolean): Promise<void> {
  const { Redis } = await import("ioredis");
  const redis = await redisServer();
  const conns: InstanceType<typeof Redis>[] = [];
  const answers = async () => {
    const r = new Redis(redis.url, { enableOfflineQueue: false });
    conns.push(r);
    const wakeups = told ? new Wakeups(r) : null;
    await new Promise((resolve) => r.once("ready", resolve));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the subscriber connection too
    return new SharedAnswers({ link: new RedisLink(r), wakeups, leaseMs: 30_000, maxStaleMs: 3_600_000, now: () => new Date() });
  };
  const [holder, ...waiters] = [await answers(), await answers(), await answers()];
  const stats = new Redis(redis.url);
  const commands = async () => Number(/total_commands_processed:(\d+)/.exec(await stats.info("stats"))?.[1] ?? 0);
  const ROUNDS = 20;
  const FETCH_MS = 300;
  const lags: number[] = [];
  const before = await commands();
  for (let k = 0; k < ROUNDS; k++) {
    let done = 0;
    const holding = holder.load("bench", `g${k}`, 0, 3_600_000, () => new Promise((r) => setTimeout(() => ((done = performance.now()), r(k)), FETCH_MS)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const waiting = waiters.map((w) => w.load("bench", `g${k}`, 0, 3_600_000, () => Promise.reject(new Error("fetched twice"))).then(() => performance.now() - done));
    await holding;
    lags.push(...(await Promise.all(waiting)));
  }
  const used = (await commands()) - before;
  lags.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      mode: "lease wait",
      waiters_told_by: told ? "pub/sub" : "polling",
      rounds: ROUNDS,
      fetch_ms: FETCH_MS,
      answer_after_holder_ms: { median: Math.round(lags[lags.length >> 1]! * 10) / 10, max: Math.round(lags.at(-1)! * 10) / 10 },
      redis_commands_per_round: Math.round(used / ROUNDS),
    }),
  );
  for (const c of [...conns, stats]) c.disconnect();
  redis.stop();
}

await leaseWait(true);
await leaseWait(false);
await runProcesses(1, true);
await runProcesses(3, true);
// For comparison: three instances without REDIS_URL, each on its own.
await runProcesses(3, false);
await run(1, true);
await run(3, true);
