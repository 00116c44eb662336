// Validates the catalogue and climatology data files against their schemas and prints a summary.
// Usage: npx tsx scripts/check-data.ts
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RegionRecord } from "../src/catalog/schema.js";
import { ClimatologyTable } from "../src/sources/climatology-schema.js";

const root = new URL("..", import.meta.url).pathname;
let failed = false;
const ids = new Set<string>();
let spots = 0;
for (const f of readdirSync(join(root, "data/regions")).filter((f) => f.endsWith(".json"))) {
  const parsed = RegionRecord.safeParse(JSON.parse(readFileSync(join(root, "data/regions", f), "utf8")));
  if (!parsed.success) {
    failed = true;
    console.error(`data/regions/${f}:`, JSON.stringify(parsed.error.issues, null, 1));
    continue;
  }
  const r = parsed.data;
  if (`${r.id}.json` !== f) { failed = true; console.error(`${f}: file name must be ${r.id}.json`); }
  for (const s of r.spots) {
    if (ids.has(s.id)) { failed = true; console.error(`duplicate spot id ${s.id}`); }
    ids.add(s.id);
  }
  spots += r.spots.length;
  console.log(`${r.id}: ${r.spots.length} spots (${r.decision_support})`);
}
for (const f of readdirSync(join(root, "data/climatology")).filter((f) => f.endsWith(".json"))) {
  const parsed = ClimatologyTable.safeParse(JSON.parse(readFileSync(join(root, "data/climatology", f), "utf8")));
  if (!parsed.success) {
    failed = true;
    console.error(`data/climatology/${f}:`, JSON.stringify(parsed.error.issues, null, 1));
  } else console.log(`climatology ${parsed.data.region}: ok`);
}
console.log(`${spots} spots in total`);
process.exit(failed ? 1 : 0);
