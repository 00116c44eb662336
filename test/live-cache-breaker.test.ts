// The fault-tolerance parts on their own, driven by a FixedClock: circuit breaker transitions (and
// their log lines), the upstream cache (single flight, model hour, last good, bounds, refresh-ahead)
// and merging swell trains whole.
import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { FixedClock, HOUR_MS } from "../src/base/clock.js";
import { CircuitBreaker } from "../src/sources/breaker.js";
import { UpstreamCache, type UpstreamCacheOptions } from "../src/sources/cache.js";
import { decodeValue, encodeValue } from "../src/sources/shared.js";
import { mergeInputs } from "../src/sources/composite.js";
import { MemoryUpstreamBudget, UpstreamLane, windowReset } from "../src/sources/scheduler.js";
import { emptyInputs, fromSingle, type HourlyInputs, type Origin } from "../src/sources/types.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level: "debug" },
    new Writable({
      write(c: Buffer, _e, done) {
        for (const l of c.toString().split("\n")) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    }),
  );
  return { log, lines };
}

describe("circuit breaker", () => {
  const make = (clock: FixedClock) => {
    const { log, lines } = capture();
    return { b: new CircuitBreaker("test-upstream", { failureThreshold: 3, cooldownMs: 60_000, clock, log }), lines };
  };

  it("opens after N consecutive failures, probes once after the cool-down, and closes on success", () => {
    const clock = new FixedClock("2026-11-21T19:00:00Z");
    const { b, lines } = make(clock);
    for (let i = 0; i < 2; i++) {
      expect(b.tryAcquire()).toBe(true);
      b.onFailure("http");
    }
    expect(b.state).toBe("closed");
    b.tryAcquire();
    b.onFailure("http");
    expect(b.state).toBe("open");
    expect(b.tryAcquire()).toBe(false);
    expect(b.retryAfterS()).toBe(60);
    clock.advance(59_000);
    expect(b.wouldAllow()).toBe(false);
    clock.advance(1_000);
    expect(b.wouldAllow()).toBe(true);
    expect(b.tryAcquire()).toBe(true);
    expect(b.state).toBe("half-open");
    // One probe at a time.
    expect(b.tryAcquire()).toBe(false);
    b.onSuccess();
    expect(b.state).toBe("closed");
    const changes = lines.filter((l) => l.breaker).map((l) => [(l.breaker as { to: string }).to, l.msg]);
    expect(changes).toEqual([
      ["open", "upstream test-upstream: circuit opened, calls paused"],
      ["half-open", "upstream test-upstream: circuit half-open, probing"],
      ["closed", "upstream test-upstream: circuit closed, upstream healthy again"],
    ]);
  });

  it("re-opens when the probe fails, and a success resets the failure count", () => {
    const clock = new FixedClock("2026-11-21T19:00:00Z");
    const { b } = make(clock);
    b.onFailure("x");
    b.onFailure("x");
    b.onSuccess();
    b.onFailure("x");
    expect(b.state).toBe("closed");
    b.onFailure("x");
    b.onFailure("x");
    expect(b.state).toBe("open");
    clock.advance(60_000);
    b.tryAcquire();
    b.onFailure("timeout");
    expect(b.state).toBe("open");
    expect(b.retryAfterS()).toBe(60);
  });

  it("honours a 429's Retry-After: open at once, for at least that long", () => {
    const clock = new FixedClock("2026-11-21T19:00:00Z");
    const { b } = make(clock);
    b.tryAcquire();
    b.onFailure("rate_limited", 600_000);
    expect(b.state).toBe("open");
    expect(b.retryAfterS()).toBe(600);
    clock.advance(300_000);
    expect(b.tryAcquire()).toBe(false);
    clock.advance(300_000);
    expect(b.tryAcquire()).toBe(true);
  });
});

