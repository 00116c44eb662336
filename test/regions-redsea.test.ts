// The Red Sea regions (Sharm el-Sheikh with the Strait of Gubal wrecks; Hurghada, El Gouna and the
// Strait of Gubal; Dahab and Ras Abu Galum), through the real HTTP server: each answers conditions offline from its seasonal
// norms with null tides (no tide station within reach), and live from the upstream emulator without
// them, with tides modelled from the sea level; the protectorates exclude the right spots from spearfishing while the wrecks outside them
// stay rankable with a caveat; and a point far down the Red Sea is sent to the nearest covered spot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import type { CoverageJson } from "../src/schemas/catalog.js";
import { ConditionsSchema, type ConditionsJson } from "../src/schemas/conditions.js";
import { liveRuns } from "./helpers/live.js";
import { recommendationsFrom, supportByRule, expectSpotsInsideBbox } from "./helpers/regions.js";
import { startService, type TestService } from "./helpers/service.js";

/** One representative spot per Red Sea region. */
const RED_SEA = [
  { region: "eg-js-sharm-el-sheikh", spot: "thistlegorm", spots: 11 },
  { region: "eg-ba-hurghada", spot: "giannis-d", spots: 9 },
  { region: "eg-js-dahab", spot: "blue-hole-dahab", spots: 4 },
] as const;

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const conditions = async (qs: string, s: TestService = svc) => {
  const r = await s.json<ConditionsJson>(`/api/v1/conditions?${qs}`);
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  expect(ConditionsSchema.parse(r.body)).toEqual(r.body);
  return r.body;
};
const rec = (qs: string) => recommendationsFrom(svc, qs);

describe("the published catalogue", () => {
  it("lists the Red Sea regions as their calibration earns, every spot inside its bbox, and names them among the regions without tides", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { status, body } = await shipped.json<CoverageJson>("/api/v1/coverage");
      expect(status).toBe(200);
      for (const n of RED_SEA) {
        const r = body.regions.find((x) => x.id === n.region)!;
        expect(r, n.region).toBeDefined();
        expect(r.decision_support).toBe(supportByRule(r.id));
        expect(r.spot_count).toBe(n.spots);
        expect(r.spots.map((s) => s.id)).toContain(n.spot);
        expectSpotsInsideBbox(r);
      }
      const noTide = body.notes.find((x) => x.startsWith("No tide station"))!;
      expect(noTide).toContain("Hurghada, El Gouna & the Strait of Gubal");
      expect(noTide).toContain("Sharm el-Sheikh, Ras Mohammed & Tiran");
      expect(noTide).toContain("Dahab & Ras Abu Galum");
    } finally {
      await shipped.close();
    }
  });
});

describe.each(RED_SEA)("$region", ({ region, spot }) => {
  it("answers conditions offline from its seasonal norms, with null tides and no tide credit", async () => {
    const body = await conditions(`spot=${spot}`);
    expect(body.spot).toMatchObject({ id: spot, region: { id: region }, timezone: "Africa/Cairo" });
    expect(body.data_quality).toEqual({ visibility_source: "heuristic", freshness: "none" });
    expect(body.sources).toContain(`climatology:${region}`);
    expect(body.sources.filter((s) => s.startsWith("tide-harmonics:"))).toEqual([]);
    expect(body.tide_events).toEqual([]);
    expect(body.data_credits.map((c) => c.provider).join(" ")).not.toMatch(/tide/i);
    expect(body.periods.length).toBeGreaterThan(6 * 8);
    for (const p of body.periods) {
      expect(p.why).toContain("Seasonal norms, not a live forecast.");
      expect(p.tide_state).toBeNull();
      expect(p.tide_height_ft).toBeNull();
      expect(p.visibility_ft).toBeGreaterThan(0);
      // Late November in the northern Red Sea: 22–25 °C, never the tropics' 28 or the Mediterranean's 18.
      expect(p.water_temp_c).toBeGreaterThan(20);
      expect(p.water_temp_c).toBeLessThan(27);
    }
  });

  const live = liveRuns();
  it("answers conditions live from the upstreams, without seasonal norms", async () => {
    const r = await live({ scenario: "calm", env: { UPSTREAM_TIMEOUT_MS: "15000" } });
    const body = await conditions(`spot=${spot}`, r.svc);
    expect(body.spot.region.id).toBe(region);
    expect(body.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "open-meteo:forecast"]));
    expect(body.sources.filter((s) => s.startsWith("climatology:"))).toEqual([]);
    expect(body.data_quality.freshness).toBe("live");
    // No station within reach: the tide is modelled from Open-Meteo's sea level, and labelled so.
    expect(body.tide_events.length).toBeGreaterThan(0);
    expect(body.tide_events.every((e) => typeof e.height_ft === "number")).toBe(true);
    expect(body.sources).toContain("open-meteo:tide-model");
    for (const p of body.periods) expect(p.why ?? "").not.toMatch(/Seasonal norms/);
    // No NOAA station in the Red Sea: CO-OPS is never asked.
    expect(r.stub.calls.coops).toBe(0);
  });
});

