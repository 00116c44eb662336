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
// - every protected area names known spots.
// Whether a point is at sea or on the shore is not checked: no coastline data ships with the project.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stationsById } from "@neaps/tide-database";
import { RegionRecord, TIDE_STATION_MAX_KM } from "../src/catalog/schema.js";
import { distanceKm } from "../src/geo.js";
import { ClimatologyTable } from "../src/sources/climatology-schema.js";
import { unknownZoneSpots } from "../src/sources/climatology.js";

const SPOT_MAX_KM_FROM_NEIGHBOUR = 60;
const REGION_MAX_SPAN_KM = 200;
const MAX_APPROXIMATE_SHARE = 0.1;

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
  const tideRange = [
    tideKm.length > 0 && `${Math.min(...tideKm).toFixed(0)}–${Math.max(...tideKm).toFixed(0)} km`,
    noTide > 0 && `${noTide} without a station within ${TIDE_STATION_MAX_KM} km`,
  ]
    .filter(Boolean)
    .join("; ");
  console.log(`${r.id}: ${n} spots (${r.decision_support}); coordinates ${counts.sourced}/${counts["cross-checked"]}/${counts.approximate} sourced/cross-checked/approximate; tide stations ${tideRange}`);
}

for (const f of jsonFiles("data/climatology")) {
  const parsed = ClimatologyTable.safeParse(json(`data/climatology/${f}`));
  if (!parsed.success) fail(`data/climatology/${f}: ${JSON.stringify(parsed.error.issues, null, 1)}`);
  else {
    const unknown = unknownZoneSpots(parsed.data, regionSpotIds.get(parsed.data.region) ?? new Set());
    if (unknown.length) fail(`data/climatology/${f}: water_temp_zones name spots not in the region: ${unknown.join(", ")}`);
    else console.log(`climatology ${parsed.data.region}: ok${parsed.data.water_temp_zones ? ` (water temperature zones: ${parsed.data.water_temp_zones.map((z) => `${z.id}, ${z.spots.length} spots`).join("; ")})` : ""}`);
  }
}

const areas = (json("data/protected-areas.json") as { areas: { id: string; spots: string[] }[] }).areas;
for (const a of areas) for (const id of a.spots) if (!spotIds.has(id)) fail(`protected area ${a.id} names unknown spot ${id}`);
console.log(`protected areas: ${areas.length}`);

console.log(`${spots} spots in total`);
process.exit(failed ? 1 : 0);
