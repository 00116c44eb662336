import { describe, expect, it } from "vitest";
import { activity } from "../src/base/activities.js";
import { caveatsFor, type CaveatContext } from "../src/decisions/caveats.js";
import { confidenceOf, leadTimeFactor } from "../src/decisions/confidence.js";
import { bestDaylightPeriod, compareConditions, exclusionSentence, rankDays, screenCandidates } from "../src/decisions/evaluate.js";
import { Catalog } from "../src/catalog/catalog.js";
import type { SpotRecord } from "../src/catalog/schema.js";
import type { ProtectedArea, Regulations } from "../src/catalog/regulations.js";
import type { PeriodResult } from "../src/forecast/engine.js";

const period = (over: Partial<PeriodResult>): PeriodResult => ({ score: 70, visFt: 40, swellFt: 2, windKt: 10, start: new Date("2026-11-22T19:00:00Z"), ...over }) as PeriodResult;
const better = (a: PeriodResult, b: PeriodResult, id: Parameters<typeof activity>[0]) => compareConditions(a, b, activity(id).tieBreak) < 0;

describe("ranking and tie-breaks", () => {
  it("ranks by score first for every activity", () => {
    for (const id of ["snorkel", "dive", "freedive", "spearfish"] as const) {
      expect(better(period({ score: 71, visFt: 10, swellFt: 5 }), period({ score: 70 }), id)).toBe(true);
    }
  });
  it("snorkel: a tie goes to the calmer surface (less swell, then less wind)", () => {
    expect(better(period({ swellFt: 1, visFt: 20 }), period({ swellFt: 2, visFt: 60 }), "snorkel")).toBe(true);
    expect(better(period({ windKt: 5 }), period({ windKt: 12 }), "snorkel")).toBe(true);
  });
  it("dive: a tie goes to the clearer water", () => {
    expect(better(period({ visFt: 60, swellFt: 3 }), period({ visFt: 40, swellFt: 1 }), "dive")).toBe(true);
  });
  it("freedive: a tie goes to the clearer water, then the calmer wind", () => {
    expect(better(period({ visFt: 60, windKt: 15 }), period({ visFt: 40, windKt: 5 }), "freedive")).toBe(true);
    expect(better(period({ visFt: 40, windKt: 5, swellFt: 3 }), period({ visFt: 40, windKt: 12, swellFt: 1 }), "freedive")).toBe(true);
  });
  it("falls back to the earlier window when everything is equal", () => {
    expect(better(period({}), period({ start: new Date("2026-11-22T22:00:00Z") }), "snorkel")).toBe(true);
  });
});

describe("the best period of a day", () => {
  const day = (over: Partial<PeriodResult>) => period({ date: "2026-11-22", daylight: true, ...over });
  it("takes the best-scoring daylight period of that date, passing over night, other days and unrated periods", () => {
    const unrated = day({ score: null, start: new Date("2026-11-22T16:00:00Z") });
    const good = day({ score: 60, start: new Date("2026-11-22T19:00:00Z") });
    const better = day({ score: 72, start: new Date("2026-11-22T22:00:00Z") });
    const night = day({ score: 95, daylight: false });
    const otherDay = day({ score: 90, date: "2026-11-23" });
    expect(bestDaylightPeriod([unrated, good, night, better, otherDay], "2026-11-22", activity("snorkel"))).toBe(better);
    expect(bestDaylightPeriod([unrated, better, good], "2026-11-22", activity("snorkel"))).toBe(better);
    expect(bestDaylightPeriod([unrated, night, otherDay], "2026-11-22", activity("snorkel"))).toBeNull();
  });
  it("ranks any score above no score", () => {
    expect(better(period({ score: 0 }), period({ score: null }), "snorkel")).toBe(true);
    expect(better(period({ score: null }), period({ score: 0 }), "snorkel")).toBe(false);
  });
});

describe("ranking days", () => {
  const d = (date: string, score: number) => ({ date, score });
  it("puts the highest score first, however small its lead, and the nearer day first on equal scores", () => {
    expect(rankDays([d("2026-11-22", 75), d("2026-11-24", 80), d("2026-11-21", 74)])).toEqual([d("2026-11-24", 80), d("2026-11-22", 75), d("2026-11-21", 74)]);
    expect(rankDays([d("2026-11-22", 79), d("2026-11-24", 80)])[0]).toEqual(d("2026-11-24", 80));
    expect(rankDays([d("2026-11-25", 80), d("2026-11-23", 80), d("2026-11-24", 80)]).map((x) => x.date)).toEqual(["2026-11-23", "2026-11-24", "2026-11-25"]);
    expect(rankDays([])).toEqual([]);
  });
});

