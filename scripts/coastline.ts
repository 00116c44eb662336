// Land or sea, and distance to the coast, from Natural Earth's 1:10m land polygons (public domain),
// as redistributed in the npm package world-atlas (land-10m.json, TopoJSON quantised to a 1e5 grid:
// 0.0036° of longitude by 0.0017° of latitude, about 370 m by 190 m at the equator). A data tool
// for `npm run data:check` only: world-atlas and topojson-client are devDependencies and the
// service never loads this file.
//
// Both queries go through a latitude-band index of the coastline segments, so a query reads a few
// thousand segments rather than the ~405,000 of the whole coastline (index built in ~0.3 s):
// - on land: even–odd ray casting eastward along the point's latitude over every ring at once (a
//   lake is a hole, an island in a lake is another ring, so parity gives the right answer without
//   knowing which ring is which); rings crossing the antimeridian are unwrapped;
// - distance: point-to-segment in a local equirectangular plane centred on the point (error well
//   under 1 % within the few tens of km asked about), reading bands outward until no nearer
//   segment can exist.
import { createRequire } from "node:module";
import { feature } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import { EARTH_RADIUS_KM } from "../src/catalog/geo.js";

/**
 * How far inside the 1:10m land a spot may lie, km. Natural Earth 1:10m is generalised: its
 * vertices are 0.5–9 km apart on the catalogue's coasts, and world-atlas quantises them to
 * ~370 × 190 m, so coves, harbours and estuaries narrower than a chord are drawn as land. Measured
 * over the 274 spots (Nov 2026): 185 at sea; 89 on land, median 0.38 km, 90th percentile 1.31 km,
 * max 2.95 km inland (Kukutauwhao, in Tutukaka Harbour, which a 2.7 km chord closes off), then
 * 2.58 km (Long Beach, Simon's Town: a dive guide's and Wikivoyage's slipway positions agree within
 * 40 m; the 1:10m shore lies 2.5 km east), 2.27 km (Shiprock, placed from a description in the
 * Port Hacking estuary, which 1:10m leaves out) and 2.25 km (Waipouri Cove); two yacht anchorages
 * in 9–28 m of water at Komodo measure 1.0–1.5 km inland. 3.5 km keeps a margin of more than one
 * quantisation step above the worst correct spot. It catches a sign flip or a swapped digit that
 * lands more than 3.5 km inland and a point placed at a town, airport or resort that far behind the
 * coast; it cannot catch a point 1–3.5 km inland where the 1:10m coast is coarse (a 5.3 km chord
 * lies 2 km off Sydney's Gordons Bay), and a lower figure would reject correct spots.
 */
export const SHORE_TOLERANCE_KM = 3.5;

const KM_PER_DEG = (Math.PI / 180) * EARTH_RADIUS_KM;
/** Band height in degrees of latitude (~11 km). */
const BAND_DEG = 0.1;
const BANDS = Math.ceil(180 / BAND_DEG);

export interface Coastline {
  /** Whether the point lies inside a 1:10m land polygon. */
  onLand(lat: number, lon: number): boolean;
  /** Distance in km to the nearest coastline segment, or null if none lies within `maxKm`. */
  coastKm(lat: number, lon: number, maxKm: number): number | null;
  /** Number of coastline segments indexed. */
  readonly segments: number;
}

const bandOf = (lat: number) => Math.min(BANDS - 1, Math.max(0, Math.floor((lat + 90) / BAND_DEG)));

