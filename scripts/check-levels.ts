// Prints each region's calibration under the rule in src/catalog/levels.ts: per spot, whether its
// typical level is calibrated and why not, with the level and pooled published range month by month,
// and any step of more than MAX_MONTH_STEP between adjacent months.
// Usage: npm run data:levels [-- region-id ...]
import { Catalog } from "../src/catalog/catalog.js";
import { MAX_MONTH_STEP, monthSteps, regionLevels, uncounted } from "../src/catalog/levels.js";

const wanted = process.argv.slice(2);
const records = Catalog.readRecords().filter((r) => wanted.length === 0 || wanted.includes(r.id));
let full = 0;
for (const region of records) {
  const v = regionLevels(region);
  if (v.earnsFull) full++;
  console.log(`\n${region.id}: ${v.calibrated}/${v.spots.length} calibrated, response ${v.responseChecked ? "checked" : "NOT checked"} → ${v.earnsFull ? "earns full" : "conditions_only"} (published ${v.published})`);
  if (v.reason) console.log(`  ${v.reason}`);
  for (const spot of region.spots) {
    const s = v.spots.find((x) => x.id === spot.id)!;
    console.log(`  ${s.calibrated ? "✓" : "✗"} ${s.id} [${s.kind}] ${s.reason ?? ""}`);
    const cells = s.months.map((m) => `${m.level_ft}${m.range ? (m.within ? "" : "!") + `(${m.range.low}-${m.range.high})` : m.closed ? "(closed)" : "(-)"}`);
    console.log(`      ${cells.join(" ")}`);
    for (const r of spot.visibility_refs) {
      const u = uncounted(r);
      console.log(`      ${u ? "·" : "+"} ${r.kind}${r.fits ? "" : " (does not fit)"} ${r.low_ft}–${r.high_ft ?? "∞"} ft m${r.months.length === 12 ? "*" : r.months.join(",")} ${u ?? "counts"} ${r.source}`);
    }
    const steps = monthSteps(spot.clarity_ft);
    if (steps.length > 0) console.log(`      steps over ×${MAX_MONTH_STEP}: ${steps.map((x) => `${x.from}→${x.to}`).join(", ")}`);
  }
}
console.log(`\n${full} of ${records.length} regions earn full.`);