describe("upstream cache", () => {
  const make = (clock: FixedClock, over: Partial<UpstreamCacheOptions<string>> = {}) =>
    new UpstreamCache<string>({
      name: "t",
      clock,
      periodMs: HOUR_MS,
      maxBytes: 1000,
      sizeOf: (v) => v.length,
      maxStaleMs: 72 * HOUR_MS,
      refreshAheadMs: 10 * 60_000,
      recentMs: 3 * HOUR_MS,
      canCall: () => true,
      log: pino({ level: "silent" }),
      ...over,
    });

  it("makes one upstream call for many concurrent identical requests", async () => {
    const clock = new FixedClock("2026-11-21T19:00:00Z");
    const cache = make(clock);
    let calls = 0;
    const load = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 20));
      return "answer";
    };
    const got = await Promise.all(Array.from({ length: 25 }, () => cache.get("oahu", load)));
    expect(calls).toBe(1);
    expect(new Set(got).size).toBe(1);
    expect(got[0]!.fetchedAt.toISOString()).toBe("2026-11-21T19:00:00.000Z");
  });

  it("serves an answer for the rest of its model hour, then fetches again", async () => {
    const clock = new FixedClock("2026-11-21T19:00:00Z");
    const cache = make(clock);
    let n = 0;
    const load = async () => `v${++n}`;
    expect((await cache.get("g", load)).value).toBe("v1");
    clock.set("2026-11-21T19:59:59Z");
    expect((await cache.get("g", load)).value).toBe("v1");
    clock.set("2026-11-21T20:00:00Z");
    expect((await cache.get("g", load)).value).toBe("v2");
  });

  it("serves the last good answer, with its real fetch time, when a refresh fails; not once it is too old", async () => {
    const clock = new FixedClock("2026-11-21T19:00:00Z");
    const cache = make(clock);
    await cache.get("g", async () => "good");
    clock.advance(5 * HOUR_MS);
    const stale = await cache.get("g", async () => Promise.reject(new Error("down")));
    expect(stale.value).toBe("good");
    expect(stale.fetchedAt.toISOString()).toBe("2026-11-21T19:00:00.000Z");
    clock.advance(70 * HOUR_MS);
    await expect(cache.get("g", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
  });

  it("stays within its byte budget however many groups and hours pass, and tells the operator once an hour that it is too small", async () => {
    const clock = new FixedClock("2026-11-21T00:00:00Z");
    const { log, lines } = capture();
    const cache = make(clock, { maxBytes: 1000, log });
    for (let h = 0; h < 48; h++) {
      for (let g = 0; g < 40; g++) await cache.get(`group-${g}`, async () => "x".repeat(100));
      clock.advance(HOUR_MS);
      expect(cache.stats().bytes).toBeLessThanOrEqual(1000);
    }
    expect(cache.stats().entries).toBe(10);
    expect(cache.stats().evictions).toBeGreaterThan(48 * 30 - 1);
    // Forty groups asked every hour in room for ten: recently asked answers are evicted and downloaded
    // again, which is worth a warning, but one an hour, not one per eviction.
    const warnings = lines.filter((l) => String(l.msg).startsWith("upstream cache full"));
    expect(warnings).toHaveLength(48);
    expect(warnings[0]).toMatchObject({ level: 40, cache: "t", maxBytes: 1000 });
  });

  it("counts an answer confirmed or held hour after hour once, so a budget that holds every group's download keeps them all", async () => {
    // Three groups of 100 bytes in 350: each hour's confirmation (nothing newer upstream) and each
    // refresh fetched ahead keeps the same answer for another period. Counted once per period, the
    // copies would overflow the budget and evict current answers, and callers would download again.
    const clock = new FixedClock("2026-11-21T00:00:00Z");
    const cache = make(clock, { maxBytes: 350, refreshAheadMs: 10 * 60_000 });
    const downloads: string[] = [];
    const load = (g: string) => async () => {
      downloads.push(g);
      return g.padEnd(100, ".");
    };
    const nothingNewer = async () => false;
    const groups = ["a", "b", "c"];
    for (let h = 0; h < 12; h++) {
      for (const g of groups) await cache.get(g, load(g), nothingNewer);
      clock.advance(55 * 60_000);
      await cache.refreshAhead();
      for (const g of groups) await cache.get(g, load(g), nothingNewer);
      clock.advance(5 * 60_000);
      expect(cache.stats().bytes).toBeLessThanOrEqual(350);
    }
    expect(downloads).toEqual(groups);
    expect(cache.stats().evictions).toBe(0);
    // Asked in the new hour: one answer per group, the periods it replaced dropped.
    for (const g of groups) await cache.get(g, load(g), nothingNewer);
    expect(cache.stats()).toMatchObject({ groups: 3, entries: 3, bytes: 300 });
  });

  it("fetches the next hour ahead for groups asked about recently, and only those", async () => {
    const clock = new FixedClock("2026-11-21T19:00:00Z");
    const cache = make(clock);
    const loads: string[] = [];
    const loader = (g: string) => async () => {
      loads.push(`${g}@${clock.now().toISOString().slice(11, 16)}`);
      return g;
    };
    await cache.get("recent", loader("recent"));
    clock.set("2026-11-21T15:00:00Z");
    await cache.get("old", loader("old"));
    clock.set("2026-11-21T19:30:00Z");
    expect(await cache.refreshAhead()).toBe(0); // too early in the hour
    clock.set("2026-11-21T19:52:00Z");
    expect(await cache.refreshAhead()).toBe(1);
    expect(await cache.refreshAhead()).toBe(0); // already done
    clock.set("2026-11-21T20:00:30Z");
    await cache.get("recent", loader("recent"));
    expect(loads).toEqual(["recent@19:00", "old@15:00", "recent@19:52"]);
  });

  it("has a revision that changes with new data and is null while a refresh is due and callable", async () => {
    const clock = new FixedClock("2026-11-21T19:00:00Z");
    let callable = true;
    const cache = make(clock, { canCall: () => callable });
    expect(cache.revision("g")).toBeNull();
    await cache.get("g", async () => "a");
    const r1 = cache.revision("g");
    expect(r1).not.toBeNull();
    clock.set("2026-11-21T20:10:00Z");
    expect(cache.revision("g")).toBeNull();
    callable = false;
    expect(cache.revision("g")).toBe(r1);
  });
});

