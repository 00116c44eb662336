// The validation record in live mode against the upstream emulator over a simulated week: every
// region the satellite sees publishes pairs and figures, a region below the minimum says so; two
// instances sharing one real redis-server publish the same figures, and a restart keeps them.
import { afterEach, expect, it } from "vitest";
import { DAY_MS } from "../src/base/clock.js";
import { Catalog } from "../src/catalog/catalog.js";
import { VALIDATION_PATH } from "../src/services/validation/report.js";
import { REPORT_REFRESH_MS } from "../src/services/validation/validation.js";
import { ValidationSchema } from "../src/services/validation/schema.js";
import { MIN_PAIRS, NOT_ENOUGH } from "../src/model/skill.js";
import { startStubUpstreams, type StubUpstreams } from "../scripts/stub/upstreams.js";
import { ERDDAP_TEST_TIMEOUT_MS, TEST_LATENCY_SCALE } from "./helpers/live.js";
import { describeWithRedis, startRedis } from "./helpers/redis.js";
import { DEFAULT_NOW, startService, type TestService } from "./helpers/service.js";
import { capturedLog } from "./helpers/log.js";

type Report = ReturnType<typeof ValidationSchema.parse>;

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  cleanups = [];
});

/** A few regions of different sizes (Dahab has 4 spots: a day of observations is under the minimum). */
const REGIONS = ["us-hi-oahu", "eg-js-dahab", "za-wc-cape-peninsula"];
const catalog = () =>
  new Catalog(
    Catalog.readRecords()
      .filter((r) => REGIONS.includes(r.id))
      .map((r) => ({ ...r, decision_support: "full" as const })),
  );

async function emulator(now: () => Date): Promise<StubUpstreams> {
  const stub = await startStubUpstreams({ scenario: "calm", now, delayMs: 0, latencyScale: TEST_LATENCY_SCALE });
  cleanups.push(() => stub.close());
  return stub;
}

async function instance(stub: StubUpstreams, now: string, redisUrl: string | null): Promise<{ svc: TestService; logs: string[] }> {
  const { log, lines: logs } = capturedLog();
  const svc = await startService({
    now,
    catalog: catalog(),
    env: { DATA_SOURCE: "live", VALIDATION_SCORING: "on", UPSTREAM_TIMEOUT_MS: "20000", ERDDAP_TIMEOUT_MS: String(ERDDAP_TEST_TIMEOUT_MS), ...stub.env, ...(redisUrl ? { REDIS_URL: redisUrl } : {}) },
    log,
  });
  const r = svc.ctx.redis;
  if (r && r.status !== "ready") await new Promise<void>((resolve) => r.once("ready", () => resolve()));
  cleanups.push(async () => {
    await svc.ctx.upstreams?.settled();
    await svc.ctx.validation.settled();
    await svc.close();
  });
  return { svc, logs };
}

