// GET /api/v1/conditions through real HTTP with a pinned clock and the embedded (offline) data.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConditionsSchema, type ConditionsJson } from "../src/schemas/conditions.js";
import { MAX_RANGE_DAYS, SNAP_DISTANCE_KM } from "../src/base/limits.js";
import { expectProblem } from "./helpers/problem.js";
import { DEFAULT_NOW, startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const get = (qs: string) => svc.json<ConditionsJson>(`/api/v1/conditions?${qs}`);

describe("conditions for a spot", () => {
  it("answers with every field of the spec, for 7 spot-local days from today", async () => {
    const { status, body, res } = await get("spot=hanauma-bay");
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(ConditionsSchema.parse(body)).toEqual(body);
    expect(body.schema).toBe("service.conditions.v1");
    expect(body.spot).toMatchObject({ id: "hanauma-bay", timezone: "Pacific/Honolulu", region: { id: "us-hi-oahu", country: "US" } });
    // 19:00Z is 09:00 in Honolulu on 2026-11-21.
    expect(body.range).toEqual({ from: "2026-11-21", to: "2026-11-27", available_from: "2026-11-21", available_to: "2026-11-27" });
    expect(body.query).toEqual({ spot: "hanauma-bay", lat: null, lon: null, from: null, to: null, resolved_from: null });
    expect(body.tide_datum).toBe("MLLW");
    expect(body.disclaimer).toMatch(/not an official forecast/);
    expect(body.source).toEqual({ name: "Ocean Conditions", url: svc.base, docs: `${svc.base}/docs`, citation: expect.stringContaining(svc.base) });
    expect(body.links).toEqual({ page: `${svc.base}/spots/hanauma-bay`, app: expect.stringContaining("hanauma-bay"), docs: `${svc.base}/docs` });
  });

  it("keeps the period containing now, drops elapsed ones, and aligns the rest to local 00/03/…/21", async () => {
    const { body } = await get("spot=hanauma-bay");
    const now = new Date(DEFAULT_NOW).getTime();
    const first = body.periods[0]!;
    expect(first.start).toBe("2026-11-21T09:00:00-10:00");
    expect(new Date(first.start!).getTime()).toBeLessThanOrEqual(now);
    expect(new Date(first.end!).getTime()).toBeGreaterThan(now);
    // Today's 09, 12, 15, 18, 21 and six full days of eight.
    expect(body.periods).toHaveLength(5 + 6 * 8);
    for (const p of body.periods) {
      expect(p.kind).toBe("forecast");
      expect(Number(p.start!.slice(11, 13)) % 3).toBe(0);
      expect(p.start!.endsWith("-10:00")).toBe(true);
    }
    expect(body.periods.at(-1)!.end).toBe("2026-11-28T00:00:00-10:00");
  });

  it("gives a current-hour nowcast when today is in the range, and none otherwise", async () => {
    const { body } = await get("spot=hanauma-bay");
    expect(body.now).toMatchObject({ kind: "nowcast", start: "2026-11-21T09:00:00-10:00", end: "2026-11-21T10:00:00-10:00" });
    const later = await get("spot=hanauma-bay&from=2026-11-23&to=2026-11-24");
    expect(later.body.now).toBeNull();
    expect(later.body.periods).toHaveLength(16);
    expect(later.body.periods[0]!.start).toBe("2026-11-23T00:00:00-10:00");
  });

  it("rates every period with a score, tier, visibility and a reason", async () => {
    const { body } = await get("spot=hanauma-bay");
    for (const p of [body.now!, ...body.periods]) {
      expect(p.score).toBeGreaterThanOrEqual(0);
      expect(p.score).toBeLessThanOrEqual(100);
      expect(p.rating).toBeTypeOf("string");
      expect(p.visibility_ft).toBeGreaterThan(0);
      expect(p.visibility_m).toBeCloseTo(p.visibility_ft! * 0.3048, 0);
      expect(p.swell_height_m).toBeCloseTo(p.swell_height_ft! * 0.3048, 1);
      expect(p.why).toMatch(/\.$/);
      // The lead, where the numbers come from, and at most a dawn note and a note on ranking.
      expect(p.why!.split(". ").length).toBeLessThanOrEqual(4);
      // A range beside every visibility.
      expect(p.visibility_low_ft).toBeLessThanOrEqual(p.visibility_ft!);
      expect(p.visibility_high_ft).toBeGreaterThanOrEqual(p.visibility_ft!);
    }
  });

  it("labels the embedded data honestly", async () => {
    const { body } = await get("spot=hanauma-bay");
    expect(body.data_quality).toEqual({ visibility_source: "heuristic", freshness: "none" });
    expect(body.sources).toContain("climatology:us-hi-oahu");
    expect(body.sources.some((s) => s.startsWith("tide-harmonics:noaa/"))).toBe(true);
    for (const p of body.periods) {
      expect(p.visibility_source).toBe("heuristic");
      expect(p.why).toContain("Seasonal norms, not a live forecast.");
      expect(p.confidence).toBeLessThan(0.5);
    }
    expect(body.data_credits.map((c) => c.provider)).toEqual(expect.arrayContaining(["Ocean Conditions seasonal norms"]));
    expect(body.data_credits.some((c) => /NOAA/.test(c.credit))).toBe(true);
    expect(body.attribution).toContain("Ocean Conditions");
  });

  it("lists the high and low waters within the range, alternating", async () => {
    const { body } = await get("spot=hanauma-bay&from=2026-11-22&to=2026-11-22");
    expect(body.tide_events.length).toBeGreaterThanOrEqual(3);
    for (const e of body.tide_events) expect(e.time.startsWith("2026-11-22T")).toBe(true);
    for (let i = 1; i < body.tide_events.length; i++) expect(body.tide_events[i]!.type).not.toBe(body.tide_events[i - 1]!.type);
    const states = new Set(body.periods.map((p) => p.tide_state));
    expect([...states].every((s) => ["rising", "falling", "high", "low"].includes(s!))).toBe(true);
  });

  it("says when newer data may exist", async () => {
    const { body } = await get("spot=hanauma-bay");
    expect(new Date(body.next_update_after!).getTime()).toBeGreaterThan(new Date(DEFAULT_NOW).getTime());
    expect(new Date(body.generated_at!).getTime()).toBe(new Date(DEFAULT_NOW).getTime());
  });

  it("answers the same thing twice", async () => {
    const a = await get("spot=la-jolla-cove&from=2026-11-22&to=2026-11-23");
    const b = await get("spot=la-jolla-cove&from=2026-11-22&to=2026-11-23");
    expect(b.body).toEqual(a.body);
  });

  it("uses the spot's own calendar: Sydney is already on the 22nd", async () => {
    const { body } = await get("spot=shelly-beach-manly");
    expect(body.range.from).toBe("2026-11-22");
    expect(body.periods[0]!.start).toBe("2026-11-22T06:00:00+11:00");
    expect(body.now!.start).toBe("2026-11-22T06:00:00+11:00");
  });

  it("includes the 4-hour block on the day clocks fall back", async () => {
    const s = await startService({ now: "2026-10-31T19:00:00Z" });
    try {
      const { body } = await s.json<ConditionsJson>("/api/v1/conditions?spot=la-jolla-cove&from=2026-11-01&to=2026-11-01");
      expect(body.periods[0]).toMatchObject({ start: "2026-11-01T00:00:00-07:00", end: "2026-11-01T03:00:00-08:00" });
      expect(body.periods).toHaveLength(8);
    } finally {
      await s.close();
    }
  });
});

describe("lat/lon", () => {
  it(`snaps to the nearest covered spot within ${SNAP_DISTANCE_KM} km and says so`, async () => {
    const { status, body } = await get("lat=21.2700&lon=-157.7000");
    expect(status).toBe(200);
    expect(body.spot.id).toBe("hanauma-bay");
    expect(body.query.resolved_from).toEqual({ lat: 21.27, lon: -157.7, distance_km: expect.any(Number) });
    expect(body.query.resolved_from!.distance_km).toBeLessThan(2);
    expect(body.query).toMatchObject({ spot: null, lat: 21.27, lon: -157.7 });
  });
  it("answers 404 no_spot_nearby beyond the snap distance, naming the nearest spot", async () => {
    const { status, body } = await svc.json("/api/v1/conditions?lat=0&lon=-140");
    expectProblem(svc, status, body, 404, "no_spot_nearby");
    expect(String(body.detail)).toMatch(/nearest is .+ km away/);
  });
});

describe("bad requests", () => {
  it.each([
    ["", 400, "missing_location"],
    ["from=2026-11-22", 400, "missing_location"],
    ["spot=hanauma-bay&lat=21.27&lon=-157.7", 400, "ambiguous_location"],
    ["lat=21.27", 400, "invalid_coordinates"],
    ["lat=abc&lon=-157", 400, "invalid_coordinates"],
    ["lat=91&lon=0", 400, "invalid_coordinates"],
    ["lat=10&lon=-181", 400, "invalid_coordinates"],
    ["lat=1e999&lon=0", 400, "invalid_coordinates"],
    ["spot=hanauma-bay&spot=sharks-cove", 400, "one_spot_per_request"],
    ["spot=hanauma-bay,sharks-cove", 400, "one_spot_per_request"],
    ["spot=hanauma-bay&from=2026-02-30", 400, "invalid_date"],
    ["spot=hanauma-bay&from=2026-11-22T00:00", 400, "invalid_date"],
    ["spot=hanauma-bay&to=tomorrow", 400, "invalid_date"],
    ["spot=hanauma-bay&from=2026-11-22&from=2026-11-23", 400, "invalid_date"],
    ["spot=hanauma-bay&from=2026-11-24&to=2026-11-22", 400, "invalid_range"],
    [`spot=hanauma-bay&from=2026-11-21&to=2026-11-${21 + MAX_RANGE_DAYS}`, 400, "range_too_long"],
    ["spot=atlantis", 404, "unknown_spot"],
    ["spot=Hanauma%20Bay", 404, "unknown_spot"],
    ["spot=hanauma-bay&from=2026-11-28", 422, "outside_horizon"],
    ["spot=hanauma-bay&from=2026-11-01&to=2026-11-03", 422, "outside_horizon"],
  ])("?%s → %s %s", async (qs, status, code) => {
    const r = await svc.json(`/api/v1/conditions?${qs}`);
    expectProblem(svc, r.status, r.body, status, code);
    expect(r.res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("suggests the id when a name is given", async () => {
    const { body } = await svc.json("/api/v1/conditions?spot=Hanauma%20Bay");
    expect(body.detail).toContain("`hanauma-bay`");
  });

  it("serves the part of a range that overlaps the horizon", async () => {
    const { status, body } = await get("spot=hanauma-bay&from=2026-11-20&to=2026-11-22");
    expect(status).toBe(200);
    expect(body.range).toEqual({ from: "2026-11-20", to: "2026-11-22", available_from: "2026-11-21", available_to: "2026-11-22" });
  });
});
