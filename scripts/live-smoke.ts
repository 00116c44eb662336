// `npm run live:smoke`: for an operator with internet. One real request per upstream, built by the
// adapters' own URL builders for one real spot, read by the adapters' own parsers; prints what came
// back and exits non-zero when an answer no longer has the shape the parsers expect (or the quirks
// the service relies on have changed). Not part of `npm test`: it needs the real services.
//   npm run live:smoke [-- --spot hanauma-bay]   (upstream URLs from the usual environment variables)
import { parseArgs } from "node:util";
import { Catalog } from "../src/catalog/catalog.js";
import { DAY_MS } from "../src/base/clock.js";
import { loadConfig } from "../src/base/config.js";
import { coopsStationId, coopsUrl, coopsWindow, parseCoops } from "../src/sources/coops.js";
import { axisOrderRefusal, griddapUrl, parseGriddap, spotMedian } from "../src/sources/erddap.js";
import { modelRunUrl, parseModelRun, WATCHED_MODELS } from "../src/sources/model-runs.js";
import { FORECAST, MARINE, MARINE_WITH_TIDE, parseOpenMeteo, queryPlan, requestUrl, type OpenMeteoEndpoint } from "../src/sources/open-meteo.js";

const { values } = parseArgs({ options: { spot: { type: "string", default: "hanauma-bay" }, "timeout-s": { type: "string", default: "40" } } });
const config = loadConfig();
const catalog = Catalog.load();
const spot = catalog.spot(values.spot);
if (!spot) {
  console.error(`unknown spot ${values.spot}`);
  process.exit(2);
}
const u = config.upstreams;
const timeoutMs = Number(values["timeout-s"]) * 1000;
const plan = queryPlan(spot.region);
const results: { upstream: string; ok: boolean; detail: string }[] = [];

async function get(url: URL): Promise<{ status: number; text: string; ms: number }> {
  const t = performance.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json", "user-agent": "ocean-conditions live:smoke" } });
  return { status: res.status, text: await res.text(), ms: Math.round(performance.now() - t) };
}

async function check(upstream: string, run: () => Promise<string>): Promise<void> {
  try {
    results.push({ upstream, ok: true, detail: await run() });
  } catch (e) {
    results.push({ upstream, ok: false, detail: (e as Error).message });
  }
}

function expect(cond: boolean, what: string): void {
  if (!cond) throw new Error(what);
}

async function openMeteo(endpoint: OpenMeteoEndpoint, base: string): Promise<string> {
  const url = requestUrl(base, endpoint, plan, u.openMeteoApiKey);
  const { status, text, ms } = await get(url);
  expect(status === 200, `HTTP ${status}: ${text.slice(0, 200)}`);
  const body = JSON.parse(text) as unknown;
  const batch = parseOpenMeteo(body, endpoint, plan.points);
  expect(batch.notes.length === 0, `parser notes: ${batch.notes.join("; ")}`);
  if (plan.points.length > 1) {
    // Several points: an array in request order, location_id written only when not 0.
    const ids = (body as { location_id?: number }[]).map((l) => l.location_id);
    expect(Array.isArray(body) && ids[0] === undefined && ids[1] === 1, `location_id layout changed: ${JSON.stringify(ids.slice(0, 3))}`);
  }
  const p = batch.points[0]!;
  const known = Object.entries(p.values).map(([f, a]) => `${f} ${a.filter((v) => !Number.isNaN(v)).length}/${a.length}`);
  const first = Object.values(p.values)[0];
  expect(first !== undefined && first.some((v) => !Number.isNaN(v)), "no values for the first point");
  return `${plan.points.length} points in ${ms} ms; point 0: ${known.join(", ")}`;
}

