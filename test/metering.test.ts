// Metering on its own (src/services/metering/): the window counters, the rate-limit policies and their AI
// fetcher quotas, the distinct-spot memory, admission with its refusals word for word, keys and
// allotments, and the same counters and spot sets in a real redis-server. The HTTP and MCP sides
// are in rate-limits.test.ts, keys.test.ts and redis.test.ts.
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { FixedClock } from "../src/base/clock.js";
import { loadConfig, type RateLimitConfig } from "../src/base/config.js";
import type { ServiceError } from "../src/base/errors.js";
import { LOCAL_CALLER, type Caller } from "../src/services/metering/caller.js";
import { KEY_QUERY_PARAMS, KeyRegistry } from "../src/services/metering/keys.js";
import { FAILED_KEYS_WINDOW_S, MemoryCounters, RateLimits } from "../src/services/metering/limits.js";
import { Meter } from "../src/services/metering/meter.js";
import { describeWithRedis, startRedis, type RedisServer } from "./helpers/redis.js";

const catalog = Catalog.load();
const HOUR_MS = 3_600_000;

// The default caps (config.test.ts states them), with room for fewer callers.
const LIMITS: RateLimitConfig = { ...loadConfig({}).rateLimits, maxCallers: 1000 };

/**
 * Windows run on real (monotonic) time, so a wait can be a second short of the whole window on a
 * busy machine: the wait a refusal names, checked against the window it should be nearly all of.
 */
function expectWait(e: ServiceError, windowS: number, wording: (s: number) => string) {
  expect(e.retryAfterS).toBeGreaterThan(windowS - 30);
  expect(e.retryAfterS).toBeLessThanOrEqual(windowS);
  expect(e.detail).toBe(wording(e.retryAfterS!));
}

/** The error a promise was refused with (fails the test if it was not refused). */
async function refusal(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    return e as ServiceError;
  }
  throw new Error("expected a refusal");
}

describe("window counters in memory", () => {
  it("open a window at a caller's first request and start afresh exactly when it ends", () => {
    const c = new MemoryCounters(100);
    expect(c.incr("ip:a", "facts-hour", 3600, 1, 1000)).toEqual({ count: 1, msLeft: HOUR_MS });
    expect(c.incr("ip:a", "facts-hour", 3600, 1, 1000 + HOUR_MS - 1)).toEqual({ count: 2, msLeft: 1 });
    expect(c.incr("ip:a", "facts-hour", 3600, 1, 1000 + HOUR_MS)).toEqual({ count: 1, msLeft: HOUR_MS });
  });

  it("read a count and the time left without counting, and nothing once the window has ended", () => {
    const c = new MemoryCounters(100);
    expect(c.get("ip:a", "facts-day", 86_400, 0)).toEqual({ count: 0, msLeft: 86_400_000 });
    c.incr("ip:a", "facts-day", 86_400, 1, 5000);
    c.incr("ip:a", "spots-hour", 3600, 1, 6000);
    expect(c.get("ip:a", "facts-day", 86_400, 5500)).toEqual({ count: 1, msLeft: 86_400_000 - 500 });
    expect(c.get("ip:a", "spots-hour", 3600, 6500)).toEqual({ count: 1, msLeft: HOUR_MS - 500 });
    expect(c.get("ip:a", "facts-day", 86_400, 5000 + 86_400_000)).toEqual({ count: 0, msLeft: 86_400_000 });
  });

  it("never count below zero, and keep nothing for a caller they only give back to", () => {
    const c = new MemoryCounters(100);
    expect(c.incr("ip:never", "facts-hour", 3600, -1, 0)).toEqual({ count: 0, msLeft: HOUR_MS });
    expect(c.size).toBe(0);
    c.incr("ip:a", "facts-hour", 3600, 1, 0);
    c.incr("ip:a", "facts-hour", 3600, -1, 1);
    expect(c.incr("ip:a", "facts-hour", 3600, -1, 2).count).toBe(0);
  });
});

