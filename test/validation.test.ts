// The validation record's arithmetic (pairing, anomalies, the climatology baseline, the minimum
// count) on known numbers, the model prediction that is paired (from the day's inputs, never the
// satellite), and GET /api/v1/validation through the HTTP API without satellite data (offline, memory).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { ClimatologySource, loadClimatology } from "../src/sources/climatology.js";
import { INPUT_LOOKBACK_H } from "../src/forecast/engine.js";
import { HOUR_MS } from "../src/base/clock.js";
import { MemoryPairStore, MAX_PAIRS_PER_REGION, RETENTION_MS } from "../src/services/validation/store.js";
import { MIN_PAIRS, MIN_SPOT_OBSERVATIONS, NOT_ENOUGH, rankCorrelation, ranks, regionSkill, spearman, WINDOW_DAYS, type Pair } from "../src/model/skill.js";
import { modelFor, overpassWindow, Scorer, SCORE_RETRY_MS } from "../src/services/validation/scorer.js";
import { FixedClock } from "../src/base/clock.js";
import { createLogger } from "../src/base/logger.js";
import type { Hindcast } from "../src/sources/hindcast.js";
import { regionValidation, VALIDATION_PATH, VALIDATION_SCHEMA, WORSE_THAN_CLIMATOLOGY_FACTOR } from "../src/services/validation/report.js";
import { ValidationSchema } from "../src/services/validation/schema.js";
import { startService, type TestService } from "./helpers/service.js";
import { connectClient } from "./helpers/mcp.js";
import { expectProblem } from "./helpers/problem.js";

const DAY = 24 * HOUR_MS;
const T0 = Date.parse("2026-11-01T12:00:00Z");

function pair(spot: string, day: number, modelFt: number, satelliteFt: number, levelFt = 60, region = "r"): Pair {
  const observedAt = T0 + day * DAY;
  return { spot, region, date: new Date(observedAt).toISOString().slice(0, 10), observedAt, modelFt, levelFt, satelliteFt, kd490: 0.05, dataset: "d" };
}

describe("rank correlation", () => {
  it("ranks ties by their average and computes Spearman's rho on them", () => {
    expect(ranks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
    expect(spearman([1, 2, 3, 4, 5], [2, 4, 6, 8, 100])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4, 5], [5, 4, 3, 2, 1])).toBeCloseTo(-1, 12);
    // A textbook case: d² = 0+1+1+0+4+... computed by hand: rho = 1 − 6Σd²/(n(n²−1)).
    const x = [1, 2, 3, 4, 5, 6];
    const y = [2, 1, 4, 3, 6, 5];
    expect(spearman(x, y)).toBeCloseTo(1 - (6 * 6) / (6 * 35), 12);
    // No spread on one side: no ranking, so no number.
    expect(spearman([1, 2, 3], [0, 0, 0])).toBeNull();
  });

  it("gives a Fisher-z interval that contains rho and narrows with more pairs", () => {
    const x = Array.from({ length: 12 }, (_, i) => i);
    const y = x.map((v) => v + (v % 3 === 0 ? 4 : 0));
    const small = rankCorrelation(x, y)!;
    expect(small.low).toBeLessThanOrEqual(small.rho);
    expect(small.high).toBeGreaterThanOrEqual(small.rho);
    // Hand check: z = atanh(rho), half-width 1.96·sqrt(1.06/(n−3)).
    const half = 1.959964 * Math.sqrt(1.06 / 9);
    expect(small.low).toBeCloseTo(Math.tanh(Math.atanh(small.rho) - half), 2);
    const big = rankCorrelation([...x, ...x.map((v) => v + 12)], [...y, ...y.map((v) => v + 12)])!;
    expect(big.high - big.low).toBeLessThan(small.high - small.low);
    expect(rankCorrelation([1, 2, 3], [1, 2, 3])).toBeNull();
  });
});