await check("open-meteo marine", () => openMeteo(MARINE, u.marineUrl));
await check("open-meteo forecast", () => openMeteo(FORECAST, u.forecastUrl));
// The modelled sea level, as asked for spots without a tide station: at a Red Sea point (Dahab's Blue
// Hole) it must give high and low waters over a datum, whatever spot the other checks use.
await check("open-meteo modelled tide", async () => {
  const dahab = { lat: 28.572, lon: 34.542 };
  const url = requestUrl(u.marineUrl, MARINE_WITH_TIDE, { region: "smoke", points: [dahab], pointOf: new Map(), tidePoints: [0] }, u.openMeteoApiKey);
  const { status, text, ms } = await get(url);
  expect(status === 200, `HTTP ${status}: ${text.slice(0, 200)}`);
  const batch = parseOpenMeteo(JSON.parse(text) as unknown, MARINE_WITH_TIDE, [dahab], [0]);
  expect(batch.notes.length === 0, `parser notes: ${batch.notes.join("; ")}`);
  const tide = batch.points[0]!.tide;
  expect(tide != null && tide.events.length >= 20, `no modelled tide (${tide ? tide.events.length : "null"} events)`);
  return `${tide!.events.length} high/low waters over ${tide!.datumDays} tidal days, MLLW estimate ${tide!.mllwM.toFixed(2)} m, in ${ms} ms`;
});

// Every model whose run metadata the refresh gate reads: a metadata file that is missing or changed
// would make every hourly re-check download again (the fallback), so each is read with the gate's parser.
for (const model of WATCHED_MODELS) {
  await check(`open-meteo run ${model.id}`, async () => {
    const { status, text, ms } = await get(modelRunUrl(model.api === "marine" ? u.marineUrl : u.forecastUrl, model.id));
    expect(status === 200, `HTTP ${status}: ${text.slice(0, 200)}`);
    const run = parseModelRun(JSON.parse(text));
    const ageH = (Date.now() - run.availableAt) / 3_600_000;
    expect(ageH < (2 * model.intervalS) / 3600 + 12, `last run available ${ageH.toFixed(1)} h ago, for a model updated every ${model.intervalS / 3600} h`);
    return `run ${new Date(run.initialisedAt).toISOString().slice(0, 13)}z available ${ageH.toFixed(1)} h ago, every ${run.updateIntervalS / 3600} h (table: ${model.intervalS / 3600} h) in ${ms} ms`;
  });
}

await check("noaa-coops", async () => {
  const station = catalog.spots.map((s) => coopsStationId(s.tide_station)).find((id) => id !== null && /^\d{7}$/.test(id));
  expect(station !== undefined, "no NOAA station in the catalogue");
  const now = Date.now();
  const { status, text, ms } = await get(coopsUrl(u.coopsUrl, station!, coopsWindow(new Date(now), new Date(now + 2 * DAY_MS))));
  expect(status === 200, `HTTP ${status}`);
  const events = parseCoops(JSON.parse(text));
  expect(events.length >= 4, `only ${events.length} high/low waters in two days`);
  return `station ${station}: ${events.length} high/low waters in ${ms} ms`;
});

for (const dataset of u.kd490Datasets) {
  await check(`erddap ${dataset}`, async () => {
    const { status, text, ms } = await get(griddapUrl(u.erddapUrl, dataset, spot.region, true));
    const refused = axisOrderRefusal(status, text);
    expect(!refused, `the north→south latitude order was refused (${status}): the dataset's storage order changed`);
    expect(status === 200, `HTTP ${status}: ${text.slice(0, 200)}`);
    const grid = parseGriddap(JSON.parse(text));
    const ageDays = (Date.now() - grid.time) / DAY_MS;
    const near = spotMedian(grid, spot);
    // The service expects a lag of about 7 (VIIRS) to 11 (gap-filled) days; more than 13 and it is never used.
    expect(ageDays < 13.4, `latest step is ${ageDays.toFixed(1)} days old: too old to be used`);
    return `latest ${new Date(grid.time).toISOString().slice(0, 10)} (${ageDays.toFixed(1)} days old), ${grid.pixels.length} valid pixels, spot median ${near ? near.kd490.toFixed(3) : "none (cloud)"} in ${(ms / 1000).toFixed(1)} s`;
  });
}

const width = Math.max(...results.map((r) => r.upstream.length));
console.log(`live:smoke for ${spot.id} (${spot.region.id}) at ${new Date().toISOString()}\n`);
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"}  ${r.upstream.padEnd(width)}  ${r.detail}`);
const failed = results.filter((r) => !r.ok).length;
console.log(failed === 0 ? "\nEvery upstream answered in the shape the parsers expect." : `\n${failed} upstream(s) did not: see above.`);
process.exit(failed === 0 ? 0 : 1);
