// The upstream emulator itself, asked directly over HTTP: its defaults are the real services'
// limits and quirks (data-notes §8), so the live tests prove something about the real world.
import { afterEach, describe, expect, it } from "vitest";
import { FixedClock } from "../src/base/clock.js";
import { OPEN_METEO_FREE_TIER } from "../src/base/upstream-limits.js";
import { QUOTA_REASONS } from "../scripts/stub/open-meteo-limits.js";
import { startStubUpstreams, type StubOptions, type StubUpstreams } from "../scripts/stub/upstreams.js";

const NOW = "2026-11-21T19:00:00Z";
let stubs: StubUpstreams[] = [];
afterEach(async () => {
  await Promise.all(stubs.map((s) => s.close()));
  stubs = [];
});
async function emulator(opts: StubOptions = {}) {
  const clock = new FixedClock(NOW);
  const s = await startStubUpstreams({ now: () => clock.now(), latencyScale: 0.01, ...opts });
  stubs.push(s);
  return { s, clock };
}
const marine = (s: StubUpstreams, points: number, extra = "") =>
  `${s.env.OPEN_METEO_MARINE_URL}?latitude=${Array(points).fill("21.27").join(",")}&longitude=${Array(points).fill("-157.69").join(",")}` +
  `&hourly=swell_wave_height,tertiary_swell_wave_height&timezone=GMT&past_days=1&forecast_days=8${extra}`;