describe("merging sources", () => {
  const start = new Date("2026-11-21T00:00:00Z");
  const origin = (id: string): Origin => ({ id, climatology: id === "clim", fetchedAt: null, credits: [] });
  const part = (id: string, fill: (p: HourlyInputs) => void) => {
    const p = emptyInputs(start, 2);
    p.origins.push(origin(id));
    fill(p);
    for (const f of Object.keys(p.values) as (keyof HourlyInputs["values"])[]) p.values[f].forEach((v, i) => !Number.isNaN(v) && (p.origin[f][i] = 0));
    return p;
  };

  it("takes a swell train whole from one source, and never grafts seasonal norms onto a live sea", () => {
    const live = part("live", (p) => {
      p.values.swell1_height_m.set([1.2, 1.1]);
      p.values.swell1_period_s.set([12, Number.NaN]); // hour 1: height but no period → incomplete
      p.values.swell1_from_deg.set([200, 200]);
      p.values.swell2_height_m.set([0, 0]); // "no secondary train"
    });
    const clim = part("clim", (p) => {
      p.values.swell1_height_m.set([2, 2]);
      p.values.swell1_period_s.set([9, 9]);
      p.values.swell1_from_deg.set([45, 45]);
      p.values.swell2_height_m.set([0.5, 0.5]);
      p.values.swell2_period_s.set([7, 7]);
      p.values.swell2_from_deg.set([90, 90]);
      p.values.wind_speed_kt.set([10, 10]);
    });
    const m = mergeInputs(start, 2, [live, clim]);
    const ids = (f: keyof HourlyInputs["values"]) => [...m.origin[f]].map((o) => (o === 255 ? null : m.origins[o]!.id));
    expect([...m.values.swell1_height_m]).toEqual([1.2, 2]);
    expect([...m.values.swell1_period_s]).toEqual([12, 9]);
    expect(ids("swell1_from_deg")).toEqual(["live", "clim"]);
    expect([...m.values.swell2_height_m]).toEqual([0, 0]);
    expect([...m.values.swell2_period_s]).toEqual([Number.NaN, Number.NaN]);
    expect(ids("swell2_height_m")).toEqual(["live", "live"]);
    expect(ids("wind_speed_kt")).toEqual(["clim", "clim"]);
  });
});