/** A day of use: someone asks about a spot in each region; the satellite answer and its scoring follow behind. */
async function dayOfUse(svc: TestService): Promise<void> {
  for (const region of svc.ctx.catalog.regions) {
    const res = await svc.get(`/api/v1/conditions?spot=${region.spots[0]!.id}`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  }
  await svc.ctx.upstreams!.settled();
  await svc.ctx.validation.settled();
  // Hindcasts wait for a quiet minute, not the one these callers just spent, and a minute holds only
  // a few regions' worth: each tick of the refresh-ahead ticker (one a minute) tries the rest.
  for (let tick = 0; tick < 10 && svc.ctx.validation.waiting > 0; tick++) {
    svc.clock.advance(61_000);
    await svc.ctx.upstreams!.refreshAhead();
    await svc.ctx.upstreams!.settled();
    await svc.ctx.validation.settled();
  }
  expect(svc.ctx.validation.waiting).toBe(0);
}

async function report(svc: TestService): Promise<Report> {
  const { status, body } = await svc.json(VALIDATION_PATH);
  expect(status).toBe(200);
  return ValidationSchema.parse(body);
}

/** What a report publishes, less the instance's own address (each test instance has its own port). */
const figures = ({ source: _s, docs: _d, ...rest }: Report) => rest;
const byRegion = (r: Report) => Object.fromEntries(r.regions.map((x) => [x.region, x]));

it("a week in live mode against the emulator: pairs and figures for every region the satellite sees, 'not enough' below the minimum, kept in memory and said so", async () => {
  let clock: (() => Date) | null = null;
  const stub = await emulator(() => clock!());
  const { svc, logs } = await instance(stub, DEFAULT_NOW, null);
  clock = () => svc.clock.now();

  await dayOfUse(svc);
  const first = byRegion(await report(svc));
  // One day: one observation per spot the satellite sees. Dahab's 4 spots are under the minimum.
  expect(first["eg-js-dahab"]!.pairs).toBeGreaterThan(0);
  expect(first["eg-js-dahab"]!.pairs).toBeLessThan(MIN_PAIRS);
  expect(first["eg-js-dahab"]).toMatchObject({ status: "not_enough_observations", model: null, climatology: null });
  expect(first["eg-js-dahab"]!.message).toContain(NOT_ENOUGH);
  expect(first["us-hi-oahu"]!.pairs).toBeGreaterThanOrEqual(MIN_PAIRS);
  expect(first["us-hi-oahu"]!.status).toBe("ok");

  for (let d = 1; d <= 7; d++) {
    svc.clock.set(Date.parse(DEFAULT_NOW) + d * DAY_MS);
    await dayOfUse(svc);
  }
  const week = await report(svc);
  if (process.env.DUMP_VALIDATION) console.log(JSON.stringify(week.regions, null, 1));
  expect(week.storage).toBe("memory");
  expect(week.storage_note).toMatch(/memory only/);
  for (const r of week.regions) {
    expect({ region: r.region, status: r.status }).toEqual({ region: r.region, status: "ok" });
    // Eight days of observations (one a day, each 7 days behind), at most one per spot and day.
    const spots = svc.ctx.catalog.region(r.region)!.spots.length;
    expect(r.pairs).toBeGreaterThan(spots);
    expect(r.pairs).toBeLessThanOrEqual(8 * spots);
    // The newest observation is the last day's VIIRS one (7 days behind), or a day older where the
    // emulator's occasional 502 left that day to the gap-filled product and yesterday's carried forward.
    expect(r.last_observation! >= new Date(Date.parse(DEFAULT_NOW) - DAY_MS).toISOString().slice(0, 10)).toBe(true);
    expect(r.last_observation! <= new Date(Date.parse(DEFAULT_NOW)).toISOString().slice(0, 10)).toBe(true);
    expect(r.model).not.toBeNull();
    expect(r.climatology).not.toBeNull();
    expect(r.model!.anomaly_rank_correlation).not.toBeNull();
    expect(r.climatology!.anomaly_rank_correlation).toBeNull();
    expect(r.confidence_factor).toBeLessThanOrEqual(1);
  }
  // The model's inputs for each observed day came from Open-Meteo's hindcast, asked through the same client.
  expect(logs.some((l) => l.includes("validation: observations scored"))).toBe(true);
}, 240_000);

describeWithRedis("validation record shared through Redis", () => {
  it("two instances publish the same figures, and a restart keeps them", async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    let clock: (() => Date) | null = null;
    const stub = await emulator(() => clock!());
    const a = (await instance(stub, DEFAULT_NOW, redis.url)).svc;
    const b = (await instance(stub, DEFAULT_NOW, redis.url)).svc;
    clock = () => a.clock.now();
    // Days of use alternate between the instances: each scores what it fetches, into one record.
    for (let d = 0; d <= 3; d++) {
      for (const s of [a, b]) s.clock.set(Date.parse(DEFAULT_NOW) + d * DAY_MS);
      await dayOfUse(d % 2 === 0 ? a : b);
    }
    // Asked at the same moment.
    const latest = Math.max(a.clock.now().getTime(), b.clock.now().getTime());
    for (const s of [a, b]) s.clock.set(latest);
    const fromA = await report(a);
    const fromB = await report(b);
    expect(fromA.storage).toBe("redis");
    expect(fromA.regions.every((r) => r.pairs > 0)).toBe(true);
    expect(fromA.regions.some((r) => r.status === "ok")).toBe(true);
    expect(figures(fromB)).toEqual(figures(fromA));

    // Every instance stops; a new one (same Redis, same time) publishes the same record.
    const at = a.clock.now().toISOString();
    await a.close();
    await b.close();
    const c = (await instance(stub, at, redis.url)).svc;
    expect(figures(await report(c))).toEqual(figures(fromA));

    // With its shared store gone, the record built a moment ago is still served (with its ETag) until
    // it is due to be built again; then it cannot be read: a problem with Retry-After, never a 5xx
    // stack trace, and never an empty record passed off as "no observations".
    await redis.stop();
    const recent = await c.get(VALIDATION_PATH);
    expect(recent.status).toBe(200);
    expect(figures(ValidationSchema.parse(await recent.json()))).toEqual(figures(fromA));
    c.clock.advance(REPORT_REFRESH_MS);
    const down = await c.get(VALIDATION_PATH);
    expect(down.status).toBe(503);
    expect(down.headers.get("content-type")).toMatch(/problem\+json/);
    expect(down.headers.get("retry-after")).toBe("30");
    expect(((await down.json()) as { code: string }).code).toBe("unavailable");
  }, 240_000);
});
