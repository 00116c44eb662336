// A Redis that answers but refuses writes for want of memory (maxmemory reached with nothing it may
// evict): facts still answer (counted in this instance's memory), a live key's allotment fails
// closed with 503, /readyz says degraded with redis_memory "full", one warning is logged; once Redis
// has room again the next write clears it and /readyz says ok.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { Redis } from "ioredis";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeWithRedis, startRedis, type RedisServer } from "./helpers/redis.js";
import { startService, type TestService } from "./helpers/service.js";

const KEY = "oc_live_fullcheck00000000";
const DECISION = "/api/v1/best-day?activity=dive&spot=molokini-back-wall";

describeWithRedis("a Redis out of memory", () => {
  let redis: RedisServer;
  let admin: Redis;
  let svc: TestService;
  const logs: { level: number; msg: string }[] = [];
  const auth = { headers: { Authorization: `Bearer ${KEY}` } };

  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url);
    const keys = join(tmpdir(), `redis-full-keys-${process.pid}.json`);
    writeFileSync(keys, JSON.stringify([{ key: KEY, status: "active", allotment: 50 }]));
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) logs.push(JSON.parse(line) as { level: number; msg: string });
        done();
      },
    });
    svc = await startService({ env: { REDIS_URL: redis.url, AUTH_MODE: "metered", API_KEYS_FILE: keys }, log: pino({ level: "info" }, sink) });
    const r = svc.ctx.redis!;
    if (r.status !== "ready") await new Promise<void>((resolve) => r.once("ready", () => resolve()));
  }, 60_000);
  afterAll(async () => {
    admin?.disconnect();
    await svc?.close();
    await redis?.stop();
  });

  const ready = async () => (await svc.json<{ status: string; checks: { redis: string | null; redis_memory: string | null } }>("/readyz")).body;

  it("is degraded while writes are refused, says so once, and recovers when Redis has room", async () => {
    expect(await ready()).toMatchObject({ status: "ok", checks: { redis: "up", redis_memory: "ok" } });
    // No eviction allowed and a cap below what Redis already holds: every write is refused with OOM.
    await admin.config("SET", "maxmemory-policy", "noeviction");
    await admin.config("SET", "maxmemory", "1");
    expect((await svc.get("/api/v1/conditions?spot=hanauma-bay")).status).toBe(200);
    expect((await svc.get("/api/v1/conditions?spot=sharks-cove")).status).toBe(200);
    expect((await svc.get(DECISION, auth)).status).toBe(503);
    expect(await ready()).toMatchObject({ status: "degraded", checks: { redis: "up", redis_memory: "full" } });
    expect(logs.filter((l) => l.msg.startsWith("redis out of memory")).length).toBe(1);

    await admin.config("SET", "maxmemory", "0");
    expect((await svc.get("/api/v1/conditions?spot=la-jolla-cove")).status).toBe(200);
    expect(await ready()).toMatchObject({ status: "ok", checks: { redis: "up", redis_memory: "ok" } });
    expect(logs.some((l) => l.msg === "redis accepting writes again")).toBe(true);
    expect((await svc.get(DECISION, auth)).status).toBe(200);
  }, 60_000);
});
