// Caribbean coverage (St. John & St. Thomas in the US Virgin Islands, Grand Cayman's north-coast and
// East End additions) through the real HTTP server: each new spot answers conditions offline from its
// region's seasonal norms and real tides, and live from the upstream emulator; the National Park and
// the Cayman spear-gun licensing close the right spots to spearfishing; the shallow lagoon spots are
// snorkel-only; a point across the sea names the right nearest spot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { type ConditionsJson } from "../src/schemas/conditions.js";
import { itAnswersLive, itAnswersOffline, recommendationsFrom, supportByRule } from "./helpers/regions.js";
import { startService, type TestService } from "./helpers/service.js";

const USVI = "us-vi-st-john-st-thomas";
const NPS = "Virgin Islands National Park (St. John waters)";
/** St. John spots in National Park waters (Caneel Bay is excluded first for its boat traffic). */
const USVI_PARK = ["trunk-bay", "hawksnest-bay", "cinnamon-bay", "francis-bay", "waterlemon-cay", "great-lameshur-bay"] as const;
const CAYMAN = "ky-gc-grand-cayman";
const CAYMAN_LICENSING = "Cayman Islands waters (spear gun licensing)";
/** The spots added to Grand Cayman here: three shore snorkels behind the north-coast reef and an East End wall. */
const CAYMAN_NEW = ["rum-point-coral-gardens", "rum-point-shore-drift", "north-side-wonderland", "lighthouse-wall"] as const;
const CAYMAN_SNORKEL_ONLY = ["rum-point-coral-gardens", "rum-point-shore-drift", "north-side-wonderland"] as const;

/** One spot per region (or per addition) of this slice, with its tide station and IANA zone. */
const SPOTS = [
  { region: USVI, spot: "waterlemon-cay", station: "noaa/9751309", timezone: "America/St_Thomas" },
  { region: USVI, spot: "great-lameshur-bay", station: "noaa/9751381", timezone: "America/St_Thomas" },
  { region: CAYMAN, spot: "rum-point-coral-gardens", station: "noaa/TEC4707", timezone: "America/Cayman" },
  { region: CAYMAN, spot: "lighthouse-wall", station: "noaa/TEC4707", timezone: "America/Cayman" },
] as const;

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const rec = (qs: string) => recommendationsFrom(svc, qs);

describe("the published catalogue", () => {
  it("lists St. John & St. Thomas with its 10 spots, published as its calibration earns", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { status, body } = await shipped.json<{ regions: { id: string; name: string; decision_support: string; spot_count: number; spots: { id: string }[] }[] }>("/api/v1/coverage");
      expect(status).toBe(200);
      const r = body.regions.find((x) => x.id === USVI)!;
      expect(r).toMatchObject({ name: "St. John & St. Thomas (US Virgin Islands)", decision_support: supportByRule("us-vi-st-john-st-thomas"), spot_count: 10 });
      expect(r.spots.map((s) => s.id)).toEqual(expect.arrayContaining([...USVI_PARK, "caneel-bay", "haulover-bay", "christmas-cove", "magens-bay"]));
    } finally {
      await shipped.close();
    }
  });

  it("lists Grand Cayman with its 12 spots, the new ones among them, published as its calibration earns", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const { status, body } = await shipped.json<{ regions: { id: string; decision_support: string; spot_count: number; spots: { id: string }[] }[] }>("/api/v1/coverage");
      expect(status).toBe(200);
      const r = body.regions.find((x) => x.id === CAYMAN)!;
      expect(r.decision_support).toBe(supportByRule(r.id));
      expect(r.spot_count).toBe(12);
      expect(r.spots.map((s) => s.id)).toEqual(expect.arrayContaining([...CAYMAN_NEW]));
    } finally {
      await shipped.close();
    }
  });
});

describe.each(SPOTS)("$spot ($region)", ({ region, spot, station, timezone }) => {
  itAnswersOffline(() => svc, { spot, region, station, timezone, waterAboveC: 20 });

  itAnswersLive(region, spot);
});

