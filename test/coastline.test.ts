// The at-sea-or-on-the-shore check of `npm run data:check`, through its real verdict function and the
// real Natural Earth 1:10m land polygons: a point inland fails, a catalogued shore point the 1:10m
// coast leaves out passes, a point offshore passes, and points far at sea are reported.
import { describe, expect, it } from "vitest";
import { coastVerdict, MAX_CATALOGUE_APPROXIMATE_SHARE, MAX_OFFSHORE_KM, SHORE_ONLY_MAX_OFFSHORE_KM, SHORE_TOLERANCE_KM } from "../scripts/check-data.js";
import { Catalog } from "../src/catalog/catalog.js";

describe("data:check coastline verdict", () => {
  it("fails a point in the middle of Oʻahu (Wahiawā, ~13 km from the sea)", () => {
    const v = coastVerdict(21.5027, -158.0236, ["shore"]);
    expect(v.onLand).toBe(true);
    expect(v.coastKm).toBeGreaterThan(10);
    expect(v.error).toMatch(/^on land, 12\.\d\d km from the coast/);
  });

  it("passes the catalogue's Hanauma Bay point, which 1:10m draws just inland, and a point off the bay", () => {
    const hanauma = Catalog.readRecords()
      .find((r) => r.id === "us-hi-oahu")!
      .spots.find((s) => s.id === "hanauma-bay")!;
    const v = coastVerdict(hanauma.lat, hanauma.lon, hanauma.entry);
    expect(v.onLand).toBe(true);
    expect(v.coastKm).toBeLessThan(SHORE_TOLERANCE_KM);
    expect(v).toMatchObject({ error: null, warning: null });
    expect(coastVerdict(21.262, -157.692, ["shore"])).toMatchObject({ onLand: false, error: null, warning: null });
  });

  it("fails a town a few km behind a coarse stretch of coast (Randwick, 1.8 km west of Gordons Bay)", () => {
    expect(coastVerdict(-33.9167, 151.2417, ["shore"]).error).toMatch(/^on land, 3\.\d\d km/);
  });

  it("reports a sign flip that lands in open ocean, and a shore-only spot far out", () => {
    const flipped = coastVerdict(21.26855, 157.695, ["shore"]);
    expect(flipped).toMatchObject({ onLand: false, error: null });
    expect(flipped.coastKm).toBeGreaterThan(MAX_OFFSHORE_KM);
    expect(flipped.warning).toMatch(new RegExp(`^at sea \\d+\\.\\d\\d km from the coast \\(more than ${MAX_OFFSHORE_KM} km`));
    // 5.3 km off Sesoko, Okinawa: a boat could go there, a swimmer from the beach could not.
    expect(coastVerdict(26.66, 127.83, ["shore"]).warning).toMatch(new RegExp(`^a shore-only spot at sea 5\\.\\d\\d km .*more than ${SHORE_ONLY_MAX_OFFSHORE_KM} km`));
    expect(coastVerdict(26.66, 127.83, ["shore", "boat"]).warning).toBeNull();
  });

  it("reads islands that cross the antimeridian as land only where they are (Fiji)", () => {
    expect(coastVerdict(-16.6, 179.2, ["shore"]).onLand).toBe(true); // Vanua Levu
    expect(coastVerdict(-16.85, -179.93, ["shore"]).onLand).toBe(true); // Taveuni, east of 180°
    // The same latitude on the Great Barrier Reef, 39 km off the mainland: at sea.
    expect(coastVerdict(-16.52, 146.0, ["boat"])).toMatchObject({ onLand: false, error: null, warning: null });
  });
});

describe("how the catalogue's coordinates were placed", () => {
  it("places at most a fifth of all spots approximately, and says why for each of them", () => {
    const spots = Catalog.load().spots;
    const approximate = spots.filter((s) => s.coord.confidence === "approximate");
    expect(MAX_CATALOGUE_APPROXIMATE_SHARE).toBe(0.2);
    expect(approximate.length / spots.length).toBeLessThanOrEqual(MAX_CATALOGUE_APPROXIMATE_SHARE);
    for (const s of approximate) expect(s.coord.note.length, s.id).toBeGreaterThan(20);
  });
});
