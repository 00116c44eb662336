// Merges the incremental files of mutation runs over separate areas into the one the whole-core
// run (`npm run mutate`) reads, so that run tests again only what changed since each area's run.
//
//   node scripts/mutation-merge.mjs reports/incr-decisions.json reports/incr-metering.json …
//
// Inputs oldest run first; the output is reports/stryker-incremental.json (`--out` to change it).
// Stryker numbers tests afresh in every report, so a plain merge would pair one run's mutants with
// another run's tests. Tests are matched here by file and name instead (as Stryker itself matches
// vitest tests, which carry no location). Each test file keeps its newest recorded source, and a
// run that recorded another version of that file keeps none of its links to the file's tests: what
// they killed is tested again, and what survived them meets them as new tests, so it is tested
// again too. Stryker then judges edits made after the newest run the same way. A module-level
// ("static") mutant that survived is left out, so it is always tested again: no test covers it, so
// Stryker would otherwise keep its old result for ever. Where two runs mutated the same file, the
// later run's results stand.
import { readFileSync, writeFileSync } from "node:fs";

const args = process.argv.slice(2);
const outAt = args.indexOf("--out");
const out = outAt >= 0 ? args.splice(outAt, 2)[1] : "reports/stryker-incremental.json";
if (args.length === 0 || out === undefined) {
  console.error("usage: node scripts/mutation-merge.mjs [--out file] incremental.json … (oldest run first)");
  process.exit(2);
}
const reports = args.map((file) => JSON.parse(readFileSync(file, "utf8")));

const newestTestFiles = {};
for (const r of reports) Object.assign(newestTestFiles, r.testFiles ?? {});
const idByTest = new Map();
const testFiles = {};
for (const [file, tf] of Object.entries(newestTestFiles)) {
  testFiles[file] = {
    ...tf,
    tests: tf.tests.map((t) => {
      const id = String(idByTest.size);
      idByTest.set(`${file}\n${t.name}`, id);
      return { ...t, id };
    }),
  };
}

const files = {};
let unlinked = 0;
for (const r of reports) {
  const testOf = new Map();
  for (const [file, tf] of Object.entries(r.testFiles ?? {})) {
    if (tf.source !== newestTestFiles[file].source) {
      unlinked += tf.tests.length;
      continue;
    }
    for (const t of tf.tests) testOf.set(t.id, `${file}\n${t.name}`);
  }
  const ids = (list) => (list ?? []).map((id) => idByTest.get(testOf.get(id))).filter((id) => id !== undefined);
  for (const [path, f] of Object.entries(r.files)) {
    const mutants = f.mutants.filter((m) => !(m.static && (m.status === "Survived" || m.status === "NoCoverage"))).map((m) => ({ ...m, killedBy: ids(m.killedBy), coveredBy: ids(m.coveredBy) }));
    files[path] = { ...f, mutants, left: f.mutants.length - mutants.length };
  }
}
const retested = Object.values(files).reduce((n, f) => n + f.left, 0);
for (const f of Object.values(files)) delete f.left;

writeFileSync(out, JSON.stringify({ ...reports[reports.length - 1], files, testFiles }));
const mutants = Object.values(files).reduce((n, f) => n + f.mutants.length, 0);
console.log(
  `${out}: ${Object.keys(files).length} files, ${mutants} mutant results, ${idByTest.size} tests; ${retested} static survivors left out and ` +
    `${unlinked} older runs' tests of since-edited files unlinked, to be tested again`,
);