describe("spots excluded for an activity", () => {
  const catalog = Catalog.load();
  const spot = (id: string) => ({ spot: catalog.spot(id)!, distanceKm: null });
  const area = (over: Partial<ProtectedArea>): ProtectedArea => ({
    id: "a",
    name: "Area A",
    designation: "closed_to_spearfishing",
    source: null,
    verified: true,
    note: "No spearfishing at any time. Source: the agency.",
    spots: [],
    ...over,
  });
  const regs = (bySpot: Record<string, ProtectedArea[]>): Regulations => ({ readable: true, areasFor: (id) => bySpot[id] ?? [] });

  it("quotes every closing area's name and rule, and keeps the rules-only areas of the spots left", () => {
    const closed = [area({ name: "Reserve One" }), area({ id: "b", name: "Park Two", note: "Spearfishing banned; boats too." })];
    const rulesOnly = area({ id: "c", name: "Managed Area", designation: "rules_only", note: "Free-diving only. More words." });
    const { eligible, excluded } = screenCandidates(
      [spot("hanauma-bay"), spot("sharks-cove"), spot("three-tables")],
      activity("spearfish"),
      regs({ "hanauma-bay": closed, "sharks-cove": [rulesOnly, area({ id: "d", name: "Other", designation: "rules_only", note: "Daytime only." })] }),
    );
    expect(excluded).toEqual([
      {
        spot: { id: "hanauma-bay", name: catalog.spot("hanauma-bay")!.name },
        reason: "closed_to_spearfishing",
        note: "Inside Reserve One and Park Two, closed to spearfishing: No spearfishing at any time; Spearfishing banned.",
        areas: ["Reserve One", "Park Two"],
      },
    ]);
    expect(eligible.map((e) => [e.candidate.spot.id, e.regulatedAreas])).toEqual([
      [
        "sharks-cove",
        [
          { name: "Managed Area", rule: "Free-diving only", gear: null, verified: true },
          { name: "Other", rule: "Daytime only", gear: null, verified: true },
        ],
      ],
      ["three-tables", []],
    ]);
  });

  it("excludes a spot past the breath-hold range from freediving and spearfishing only, from 20.5 m, after the catalogue's judgement and the closures", () => {
    const shipped = catalog.spot("sea-tiger-wreck")!;
    const at = (typical_depth_m: number, unsuited: SpotRecord["unsuited"] = {}) => ({ spot: { ...shipped, typical_depth_m, unsuited }, distanceKm: null });
    const reasons = (c: ReturnType<typeof at>, id: Parameters<typeof activity>[0], r: Regulations = regs({})) => screenCandidates([c], activity(id), r).excluded.map((e) => [e.reason, e.note]);
    const cases: [number, Parameters<typeof activity>[0], string[][]][] = [
      [20, "spearfish", []],
      [20.5, "spearfish", [["unsuited_depth", "Typical depth 67 ft (20.5 m): beyond the 66 ft (20 m) recreational breath-hold range."]]],
      [30, "freedive", [["unsuited_depth", "Typical depth 98 ft (30 m): beyond the 66 ft (20 m) recreational breath-hold range."]]],
      [30, "dive", []],
      [30, "snorkel", []],
    ];
    for (const [depth, id, want] of cases) expect(reasons(at(depth), id), `${depth} m ${id}`).toEqual(want);
    // The catalogue's own reason stays, with the depth added; a depth entry of its own is left as written.
    expect(reasons(at(30, { spearfish: { reason: "unsuited_hazard", note: "Ferry lane." } }), "spearfish")).toEqual([
      ["unsuited_hazard", "Ferry lane. Typical depth 98 ft (30 m): beyond the 66 ft (20 m) recreational breath-hold range."],
    ]);
    expect(reasons(at(12, { spearfish: { reason: "unsuited_hazard", note: "Ferry lane." } }), "spearfish")).toEqual([["unsuited_hazard", "Ferry lane."]]);
    expect(reasons(at(30, { freedive: { reason: "unsuited_depth", note: "Decks at 27 m." } }), "freedive")).toEqual([["unsuited_depth", "Decks at 27 m."]]);
    // A closure is the stronger reason for spearfishing.
    expect(reasons(at(30), "spearfish", regs({ "sea-tiger-wreck": [area({})] }))[0]![0]).toBe("closed_to_spearfishing");
  });

  it("says in one sentence why every spot was excluded, spots closed by the same rule together", () => {
    const ex = (name: string, note: string) => ({ spot: { id: name, name }, reason: "closed_to_spearfishing" as const, note, areas: null });
    expect(exclusionSentence("Spearfishing", [ex("Alpha", "Inside X, closed: rule one."), ex("Beta", "Inside Y: rule two. Really."), ex("Gamma", "Inside X, closed: rule one.")])).toBe(
      "Every spot here is excluded for spearfishing. Alpha, Gamma: Inside X, closed: rule one. Beta: Inside Y: rule two. Really. Another date will not change this.",
    );
  });

  it("names one spot alone, the date asked about, and says a closure on the day may not hold on another", () => {
    const closed = { spot: { id: "hanauma-bay", name: "Hanauma Bay" }, reason: "closed_on_date" as const, note: "Closed on Mondays and Tuesdays.", areas: null };
    expect(exclusionSentence("Snorkeling", [closed], "2026-11-24")).toBe(
      "Hanauma Bay is excluded for snorkeling on 2026-11-24: Closed on Mondays and Tuesdays. A closure on the day may not hold on another date.",
    );
  });
});

