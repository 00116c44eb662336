// The answer cache on its own: what an answer depends on, when it is still current, how a question's
// arguments become one key, and how much it holds. The REST and MCP sides are in api-caching.test.ts.
import { describe, expect, it } from "vitest";
import { ANSWER_CACHE_BYTES, AnswerCache } from "../src/services/answer-cache.js";
import { Catalog } from "../src/catalog/catalog.js";
import { FixedClock } from "../src/base/clock.js";
import { startService } from "./helpers/service.js";

describe("answer cache validity", () => {
  const catalog = Catalog.load();
  const spot = catalog.spots[0]!;
  const value = { spot: { id: spot.id } };

  function setup() {
    const clock = new FixedClock("2026-11-21T19:10:00Z");
    const versions = new Map<string, string | null>([[spot.id, "v1"]]);
    const cache = new AnswerCache(clock, { versionOf: (id) => (versions.has(id) ? versions.get(id)! : "v0") }, catalog);
    let computed = 0;
    const compute = () => {
      computed++;
      return { ...value, n: computed };
    };
    return { clock, versions, cache, compute, count: () => computed };
  }

  it("reuses an answer within the hour and recomputes in the next", async () => {
    const t = setup();
    const a = await t.cache.get("conditions", { spot: spot.id }, t.compute);
    const b = await t.cache.get("conditions", { spot: spot.id }, t.compute);
    expect(b).toBe(a);
    t.clock.advance(50 * 60_000);
    const c = await t.cache.get("conditions", { spot: spot.id }, t.compute);
    expect(t.count()).toBe(2);
    expect(c.etag).not.toBe(a.etag);
  });

  it("recomputes when the forecast it read has a new version", async () => {
    const t = setup();
    await t.cache.get("conditions", { spot: spot.id }, t.compute);
    t.versions.set(spot.id, "v2");
    await t.cache.get("conditions", { spot: spot.id }, t.compute);
    expect(t.count()).toBe(2);
  });

  it("keeps nothing while a forecast has a refresh due", async () => {
    const t = setup();
    t.versions.set(spot.id, null);
    await t.cache.get("conditions", { spot: spot.id }, t.compute);
    await t.cache.get("conditions", { spot: spot.id }, t.compute);
    expect(t.count()).toBe(2);
    expect(t.cache.size).toBe(0);
  });

  it("computes once for concurrent callers and never keeps a failure", async () => {
    const t = setup();
    const [x, y] = await Promise.all([t.cache.get("conditions", { spot: spot.id }, t.compute), t.cache.get("conditions", { spot: spot.id }, t.compute)]);
    expect(x).toBe(y);
    expect(t.count()).toBe(1);
    let failures = 0;
    const failing = () => {
      failures++;
      throw new Error("upstream broke");
    };
    await expect(t.cache.get("conditions", { spot: "other" }, failing)).rejects.toThrow("upstream broke");
    await expect(t.cache.get("conditions", { spot: "other" }, failing)).rejects.toThrow("upstream broke");
    expect(failures).toBe(2);
  });

  it("holds at most ANSWER_CACHE_BYTES of answers, each counted at twice its JSON bytes plus 512", async () => {
    const t = setup();
    const MiB = 1024 * 1024;
    // A body of exactly 1 MiB costs 2 MiB + 512: `held` of them fit, and the next evicts the oldest.
    const held = Math.floor(ANSWER_CACHE_BYTES / (2 * MiB + 512));
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(12);
    const big = (n: number) => {
      const bare = JSON.stringify({ ...value, n, pad: "" });
      return { ...value, n, pad: "x".repeat(MiB - Buffer.byteLength(bare)) };
    };
    for (let n = 10; n < 22; n++) {
      const e = await t.cache.get("conditions", { spot: spot.id, n }, () => big(n));
      expect(e.body.length).toBe(MiB);
    }
    expect(t.cache.size).toBe(held);
    // Those held are the last ones (up to 21); the one before them is computed again.
    const older = 22 - held - 1;
    let recomputed = false;
    await t.cache.get("conditions", { spot: spot.id, n: older }, () => ((recomputed = true), big(older)));
    expect(recomputed).toBe(true);
    await t.cache.get("conditions", { spot: spot.id, n: 21 }, () => {
      throw new Error("the newest answer should still be held");
    });
  });

  it("asks one question once however its arguments are written: absent and null alike, any key order", async () => {
    const t = setup();
    const first = await t.cache.get("conditions", { spot: spot.id, activity: "snorkel", date: null }, t.compute);
    expect(await t.cache.get("conditions", { date: undefined, activity: "snorkel", spot: spot.id }, t.compute)).toBe(first);
    expect(await t.cache.get("conditions", { activity: "snorkel", spot: spot.id }, t.compute)).toBe(first);
    expect(t.count()).toBe(1);
    expect(AnswerCache.key("conditions", { b: 1, a: 2 })).toBe(AnswerCache.key("conditions", { a: 2, b: 1 }));
    expect(AnswerCache.key("conditions", { a: 2, b: null })).toBe(AnswerCache.key("conditions", { a: 2 }));
    expect(AnswerCache.key("conditions", { a: 2, b: 1 })).not.toBe(AnswerCache.key("conditions", { a: 2 }));
    // A different value is a different question.
    await t.cache.get("conditions", { spot: spot.id, activity: "dive" }, t.compute);
    expect(t.count()).toBe(2);
  });

  it("keeps coverage and spot listings with the real forecast service as the version source (they read no forecast)", async () => {
    const svc = await startService({ catalog });
    try {
      let n = 0;
      const cache = new AnswerCache(svc.clock, svc.ctx.forecasts, catalog);
      const compute = () => ({ regions: [], n: ++n });
      await cache.get("coverage", {}, compute);
      await cache.get("coverage", {}, compute);
      await cache.get("spots", { region: catalog.regions[0]!.id }, compute);
      await cache.get("spots", { region: catalog.regions[0]!.id }, compute);
      expect(n).toBe(2);
      expect(cache.size).toBe(2);
      // What would make them uncacheable: an id the forecast service does not know has no version.
      expect(svc.ctx.forecasts.versionOf("no-such-spot")).toBeNull();
    } finally {
      await svc.close();
    }
  });

  it("ties a decision naming a region the catalogue no longer has to no spot at all", async () => {
    const t = setup();
    const answer = await t.cache.get("recommendations", { region: "retired-region" }, () => ({ coverage: { regions: ["retired-region"] } }));
    expect([...answer.deps.keys()]).toEqual([]);
  });

  it("ties a decision to every spot of the regions it covered", async () => {
    const region = catalog.regions[0]!;
    const other = region.spots[region.spots.length - 1]!;
    const clock = new FixedClock("2026-11-21T19:10:00Z");
    const versions = new Map<string, string>();
    const cache = new AnswerCache(clock, { versionOf: (id) => versions.get(id) ?? "v0" }, catalog);
    let n = 0;
    const compute = () => ({ coverage: { regions: [region.id] }, n: ++n });
    await cache.get("recommendations", { region: region.id }, compute);
    versions.set(other.id, "v1");
    await cache.get("recommendations", { region: region.id }, compute);
    expect(n).toBe(2);
    // Any of its spots, not only the last.
    for (const [i, s] of region.spots.entries()) versions.set(s.id, `w${i}`);
    const a = await cache.get("recommendations", { region: region.id }, compute);
    expect([...a.deps.keys()].sort()).toEqual(region.spots.map((s) => s.id).sort());
  });
});

