// Validates the catalogue, climatology and protected-area data files and prints a summary per region.
// Usage: npm run data:check
//
// Beyond the schemas it checks what a schema cannot:
// - every region has seasonal norms (data/climatology/<id>.json), and a water-temperature zone in
//   them names only spots of its region;
// - every spot lies within SPOT_MAX_KM_FROM_NEIGHBOUR of another spot of its region (a sign flip or a
//   swapped digit puts a spot hundreds of km from all of them), and no region spans more than
//   REGION_MAX_SPAN_KM (a region is one weather batch; a reef tract like the Florida Keys is long and
//   thin, so the check is by neighbour rather than by distance from the middle);
// - an approximate coordinate says why in its note; more than MAX_APPROXIMATE_SHARE approximate
//   coordinates in a region is reported (a warning, since older regions predate the rule);
// - a spot's tide station is in data/tide-stations.json and within TIDE_STATION_MAX_KM; a spot with
//   no station really has none that close in the Neaps database, and its notes say so;
// - every spot is at sea or on the shore: against Natural Earth's 1:10m land polygons (world-atlas,
//   a devDependency; see scripts/coastline.ts), a point on land fails beyond SHORE_TOLERANCE_KM from
//   the coastline, and a point at sea is reported (a warning) beyond MAX_OFFSHORE_KM, or beyond
//   SHORE_ONLY_MAX_OFFSHORE_KM for a shore-only spot; the run prints how far inland and offshore
//   the catalogue's points measure;
// - every protected area names known spots;
// - provenance (src/catalog/provenance.ts): every cited page's publisher is judged in
//   data/publishers.json, no position marked sourced, closure or protected area rests on generated
//   text, a level said to rest on a published figure cites one from a person, and no level lies beyond
//   a published floor or ceiling.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stationsById } from "@neaps/tide-database";
import { RegionRecord, TIDE_STATION_MAX_KM } from "../src/catalog/schema.js";
import { Catalog } from "../src/catalog/catalog.js";
import { provenanceErrors } from "../src/catalog/provenance.js";
import { Publishers } from "../src/catalog/publishers.js";
import { distanceKm } from "../src/catalog/geo.js";
import { ClimatologyTable } from "../src/sources/climatology-schema.js";
import { unknownZoneSpots } from "../src/sources/climatology.js";
import { naturalEarthCoastline, SHORE_TOLERANCE_KM, type Coastline } from "./coastline.js";

export { SHORE_TOLERANCE_KM };

const SPOT_MAX_KM_FROM_NEIGHBOUR = 60;
const REGION_MAX_SPAN_KM = 200;
/** The share of a region's spots that may be placed approximately before it is reported (a warning). */
export const MAX_APPROXIMATE_SHARE = 0.1;
/**
 * Most of the whole catalogue that may be placed approximately (the suite holds it). It was 10 %
 * until the provenance audit of 2026-12-01: positions that rested on generated text (an AI-written
 * dive-site wiki, machine-translated encyclopedia mirrors) lost `sourced` unless a person's source
 * was found, which left 90 of 477 approximate (18.9 %). Finding people's positions for them brings it
 * back down; the per-region warning keeps showing where.
 */
export const MAX_CATALOGUE_APPROXIMATE_SHARE = 0.2;
/**
 * Farther offshore than this is reported (a warning): no day boat in the catalogue goes farther.
 * Measured: 248 spots at sea, median 2.07 km, 90th percentile 28.4 km; the farthest are the Similan
 * Islands, 60.8–62.7 km off the Khao Lak coast (1:10m draws none of the chain, and the day boats
 * from Khao Lak make the crossing), then Hin Muang, 46.3 km off Ko Lanta's 1:10m coast, and Opal
 * Reef, 45.6 km off the mainland on the outer Great Barrier Reef. A sign flip that lands at sea is
 * usually hundreds of km out (Hanauma Bay with its longitude flipped: 510 km).
 */
export const MAX_OFFSHORE_KM = 65;
/**
 * A shore-only spot farther offshore than this is reported (a warning): its entry must be on
 * land that 1:10m leaves out. Measured: the farthest is Sesoko Beach, 3.1 km from the 1:10m coast
 * (Sesoko Island is too small for it), then the Churchill Barrier blockships in Scapa Flow, 3.0 km;
 * shore-and-boat spots on small islands lie up to 24.9 km out (Loh Dalum Bay on Phi Phi Don), so
 * they are held to MAX_OFFSHORE_KM only.
 */
export const SHORE_ONLY_MAX_OFFSHORE_KM = 5;
/** How far the coast is searched for; a point farther from any coast reads "more than" this. */
const COAST_SEARCH_KM = 1000;

