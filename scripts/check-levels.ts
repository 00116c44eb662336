// Prints each region's calibration under the rule in src/catalog/levels.ts: per spot, whether its
// typical level is calibrated and why not, with the level and pooled published range month by month,
// each reference with its scope, its publisher and why it does not count, and any step of more than
// MAX_MONTH_STEP between adjacent months. The rule (src/catalog/levels.ts): decisions rank a spot when
// its level is calibrated, in a region with at least FULL_MIN_CALIBRATED calibrated spots whose
// response inputs have been checked.
// Usage: npm run data:levels [-- region-id ...]
import { Catalog } from "../src/catalog/catalog.js";
import { FULL_MIN_CALIBRATED, MAX_MONTH_STEP, monthSteps, regionLevels, uncounted } from "../src/catalog/levels.js";
import { shippedPublishers } from "../src/catalog/publishers.js";

const wanted = process.argv.slice(2);
const records = Catalog.readRecords().filter((r) => wanted.length === 0 || wanted.includes(r.id));
const publishers = shippedPublishers();
let full = 0;
console.log(`Rule: a region ranks its calibrated spots when at least ${FULL_MIN_CALIBRATED} are calibrated and its response inputs are checked; other spots are listed as not calibrated.`);
for (const region of records) {
  const v = regionLevels(region);
  if (v.earnsFull) full++;
  console.log(
    `\n${region.id}: ${v.calibrated}/${v.spots.length} calibrated, response ${v.responseChecked ? "checked" : "NOT checked"} → ${v.earnsFull ? "earns full" : "conditions_only"} (published ${v.published})`,
  );
  if (v.reason) console.log(`  ${v.reason}`);
  for (const spot of region.spots) {
    const s = v.spots.find((x) => x.id === spot.id)!;
    console.log(`  ${s.calibrated ? "✓ calibrated" : "✗ estimated "} ${s.id} [${s.kind}; ${s.habitat}; ${s.publishers} publisher${s.publishers === 1 ? "" : "s"}] ${s.reason ?? ""}`);
    const bound = (m: (typeof s.months)[number]) => (m.floor === null && m.ceiling === null ? "" : `[${m.floor ?? ""}..${m.ceiling ?? ""}]`);
    const cells = s.months.map((m) => `${m.level_ft}${m.range ? (m.within ? "" : "!") + `(${m.range.low}-${m.range.high})` : m.closed ? "(closed)" : "(-)"}${bound(m)}`);
    console.log(`      ${cells.join(" ")}`);
    for (const r of spot.visibility_refs) {
      const u = uncounted(r, spot, publishers);
      const p = publishers.of(r.source);
      console.log(
        `      ${u ? "·" : "+"} ${r.kind}${r.scope ? `/${r.scope}` : ""} ${r.low_ft ?? "0"}–${r.high_ft ?? "∞"} ft m${r.months.length === 12 ? "*" : r.months.join(",")} ${u ?? "counts"} [${p?.kind ?? "unjudged"}] ${r.source}`,
      );
    }
    const steps = monthSteps(spot.clarity_ft);
    if (steps.length > 0) console.log(`      steps over ×${MAX_MONTH_STEP}: ${steps.map((x) => `${x.from}→${x.to}`).join(", ")}`);
  }
}
console.log(`\n${full} of ${records.length} regions earn full.`);
