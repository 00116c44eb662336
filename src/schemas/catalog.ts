// SpotList (GET /api/v1/spots) and Coverage (GET /api/v1/coverage, list_coverage), spec section 2.
import { z } from "zod";
import { ACTIVITY_IDS } from "../base/activities.js";
import { DateTime, RegionRef, SourceSchema, Uri } from "./common.js";

export const ActivityIdSchema = z.enum(ACTIVITY_IDS);

export const ActivityInfoSchema = z
  .strictObject({
    id: ActivityIdSchema,
    label: z.string(),
    model: z.enum(["native", "proxy", "unsupported"]),
    note: z.string(),
  })
  .meta({ id: "ActivityInfo" });

export const SpotListItem = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    region: RegionRef,
    lat: z.number(),
    lon: z.number(),
    timezone: z.string().nullable(),
    distance_km: z.number().optional().meta({ description: "Present only when lat/lon was given" }),
    links: z.strictObject({ conditions: Uri, page: Uri }),
  })
  .meta({ id: "Spot" });

export const SpotListSchema = z
  .strictObject({
    schema: z.literal("service.spots.v1"),
    source: SourceSchema,
    regions: z.array(RegionRef.extend({ spot_count: z.number().int() })),
    spots: z.array(SpotListItem),
    notes: z.array(z.string()).meta({ description: "Said when a filter matched nothing: an unknown region (with the regions it may mean) or a query no spot matches" }),
  })
  .meta({ id: "SpotList", description: "Directory of covered spots; metadata only." });
export type SpotListJson = z.infer<typeof SpotListSchema>;

export const CoverageRegionSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    country: z.string().nullable(),
    admin1: z.string().nullable(),
    decision_support: z.enum(["full", "conditions_only"]),
    spot_count: z.number().int(),
    bbox: z.strictObject({ south: z.number(), west: z.number(), north: z.number(), east: z.number() }),
    spots: z.array(z.strictObject({ id: z.string(), name: z.string(), lat: z.number(), lon: z.number() })),
  })
  .meta({ id: "CoverageRegion" });

export const CoverageSchema = z
  .strictObject({
    schema: z.literal("service.coverage.v1"),
    source: SourceSchema,
    generated_at: DateTime,
    notes: z.array(z.string()),
    activities: z.array(ActivityInfoSchema),
    regions: z.array(CoverageRegionSchema),
  })
  .meta({ id: "Coverage", description: "Regions and spots covered, and how each activity is modelled." });
export type CoverageJson = z.infer<typeof CoverageSchema>;