describe("Open-Meteo, free tier", () => {
  it("runs one request per client, queues five, and refuses the rest with 429 'Too many concurrent requests'", async () => {
    // Each answer takes 2.5 s, so all nine requests are in before the first one is done, however
    // busy the machine (the queue then drains one at a time: ~15 s).
    const { s } = await emulator({ delayMs: 2_500 });
    const answers = await Promise.all(Array.from({ length: 9 }, () => fetch(marine(s, 1)).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1 + 5);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(3);
    for (const a of refused) expect(a.body).toEqual({ error: true, reason: "Too many concurrent requests" });
    expect(s.openMeteo.counters.refused.concurrency).toBe(3);
    expect(s.openMeteo.counters.maxInFlight).toBe(6);
  });

  it("counts weighted calls and refuses a spent window with a reason naming it, until the window resets", async () => {
    const { s, clock } = await emulator();
    // 20 locations, 2 variables, 9 days: 20 calls.
    expect((await fetch(marine(s, 20))).status).toBe(200);
    expect(s.openMeteo.counters.weightedCalls).toBe(20);
    s.openMeteo.exhaust("daily");
    const r = await fetch(marine(s, 1));
    expect(r.status).toBe(429);
    expect(await r.json()).toEqual({ error: true, reason: QUOTA_REASONS.daily });
    clock.set("2026-11-22T00:00:01Z");
    expect((await fetch(marine(s, 1))).status).toBe(200);
    // 601 calls in one minute overrun the minute.
    const big = await fetch(marine(s, OPEN_METEO_FREE_TIER.perMinute));
    expect(big.status).toBe(429);
    expect(((await big.json()) as { reason: string }).reason).toBe(QUOTA_REASONS.minutely);
  });

  it('answers several points as an array without the first location_id, and a null third swell with unit "undefined"', async () => {
    const { s } = await emulator();
    const body = (await (await fetch(marine(s, 3))).json()) as Record<string, unknown>[];
    expect(body.map((l) => l.location_id)).toEqual([undefined, 1, 2]);
    const units = body[0]!.hourly_units as Record<string, string>;
    expect(units.tertiary_swell_wave_height).toBe("undefined");
    const hourly = body[0]!.hourly as Record<string, unknown[]>;
    expect(hourly.tertiary_swell_wave_height!.every((v) => v === null)).toBe(true);
    expect(hourly.swell_wave_height!.some((v) => typeof v === "number")).toBe(true);
  });
});

describe("Open-Meteo run metadata", () => {
  const meta = (s: StubUpstreams, api: "MARINE" | "FORECAST", model: string) =>
    fetch(new URL(`/data/${model}/static/meta.json`, s.env[`OPEN_METEO_${api}_URL`])).then(async (r) => ({
      status: r.status,
      body: r.status === 200 ? ((await r.json()) as Record<string, number>) : null,
    }));
  const forecastUrl = (s: StubUpstreams) =>
    `${s.env.OPEN_METEO_FORECAST_URL}?latitude=21.27&longitude=-157.69&hourly=precipitation,wind_speed_10m&timezone=GMT&past_days=4&forecast_days=8&wind_speed_unit=kn`;

  it("follows each model's cadence and delay on the emulator's clock, on both hosts, outside the quota", async () => {
    const { s, clock } = await emulator();
    // ICON: 6-hourly, available 224 minutes after its run. At 19:00 the 12z run (available 15:44).
    const icon = await meta(s, "FORECAST", "dwd_icon");
    expect(icon.status).toBe(200);
    expect(new Date(icon.body!.last_run_initialisation_time! * 1000).toISOString()).toBe("2026-11-21T12:00:00.000Z");
    expect(new Date(icon.body!.last_run_availability_time! * 1000).toISOString()).toBe("2026-11-21T15:44:00.000Z");
    expect(icon.body!.update_interval_seconds).toBe(21_600);
    clock.set("2026-11-21T21:45:00Z");
    expect(new Date((await meta(s, "MARINE", "dwd_icon")).body!.last_run_initialisation_time! * 1000).toISOString()).toBe("2026-11-21T18:00:00.000Z");
    expect((await meta(s, "MARINE", "meteofrance_wave")).body!.update_interval_seconds).toBe(43_200);
    expect((await meta(s, "FORECAST", "no_such_model")).status).toBe(404);
    expect(s.metaRequests).toBe(4);
    expect(s.openMeteo.counters.requests).toBe(0);
    expect(s.openMeteo.counters.weightedCalls).toBe(0);
  });

  it("changes a point's data only when a run it rests on changes", async () => {
    const { s, clock } = await emulator({ scenario: "storm" });
    const body = async () => (await fetch(forecastUrl(s))).text();
    const at1900 = await body();
    clock.set("2026-11-21T19:40:00Z"); // no new GFS or ICON run in between
    expect(await body()).toBe(at1900);
    s.publishRun("dwd_icon", new Date("2026-11-21T19:30:00Z"));
    expect(await body()).not.toBe(at1900);
    s.failMetadata = true;
    expect((await meta(s, "FORECAST", "dwd_icon")).status).toBe(500);
  });
});

describe("ERDDAP Kd490", () => {
  const box = (north: number, south: number) => `kd_490%5B(last)%5D%5B0%5D%5B(${north}):1:(${south})%5D%5B(-157.8):1:(-157.6)%5D`;
  it("serves products 7 and 11 days old, stored north→south, and refuses the other order with HTTP 500", async () => {
    const { s } = await emulator({ erddapBadGatewayEvery: 0 });
    const nrt = (await (await fetch(`${s.env.ERDDAP_URL}/griddap/noaacwNPPVIIRSkd490Daily.json?${box(21.35, 21.2)}`)).json()) as { table: { rows: unknown[][] } };
    expect(nrt.table.rows[0]![0]).toBe("2026-11-14T12:00:00Z");
    expect(nrt.table.rows[0]![2] as number).toBeGreaterThan(nrt.table.rows.at(-1)![2] as number);
    const gap = (await (await fetch(`${s.env.ERDDAP_URL}/griddap/noaacwNPPN20S3AkdSCIDINEOF2kmDaily.json?${box(21.35, 21.2)}`)).json()) as { table: { rows: unknown[][] } };
    expect(gap.table.rows[0]![0]).toBe("2026-11-10T12:00:00Z");
    const wrong = await fetch(`${s.env.ERDDAP_URL}/griddap/noaacwNPPVIIRSkd490Daily.json?${box(21.2, 21.35)}`);
    expect(wrong.status).toBe(500);
    expect(await wrong.text()).toMatch(/StartIndex=\d+ is greater than StopIndex/);
  });

  it("answers 502 now and then, and takes seconds at real latency", async () => {
    const { s } = await emulator({ latencyScale: 0.05 });
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await fetch(`${s.env.ERDDAP_URL}/griddap/noaacwNPPVIIRSkd490Daily.json?${box(21.35, 21.2)}`)).status);
    expect(statuses.filter((x) => x === 502)).toHaveLength(1);
    const t = performance.now();
    await fetch(`${s.env.ERDDAP_URL}/griddap/noaacwNPPVIIRSkd490Daily.json?${box(21.35, 21.2)}`);
    // 5 % of 8–18 s.
    expect(performance.now() - t).toBeGreaterThanOrEqual(390);
  });
});

describe("CO-OPS", () => {
  it("answers an unknown station with HTTP 200 and an error object", async () => {
    const { s } = await emulator();
    const r = await fetch(`${s.env.COOPS_URL}?product=predictions&station=TPT2799&datum=MLLW&interval=hilo&units=english&time_zone=gmt&format=json&begin_date=20261121&end_date=20261122`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ error: { message: expect.stringMatching(/^No Predictions data was found/) as unknown } });
  });
});
