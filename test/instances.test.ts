// Several instances with REDIS_URL against one real redis-server and the upstream emulator, in one
// process with pinned clocks: last-good answers (satellite included) survive a restart, a dead
// lease holder's fetch is taken over after the lease TTL, a Redis outage falls back to each
// instance's own behaviour and sharing resumes when Redis is back, saying so in the log once each,
// and a shared upstream slot stays held for as long as its holder uses it. The 1-vs-3 comparison
// runs real processes: test/instances-processes.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { HOUR_MS, systemClock } from "../src/base/clock.js";
import { REFRESH_MS } from "../src/base/limits.js";
import { coopsStationId } from "../src/sources/coops.js";
import { MAX_STALE_MS } from "../src/sources/live.js";
import { callerTicket, UpstreamLane } from "../src/sources/scheduler.js";
import { LEASE_POLL_MS, RedisLink, RedisUpstreamBudget, SharedAnswers, Wakeups } from "../src/sources/shared.js";
import { startStubUpstreams, type StubUpstreams } from "../scripts/stub/upstreams.js";
import { ERDDAP_TEST_TIMEOUT_MS, TEST_LATENCY_SCALE } from "./helpers/live.js";
import { describeWithRedis, startRedis, type RedisServer } from "./helpers/redis.js";
import { Catalog } from "../src/catalog/catalog.js";
import { DATA_DIR } from "../src/base/paths.js";
import { DEFAULT_NOW, startService, type TestService } from "./helpers/service.js";
import { capturedLog } from "./helpers/log.js";

type Conditions = { data_quality: { freshness: string; visibility_source: string | null }; sources: string[] };

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  cleanups = [];
});

async function redisServer(): Promise<RedisServer> {
  const r = await startRedis();
  cleanups.push(() => r.stop());
  return r;
}

async function emulator(now: () => Date): Promise<StubUpstreams> {
  const stub = await startStubUpstreams({ scenario: "calm", now, delayMs: 0, latencyScale: TEST_LATENCY_SCALE });
  cleanups.push(() => stub.close());
  return stub;
}

interface Instance {
  svc: TestService;
  logs: string[];
}

/** One service instance pointed at the emulator (and at Redis when given), its log lines captured. */
async function instance(
  stub: StubUpstreams,
  redisUrl: string | null,
  now = DEFAULT_NOW,
  env: Record<string, string> = {},
  catalog?: { catalog: Catalog; protectedAreasFile: string },
): Promise<Instance> {
  const { log, lines: logs } = capturedLog();
  const svc = await startService({
    now,
    ...(catalog ?? {}),
    env: { DATA_SOURCE: "live", UPSTREAM_TIMEOUT_MS: "20000", ERDDAP_TIMEOUT_MS: String(ERDDAP_TEST_TIMEOUT_MS), ...stub.env, ...(redisUrl ? { REDIS_URL: redisUrl } : {}), ...env },
    log,
  });
  const r = svc.ctx.redis;
  if (r && r.status !== "ready") await new Promise<void>((resolve) => r.once("ready", () => resolve()));
  cleanups.push(async () => {
    await svc.ctx.upstreams?.settled();
    await svc.close();
  });
  return { svc, logs };
}

/** The Hawaiʻi regions alone, with the protected areas that name their spots (a file of its own). */
function hawaiiOnly(): { catalog: Catalog; protectedAreasFile: string } {
  const catalog = new Catalog(Catalog.readRecords().filter((r) => r.id.startsWith("us-hi-")));
  const all = JSON.parse(readFileSync(join(DATA_DIR, "protected-areas.json"), "utf8")) as { areas: { spots: string[] }[] };
  const areas = all.areas.map((a) => ({ ...a, spots: a.spots.filter((id) => catalog.spot(id)) })).filter((a) => a.spots.length > 0);
  const dir = mkdtempSync(join(tmpdir(), "oc-areas-"));
  const protectedAreasFile = join(dir, "protected-areas.json");
  writeFileSync(protectedAreasFile, JSON.stringify({ ...all, areas }));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return { catalog, protectedAreasFile };
}

