// The Indo-Pacific regions (Phi Phi & Ko Lanta in Thailand's Andaman Sea, Komodo National Park in
// Indonesia), through the real HTTP server: each answers conditions offline from its seasonal norms
// and live from the stub upstreams, national-park spearfishing closures exclude the right spots, a
// spot beyond 100 km of any tide station answers without a tide, and a point across an ocean names
// the right nearest spot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { conditionsFrom, itAnswersLive, itAnswersOffline, recommendationsFrom, supportByRule } from "./helpers/regions.js";
import { startService, type TestService } from "./helpers/service.js";

/** One representative spot per region, with its tide station and IANA zone. */
const REGIONS = [
  { region: "th-81-phi-phi-lanta", spot: "loh-dalum-bay", station: "ticon/ko_taphao_noi-148a-tha-uhslc_rq", timezone: "Asia/Bangkok" },
  { region: "id-nt-komodo", spot: "pink-beach-komodo", station: "ticon/waikelo-418-idn-uhslc_fd", timezone: "Asia/Makassar" },
] as const;

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const conditions = (qs: string) => conditionsFrom(svc, qs);
const rec = (qs: string) => recommendationsFrom(svc, qs);

describe("the published catalogue", () => {
  it("lists each region in the coverage listing, published as its calibration earns", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { status, body } = await shipped.json<{ regions: { id: string; decision_support: string; spot_count: number; spots: { id: string }[] }[] }>("/api/v1/coverage");
      expect(status).toBe(200);
      for (const n of REGIONS) {
        const r = body.regions.find((x) => x.id === n.region);
        expect(r, n.region).toBeDefined();
        expect(r!.decision_support).toBe(supportByRule(r!.id));
        expect(r!.spot_count).toBeGreaterThanOrEqual(8);
        expect(r!.spots.map((s) => s.id)).toContain(n.spot);
      }
    } finally {
      await shipped.close();
    }
  });
});

describe.each(REGIONS)("$region", ({ region, spot, station, timezone }) => {
  itAnswersOffline(() => svc, { spot, region, station, timezone, waterAboveC: 25 });

  itAnswersLive(region, spot);
});

describe("Komodo's northern sites, more than 100 km from any tide station", () => {
  it("answer from seasonal norms with no tide and no tide credit, and say why", async () => {
    const body = await conditions("spot=crystal-rock");
    expect(body.spot).toMatchObject({ id: "crystal-rock", region: { id: "id-nt-komodo" }, timezone: "Asia/Makassar" });
    expect(body.sources).toContain("climatology:id-nt-komodo");
    expect(body.sources.filter((s) => s.startsWith("tide-harmonics:"))).toEqual([]);
    expect(body.tide_events).toEqual([]);
    expect(body.periods.every((p) => p.tide_state === null && p.tide_height_ft === null)).toBe(true);
    expect(body.data_credits.map((c) => c.provider).join(" ")).not.toMatch(/tide/i);
    for (const p of body.periods) expect(p.visibility_ft).toBeGreaterThan(0);
  });
});

describe("spearfishing in Komodo National Park", () => {
  it("excludes every Komodo spot, naming the park", async () => {
    const body = await rec("activity=spearfish&region=id-nt-komodo&limit=5");
    expect(body.picks).toEqual([]);
    expect(body.considered.excluded).toHaveLength(10);
    for (const e of body.considered.excluded) {
      expect(e.reason, e.spot.id).toBe("closed_to_spearfishing");
      expect(e.areas).toEqual(["Komodo National Park"]);
    }
  });
});

describe("spearfishing in the Krabi marine national parks", () => {
  it("excludes every park spot by its park and Kantiang Bay as a swimming beach, leaving nothing to pick", async () => {
    const body = await rec("activity=spearfish&region=th-81-phi-phi-lanta&limit=5");
    expect(body.picks).toEqual([]);
    const excluded = body.considered.excluded;
    expect(excluded).toHaveLength(8);
    const byPark = (park: string) =>
      excluded
        .filter((e) => e.reason === "closed_to_spearfishing" && e.areas!.includes(park))
        .map((e) => e.spot.id)
        .sort();
    expect(byPark("Hat Noppharat Thara–Mu Ko Phi Phi National Park")).toEqual(["chicken-island", "loh-dalum-bay", "maya-bay", "monkey-beach-phi-phi"]);
    expect(byPark("Mu Ko Lanta National Park")).toEqual(["hin-muang", "ko-rok-channel", "ko-rok-nai-reef"]);
    expect(excluded.find((e) => e.spot.id === "kantiang-bay")).toMatchObject({ reason: "unsuited_use", areas: null });
  });

  it("keeps Hin Muang, a submerged pinnacle, out of snorkel picks but offers it to divers", async () => {
    const snorkel = await rec("activity=snorkel&region=th-81-phi-phi-lanta&limit=5");
    expect(snorkel.considered.excluded.find((e) => e.spot.id === "hin-muang")).toMatchObject({ reason: "unsuited_depth" });
    const dive = await rec("activity=dive&region=th-81-phi-phi-lanta&limit=5");
    expect(dive.considered.excluded.map((e) => e.spot.id)).not.toContain("hin-muang");
    expect(dive.picks.length).toBeGreaterThan(0);
  });
});

describe("not_covered across an ocean", () => {
  it("names Anita's Reef in the Similans, the nearest covered spot, for a point in the Andaman Sea off northern Sumatra", async () => {
    const body = await rec("activity=dive&lat=6.0&lon=95.5");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "anitas-reef-similan" }, region: { id: "th-82-similan" } });
    // About 371 km north-east (West of Eden ~372 km; Hin Muang, the westernmost Lanta site, ~390 km).
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(365);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(380);
  });

  it("names Loh Ginggo, Komodo's southernmost site, for a point in the Indian Ocean south of Sumba", async () => {
    const body = await rec("activity=snorkel&lat=-11.0&lon=119.5");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "loh-ginggo" }, region: { id: "id-nt-komodo" } });
    // ~2.32° of latitude south and 0.15° of longitude west: about 258 km (Padar is ~260 km).
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(245);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(270);
  });
});
