// Scapa Flow (Orkney), through the real HTTP server: it answers conditions offline from its seasonal
// norms and the Wick tide station, and live from the upstream emulator; the spearfishing answer
// leaves out the deep wrecks and the tide-race blockships and flags the scheduled High Seas Fleet
// wrecks; a point in the North Sea names the right nearest spot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { type ConditionsJson } from "../src/schemas/conditions.js";
import { liveRuns } from "./helpers/live.js";
import { conditionsFrom, recommendationsFrom, supportByRule } from "./helpers/regions.js";
import { startService, type TestService } from "./helpers/service.js";

const REGION = "gb-ork-scapa-flow";
const STATION = "ticon/wick-wic-gbr-bodc";
const SCHEDULED = "German High Seas Fleet wrecks, Scapa Flow (scheduled monuments, Historic MPA)";
const HIGH_SEAS_FLEET = ["sms-brummer", "sms-coln", "sms-dresden", "sms-karlsruhe", "sms-konig", "sms-kronprinz-wilhelm", "sms-markgraf"];
const BURRA_SOUND = ["gobernador-bories-blockship", "inverlane-blockship", "tabarka-blockship"];

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const conditions = (qs: string) => conditionsFrom(svc, qs);
const rec = (qs: string) => recommendationsFrom(svc, qs);

describe("the published catalogue", () => {
  it("lists Scapa Flow with its fourteen wreck sites, published as its calibration earns", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { status, body } = await shipped.json<{ regions: { id: string; decision_support: string; spot_count: number; spots: { id: string }[] }[] }>("/api/v1/coverage");
      expect(status).toBe(200);
      const r = body.regions.find((x) => x.id === REGION);
      expect(r).toBeDefined();
      expect(r!.decision_support).toBe(supportByRule(r!.id));
      expect(r!.spot_count).toBe(14);
      expect(r!.spots.map((s) => s.id)).toEqual(expect.arrayContaining([...HIGH_SEAS_FLEET, ...BURRA_SOUND, "f2-and-yc21", "james-barrie", "sms-seydlitz-salvage-site", "churchill-barrier-3-blockships"]));
    } finally {
      await shipped.close();
    }
  });
});

describe("conditions at the Karlsruhe", () => {
  it("answers offline from Scapa Flow's seasonal norms, cold water and the Wick tide", async () => {
    const body = await conditions("spot=sms-karlsruhe");
    expect(body.spot).toMatchObject({ id: "sms-karlsruhe", region: { id: REGION }, timezone: "Europe/London" });
    expect(body.data_quality).toEqual({ visibility_source: "heuristic", freshness: "none" });
    expect(body.sources).toContain(`climatology:${REGION}`);
    expect(body.sources).toContain(`tide-harmonics:${STATION}`);
    // Wick has a semidiurnal tide: about four turning points a day over the forecast.
    expect(body.tide_events.length).toBeGreaterThan(10);
    for (const p of body.periods) {
      expect(p.why).toContain("Seasonal norms, not a live forecast.");
      expect(p.visibility_ft).toBeGreaterThan(0);
      // Orkney water: 7 °C in spring to 13 °C in late summer.
      expect(p.water_temp_c).toBeGreaterThanOrEqual(7);
      expect(p.water_temp_c).toBeLessThanOrEqual(13);
    }
  });

  const live = liveRuns();
  it("answers live from the upstreams, without seasonal norms", async () => {
    const r = await live({ scenario: "calm" });
    const { status, body } = await r.svc.json<ConditionsJson>("/api/v1/conditions?spot=sms-karlsruhe");
    expect(status).toBe(200);
    expect(body.spot.region.id).toBe(REGION);
    expect(body.sources).toEqual(expect.arrayContaining(["open-meteo:marine", "open-meteo:forecast"]));
    expect(body.sources.filter((s) => s.startsWith("climatology:"))).toEqual([]);
    expect(body.data_quality.freshness).toBe("live");
    for (const p of body.periods) expect(p.why).not.toMatch(/Seasonal norms/);
  });
});

describe("spearfishing in Scapa Flow", () => {
  it("leaves out the deep wrecks and the tide-race blockships, and flags the scheduled wrecks it keeps", async () => {
    const body = await rec(`activity=spearfish&region=${REGION}&limit=5`);
    const excluded = new Map(body.considered.excluded.map((e) => [e.spot.id, e]));
    for (const id of ["sms-markgraf", "sms-konig", "sms-kronprinz-wilhelm", "sms-brummer", "sms-coln", "sms-dresden", "sms-seydlitz-salvage-site", "james-barrie"]) {
      expect(excluded.get(id)?.reason, id).toBe("unsuited_depth");
    }
    for (const id of BURRA_SOUND) expect(excluded.get(id)?.reason, id).toBe("unsuited_hazard");
    // No spearfishing ban was found, so nothing is excluded as closed.
    expect(body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing")).toEqual([]);

    expect(body.picks.map((p) => p.spot.id).sort()).toEqual(["churchill-barrier-3-blockships", "f2-and-yc21", "sms-karlsruhe"]);
    const karlsruhe = body.picks.find((p) => p.spot.id === "sms-karlsruhe")!;
    const scheduled = karlsruhe.caveats.find((c) => c.code === "regulated_area");
    expect(scheduled).toBeDefined();
    expect(scheduled!.message).toContain(SCHEDULED);
    for (const id of ["f2-and-yc21", "churchill-barrier-3-blockships"]) {
      const pick = body.picks.find((p) => p.spot.id === id)!;
      expect(pick.caveats.filter((c) => c.code === "regulated_area"), id).toEqual([]);
    }
  });
});

describe("snorkelling in Scapa Flow", () => {
  it("offers only the shallow shore blockships at Churchill Barrier 3", async () => {
    const body = await rec(`activity=snorkel&region=${REGION}&limit=5`);
    expect(body.picks.map((p) => p.spot.id)).toEqual(["churchill-barrier-3-blockships"]);
    expect(body.considered.excluded).toHaveLength(13);
  });
});

describe("not_covered across the North Sea", () => {
  it("names the Churchill Barrier 3 blockships, the easternmost Scapa Flow site, for a point midway to Norway", async () => {
    const body = await rec("activity=dive&lat=59.5&lon=2.0");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "churchill-barrier-3-blockships" }, region: { id: REGION } });
    // ~0.6° of latitude north and ~4.9° of longitude east: about 288 km (the James Barrie is ~297 km).
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(270);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(293);
  });
});