describe("region skill", () => {
  it(`below ${MIN_PAIRS} pairs says not enough and gives no figure`, () => {
    const pairs = Array.from({ length: MIN_PAIRS - 1 }, (_, i) => pair(`s${i % 3}`, i, 50, 40));
    const s = regionSkill(pairs);
    expect(s).toMatchObject({ pairs: MIN_PAIRS - 1, enough: false, model: null, climatology: null, worseThanClimatology: null });
    const ten = regionSkill([...pairs, pair("s0", 20, 50, 40)]);
    expect(ten.enough).toBe(true);
    expect(ten.model!.bias_ft).toBe(10);
  });

  it("a pixel biased low by the reef beside it shows as level bias, not as anomaly error: the anomalies match exactly", () => {
    // Two spots; the satellite reads spot b 25 ft low every day (a biased pixel), but both follow the
    // model's departures from the typical level exactly.
    const swings = [-10, 5, 0, 12, -4, 8, -6];
    const pairs = swings.flatMap((d, i) => [pair("a", i, 60 + d, 60 + d), pair("b", i, 60 + d, 35 + d)]);
    const s = regionSkill(pairs);
    expect(s.enough).toBe(true);
    expect(s.pairs).toBe(14);
    expect(s.anomalyPairs).toBe(14);
    // Levels: half the pairs are 25 ft off.
    expect(s.model!.bias_ft).toBe(12.5);
    expect(s.model!.median_abs_error_ft).toBe(12.5);
    // Anomalies: the satellite's mean per spot is the typical level + mean swing (the model's anomaly
    // carries the swing alone), so the anomaly error is the mean swing, the same for every pair.
    const meanSwing = swings.reduce((a, b) => a + b, 0) / swings.length;
    expect(s.model!.anomaly_median_abs_error_ft).toBeCloseTo(Math.abs(meanSwing), 1);
    expect(s.model!.anomaly_rank_correlation!.rho).toBe(1);
    // Climatology predicts the typical level (60) and no departure.
    expect(s.climatology!.bias_ft).toBeCloseTo(pairs.reduce((a, p) => a + 60 - p.satelliteFt, 0) / 14, 1);
    expect(s.climatology!.anomaly_rank_correlation).toBeNull();
    const satAnom = pairs.map((p) => Math.abs(p.satelliteFt - (p.spot === "a" ? 60 : 35) - meanSwing)).sort((x, y) => x - y);
    expect(s.climatology!.anomaly_median_abs_error_ft).toBeCloseTo((satAnom[6]! + satAnom[7]!) / 2, 1);
    expect(s.worseThanClimatology).toBe(false);
  });

  it(`a spot with fewer than ${MIN_SPOT_OBSERVATIONS} observations adds levels but no anomalies (its own mean is not yet known)`, () => {
    const pairs = [...Array.from({ length: 10 }, (_, i) => pair("a", i, 60 + i, 55 + i)), pair("b", 0, 40, 30), pair("b", 1, 40, 30)];
    const s = regionSkill(pairs);
    expect({ pairs: s.pairs, anomaly: s.anomalyPairs, spots: s.spots }).toEqual({ pairs: 12, anomaly: 10, spots: 2 });
  });

  it("a response that moves against the water does worse than climatology, and only then lowers confidence", async () => {
    const swings = [-10, 5, 0, 12, -4, 8, -6, 3, -2, 9];
    const against = swings.map((d, i) => pair("a", i, 60 - d, 60 + d, 60, "bad"));
    const s = regionSkill(against);
    expect(s.worseThanClimatology).toBe(true);
    expect(s.model!.anomaly_rank_correlation!.rho).toBe(-1);
    const store = new MemoryPairStore();
    await store.add("bad", against, T0 + 10 * DAY);
    const now = new Date(T0 + 10 * DAY);
    const region = { id: "bad", name: "Bad" } as Parameters<typeof regionValidation>[0];
    const worse = await regionValidation(region, store, now);
    expect({ vs: worse.response_vs_climatology, factor: worse.confidence_factor }).toEqual({ vs: "worse", factor: WORSE_THAN_CLIMATOLOGY_FACTOR });
    expect(WORSE_THAN_CLIMATOLOGY_FACTOR).toBeLessThan(1);
    await store.add(
      "good",
      swings.map((d, i) => pair("a", i, 60 + d, 60 + d, 60, "good")),
      T0 + 10 * DAY,
    );
    const better = await regionValidation({ id: "good", name: "Good" } as typeof region, store, now);
    expect({ vs: better.response_vs_climatology, factor: better.confidence_factor }).toEqual({ vs: "better", factor: 1 });
    // A response that ranks the days right but moves three times too far has the larger anomaly
    // error, yet is not called worse: its rank correlation is clearly positive.
    await store.add(
      "overshoot",
      swings.map((d, i) => pair("a", i, 60 + 3 * d, 60 + d, 60, "overshoot")),
      T0 + 10 * DAY,
    );
    const overshoot = regionSkill(await store.list("overshoot", 0));
    expect(overshoot.model!.anomaly_median_abs_error_ft!).toBeGreaterThan(overshoot.climatology!.anomaly_median_abs_error_ft!);
    expect(overshoot.model!.anomaly_rank_correlation!.low).toBeGreaterThan(0);
    expect(overshoot.worseThanClimatology).toBe(false);
  });
});

