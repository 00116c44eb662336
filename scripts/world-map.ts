// Draws the front page's land outline from Natural Earth's 1:110m land (public domain, as TopoJSON in
// the devDependency world-atlas) into data/map/land-110m.json: one SVG path in the projection of
// src/http/world-map.ts, simplified to what a 900-px-wide map can show. The service reads only that
// file; test/front-page.test.ts checks it is what this script makes. `npm run data:map`.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { LAND_ASSET_PATH, MAP, MAP_HEIGHT, MAP_WIDTH, project, type LandAsset } from "../src/http/world-map.js";

/** Points closer than this to the last kept one are dropped, px. */
const MIN_STEP_PX = 2;
/** Rings smaller than this (an islet a few px across) are left out, px². */
const MIN_AREA_PX2 = 1;

type Ring = [number, number][];

function area(ring: Ring): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += (ring[j]![0] + ring[i]![0]) * (ring[j]![1] - ring[i]![1]);
  return Math.abs(a / 2);
}

function pathOf(ring: Ring): string {
  const kept: Ring = [];
  for (const p of ring) {
    const last = kept[kept.length - 1];
    if (!last || Math.hypot(p[0] - last[0], p[1] - last[1]) >= MIN_STEP_PX) kept.push(p);
  }
  if (kept.length < 3 || area(kept) < MIN_AREA_PX2) return "";
  // Whole pixels: finer than the 1:110m outline at this scale.
  return "M" + kept.map(([x, y]) => `${Math.round(x)} ${Math.round(y)}`).join("L") + "Z";
}

/** The land asset, made now from world-atlas. */
export function makeLandAsset(): LandAsset {
  const require = createRequire(import.meta.url);
  const topology = JSON.parse(readFileSync(require.resolve("world-atlas/land-110m.json"), "utf8")) as Topology<{ land: GeometryCollection }>;
  const land = feature(topology, topology.objects.land);
  const polygons = land.features.flatMap((f) => (f.geometry.type === "MultiPolygon" ? f.geometry.coordinates : f.geometry.type === "Polygon" ? [f.geometry.coordinates] : []));
  const parts: string[] = [];
  for (const polygon of polygons) {
    for (const lonLat of polygon) {
      // Antarctica lies below the frame; its ring circles the pole and cannot be unwrapped.
      if (Math.max(...lonLat.map((p) => p[1]!)) < MAP.south + 5) continue;
      // Unwrap a ring crossing the antimeridian, then draw it once more a world to the west.
      const unwrapped: number[][] = [];
      for (const [lon, lat] of lonLat as [number, number][]) {
        const prev = unwrapped[unwrapped.length - 1];
        let l = lon;
        while (prev && l - prev[0]! > 180) l -= 360;
        while (prev && prev[0]! - l > 180) l += 360;
        unwrapped.push([l, Math.max(MAP.south, Math.min(MAP.north, lat))]);
      }
      const shifts = Math.max(...unwrapped.map((p) => p[0]!)) > 180 ? [0, -360] : Math.min(...unwrapped.map((p) => p[0]!)) < -180 ? [0, 360] : [0];
      for (const shift of shifts) parts.push(pathOf(unwrapped.map(([lon, lat]) => project(lon! + shift, lat!))));
    }
  }
  return {
    source: "Natural Earth 1:110m land (naturalearthdata.com), via world-atlas 2 land-110m.json; drawn by scripts/world-map.ts",
    license: "public domain",
    width: MAP_WIDTH,
    height: MAP_HEIGHT,
    d: parts.join(""),
  };
}

if (process.argv[1]?.endsWith("world-map.ts")) {
  const asset = makeLandAsset();
  writeFileSync(LAND_ASSET_PATH, JSON.stringify(asset) + "\n");
  console.log(`${LAND_ASSET_PATH}: ${(asset.d.length / 1024).toFixed(0)} KB of path`);
}