describeWithRedis("several instances sharing one Redis", () => {
  it("after every instance restarts with the upstreams down, answers are the last-good ones from Redis, satellite included, with their age", async () => {
    const redis = await redisServer();
    let first: Instance | null = null;
    const stub = await emulator(() => first!.svc.clock.now());
    first = await instance(stub, redis.url);
    const fresh = await first.svc.json<Conditions>("/api/v1/conditions?spot=hanauma-bay");
    expect({ status: fresh.status, freshness: fresh.body.data_quality.freshness }).toEqual({ status: 200, freshness: "live" });
    // The satellite answer is fetched behind the caller; once in, the next answer uses it.
    await first.svc.ctx.upstreams!.settled();
    const withSatellite = await first.svc.json<Conditions>("/api/v1/conditions?spot=hanauma-bay");
    expect(withSatellite.body.data_quality.visibility_source).toBe("satellite");
    const satelliteSource = withSatellite.body.sources.find((s) => s.startsWith("erddap:"));
    expect(satelliteSource).toBeDefined();
    await first.svc.close();

    // Every upstream is down from now on (the emulator is gone); instances start 7 and 30 hours
    // later: the next UTC day, so even the daily satellite answer is from an earlier period.
    await stub.close();
    for (const [hours, freshness] of [
      [7, "aging"],
      [30, "stale"],
    ] as const) {
      const at = new Date(Date.parse(DEFAULT_NOW) + hours * HOUR_MS).toISOString();
      const later = await instance(stub, redis.url, at);
      const again = await later.svc.json<Conditions>("/api/v1/conditions?spot=hanauma-bay");
      expect({ hours, status: again.status, freshness: again.body.data_quality.freshness }).toEqual({ hours, status: 200, freshness });
      expect(again.body.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "open-meteo:forecast", satelliteSource]));
      expect(again.body.sources.filter((s) => s.startsWith("climatology:"))).toEqual([]);
      expect(again.body.data_quality.visibility_source).toBe("satellite");
    }

    // Past MAX_STALE nothing is served from Redis: in live mode that is a 503 with a problem.
    const tooLate = new Date(Date.parse(DEFAULT_NOW) + MAX_STALE_MS + 2 * HOUR_MS).toISOString();
    const expired = await (await instance(stub, redis.url, tooLate)).svc.json<{ code: string }>("/api/v1/conditions?spot=hanauma-bay");
    expect({ status: expired.status, code: expired.body.code }).toEqual({ status: 503, code: "data_unavailable" });

    // Without Redis, the same restart has no last-good answer to give.
    const alone = await instance(stub, null, new Date(Date.parse(DEFAULT_NOW) + 7 * HOUR_MS).toISOString());
    const lost = await alone.svc.json<Conditions>("/api/v1/conditions?spot=hanauma-bay");
    expect(lost.status).toBe(503);
  }, 120_000);

  it("CO-OPS saying it has no data for a station is remembered by every instance that waited on the fetch", async () => {
    const redis = await redisServer();
    const two: Instance[] = [];
    const stub = await emulator(() => two[0]!.svc.clock.now());
    for (let i = 0; i < 2; i++) two.push(await instance(stub, redis.url));
    const [a, b] = two as [Instance, Instance];
    stub.fault("coops", { kind: "coops-error" });
    stub.delayMs = 1_000;
    const spot = a.svc.ctx.catalog.spots.find((s) => coopsStationId(s.tide_station) !== null)!;
    const start = a.svc.clock.now();
    const end = new Date(start.getTime() + 24 * HOUR_MS);
    const tides = (i: Instance) => i.svc.ctx.upstreams!.tides.coops.extremes(spot, start, end);
    // A asks first and holds the lease; B waits for A's answer: "no data" for both.
    const first = tides(a);
    await expect.poll(() => stub.calls.coops, { timeout: 20_000 }).toBe(1);
    const second = tides(b);
    expect(await first).toBeNull();
    expect(await second).toBeNull();
    // Once the failure mark is gone, B still knows the station has nothing: it does not ask.
    const client = new Redis(redis.url);
    cleanups.push(async () => void client.disconnect());
    for (const key of await client.keys("oc:fail:*")) await client.del(key);
    expect(await tides(b)).toBeNull();
    expect(stub.calls.coops).toBe(1);
  }, 60_000);

  it("a lease whose holder died mid-fetch is taken over once it expires, and the caller gets an answer", async () => {
    const redis = await redisServer();
    let inst: Instance | null = null;
    const stub = await emulator(() => inst!.svc.clock.now());
    // A short upstream timeout makes a short lease: timeout + LEASE_MARGIN_MS.
    inst = await instance(stub, redis.url, DEFAULT_NOW, { UPSTREAM_TIMEOUT_MS: "3000" });
    const spot = inst.svc.ctx.catalog.spot("hanauma-bay")!;
    const period = Math.floor(Date.parse(DEFAULT_NOW) / REFRESH_MS) * REFRESH_MS;
    // Another instance took the leases for this region's weather and then died.
    const client = new Redis(redis.url);
    cleanups.push(async () => void client.disconnect());
    for (const u of ["open-meteo-marine", "open-meteo-forecast"]) await client.set(`oc:lease:${u}:${spot.region.id}:${period}`, "dead-instance", "PX", 4000);
    const t0 = performance.now();
    const got = await inst.svc.json<Conditions>("/api/v1/conditions?spot=hanauma-bay");
    const waited = performance.now() - t0;
    expect({ status: got.status, freshness: got.body.data_quality.freshness }).toEqual({ status: 200, freshness: "live" });
    expect(waited).toBeGreaterThan(3000); // it waited for the dead holder's lease…
    expect(stub.calls.marine).toBe(1); // …then fetched once itself
    expect(stub.calls.forecast).toBe(1);
  }, 120_000);

  it("Redis stopped mid-run and started again: answers keep coming, the log says so once per change, and sharing resumes", async () => {
    let redis = await redisServer();
    const two: Instance[] = [];
    const stub = await emulator(() => two[0]!.svc.clock.now());
    // Each hour must download again (this test counts downloads, not model runs): with the run
    // metadata unreadable, the hourly check falls back to a download.
    stub.failMetadata = true;
    // Hawaiʻi only: two instances without Redis each download every spot they are asked, and the whole
    // catalogue twice over would pass the free tier's 600 calls a minute (rightly refused, but not
    // what this test is about).
    const hawaii = hawaiiOnly();
    for (let i = 0; i < 2; i++) two.push(await instance(stub, redis.url, DEFAULT_NOW, {}, hawaii));
    const [a, b] = two as [Instance, Instance];
    const cat = a.svc.ctx.catalog;
    const spot = cat.spot("hanauma-bay")!;
    const both = (path: string) => Promise.all(two.map((i) => i.svc.json(path).then((r) => r.status)));
    const logged = (i: Instance, text: string) => i.logs.filter((l) => l.includes(text)).length;
    const atHour = (h: number) => two.forEach((i) => i.svc.clock.set(Date.parse(DEFAULT_NOW) + h * HOUR_MS));

    // Shared: both instances ask at once, the emulator sees one weather request per upstream.
    expect(await both("/api/v1/conditions?spot=hanauma-bay")).toEqual([200, 200]);
    expect({ marine: stub.calls.marine, forecast: stub.calls.forecast }).toEqual({ marine: 1, forecast: 1 });

    // Redis goes away: every spot still answers, from each instance's own fetches.
    await redis.stop();
    await expect.poll(() => two.every((i) => i.svc.ctx.redis!.status !== "ready"), { timeout: 20_000 }).toBe(true);
    atHour(1);
    const statuses = await Promise.all(cat.spots.map((s, n) => two[n % 2]!.svc.json(`/api/v1/conditions?spot=${s.id}`).then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
    // Each instance on its own now: asked at once, both fetch.
    const before = stub.calls.marine;
    atHour(2);
    expect(await both("/api/v1/conditions?spot=hanauma-bay")).toEqual([200, 200]);
    expect(stub.calls.marine - before).toBe(2);
    for (const i of two) {
      expect(logged(i, "redis unavailable")).toBe(1);
      expect(i.logs.find((l) => l.includes("redis unavailable"))).toContain("upstream answers");
    }

    // Redis is back (empty, as after a restart): each instance says so once and shares again.
    redis = await startRedis(redis.port);
    cleanups.push(() => redis.stop());
    await expect.poll(() => two.every((i) => i.svc.ctx.redis!.status === "ready"), { timeout: 30_000, interval: 200 }).toBe(true);
    for (const i of two) {
      expect(logged(i, "redis connected")).toBe(2); // at start, and now
      expect(logged(i, "redis unavailable")).toBe(1); // the reconnection attempts while down were not logged
    }
    atHour(3);
    const marine = stub.calls.marine;
    const forecast = stub.calls.forecast;
    expect(await both("/api/v1/conditions?spot=hanauma-bay")).toEqual([200, 200]);
    expect({ marine: stub.calls.marine - marine, forecast: stub.calls.forecast - forecast }).toEqual({ marine: 1, forecast: 1 });
    // The answer and the quota spend are in Redis for both.
    const period = Date.parse(DEFAULT_NOW) + 3 * HOUR_MS;
    const client = new Redis(redis.url);
    cleanups.push(async () => void client.disconnect());
    expect(await client.exists(`oc:up:open-meteo-marine:${spot.region.id}:${period}`)).toBe(1);
    const now = a.svc.clock.now().getTime();
    const spent = await Promise.all(two.map((i) => i.svc.ctx.upstreams!.lanes["open-meteo"].opts.budget.spent("hour", now)));
    expect(spent[0]).toBeGreaterThan(0);
    expect(spent).toEqual([spent[0], spent[0]]);
    expect(b.logs.filter((l) => l.includes('"level":50'))).toEqual([]);
  }, 180_000);
});