describe("pair store (memory)", () => {
  it("keeps the first pair per spot and day, drops what no window can reach, and lists by observation time", async () => {
    const store = new MemoryPairStore();
    const now = T0 + 60 * DAY;
    await store.add("r", [pair("a", 59, 50, 40), pair("a", 59, 99, 99), pair("a", 0, 50, 40)], now);
    const all = await store.list("r", 0);
    expect(all.map((p) => [p.date, p.modelFt])).toEqual([[new Date(T0 + 59 * DAY).toISOString().slice(0, 10), 50]]);
    expect(RETENTION_MS).toBeGreaterThan(WINDOW_DAYS * DAY);
    expect(await store.missing("r", ["a|" + all[0]!.date, "a|2000-01-01"])).toEqual(["a|2000-01-01"]);
    const many = Array.from({ length: MAX_PAIRS_PER_REGION + 5 }, (_, i) => ({ ...pair(`s${i}`, 59, 1, 1), observedAt: now - i }));
    await store.add("big", many, now);
    expect((await store.list("big", 0)).length).toBe(MAX_PAIRS_PER_REGION);
  });
});

describe("the model prediction that is paired", () => {
  const catalog = Catalog.load();
  const normals = new ClimatologySource(loadClimatology());

  it("is read over the satellite's early-afternoon view, in local solar time", () => {
    // Honolulu (157.8° W): 13:30 solar ≈ 00:01 UTC the next day; the window is 3 hours around it.
    const w = overpassWindow("2026-11-10", -157.8);
    expect(w.end.getTime() - w.start.getTime()).toBe(3 * HOUR_MS);
    expect(Math.abs(w.mid.getTime() - Date.parse("2026-11-11T00:01:12Z"))).toBeLessThanOrEqual(HOUR_MS);
    // Sydney (151.2° E): 13:30 solar ≈ 03:25 UTC the same day.
    expect(Math.abs(overpassWindow("2026-11-10", 151.2).mid.getTime() - Date.parse("2026-11-10T03:25Z"))).toBeLessThanOrEqual(HOUR_MS);
  });

  it("under the month's normal conditions is the typical level (in daylight), whatever the satellite saw", () => {
    const spot = catalog.spot("hanauma-bay")!;
    const date = "2026-11-10";
    const w = overpassWindow(date, spot.lon);
    const start = new Date(w.start.getTime() - INPUT_LOOKBACK_H * HOUR_MS);
    const inputs = normals.hourlySync(spot, start, w.end);
    const m = modelFor(spot, date, inputs, inputs)!;
    expect(m.levelFt).toBe(spot.clarity_ft[10]);
    expect(m.modelFt).toBeGreaterThan(0.84 * m.levelFt);
    expect(m.modelFt).toBeLessThanOrEqual(m.levelFt);
    // A stormier day (three times the swell, twice the wind) reads lower.
    const rough = { ...inputs, values: { ...inputs.values } };
    for (const f of ["swell1_height_m", "swell2_height_m", "swell3_height_m"] as const) rough.values[f] = inputs.values[f].map((v) => v * 3);
    rough.values.wind_speed_kt = inputs.values.wind_speed_kt.map((v) => v * 2 + 10);
    expect(modelFor(spot, date, rough, inputs)!.modelFt).toBeLessThan(m.modelFt);
  });

  it("has no unknowns to guess: unknown swell or wind gives no pair", () => {
    const spot = catalog.spot("hanauma-bay")!;
    const w = overpassWindow("2026-11-10", spot.lon);
    const start = new Date(w.start.getTime() - INPUT_LOOKBACK_H * HOUR_MS);
    const inputs = normals.hourlySync(spot, start, w.end);
    const blind = { ...inputs, values: { ...inputs.values, wind_speed_kt: inputs.values.wind_speed_kt.map(() => Number.NaN) } };
    expect(modelFor(spot, "2026-11-10", blind, inputs)).toBeNull();
  });
});

type Report = ReturnType<typeof ValidationSchema.parse>;
const byRegion = (r: Report) => Object.fromEntries(r.regions.map((x) => [x.region, x]));