describe("confidence", () => {
  it("is the product of its five factors, labelled by the spec's thresholds", () => {
    const c = confidenceOf({ model: 0.7, visibilitySource: "heuristic", freshness: "live", daysAhead: 2, activityFit: 0.85 });
    expect(c.factors).toEqual({ model: 0.7, visibility_source: 0.8, freshness: 1, lead_time: 0.903, activity_fit: 0.85 });
    expect(c.value).toBeCloseTo(0.7 * 0.8 * 1 * 0.903 * 0.85, 3); // 0.43
    expect(c.label).toBe("medium");
    expect(confidenceOf({ model: 0.9, visibilitySource: "satellite", freshness: "live", daysAhead: 0, activityFit: 1 }).label).toBe("high");
    expect(confidenceOf({ model: 0.35, visibilitySource: "heuristic", freshness: "none", daysAhead: 0, activityFit: 1 }).label).toBe("low");
  });
  it("decays 5% a day ahead with a floor of 0.6", () => {
    expect(leadTimeFactor(0)).toBe(1);
    expect(leadTimeFactor(1)).toBeCloseTo(0.95, 6);
    expect(leadTimeFactor(6)).toBeCloseTo(0.735, 3);
    expect(leadTimeFactor(30)).toBe(0.6);
  });
});

