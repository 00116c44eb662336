// Decision-request parameters (spec section 4: recommendations and best-day), parsed once for REST
// and MCP with the spec's error codes, and the destination they name resolved against the catalogue.
import { ACTIVITY_IDS, activity as activityById, isActivityId, type Activity } from "../base/activities.js";
import type { Region, Spot } from "../catalog/catalog.js";
import type { ServiceContext } from "../services/context.js";
import { ServiceError } from "../base/errors.js";
import { roundKm } from "../catalog/geo.js";
import { z } from "zod";
import { DEFAULT_LIMIT, DEFAULT_RADIUS_KM, HORIZON_DAYS, MAX_PICKS, MAX_RADIUS_KM, MAX_SPOTS_CONSIDERED, SPOT_ID_PATTERN } from "../base/limits.js";
import { optionalString, parseNumber, parsePoint, parseSpotId, resolveSpot, type Point, type Raw } from "../catalog/params.js";
import { addDays } from "../base/zone.js";
import { didYouMean, suggestRegions, suggestValue } from "../catalog/suggest.js";

/**
 * The advertised input fields both decision tools share: the activity and where (a region, one
 * spot, or a point and radius). `spotMeans` says what giving one spot does for the tool.
 */
export function destinationInputShape(spotMeans: string) {
  return {
    activity: z.enum(ACTIVITY_IDS).describe("snorkel, dive, freedive, spearfish (surf returns activity_not_modeled)"),
    region: z.string().max(64).optional().describe("Region id from list_coverage, e.g. us-hi-oahu"),
    spot: z.string().regex(SPOT_ID_PATTERN).optional().describe(`Spot id: ${spotMeans}`),
    lat: z.number().min(-90).max(90).optional().describe("Latitude, with lon"),
    lon: z.number().min(-180).max(180).optional().describe("Longitude, with lat"),
    radius_km: z.number().gt(0).max(MAX_RADIUS_KM).optional().describe(`Around lat/lon; default ${DEFAULT_RADIUS_KM}`),
  };
}

/** The destination part of a decision answer's `query` echo, in response order. */
export function destinationEcho(q: DecisionQuery) {
  return { activity: q.activityRaw, region: q.regionId, spot: q.spotId, lat: q.point?.lat ?? null, lon: q.point?.lon ?? null, radius_km: q.radiusGiven };
}

export interface DecisionInput {
  activity?: Raw;
  region?: Raw;
  spot?: Raw;
  lat?: Raw;
  lon?: Raw;
  radius_km?: Raw;
}

export interface Candidate {
  spot: Spot;
  /** Great-circle distance from the query point; null for region and spot queries. */
  distanceKm: number | null;
}

/** Where the user asked about, resolved. */
export type Destination =
  | {
      covered: true;
      kind: "spot" | "region" | "point";
      region: Region;
      candidates: Candidate[];
      /** Spots in range beyond the per-call limit of MAX_SPOTS_CONSIDERED. */
      overLimit: Candidate[];
      point: Point | null;
      nearest: { spot: Spot; distanceKm: number } | null;
    }
  | { covered: false; point: Point; nearest: { spot: Spot; distanceKm: number } };

export interface DecisionQuery {
  activity: Activity;
  activityRaw: string;
  regionId: string | null;
  spotId: string | null;
  point: Point | null;
  radiusKm: number;
  radiusGiven: number | null;
}

const ALLOWED_ACTIVITIES = `Allowed values: ${ACTIVITY_IDS.join(", ")}.`;

export function parseActivity(v: Raw): Activity {
  let s: string | undefined;
  try {
    s = optionalString("activity", v);
  } catch (e) {
    // A repeated or non-text activity: the spec wants the allowed values in every unknown_activity.
    throw new ServiceError("unknown_activity", `${(e as ServiceError).detail} ${ALLOWED_ACTIVITIES}`, { extra: { allowed: [...ACTIVITY_IDS] } });
  }
  if (s === undefined) {
    throw new ServiceError("missing_activity", `Give an \`activity\`: one of ${ACTIVITY_IDS.join(", ")}.`);
  }
  const id = s.toLowerCase();
  if (!isActivityId(id)) {
    const suggestions = suggestValue(ACTIVITY_IDS, s);
    throw new ServiceError(
      "unknown_activity",
      `Unknown activity ${JSON.stringify(s)}.${didYouMean(suggestions)} ${ALLOWED_ACTIVITIES} Kite, windsurf and wing sports have no decision model; wind facts for every spot are in the conditions endpoint.`,
      { extra: { allowed: [...ACTIVITY_IDS], suggestions } },
    );
  }
  return activityById(id);
}