describe("rate-limit policies", () => {
  it("multiply every quota but failed keys for AI fetchers, and cap their distinct spots at half the catalogue", async () => {
    // 76 spots: half is 38. 30 × 10 = 300 new spots an hour would map the catalogue; 38 is the cap.
    // The daily cap of 100 is already past half, so it stays 100 and is not multiplied either.
    const limits = new RateLimits(LIMITS, null, 76);
    const all = ["facts-hour", "facts-day", "spots-hour", "spots-day", "decisions-burst", "renders-hour", "failed-keys"] as const;
    const quotas = async (ai: boolean) => Object.fromEntries((await limits.peek(all, "ip:203.0.113.5", ai)).map((s) => [s.name, s.quota]));
    expect(await quotas(false)).toEqual({ "facts-hour": 300, "facts-day": 2000, "spots-hour": 30, "spots-day": 100, "decisions-burst": 20, "renders-hour": 120, "failed-keys": 20 });
    expect(await quotas(true)).toEqual({ "facts-hour": 3000, "facts-day": 20000, "spots-hour": 38, "spots-day": 100, "decisions-burst": 200, "renders-hour": 1200, "failed-keys": 20 });
    // A small multiplier below half the catalogue is applied as is.
    const mild = new RateLimits({ ...LIMITS, aiFetcherMultiplier: 1.2 }, null, 76);
    expect((await mild.peek(["spots-hour"], "ip:203.0.113.5", true))[0]!.quota).toBe(36);
  });

  it("use none of the budget for a refused request, and give back what a failed answer paid for", async () => {
    const limits = new RateLimits({ ...LIMITS, factsPerHour: 2 }, null, 76);
    await limits.consume(["facts-hour"], "ip:a", false);
    await limits.consume(["facts-hour"], "ip:a", false);
    await expect(limits.consume(["facts-hour"], "ip:a", false)).rejects.toMatchObject({ policy: "facts-hour" });
    await expect(limits.consume(["facts-hour"], "ip:a", false)).rejects.toMatchObject({ policy: "facts-hour" });
    // Two counted, not four: one refund leaves room for exactly one more.
    await limits.refund(["facts-hour"], "ip:a");
    expect((await limits.peek(["facts-hour"], "ip:a", false))[0]!.remaining).toBe(1);
    await limits.consume(["facts-hour"], "ip:a", false);
    await expect(limits.consume(["facts-hour"], "ip:a", false)).rejects.toMatchObject({ policy: "facts-hour" });
  });

  it("remember the spots of at most RATE_LIMIT_MAX_CALLERS callers (a forgotten caller's spots count again)", async () => {
    const limits = new RateLimits({ ...LIMITS, maxCallers: 100 }, null, 76);
    expect(await limits.markSpot("ip:first", "2026-11-21", "hanauma-bay")).toBe(true);
    expect(await limits.markSpot("ip:first", "2026-11-21", "hanauma-bay")).toBe(false);
    for (let i = 0; i < 100; i++) await limits.markSpot(`ip:other-${i}`, "2026-11-21", "hanauma-bay");
    expect(await limits.markSpot("ip:first", "2026-11-21", "hanauma-bay")).toBe(true);
  });
});

// Metered mode needs a keys file to start; these tests hand the Meter its registry directly.
const METERED = { AUTH_MODE: "metered", API_KEYS_FILE: "keys-given-directly.json" };

