// GET /api/v1/conditions in live and auto mode against the stub upstreams (real HTTP both ways):
// each weather scenario, honest labels, the call budget, single flight, refresh-ahead, offline.
import { describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { HOUR_MS } from "../src/base/clock.js";
import { ConditionsSchema, type ConditionsJson } from "../src/schemas/conditions.js";
import { callBudget } from "../src/sources/budget.js";
import { OPEN_METEO_CREDIT, queryPlan } from "../src/sources/open-meteo.js";
import { RUN_PROPAGATION_MS, watchedModelsFor } from "../src/sources/model-runs.js";
import { COOPS_CREDIT } from "../src/sources/coops.js";
import { COASTWATCH_CREDIT } from "../src/sources/erddap.js";
import { evidenceFactor, SATELLITE_MAX_AGE_H } from "../src/model/visibility.js";
import { expectProblem } from "./helpers/problem.js";
import { DEFAULT_NOW } from "./helpers/service.js";
import { liveRuns, type LiveRun } from "./helpers/live.js";

const NRT = "erddap:noaacwNPPVIIRSkd490Daily";
const GAP_FILLED = "erddap:noaacwNPPN20S3AkdSCIDINEOF2kmDaily";
const catalog = Catalog.load();

const live = liveRuns();
const conditions = (r: LiveRun, qs: string) => r.svc.json<ConditionsJson>(`/api/v1/conditions?${qs}`);
const climatologyIn = (b: ConditionsJson) => b.sources.filter((s) => s.startsWith("climatology:"));
/** Asks once, lets the day's satellite answer arrive behind it (nobody waits on ERDDAP), asks again. */
async function primed(r: LiveRun, qs: string) {
  await conditions(r, qs);
  await r.svc.ctx.upstreams!.settled();
  return conditions(r, qs);
}
/** When the emulator's products were observed: 12:00 UTC, 7 (VIIRS) and 11 (gap-filled) days before now. */
const NRT_OBSERVED = "2026-11-14";
const GAP_FILLED_OBSERVED = "2026-11-10";

describe("a calm day, live", () => {
  it("comes from the upstreams, says so, and credits each one", async () => {
    const r = await live({ scenario: "calm" });
    const { status, body } = await primed(r, "spot=hanauma-bay");
    expect(status).toBe(200);
    expect(ConditionsSchema.parse(body)).toEqual(body);
    expect(body.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "open-meteo:forecast", NRT, "noaa-coops:1612301", "suncalc"]));
    expect(climatologyIn(body)).toEqual([]);
    expect(body.data_quality).toEqual({ visibility_source: "satellite", freshness: "live" });
    expect(body.data_credits).toEqual(expect.arrayContaining([{ ...credit(OPEN_METEO_CREDIT) }, credit(COOPS_CREDIT), credit(COASTWATCH_CREDIT)]));
    expect(body.data_credits.find((c) => c.provider === "Open-Meteo")).toMatchObject({ license: "CC BY 4.0", url: "https://open-meteo.com/" });
    expect(body.attribution).toMatch(/Open-Meteo/);
    // Fetched at the pinned now; the next refresh is an hour later.
    expect(new Date(body.generated_at!).getTime()).toBe(new Date(DEFAULT_NOW).getTime());
    expect(new Date(body.next_update_after!).getTime()).toBe(new Date(DEFAULT_NOW).getTime() + HOUR_MS);
    const now = body.now!;
    expect(now.wind_speed_kt).toBeGreaterThan(4);
    expect(now.wind_speed_kt).toBeLessThan(10);
    expect(now.water_temp_c).toBeCloseTo(24.9, 0);
    expect(now.rating).toMatch(/excellent|great/);
    for (const p of [now, ...body.periods]) {
      expect(p.why).not.toMatch(/Seasonal norms/);
      expect(p.score).not.toBeNull();
    }
    expect(body.tide_events.length).toBeGreaterThan(20);
  });

  it("calls visibility satellite only where the week-old observation still carries weight", async () => {
    const r = await live({ scenario: "calm" });
    const first = await conditions(r, "spot=hanauma-bay");
    // The first answer does not wait 8–18 s for ERDDAP: it is a heuristic estimate, and says so.
    expect(first.status).toBe(200);
    expect(first.body.data_quality.visibility_source).toBe("heuristic");
    await r.svc.ctx.upstreams!.settled();
    const { body } = await conditions(r, "spot=hanauma-bay");
    const observedAt = Date.parse(`${NRT_OBSERVED}T12:00:00Z`);
    let satellite = 0;
    for (const p of body.periods) {
      const mid = (Date.parse(p.start!) + Date.parse(p.end!)) / 2;
      expect(p.visibility_source).toBe((mid - observedAt) / HOUR_MS <= SATELLITE_MAX_AGE_H ? "satellite" : "heuristic");
      if (p.visibility_source === "satellite") satellite++;
      expect(p.why).toMatch(
        p.visibility_source === "satellite"
          ? new RegExp(`satellite ocean colour observed ${NRT_OBSERVED} \\(7 days before this forecast\\)`)
          : /typical level, moved by swell, wind and rain against the month's normal/,
      );
    }
    expect(satellite).toBeGreaterThan(30);
    expect(satellite).toBeLessThan(body.periods.length);
    // Past about 13 days of age the observation no longer shapes the number: the week's last night.
    expect(body.periods.at(-1)!.visibility_source).toBe("heuristic");
  });

  it("falls back to harmonic tides for a subordinate id CO-OPS does not serve, and asks only once", async () => {
    const r = await live({ scenario: "calm" });
    const maui = catalog.spots.filter((s) => s.tide_station === "noaa/TPT2799").slice(0, 2);
    for (const s of maui) {
      const { status, body } = await conditions(r, `spot=${s.id}`);
      expect(status).toBe(200);
      expect(body.sources).toContain("tide-harmonics:noaa/TPT2799");
      expect(body.sources.some((x) => x.startsWith("noaa-coops:"))).toBe(false);
      expect(body.tide_events.length).toBeGreaterThan(20);
    }
    expect(r.stub.requests.filter((q) => q.url.includes("station=TPT2799"))).toHaveLength(1);
  });
});

