// The real service (live and auto mode) against the upstream emulator at its real defaults: Open-Meteo's
// one-at-a-time concurrency with a queue of five and its weighted minute/hour/day quotas, ERDDAP's
// week-old products, slow answers and 502s, CO-OPS's HTTP-200 errors. Only the latency is scaled
// down. A cold start under a crowd and a spent daily quota; a day of refreshes over the whole catalogue
// is in live-budget.test.ts.
import { describe, expect, it } from "vitest";
import { ACTIVITY_IDS } from "../src/base/activities.js";
import { Catalog } from "../src/catalog/catalog.js";
import { DAY_MS, HOUR_MS } from "../src/base/clock.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import type { BestDayJson, RecommendationJson } from "../src/schemas/decisions.js";
import { MAX_STALE_MS } from "../src/sources/live.js";
import { liveRuns, type LiveRun } from "./helpers/live.js";

const catalog = Catalog.load();
const live = liveRuns();
const MINUTE_MS = 60_000;

/** Runs `jobs` with `width` of them in flight at once; returns the answers and the most in flight. */
async function crowd<T>(jobs: (() => Promise<T>)[], width: number): Promise<{ results: T[]; maxInFlight: number }> {
  const results: T[] = new Array<T>(jobs.length);
  let next = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        results[i] = await jobs[i]!();
      } finally {
        inFlight--;
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return { results, maxInFlight };
}

const refused429 = (r: LiveRun) => Object.values(r.stub.openMeteo.counters.refused).reduce((a, b) => a + b, 0);
const breakersOpened = (r: LiveRun) => r.logs.filter((l) => String(l.msg).includes("circuit opened"));
const conditions = (r: LiveRun, spot: string) => r.svc.json<ConditionsJson>(`/api/v1/conditions?spot=${spot}`);

describe("a cold start under a crowd", () => {
  it("answers every spot, region and activity live, with no 429 from the upstream and no breaker opened", async () => {
    // The default upstream timeout: twenty requests building forecasts at once keep two busy cores
    // from reading an answer within the tests' usual 600 ms.
    const r = await live({ mode: "live", env: { UPSTREAM_TIMEOUT_MS: "8000" } });
    type Answer = { path: string; status: number; freshness: (string | number | null)[]; credits: string[] };
    const ask = (path: string, read: (b: unknown) => (string | number | null)[]) => async (): Promise<Answer> => {
      const { status, body } = await r.svc.json(path);
      return { path, status, freshness: status === 200 ? read(body) : [], credits: ((body as { data_credits?: { provider: string }[] }).data_credits ?? []).map((c) => c.provider) };
    };
    const jobs = [
      ...catalog.spots.map((s) => ask(`/api/v1/conditions?spot=${s.id}`, (b) => [(b as ConditionsJson).data_quality.freshness])),
      ...catalog.regions.flatMap((region) =>
        ACTIVITY_IDS.map((a) => ask(`/api/v1/recommendations?activity=${a}&region=${region.id}`, (b) => (b as RecommendationJson).picks.map((p) => p.confidence.factors.freshness))),
      ),
      ...catalog.regions.map((region) =>
        ask(`/api/v1/best-day?activity=snorkel&region=${region.id}`, (b) => {
          const best = (b as BestDayJson).best;
          return best ? [best.confidence.factors.freshness] : [];
        }),
      ),
    ];
    const first = await crowd(jobs, 20);
    expect(first.maxInFlight).toBeGreaterThanOrEqual(16);
    // The whole catalogue's first downloads (about 950 weighted calls) exceed Open-Meteo's 600 a
    // minute: what cannot be fetched within the minute answers 503 data_unavailable with a
    // Retry-After, never a 429 from upstream, and is live once the next minute's allowance comes.
    const results = [...first.results];
    for (let minute = 1; minute <= 3 && results.some((a) => a.status !== 200); minute++) {
      for (const a of results.filter((x) => x.status !== 200)) expect(a.status, a.path).toBe(503);
      r.svc.clock.advance(60_000);
      const again = results.map((a, i) => (a.status === 200 ? null : i)).filter((i): i is number => i !== null);
      const retried = await crowd(
        again.map((i) => jobs[i]!),
        20,
      );
      again.forEach((i, k) => (results[i] = retried.results[k]!));
    }
    const failed = r.logs.filter((l) => String(l.msg).endsWith("failed")).map((l) => `${String(l.msg)}: ${String(l.reason)}`);
    expect(
      results.filter((a) => a.status !== 200).map((a) => `${a.path}: ${a.status}`),
      failed.join("\n"),
    ).toEqual([]);
    for (const a of results) {
      for (const f of a.freshness) expect([`live`, 1]).toContain(f);
      expect(a.credits).not.toContain("Ocean Conditions seasonal norms");
    }
    expect(results.filter((a) => a.path.includes("recommendations")).some((a) => a.freshness.length > 0)).toBe(true);
    await r.svc.ctx.upstreams!.settled();
    expect(refused429(r)).toBe(0);
    expect(breakersOpened(r)).toEqual([]);
    for (const b of Object.values(r.svc.ctx.upstreams!.breakers)) expect(b.state).toBe("closed");
    // One Open-Meteo request at a time, as the free tier allows, and one per region and endpoint.
    expect(r.svc.ctx.upstreams!.lanes["open-meteo"].stats.maxRunning).toBe(1);
    expect(r.stub.calls.marine).toBe(catalog.regions.length);
    expect(r.stub.calls.forecast).toBe(catalog.regions.length);
  });
});

