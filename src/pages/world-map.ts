// The front page's world map: an equirectangular projection shared by the script that draws the
// land (scripts/world-map.ts, from Natural Earth) and the page that places the spots on it, and the
// land outline that script checked in (data/map/land-110m.json), read at run time as plain JSON.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR } from "../base/paths.js";

/** The map's frame: every longitude, latitudes from 84° N to 60° S (no spot lies south of 45° S). */
export const MAP = { north: 84, south: -60, pxPerDegree: 2.5 } as const;
export const MAP_WIDTH = 360 * MAP.pxPerDegree;
export const MAP_HEIGHT = (MAP.north - MAP.south) * MAP.pxPerDegree;

/** Map x, y (in the SVG's viewBox) of a longitude and latitude, to 0.1 px. */
export function project(lon: number, lat: number): [number, number] {
  const round = (v: number) => Math.round(v * 10) / 10;
  return [round((lon + 180) * MAP.pxPerDegree), round((MAP.north - lat) * MAP.pxPerDegree)];
}

/** The checked-in land outline: where it came from and one SVG path. */
export interface LandAsset {
  source: string;
  license: string;
  width: number;
  height: number;
  d: string;
}

export const LAND_ASSET_PATH = join(DATA_DIR, "map", "land-110m.json");

let land: LandAsset | undefined;
export function landAsset(): LandAsset {
  land ??= JSON.parse(readFileSync(LAND_ASSET_PATH, "utf8")) as LandAsset;
  return land;
}

// --- region maps ----------------------------------------------------------------------------------

/** A region map's width in viewBox units; its height follows the region's shape. */
export const REGION_MAP_WIDTH = 640;
const REGION_MAP_MIN_ASPECT = 0.5;
const REGION_MAP_MAX_ASPECT = 1;
/** Sea or land shown around the outermost spots: this share of the spots' span, at least MIN_PAD_DEG. */
const REGION_MAP_PAD = 0.2;
const REGION_MAP_MIN_PAD_DEG = 0.05;

/** A region map's frame: the degrees it spans and where a longitude and latitude fall on it. */
export interface RegionFrame {
  west: number;
  south: number;
  east: number;
  north: number;
  width: number;
  height: number;
}

/**
 * The frame around a region's spots, padded, widened or heightened to an aspect between 1:2 and
 * 1:1, in a local equirectangular projection (longitude scaled by the cosine of the middle latitude,
 * so a short hop east looks as long as the same hop north).
 */
export function regionFrame(bbox: { west: number; south: number; east: number; north: number }): RegionFrame {
  const k = Math.cos((((bbox.south + bbox.north) / 2) * Math.PI) / 180);
  let lonSpan = bbox.east - bbox.west;
  let latSpan = bbox.north - bbox.south;
  const pad = Math.max(REGION_MAP_MIN_PAD_DEG, REGION_MAP_PAD * Math.max(lonSpan * k, latSpan));
  lonSpan += (2 * pad) / k;
  latSpan += 2 * pad;
  const aspect = latSpan / (lonSpan * k);
  if (aspect < REGION_MAP_MIN_ASPECT) latSpan = REGION_MAP_MIN_ASPECT * lonSpan * k;
  if (aspect > REGION_MAP_MAX_ASPECT) lonSpan = latSpan / (REGION_MAP_MAX_ASPECT * k);
  const midLon = (bbox.west + bbox.east) / 2;
  const midLat = (bbox.south + bbox.north) / 2;
  const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
  return {
    west: r6(midLon - lonSpan / 2),
    east: r6(midLon + lonSpan / 2),
    south: r6(midLat - latSpan / 2),
    north: r6(midLat + latSpan / 2),
    width: REGION_MAP_WIDTH,
    height: Math.round((REGION_MAP_WIDTH * latSpan) / (lonSpan * k)),
  };
}

/** x, y of a longitude and latitude in a region frame's viewBox, to 0.1. */
export function projectInFrame(f: RegionFrame, lon: number, lat: number): [number, number] {
  const round = (v: number) => Math.round(v * 10) / 10;
  return [round(((lon - f.west) / (f.east - f.west)) * f.width), round(((f.north - lat) / (f.north - f.south)) * f.height)];
}

/** The checked-in region outlines: where they came from, and per region its frame and land path. */
export interface RegionMapsAsset {
  source: string;
  license: string;
  regions: Record<string, { frame: RegionFrame; d: string }>;
}

export const REGION_MAPS_PATH = join(DATA_DIR, "map", "regions-10m.json");

let regionMaps: RegionMapsAsset | undefined;
export function regionMapsAsset(): RegionMapsAsset {
  regionMaps ??= JSON.parse(readFileSync(REGION_MAPS_PATH, "utf8")) as RegionMapsAsset;
  return regionMaps;
}
