// Rate limits (spec section 8) through real HTTP and the MCP client: per-caller facts caps, the
// distinct-spot caps (repeat lookups of a spot never count), decision bursts, AI fetchers, proxies,
// 429 problems with Retry-After and the RateLimit headers, and the same codes as MCP tool errors.
import { describe, expect, it } from "vitest";
import { rateLimitHeaders, RateLimits } from "../src/services/metering/limits.js";
import { ToolErrorSchema } from "../src/schemas/tool-error.js";
import { connectClient } from "./helpers/mcp.js";
import { expectProblem } from "./helpers/problem.js";
import { servicesPerTest } from "./helpers/service.js";

const service = servicesPerTest();

describe("facts caps", () => {
  it("counts conditions and spots together and answers 429 rate_limited with Retry-After and RateLimit headers", async () => {
    const svc = await service({ RATE_LIMIT_FACTS_PER_HOUR: "4", RATE_LIMIT_FACTS_PER_DAY: "100" });
    const seen: string[] = [];
    for (const path of ["/api/v1/conditions?spot=hanauma-bay", "/api/v1/spots", "/api/v1/spots", "/api/v1/conditions?spot=hanauma-bay"]) {
      const res = await svc.get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe('"facts-hour";q=4;w=3600, "facts-day";q=100;w=86400');
      seen.push(res.headers.get("ratelimit")!);
    }
    expect(seen.map((h) => /"facts-hour";r=(\d+)/.exec(h)![1])).toEqual(["3", "2", "1", "0"]);
    const refused = await svc.json("/api/v1/spots");
    expectProblem(svc, refused.status, refused.body, 429, "rate_limited");
    const retry = Number(refused.res.headers.get("retry-after"));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThan(3500);
    expect(retry).toBeLessThanOrEqual(3600);
    expect(refused.res.headers.get("ratelimit")).toMatch(/"facts-hour";r=0;t=\d+/);
    // Decisions are throttled separately.
    expect((await svc.get("/api/v1/recommendations?activity=snorkel&region=us-hi-oahu")).status).toBe(200);
    // The coverage listing counts toward no cap: it still answers, with no RateLimit headers.
    const coverage = await svc.get("/api/v1/coverage");
    expect(coverage.status).toBe(200);
    expect(coverage.headers.get("ratelimit-policy")).toBeNull();
  });

  it("sets Retry-After to the time left until the window resets, as the RateLimit header's t= says, not the whole window", async () => {
    const svc = await service({ RATE_LIMIT_FACTS_PER_HOUR: "1", RATE_LIMIT_FACTS_PER_DAY: "100" });
    expect((await svc.get("/api/v1/spots")).status).toBe(200);
    // The counters run on the service's clock: move it a few seconds into the hour's window.
    svc.clock.advance(2500);
    const refused = await svc.json("/api/v1/spots");
    expectProblem(svc, refused.status, refused.body, 429, "rate_limited");
    const retry = Number(refused.res.headers.get("retry-after"));
    const reset = Number(/"facts-hour";r=0;t=(\d+)/.exec(refused.res.headers.get("ratelimit") ?? "")?.[1]);
    expect(retry).toBe(reset);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(3600 - 2);
    expect(refused.body.detail).toContain(`Retry in ${retry} s`);
  });

  it("gives the same code to MCP tool calls, which share the caller's budget", async () => {
    const svc = await service({ RATE_LIMIT_FACTS_PER_HOUR: "2" });
    await svc.get("/api/v1/spots");
    const c = await connectClient(svc.base, "2026-07-28");
    try {
      const ok = await c.client.callTool({ name: "get_conditions", arguments: { spot: "hanauma-bay" } });
      expect(ok.isError ?? false).toBe(false);
      // list_coverage counts toward no cap, before or after the budget is spent.
      for (let i = 0; i < 3; i++) expect((await c.client.callTool({ name: "list_coverage", arguments: {} })).isError ?? false).toBe(false);
      const refused = await c.client.callTool({ name: "get_conditions", arguments: { spot: "hanauma-bay" } });
      expect(refused.isError).toBe(true);
      const err = ToolErrorSchema.parse(refused.structuredContent).error;
      expect(err).toMatchObject({ code: "rate_limited", status: 429 });
      expect(err.retry_after_s).toBeGreaterThan(3000);
    } finally {
      await c.close();
    }
  });

  it("gives user-triggered AI fetchers a multiplied cap", async () => {
    const svc = await service({ RATE_LIMIT_FACTS_PER_HOUR: "2", AI_FETCHER_MULTIPLIER: "3" });
    const ua = { "User-Agent": "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; Claude-User/1.0" };
    for (let i = 0; i < 6; i++) expect((await svc.get("/api/v1/spots", { headers: ua })).status).toBe(200);
    expect((await svc.get("/api/v1/spots", { headers: ua })).status).toBe(429);
    // A browser from the same address shares the one counter, with the ordinary quota: already spent.
    const browser = await svc.get("/api/v1/spots");
    expect(browser.status).toBe(429);
    expect(browser.headers.get("ratelimit-policy")).toContain('"facts-hour";q=2;');
  });
});