describe("a cold start in auto mode", () => {
  it("answers every spot 200 at 16 in flight (labelled norms where a download must wait), sends nothing the quota refuses, and a minute later is live", async () => {
    const r = await live({ mode: "auto", env: { UPSTREAM_TIMEOUT_MS: "8000" } });
    const ask = (spot: string) => async () => {
      const { status, body } = await conditions(r, spot);
      return { spot, status, freshness: status === 200 ? (body as ConditionsJson).data_quality.freshness : null };
    };
    const first = await crowd(
      catalog.spots.map((s) => ask(s.id)),
      16,
    );
    expect(first.maxInFlight).toBe(16);
    expect(first.results.filter((a) => a.status !== 200).map((a) => `${a.spot}: ${a.status}`)).toEqual([]);
    // The catalogue's first downloads exceed a minute's quota: what had to wait is answered from the
    // labelled seasonal norms, and what was fetched is live.
    const norms = first.results.filter((a) => a.freshness !== "live").length;
    expect(first.results.filter((a) => a.freshness === "live").length).toBeGreaterThan(0);
    await r.svc.ctx.upstreams!.settled();
    // A minute later, the held-back downloads go within the new minute's quota.
    r.svc.clock.advance(MINUTE_MS);
    const second = await crowd(
      catalog.spots.map((s) => ask(s.id)),
      16,
    );
    await r.svc.ctx.upstreams!.settled();
    const stillNorms = second.results.filter((a) => a.status !== 200 || a.freshness !== "live");
    // Within three minutes every spot is live: each minute fetches up to the quota.
    for (let minute = 2; minute <= 3 && stillNorms.length > 0; minute++) {
      r.svc.clock.advance(MINUTE_MS);
      const retry = await crowd(
        stillNorms.map((a) => ask(a.spot)),
        16,
      );
      await r.svc.ctx.upstreams!.settled();
      stillNorms.splice(0, stillNorms.length, ...retry.results.filter((a) => a.status !== 200 || a.freshness !== "live"));
    }
    expect(stillNorms.map((a) => `${a.spot}: ${a.status} ${String(a.freshness)}`)).toEqual([]);
    expect(norms).toBeLessThan(catalog.spots.length);
    expect(refused429(r)).toBe(0);
    expect(breakersOpened(r)).toEqual([]);
    // Three waves of 600+ requests: about 40 s on a busy two-core machine, so a generous bound.
  }, 600_000);
});

describe("a spent daily quota", () => {
  it("auto: serves the last good forecast with its true age, then seasonal norms, never 503; live again after the reset", async () => {
    const r = await live({ mode: "auto" });
    const fetchedAt = r.svc.clock.now().getTime();
    const ask = async () => {
      const { status, body } = await conditions(r, "hanauma-bay");
      expect(status).toBe(200);
      return body;
    };
    expect((await ask()).data_quality.freshness).toBe("live");
    // New wave and ICON runs come out, so the answer at hand is no longer the newest (without them the
    // free run metadata would confirm it current, quota or not).
    r.stub.publishRun("meteofrance_wave", new Date(fetchedAt + 30 * MINUTE_MS));
    r.stub.publishRun("dwd_icon", new Date(fetchedAt + 30 * MINUTE_MS));
    // Someone else behind the same address spends the day's allowance, every day.
    const spentAt = (t: number) => {
      r.svc.clock.set(fetchedAt + t);
      r.stub.openMeteo.exhaust("daily");
    };
    spentAt(2 * HOUR_MS);
    let b = await ask();
    expect(b.data_quality.freshness).toBe("recent");
    expect(b.sources).toContain("open-meteo:marine");
    expect(r.stub.openMeteo.counters.refused.daily).toBeGreaterThan(0);
    const refusedOnce = r.stub.openMeteo.counters.refused.daily;
    // The lane waits for the window's reset: no more calls, no more 429s, the same day.
    r.svc.clock.set(fetchedAt + 3 * HOUR_MS);
    await r.svc.ctx.upstreams!.refreshAhead();
    expect((await ask()).data_quality.freshness).toBe("recent");
    expect(r.stub.openMeteo.counters.refused.daily).toBe(refusedOnce);

    spentAt(8 * HOUR_MS);
    expect((await ask()).data_quality.freshness).toBe("aging");
    spentAt(26 * HOUR_MS);
    b = await ask();
    expect(b.data_quality.freshness).toBe("stale");
    expect(b.periods.every((p) => p.score !== null)).toBe(true);
    spentAt(MAX_STALE_MS + 2 * HOUR_MS);
    b = await ask();
    expect(b.data_quality.freshness).toBe("none");
    expect(b.sources).toContain("climatology:us-hi-oahu");
    expect(b.periods.every((p) => p.why!.includes("Seasonal norms") || p.visibility_source === "satellite")).toBe(true);
    // At most one refusal per endpoint each time a window opened again.
    expect(r.stub.openMeteo.counters.refused.daily).toBeLessThanOrEqual(2 * 5);
    expect(breakersOpened(r)).toEqual([]);

    // The next UTC day nobody has spent it: live again.
    const nextMidnight = Math.ceil((fetchedAt + MAX_STALE_MS + 2 * HOUR_MS) / DAY_MS) * DAY_MS;
    r.svc.clock.set(nextMidnight + 5 * MINUTE_MS);
    b = await ask();
    expect(b.data_quality.freshness).toBe("live");
    expect(b.sources.some((s) => s.startsWith("climatology:"))).toBe(false);
  });
});