describe("scoring", () => {
  const catalog = Catalog.load();
  const normals = new ClimatologySource(loadClimatology());

  it("scores each observation once, from the hindcast; one that could not be scored waits and is scored on a later batch, of any region", async () => {
    const clock = new FixedClock("2026-11-21T19:00:00Z");
    const store = new MemoryPairStore();
    let fail = true;
    const asked: string[] = [];
    // The hindcast stands in for Open-Meteo: the month's norms as that day's inputs.
    const hindcast: Hindcast = {
      async inputs(region, start, end) {
        asked.push(region.id);
        if (fail) throw new Error("upstream down");
        return new Map(region.spots.map((s) => [s.id, normals.hourlySync(s, start, end)]));
      },
    };
    const scorer = new Scorer({ catalog, clock, log: createLogger("silent"), store, hindcast, normals });
    const oahu = catalog.region("us-hi-oahu")!;
    const kona = catalog.region("us-hi-kona")!;
    const observedAt = Date.parse("2026-11-14T12:00:00Z");
    const batch = (r: typeof oahu) => ({ readings: new Map(r.spots.map((s) => [s.id, { kd490: 0.04, observedAt, pixels: 9, dataset: "noaacwNPPVIIRSkd490Daily" }])) });
    scorer.observe(oahu, batch(oahu));
    await scorer.settled();
    expect(await store.list("us-hi-oahu", 0)).toEqual([]);
    fail = false;
    // Within the retry pause another batch does not ask again.
    scorer.observe(kona, batch(kona));
    await scorer.settled();
    expect(asked).toEqual(["us-hi-oahu", "us-hi-kona"]);
    expect((await store.list("us-hi-kona", 0)).length).toBe(kona.spots.length);
    clock.advance(SCORE_RETRY_MS);
    scorer.observe(kona, batch(kona));
    await scorer.settled();
    const pairs = await store.list("us-hi-oahu", 0);
    expect(pairs.length).toBe(oahu.spots.length);
    expect(asked).toEqual(["us-hi-oahu", "us-hi-kona", "us-hi-oahu"]);
    const p = pairs.find((x) => x.spot === "hanauma-bay")!;
    expect(p).toMatchObject({ date: "2026-11-14", kd490: 0.04, levelFt: catalog.spot("hanauma-bay")!.clarity_ft[10] });
    // The satellite value never reaches the model: the prediction is the level under the norms.
    expect(p.modelFt).toBeGreaterThan(0.84 * p.levelFt);
    expect(p.modelFt).toBeLessThanOrEqual(p.levelFt);
    // The same observation again (carried forward under cloud) is not scored twice.
    scorer.observe(oahu, batch(oahu));
    await scorer.settled();
    expect(asked.length).toBe(3);
  });
});