describe("Grand Cayman's shallow north-coast spots", () => {
  it("are clearer in the dry season than in the October rains, and the sheltered lagoon is less clear than the East End wall", async () => {
    // Seasonal norms only (offline): the same hour in March and in October.
    const at = async (spot: string, now: string) => {
      const s = await startService({ now });
      try {
        const r = await s.json<ConditionsJson>(`/api/v1/conditions?spot=${spot}`);
        expect(r.status).toBe(200);
        return r.body.periods[0]!.visibility_ft!;
      } finally {
        await s.close();
      }
    };
    const march = await at("rum-point-coral-gardens", "2026-03-10T16:00:00Z");
    const october = await at("rum-point-coral-gardens", "2026-10-10T16:00:00Z");
    expect(march).toBeGreaterThan(october);
    expect(await at("lighthouse-wall", "2026-03-10T16:00:00Z")).toBeGreaterThan(march);
  });

  it("are left out of dive rankings as too shallow, with the reason a user reads", async () => {
    const body = await rec(`activity=dive&region=${CAYMAN}&limit=5`);
    for (const id of CAYMAN_SNORKEL_ONLY) {
      const e = body.considered.excluded.find((x) => x.spot.id === id);
      expect(e, id).toBeDefined();
      expect(e!.reason).toBe("unsuited_depth");
    }
    expect(body.considered.excluded.find((x) => x.spot.id === "lighthouse-wall")).toBeUndefined();
  });
});

describe("spearfishing in St. John & St. Thomas", () => {
  it("excludes the National Park bays, the busy anchorages and the swimming beach, and leaves Haulover Bay to pick", async () => {
    const body = await rec(`activity=spearfish&region=${USVI}&limit=5`);
    const excluded = new Map(body.considered.excluded.map((e) => [e.spot.id, e]));
    for (const id of USVI_PARK) {
      expect(excluded.get(id)?.reason, id).toBe("closed_to_spearfishing");
      expect(excluded.get(id)!.areas).toEqual([NPS]);
    }
    expect(excluded.get("caneel-bay")?.reason).toBe("unsuited_hazard");
    expect(excluded.get("christmas-cove")?.reason).toBe("unsuited_hazard");
    expect(excluded.get("magens-bay")?.reason).toBe("unsuited_use");
    expect(excluded.size).toBe(9);
    expect(body.picks.map((p) => p.spot.id)).toEqual(["haulover-bay"]);
    // Not in a listed area, so the user is told to check the rules themselves.
    expect(body.picks[0]!.caveats.map((c) => c.code)).toContain("verify_fishing_rules");
  });
});

describe("spearfishing around Grand Cayman", () => {
  it("excludes every spot, the new ones by the spear-gun licensing closure", async () => {
    const body = await rec(`activity=spearfish&region=${CAYMAN}&limit=5`);
    expect(body.picks).toEqual([]);
    expect(body.considered.excluded).toHaveLength(12);
    for (const id of CAYMAN_NEW) {
      const e = body.considered.excluded.find((x) => x.spot.id === id)!;
      expect(e.reason, id).toBe("closed_to_spearfishing");
      expect(e.areas).toEqual([CAYMAN_LICENSING]);
    }
  });
});

describe("not_covered across the sea", () => {
  it("names Haulover Bay, St. John's easternmost spot, for a point in the Anegada Passage north of Anguilla", async () => {
    const body = await rec("activity=snorkel&lat=18.6&lon=-63.0");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "haulover-bay" }, region: { id: USVI } });
    // ~1.7° of longitude west and ~0.25° of latitude south: about 179 km.
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(165);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(195);
  });


  it("names Rum Point, on Grand Cayman's north coast, for a point off Cienfuegos on Cuba's south coast", async () => {
    const body = await rec("activity=snorkel&lat=21.8&lon=-80.5");
    expect(body.status).toBe("not_covered");
    expect(body.coverage.nearest_covered).toMatchObject({ spot: { id: "rum-point-coral-gardens" }, region: { id: CAYMAN } });
    // ~2.4° of latitude north and ~0.8° of longitude east: about 282 km.
    expect(body.coverage.nearest_covered!.distance_km).toBeGreaterThan(260);
    expect(body.coverage.nearest_covered!.distance_km).toBeLessThan(300);
    expect(body.message).toContain("Rum Point coral gardens (North Sound) (Grand Cayman)");
  });
});
