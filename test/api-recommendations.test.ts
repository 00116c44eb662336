// GET /api/v1/recommendations through real HTTP, pinned clock, embedded data.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BREATH_HOLD_DEPTH_M } from "../src/base/activities.js";
import { TIERS } from "../src/model/tiers.js";
import { MAX_PICKS } from "../src/base/limits.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import { RecommendationSchema, type RecommendationJson } from "../src/schemas/decisions.js";
import { expectProblem } from "./helpers/problem.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const rec = async (qs: string, s: TestService = svc) => {
  const r = await s.json<RecommendationJson>(`/api/v1/recommendations?${qs}`);
  if (r.status === 200) expect(RecommendationSchema.parse(r.body)).toEqual(r.body);
  return r;
};
const RANKED = ["snorkel", "dive", "freedive", "spearfish"] as const;

describe("picks", () => {
  it("ranks a region's spots by their best daylight window and explains each pick", async () => {
    const { status, body } = await rec("activity=snorkel&region=us-hi-oahu");
    expect(status).toBe(200);
    expect(body).toMatchObject({ schema: "service.recommendation.v1", status: "ok", date: "2026-11-21", date_label: "Today", date_rolled_forward: false });
    expect(body.pricing).toEqual({ layer: "decision", plan: "early-access" });
    expect(body.activity).toMatchObject({ id: "snorkel", model: "native" });
    expect(body.picks).toHaveLength(3);
    expect(body.picks.map((p) => p.rank)).toEqual([1, 2, 3]);
    const scores = body.picks.map((p) => p.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const p of body.picks) {
      expect(p.spot.region.id).toBe("us-hi-oahu");
      expect(p.distance_km).toBeNull();
      const start = Number(p.best_window.start_local.slice(0, 2));
      expect(start).toBeGreaterThanOrEqual(6);
      expect(start).toBeLessThanOrEqual(17);
      expect(p.best_window.score).toBe(p.score);
      expect(p.why.summary).toContain(p.spot.name);
      expect(p.why.versus_next).toBeNull();
      expect(p.why.factors.length).toBeGreaterThanOrEqual(3);
      const c = p.confidence;
      expect(c.value).toBeCloseTo(c.factors.model * c.factors.visibility_source * c.factors.freshness * c.factors.lead_time * c.factors.activity_fit, 3);
      expect(p.card).toMatchObject({ version: 1, spot_id: p.spot.id, date: p.date, activity: "snorkel", score: p.score, tier: p.rating });
      expect(p.card.tier_color).toBe(TIERS.find((t) => t.id === p.rating)!.color);
      expect(p.card.image_url).toBe(`${svc.base}/cards/${p.spot.id}/${p.date}.png?activity=snorkel`);
      expect(p.card.links.share).toBe(`${svc.base}/s/${p.spot.id}/${p.date}?activity=snorkel`);
      expect(p.card.links.forecast).toBe(`${svc.base}/spots/${p.spot.id}`);
    }
    expect(body.cards).toEqual(body.picks.map((p) => p.card));
    const credits = new Set(body.picks.flatMap((p) => p.data_credits.map((c) => c.credit)));
    expect(new Set(body.data_credits.map((c) => c.credit))).toEqual(credits);
    expect(body.considered.scored).toBeGreaterThanOrEqual(3);
  });

  it("returns 1 to 5 picks as asked", async () => {
    expect((await rec("activity=snorkel&region=us-hi-maui&limit=1")).body.picks).toHaveLength(1);
    expect((await rec(`activity=snorkel&region=us-hi-maui&limit=${MAX_PICKS}`)).body.picks).toHaveLength(MAX_PICKS);
  });

  it("quotes the facts: every pick's score and visibility equal the conditions at best_window.start, in every region and activity", async () => {
    const regions = svc.ctx.catalog.regions.filter((r) => r.decision_support === "full");
    let checked = 0;
    // A spot's conditions for a day are one answer whatever the activity that picked it: read once.
    const read = new Map<string, Promise<ConditionsJson>>();
    const conditionsOn = (spot: string, date: string) => {
      const path = `/api/v1/conditions?spot=${spot}&from=${date}&to=${date}`;
      if (!read.has(path))
        read.set(
          path,
          svc.json<ConditionsJson>(path).then((r) => r.body),
        );
      return read.get(path)!;
    };
    for (const region of regions) {
      for (const activity of RANKED) {
        for (const date of ["2026-11-22", "2026-11-25"]) {
          const { body } = await rec(`activity=${activity}&region=${region.id}&limit=5&date=${date}`);
          for (const p of body.picks) {
            const period = (await conditionsOn(p.spot.id, p.date)).periods.find((x) => x.start === p.best_window.start)!;
            expect(period, `${p.spot.id} ${p.best_window.start}`).toBeDefined();
            expect(p.score).toBe(period.score);
            expect(p.metrics.visibility_ft).toBe(period.visibility_ft);
            expect(p.metrics.swell_height_ft).toBe(period.swell_height_ft);
            expect(p.rating).toBe(period.rating);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("never lets an excluded spot into the picks, and says why it was left out", async () => {
    const { body } = await rec("activity=snorkel&region=us-hi-oahu&limit=5");
    const excluded = body.considered.excluded;
    expect(excluded.map((e) => e.spot.id)).toEqual(expect.arrayContaining(["mahi-wreck"]));
    for (const e of excluded) {
      expect(e.reason).toMatch(/^unsuited_/);
      expect(e.note.length).toBeGreaterThan(10);
      expect(e.areas).toBeNull();
      expect(body.picks.map((p) => p.spot.id)).not.toContain(e.spot.id);
    }
  });

  it("marks proxy activities on every pick and lowers their confidence", async () => {
    for (const activity of ["dive", "freedive", "spearfish"]) {
      const { body } = await rec(`activity=${activity}&region=us-hi-kona`);
      expect(body.activity.model).toBe("proxy");
      for (const p of body.picks) {
        expect(p.caveats.map((c) => c.code)).toContain("proxy_activity_model");
        expect(p.confidence.factors.activity_fit).toBe(0.85);
        expect(p.why.model_note).toMatch(/not scored/);
      }
    }
    const { body } = await rec("activity=snorkel&region=us-hi-kona");
    for (const p of body.picks) {
      expect(p.caveats.map((c) => c.code)).not.toContain("proxy_activity_model");
      expect(p.confidence.factors.activity_fit).toBe(1);
    }
  });

  it("labels picks made from seasonal norms", async () => {
    const { body } = await rec("activity=snorkel&region=us-ca-san-diego");
    for (const p of body.picks) {
      const codes = p.caveats.map((c) => c.code);
      expect(codes).toEqual(expect.arrayContaining(["visibility_estimated", "stale_inputs"]));
      expect(p.confidence.factors.freshness).toBe(0.6);
      expect(p.confidence.factors.visibility_source).toBe(0.8);
      if (p.rating === "fair" || p.rating === "no-go") expect(codes).toContain("marginal_conditions");
    }
  });

  it("warns about long lead times from three days out", async () => {
    const soon = await rec("activity=snorkel&region=us-hi-maui&date=2026-11-23");
    const later = await rec("activity=snorkel&region=us-hi-maui&date=2026-11-24");
    expect(soon.body.picks[0]!.caveats.map((c) => c.code)).not.toContain("long_lead_time");
    expect(later.body.picks[0]!.caveats.map((c) => c.code)).toContain("long_lead_time");
    expect(later.body.picks[0]!.confidence.factors.lead_time).toBeCloseTo(0.95 ** 3, 3);
    expect(later.body.date_label).toBe("Tue, Nov 24");
  });
});

describe("spearfishing", () => {
  it("excludes spots in areas closed to spearfishing and names the areas", async () => {
    const { body } = await rec("activity=spearfish&region=us-hi-oahu&limit=5");
    const closed = body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing");
    expect(closed.map((e) => e.spot.id)).toEqual(expect.arrayContaining(["hanauma-bay", "sharks-cove", "three-tables", "waimea-bay", "waikiki-mlcd"]));
    expect(closed.find((e) => e.spot.id === "hanauma-bay")!.areas).toEqual(["Hanauma Bay Marine Life Conservation District"]);
    for (const p of body.picks) {
      expect(closed.map((e) => e.spot.id)).not.toContain(p.spot.id);
      expect(p.caveats.map((c) => c.code)).toEqual(expect.arrayContaining(["verify_fishing_rules", "proxy_activity_model"]));
    }
    expect(body.picks.length).toBeGreaterThan(0);
  });

  it("flags spots in rules-only areas", async () => {
    const { body } = await rec("activity=spearfish&region=us-hi-kona&limit=5");
    const twoStep = body.picks.find((p) => p.spot.id === "two-step") ?? body.picks.find((p) => p.caveats.some((c) => c.code === "regulated_area"));
    expect(twoStep).toBeDefined();
    const cv = twoStep!.caveats.find((c) => c.code === "regulated_area")!;
    expect(cv.message).toMatch(/West Hawaiʻi Regional Fishery Management Area|Puakō/);
  });

  it("answers no_data, not ok, and names the rule when every spot is closed", async () => {
    const { body } = await rec("activity=spearfish&region=mx-roo-cozumel");
    expect(body.status).toBe("no_data");
    expect(body.picks).toEqual([]);
    expect(body.considered.excluded).toHaveLength(13);
    expect(body.considered.excluded.every((e) => e.reason === "closed_to_spearfishing" && e.areas!.includes("Parque Nacional Arrecifes de Cozumel"))).toBe(true);
    expect(body.message).toMatch(/excluded/);
  });

  it("excludes nothing and says regulations were not checked when the closure data cannot be read", async () => {
    const broken = join(tmpdir(), `protected-areas-broken-${process.pid}.json`);
    writeFileSync(broken, "{ not json");
    const degraded = await startService({ protectedAreasFile: broken });
    try {
      expect(degraded.ctx.regulations.readable).toBe(false);
      const { body } = await rec("activity=spearfish&region=us-hi-oahu&limit=5", degraded);
      expect(body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing")).toEqual([]);
      expect(body.picks.length).toBe(5);
      for (const p of body.picks) {
        const codes = p.caveats.map((c) => c.code);
        expect(codes).toContain("regulations_not_checked");
        expect(codes).toContain("verify_fishing_rules");
        // No fishing-area caveat without the area data (a venue's entry rule, from the catalogue, may remain).
        expect(p.caveats.filter((c) => c.code === "regulated_area" && /fishing rules/.test(c.message))).toEqual([]);
      }
      // Other activities are unaffected.
      const snorkel = await rec("activity=snorkel&region=us-hi-oahu", degraded);
      expect(snorkel.body.picks.every((p) => !p.caveats.some((c) => c.code === "regulations_not_checked"))).toBe(true);
    } finally {
      await degraded.close();
    }
  });
});

describe("depth for breath-hold activities", () => {
  it("never picks Oʻahu's deep tour wrecks for spearfishing, names their depth, and still picks the shallow reefs", async () => {
    const { body } = await rec("activity=spearfish&region=us-hi-oahu&limit=5");
    const picked = body.picks.map((p) => p.spot.id);
    expect(picked).not.toContain("yo-257-san-pedro");
    expect(picked).not.toContain("sea-tiger-wreck");
    const excluded = new Map(body.considered.excluded.map((e) => [e.spot.id, e]));
    expect(excluded.get("sea-tiger-wreck")).toMatchObject({
      reason: "unsuited_depth",
      note: "Typical depth 98 ft (30 m): beyond the 66 ft (20 m) recreational breath-hold range.",
      areas: null,
    });
    // A submarine and dive-tour site: the catalogue's reason, and the depth said all the same.
    expect(excluded.get("yo-257-san-pedro")!.reason).toBe("unsuited_use");
    expect(excluded.get("yo-257-san-pedro")!.note).toMatch(/Atlantis Submarines.*Typical depth 85 ft \(26 m\): beyond the 66 ft \(20 m\) recreational breath-hold range\.$/);
    expect(excluded.get("mahi-wreck")).toMatchObject({ reason: "unsuited_depth", note: expect.stringMatching(/^Typical depth 79 ft \(24 m\)/) });
    // China Walls, a 9 m reef ledge, is still a pick.
    expect(picked).toContain("china-walls");
  });

  it("leaves the deep wrecks to scuba: diving still ranks the Sea Tiger", async () => {
    const { body } = await rec("activity=dive&region=us-hi-oahu&limit=5");
    expect(body.considered.excluded.map((e) => e.spot.id)).not.toContain("sea-tiger-wreck");
    const freedive = await rec("activity=freedive&region=us-hi-oahu&limit=5");
    expect(freedive.body.considered.excluded.find((e) => e.spot.id === "sea-tiger-wreck")).toMatchObject({ reason: "unsuited_depth" });
  });

  it(`in every region, picks no spot deeper than ${BREATH_HOLD_DEPTH_M} m for freediving or spearfishing and lists each such spot with its depth`, async () => {
    let deep = 0;
    for (const region of svc.ctx.catalog.regions.filter((r) => r.decision_support === "full")) {
      for (const activity of ["freedive", "spearfish"]) {
        const { body } = await rec(`activity=${activity}&region=${region.id}&limit=5`);
        for (const spot of region.spots.filter((s) => s.typical_depth_m > BREATH_HOLD_DEPTH_M)) {
          expect(
            body.picks.map((p) => p.spot.id),
            `${spot.id} ${activity}`,
          ).not.toContain(spot.id);
          const e = body.considered.excluded.find((x) => x.spot.id === spot.id);
          expect(e, `${spot.id} ${activity}`).toBeDefined();
          // A closure says more than the depth; any other exclusion names a depth in metres (the
          // catalogue's own words, or the rule's).
          if (e!.reason === "closed_to_spearfishing") continue;
          expect(e!.reason, `${spot.id} ${activity}`).toMatch(/^unsuited_/);
          expect(e!.note, `${spot.id} ${activity}`).toMatch(/\d m\b/);
          deep++;
        }
      }
    }
    expect(deep).toBeGreaterThan(50);
  });
});

describe("dates", () => {
  it("rolls forward to tomorrow once today's daylight has passed, and says so", async () => {
    const evening = await startService({ now: "2026-11-22T05:00:00Z" }); // 19:00 in Honolulu on the 21st
    try {
      const { body } = await rec("activity=snorkel&region=us-hi-oahu", evening);
      expect(body).toMatchObject({ status: "ok", date: "2026-11-22", date_label: "Tomorrow", date_rolled_forward: true });
      expect(body.message).toMatch(/daylight windows have passed/);
      const explicit = await rec("activity=snorkel&region=us-hi-oahu&date=2026-11-21", evening);
      expect(explicit.body).toMatchObject({ status: "no_data", date: "2026-11-21", date_rolled_forward: false, picks: [] });
      expect(explicit.body.message).toMatch(/No daylight forecast/);
    } finally {
      await evening.close();
    }
  });

  it("keeps today while a daylight window is still running", async () => {
    const late = await startService({ now: "2026-11-22T03:30:00Z" }); // 17:30 in Honolulu
    try {
      const { body } = await rec("activity=snorkel&region=us-hi-oahu", late);
      expect(body).toMatchObject({ date: "2026-11-21", date_rolled_forward: false, status: "ok" });
      for (const p of body.picks) expect(p.best_window.start_local).toBe("15:00");
    } finally {
      await late.close();
    }
  });

  it("uses the region's own calendar", async () => {
    const { body } = await rec("activity=snorkel&region=au-nsw-sydney");
    expect(body.date).toBe("2026-11-22");
    expect(body.picks[0]!.best_window.start).toMatch(/\+11:00$/);
  });
});

describe("destinations and statuses", () => {
  it("with lat/lon: uses the nearest spot's region, gives distances and says the location was snapped", async () => {
    const { body } = await rec("activity=snorkel&lat=21.28&lon=-157.75&radius_km=25&limit=5");
    expect(body.status).toBe("ok");
    expect(body.coverage).toMatchObject({ status: "covered", regions: ["us-hi-oahu"], nearest_covered: { distance_km: expect.any(Number) } });
    expect(body.message).toMatch(/region of the nearest covered spot/);
    for (const p of body.picks) {
      expect(p.distance_km).toBeLessThanOrEqual(25);
      expect(p.spot.region.id).toBe("us-hi-oahu");
      expect(p.caveats.find((c) => c.code === "location_snapped")!.message).toContain(`${p.distance_km} km`);
    }
    const tight = await rec("activity=snorkel&lat=21.2685&lon=-157.695&radius_km=3");
    expect(tight.body.picks.map((p) => p.spot.id)).toEqual(["hanauma-bay"]);
  });

  it("judges just that spot when given a spot", async () => {
    const { body } = await rec("activity=snorkel&spot=hanauma-bay");
    expect(body.picks.map((p) => p.spot.id)).toEqual(["hanauma-bay"]);
  });

  it("answers not_covered far from every spot, naming the nearest", async () => {
    const { status, body } = await rec("activity=snorkel&lat=25.77&lon=-80.13");
    expect(status).toBe(200);
    expect(body.status).toBe("not_covered");
    expect(body.picks).toEqual([]);
    expect(body.coverage.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: expect.any(String) }, region: { id: expect.any(String) }, distance_km: expect.any(Number) });
    // Miami, beyond the snapping radius: the Florida Keys' northernmost reef (Carysfort, ~63 km) is
    // nearer than the Keys' other spots (71+ km) and far nearer than Grand Cayman (~720 km).
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "carysfort-reef" }, region: { id: "us-fl-keys" } });
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(55);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(70);
    expect(body.message).toMatch(/nearest covered spot is/);
  });

  it("declines with conditions_only in a region without a calibrated model", async () => {
    const { body } = await rec("activity=snorkel&region=us-ca-catalina");
    expect(body).toMatchObject({ status: "conditions_only", picks: [], facts_hint: null });
    expect(body.message).toMatch(/get_conditions/);
    const near = await rec("activity=dive&lat=33.35&lon=-118.33");
    expect(near.body.status).toBe("conditions_only");
  });

  it("does not rank surf, and points to the facts", async () => {
    const { body } = await rec("activity=surf&region=us-hi-oahu");
    expect(body.status).toBe("activity_not_modeled");
    expect(body.activity).toMatchObject({ id: "surf", model: "unsupported" });
    expect(body.facts_hint).toMatchObject({ tool: "get_conditions", endpoint: expect.stringContaining("/api/v1/conditions?spot=") });
    expect(body.picks).toEqual([]);
  });

  it("carries the disclaimer, the source and Markdown cards in every status", async () => {
    for (const qs of ["activity=snorkel&region=us-hi-oahu", "activity=surf&region=us-hi-oahu", "activity=snorkel&lat=0&lon=0", "activity=snorkel&region=us-ca-catalina"]) {
      const { body } = await rec(qs);
      expect(body.disclaimer).toMatch(/not an official forecast/);
      expect(body.source.url).toBe(svc.base);
      expect(body.card_markdown).toMatch(new RegExp(`Source: Ocean Conditions \\(${svc.base.replace(/\./g, "\\.")}\\)$`));
    }
  });
});

describe("bad requests", () => {
  it.each([
    ["region=us-hi-oahu", 400, "missing_activity"],
    ["activity=kitesurf&region=us-hi-oahu", 400, "unknown_activity"],
    ["activity=wing&region=us-hi-oahu", 400, "unknown_activity"],
    ["activity=snorkel", 400, "missing_location"],
    ["activity=snorkel&region=us-hi-oahu&spot=hanauma-bay", 400, "ambiguous_location"],
    ["activity=snorkel&region=us-hi-oahu&lat=21&lon=-157", 400, "ambiguous_location"],
    ["activity=snorkel&lat=21", 400, "invalid_coordinates"],
    ["activity=snorkel&lat=21&lon=-157&radius_km=0", 400, "invalid_radius"],
    ["activity=snorkel&lat=21&lon=-157&radius_km=-5", 400, "invalid_radius"],
    ["activity=snorkel&lat=21&lon=-157&radius_km=101", 400, "invalid_radius"],
    ["activity=snorkel&lat=21&lon=-157&radius_km=far", 400, "invalid_radius"],
    ["activity=snorkel&region=us-hi-oahu&date=2026-11-31", 400, "invalid_date"],
    ["activity=snorkel&region=us-hi-oahu&date=tomorrow", 400, "invalid_date"],
    ["activity=snorkel&region=us-hi-oahu&limit=0", 400, "invalid_limit"],
    ["activity=snorkel&region=us-hi-oahu&limit=6", 400, "invalid_limit"],
    ["activity=snorkel&region=us-hi-oahu&limit=2.5", 400, "invalid_limit"],
    ["activity=snorkel&region=us-hi-oahu&limit=three", 400, "invalid_limit"],
    ["activity=snorkel&spot=atlantis", 404, "unknown_spot"],
    ["activity=snorkel&region=xx-yy-atlantis", 404, "unknown_spot"],
    ["activity=snorkel&region=us-hi-oahu&date=2026-11-28", 422, "outside_horizon"],
    ["activity=snorkel&region=us-hi-oahu&date=2026-11-20", 422, "outside_horizon"],
  ])("?%s → %s %s", async (qs, status, code) => {
    const r = await svc.json(`/api/v1/recommendations?${qs}`);
    expectProblem(svc, r.status, r.body, status, code);
  });

  it("lists the allowed activities when one is unknown", async () => {
    const { body } = await svc.json("/api/v1/recommendations?activity=kite&region=us-hi-oahu");
    expect(body.detail).toMatch(/snorkel, dive, freedive, spearfish, surf/);
  });

  it("accepts and ignores keys", async () => {
    const plain = await rec("activity=snorkel&region=us-hi-oahu");
    const keyed = await svc.json<RecommendationJson>("/api/v1/recommendations?activity=snorkel&region=us-hi-oahu", { headers: { Authorization: "Bearer live_123", "X-Service-Key": "test_456" } });
    expect(keyed.body.picks).toEqual(plain.body.picks);
  });
});
