// Draws the front page's land outline from Natural Earth's 1:110m land (public domain, as TopoJSON in
// the devDependency world-atlas) into data/map/land-110m.json: one SVG path in the projection of
// src/pages/world-map.ts, simplified to what a 900-px-wide map can show. And each region page's map:
// the 1:10m land clipped to the region's frame (regionFrame), into data/map/regions-10m.json. The
// service reads only those files; test/front-page.test.ts and test/region-page.test.ts check they
// are what this script makes. Run after adding a region or moving a spot: `npm run data:map`.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { Catalog } from "../src/catalog/catalog.js";
import { LAND_ASSET_PATH, MAP, MAP_HEIGHT, MAP_WIDTH, project, projectInFrame, REGION_MAPS_PATH, regionFrame, type LandAsset, type RegionFrame, type RegionMapsAsset } from "../src/pages/world-map.js";

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

function pathOf(ring: Ring, minStep = MIN_STEP_PX, minArea = MIN_AREA_PX2): string {
  const kept: Ring = [];
  for (const p of ring) {
    const last = kept[kept.length - 1];
    if (!last || Math.hypot(p[0] - last[0], p[1] - last[1]) >= minStep) kept.push(p);
  }
  if (kept.length < 3 || area(kept) < minArea) return "";
  // Whole pixels: finer than the 1:110m outline at this scale.
  return "M" + kept.map(([x, y]) => `${Math.round(x)} ${Math.round(y)}`).join("L") + "Z";
}

/** Sutherland–Hodgman: the part of a ring inside the rectangle [x0, x1] × [y0, y1]. */
function clipRing(ring: Ring, x0: number, y0: number, x1: number, y1: number): Ring {
  const edges: [(p: [number, number]) => boolean, (a: [number, number], b: [number, number]) => [number, number]][] = [
    [(p) => p[0] >= x0, (a, b) => [x0, a[1] + ((b[1] - a[1]) * (x0 - a[0])) / (b[0] - a[0])]],
    [(p) => p[0] <= x1, (a, b) => [x1, a[1] + ((b[1] - a[1]) * (x1 - a[0])) / (b[0] - a[0])]],
    [(p) => p[1] >= y0, (a, b) => [a[0] + ((b[0] - a[0]) * (y0 - a[1])) / (b[1] - a[1]), y0]],
    [(p) => p[1] <= y1, (a, b) => [a[0] + ((b[0] - a[0]) * (y1 - a[1])) / (b[1] - a[1]), y1]],
  ];
  let out = ring;
  for (const [inside, cross] of edges) {
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const cur = input[i]!;
      const prev = input[(i + input.length - 1) % input.length]!;
      if (inside(cur)) {
        if (!inside(prev)) out.push(cross(prev, cur));
        out.push(cur);
      } else if (inside(prev)) out.push(cross(prev, cur));
    }
    if (out.length === 0) break;
  }
  return out;
}

/** Every region's map: the 1:10m land inside its frame, in the frame's viewBox, to the pixel. */
export function makeRegionMaps(catalog = Catalog.load()): RegionMapsAsset {
  const require = createRequire(import.meta.url);
  const topology = JSON.parse(readFileSync(require.resolve("world-atlas/land-10m.json"), "utf8")) as Topology<{ land: GeometryCollection }>;
  const land = feature(topology, topology.objects.land);
  const rings = land.features.flatMap((f) => (f.geometry.type === "MultiPolygon" ? f.geometry.coordinates.flat() : f.geometry.type === "Polygon" ? f.geometry.coordinates : [])) as [
    number,
    number,
  ][][];
  const boxes = rings.map((r) => {
    let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [lon, lat] of r) [w, s, e, n] = [Math.min(w, lon), Math.min(s, lat), Math.max(e, lon), Math.max(n, lat)];
    return { w, s, e, n };
  });
  const regions: RegionMapsAsset["regions"] = {};
  for (const region of [...catalog.regions].sort((a, b) => a.id.localeCompare(b.id))) {
    const frame: RegionFrame = regionFrame(region.bbox);
    const parts: string[] = [];
    rings.forEach((ring, i) => {
      const b = boxes[i]!;
      if (b.e < frame.west || b.w > frame.east || b.n < frame.south || b.s > frame.north) return;
      // A margin outside the frame, so a clipped edge never shows as a coastline.
      const clipped = clipRing(
        ring.map(([lon, lat]) => projectInFrame(frame, lon, lat)),
        -4,
        -4,
        frame.width + 4,
        frame.height + 4,
      );
      if (clipped.length >= 3) parts.push(pathOf(clipped, 1.5, 2));
    });
    regions[region.id] = { frame, d: parts.join("") };
  }
  return { source: "Natural Earth 1:10m land (naturalearthdata.com), via world-atlas 2 land-10m.json; clipped per region by scripts/world-map.ts", license: "public domain", regions };
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
  const maps = makeRegionMaps();
  const text = JSON.stringify(maps) + "\n";
  writeFileSync(REGION_MAPS_PATH, text);
  console.log(`${REGION_MAPS_PATH}: ${Object.keys(maps.regions).length} regions, ${(text.length / 1024).toFixed(0)} KB`);
}
