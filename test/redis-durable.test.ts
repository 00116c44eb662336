// Allotments that survive: Redis run as docs/operations.md documents it (its persistence flags are
// read from there), restarted, keeps every spent allotment and the failed-key lockout; a Redis run
// without persistence forgets the allotments, which is why the documented setup persists. A lockout
// also stands in the instance's memory: a Redis that loses its counter (a restart without
// persistence, or eviction under memory pressure) does not lift it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { describeWithRedis, NO_PERSISTENCE, startRedis, type RedisServer } from "./helpers/redis.js";
import { startService, type TestService } from "./helpers/service.js";

const FIVE = "oc_live_durable00000000";
const DECISION = "/api/v1/best-day?activity=dive&spot=molokini-back-wall";

/** The persistence flags of the documented `redis-server` command line (not its port, address or memory cap). */
function documentedPersistence(): string[] {
  const line = readFileSync(join(PROJECT_ROOT, "docs/operations.md"), "utf8")
    .split("\n")
    .find((l) => l.startsWith("redis-server "))!;
  const args = [...line.matchAll(/--(\S+) ("[^"]*"|\S+)/g)].map((m) => [m[1]!, m[2]!.replace(/^"(.*)"$/, "$1")] as const);
  return args.filter(([name]) => ["save", "appendonly", "appendfsync"].includes(name)).flatMap(([name, value]) => [`--${name}`, value]);
}

describeWithRedis("key allotments and lockouts across a Redis restart", () => {
  let dir: string;
  let keys: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "redis-durable-"));
    keys = join(dir, "keys.json");
    writeFileSync(keys, JSON.stringify([{ key: FIVE, status: "active", allotment: 5 }]));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Spends the allotment and locks an address out, restarts Redis, and says what the service answers then. */
  async function spendRestartAndAsk(persistence: string[]) {
    let redis: RedisServer = await startRedis(undefined, [...persistence, "--dir", mkdtempSync(join(dir, "data-"))]);
    let svc: TestService | undefined;
    try {
      svc = await startService({
        env: { REDIS_URL: redis.url, AUTH_MODE: "metered", API_KEYS_FILE: keys, RATE_LIMIT_FAILED_KEYS: "2", TRUST_PROXY: "loopback" },
        log: pino({ level: "silent" }),
      });
      const ready = () => svc!.json<{ status: string }>("/readyz").then((r) => r.body.status);
      await expect.poll(ready, { timeout: 20_000, interval: 100 }).toBe("ok");
      const call = (key: string, from: string) => svc!.get(DECISION, { headers: { Authorization: `Bearer ${key}`, "X-Forwarded-For": from } }).then((r) => r.status);
      const spent = [];
      for (let i = 0; i < 6; i++) spent.push(await call(FIVE, "198.51.100.1"));
      expect(spent).toEqual([200, 200, 200, 200, 200, 402]);
      // Two wrong keys lock the address out, valid keys included.
      expect([await call("oc_live_wrongwrong00", "198.51.100.2"), await call("oc_live_wrongwrong01", "198.51.100.2"), await call(FIVE, "198.51.100.2")]).toEqual([401, 401, 429]);

      await redis.stop();
      redis = await startRedis(redis.port, redis.args);
      await expect.poll(ready, { timeout: 30_000, interval: 100 }).toBe("ok");
      return { allotment: await call(FIVE, "198.51.100.1"), lockedOut: await call(FIVE, "198.51.100.2") };
    } finally {
      await svc?.close();
      await redis.stop();
    }
  }

  it("the documented setup (append-only file) keeps every spent allotment and the lockout", async () => {
    expect(documentedPersistence()).toContain("--appendonly");
    expect(await spendRestartAndAsk(documentedPersistence())).toEqual({ allotment: 402, lockedOut: 429 });
  }, 90_000);

  it("without persistence a restart hands the allotment out again; the lockout stands in the instance's memory", async () => {
    expect(await spendRestartAndAsk(NO_PERSISTENCE)).toEqual({ allotment: 200, lockedOut: 429 });
  }, 90_000);

  it("a lockout stands through a flood of 5,000 new callers against a small Redis run as documented", async () => {
    // The documented policy and persistence with a 2 MB cap: the flood's rate-limit windows fill it,
    // and volatile-ttl evicts the keys nearest expiry, which is where a lockout's counter sits.
    const line = readFileSync(join(PROJECT_ROOT, "docs/operations.md"), "utf8")
      .split("\n")
      .find((l) => l.startsWith("redis-server "))!;
    const policy = /--maxmemory-policy (\S+)/.exec(line)![1]!;
    const redis = await startRedis(undefined, [...NO_PERSISTENCE, "--maxmemory", "2mb", "--maxmemory-policy", policy]);
    const client = new Redis(redis.url);
    let svc: TestService | undefined;
    try {
      // The facts limits at their defaults, so every caller's windows are kept in Redis.
      const limits = { RATE_LIMIT_FACTS_PER_HOUR: "300", RATE_LIMIT_FACTS_PER_DAY: "2000", RATE_LIMIT_SPOTS_PER_HOUR: "30", RATE_LIMIT_SPOTS_PER_DAY: "100" };
      svc = await startService({
        env: { REDIS_URL: redis.url, AUTH_MODE: "metered", API_KEYS_FILE: keys, RATE_LIMIT_FAILED_KEYS: "2", TRUST_PROXY: "loopback", ...limits },
        log: pino({ level: "silent" }),
      });
      await expect.poll(() => svc!.json<{ status: string }>("/readyz").then((r) => r.body.status), { timeout: 20_000, interval: 100 }).toBe("ok");
      const call = (key: string, from: string) => svc!.get(DECISION, { headers: { Authorization: `Bearer ${key}`, "X-Forwarded-For": from } }).then((r) => r.status);
      expect([await call("oc_live_wrongwrong00", "198.51.100.9"), await call("oc_live_wrongwrong01", "198.51.100.9"), await call(FIVE, "198.51.100.9")]).toEqual([401, 401, 429]);
      // 5,000 callers never seen before (one IPv6 /64 each), 16 at a time, each asking for facts.
      let next = 0;
      const statuses: Record<number, number> = {};
      const flood = async () => {
        for (let i = next++; i < 5_000; i = next++) {
          const status = await svc!
            .get("/api/v1/conditions?spot=molokini-back-wall", { headers: { "X-Forwarded-For": `2001:db8:${(i >> 8).toString(16)}:${(i & 255).toString(16)}::1` } })
            // The body is read, so the connection is reused.
            .then(async (r) => (await r.arrayBuffer(), r.status));
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      };
      await Promise.all(Array.from({ length: 16 }, flood));
      expect(statuses).toEqual({ 200: 5_000 });
      const evicted = Number(/evicted_keys:(\d+)/.exec(await client.info("stats"))![1]);
      expect(evicted).toBeGreaterThan(0);
      expect(await call(FIVE, "198.51.100.9")).toBe(429);
    } finally {
      await svc?.close();
      client.disconnect();
      await redis.stop();
    }
  }, 180_000);

  it("a lockout whose counter Redis evicts stands, and a second address is still judged by Redis", async () => {
    const redis = await startRedis(undefined, NO_PERSISTENCE);
    const client = new Redis(redis.url);
    let svc: TestService | undefined;
    try {
      svc = await startService({ env: { REDIS_URL: redis.url, AUTH_MODE: "metered", API_KEYS_FILE: keys, RATE_LIMIT_FAILED_KEYS: "2", TRUST_PROXY: "loopback" }, log: pino({ level: "silent" }) });
      await expect.poll(() => svc!.json<{ status: string }>("/readyz").then((r) => r.body.status), { timeout: 20_000, interval: 100 }).toBe("ok");
      const call = (key: string, from: string) => svc!.get(DECISION, { headers: { Authorization: `Bearer ${key}`, "X-Forwarded-For": from } }).then((r) => r.status);
      expect([await call("oc_live_wrongwrong00", "198.51.100.7"), await call("oc_live_wrongwrong01", "198.51.100.7"), await call(FIVE, "198.51.100.7")]).toEqual([401, 401, 429]);
      // What volatile-ttl does to a window near its end under memory pressure: the counter is gone.
      const counters = await client.keys("oc:rl:failed-keys:*");
      expect(counters.length).toBeGreaterThan(0);
      await client.del(...counters);
      expect(await call(FIVE, "198.51.100.7")).toBe(429);
      // One wrong key from another address is counted, not a lockout.
      expect([await call("oc_live_wrongwrong02", "198.51.100.8"), await call(FIVE, "198.51.100.8")]).toEqual([401, 200]);
    } finally {
      await svc?.close();
      client.disconnect();
      await redis.stop();
    }
  }, 90_000);
});