export interface CoastVerdict {
  onLand: boolean;
  /** Distance to the 1:10m coastline, km; null beyond COAST_SEARCH_KM. */
  coastKm: number | null;
  error: string | null;
  warning: string | null;
}

/** Whether a spot is at sea or on the shore, by the rules above. */
export function coastVerdict(lat: number, lon: number, entry: readonly ("shore" | "boat")[], coast: Coastline = naturalEarthCoastline()): CoastVerdict {
  const onLand = coast.onLand(lat, lon);
  const coastKm = coast.coastKm(lat, lon, COAST_SEARCH_KM);
  const km = coastKm === null ? `more than ${COAST_SEARCH_KM} km` : `${coastKm.toFixed(2)} km`;
  const far = coastKm === null ? Infinity : coastKm;
  const shoreOnly = !entry.includes("boat");
  let error: string | null = null;
  let warning: string | null = null;
  if (onLand && far > SHORE_TOLERANCE_KM) error = `on land, ${km} from the coast (Natural Earth 1:10m; max ${SHORE_TOLERANCE_KM} km for a shore point the 1:10m coast leaves out)`;
  else if (!onLand && far > MAX_OFFSHORE_KM) warning = `at sea ${km} from the coast (more than ${MAX_OFFSHORE_KM} km: farther than any day boat in the catalogue goes)`;
  else if (!onLand && shoreOnly && far > SHORE_ONLY_MAX_OFFSHORE_KM)
    warning = `a shore-only spot at sea ${km} from the coast (more than ${SHORE_ONLY_MAX_OFFSHORE_KM} km; is its island missing from 1:10m?)`;
  return { onLand, coastKm, error, warning };
}

