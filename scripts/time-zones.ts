// Writes data/time-zones.json: every UTC offset change of each time zone the catalogue names, from
// 2020 to 2040, read from this runtime's time-zone rules (Intl). The service reads offsets from
// this table instead of loading ICU (src/base/zone.ts says why). Run after adding a region in a new
// zone, or when the test suite reports that the runtime's rules and the table disagree:
//   npm run data:zones
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HOUR_MS } from "../src/base/clock.js";
import { DATA_DIR } from "../src/base/paths.js";
import { intlOffsetMinutes, type ZoneTable } from "../src/base/zone.js";

const FROM = Date.UTC(2020, 0, 1);
const UNTIL = Date.UTC(2040, 0, 1);
/** Offsets are compared this far apart, then the change is found to the minute between them. */
const STEP_MS = 6 * HOUR_MS;
const MINUTE_MS = 60_000;

const zones = new Set<string>();
for (const f of readdirSync(join(DATA_DIR, "regions")).filter((f) => f.endsWith(".json"))) {
  zones.add((JSON.parse(readFileSync(join(DATA_DIR, "regions", f), "utf8")) as { timezone: string }).timezone);
}

/** A zone's offset changes in [FROM, UNTIL): pairs of (minute since the epoch, offset from then). */
function offsetChanges(zone: string): number[] {
  let offset = intlOffsetMinutes(FROM, zone);
  const out = [FROM / MINUTE_MS, offset];
  for (let t = FROM; t < UNTIL; t += STEP_MS) {
    const next = intlOffsetMinutes(Math.min(t + STEP_MS, UNTIL - MINUTE_MS), zone);
    if (next === offset) continue;
    // The first minute in (t, t + STEP_MS] with the new offset.
    let [lo, hi] = [t / MINUTE_MS, Math.min(t + STEP_MS, UNTIL - MINUTE_MS) / MINUTE_MS];
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (intlOffsetMinutes(mid * MINUTE_MS, zone) === offset) lo = mid;
      else hi = mid;
    }
    out.push(hi, next);
    offset = next;
  }
  return out;
}

const table: ZoneTable = {
  tz: process.versions.tz ?? "unknown",
  from: FROM,
  until: UNTIL,
  zones: Object.fromEntries([...zones].sort().map((z) => [z, offsetChanges(z)])),
};
// One zone per line: the file is read by people reviewing a change too.
const body = Object.entries(table.zones)
  .map(([z, changes]) => `    ${JSON.stringify(z)}: ${JSON.stringify(changes)}`)
  .join(",\n");
writeFileSync(join(DATA_DIR, "time-zones.json"), `{\n  "tz": ${JSON.stringify(table.tz)},\n  "from": ${FROM},\n  "until": ${UNTIL},\n  "zones": {\n${body}\n  }\n}\n`);
console.log(`data/time-zones.json: ${zones.size} zones, tz ${table.tz}`);
