// Answers are computed once per hour and forecast version, shared by REST and MCP, and REST hands
// them out with an ETag and a freshness lifetime that ends at the next hourly refresh.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  it("keeps one answer however many unknown parameters a caller makes up (they are ignored)", async () => {
    const first = await svc.get("/api/v1/conditions?spot=sharks-cove");
    const before = svc.ctx.answers.size;
    for (let i = 0; i < 20; i++) {
      const r = await svc.get(`/api/v1/conditions?spot=sharks-cove&zz${i}=${i}&cachebuster=${i}`);
      expect(r.status).toBe(200);
      expect(r.headers.get("etag")).toBe(first.headers.get("etag"));
    }
    expect(svc.ctx.answers.size).toBe(before);
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
