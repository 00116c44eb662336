// The words of a decision, quoted from the facts: each pick's factors, summary and model note say
// exactly what the conditions at its best window say, on seasonal norms offline and on live data,
// and name the day as a person would ("today", "tomorrow", "on Tue, Nov 24").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activity as activityOf } from "../src/base/activities.js";
import { formatSwell, formatTemp, formatVisibility, formatWind } from "../src/model/format.js";
import { compass8 } from "../src/catalog/geo.js";
import { TIERS } from "../src/model/tiers.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import type { RecommendationJson } from "../src/schemas/decisions.js";
import { liveRuns } from "./helpers/live.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

type Period = ConditionsJson["periods"][number];

/** The conditions period each pick quotes (and, on the way, the pick credits what the answer credits). */
async function quoted(s: TestService, body: RecommendationJson): Promise<Period[]> {
  const out: Period[] = [];
  for (const p of body.picks) {
    const c = await s.json<ConditionsJson>(`/api/v1/conditions?spot=${p.spot.id}&date=${p.date}`);
    expect(c.status).toBe(200);
    // Every period of a day reads the same feeds, so the pick's one period credits all of them.
    expect(p.data_credits).toEqual(c.body.data_credits);
    const period = c.body.periods.find((q) => q.start === p.best_window.start);
    expect(period, `${p.spot.id} ${p.best_window.start}`).toBeDefined();
    out.push(period!);
  }
  return out;
}

function factorsOf(q: Period): string[] {
  const vis = formatVisibility(q.visibility_ft, q.visibility_m, q.visibility_low_ft, q.visibility_high_ft);
  const swell = formatSwell(q.swell_height_ft, q.swell_period_s, q.swell_from_deg, q.swell_height_m);
  const wind = formatWind(q.wind_speed_kt, q.wind_from_deg, q.wind_gust_kt);
  const temp = formatTemp(q.water_temp_c);
  return [
    vis && `visibility about ${vis}`,
    swell && `swell ${swell} at the spot`,
    wind && `wind ${wind}`,
    q.tide_state && `tide ${q.tide_state}${q.tide_height_ft === null ? "" : ` (${q.tide_height_ft} ft)`}`,
    temp && `water ${temp}`,
  ].filter((f): f is string => typeof f === "string");
}

function summaryOf(p: RecommendationJson["picks"][number], q: Period, when: string, seasonal: boolean): string {
  const tier = TIERS.find((t) => t.id === p.rating)!;
  return (
    `${p.spot.name}: ${tier.label.toLowerCase()} (${p.score}/100${seasonal ? ", seasonal norm" : ""}) ${p.best_window.start_local}–${p.best_window.end_local} ${when}` +
    `, with about ${q.visibility_ft} ft visibility, ${q.swell_height_ft} ft of swell and ${Math.round(q.wind_speed_kt!)} kt wind.`
  );
}

describe("on seasonal norms", () => {
  it("lists every factor of the quoted period, says what is typical for the season, and notes what the activity's score leaves out", async () => {
    for (const id of ["snorkel", "spearfish"] as const) {
      const { status, body } = await svc.json<RecommendationJson>(`/api/v1/recommendations?activity=${id}&region=us-hi-oahu&date=2026-11-23`);
      expect(status).toBe(200);
      expect(body.picks.length).toBeGreaterThan(0);
      const periods = await quoted(svc, body);
      body.picks.forEach((p, i) => {
        const q = periods[i]!;
        expect(p.why.factors).toEqual(factorsOf(q));
        expect(p.why.factors).toHaveLength(5);
        expect(p.why.factors[0]).toMatch(/^visibility about \d+ ft \(typically \d+–\d+ ft · \d+(\.\d)? m\)$/);
        expect(p.why.summary).toBe(summaryOf(p, q, "typical for late November", true));
        const notScored = activityOf(id).notScored;
        expect(p.why.model_note).toBe(notScored ? `${q.why} ${notScored}: the shared snorkel-calibrated score is a proxy.` : q.why);
        expect(p.metrics).toMatchObject({ swell_from: compass8(q.swell_from_deg), wind_from: compass8(q.wind_from_deg), tide_state: q.tide_state });
      });
    }
  });
});