describeWithRedis("upstream slots shared through Redis", () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** A budget as one instance holds it, on its own Redis connection. */
  const budget = (url: string, concurrency: number, ttlMs: number) => {
    const r = new Redis(url);
    cleanups.push(async () => void r.disconnect());
    return new RedisUpstreamBudget(new RedisLink(r), "test-lane", concurrency, [], ttlMs);
  };

  it("a slot held past its lifetime, and handed from request to request, stays taken for the other instances", async () => {
    const redis = await redisServer();
    const TTL_MS = 2_000;
    const mine = budget(redis.url, 1, TTL_MS);
    const theirs = budget(redis.url, 1, TTL_MS);
    const lane = new UpstreamLane("test-lane", { budget: mine, clock: systemClock, log: pino({ level: "silent" }) });
    const first = await lane.acquire(callerTicket());
    const next = lane.acquire(callerTicket());
    // The first request's fetch runs longer than the slot's lifetime: its slot is still held.
    await sleep(2 * TTL_MS);
    expect(await theirs.tryTakeSlot()).toBeNull();
    // Handed to the next local request, which runs as long again: still held, by that request.
    await lane.release(first);
    const second = await next;
    expect(second).toBe(first);
    await sleep(2 * TTL_MS);
    expect(await theirs.tryTakeSlot()).toBeNull();
    // Released: another instance takes it at once.
    await lane.release(second);
    const taken = await theirs.tryTakeSlot();
    expect(taken).not.toBeNull();
    await theirs.releaseSlot(taken!);
    expect(mine.lostSlots).toBe(0);
  }, 60_000);

  it("a release frees the caller's own slot, not the newest one", async () => {
    const redis = await redisServer();
    const mine = budget(redis.url, 2, 60_000);
    const a = (await mine.tryTakeSlot())!;
    const b = (await mine.tryTakeSlot())!;
    expect(await mine.tryTakeSlot()).toBeNull();
    await mine.releaseSlot(a);
    const client = new Redis(redis.url);
    cleanups.push(async () => void client.disconnect());
    expect(await client.zrange("oc:slots:test-lane", 0, -1)).toEqual([b.id]);
    // Releasing the same slot again frees nothing more.
    await mine.releaseSlot(a);
    expect(await client.zrange("oc:slots:test-lane", 0, -1)).toEqual([b.id]);
    await mine.releaseSlot(b);
    expect(await client.zcard("oc:slots:test-lane")).toBe(0);
  }, 60_000);
});

