// Fault injection through the stub, per upstream: timeout, HTTP 500, HTTP 429 with Retry-After,
// malformed JSON, a body in the wrong shape, partial nulls (and CO-OPS's HTTP-200 error). Checked
// through GET /api/v1/conditions: never a 5xx other than 503 data_unavailable, honest labels, the
// breaker opening and recovering on the pinned clock, last good data with honest freshness, and
// memory that stays bounded across many spots and hours.
import { describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { HOUR_MS } from "../src/base/clock.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import { MAX_STALE_MS, UPSTREAMS } from "../src/sources/live.js";
import type { FaultKind, StubUpstream } from "../scripts/stub/upstreams.js";
import { expectProblem } from "./helpers/problem.js";
import { HANG_TIMEOUT, liveRuns, type LiveRun } from "./helpers/live.js";

const catalog = Catalog.load();
const live = liveRuns();
const conditions = (r: LiveRun, spot: string) => r.svc.json<ConditionsJson>(`/api/v1/conditions?spot=${spot}`);

const FAULTS: FaultKind[] = ["timeout", "http500", "http429", "malformed", "shape", "partial-nulls"];

/** What each upstream feeds, as a response shows it. */
const FEEDS: Record<StubUpstream, (b: ConditionsJson) => boolean> = {
  marine: (b) => b.sources.includes("open-meteo:marine"),
  forecast: (b) => b.sources.includes("open-meteo:forecast"),
  coops: (b) => b.sources.includes("noaa-coops:1612301"),
  erddap: (b) => b.sources.some((s) => s.startsWith("erddap:")),
};

describe.each(["marine", "forecast", "coops", "erddap"] as const)("%s faults, auto mode", (upstream) => {
  const faults: FaultKind[] = upstream === "coops" ? [...FAULTS, "coops-error"] : FAULTS;
  it.each(faults)("%s: answers 200 with honest labels", async (kind) => {
    const r = await live({ mode: "auto", env: kind === "timeout" ? { ...HANG_TIMEOUT } : {} });
    r.stub.fault(upstream, { kind, retryAfterS: 90 });
    let { status, body } = await conditions(r, "hanauma-bay");
    // Nobody waits on ERDDAP: its answer arrives behind the first request and shapes the next.
    await r.svc.ctx.upstreams!.settled();
    if (upstream === "erddap") ({ status, body } = await conditions(r, "hanauma-bay"));
    expect(status).toBe(200);
    expect(body.periods.every((p) => p.score !== null)).toBe(true);
    // Partial nulls still feed the answer; every other fault removes the feed, and the label with it.
    expect(FEEDS[upstream](body)).toBe(kind === "partial-nulls" && upstream !== "coops");
    const other = (["marine", "forecast", "coops"] as const).filter((u) => u !== upstream);
    for (const u of other) expect(FEEDS[u](body)).toBe(true);
    const providers = body.data_credits.map((c) => c.provider);
    expect(providers).toContain("Open-Meteo");
    if (upstream === "marine" || upstream === "forecast") {
      expect(body.sources).toContain("climatology:us-hi-oahu");
      expect(providers).toContain("Ocean Conditions seasonal norms");
      if (kind !== "partial-nulls") expect(body.periods.every((p) => p.why!.includes("Seasonal norms") || p.visibility_source === "satellite")).toBe(true);
    } else {
      expect(body.sources.some((s) => s.startsWith("climatology:"))).toBe(false);
    }
    if (upstream === "coops") {
      expect(body.sources).toContain("tide-harmonics:noaa/1612301");
      expect(providers).not.toContain("NOAA CO-OPS");
      expect(body.tide_events.length).toBeGreaterThan(20);
    }
    if (upstream === "erddap" && kind !== "partial-nulls") {
      expect(body.data_quality.visibility_source).toBe("heuristic");
      expect(providers).not.toContain("NOAA CoastWatch");
    }
    expect(body.data_quality.freshness).toBe("live");
    // One logged failure per call that failed: none for nulls, CO-OPS's "no data" or a 429 (the
    // upstream pacing us, retried, not a failure); ERDDAP tries its gap-filled dataset after any
    // failure of the first, and a failing ERDDAP is not asked again on the next request.
    const failures = r.logs.filter((l) => l.msg === `upstream ${UPSTREAM_NAME[upstream]} failed`);
    const benign = (kind === "partial-nulls" && upstream !== "coops") || kind === "coops-error" || kind === "http429";
    expect(failures.length).toBe(benign ? 0 : upstream === "erddap" ? 2 : 1);
    if (upstream === "erddap" && kind !== "partial-nulls" && kind !== "http429") expect(r.stub.calls.erddap).toBe(2);
  });
});

const UPSTREAM_NAME: Record<StubUpstream, (typeof UPSTREAMS)[number]> = {
  marine: "open-meteo-marine",
  forecast: "open-meteo-forecast",
  coops: "noaa-coops",
  erddap: "erddap",
};

describe("live mode never falls back to seasonal norms", () => {
  it.each(["marine", "forecast"] as const)("%s down: 503 data_unavailable with an integer Retry-After", async (upstream) => {
    const r = await live({ mode: "live" });
    r.stub.fault(upstream, { kind: "http500" });
    const res = await r.svc.json("/api/v1/conditions?spot=hanauma-bay");
    expectProblem(r.svc, res.status, res.body, 503, "data_unavailable");
    expect(res.res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    // Why, in our words: which upstream and what it did, never its own error page.
    expect((res.body as { detail: string }).detail).toContain(`(${UPSTREAM_NAME[upstream]}: answered with HTTP status 500)`);
  });
  it.each(["coops", "erddap"] as const)("%s down: still 200, from tide harmonics or the heuristic", async (upstream) => {
    const r = await live({ mode: "live", env: { ...HANG_TIMEOUT } });
    r.stub.fault(upstream, { kind: "timeout" });
    const { status, body } = await conditions(r, "hanauma-bay");
    expect(status).toBe(200);
    expect(body.sources.some((s) => s.startsWith("climatology:"))).toBe(false);
  });
  it("a 429 is retried a few times, does not open the breaker, and its Retry-After is passed on", async () => {
    const r = await live({ mode: "live" });
    r.stub.fault("marine", { kind: "http429", retryAfterS: 600 });
    const first = await r.svc.json("/api/v1/conditions?spot=hanauma-bay");
    expectProblem(r.svc, first.status, first.body, 503, "data_unavailable");
    expect(first.res.headers.get("retry-after")).toBe("600");
    expect((first.body as { detail: string }).detail).toContain("open-meteo-marine: request quota spent until its window resets");
    expect(r.svc.ctx.upstreams!.breakers["open-meteo-marine"].state).toBe("closed");
    // The first try and three retries.
    expect(r.stub.calls.marine).toBe(4);
    r.stub.fault("marine", null);
    expect((await conditions(r, "hanauma-bay")).status).toBe(200);
  });
});

describe("circuit breaker through the service", () => {
  it("opens after repeated failures, stops calling, probes after the cool-down and closes again", async () => {
    const r = await live({ mode: "auto", env: { BREAKER_FAILURES: "3", BREAKER_COOLDOWN_S: "120" } });
    const oneSpotPerRegion = catalog.regions.map((g) => g.spots[0]!.id);
    r.stub.fault("marine", { kind: "http500" });
    for (const id of oneSpotPerRegion.slice(0, 5)) expect((await conditions(r, id)).status).toBe(200);
    // Three failures opened it; the next two regions were not even asked.
    expect(r.stub.calls.marine).toBe(3);
    const breaker = r.svc.ctx.upstreams!.breakers["open-meteo-marine"];
    expect(breaker.state).toBe("open");
    const opened = r.logs.filter((l) => l.msg === "upstream open-meteo-marine: circuit opened, calls paused");
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ level: 40, upstream: "open-meteo-marine", breaker: { from: "closed", to: "open" }, retryAfterS: 120 });

    r.stub.fault("marine", null);
    r.svc.clock.advance(60_000);
    expect((await conditions(r, oneSpotPerRegion[5]!)).body.sources).not.toContain("open-meteo:marine");
    expect(r.stub.calls.marine).toBe(3);
    // After the cool-down, the first request probes; the upstream answers; the circuit closes and,
    // within the same hour, a spot served from seasonal norms picks the live data up.
    r.svc.clock.advance(61_000);
    const healed = await conditions(r, oneSpotPerRegion[0]!);
    expect(healed.body.sources).toContain("open-meteo:marine");
    expect(healed.body.sources.some((s) => s.startsWith("climatology:"))).toBe(false);
    expect(breaker.state).toBe("closed");
    expect(r.logs.map((l) => l.msg).filter((m) => String(m).includes("open-meteo-marine: circuit"))).toEqual([
      "upstream open-meteo-marine: circuit opened, calls paused",
      "upstream open-meteo-marine: circuit half-open, probing",
      "upstream open-meteo-marine: circuit closed, upstream healthy again",
    ]);
  });

  it("re-opens when the probe fails, and the waiting spots keep their seasonal norms meanwhile", async () => {
    const r = await live({ mode: "auto", env: { ...HANG_TIMEOUT, BREAKER_FAILURES: "1", BREAKER_COOLDOWN_S: "30" } });
    r.stub.fault("forecast", { kind: "timeout" });
    await conditions(r, "hanauma-bay");
    r.svc.clock.advance(31_000);
    const { status, body } = await conditions(r, "hanauma-bay");
    expect(status).toBe(200);
    expect(body.sources).toContain("climatology:us-hi-oahu");
    expect(r.stub.calls.forecast).toBe(2);
    expect(r.svc.ctx.upstreams!.breakers["open-meteo-forecast"].state).toBe("open");
  });
});

