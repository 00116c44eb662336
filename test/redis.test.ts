// Rate limits with REDIS_URL: two service instances against one real redis-server enforce one
// limit (facts, distinct spots, key allotments), and a Redis outage degrades to per-instance
// memory limits instead of failing requests.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { describeWithRedis, startRedis, type RedisServer } from "./helpers/redis.js";
import { startService, type TestService } from "./helpers/service.js";

describeWithRedis("rate limits in Redis, shared by two instances", () => {
  let redis: RedisServer;
  let a: TestService;
  let b: TestService;
  const KEY = "oc_live_shared0000000000";
  const FIVE = "oc_live_fivecalls000000";

  beforeAll(async () => {
    redis = await startRedis();
    const keys = join(tmpdir(), `redis-keys-${process.pid}.json`);
    writeFileSync(
      keys,
      JSON.stringify([
        { key: KEY, status: "active", allotment: 3 },
        { key: FIVE, status: "active", allotment: 5 },
      ]),
    );
    const env = {
      REDIS_URL: redis.url,
      RATE_LIMIT_FACTS_PER_HOUR: "4",
      RATE_LIMIT_SPOTS_PER_HOUR: "2",
      AUTH_MODE: "metered",
      API_KEYS_FILE: keys,
    };
    a = await startService({ env });
    b = await startService({ env });
    // Both connected before counting starts.
    for (const s of [a, b]) {
      const r = s.ctx.redis!;
      if (r.status !== "ready") await new Promise<void>((resolve) => r.once("ready", () => resolve()));
    }
  }, 120_000);
  // Each test starts from an empty store (both instances keep no counters of their own).
  beforeEach(async () => {
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it("enforces one facts cap across both instances", async () => {
    const statuses = [];
    for (const s of [a, b, a, b, a, b]) statuses.push((await s.get("/api/v1/spots")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it("shares the spots a caller asked about today and the distinct-spot cap", async () => {
    expect((await a.get("/api/v1/conditions?spot=hanauma-bay")).status).toBe(200);
    expect((await b.get("/api/v1/conditions?spot=sharks-cove")).status).toBe(200);
    await expect((await a.get("/api/v1/conditions?spot=la-jolla-cove")).json()).resolves.toMatchObject({ code: "breadth_limit" });
    // Spots asked on the other instance count as seen here.
    expect((await b.get("/api/v1/conditions?spot=hanauma-bay")).status).toBe(200);
  });

  it("shares a key's allotment across instances", async () => {
    const auth = { headers: { Authorization: `Bearer ${KEY}` } };
    const statuses = [];
    for (const s of [a, b, a, b]) statuses.push((await s.get("/api/v1/best-day?activity=dive&spot=molokini-back-wall", auth)).status);
    expect(statuses).toEqual([200, 200, 200, 402]);
  });

  it("spends an allotment of 5 exactly under 20 concurrent calls spread over both instances", async () => {
    const auth = { headers: { Authorization: `Bearer ${FIVE}` } };
    const calls = Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).get("/api/v1/best-day?activity=dive&spot=molokini-back-wall", auth).then((r) => r.status));
    const statuses = await Promise.all(calls);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(15);
  });

  it("keeps answering facts from per-instance memory limits while Redis is down, and refuses live keys' allotments (fail closed)", async () => {
    await redis.stop();
    const res = await a.get("/api/v1/conditions?spot=molokini-crater");
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toContain('"facts-hour";q=4;');
    // The instance's own memory counters take over, starting from this call, and still enforce the cap.
    expect(res.headers.get("ratelimit")).toMatch(/"facts-hour";r=3;/);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await a.get("/api/v1/spots")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // An allotment that cannot be checked is not handed out: 503 with Retry-After, not a fresh count.
    const keyed = await a.get("/api/v1/best-day?activity=dive&spot=molokini-back-wall", { headers: { Authorization: `Bearer ${KEY}` } });
    expect(keyed.status).toBe(503);
    expect(Number(keyed.headers.get("retry-after"))).toBeGreaterThan(0);
    await expect(keyed.json()).resolves.toMatchObject({ code: "unavailable" });
  });
});