describe("caveats", () => {
  const base: CaveatContext = {
    activity: activity("snorkel"),
    visibilitySource: "satellite",
    freshness: "live",
    daysAhead: 0,
    rating: "great",
    snappedFrom: null,
    regulatedAreas: [],
    regulationsReadable: true,
    accessRequirements: [],
    levelCalibrated: true,
  };
  const codes = (over: Partial<CaveatContext>) => caveatsFor({ ...base, ...over }).map((c) => c.code);
  it("says nothing on a clean native pick", () => expect(codes({})).toEqual([]));
  it("flags each condition with its code", () => {
    expect(codes({ visibilitySource: "heuristic" })).toEqual(["visibility_estimated"]);
    expect(codes({ levelCalibrated: false })).toEqual(["visibility_estimated"]);
    expect(codes({ freshness: "aging" })).toEqual(["stale_inputs"]);
    expect(codes({ freshness: "recent" })).toEqual([]);
    expect(codes({ daysAhead: 3 })).toEqual(["long_lead_time"]);
    expect(codes({ daysAhead: 2 })).toEqual([]);
    expect(codes({ rating: "fair" })).toEqual(["marginal_conditions"]);
    expect(codes({ rating: "no-go" })).toEqual(["marginal_conditions"]);
    expect(codes({ snappedFrom: { lat: 1, lon: 2, distanceKm: 3, spotName: "X" } })).toEqual(["location_snapped"]);
    expect(codes({ activity: activity("dive") })).toEqual(["proxy_activity_model"]);
  });
  it("quotes a venue's entry rule and where to check it", () => {
    const rule = "Every user of the marine park must pay the yearly nature fee before entering the water.";
    const source = "https://stinapabonaire.org/bonaire-national/rules-and-regulations/";
    expect(caveatsFor({ ...base, accessRequirements: [{ rule, source }] })).toEqual([{ code: "regulated_area", message: `${rule} Check the current rules before you go: ${source}` }]);
  });
  it("gives one regulated_area caveat with every rule that applies, each once", () => {
    const permit = { rule: "Divers need the park permit.", source: "https://park.example/rules" };
    const area = { name: "Area A", rule: "Rule A", gear: null, verified: true };
    const caveats = caveatsFor({ ...base, activity: activity("spearfish"), accessRequirements: [permit, permit], regulatedAreas: [area, area] });
    expect(caveats.filter((c) => c.code === "regulated_area")).toEqual([
      { code: "regulated_area", message: `${permit.rule} Inside Area A: Rule A. Check the current rules before you go: ${permit.source}` },
    ]);
  });
  it("gives every caveat a message to relay that names the specifics", () => {
    const all = [
      ...caveatsFor({
        ...base,
        visibilitySource: "heuristic",
        freshness: "none",
        daysAhead: 4,
        rating: "no-go",
        snappedFrom: { lat: 21.3, lon: -157.7, distanceKm: 2.4, spotName: "Hanauma Bay" },
        activity: activity("spearfish"),
        regulatedAreas: [
          { name: "Area A", rule: "Rule A", gear: null, verified: true },
          { name: "Area B", rule: "Rule B", gear: null, verified: true },
        ],
      }),
      ...caveatsFor({ ...base, freshness: "stale", activity: activity("spearfish"), regulationsReadable: false }),
      ...caveatsFor({ ...base, freshness: "aging" }),
    ];
    const byCode = new Map<string, string[]>();
    for (const c of all) byCode.set(c.code, [...(byCode.get(c.code) ?? []), c.message]);
    // All nine codes the spec lists, each with a plain sentence.
    expect([...byCode.keys()].sort()).toEqual([
      "location_snapped",
      "long_lead_time",
      "marginal_conditions",
      "proxy_activity_model",
      "regulated_area",
      "regulations_not_checked",
      "stale_inputs",
      "verify_fishing_rules",
      "visibility_estimated",
    ]);
    for (const m of all.map((c) => c.message)) expect(m).toMatch(/^[A-Z].{30,}[.)]$/);
    expect(byCode.get("stale_inputs")).toEqual([expect.stringMatching(/seasonal norms/), expect.stringMatching(/more than a day old/), expect.stringMatching(/several hours old/)]);
    expect(byCode.get("long_lead_time")).toEqual([expect.stringContaining("4 days ahead")]);
    expect(byCode.get("marginal_conditions")).toEqual([expect.stringContaining("rated no-go")]);
    expect(byCode.get("location_snapped")).toEqual(["You asked about 21.3, -157.7; this is Hanauma Bay, 2.4 km away."]);
    expect(byCode.get("regulated_area")).toEqual([expect.stringContaining("Inside Area A: Rule A. Inside Area B: Rule B.")]);
    expect(byCode.get("proxy_activity_model")![0]).toMatch(/not one made for spearfishing\. .+\.$/);
  });

  it("says whether the spot's typical visibility rests on published figures or on judgement", () => {
    const message = (over: Partial<CaveatContext>) => caveatsFor({ ...base, ...over }).find((c) => c.code === "visibility_estimated")?.message;
    expect(message({ visibilitySource: "heuristic" })).toContain("typical visibility from published figures");
    expect(message({ visibilitySource: "heuristic", levelCalibrated: false })).toContain("typical visibility is our own judgement");
    expect(message({ levelCalibrated: false })).toContain("no published figure that fits the spot was found");
  });

  it("spearfishing: always verify the rules; name rules-only areas; say when closures were not checked", () => {
    expect(codes({ activity: activity("spearfish") })).toEqual(["proxy_activity_model", "verify_fishing_rules"]);
    expect(codes({ activity: activity("spearfish"), regulatedAreas: [{ name: "West Hawaiʻi FMA", rule: "No scuba spearfishing", gear: "breath-hold only", verified: false }] })).toEqual([
      "proxy_activity_model",
      "regulated_area",
      "verify_fishing_rules",
    ]);
    expect(codes({ activity: activity("spearfish"), regulationsReadable: false })).toEqual(["proxy_activity_model", "regulations_not_checked", "verify_fishing_rules"]);
  });
});