describe("big swell", () => {
  it("shows the swell at an exposed spot and rates it lower than a calm day", async () => {
    const calm = await live({ scenario: "calm" });
    const big = await live({ scenario: "big-swell" });
    const a = (await conditions(calm, "spot=sharks-cove")).body;
    const b = (await conditions(big, "spot=sharks-cove")).body;
    expect(b.data_quality.freshness).toBe("live");
    for (let i = 0; i < 8; i++) {
      expect(b.periods[i]!.swell_height_ft!).toBeGreaterThan(6);
      expect(b.periods[i]!.swell_from_deg!).toBeGreaterThan(290);
      expect(b.periods[i]!.score!).toBeLessThan(a.periods[i]!.score!);
    }
    expect(b.periods.slice(0, 8).some((p) => /swell|Visibility near/.test(p.why!))).toBe(true);
  });
});

describe("storm with rain", () => {
  it("reports the wind, rain-muddied water and the gap-filled satellite view", async () => {
    const r = await live({ scenario: "storm" });
    const { status, body } = await primed(r, "spot=hanauma-bay");
    expect(status).toBe(200);
    expect(body.sources).toContain(GAP_FILLED);
    expect(body.sources).not.toContain(NRT);
    const first = body.periods[0]!;
    expect(first.wind_speed_kt!).toBeGreaterThan(25);
    expect(first.wind_gust_kt!).toBeGreaterThan(35);
    expect(first.visibility_ft!).toBeLessThan(10);
    expect(first.rating).toMatch(/fair|no-go/);
    // Both grids are stored north→south: asked in that order, neither is refused.
    expect(r.logs.filter((l) => String(l.msg).includes("circuit"))).toEqual([]);
    expect(r.stub.requests.filter((q) => q.url.includes("DINEOF")).length).toBe(1);
    expect(r.stub.erddapStatuses).toEqual({ 200: 2 });
  });
});