describe("distinct spots", () => {
  it("caps new spots per hour with breadth_limit while repeat lookups of today's spots still answer", async () => {
    const svc = await service({ RATE_LIMIT_SPOTS_PER_HOUR: "3", RATE_LIMIT_SPOTS_PER_DAY: "10" });
    for (const spot of ["hanauma-bay", "sharks-cove", "la-jolla-cove"]) expect((await svc.get(`/api/v1/conditions?spot=${spot}`)).status).toBe(200);
    const refused = await svc.json("/api/v1/conditions?spot=three-tables");
    expectProblem(svc, refused.status, refused.body, 429, "breadth_limit");
    expect(refused.body.detail).toMatch(/already asked about today still answer/);
    expect(refused.res.headers.get("retry-after")).toMatch(/^\d+$/);
    // Repeats never count, by id or by a lat/lon that snaps to the same spot.
    for (let i = 0; i < 5; i++) expect((await svc.get("/api/v1/conditions?spot=hanauma-bay")).status).toBe(200);
    expect((await svc.get("/api/v1/conditions?lat=32.8503&lon=-117.2714")).status).toBe(200);
    const ok = await svc.get("/api/v1/conditions?spot=sharks-cove");
    expect(ok.headers.get("ratelimit")).toMatch(/"spots-hour";r=0;/);
    // A refused spot was not recorded: it is still refused, not waved through as "seen".
    expect((await svc.get("/api/v1/conditions?spot=three-tables")).status).toBe(429);
    // Requests that name no real spot do not count against breadth at all.
    expect((await svc.get("/api/v1/conditions?spot=atlantis")).status).toBe(404);
  });
});

describe("distinct spots per day", () => {
  it("caps new spots per day with breadth_limit even when the hourly cap has room", async () => {
    const svc = await service({ RATE_LIMIT_SPOTS_PER_HOUR: "50", RATE_LIMIT_SPOTS_PER_DAY: "2" });
    for (const spot of ["hanauma-bay", "sharks-cove"]) {
      const ok = await svc.get(`/api/v1/conditions?spot=${spot}`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("ratelimit-policy")).toContain('"spots-day";q=2;w=86400');
    }
    const refused = await svc.json("/api/v1/conditions?spot=la-jolla-cove");
    expectProblem(svc, refused.status, refused.body, 429, "breadth_limit");
    expect(refused.body.detail).toMatch(/today/);
    expect(refused.body.policy).toBe("spots-day");
    expect(Number(refused.res.headers.get("retry-after"))).toBeGreaterThan(3600);
    // Today's spots still answer.
    expect((await svc.get("/api/v1/conditions?spot=sharks-cove")).status).toBe(200);
  });
});

describe("decision bursts", () => {
  it("throttles decisions in short bursts and lets them through again once the window passes", async () => {
    const svc = await service({ RATE_LIMIT_DECISIONS_BURST: "3", RATE_LIMIT_DECISIONS_WINDOW_S: "1" });
    for (let i = 0; i < 3; i++) expect((await svc.get("/api/v1/best-day?activity=dive&spot=molokini-back-wall")).status).toBe(200);
    const refused = await svc.json("/api/v1/recommendations?activity=snorkel&region=us-hi-oahu");
    expectProblem(svc, refused.status, refused.body, 429, "rate_limited");
    expect(Number(refused.res.headers.get("retry-after"))).toBe(1);
    expect(refused.res.headers.get("ratelimit-policy")).toBe('"decisions-burst";q=3;w=1');
    // A tenth of a second short of the window it is still refused; once the clock passes it, answered.
    svc.clock.advance(900);
    expect((await svc.get("/api/v1/recommendations?activity=snorkel&region=us-hi-oahu")).status).toBe(429);
    svc.clock.advance(200);
    expect((await svc.get("/api/v1/recommendations?activity=snorkel&region=us-hi-oahu")).status).toBe(200);
  });
});

describe("who the caller is", () => {
  it("ignores X-Forwarded-For unless TRUST_PROXY is set", async () => {
    const direct = await service({ RATE_LIMIT_FACTS_PER_HOUR: "1" });
    expect((await direct.get("/api/v1/spots", { headers: { "X-Forwarded-For": "203.0.113.1" } })).status).toBe(200);
    expect((await direct.get("/api/v1/spots", { headers: { "X-Forwarded-For": "203.0.113.2" } })).status).toBe(429);
    const proxied = await service({ RATE_LIMIT_FACTS_PER_HOUR: "1", TRUST_PROXY: "loopback" });
    expect((await proxied.get("/api/v1/spots", { headers: { "X-Forwarded-For": "203.0.113.1" } })).status).toBe(200);
    expect((await proxied.get("/api/v1/spots", { headers: { "X-Forwarded-For": "203.0.113.2" } })).status).toBe(200);
    expect((await proxied.get("/api/v1/spots", { headers: { "X-Forwarded-For": "203.0.113.1" } })).status).toBe(429);
  });
});

describe("a caller's budget before it is touched", () => {
  it("reports the whole quota and window for every enabled policy, multiplied for AI fetchers, and leaves out disabled ones", async () => {
    const limits = new RateLimits(
      { factsPerHour: 5, factsPerDay: 50, spotsPerHour: 3, spotsPerDay: 10, decisionsBurst: 0, decisionsWindowS: 10, rendersPerHour: 0, failedKeys: 0, maxCallers: 1000, aiFetcherMultiplier: 4 },
      null,
      76,
    );
    const fresh = await limits.peek(["spots-hour", "spots-day", "decisions-burst"], "ip:203.0.113.9", false);
    expect(fresh).toEqual([
      { name: "spots-hour", quota: 3, windowS: 3600, remaining: 3, resetS: 3600 },
      { name: "spots-day", quota: 10, windowS: 86400, remaining: 10, resetS: 86400 },
    ]);
    expect(rateLimitHeaders(fresh)).toEqual({
      "RateLimit-Policy": '"spots-hour";q=3;w=3600, "spots-day";q=10;w=86400',
      RateLimit: '"spots-hour";r=3;t=3600, "spots-day";r=10;t=86400',
    });
    expect((await limits.peek(["facts-hour"], "ip:203.0.113.9", true))[0]).toMatchObject({ quota: 20, remaining: 20 });
    expect(rateLimitHeaders([])).toEqual({});
  });
});