describeWithRedis("waiting on another instance's fetch", () => {
  it("the waiter is told when the holder's answer is stored, instead of polling Redis every 100 ms", async () => {
    const redis = await redisServer();
    const client = new Redis(redis.url);
    cleanups.push(async () => void client.disconnect());
    /** One instance's shared answers, on its own connections. */
    const answers = async () => {
      const r = new Redis(redis.url, { enableOfflineQueue: false });
      cleanups.push(async () => void r.disconnect());
      const wakeups = new Wakeups(r);
      await new Promise((resolve) => r.once("ready", resolve));
      return new SharedAnswers({ link: new RedisLink(r), wakeups, leaseMs: 30_000, maxStaleMs: HOUR_MS, now: () => new Date() });
    };
    const [holder, waiter] = [await answers(), await answers()];
    const channel = "oc:done:test-upstream:g:0";
    const subscribers = async () => ((await client.pubsub("NUMSUB", channel)) as [string, number])[1];
    const mgets = async () => Number(/cmdstat_mget:calls=(\d+)/.exec(await client.info("commandstats"))?.[1] ?? 0);

    let answer: (v: string) => void = () => {};
    const fetched = new Promise<string>((resolve) => (answer = resolve));
    let fetches = 0;
    const holding = holder.load("test-upstream", "g", 0, HOUR_MS, () => (fetches++, fetched));
    await expect.poll(() => client.exists("oc:lease:test-upstream:g:0"), { timeout: 10_000 }).toBe(1);
    const waiting = waiter.load("test-upstream", "g", 0, HOUR_MS, () => (fetches++, Promise.resolve("fetched twice")));
    await expect.poll(subscribers, { timeout: 10_000 }).toBe(1);
    // Subscribed, the waiter looks at Redis about once a second (a holder may die unannounced), not
    // every LEASE_POLL_MS: over 2 s, far fewer looks than the 20 polling would make.
    const before = await mgets();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await mgets()) - before).toBeLessThan(2_000 / LEASE_POLL_MS / 2);

    // The holder announces its answer on the key's channel.
    const listener = new Redis(redis.url);
    cleanups.push(async () => void listener.disconnect());
    const told = new Promise<string>((resolve) => listener.on("message", (_ch: string, msg: string) => resolve(msg)));
    await listener.subscribe(channel);
    answer("the holder's answer");
    expect(await told).toBe("stored");
    expect((await holding).value).toBe("the holder's answer");
    expect((await waiting).value).toBe("the holder's answer");
    expect(fetches).toBe(1);
    // The waiter unsubscribed (the test's own listener is the one left).
    await expect.poll(subscribers, { timeout: 10_000 }).toBe(1);
  }, 60_000);
});
