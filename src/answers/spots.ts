// The spots directory (GET /api/v1/spots): metadata only, filtered by region and name, or sorted
// by distance from a point.
import { z } from "zod";
import type { ServiceContext } from "../services/context.js";
import { round } from "../catalog/geo.js";
import { optionalString, parsePoint, type Raw } from "../catalog/params.js";
import type { SpotListJson } from "../schemas/catalog.js";
import { regionRef } from "../schemas/refs.js";
import { byCodeUnit } from "../base/order.js";
import { didYouMean, suggestRegions, suggestSpots } from "../catalog/suggest.js";

/** The spots directory's query parameters, as documented in the OpenAPI document. */
export const SpotsQuerySchema = z.object({
  region: z.string().max(64).optional().describe("Region id filter, e.g. us-hi-oahu"),
  q: z.string().max(64).optional().describe("Words to find, case- and accent-insensitive: every word must start a word of the spot's name, its region's name or id, or its id"),
  lat: z.number().min(-90).max(90).optional().describe("Latitude: sort by distance from this point (with lon)"),
  lon: z.number().min(-180).max(180).optional().describe("Longitude (with lat)"),
});

export interface ListSpotsInput {
  region?: Raw;
  q?: Raw;
  lat?: Raw;
  lon?: Raw;
}

export function listSpots(input: ListSpotsInput, ctx: Pick<ServiceContext, "catalog" | "links" | "source">): SpotListJson {
  const regionId = optionalString("region", input.region);
  const q = optionalString("q", input.q);
  const point = parsePoint(input.lat, input.lon);
  let spots = q === undefined ? [...ctx.catalog.spots] : ctx.catalog.search(q);
  if (regionId !== undefined) spots = spots.filter((s) => s.region.id === regionId);
  const distances = point ? new Map(ctx.catalog.byDistance(point.lat, point.lon, spots).map((d) => [d.spot.id, d.distanceKm])) : null;
  if (distances) spots.sort((a, b) => distances.get(a.id)! - distances.get(b.id)! || byCodeUnit(a.id, b.id));
  const regionIds = new Set(spots.map((s) => s.region.id));
  const notes: string[] = [];
  if (regionId !== undefined && !ctx.catalog.region(regionId)) {
    notes.push(`No region has id ${JSON.stringify(regionId)}.${didYouMean(suggestRegions(ctx.catalog, regionId).map((r) => r.id))} The regions are listed by /api/v1/coverage.`);
  } else if (spots.length === 0 && q !== undefined) {
    notes.push(`No spot matches ${JSON.stringify(q)} in every word.${didYouMean(suggestSpots(ctx.catalog, q).map((s) => s.id))}`);
  }
  return {
    schema: "service.spots.v1",
    source: ctx.source,
    regions: ctx.catalog.regions.filter((r) => regionIds.has(r.id)).map((r) => ({ ...regionRef(r), spot_count: spots.filter((s) => s.region.id === r.id).length })),
    spots: spots.map((s) => ({
      id: s.id,
      name: s.name,
      region: regionRef(s.region),
      lat: s.lat,
      lon: s.lon,
      timezone: s.timezone,
      ...(distances ? { distance_km: round(distances.get(s.id)!, 2) } : {}),
      links: { conditions: ctx.links.conditions(s.id), page: ctx.links.spotPage(s.id) },
    })),
    notes,
  };
}
