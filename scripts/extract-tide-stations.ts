// Build step for the offline tide path: copies the harmonic constants of the stations the
// catalogue names out of @neaps/tide-database (~30 MB, ~230 MB RSS when loaded) into the small
// data/tide-stations.json the service reads. Run after changing a spot's tide_station:
//   npm run data:tides
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stationsById } from "@neaps/tide-database";

const root = new URL("..", import.meta.url).pathname;
const regionsDir = join(root, "data/regions");
const wanted = new Set<string>();
for (const f of readdirSync(regionsDir).filter((f) => f.endsWith(".json"))) {
  const region = JSON.parse(readFileSync(join(regionsDir, f), "utf8")) as { spots: { tide_station: string | null }[] };
  for (const s of region.spots) if (s.tide_station !== null) wanted.add(s.tide_station);
}

const out: Record<string, unknown> = {};
for (const id of [...wanted].sort()) {
  const st = stationsById.get(id);
  if (!st) throw new Error(`tide station ${id} is not in @neaps/tide-database`);
  if (st.kind !== "tide") throw new Error(`station ${id} is a ${st.kind} station, not a tide station`);
  if (typeof st.datums.MLLW !== "number" || typeof st.datums.MSL !== "number") {
    throw new Error(`station ${id} lacks an MLLW or MSL datum`);
  }
  if (!st.license.commercial_use) console.warn(`warning: ${id} is licensed ${st.license.type} (no commercial use)`);
  out[id] = {
    id: st.id,
    name: st.name,
    latitude: st.latitude,
    longitude: st.longitude,
    timezone: st.timezone,
    country: st.country,
    continent: st.continent,
    type: st.type,
    chart_datum: st.chart_datum,
    datums: { MLLW: st.datums.MLLW, MSL: st.datums.MSL },
    source: { name: st.source.name, id: st.source.id, url: st.source.url },
    license: st.license,
    attribution: st.attribution,
    offsets: st.offsets,
    harmonic_constituents: st.harmonic_constituents.map((c) => ({ name: c.name, amplitude: c.amplitude, phase: c.phase })),
  };
}
const pkg = JSON.parse(readFileSync(join(root, "node_modules/@neaps/tide-database/package.json"), "utf8")) as { version: string };
writeFileSync(join(root, "data/tide-stations.json"), `${JSON.stringify({ generated_from: `@neaps/tide-database ${pkg.version}`, stations: out })}\n`);
console.log(`wrote ${Object.keys(out).length} stations to data/tide-stations.json`);
