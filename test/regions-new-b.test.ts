// The regions added for worldwide coverage (Grand Cayman, Cairns and Port Douglas, …), through the real HTTP server: each
// answers conditions offline from its seasonal norms and live from the stub upstreams, spearfishing
// closures exclude the right spots, and a point across an ocean names the right nearest spot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { itAnswersLive, itAnswersOffline, recommendationsFrom, supportByRule } from "./helpers/regions.js";
import { startService, type TestService } from "./helpers/service.js";

/** One representative spot per new region, with its tide station and IANA zone. */
const NEW_REGIONS = [
  { region: "ky-gc-grand-cayman", spot: "kittiwake", station: "noaa/TEC4707", timezone: "America/Cayman" },
  { region: "au-qld-cairns", spot: "michaelmas-cay", station: "ticon/cairns-59060-aus-bom", timezone: "Australia/Brisbane" },
] as const;

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const rec = (qs: string) => recommendationsFrom(svc, qs);

describe("the published catalogue", () => {
  it("lists each new region in the coverage listing, published as its calibration earns", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { status, body } = await shipped.json<{ regions: { id: string; decision_support: string; spot_count: number; spots: { id: string }[] }[] }>("/api/v1/coverage");
      expect(status).toBe(200);
      for (const n of NEW_REGIONS) {
        const r = body.regions.find((x) => x.id === n.region);
        expect(r, n.region).toBeDefined();
        expect(r!.decision_support).toBe(supportByRule(r!.id));
        expect(r!.spot_count).toBeGreaterThanOrEqual(7);
        expect(r!.spots.map((s) => s.id)).toContain(n.spot);
      }
    } finally {
      await shipped.close();
    }
  });
});

describe.each(NEW_REGIONS)("$region", ({ region, spot, station, timezone }) => {
  itAnswersOffline(() => svc, { spot, region, station, timezone, waterAboveC: 20 });

  itAnswersLive(region, spot);
});

describe("spearfishing closures in the new regions", () => {
  it("excludes every Grand Cayman spot (spear guns need a Cayman licence) and names the Stingray City zone", async () => {
    const body = await rec("activity=spearfish&region=ky-gc-grand-cayman&limit=5");
    expect(body.picks).toEqual([]);
    const excluded = body.considered.excluded;
    expect(excluded).toHaveLength(12);
    // The Cali is excluded first for its harbour boat traffic; every other spot by the closure.
    expect(excluded.find((e) => e.spot.id === "wreck-of-the-cali")!.reason).toBe("unsuited_hazard");
    for (const e of excluded.filter((x) => x.spot.id !== "wreck-of-the-cali")) {
      expect(e.reason).toBe("closed_to_spearfishing");
      expect(e.areas).toContain("Cayman Islands waters (spear gun licensing)");
    }
    expect(excluded.find((e) => e.spot.id === "stingray-city")!.areas).toContain("North Sound (Sandbar and Stingray City) Wildlife Interaction Zone");
    expect(excluded.find((e) => e.spot.id === "kittiwake")!.areas).not.toContain("North Sound (Sandbar and Stingray City) Wildlife Interaction Zone");
  });
});

describe("spearfishing in the Great Barrier Reef Marine Park", () => {
  it("excludes the Green Island, Michaelmas Cay, Low Isles and Milln Reef green zones and flags the zoning on every other pick", async () => {
    const body = await rec("activity=spearfish&region=au-qld-cairns&limit=5");
    const closed = body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing");
    expect(closed.map((e) => e.spot.id).sort()).toEqual(["green-island", "low-isles", "michaelmas-cay", "milln-reef"]);
    expect(closed.find((e) => e.spot.id === "michaelmas-cay")!.areas).toEqual(["Michaelmas Cay Marine National Park (Green) Zone"]);
    expect(closed.find((e) => e.spot.id === "green-island")!.areas).toEqual(["Green Island reef, Marine National Park (Green) and Scientific Research (Orange) zones"]);
    expect(closed.find((e) => e.spot.id === "low-isles")!.areas).toEqual(["Low Isles Marine National Park (green) Zone"]);
    expect(closed.find((e) => e.spot.id === "milln-reef")!.areas).toEqual(["Milln Reef Marine National Park (green) Zone"]);
    expect(body.picks.length).toBeGreaterThan(0);
    for (const p of body.picks) {
      expect(["green-island", "low-isles", "michaelmas-cay", "milln-reef"]).not.toContain(p.spot.id);
      const zoning = p.caveats.find((c) => c.code === "regulated_area" && /Great Barrier Reef Marine Park/.test(c.message));
      expect(zoning, p.spot.id).toBeDefined();
      expect(zoning!.message).toMatch(/never with scuba/);
    }
  });
});

describe("not_covered across an ocean", () => {
  it("names Grand Cayman's easternmost spot for a point in the sea south of Jamaica", async () => {
    const body = await rec("activity=snorkel&lat=17.5&lon=-77.0");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "jack-mckennys-canyon" }, region: { id: "ky-gc-grand-cayman" } });
    // ~4.1° of longitude and ~1.8° of latitude away: about 470 km.
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(430);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(510);
  });

  it("names Opal Reef, the northernmost Cairns spot, for a point off Port Moresby across the Coral Sea", async () => {
    const body = await rec("activity=snorkel&lat=-9.6&lon=147.0");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "opal-reef" }, region: { id: "au-qld-cairns" } });
    // ~6.6° of latitude south and ~1.1° of longitude west: about 745 km.
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(700);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(790);
  });
});