describe("upstream scheduler lane", () => {
  const lane = (clock: FixedClock, concurrency = 1, perHour = 100) =>
    new UpstreamLane("test-upstream", { budget: new MemoryUpstreamBudget(concurrency, [{ id: "hour", limit: perHour }]), clock, log: capture().log });

  it("runs one request at a time and hands the slot to a waiting caller before refresh work", async () => {
    const l = lane(new FixedClock("2026-11-21T19:00:00Z"));
    const order: string[] = [];
    // One slot, handed from request to request.
    const slot = await l.acquire({ priority: "caller" });
    const waiting = [
      l.acquire({ priority: "refresh" }).then(() => order.push("refresh-1")),
      l.acquire({ priority: "refresh" }).then(() => order.push("refresh-2")),
      l.acquire({ priority: "caller" }).then(() => order.push("caller")),
    ];
    const promoted = { priority: "refresh" as "refresh" | "caller" };
    waiting.push(l.acquire(promoted).then(() => order.push("promoted")));
    // A caller joins that refresh: it moves up.
    promoted.priority = "caller";
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    for (let i = 0; i < 4; i++) {
      await l.release(slot);
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(waiting);
    expect(order).toEqual(["caller", "promoted", "refresh-1", "refresh-2"]);
    expect(l.stats.maxRunning).toBe(1);
  });

  it("never strands a waiter when the slot frees while it is joining the queue", async () => {
    const l = lane(new FixedClock("2026-11-21T19:00:00Z"));
    const first = await l.acquire({ priority: "caller" });
    const joining = l.acquire({ priority: "refresh" });
    await l.release(first);
    await joining;
    expect(l.stats.running).toBe(1);
  });

  it("spends weighted calls per fixed UTC window and, once refused, waits for the window's reset", async () => {
    const clock = new FixedClock("2026-11-21T19:40:00Z");
    const l = lane(clock, 1, 100);
    await l.spend(90);
    expect(await l.blockedUntil(10)).toBe(0);
    expect(await l.blockedUntil(11)).toBe(Date.parse("2026-11-21T20:00:00Z"));
    clock.set("2026-11-21T20:00:00Z");
    expect(await l.blockedUntil(11)).toBe(0);
    await l.block(windowReset("day", clock.now().getTime()), "daily quota");
    expect(l.paused()).toBe(true);
    expect(await l.blockedUntil(1)).toBe(Date.parse("2026-11-22T00:00:00Z"));
    clock.set("2026-11-22T00:00:00Z");
    expect(l.paused()).toBe(false);
    expect(await l.blockedUntil(1)).toBe(0);
  });
});

describe("answers written to Redis", () => {
  it("read back as the same typed arrays, float32 series at the decimals every instance reads them with, NaN kept, dates and maps restored", () => {
    // A cached Open-Meteo answer holds float32 series (converted units included), a Map and dates.
    const swell = Float32Array.from([1.24, Number.NaN, 1.24 * 3.28084, 0.1 + 0.2, 245]);
    const value = { points: [{ start: 0, hours: 5, values: { swell1_height_m: swell } }], at: new Date("2026-11-21T19:00:00Z"), m: new Map([["a", Float64Array.from([Math.PI, Number.NaN])]]) };
    const text = encodeValue(value);
    const back = decodeValue(text) as typeof value;
    const read = back.points[0]!.values.swell1_height_m;
    expect(read).toBeInstanceOf(Float32Array);
    // Another instance's forecast reads exactly what this one's does.
    expect([...read].map(fromSingle)).toEqual([...swell].map(fromSingle));
    expect([...read].map(fromSingle)).toEqual([1.24, Number.NaN, 4.0682, 0.3, 245]);
    expect(text).toContain("[1.24,null,4.0682,0.3,245]");
    expect(back.at).toEqual(value.at);
    const m = back.m.get("a")!;
    expect(m).toBeInstanceOf(Float64Array);
    expect(m[0]).toBe(Math.PI);
    expect(m[1]).toBeNaN();
  });
});
