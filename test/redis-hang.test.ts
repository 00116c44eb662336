// A Redis that hangs (the process stopped with SIGSTOP: its socket stays open, nothing answers) costs
// metered requests one command deadline at most, not a stall: the breaker opens, facts are counted in
// this instance's memory, live keys' allotments fail closed (503), /readyz says degraded, one log
// line says so; after SIGCONT the connection comes back on its own and /readyz says ok again.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeWithRedis, startRedis, type RedisServer } from "./helpers/redis.js";
import { startService, type TestService } from "./helpers/service.js";

const KEY = "oc_live_hangcheck00000000";
const DECISION = "/api/v1/best-day?activity=dive&spot=molokini-back-wall";
const SPOTS = ["hanauma-bay", "sharks-cove", "molokini-crater", "la-jolla-cove", "molokini-back-wall"];

describeWithRedis("a hung Redis", () => {
  let redis: RedisServer;
  let svc: TestService;
  const logs: { msg: string }[] = [];
  const auth = { headers: { Authorization: `Bearer ${KEY}` } };

  beforeAll(async () => {
    redis = await startRedis();
    const keys = join(tmpdir(), `redis-hang-keys-${process.pid}.json`);
    writeFileSync(keys, JSON.stringify([{ key: KEY, status: "active", allotment: 50 }]));
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) logs.push(JSON.parse(line) as { msg: string });
        done();
      },
    });
    svc = await startService({
      env: { REDIS_URL: redis.url, AUTH_MODE: "metered", API_KEYS_FILE: keys, RATE_LIMIT_FACTS_PER_HOUR: "100", RATE_LIMIT_SPOTS_PER_HOUR: "50", RATE_LIMIT_DECISIONS_BURST: "100" },
      log: pino({ level: "info" }, sink),
    });
    const r = svc.ctx.redis!;
    if (r.status !== "ready") await new Promise<void>((resolve) => r.once("ready", () => resolve()));
  }, 60_000);
  afterAll(async () => {
    if (redis) process.kill(redis.pid, "SIGCONT");
    await svc?.close();
    await redis?.stop();
  });

  const ready = async () => (await svc.json<{ status: string; checks: { redis: string | null } }>("/readyz")).body;

  it("is ok with Redis answering", async () => {
    expect(await ready()).toMatchObject({ status: "ok", checks: { redis: "up" } });
    expect((await svc.get(DECISION, auth)).status).toBe(200);
  });

  it("answers within a bounded time while Redis hangs, degraded, and recovers when it resumes", async () => {
    process.kill(redis.pid, "SIGSTOP");
    const started = performance.now();
    // Before the breaker each of these took 4-10 s (2 s per command, up to five in series); now the
    // first pays one command deadline and the rest none. 6 s is a generous bound for all six (50 s before).
    const statuses = [];
    for (const spot of SPOTS) statuses.push((await svc.get(`/api/v1/conditions?spot=${spot}`)).status);
    statuses.push((await svc.get("/api/v1/spots")).status);
    const elapsedS = (performance.now() - started) / 1000;
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect(elapsedS).toBeLessThan(6);
    // The documented fallback: this instance's memory counts (the headers still carry the caps).
    const facts = await svc.get("/api/v1/conditions?spot=hanauma-bay");
    expect(facts.headers.get("ratelimit-policy")).toContain('"facts-hour";q=100;');
    // A live key's allotment cannot be checked: refused at once with 503 and Retry-After, not handed out.
    const keyed = await svc.get(DECISION, auth);
    expect(keyed.status).toBe(503);
    expect(Number(keyed.headers.get("retry-after"))).toBeGreaterThan(0);
    await expect(keyed.json()).resolves.toMatchObject({ code: "unavailable", source: { name: "Ocean Conditions" } });
    // Still in rotation (every instance shares the one Redis), but saying so.
    const readiness = await svc.json<{ status: string; checks: { redis: string } }>("/readyz");
    expect(readiness.status).toBe(200);
    expect(readiness.body).toMatchObject({ status: "degraded", checks: { redis: "down" } });
    // One line for the change of state, however many commands timed out and reconnections failed.
    expect(logs.filter((l) => l.msg.startsWith("redis not answering"))).toHaveLength(1);
    expect(logs.filter((l) => l.msg.startsWith("redis unavailable"))).toHaveLength(0);

    process.kill(redis.pid, "SIGCONT");
    await expect.poll(async () => (await ready()).status, { timeout: 30_000, interval: 100 }).toBe("ok");
    expect((await ready()).checks.redis).toBe("up");
    expect((await svc.get(DECISION, auth)).status).toBe(200);
    expect(logs.filter((l) => l.msg.startsWith("redis connected"))).toHaveLength(2);
  }, 60_000);
});
