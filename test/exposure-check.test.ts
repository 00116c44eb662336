// The open-water fetch of `npm run data:exposure`, on a synthetic coastline: a square island one
// degree across (~111 km) on the equator, and a second island east of it. Checks that a ray meets
// land where the geometry puts it, that land next to the spot is ignored, and which octants a
// listed exposure gets flagged or noted for.
import { describe, expect, it } from "vitest";
import { exposureFlags, FETCH_CAP_KM, fetchLine, formatFetch, NEAR_LAND_IGNORED_KM, octantFetches, rayFetchKm } from "../scripts/check-exposure.js";
import { coastlineFromRings } from "../scripts/coastline.js";

/** A closed [lon, lat] ring round the box. */
const box = (west: number, south: number, east: number, north: number) => [
  [west, south],
  [east, south],
  [east, north],
  [west, north],
  [west, south],
];
const island = coastlineFromRings([box(0, 0, 1, 1)]);
const twoIslands = coastlineFromRings([box(0, 0, 1, 1), box(2, 0, 2.5, 1)]);
/** Half a km off the island's east shore, halfway up it. */
const EAST_SHORE = { lat: 0.5, lon: 1.005 };
/** Km per degree of longitude at latitude 0.5 (mean Earth radius). */
const KM_PER_DEG = (Math.PI / 180) * 6371.0088 * Math.cos((0.5 * Math.PI) / 180);

describe("data:exposure fetch", () => {
  it("reads land close to the W and open water to the E from the island's east shore", () => {
    const { lat, lon } = EAST_SHORE;
    expect(rayFetchKm(island, lat, lon, 270)).toBe(NEAR_LAND_IGNORED_KM);
    expect(rayFetchKm(island, lat, lon, 90)).toBe(FETCH_CAP_KM);
  });

  it("ignores the land next to a spot placed 1 km inside the generalised coast", () => {
    expect(island.onLand(0.5, 0.991)).toBe(true);
    expect(rayFetchKm(island, 0.5, 0.991, 90)).toBe(FETCH_CAP_KM);
    expect(rayFetchKm(island, 0.5, 0.991, 270)).toBe(NEAR_LAND_IGNORED_KM);
  });

  it("measures the open water to the next island (within a step of the coast)", () => {
    const km = rayFetchKm(twoIslands, EAST_SHORE.lat, EAST_SHORE.lon, 90);
    expect(km).toBeGreaterThanOrEqual((2 - 1.005) * KM_PER_DEG - 0.3);
    expect(km).toBeLessThanOrEqual((2 - 1.005) * KM_PER_DEG + 0.3);
  });

  it("takes the median of an octant's three rays", () => {
    const byOctant = Object.fromEntries(octantFetches(island, EAST_SHORE.lat, EAST_SHORE.lon).map((f) => [f.octant, f]));
    // N: the −15° ray cuts back over the island, the centre ray runs along the shore half a km off.
    expect(byOctant.N!.rays).toEqual([NEAR_LAND_IGNORED_KM, FETCH_CAP_KM, FETCH_CAP_KM]);
    expect(byOctant.N!.km).toBe(FETCH_CAP_KM);
    expect(byOctant.W!.km).toBe(NEAR_LAND_IGNORED_KM);
    expect(byOctant.E!.km).toBe(FETCH_CAP_KM);
  });

  it("flags a listed octant with land near, and notes an unlisted one open to the sea", () => {
    const fetches = octantFetches(island, EAST_SHORE.lat, EAST_SHORE.lon);
    const flags = exposureFlags(["E", "W"], fetches);
    expect(flags.map((f) => [f.kind, f.octant, f.rays])).toEqual([
      ["open", "N", 2],
      ["open", "NE", 3],
      ["open", "SE", 3],
      ["open", "S", 2],
      ["short", "W", 3],
    ]);
    expect(flags.find((f) => f.octant === "W")!.message).toBe(
      "listed exposed to W but land lies ≤3.5 km to the W (all rays, −15°/0°/+15°: ≤3.5 / ≤3.5 / ≤3.5 km): likely wrong, or a swell that only wraps in by refraction",
    );
    expect(flags.find((f) => f.octant === "N")!.message).toMatch(/^open ocean to the N for 500\+ km but N not listed \(2 of 3 rays, −15°\/0°\/\+15°: ≤3\.5 \/ 500\+ \/ 500\+ km\)/);
    expect(fetchLine(["E", "W"], fetches)).toBe("N 500+ · NE 500+ · [E 500+] · SE 500+ · S 500+ · SW ≤3.5 · [W ≤3.5] · NW ≤3.5");
    expect(exposureFlags(["N", "NE", "E", "SE", "S"], fetches)).toEqual([]);
  });

  it("prints a fetch as km", () => {
    expect([2, 3.5, 4.25, 12.4, 499.9, 500].map(formatFetch)).toEqual(["≤3.5", "≤3.5", "4.3", "12", "500", "500+"]);
  });
});