describe("GET /api/v1/validation without satellite data", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  it("answers JSON with CORS, the schema constant, the source object, every region saying not enough observations yet, and that pairs are kept in memory", async () => {
    const { status, body, res } = await svc.json<Record<string, unknown>>(VALIDATION_PATH, { headers: { Origin: "https://example.org" } });
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const v = ValidationSchema.parse(body);
    expect(v.schema).toBe(VALIDATION_SCHEMA);
    expect(v.source).toEqual(svc.ctx.source);
    expect(v.storage).toBe("memory");
    expect(v.storage_note).toMatch(/memory only.*restart/);
    expect(v.storage_note).toMatch(/Offline/);
    expect(v.regions.map((r) => r.region).sort()).toEqual(svc.ctx.catalog.regions.map((r) => r.id).sort());
    for (const r of v.regions) {
      expect(r).toMatchObject({ pairs: 0, status: "not_enough_observations", model: null, climatology: null, response_vs_climatology: null, confidence_factor: 1 });
      expect(r.message).toContain(NOT_ENOUGH);
    }
  });

  it("answers methods other than GET with a problem, not a 5xx", async () => {
    const res = await svc.get(VALIDATION_PATH, { method: "POST" });
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get("content-type")).toMatch(/problem\+json/);
  });

  it("serves one built record with a strong ETag: 304 on If-None-Match, a new ETag as soon as pairs are added here", async () => {
    const first = await svc.get(VALIDATION_PATH);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect((await svc.get(VALIDATION_PATH)).headers.get("etag")).toBe(etag);
    const again = await svc.get(VALIDATION_PATH, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    // Eight requests at once share one build: every one gets the same record.
    const many = await Promise.all(Array.from({ length: 8 }, () => svc.get(VALIDATION_PATH)));
    expect(new Set(many.map((r) => r.headers.get("etag")))).toEqual(new Set([etag]));
    const now = svc.clock.now().getTime();
    await svc.ctx.validation.store.add(
      "us-hi-maui",
      [{ ...pair("molokini-crater", 0, 60, 62, 60, "us-hi-maui"), observedAt: now - 9 * DAY, date: new Date(now - 9 * DAY).toISOString().slice(0, 10) }],
      now,
    );
    const changed = await svc.json<Report>(VALIDATION_PATH);
    expect(changed.res.headers.get("etag")).not.toBe(etag);
    expect(byRegion(changed.body)["us-hi-maui"]!.pairs).toBe(1);
  });

  it("is metered like the facts: a caller past its hourly limit gets 429 rate_limited, 304s counted too", async () => {
    const limited = await startService({ env: { RATE_LIMIT_FACTS_PER_HOUR: "3" } });
    try {
      const first = await limited.get(VALIDATION_PATH);
      expect(first.status).toBe(200);
      expect(first.headers.get("ratelimit-policy")).toMatch(/facts/);
      const etag = first.headers.get("etag")!;
      expect((await limited.get(VALIDATION_PATH, { headers: { "If-None-Match": etag } })).status).toBe(304);
      expect((await limited.get(VALIDATION_PATH)).status).toBe(200);
      const refused = await limited.json<Record<string, unknown>>(VALIDATION_PATH);
      expectProblem(limited, refused.status, refused.body, 429, "rate_limited");
      expect(refused.res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    } finally {
      await limited.close();
    }
  });

  it("an MCP client reads where the figures are, and what 'not enough' means, in list_coverage's notes", async () => {
    const c = await connectClient(svc.base, "2026-07-28");
    try {
      const r = (await c.client.callTool({ name: "list_coverage", arguments: {} })) as { structuredContent: { notes: string[] } };
      const note = r.structuredContent.notes.find((n) => n.startsWith("How good the visibility model is"));
      expect(note).toContain(`${svc.base}${VALIDATION_PATH}`);
      expect(note).toContain(NOT_ENOUGH);
      expect(note).toContain(`${MIN_PAIRS} pairs`);
    } finally {
      await c.close();
    }
  });

  it("the forecast page links to the figures", async () => {
    const page = await (await svc.get("/spots/hanauma-bay")).text();
    expect(page).toContain(`href="${svc.base}${VALIDATION_PATH}"`);
  });

  it("a region whose response does worse than climatology has its picks' model confidence lowered, and only that region", async () => {
    const ask = async () =>
      (await svc.json<{ picks: { spot: { region: { id: string } }; confidence: { factors: { model: number } } }[] }>("/api/v1/recommendations?activity=snorkel&region=us-hi-oahu&limit=3")).body.picks;
    const mauiModel = async () =>
      (await svc.json<{ picks: { confidence: { factors: { model: number } } }[] }>("/api/v1/recommendations?activity=snorkel&region=us-hi-maui&limit=1")).body.picks[0]!.confidence.factors.model;
    const before = await ask();
    const mauiBefore = await mauiModel();
    expect(before.length).toBeGreaterThan(0);
    // Ten days of observations that move against the model at one Oʻahu spot.
    const now = svc.clock.now().getTime();
    const swings = [-10, 5, 0, 12, -4, 8, -6, 3, -2, 9];
    await svc.ctx.validation.store.add(
      "us-hi-oahu",
      swings.map((d, i) => ({ ...pair("hanauma-bay", 0, 60 - d, 60 + d, 60, "us-hi-oahu"), observedAt: now - (i + 7) * DAY, date: new Date(now - (i + 7) * DAY).toISOString().slice(0, 10) })),
      now,
    );
    const oahu = byRegion(await svc.json<Report>(VALIDATION_PATH).then((r) => r.body))["us-hi-oahu"]!;
    expect({ vs: oahu.response_vs_climatology, factor: oahu.confidence_factor }).toEqual({ vs: "worse", factor: WORSE_THAN_CLIMATOLOGY_FACTOR });
    // A new hour: the answer is built again, with the factor read from the record.
    svc.clock.advance(HOUR_MS);
    const after = await ask();
    for (const [i, p] of after.entries()) expect(p.confidence.factors.model).toBeCloseTo(before[i]!.confidence.factors.model * WORSE_THAN_CLIMATOLOGY_FACTOR, 2);
    expect(await mauiModel()).toBe(mauiBefore);
  });

  it("is in the OpenAPI document with its body schema", async () => {
    const doc = (
      await svc.json<{
        paths: Record<string, { get: { operationId: string; responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> } }>;
        components: { schemas: Record<string, unknown> };
      }>("/openapi.json")
    ).body;
    const op = doc.paths[VALIDATION_PATH]!.get;
    expect(op.operationId).toBe("getValidation");
    expect(op.responses["200"]!.content!["application/json"]!.schema.$ref).toBe("#/components/schemas/Validation");
    expect(doc.components.schemas.Validation).toBeDefined();
  });
});