function main() {
  const root = new URL("..", import.meta.url).pathname;
  let failed = false;
  const fail = (msg: string) => {
    failed = true;
    console.error(`error: ${msg}`);
  };
  const json = (path: string): unknown => JSON.parse(readFileSync(join(root, path), "utf8"));
  const jsonFiles = (dir: string) =>
    readdirSync(join(root, dir))
      .filter((f) => f.endsWith(".json"))
      .sort();

  const extracted = (json("data/tide-stations.json") as { stations: Record<string, { latitude: number; longitude: number }> }).stations;
  const tideStations = [...stationsById.values()].filter((s) => s.kind === "tide");
  const climatologies = new Set(jsonFiles("data/climatology").map((f) => f.replace(/\.json$/, "")));

  const spotIds = new Set<string>();
  const regionSpotIds = new Map<string, Set<string>>();
  let spots = 0;
  const inland: { where: string; km: number }[] = [];
  const offshore: { where: string; km: number }[] = [];
  for (const f of jsonFiles("data/regions")) {
    const parsed = RegionRecord.safeParse(json(`data/regions/${f}`));
    if (!parsed.success) {
      fail(`data/regions/${f}: ${JSON.stringify(parsed.error.issues, null, 1)}`);
      continue;
    }
    const r = parsed.data;
    regionSpotIds.set(r.id, new Set(r.spots.map((s) => s.id)));
    if (`${r.id}.json` !== f) fail(`${f}: file name must be ${r.id}.json`);
    if (!climatologies.has(r.id)) fail(`${r.id}: no seasonal norms (data/climatology/${r.id}.json)`);
    const span = Math.max(...r.spots.flatMap((a) => r.spots.map((b) => distanceKm(a.lat, a.lon, b.lat, b.lon))));
    if (span > REGION_MAX_SPAN_KM) fail(`${r.id}: spots span ${span.toFixed(0)} km (max ${REGION_MAX_SPAN_KM})`);
    const counts = { sourced: 0, "cross-checked": 0, approximate: 0 };
    const tideKm: number[] = [];
    let noTide = 0;
    for (const s of r.spots) {
      const where = `${r.id}/${s.id}`;
      if (spotIds.has(s.id)) fail(`duplicate spot id ${s.id}`);
      spotIds.add(s.id);
      counts[s.coord.confidence]++;
      const coast = coastVerdict(s.lat, s.lon, s.entry);
      if (coast.error) fail(`${where}: ${coast.error}`);
      if (coast.warning) console.warn(`warning: ${where}: ${coast.warning}`);
      (coast.onLand ? inland : offshore).push({ where, km: coast.coastKm ?? Infinity });
      const others = r.spots.filter((o) => o !== s).map((o) => distanceKm(s.lat, s.lon, o.lat, o.lon));
      const nearest = others.length === 0 ? 0 : Math.min(...others);
      if (nearest > SPOT_MAX_KM_FROM_NEIGHBOUR) fail(`${where}: ${nearest.toFixed(0)} km from the nearest other spot of its region (max ${SPOT_MAX_KM_FROM_NEIGHBOUR})`);
      if (s.coord.confidence === "approximate" && s.coord.note.trim().length < 20) fail(`${where}: an approximate coordinate must say why in coord.note`);
      if (s.tide_station === null) {
        const near = tideStations.find((st) => distanceKm(s.lat, s.lon, st.latitude, st.longitude) <= TIDE_STATION_MAX_KM);
        if (near) fail(`${where}: tide_station is null but ${near.id} is within ${TIDE_STATION_MAX_KM} km`);
        if (!/tide/i.test(s.notes)) fail(`${where}: tide_station is null; the notes must say why`);
        noTide++;
      } else {
        const st = extracted[s.tide_station];
        if (!st) {
          fail(`${where}: tide station ${s.tide_station} missing from data/tide-stations.json (npm run data:tides)`);
          continue;
        }
        const km = distanceKm(s.lat, s.lon, st.latitude, st.longitude);
        if (km > TIDE_STATION_MAX_KM) fail(`${where}: tide station ${s.tide_station} is ${km.toFixed(0)} km away (max ${TIDE_STATION_MAX_KM})`);
        tideKm.push(km);
      }
    }
    const n = r.spots.length;
    if (counts.approximate / n > MAX_APPROXIMATE_SHARE) {
      console.warn(`warning: ${r.id}: ${counts.approximate} of ${n} coordinates approximate (target at most ${MAX_APPROXIMATE_SHARE * 100} %)`);
    }
    spots += n;
    const tideRange = [tideKm.length > 0 && `${Math.min(...tideKm).toFixed(0)}–${Math.max(...tideKm).toFixed(0)} km`, noTide > 0 && `${noTide} without a station within ${TIDE_STATION_MAX_KM} km`]
      .filter(Boolean)
      .join("; ");
    console.log(
      `${r.id}: ${n} spots (${r.decision_support}); coordinates ${counts.sourced}/${counts["cross-checked"]}/${counts.approximate} sourced/cross-checked/approximate; tide stations ${tideRange}`,
    );
  }

  console.log(
    `coastline (Natural Earth 1:10m, ${naturalEarthCoastline().segments} segments): ${spread(offshore, "at sea", "offshore")}; ${spread(inland, "on land", "inland")} (tolerance ${SHORE_TOLERANCE_KM} km)`,
  );

  for (const f of jsonFiles("data/climatology")) {
    const parsed = ClimatologyTable.safeParse(json(`data/climatology/${f}`));
    if (!parsed.success) fail(`data/climatology/${f}: ${JSON.stringify(parsed.error.issues, null, 1)}`);
    else {
      const unknown = unknownZoneSpots(parsed.data, regionSpotIds.get(parsed.data.region) ?? new Set());
      if (unknown.length) fail(`data/climatology/${f}: water_temp_zones name spots not in the region: ${unknown.join(", ")}`);
      else
        console.log(
          `climatology ${parsed.data.region}: ok${parsed.data.water_temp_zones ? ` (water temperature zones: ${parsed.data.water_temp_zones.map((z) => `${z.id}, ${z.spots.length} spots`).join("; ")})` : ""}`,
        );
    }
  }

  const areas = (json("data/protected-areas.json") as { areas: { id: string; source: string | null; spots: string[] }[] }).areas;
  for (const a of areas) for (const id of a.spots) if (!spotIds.has(id)) fail(`protected area ${a.id} names unknown spot ${id}`);
  console.log(`protected areas: ${areas.length}`);

  const publishers = Publishers.load();
  const provenance = provenanceErrors(Catalog.readRecords(), areas, publishers);
  for (const e of provenance) fail(e);
  console.log(
    `provenance: ${publishers.list.length} publishers judged (${publishers.list.filter((p) => p.kind === "generated").length} generated, never counted); ${provenance.length === 0 ? "every cited page judged, nothing rests on generated text" : `${provenance.length} errors`}`,
  );

  console.log(`${spots} spots in total`);
  process.exit(failed ? 1 : 0);
}

/** "89 on land: median 0.38 km, 90th percentile 1.05 km, max 2.95 km inland (region/spot)". */
function spread(points: readonly { where: string; km: number }[], what: string, side: string): string {
  if (points.length === 0) return `none ${what}`;
  const km = points.map((p) => p.km).sort((a, b) => a - b);
  const at = (q: number) => km[Math.min(km.length - 1, Math.floor(q * km.length))]!.toFixed(2);
  const max = points.reduce((a, b) => (b.km > a.km ? b : a));
  return `${points.length} ${what}: median ${at(0.5)} km, 90th percentile ${at(0.9)} km, max ${max.km.toFixed(2)} km ${side} (${max.where})`;
}

if (import.meta.url === `file://${process.argv[1]}`) main();
