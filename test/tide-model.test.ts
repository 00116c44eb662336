// Modelled tides where no tide station reaches: the extremes and datum rules on synthetic series, and
// through the real HTTP server and the upstream emulator, a Red Sea spot's high and low waters read off
// Open-Meteo's modelled sea level (labelled as modelled), offline's honest null, a spot with a station
// untouched, and a point outside the ocean model's sea mask answering without a tide and without error.
import { describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { HOUR_MS } from "../src/base/clock.js";
import { M_PER_FT } from "../src/model/visibility.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import { MARINE, MARINE_WITH_TIDE, openMeteoCallWeight, queryPlan } from "../src/sources/open-meteo.js";
import { estimateMllw, MIN_TIDE_RANGE_M, MODELLED_TIDE_ID, modelledTide, seaLevelExtremes, TIDAL_DAY_MS } from "../src/sources/tide-model.js";
import { MODELLED_TIDE_TITLE, NO_TIDE_TITLE } from "../src/pages/forecast-page.js";
import { conditionsMarkdown } from "../src/answers/get-conditions.js";
import { startStubUpstreams } from "../scripts/stub/upstreams.js";
import { liveRuns } from "./helpers/live.js";
import { startService } from "./helpers/service.js";

const START = Date.UTC(2026, 10, 15);
const M2_H = 12.4206012;

/** A pure M2 tide of amplitude `amp` around `mean`, hourly, optionally rounded to whole centimetres. */
function m2Series(days: number, amp: number, mean = 0, cm = false): Float64Array {
  const v = new Float64Array(days * 24);
  for (let h = 0; h < v.length; h++) {
    const x = mean + amp * Math.cos((2 * Math.PI * h) / M2_H);
    v[h] = cm ? Math.round(x * 100) / 100 : x;
  }
  return v;
}

describe("extremes of an hourly sea level", () => {
  it("finds every high and low of a pure M2 tide, to within a few minutes and half a centimetre (the 5-hour parabola flattens a peak slightly)", () => {
    const ex = seaLevelExtremes(START, m2Series(14, 0.3));
    // The first high sits on the series' first hour, where no turn can be seen: the first event is the low after it.
    expect(ex[0]!.type).toBe("low");
    for (const [k, e] of ex.entries()) {
      const n = k + 1; // half M2 periods from the start
      expect(e.type).toBe(n % 2 === 0 ? "high" : "low");
      expect(Math.abs(e.time - (START + (n * M2_H * HOUR_MS) / 2))).toBeLessThanOrEqual(6 * 60_000);
      expect(Math.abs(e.heightM - (n % 2 === 0 ? 0.3 : -0.3))).toBeLessThan(0.005);
    }
    expect(ex.length).toBe(Math.floor((14 * 24 - 1) / (M2_H / 2)));
  });

  it("reads through the 1 cm steps of the model (flat tops) and keeps strict alternation", () => {
    const ex = seaLevelExtremes(START, m2Series(10, 0.06, 0.1, true));
    expect(ex.length).toBeGreaterThan(30);
    for (let k = 1; k < ex.length; k++) {
      expect(ex[k]!.type).not.toBe(ex[k - 1]!.type);
      expect(ex[k]!.time - ex[k - 1]!.time).toBeGreaterThan(5 * HOUR_MS);
    }
  });

  it("drops surge wiggles smaller than the minimum range, and extremes closer than two hours", () => {
    const v = m2Series(3, 0.3);
    // A 1.5 cm bump on the falling limb three hours after the second high: a high and a low too small to be tides.
    const at = Math.round(M2_H + 3);
    v[at] = v[at]! + 0.015;
    v[at + 1] = v[at + 1]! + 0.016 + (v[at]! - v[at + 1]!);
    const clean = seaLevelExtremes(START, m2Series(3, 0.3));
    const bumped = seaLevelExtremes(START, v);
    expect(bumped.map((e) => e.type)).toEqual(clean.map((e) => e.type));
    for (let k = 1; k < bumped.length; k++) expect(Math.abs(bumped[k]!.heightM - bumped[k - 1]!.heightM)).toBeGreaterThanOrEqual(MIN_TIDE_RANGE_M);
  });

  it("reads each known stretch on its own: no extreme at a gap's edge, none from unknown hours", () => {
    const v = m2Series(4, 0.3);
    for (let h = 30; h < 40; h++) v[h] = Number.NaN;
    const ex = seaLevelExtremes(START, v);
    for (const e of ex) expect(e.time < START + 29 * HOUR_MS || e.time > START + 40 * HOUR_MS).toBe(true);
    expect(seaLevelExtremes(START, new Float64Array(48).fill(Number.NaN))).toEqual([]);
  });
});

describe("the datum: MLLW estimated from the series", () => {
  it("is the mean of each whole tidal day's lower low water", () => {
    const lows = [-0.3, -0.2, -0.4, -0.1, -0.3, -0.2, -0.3, -0.5];
    const ex = lows.flatMap((h, d) => [
      { type: "low" as const, time: START + d * TIDAL_DAY_MS + 2 * HOUR_MS, heightM: h },
      { type: "high" as const, time: START + d * TIDAL_DAY_MS + 8 * HOUR_MS, heightM: 0.3 },
      { type: "low" as const, time: START + d * TIDAL_DAY_MS + 14 * HOUR_MS, heightM: h + 0.1 },
    ]);
    const d = estimateMllw(ex, START, START + 8 * TIDAL_DAY_MS)!;
    expect(d.days).toBe(8);
    expect(d.mllwM).toBeCloseTo(lows.reduce((a, b) => a + b, 0) / lows.length, 10);
    // Fewer than seven whole tidal days: no datum.
    expect(estimateMllw(ex, START, START + 6.5 * TIDAL_DAY_MS)).toBeNull();
  });

  it("gives heights in feet above it: a pure M2 tide of ±0.3 m about any mean reads 0 ft at low water and 0.6 m at high", () => {
    const t = modelledTide(START, m2Series(14, 0.3, 0.25))!;
    expect(t.mllwM).toBeCloseTo(0.25 - 0.3, 2);
    expect(t.datumDays).toBe(13);
    for (const e of t.events) expect(e.heightFt).toBeCloseTo(e.type === "low" ? 0 : 0.6 / M_PER_FT, 1);
    // All unknown (outside the model's sea mask): no tide at all.
    expect(modelledTide(START, new Float64Array(14 * 24).fill(Number.NaN))).toBeNull();
    // Too short a series for a datum: no tide rather than heights on a guessed datum.
    expect(modelledTide(START, m2Series(5, 0.3))).toBeNull();
  });
});

describe("what the modelled tide costs", () => {
  it("adds the variable and past days to the marine request of regions with spots without a station, at no extra call weight", () => {
    const cat = Catalog.load();
    const dahab = queryPlan(cat.region("eg-js-dahab")!);
    const oahu = queryPlan(cat.region("us-hi-oahu")!);
    expect(dahab.tidePoints.length).toBe(dahab.points.length);
    expect(oahu.tidePoints).toEqual([]);
    expect(openMeteoCallWeight(MARINE_WITH_TIDE, 10)).toBe(openMeteoCallWeight(MARINE, 10));
    expect(openMeteoCallWeight(MARINE_WITH_TIDE, 10)).toBe(10);
    // One day more would cost 1/14 more per location: the 14 days are the most one call holds.
    expect(openMeteoCallWeight({ ...MARINE_WITH_TIDE, pastDays: MARINE_WITH_TIDE.pastDays + 1 }, 14)).toBe(15);
  });
});

const conditions = async (base: { json: <T>(p: string) => Promise<{ status: number; body: T }> }, spot: string) => {
  const r = await base.json<ConditionsJson>(`/api/v1/conditions?spot=${spot}`);
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  return r.body;
};

describe("through the service and the emulator", () => {
  const live = liveRuns();

  it("gives a Red Sea spot high and low waters with heights, labelled as modelled", async () => {
    const r = await live({ scenario: "calm" });
    const body = await conditions(r.svc, "blue-hole-dahab");
    expect(body.tide_datum).toBe("MLLW");
    expect(body.tide_events.length).toBeGreaterThan(20);
    for (const [k, e] of body.tide_events.entries()) {
      expect(typeof e.height_ft).toBe("number");
      // A small tide: within a couple of feet of the estimated MLLW.
      expect(Math.abs(e.height_ft!)).toBeLessThan(3);
      if (k > 0) expect(e.type).not.toBe(body.tide_events[k - 1]!.type);
    }
    const highs = body.tide_events.filter((e) => e.type === "high").map((e) => e.height_ft!);
    const lows = body.tide_events.filter((e) => e.type === "low").map((e) => e.height_ft!);
    expect(Math.min(...highs)).toBeGreaterThan(Math.max(...lows) - 0.5);
    expect(body.sources).toContain(MODELLED_TIDE_ID);
    expect(body.sources.filter((s) => s.startsWith("tide-harmonics:") || s.startsWith("noaa-coops:"))).toEqual([]);
    const credit = body.data_credits.find((c) => c.credit.startsWith("Modelled tide"))!;
    expect(credit.provider).toMatch(/modelled tide/i);
    expect(credit.credit).toMatch(/Open-Meteo/);
    expect(credit.credit).toMatch(/Copernicus Marine/);
    expect(body.attribution).toMatch(/modelled tide/i);
    expect(body.periods.filter((p) => p.tide_state !== null).length).toBeGreaterThan(body.periods.length / 2);
    expect(body.periods.some((p) => typeof p.tide_height_ft === "number")).toBe(true);
    // Asked in the region's one marine request, with 14 days for the datum; Oahu's request unchanged.
    const marine = r.stub.requests.filter((q) => q.upstream === "marine").map((q) => new URL(q.url, "http://x").searchParams);
    const withTide = marine.find((p) => p.get("hourly")!.includes("sea_level_height_msl"))!;
    expect(withTide.get("past_days")).toBe("6");
    expect(withTide.get("forecast_days")).toBe("8");
    expect(r.stub.calls.coops).toBe(0);
    // The Markdown card says so too.
    expect(conditionsMarkdown(body, r.svc.ctx)).toMatch(/\*\*Tides \(modelled, not a station; ft above an estimated MLLW\):\*\* (high|low) /);
  });

  it("draws the modelled tide on the spot's forecast page and says it is modelled", async () => {
    const r = await live({ scenario: "calm" });
    const res = await r.svc.get("/spots/blue-hole-dahab");
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(MODELLED_TIDE_TITLE);
    expect(page).not.toContain(NO_TIDE_TITLE);
    expect(page).toContain('class="tide"');
  });

  it("leaves a spot with a tide station on its station, and its region's marine request without the sea level", async () => {
    const r = await live({ scenario: "calm" });
    const body = await conditions(r.svc, "hanauma-bay");
    expect(body.sources).not.toContain(MODELLED_TIDE_ID);
    expect(body.sources.some((s) => s.startsWith("noaa-coops:") || s.startsWith("tide-harmonics:"))).toBe(true);
    expect(body.tide_events.length).toBeGreaterThan(0);
    const marine = r.stub.requests.filter((q) => q.upstream === "marine");
    expect(marine.length).toBeGreaterThan(0);
    for (const q of marine) expect(q.url).not.toContain("sea_level_height_msl");
  });

  it("answers a spot whose point lies outside the ocean model's sea mask without a tide, and without an error", async () => {
    const cat = Catalog.load();
    const plan = queryPlan(cat.region("eg-js-sharm-el-sheikh")!);
    // coastal-nulls: the emulator answers the sea level all null (unit "undefined") at odd-numbered points.
    const masked = [...plan.pointOf].find(([, i]) => i % 2 === 1)![0];
    const unmasked = [...plan.pointOf].find(([, i]) => i % 2 === 0)![0];
    const r = await live({ scenario: "coastal-nulls", mode: "auto" });
    const body = await conditions(r.svc, masked);
    expect(body.tide_events).toEqual([]);
    expect(body.sources).not.toContain(MODELLED_TIDE_ID);
    for (const p of body.periods) expect(p.tide_height_ft).toBeNull();
    const other = await conditions(r.svc, unmasked);
    expect(other.tide_events.length).toBeGreaterThan(0);
    expect(other.sources).toContain(MODELLED_TIDE_ID);
    expect(r.logs.filter((l) => String(l.msg).includes("partly refused"))).toEqual([]);
  });
});

describe("the emulator's sea level", () => {
  it('is a small tide in metres, in whole centimetres, and all null with unit "undefined" outside the sea mask', async () => {
    const stub = await startStubUpstreams({ scenario: "coastal-nulls", latencyScale: 0, now: () => new Date(START) });
    try {
      const res = await fetch(
        `${stub.env.OPEN_METEO_MARINE_URL}?latitude=28.572,28.5&longitude=34.542,34.5&hourly=swell_wave_height,sea_level_height_msl&timezone=GMT&past_days=6&forecast_days=8&cell_selection=sea`,
      );
      expect(res.status).toBe(200);
      const [a, b] = (await res.json()) as { hourly_units: Record<string, string>; hourly: Record<string, (number | null)[]> }[];
      expect(a!.hourly_units.sea_level_height_msl).toBe("m");
      const level = a!.hourly.sea_level_height_msl!;
      expect(level.length).toBe(14 * 24);
      expect(level.every((v) => typeof v === "number" && Math.round(v * 100) === Number((v * 100).toFixed(6)))).toBe(true);
      const range = Math.max(...(level as number[])) - Math.min(...(level as number[]));
      expect(range).toBeGreaterThan(0.2);
      expect(range).toBeLessThan(0.8);
      expect(b!.hourly_units.sea_level_height_msl).toBe("undefined");
      expect(b!.hourly.sea_level_height_msl!.every((v) => v === null)).toBe(true);
      // Weighed as Open-Meteo does: 2 locations, 2 variables, 14 days.
      expect(stub.openMeteo.counters.weightedCalls).toBe(2);
    } finally {
      await stub.close();
    }
  });
});

describe("offline", () => {
  it("stays the honest null: no tide, no modelled source, the coverage note says why", async () => {
    const svc = await startService();
    try {
      const body = await conditions(svc, "blue-hole-dahab");
      expect(body.tide_events).toEqual([]);
      expect(body.sources).not.toContain(MODELLED_TIDE_ID);
      for (const p of body.periods) expect(p.tide_state).toBeNull();
      const cov = await svc.json<{ notes: string[] }>("/api/v1/coverage");
      expect(cov.body.notes.find((n) => n.startsWith("No tide station"))).toMatch(/tide fields are null there\.$/);
    } finally {
      await svc.close();
    }
  });
});