describe("answers handed out without waiting (current)", () => {
  const catalog = Catalog.load();
  const region = catalog.regions.find((r) => r.spots.length > 2)!;

  it("hands back a kept decision only while the hour and every spot's version are unchanged, reading the versions for the hour it checked", async () => {
    const clock = new FixedClock("2026-11-21T19:10:00Z");
    const versions = new Map<string, string>();
    const asked: (number | undefined)[] = [];
    const versionOf = (id: string, hour?: number) => {
      asked.push(hour);
      return versions.get(id) ?? "v0";
    };
    const cache = new AnswerCache(clock, { versionOf }, catalog);
    let n = 0;
    const compute = () => ({ coverage: { regions: [region.id] }, n: ++n });
    const canonical = { activity: "snorkel", region: region.id };
    const key = AnswerCache.key("recommendations", canonical);
    expect(cache.current(key)).toBeUndefined();
    const first = await cache.getCanonical("recommendations", canonical, key, compute);
    expect(first.deps.size).toBe(region.spots.length);
    asked.length = 0;
    expect(cache.current(key)).toBe(first);
    // Every spot read for the hour the check read from the clock, once.
    expect(asked).toEqual(region.spots.map(() => Date.parse("2026-11-21T19:00:00Z")));
    // One spot of the region moves on (its upstream answer changed): the decision is no longer handed out, and is computed again.
    versions.set(region.spots[1]!.id, "v1");
    expect(cache.current(key)).toBeUndefined();
    const second = await cache.getCanonical("recommendations", canonical, key, compute);
    expect(second).not.toBe(first);
    expect(n).toBe(2);
    expect(cache.current(key)).toBe(second);
    // The hour turns: nothing of the last hour is current.
    clock.advance(50 * 60_000);
    expect(cache.current(key)).toBeUndefined();
  });
});

describe("answer keys", () => {
  it("writes text as it is and any other value as JSON, so different objects never share an answer and no value can throw", () => {
    expect(AnswerCache.key("conditions", { spot: "hanauma-bay" })).toBe('conditions?[["spot","hanauma-bay"]]');
    expect(AnswerCache.key("conditions", { spot: ["a", "b"] })).toBe('conditions?[["spot",["a","b"]]]');
    expect(AnswerCache.key("conditions", { spot: { a: 1 } })).not.toBe(AnswerCache.key("conditions", { spot: { b: 2 } }));
    expect(AnswerCache.key("conditions", { spot: { a: 1 } })).toBe('conditions?[["spot","{\\"a\\":1}"]]');
    expect(() => AnswerCache.key("conditions", { spot: { toString: 5 } })).not.toThrow();
  });
});