/** The Egypt-wide record: the 2024 suspension of recreational fishing, spearfishing not shown to be allowed. */
const EGYPT = "Egyptian Red Sea coasts (recreational fishing suspended; spearfishing not shown to be allowed)";

describe("Hurghada: recreational fishing is suspended on Egypt's Red Sea coasts, and the islands protectorate bans it too", () => {
  it("excludes every reef and wreck from spearfishing, naming the protectorate where it applies, and keeps the harbour wreck out for its traffic", async () => {
    const body = await rec("activity=spearfish&region=eg-ba-hurghada&limit=5");
    const byId = new Map(body.considered.excluded.map((e) => [e.spot.id, e]));
    const closed = [...byId.values()].filter((e) => e.reason === "closed_to_spearfishing").map((e) => e.spot.id);
    const islands = ["bluff-point-gubal", "shaab-el-erg", "ulysses-gubal", "umm-gamar"];
    const abuNuhas = ["carnatic", "chrisoula-k", "giannis-d", "kimon-m"];
    expect(closed.sort()).toEqual([...abuNuhas, ...islands].sort());
    for (const id of islands) expect(byId.get(id)!.areas).toEqual(["Northern Red Sea Islands Protectorate (Hurghada, El Gouna, Strait of Gubal)", EGYPT]);
    for (const id of abuNuhas) expect(byId.get(id)!.areas).toEqual([EGYPT]);
    expect(byId.get("el-mina-wreck")!.reason).toBe("unsuited_hazard");
    expect(body.picks).toEqual([]);
  });

  it("keeps snorkellers off the two wrecks that lie too deep to see from the surface", async () => {
    const body = await rec("activity=snorkel&region=eg-ba-hurghada&limit=5");
    const excluded = Object.fromEntries(body.considered.excluded.map((e) => [e.spot.id, e.reason]));
    expect(excluded).toEqual({ carnatic: "unsuited_depth", "el-mina-wreck": "unsuited_depth" });
    expect(body.picks).toHaveLength(5);
    for (const p of body.picks) expect(["carnatic", "el-mina-wreck"]).not.toContain(p.spot.id);
  });
});

describe("Sharm el-Sheikh and Dahab: the parks and protectorates, and the suspension on every Egyptian coast", () => {
  it("closes Near Garden, the Million Hope and the Kormoran by their parks as well, and ranks no spot for spearfishing", async () => {
    const body = await rec("activity=spearfish&region=eg-js-sharm-el-sheikh&limit=5");
    const byId = new Map(body.considered.excluded.map((e) => [e.spot.id, e]));
    expect(byId.get("near-garden")).toMatchObject({ reason: "closed_to_spearfishing", areas: ["Ras Mohammed National Park – Sharm el-Sheikh shoreline", EGYPT] });
    expect(byId.get("million-hope")).toMatchObject({ reason: "closed_to_spearfishing", areas: ["Nabq Protectorate (Nabq Managed Resource Protected Area)", EGYPT] });
    expect(byId.get("kormoran-wreck")).toMatchObject({ reason: "closed_to_spearfishing", areas: ["Strait of Tiran reefs (South Sinai protected area)", EGYPT] });
    // The Dunraven lies at the edge of Ras Mohammed National Park.
    expect(byId.get("dunraven")).toMatchObject({ reason: "closed_to_spearfishing", areas: ["Ras Mohammed National Park", EGYPT] });
    expect(byId.get("kingston-shag-rock")).toMatchObject({ reason: "closed_to_spearfishing", areas: [EGYPT] });
    expect(byId.get("thistlegorm")!.reason).toBe("unsuited_hazard");
    expect(body.picks).toEqual([]);
  });

  it("excludes Ras Abu Galum by its protectorate, Abu Helal by the suspension, and the Blue Hole and the Canyon for their crowds", async () => {
    const body = await rec("activity=spearfish&region=eg-js-dahab&limit=5");
    const byId = new Map(body.considered.excluded.map((e) => [e.spot.id, e]));
    expect(byId.get("south-ras-abu-galum")).toMatchObject({ reason: "closed_to_spearfishing", areas: ["Ras Abu Galum Protectorate", EGYPT] });
    expect(byId.get("ras-abu-helal")).toMatchObject({ reason: "closed_to_spearfishing", areas: [EGYPT] });
    expect(byId.get("blue-hole-dahab")!.reason).toBe("unsuited_hazard");
    expect(byId.get("the-canyon-dahab")!.reason).toBe("unsuited_hazard");
    expect(body.picks).toEqual([]);
  });
});

describe("not_covered down the Red Sea", () => {
  it("sends a diver off Port Sudan to Gota Wadi Gamal at Marsa Alam, the nearest covered spot", async () => {
    const body = await rec("activity=dive&lat=19.6&lon=37.6");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "gota-wadi-gamal" }, region: { id: "eg-ba-marsa-alam" } });
    // About 620 km north-north-west (Shaab Sharm ~628 km; Hurghada's El Mina wreck ~930 km).
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(610);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(630);
  });
});