describe("last good data", () => {
  it("is served when refreshes fail, with freshness that says how old it is, until it is too old", async () => {
    const r = await live({ mode: "live", env: { ...HANG_TIMEOUT } });
    expect((await conditions(r, "hanauma-bay")).body.data_quality.freshness).toBe("live");
    r.stub.fault("marine", { kind: "http500" });
    r.stub.fault("forecast", { kind: "timeout" });
    const at = (h: number) => r.svc.clock.set(Date.parse("2026-11-21T19:00:00Z") + h * HOUR_MS);
    const expected: [number, string][] = [
      [3, "recent"],
      [7, "aging"],
      [30, "stale"],
    ];
    for (const [h, freshness] of expected) {
      at(h);
      const { status, body } = await conditions(r, "hanauma-bay");
      expect({ h, status, freshness: body.data_quality.freshness }).toEqual({ h, status: 200, freshness });
      expect(body.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "open-meteo:forecast"]));
      expect(new Date(body.generated_at!).getTime()).toBe(r.svc.clock.now().getTime());
    }
    at(MAX_STALE_MS / HOUR_MS + 1);
    const gone = await r.svc.json("/api/v1/conditions?spot=hanauma-bay");
    expectProblem(r.svc, gone.status, gone.body, 503, "data_unavailable");
    expect(gone.res.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("freshness windows and their confidence factor", () => {
  it("calls inputs live under 90 minutes old and recent from 90, and decisions weigh recent inputs 0.9", async () => {
    const recs = "/api/v1/recommendations?activity=snorkel&region=us-hi-oahu";
    type Rec = { status: string; picks: { confidence: { value: number; factors: Record<string, number> } }[] };
    const freshnessFactors = async (r: LiveRun) => {
      const { status, body } = await r.svc.json<Rec>(recs);
      expect({ status, outcome: body.status }).toEqual({ status: 200, outcome: "ok" });
      expect(body.picks.length).toBeGreaterThan(0);
      for (const p of body.picks) {
        const f = p.confidence.factors;
        expect(p.confidence.value).toBeCloseTo(f.model! * f.visibility_source! * f.freshness! * f.lead_time! * f.activity_fit!, 3);
      }
      return [...new Set(body.picks.map((p) => p.confidence.factors.freshness))];
    };
    // A forecast is built for its hour: inputs fetched at `fetched` are as old at 21:00 as 21:00 minus then.
    const agedTo = async (fetched: string) => {
      const r = await live({ mode: "live", now: fetched, env: { UPSTREAM_TIMEOUT_MS: "15000" } });
      expect(await freshnessFactors(r)).toEqual([1]);
      // The weather upstreams fail from now on, their run metadata too (so nothing can be confirmed
      // current and a re-download is tried): the 19:00 answers are served as they age.
      r.stub.fault("marine", { kind: "http500" });
      r.stub.fault("forecast", { kind: "http500" });
      r.stub.failMetadata = true;
      r.svc.clock.set("2026-11-21T21:10:00Z");
      return { freshness: (await conditions(r, "hanauma-bay")).body.data_quality.freshness, factors: await freshnessFactors(r) };
    };
    expect(await agedTo("2026-11-21T19:31:00Z")).toEqual({ freshness: "live", factors: [1] }); // 89 min
    expect(await agedTo("2026-11-21T19:30:00Z")).toEqual({ freshness: "recent", factors: [0.9] }); // 90 min
  });
});

describe("memory", () => {
  it("stays bounded across many spots and hours", async () => {
    const r = await live({ mode: "auto", env: { UPSTREAM_CACHE_MB: "1" } });
    const HOURS = 4;
    const spots = catalog.regions.map((g) => g.spots[0]!.id);
    const up = r.svc.ctx.upstreams!;
    let seen = 0;
    for (let h = 0; h < HOURS; h++) {
      for (const id of spots) expect((await conditions(r, id)).status).toBe(200);
      for (const c of Object.values(up.caches)) {
        const s = c.stats();
        expect(s.bytes).toBeLessThanOrEqual(s.maxBytes);
      }
      // This hour's forecast of each spot asked about, nothing of the hours before.
      expect(r.svc.ctx.forecasts.cachedForecasts).toBe(spots.length);
      seen = Math.max(seen, up.caches["open-meteo-marine"].stats().entries);
      r.svc.clock.advance(HOUR_MS);
    }
    // A 1 MB budget holds a couple of regions' hours, not every hour of every region.
    expect(seen).toBeLessThan(8);
    // Every region's batch once in the first hour; later hours download again only where the
    // governor's share allows (at 47 regions it holds some back), never more than once an hour.
    expect(r.stub.calls.marine).toBeGreaterThanOrEqual(catalog.regions.length);
    expect(r.stub.calls.marine).toBeLessThanOrEqual(HOURS * catalog.regions.length);
  });
});