export function parseDecisionQuery(input: DecisionInput): DecisionQuery {
  const activity = parseActivity(input.activity);
  const regionId = optionalString("region", input.region) ?? null;
  const spotId = parseSpotId(input.spot) ?? null;
  const point = parsePoint(input.lat, input.lon) ?? null;
  const given = [regionId !== null, spotId !== null, point !== null].filter(Boolean).length;
  if (given === 0) throw new ServiceError("missing_location", "Give one location: `region`, `spot`, or `lat` and `lon`.");
  if (given > 1) throw new ServiceError("ambiguous_location", "Give exactly one location: `region`, `spot`, or `lat` and `lon`, not several.");
  const radius = parseNumber("radius_km", input.radius_km, "invalid_radius");
  if (radius !== undefined && !(radius > 0 && radius <= MAX_RADIUS_KM)) {
    throw new ServiceError("invalid_radius", `\`radius_km\` must be more than 0 and at most ${MAX_RADIUS_KM}; got ${radius}.`);
  }
  return {
    activity,
    // Accepted in any case ("Snorkel"), echoed as the id it was read as: the echo stays inside the enum.
    activityRaw: activity.id,
    regionId,
    spotId,
    point,
    radiusKm: radius ?? DEFAULT_RADIUS_KM,
    radiusGiven: radius ?? null,
  };
}

export function parseLimit(v: Raw): number {
  const n = parseNumber("limit", v, "invalid_limit");
  if (n === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PICKS) {
    throw new ServiceError("invalid_limit", `\`limit\` must be a whole number from 1 to ${MAX_PICKS}; got ${n}.`);
  }
  return n;
}

/**
 * Resolves the destination. An unknown spot or region → 404 unknown_spot: the spec lists no other
 * 404 code for decisions, so an unknown region is refused with it and its detail names the region.
 */
export function resolveDestination(q: DecisionQuery, ctx: Pick<ServiceContext, "catalog">): Destination {
  const catalog = ctx.catalog;
  if (q.spotId !== null) {
    const spot = resolveSpot(catalog, q.spotId);
    return { covered: true, kind: "spot", region: spot.region, candidates: [{ spot, distanceKm: null }], overLimit: [], point: null, nearest: null };
  }
  if (q.regionId !== null) {
    const region = catalog.region(q.regionId);
    if (!region) {
      // A region is often guessed by its place's name ("cozumel", "maui"): say which region that is.
      const suggestions = suggestRegions(catalog, q.regionId).map((r) => r.id);
      throw new ServiceError(
        "unknown_spot",
        `No region with id \`${q.regionId}\`, so no spot to rank.${didYouMean(suggestions)} Regions (list_coverage; REST: /api/v1/coverage): ${catalog.regions.map((r) => r.id).join(", ")}.`,
        { extra: { region: q.regionId, suggestions, regions: catalog.regions.map((r) => r.id) } },
      );
    }
    const all = region.spots.map((spot) => ({ spot, distanceKm: null }));
    return {
      covered: true,
      kind: "region",
      region,
      candidates: all.slice(0, MAX_SPOTS_CONSIDERED),
      overLimit: all.slice(MAX_SPOTS_CONSIDERED),
      point: null,
      nearest: null,
    };
  }
  const point = q.point!;
  const nearest = catalog.nearest(point.lat, point.lon);
  if (nearest.distanceKm > q.radiusKm) return { covered: false, point, nearest };
  // Picks never span regions: use the region of the nearest covered spot.
  const region = nearest.spot.region;
  const inRange = catalog
    .byDistance(point.lat, point.lon, region.spots)
    .filter((d) => d.distanceKm <= q.radiusKm)
    .map((d) => ({ spot: d.spot, distanceKm: roundKm(d.distanceKm) }));
  return {
    covered: true,
    kind: "point",
    region,
    candidates: inRange.slice(0, MAX_SPOTS_CONSIDERED),
    overLimit: inRange.slice(MAX_SPOTS_CONSIDERED),
    point,
    nearest,
  };
}

/** An explicit decision date must lie in today … today + 6 (spot-local); otherwise 422 outside_horizon. */
export function assertWithinHorizon(date: string, today: string): void {
  const lastDay = addDays(today, HORIZON_DAYS - 1);
  if (date < today || date > lastDay) {
    throw new ServiceError("outside_horizon", `date ${date} is outside the forecast horizon: ${today} (today, spot-local) through ${lastDay}.`, {
      extra: { available_from: today, available_to: lastDay },
    });
  }
}