describe("on live data", () => {
  const live = liveRuns();

  it("names the day as today, tomorrow or the date, with the live period's factors", async () => {
    const r = await live({ mode: "auto", now: "2026-11-21T19:05:00Z" });
    // The satellite observation is fetched behind the first caller of each spot and changes the
    // visibility once it lands: wait until every spot in the region has it.
    await expect
      .poll(async () => {
        const { body } = await r.svc.json<{ spots: { id: string }[] }>("/api/v1/spots?region=us-hi-oahu");
        let anchored = 0;
        for (const { id } of body.spots) {
          const c = await r.svc.json<ConditionsJson>(`/api/v1/conditions?spot=${id}`);
          if (c.body.sources.some((x) => x.startsWith("erddap:"))) anchored++;
        }
        return anchored === body.spots.length && anchored > 0;
      })
      .toBe(true);
    const cases = [
      ["2026-11-21", "today"],
      ["2026-11-22", "tomorrow"],
      ["2026-11-24", "on Tue, Nov 24"],
    ] as const;
    for (const [date, when] of cases) {
      const { status, body } = await r.svc.json<RecommendationJson>(`/api/v1/recommendations?activity=dive&region=us-hi-oahu&date=${date}`);
      expect(status).toBe(200);
      expect(body.picks.length).toBeGreaterThan(0);
      const periods = await quoted(r.svc, body);
      body.picks.forEach((p, i) => {
        const q = periods[i]!;
        expect(q.why).not.toMatch(/seasonal norm/i);
        expect(p.why.factors).toEqual(factorsOf(q));
        expect(p.why.summary).toBe(summaryOf(p, q, when, false));
        expect(p.why.model_note).toBe(`${q.why} ${activityOf("dive").notScored}: the shared snorkel-calibrated score is a proxy.`);
      });
    }
  });
});

describe("answers that stop before ranking", () => {
  type Early = RecommendationJson & { facts_hint: { endpoint: string; tool: string; message: string } | null };
  const rec = (qs: string) => svc.json<Early>(`/api/v1/recommendations?${qs}`);

  it("surf in a covered region: not ranked, and where the facts are", async () => {
    const { status, body } = await rec("activity=surf&region=us-hi-oahu");
    expect(status).toBe(200);
    const first = svc.ctx.catalog.region("us-hi-oahu")!.spots[0]!;
    expect(body).toMatchObject({ status: "activity_not_modeled", picks: [], coverage: { status: "covered", regions: ["us-hi-oahu"], nearest_covered: null } });
    expect(body.message).toBe("Surfing is not ranked. Swell, wind and tide facts for every covered spot come from the get_conditions tool or the conditions endpoint.");
    expect(body.facts_hint).toMatchObject({ tool: "get_conditions", message: `Call get_conditions with spot "${first.id}" (or any covered spot) for swell, wind and tide by 3-hour period.` });
    expect(body.facts_hint!.endpoint).toMatch(new RegExp(`/api/v1/conditions\\?spot=${first.id}$`));
  });

  it("surf or diving far from any spot: outside coverage, naming the nearest spot and its distance", async () => {
    const n = svc.ctx.catalog.nearest(0, 0);
    const km = Math.round(n.distanceKm * 10) / 10;
    const where = `0, 0 is outside coverage: the nearest covered spot is ${n.spot.name} (${n.spot.region.name}), ${km} km away.`;
    const surf = (await rec("activity=surf&lat=0&lon=0")).body;
    expect(surf).toMatchObject({ status: "activity_not_modeled", coverage: { status: "not_covered", regions: [] } });
    expect(surf.coverage.nearest_covered).toEqual({ spot: { id: n.spot.id, name: n.spot.name }, region: { id: n.spot.region.id, name: n.spot.region.name }, distance_km: km });
    expect(surf.message).toBe(`Surfing is not ranked, and ${where} Swell, wind and tide facts for covered spots come from the get_conditions tool or the conditions endpoint.`);
    expect(surf.facts_hint!.message).toBe(`${where} Call get_conditions with spot "${n.spot.id}" only if that spot is useful to you.`);
    expect(surf.facts_hint!.endpoint).toMatch(new RegExp(`/api/v1/conditions\\?spot=${n.spot.id}$`));
    const dive = (await rec("activity=dive&lat=0&lon=0")).body;
    expect(dive).toMatchObject({ status: "not_covered", facts_hint: null, picks: [] });
    expect(dive.message).toBe(`No covered spot within range of 0, 0. The nearest covered spot is ${n.spot.name} (${n.spot.region.name}), ${km} km away.`);
  });
});