/** Builds the index from rings of [lon, lat] positions (each ring closed: last point = first). */
export function coastlineFromRings(rings: readonly (readonly (readonly number[])[])[]): Coastline {
  let n = 0;
  for (const r of rings) n += Math.max(0, r.length - 1);
  // Segment i runs from (x1[i], y1[i]) to (x2[i], y2[i]), lon/lat degrees.
  const x1 = new Float64Array(n);
  const y1 = new Float64Array(n);
  const x2 = new Float64Array(n);
  const y2 = new Float64Array(n);
  const bandCount = new Uint32Array(BANDS + 1);
  let i = 0;
  for (const r of rings) {
    // Unwrapped longitudes: a ring that crosses the antimeridian (Fiji, Chukotka) continues past
    // ±180 instead of jumping across the map, which would make it a band around the world.
    let shift = 0;
    for (let k = 0; k + 1 < r.length; k++, i++) {
      const step = r[k + 1]![0]! - r[k]![0]!;
      x1[i] = r[k]![0]! + shift;
      shift += step > 180 ? -360 : step < -180 ? 360 : 0;
      x2[i] = r[k + 1]![0]! + shift;
      y1[i] = r[k]![1]!;
      y2[i] = r[k + 1]![1]!;
      for (let b = bandOf(Math.min(y1[i]!, y2[i]!)); b <= bandOf(Math.max(y1[i]!, y2[i]!)); b++) bandCount[b + 1]!++;
    }
  }
  // Compressed band lists: the segments of band b are bandSegs[bandStart[b] .. bandStart[b + 1]).
  const bandStart = new Uint32Array(BANDS + 1);
  for (let b = 0; b < BANDS; b++) bandStart[b + 1] = bandStart[b]! + bandCount[b + 1]!;
  const fill = bandStart.slice(0, BANDS);
  const bandSegs = new Uint32Array(bandStart[BANDS]!);
  for (let s = 0; s < n; s++) {
    for (let b = bandOf(Math.min(y1[s]!, y2[s]!)); b <= bandOf(Math.max(y1[s]!, y2[s]!)); b++) bandSegs[fill[b]!++] = s;
  }

  function onLand(lat: number, lon: number): boolean {
    const b = bandOf(lat);
    let inside = false;
    for (let j = bandStart[b]!; j < bandStart[b + 1]!; j++) {
      const s = bandSegs[j]!;
      const ya = y1[s]!;
      const yb = y2[s]!;
      if (ya > lat === yb > lat) continue;
      const x = x1[s]! + ((lat - ya) / (yb - ya)) * (x2[s]! - x1[s]!);
      // A ring unwrapped past ±180 is tested from the point's copies a turn east and west too; a
      // ray from outside a ring crosses it an even number of times, so the copies that miss it
      // leave the parity alone.
      for (const x0 of [lon - 360, lon, lon + 360]) if (x > x0) inside = !inside;
    }
    return inside;
  }

  function coastKm(lat: number, lon: number, maxKm: number): number | null {
    const kx = KM_PER_DEG * Math.cos((lat * Math.PI) / 180);
    const ky = KM_PER_DEG;
    const home = bandOf(lat);
    let best = Infinity;
    for (let d = 0; d <= BANDS; d++) {
      // A segment met first in a band d away lies at least (d - 1) band heights from the point.
      const r = Math.min(best, maxKm);
      if (r < (d - 1) * BAND_DEG * ky) break;
      for (const b of d === 0 ? [home] : [home - d, home + d]) {
        if (b < 0 || b >= BANDS) continue;
        for (let j = bandStart[b]!; j < bandStart[b + 1]!; j++) {
          const s = bandSegs[j]!;
          // Local plane, the point at the origin; longitudes wrapped to the point's side of the
          // antimeridian, the segment as one piece (wrapping its ends apart would stretch a
          // segment half a world away across the point).
          const ax = wrap(x1[s]! - lon) * kx;
          const ay = (y1[s]! - lat) * ky;
          const bx = ax + (x2[s]! - x1[s]!) * kx;
          const by = (y2[s]! - lat) * ky;
          if (Math.min(ax, bx) > r || Math.max(ax, bx) < -r) continue;
          const dx = bx - ax;
          const dy = by - ay;
          const len2 = dx * dx + dy * dy;
          const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, -(ax * dx + ay * dy) / len2));
          best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
        }
      }
    }
    return best <= maxKm ? best : null;
  }

  return { onLand, coastKm, segments: n };
}

const wrap = (dLon: number) => (dLon > 180 ? dLon - 360 : dLon < -180 ? dLon + 360 : dLon);

let cached: Coastline | undefined;

/** The Natural Earth 1:10m coastline from world-atlas, decoded and indexed once per process. */
export function naturalEarthCoastline(): Coastline {
  if (cached) return cached;
  const topology = createRequire(import.meta.url)("world-atlas/land-10m.json") as Topology<{ land: GeometryCollection }>;
  const land = feature(topology, topology.objects.land);
  const rings: number[][][] = [];
  for (const f of land.features) {
    const g = f.geometry;
    if (g.type === "Polygon") rings.push(...g.coordinates);
    else if (g.type === "MultiPolygon") for (const p of g.coordinates) rings.push(...p);
  }
  cached = coastlineFromRings(rings);
  return cached;
}