describe("cloud-gapped satellite", () => {
  it("uses the gap-filled product when clouds hide the near-real-time pixels", async () => {
    const r = await live({ scenario: "cloud-gapped" });
    const { body } = await primed(r, "spot=hanauma-bay");
    expect(body.sources).toContain(GAP_FILLED);
    expect(body.data_quality.visibility_source).toBe("satellite");
    expect(body.periods[0]!.why).toMatch(new RegExp(`satellite ocean colour observed ${GAP_FILLED_OBSERVED} \\(11 days before this forecast\\)`));
    // Eleven days old, it still shapes today and tomorrow, not the end of the week.
    expect(body.periods.at(-1)!.visibility_source).toBe("heuristic");
  });
  it("is a heuristic estimate, labelled so, when no product sees the water", async () => {
    const r = await live({ scenario: "cloud-gapped", env: { ERDDAP_KD490_DATASETS: "noaacwNPPVIIRSkd490Daily" } });
    const { body } = await primed(r, "spot=hanauma-bay");
    expect(body.data_quality).toEqual({ visibility_source: "heuristic", freshness: "live" });
    expect(body.sources.some((s) => s.startsWith("erddap:"))).toBe(false);
    expect(body.data_credits.map((c) => c.provider)).not.toContain("NOAA CoastWatch");
    expect(body.periods[0]!.why).toMatch(/typical level, moved by swell, wind and rain against the month's normal/);
    // Live inputs (0.6) times what stands behind Hanauma Bay's level (docs/model.md, Confidence).
    const band = r.svc.ctx.catalog.spot("hanauma-bay")!.band;
    const month = band.ranges[Number(body.periods[0]!.start!.slice(5, 7)) - 1]!;
    expect(body.periods[0]!.confidence).toBe(Math.round(100 * 0.6 * evidenceFactor({ publishers: band.publishers, estimated: band.estimated, rangeRatio: month.high / month.low })) / 100);
  });
});

describe("coastal nulls", () => {
  const oahu = catalog.region("us-hi-oahu")!;
  const plan = queryPlan(oahu);
  const noData = oahu.spots.find((s) => plan.pointOf.get(s.id)! % 2 === 1)!;
  const gappy = oahu.spots.find((s) => plan.pointOf.get(s.id)! % 2 === 0)!;

  it("auto: fills the missing swell from seasonal norms, per value, and says so", async () => {
    const r = await live({ mode: "auto", scenario: "coastal-nulls" });
    const dark = (await conditions(r, `spot=${noData.id}`)).body;
    expect(dark.sources).not.toContain("open-meteo:marine");
    expect(dark.sources).toEqual(expect.arrayContaining(["open-meteo:forecast", "climatology:us-hi-oahu"]));
    expect(dark.periods.every((p) => p.why!.includes("Seasonal norms") || p.visibility_source === "satellite")).toBe(true);
    expect(dark.periods.every((p) => p.confidence! < 0.6 || p.visibility_source === "satellite")).toBe(true);
    const gaps = (await conditions(r, `spot=${gappy.id}`)).body;
    expect(gaps.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "climatology:us-hi-oahu"]));
    expect(gaps.periods.every((p) => p.score !== null)).toBe(true);
  });

  it("live: answers 503 for the point with no data, and serves the gappy one", async () => {
    const r = await live({ mode: "live", scenario: "coastal-nulls" });
    const dark = await r.svc.json(`/api/v1/conditions?spot=${noData.id}`);
    expectProblem(r.svc, dark.status, dark.body, 503, "data_unavailable");
    expect(dark.res.headers.get("retry-after")).toMatch(/^\d+$/);
    const gaps = await conditions(r, `spot=${gappy.id}`);
    expect(gaps.status).toBe(200);
    expect(climatologyIn(gaps.body)).toEqual([]);
    expect(gaps.body.periods.filter((p) => p.score !== null).length).toBeGreaterThan(40);
  });
});

describe("all-zero swell", () => {
  it("auto: treats it as missing, not as a flat sea, and logs why", async () => {
    const r = await live({ mode: "auto", scenario: "zero-swell" });
    const { body } = await conditions(r, "spot=sharks-cove");
    expect(body.sources).toEqual(expect.arrayContaining(["climatology:us-hi-oahu", "open-meteo:marine"]));
    expect(body.periods[0]!.swell_height_ft).toBeGreaterThan(0);
    expect(body.now!.water_temp_c).toBeCloseTo(24.7, 0);
    expect(r.logs.some((l) => String((l.notes as string[] | undefined)?.[0]).includes("all-zero swell"))).toBe(true);
  });
  it("live: has no swell to rate with, so answers 503", async () => {
    const r = await live({ mode: "live", scenario: "zero-swell" });
    const res = await r.svc.json("/api/v1/conditions?spot=sharks-cove");
    expectProblem(r.svc, res.status, res.body, 503, "data_unavailable");
  });
});