describe("admission", () => {
  const KEYS = new KeyRegistry([
    { key: "oc_live_meteredkey01", status: "active", allotment: 2 },
    { key: "oc_live_revokedkey01", status: "revoked" },
  ]);
  const LIVE = "oc_live_meteredkey01";

  function meter(env: Record<string, string> = {}, at = "2026-11-21T10:00:00Z") {
    const clock = new FixedClock(at);
    const config = loadConfig(env);
    return { clock, meter: new Meter({ config, keys: config.auth.mode === "metered" ? KEYS : null, catalog, clock, redis: null }) };
  }
  const caller = (m: Meter, facts: { ip?: string | null; key?: string; userAgent?: string } = {}): Caller =>
    m.identify({ ip: facts.ip === undefined ? "203.0.113.7" : facts.ip, serviceKey: facts.key ?? null, userAgent: facts.userAgent ?? null });

  it("counts a caller by a valid key in metered mode, and by address otherwise", () => {
    const metered = meter({ ...METERED }).meter;
    expect(caller(metered, { key: LIVE }).id).toMatch(/^key:[0-9a-f]{12}$/);
    expect(caller(metered, { key: "oc_live_revokedkey01" }).id).toBe("ip:203.0.113.7");
    expect(caller(metered, { key: "oc_live_unknownkey01" }).id).toBe("ip:203.0.113.7");
    expect(caller(metered, { ip: null }).id).toBe("ip:unknown");
    expect(caller(metered, { ip: "2001:db8:5:6:7::1" }).id).toBe("ip:2001:db8:5:6::/64");
    const open = meter().meter;
    expect(caller(open, { key: LIVE }).id).toBe("ip:203.0.113.7");
    expect(caller(open, { key: LIVE }).key).toBeNull();
  });

  it("never meters the operator's own stdio host", async () => {
    const { meter: m } = meter({ RATE_LIMIT_FACTS_PER_HOUR: "1", RATE_LIMIT_RENDERS_PER_HOUR: "1" });
    expect(LOCAL_CALLER.local).toBe(true);
    for (let i = 0; i < 3; i++) {
      const admitted = await m.admit("conditions", { spot: "hanauma-bay" }, LOCAL_CALLER);
      expect(admitted.headers).toEqual({});
      await m.admitRender(LOCAL_CALLER);
    }
  });

  it("decides at once only what needs no waiting, counting and refusing exactly as admit does", async () => {
    const { meter: m } = meter({ RATE_LIMIT_DECISIONS_BURST: "2", RATE_LIMIT_DECISIONS_WINDOW_S: "3600" });
    const c = caller(m);
    // A keyless decision with in-memory counters: counted here, in one budget with admit.
    const first = m.admitAtOnce("recommendations", c)!;
    expect(first.headers.RateLimit).toMatch(/^"decisions-burst";r=1;t=\d+$/);
    expect((await m.admit("best-day", { activity: "dive", spot: "sharks-cove" }, c)).headers.RateLimit).toMatch(/^"decisions-burst";r=0;t=\d+$/);
    let refused: unknown;
    try {
      m.admitAtOnce("best-day", c);
    } catch (e) {
      refused = e;
    }
    expect(refused).toMatchObject({ code: "rate_limited", extra: { policy: "decisions-burst" } });
    // The refusal used none of the budget: two calls counted, so one given back leaves room for one.
    await m.limits.refund(["decisions-burst"], c.id);
    expect((await m.limits.peek(["decisions-burst"], c.id, false))[0]!.remaining).toBe(1);
    // Conditions mark a distinct spot, and a metered decision checks its key: only admit decides those.
    expect(m.admitAtOnce("conditions", c)).toBeUndefined();
    const metered = meter({ ...METERED }).meter;
    expect(metered.admitAtOnce("recommendations", caller(metered, { key: LIVE }))).toBeUndefined();
    expect(metered.admitAtOnce("spots", caller(metered))?.headers.RateLimit).toMatch(/^"facts-hour";r=\d+;t=\d+, "facts-day";r=\d+;t=\d+$/);
    expect(m.admitAtOnce("conditions", LOCAL_CALLER)?.headers).toEqual({});
  });

  it("words each refusal with the policy and the wait, in the problem's detail", async () => {
    const { meter: m } = meter({
      RATE_LIMIT_FACTS_PER_HOUR: "1",
      RATE_LIMIT_FACTS_PER_DAY: "100",
      RATE_LIMIT_DECISIONS_BURST: "1",
      // A long burst window, so a stalled machine cannot let it pass between the two calls.
      RATE_LIMIT_DECISIONS_WINDOW_S: "3600",
      RATE_LIMIT_RENDERS_PER_HOUR: "1",
    });
    const c = caller(m);
    await m.admit("spots", {}, c);
    const facts = await refusal(m.admit("spots", {}, c));
    expect(facts).toMatchObject({ code: "rate_limited", extra: { policy: "facts-hour" } });
    expectWait(facts, 3600, (s) => `Too many requests for facts per hour. Retry in ${s} s.`);
    await m.admit("recommendations", { activity: "snorkel", region: "us-hi-oahu" }, c);
    const burst = await refusal(m.admit("recommendations", { activity: "snorkel", region: "us-hi-oahu" }, c));
    expect(burst).toMatchObject({ code: "rate_limited", extra: { policy: "decisions-burst" } });
    expectWait(burst, 3600, (s) => `Too many requests for decisions per 3600 s. Retry in ${s} s.`);
    await m.admitRender(c);
    const render = await refusal(m.admitRender(c));
    expect(render).toMatchObject({ code: "rate_limited", extra: { policy: "renders-hour" } });
    expectWait(render, 3600, (s) => `Too many requests for renders per hour. Retry in ${s} s.`);
    expect(render.headers).toEqual({ "RateLimit-Policy": '"renders-hour";q=1;w=3600', RateLimit: `"renders-hour";r=0;t=${render.retryAfterS}` });

    const { meter: daily } = meter({ RATE_LIMIT_FACTS_PER_DAY: "1" });
    await daily.admit("spots", {}, caller(daily));
    expectWait(await refusal(daily.admit("spots", {}, caller(daily))), 86_400, (s) => `Too many requests for facts per day. Retry in ${s} s.`);
  });

  it("words the distinct-spot refusals by their window", async () => {
    const hourly = meter({ RATE_LIMIT_SPOTS_PER_HOUR: "1" }).meter;
    await hourly.admit("conditions", { spot: "hanauma-bay" }, caller(hourly));
    const hour = await refusal(hourly.admit("conditions", { spot: "sharks-cove" }, caller(hourly)));
    expect(hour).toMatchObject({ code: "breadth_limit", extra: { policy: "spots-hour" } });
    expectWait(hour, 3600, (s) => `Too many different spots (this hour): spots you already asked about today still answer. Retry in ${s} s.`);
    const daily = meter({ RATE_LIMIT_SPOTS_PER_HOUR: "50", RATE_LIMIT_SPOTS_PER_DAY: "1" }).meter;
    await daily.admit("conditions", { spot: "hanauma-bay" }, caller(daily));
    const day = await refusal(daily.admit("conditions", { spot: "sharks-cove" }, caller(daily)));
    expect(day).toMatchObject({ code: "breadth_limit", extra: { policy: "spots-day" } });
    expectWait(day, 86_400, (s) => `Too many different spots (today): spots you already asked about today still answer. Retry in ${s} s.`);
  });

  it("counts render budgets per caller, multiplied for AI fetchers", async () => {
    const { meter: m } = meter({ RATE_LIMIT_RENDERS_PER_HOUR: "1", AI_FETCHER_MULTIPLIER: "3" });
    const person = caller(m, { ip: "198.51.100.1" });
    await m.admitRender(person);
    expect((await refusal(m.admitRender(person))).code).toBe("rate_limited");
    const fetcher = caller(m, { ip: "198.51.100.2", userAgent: "Mozilla/5.0 (compatible; Claude-User/1.0)" });
    for (let i = 0; i < 3; i++) await m.admitRender(fetcher);
    expect((await refusal(m.admitRender(fetcher))).code).toBe("rate_limited");
  });

  it("counts a spot against the distinct-spot caps once a UTC day, whether named or given by a point within 30 km", async () => {
    // 23:20 UTC: the hour's window runs past midnight, when the day's distinct spots start again.
    const { clock, meter: m } = meter({ RATE_LIMIT_SPOTS_PER_HOUR: "2", RATE_LIMIT_SPOTS_PER_DAY: "10" }, "2026-11-21T23:20:00Z");
    const c = caller(m);
    const spotsLeft = (h: Record<string, string>) => Number(/"spots-hour";r=(\d+)/.exec(h.RateLimit ?? "")?.[1]);
    const hanauma = catalog.spot("hanauma-bay")!;
    expect(spotsLeft((await m.admit("conditions", { spot: "hanauma-bay" }, c)).headers)).toBe(1);
    // The same spot by a point on it, and later the same UTC day: not counted again.
    expect(spotsLeft((await m.admit("conditions", { lat: String(hanauma.lat), lon: String(hanauma.lon) }, c)).headers)).toBe(1);
    clock.advance(20 * 60_000);
    expect(spotsLeft((await m.admit("conditions", { spot: "hanauma-bay" }, c)).headers)).toBe(1);
    // A point in the open Pacific snaps to no spot: it counts as no spot at all.
    const far = await m.admit("conditions", { lat: "10", lon: "-150" }, c);
    expect(far.headers.RateLimit).not.toContain("spots-hour");
    // Decisions and listings never count spots, even when they name one.
    expect((await m.admit("best-day", { activity: "dive", spot: "sharks-cove" }, c)).headers.RateLimit).toMatch(/^"decisions-burst";r=19;t=\d+$/);
    expect(spotsLeft((await m.admit("conditions", { spot: "sharks-cove" }, c)).headers)).toBe(0);
    // Past midnight UTC the same spot is new again, and the hour's cap is spent.
    clock.set("2026-11-22T00:05:00Z");
    expect((await refusal(m.admit("conditions", { spot: "hanauma-bay" }, c))).code).toBe("breadth_limit");
  });

  it("refuses keys in the URL under every name a client might use, with a Bearer challenge", async () => {
    const { meter: m } = meter({ ...METERED });
    expect(KEY_QUERY_PARAMS).toEqual(["key", "api_key", "apikey", "api-key", "x-service-key", "access_token", "token"]);
    for (const name of [...KEY_QUERY_PARAMS, "API_KEY", "Token"]) {
      const e = await refusal(m.admit("recommendations", { activity: "snorkel", [name]: LIVE }, caller(m, { key: LIVE }), true));
      expect(e.code, name).toBe("invalid_key");
      expect(e.detail).toMatch(/^Keys are never accepted in the URL/);
      expect(e.headers).toEqual({ "WWW-Authenticate": 'Bearer realm="ocean-conditions"' });
    }
    // Not through a URL (an MCP argument), the same name is just an argument.
    await m.admit("recommendations", { activity: "snorkel", token: "x" }, caller(m, { key: LIVE }), false);
  });

  it("challenges a missing, unknown or revoked key, and past the failed-attempt cap refuses every key from that address", async () => {
    const { meter: m } = meter({ ...METERED, RATE_LIMIT_FAILED_KEYS: "2" });
    const bearer = { "WWW-Authenticate": 'Bearer realm="ocean-conditions"' };
    const ask = (facts: Parameters<typeof caller>[1]) => m.admit("best-day", { activity: "dive", spot: "sharks-cove" }, caller(m, facts));
    expect(await refusal(ask({}))).toMatchObject({ code: "key_required", headers: bearer });
    expect(await refusal(ask({ key: "oc_live_unknownkey01" }))).toMatchObject({ code: "invalid_key", detail: "This key is not recognised.", headers: bearer });
    expect(await refusal(ask({ key: "oc_live_revokedkey01" }))).toMatchObject({ code: "key_revoked", detail: "This key has been revoked.", headers: bearer });
    // Two failures from this address: now even the valid key is refused here until the window ends.
    const capped = await refusal(ask({ key: LIVE }));
    expect(capped).toMatchObject({ code: "rate_limited", extra: { policy: "failed-keys" } });
    expectWait(capped, FAILED_KEYS_WINDOW_S, (s) => `Too many failed key attempts from this address. Retry in ${s} s.`);
    // Another address is not affected, and a missing key is not a failed attempt.
    await ask({ key: LIVE, ip: "198.51.100.9" });
    expect((await refusal(ask({ ip: "198.51.100.10" }))).code).toBe("key_required");
    expect((await refusal(ask({ ip: "198.51.100.10" }))).code).toBe("key_required");
    await ask({ key: LIVE, ip: "198.51.100.10" });
  });

  it("takes a key's allotment when a decision is admitted and gives it back when the answer fails", async () => {
    const { meter: m } = meter({ ...METERED });
    const ask = () => m.admit("recommendations", { activity: "snorkel", region: "us-hi-oahu" }, caller(m, { key: LIVE }));
    await ask();
    const second = await ask();
    await second.refund();
    // One of two used: exactly one more.
    await ask();
    const over = await refusal(ask());
    expect(over).toMatchObject({ code: "free_allotment_exhausted", detail: "This key's free allotment of 2 decision calls is used up." });
    // Facts never touch the allotment.
    await m.admit("conditions", { spot: "hanauma-bay" }, caller(m, { key: LIVE }));
  });
});

