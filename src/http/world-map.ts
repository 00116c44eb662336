// The front page's world map: an equirectangular projection shared by the script that draws the
// land (scripts/world-map.ts, from Natural Earth) and the page that places the spots on it, and the
// land outline that script checked in (data/map/land-110m.json), read at run time as plain JSON.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR } from "../paths.js";

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