describe("calls to the upstreams", () => {
  it("makes one call per region and endpoint for the whole catalogue in an hour, as budgeted", async () => {
    const r = await live({ mode: "auto" });
    // Region by region, evenly spread over 24 minutes of the same hour (about 30 s apart): the whole
    // catalogue's first downloads (about 1,000 weighted calls) exceed Open-Meteo's 600 a minute,
    // which the emulator enforces and the service keeps under by holding downloads back. Every
    // region is fetched once.
    const STEP_MS = Math.floor((24 * 60_000) / catalog.regions.length);
    const downloadedAt = new Map<string, number>();
    const askRegionByRegion = async () => {
      for (const region of catalog.regions) {
        downloadedAt.set(region.id, r.svc.clock.now().getTime());
        // One spot per tide station (CO-OPS is asked per station): one download serves every spot of
        // the region, and asking all 500+ spots twice made this the suite's longest test for nothing more.
        const perStation = new Map(region.spots.map((s) => [s.tide_station, s] as const));
        for (const s of perStation.values()) expect((await r.svc.json(`/api/v1/conditions?spot=${s.id}`)).status).toBe(200);
        r.svc.clock.advance(STEP_MS);
      }
    };
    await askRegionByRegion();
    const budget = callBudget(catalog);
    const om = r.stub.requests.filter((q) => q.upstream === "marine" || q.upstream === "forecast");
    expect(om).toHaveLength(budget.perHour.openMeteoRequests);
    const locations = om.reduce((n, q) => n + new URL(q.url, "http://x").searchParams.get("latitude")!.split(",").length, 0);
    expect(locations).toBe(budget.perHour.openMeteoCalls);
    expect(r.stub.openMeteo.counters.weightedCalls).toBe(budget.perHour.openMeteoCalls);
    await r.svc.ctx.upstreams!.settled();
    // One request per region, plus at most one more for each of the emulator's periodic 502 Proxy
    // Errors (every 9th ERDDAP request, which a catalogue of more than eight regions reaches): a 502
    // on a region's first dataset moves on to the next, one on its last has nowhere to go. Which
    // request is the 9th depends on the order concurrent regions reach the emulator, so the count
    // is bounded, not exact (under load it was once one short of "every 502 retried").
    const badGateways = r.stub.erddapStatuses[502] ?? 0;
    expect(badGateways).toBeGreaterThan(0);
    expect(r.stub.calls.erddap).toBeGreaterThanOrEqual(budget.perDay.erddapRequests.min);
    expect(r.stub.calls.erddap).toBeLessThanOrEqual(budget.perDay.erddapRequests.min + badGateways);
    expect(r.stub.calls.coops).toBe(budget.perDay.coopsRequests);

    // The next hour: each region's batch is downloaded again only where a model it rests on published a
    // run in between (at 20:00 that is HRRR, hourly, for the regions it covers); the others are
    // confirmed current from the free run metadata. Tides and satellite are asked once a day.
    const firstDownload = new Map(downloadedAt);
    r.stub.resetCalls();
    r.svc.clock.advance(HOUR_MS - catalog.regions.length * STEP_MS);
    await askRegionByRegion();
    await r.svc.ctx.upstreams!.settled();
    const newRun = (api: "marine" | "forecast") =>
      catalog.regions.filter((region) => watchedModelsFor(api, region).some((m) => !m.fallback && r.stub.modelRun(m.id)!.availableAt + RUN_PROPAGATION_MS > firstDownload.get(region.id)!)).length;
    expect(newRun("forecast")).toBeGreaterThan(0);
    expect(r.stub.calls).toEqual({ marine: newRun("marine"), forecast: newRun("forecast"), erddap: 0, coops: 0 });
    expect(r.stub.metaRequests).toBeGreaterThan(0);
  });

  it("makes one upstream call for many concurrent requests", async () => {
    const r = await live({ delayMs: 100 });
    const oahu = catalog.region("us-hi-oahu")!.spots;
    const same = await Promise.all(Array.from({ length: 12 }, () => conditions(r, "spot=hanauma-bay")));
    expect(same.every((x) => x.status === 200)).toBe(true);
    await r.svc.ctx.upstreams!.settled();
    expect(r.stub.calls).toMatchObject({ marine: 1, forecast: 1, erddap: 1, coops: 1 });
    // The next hour, with a new wave run and a new ICON run: still one download per endpoint.
    r.stub.resetCalls();
    r.stub.publishRun("meteofrance_wave", new Date(r.svc.clock.now().getTime() + 5 * 60_000));
    r.stub.publishRun("dwd_icon", new Date(r.svc.clock.now().getTime() + 5 * 60_000));
    r.svc.clock.advance(HOUR_MS);
    const region = await Promise.all(oahu.map((s) => conditions(r, `spot=${s.id}`)));
    expect(region.every((x) => x.status === 200)).toBe(true);
    expect(r.stub.calls).toMatchObject({ marine: 1, forecast: 1, erddap: 0 });
  });

  it("refreshes recently asked regions ahead of the hour, so the next hour's request does not wait", async () => {
    const r = await live({ scenario: "calm" });
    const before = (await primed(r, "spot=sharks-cove")).body;
    r.svc.clock.set("2026-11-21T19:34:00Z");
    expect(await r.svc.ctx.upstreams!.refreshAhead()).toBe(0);
    // Each region has its own minute between 25 and 3 minutes before the hour; by then all are due.
    r.svc.clock.set("2026-11-21T19:57:00Z");
    // New runs of the wave model and of ICON came out at 19:40: the re-check downloads both batches.
    r.stub.setScenario("big-swell");
    r.stub.publishRun("meteofrance_wave", new Date("2026-11-21T19:40:00Z"));
    r.stub.publishRun("dwd_icon", new Date("2026-11-21T19:40:00Z"));
    expect(await r.svc.ctx.upstreams!.refreshAhead()).toBe(2);
    expect(r.stub.calls).toMatchObject({ marine: 2, forecast: 2, erddap: 1 });
    // Until the hour turns, the answer is the hour's answer: newer data is promised for 20:00.
    const same = (await conditions(r, "spot=sharks-cove")).body;
    expect(same).toEqual(before);
    expect(new Date(same.next_update_after!).toISOString()).toBe("2026-11-21T20:00:00.000Z");
    r.svc.clock.set("2026-11-21T20:00:10Z");
    const next = (await conditions(r, "spot=sharks-cove")).body;
    expect(r.stub.calls).toMatchObject({ marine: 2, forecast: 2, erddap: 1 });
    expect(next.periods[0]!.swell_height_ft!).toBeGreaterThan(before.periods[0]!.swell_height_ft! * 3);
    expect(next.data_quality.freshness).toBe("live");
    // The time of its data, not of the request: fetched ahead at 19:52 for the hour starting 20:00.
    expect(new Date(next.generated_at!).toISOString()).toBe("2026-11-21T20:00:00.000Z");
    expect(new Date(next.next_update_after!).toISOString()).toBe("2026-11-21T21:00:00.000Z");
  });
});

describe("offline", () => {
  it("never calls out, even with upstream addresses configured", async () => {
    const r = await live({ mode: "offline" });
    expect(r.svc.ctx.upstreams).toBeNull();
    for (const id of ["hanauma-bay", "la-jolla-cove", "shelly-beach-manly", "sharks-cove"]) {
      const { status, body } = await conditions(r, `spot=${id}`);
      expect(status).toBe(200);
      expect(body.data_quality.freshness).toBe("none");
      expect(body.sources.some((s) => /open-meteo|erddap|noaa-coops/.test(s))).toBe(false);
    }
    expect(r.stub.calls).toEqual({ marine: 0, forecast: 0, coops: 0, erddap: 0 });
  });
});

function credit(c: { provider: string; credit: string; url: string; license: string }) {
  return { provider: c.provider, credit: c.credit, url: c.url, license: c.license };
}
