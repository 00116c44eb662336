// Answers are computed once per hour and forecast version, shared by REST and MCP, and REST hands
// them out with an ETag and a freshness lifetime that ends at the next hourly refresh.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnswerCache } from "../src/answer-cache.js";
import { Catalog } from "../src/catalog/catalog.js";
import { FixedClock } from "../src/clock.js";
import { liveRuns } from "./helpers/live.js";
import { connectClient } from "./helpers/mcp.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ now: "2026-11-21T19:45:00Z" });
});
afterAll(() => svc.close());

const COND = "/api/v1/conditions?spot=hanauma-bay";

describe("REST caching headers", () => {
  it("gives each answer an ETag and a lifetime that ends at the next hour", async () => {
    const r = await svc.get(COND);
    expect(r.status).toBe(200);
    expect(r.headers.get("etag")).toMatch(/^"[\w-]{27}"$/);
    // 19:45:00 → 15 minutes until the 20:00 refresh.
    expect(r.headers.get("cache-control")).toBe("public, max-age=900");
    expect(Number(r.headers.get("content-length"))).toBe(Buffer.byteLength(await r.text()));
  });

  it("answers a matching If-None-Match with 304 and no body, in any list form", async () => {
    const etag = (await svc.get(COND)).headers.get("etag")!;
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`, "*"]) {
      const r = await svc.get(COND, { headers: { "If-None-Match": header } });
      expect(r.status, header).toBe(304);
      expect(await r.text()).toBe("");
      expect(r.headers.get("etag")).toBe(etag);
    }
    const miss = await svc.get(COND, { headers: { "If-None-Match": '"stale"' } });
    expect(miss.status).toBe(200);
  });

  it("answers HEAD with the headers and no body", async () => {
    const get = await svc.get(COND);
    const head = await svc.get(COND, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(head.headers.get("content-length")).toBe(get.headers.get("content-length"));
    expect(await head.text()).toBe("");
  });

  it("treats the same question however the query is written as one answer", async () => {
    const a = await svc.get("/api/v1/recommendations?activity=snorkel&region=us-hi-oahu&day=2026-11-22");
    const b = await svc.get("/api/v1/recommendations?day=2026-11-22&region=us-hi-oahu&activity=snorkel");
    expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
  });

  it("serves a new answer once the hour turns", async () => {
    const before = await svc.json<{ issued_at?: string; generated_at?: string }>(COND);
    svc.clock.set("2026-11-21T20:00:00Z");
    try {
      const after = await svc.json(COND);
      expect(after.res.headers.get("etag")).not.toBe(before.res.headers.get("etag"));
      expect(after.res.headers.get("cache-control")).toBe("public, max-age=3600");
    } finally {
      svc.clock.set("2026-11-21T19:45:00Z");
    }
  });

  it("never caches a problem", async () => {
    const r = await svc.get("/api/v1/conditions?spot=nowhere");
    expect(r.status).toBe(404);
    expect(r.headers.get("etag")).toBeNull();
  });

  it("shares answers between REST and MCP", async () => {
    expect((await svc.get("/api/v1/conditions?spot=sharks-cove")).status).toBe(200);
    const size = svc.ctx.answers.size;
    const { client, close } = await connectClient(svc.base, "2026-07-28");
    try {
      const r = await client.callTool({ name: "get_conditions", arguments: { spot: "sharks-cove" } });
      expect(r.isError).toBeFalsy();
      expect(svc.ctx.answers.size).toBe(size);
    } finally {
      await close();
    }
  });
});

describe("ETag follows the content", () => {
  const live = liveRuns();

  it("changes when the data is refreshed mid-hour, and the old tag then gets the new body with 200", async () => {
    // A generous upstream timeout: on a loaded machine a slow stub answer must not change the body.
    // The breaker stays shut: this test is about ETags, and waiting out the satellite answer repeats the failing call.
    const r = await live({ mode: "auto", now: "2026-11-21T19:05:00Z", env: { UPSTREAM_TIMEOUT_MS: "15000", BREAKER_FAILURES: "100" } });
    // The marine upstream is down at first: the answer is built on seasonal norms for swell.
    r.stub.fault("marine", { kind: "http500" });
    // ERDDAP is fetched behind the first caller, so the answer changes once more when the satellite
    // observation arrives (a legitimate new tag): wait for it. Two equal answers in a row are not
    // enough: on a loaded machine the fetch can outlast the gap between them.
    let first = await r.svc.get(COND);
    await expect
      .poll(
        async () => {
          first = await r.svc.get(COND);
          return ((await first.clone().json()) as { sources: string[] }).sources.some((s) => s.startsWith("erddap:"));
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(true);
    expect(first.status).toBe(200);
    const before = (await first.json()) as { sources: string[] };
    expect(before.sources).toContain("climatology:us-hi-oahu");
    const oldTag = first.headers.get("etag")!;
    expect(oldTag).toMatch(/^"[\w-]+"$/);
    expect((await r.svc.get(COND, { headers: { "If-None-Match": oldTag } })).status).toBe(304);

    // Later in the same hour the upstream is back and the next request brings live swell.
    r.stub.fault("marine", null);
    r.svc.clock.set("2026-11-21T19:35:00Z");
    const again = await r.svc.get(COND, { headers: { "If-None-Match": oldTag } });
    expect(again.status).toBe(200);
    const after = (await again.json()) as { sources: string[] };
    expect(after.sources).toContain("open-meteo:marine");
    expect(after.sources).not.toContain("climatology:us-hi-oahu");
    let newTag = again.headers.get("etag")!;
    expect(newTag).not.toBe(oldTag);
    // Refreshes the recovery set off may still land behind this answer (each a new tag); once they
    // have, the current tag is answered 304 and the norms-era tag still gets the body.
    await expect
      .poll(
        async () => {
          const next = await r.svc.get(COND, { headers: { "If-None-Match": newTag } });
          if (next.status === 200) newTag = next.headers.get("etag")!;
          return next.status;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(304);
    expect(newTag).not.toBe(oldTag);
    expect((await r.svc.get(COND, { headers: { "If-None-Match": oldTag } })).status).toBe(200);
    // Each refresh replaced the spot's forecast: one spot asked about, one forecast held.
    expect(r.svc.ctx.forecasts.cachedForecasts).toBe(1);
  });
});

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

  it("holds at most 16 MiB of answers, each counted at twice its JSON bytes plus 512", async () => {
    const t = setup();
    const MiB = 1024 * 1024;
    // A body of exactly 1 MiB costs 2 MiB + 512: seven fit in 16 MiB, the eighth evicts the oldest.
    const big = (n: number) => {
      const bare = JSON.stringify({ ...value, n, pad: "" });
      return { ...value, n, pad: "x".repeat(MiB - Buffer.byteLength(bare)) };
    };
    for (let n = 10; n < 22; n++) {
      const e = await t.cache.get("conditions", { spot: spot.id, n }, () => big(n));
      expect(e.body.length).toBe(MiB);
    }
    expect(t.cache.size).toBe(7);
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