describe("admission with Redis configured but unreachable", () => {
  it("keeps counting in memory, and refuses a live key's decision with 503 rather than hand out an allotment it cannot check", async () => {
    // Never connected, and told not to queue: every command fails at once, as during an outage.
    const redis = new Redis("redis://127.0.0.1:9", { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    try {
      const keys = new KeyRegistry([{ key: "oc_live_outagekey001", status: "active", allotment: 5 }]);
      const m = new Meter({ config: loadConfig(METERED), keys, catalog, clock: new FixedClock("2026-11-21T10:00:00Z"), redis });
      const c = m.identify({ ip: "203.0.113.11", serviceKey: "oc_live_outagekey001" });
      expect((await m.admit("conditions", { spot: "hanauma-bay" }, c)).headers.RateLimit).toContain('"facts-hour";r=299;');
      const e = await refusal(m.admit("recommendations", { activity: "snorkel" }, c));
      expect(e).toMatchObject({
        code: "unavailable",
        detail: "This key's allotment cannot be checked just now (its store is unreachable), so the call was not made. Retry shortly.",
        retryAfterS: 30,
      });
    } finally {
      redis.disconnect();
    }
  });
});

describeWithRedis("metering in Redis", () => {
  let server: RedisServer;
  let admin: Redis;
  const clients: Redis[] = [];
  const connect = async () => {
    const r = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await r.connect();
    clients.push(r);
    return r;
  };

  beforeAll(async () => {
    server = await startRedis();
    admin = await connect();
  }, 60_000);
  beforeEach(async () => {
    await admin.flushall();
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await server?.stop();
  });

  it("keeps each window under oc:rl:<policy>:<caller> with the window as its expiry, and reads the time left from it", async () => {
    const one = new RateLimits(LIMITS, await connect(), 76);
    const other = new RateLimits(LIMITS, await connect(), 76);
    // Untouched: the whole quota and window.
    expect(await other.peek(["facts-hour"], "ip:a", false)).toEqual([{ name: "facts-hour", quota: 300, windowS: 3600, remaining: 300, resetS: 3600 }]);
    await one.consume(["facts-hour"], "ip:a", false);
    await one.consume(["facts-hour"], "ip:a", false);
    expect(Number(await admin.get("oc:rl:facts-hour:ip:a"))).toBe(2);
    const ttl = await admin.pttl("oc:rl:facts-hour:ip:a");
    expect(ttl).toBeGreaterThan(3_500_000);
    expect(ttl).toBeLessThanOrEqual(HOUR_MS);
    // Another instance sees the same count and the window's own end, not a fresh window.
    await admin.pexpire("oc:rl:facts-hour:ip:a", 1_500_000);
    const [seen] = await other.peek(["facts-hour"], "ip:a", false);
    expect(seen).toMatchObject({ name: "facts-hour", quota: 300, windowS: 3600, remaining: 298 });
    expect(seen!.resetS).toBeGreaterThan(1470);
    expect(seen!.resetS).toBeLessThanOrEqual(1500);
    const [state] = await other.consume(["facts-hour"], "ip:a", false);
    expect(state).toMatchObject({ remaining: 297 });
    expect(state!.resetS).toBeGreaterThan(1470);
    expect(state!.resetS).toBeLessThanOrEqual(1500);
  });

  it("keeps a caller's spots for the day in a set that expires after two days, and forgets a refused spot there too", async () => {
    const limits = new RateLimits(LIMITS, await connect(), 76);
    expect(await limits.markSpot("ip:a", "2026-11-21", "hanauma-bay")).toBe(true);
    expect(await limits.markSpot("ip:a", "2026-11-21", "hanauma-bay")).toBe(false);
    expect(await admin.smembers("oc:seen:ip:a:2026-11-21")).toEqual(["hanauma-bay"]);
    const ttl = await admin.ttl("oc:seen:ip:a:2026-11-21");
    expect(ttl).toBeGreaterThan(2 * 86_400 - 60);
    expect(ttl).toBeLessThanOrEqual(2 * 86_400);

    // Through admission: a spot the cap refused is not remembered, so it stays refused.
    const redis = await connect();
    const config = loadConfig({ RATE_LIMIT_SPOTS_PER_HOUR: "1" });
    const m = new Meter({ config, keys: null, catalog, clock: new FixedClock("2026-11-21T10:00:00Z"), redis });
    const c = m.identify({ ip: "203.0.113.8" });
    await m.admit("conditions", { spot: "hanauma-bay" }, c);
    for (let i = 0; i < 2; i++) expect((await refusal(m.admit("conditions", { spot: "sharks-cove" }, c))).code).toBe("breadth_limit");
    expect(await admin.smembers("oc:seen:ip:203.0.113.8:2026-11-21")).toEqual(["hanauma-bay"]);
  });

  it("falls back to memory when a key it counts in holds something else, rather than count nothing", async () => {
    const limits = new RateLimits(LIMITS, await connect(), 76);
    // Another writer's value under our names: every command on them fails with WRONGTYPE.
    await admin.hset("oc:rl:facts-hour:ip:b", "x", "1");
    await admin.set("oc:seen:ip:b:2026-11-21", "x");
    expect(await limits.consume(["facts-hour"], "ip:b", false)).toEqual([{ name: "facts-hour", quota: 300, windowS: 3600, remaining: 299, resetS: 3600 }]);
    expect(await limits.markSpot("ip:b", "2026-11-21", "hanauma-bay")).toBe(true);
    expect(await limits.markSpot("ip:b", "2026-11-21", "hanauma-bay")).toBe(false);
  });

  it("counts each key's allotment under its own name, shared by instances, and gives it back there", async () => {
    const keys = new KeyRegistry([
      { key: "oc_live_redisone0001", status: "active", allotment: 1 },
      { key: "oc_live_redistwo0001", status: "active", allotment: 1 },
    ]);
    const config = loadConfig({ ...METERED });
    const meterOn = async () => new Meter({ config, keys, catalog, clock: new FixedClock("2026-11-21T10:00:00Z"), redis: await connect() });
    const [a, b] = [await meterOn(), await meterOn()];
    const ask = (m: Meter, key: string) => m.admit("recommendations", { activity: "snorkel" }, m.identify({ ip: "203.0.113.9", serviceKey: key }));
    const first = await ask(a, "oc_live_redisone0001");
    // The other key has its own count.
    await ask(b, "oc_live_redistwo0001");
    expect((await refusal(ask(b, "oc_live_redisone0001"))).code).toBe("free_allotment_exhausted");
    await first.refund();
    await ask(b, "oc_live_redisone0001");
    expect((await refusal(ask(a, "oc_live_redisone0001"))).code).toBe("free_allotment_exhausted");
  });
});
