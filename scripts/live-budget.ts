// `npm run budget [-- --spots 400 --regions 40 --asked-share 0.5]`: the upstream call budget for the whole
// catalogue (from the adapters' own query plans): every hour without the model-run gate, then with the
// gate and the governor in the worst case (every region asked every hour) and with realistic traffic
// (a share of the regions asked within any 3 hours), for today's catalogue and for a catalogue of
// at least `--spots` spots in `--regions` regions made by cloning it (modelled tides included); then the same measured against the upstream emulator over one
// emulated UTC day; then the latency a cache miss adds (first request in a region vs. a neighbour
// whose upstream answers are already cached).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { Catalog } from "../src/catalog/catalog.js";
import { DAY_MS, FixedClock, HOUR_MS, systemClock } from "../src/base/clock.js";
import { loadConfig } from "../src/base/config.js";
import { createContext } from "../src/compose.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/base/logger.js";
import { BUDGET_TARGET, callBudget, clonedCatalog, clonedClimatology, DEFAULT_ASKED_SHARE, gatedBudget, OPEN_METEO_FREE_LIMITS, type GatedBudget } from "../src/sources/budget.js";
import { endpointFor, MARINE, queryPlan } from "../src/sources/open-meteo.js";
import { REFRESH_SHARE } from "../src/sources/live.js";
import { startStubUpstreams } from "./stub/upstreams.js";

const { values: args } = parseArgs({
  options: {
    spots: { type: "string", default: String(BUDGET_TARGET.spots) },
    regions: { type: "string", default: String(BUDGET_TARGET.regions) },
    "asked-share": { type: "string", default: String(DEFAULT_ASKED_SHARE) },
  },
});
const targetSpots = Number(args.spots);
const targetRegions = Number(args.regions);
const askedShare = Number(args["asked-share"]);
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

const catalog = Catalog.load();
const b = callBudget(catalog);
console.log(`Catalogue: ${b.spots} spots in ${b.regions} regions → ${b.queryPoints} Open-Meteo query points (spots within 1 km share one).`);
console.log(`Worst case, every spot asked about every hour:`);
console.log(
  `  Open-Meteo: ${b.perHour.openMeteoRequests} requests/h, ${b.perHour.openMeteoCalls} counted calls/h → ${b.perDay.openMeteoCalls}/day ` +
    `(${(b.perDay.openMeteoShareOfFreeTier * 100).toFixed(1)} % of the free ${OPEN_METEO_FREE_LIMITS.perDay}/day)`,
);
console.log(`  ERDDAP:     ${b.perDay.erddapRequests.min}–${b.perDay.erddapRequests.max} requests/day (at most ${b.perDay.erddapRequests.worst} if it fails all day)`);
console.log(`  CO-OPS:     ${b.perDay.coopsRequests} requests/day (one per NOAA station)`);
const tided = catalog.regions.filter((r) => endpointFor(MARINE, queryPlan(r)) !== MARINE);
console.log(
  `  Modelled tides: ${tided.length} regions (${catalog.spots.filter((s) => s.tide_station === null).length} spots without a station) ask the marine API for the sea level too, 14 days: no extra weight per location.`,
);

const gatedLines = (cat: Catalog, g: GatedBudget) => {
  console.log(`  without the gate (a download every hour):      ${pct(callBudget(cat).perDay.openMeteoShareOfFreeTier)} of the free tier`);
  console.log(
    `  gate only, every region asked every hour:      ${g.gateOnly.marineDownloads} marine + ${g.gateOnly.forecastDownloads} forecast downloads/day, ${g.gateOnly.openMeteoCalls} calls (${pct(g.gateOnly.share)})`,
  );
  console.log(
    `  (a) worst case with the governor (${pct(REFRESH_SHARE)} share): ${g.worstCase.openMeteoCalls} calls/day (${pct(g.worstCase.share)}); owed downloads alone ≤ ${g.worstCase.ownedFloorCalls}`,
  );
  console.log(`  (b) realistic, ${pct(g.realistic.askedShare)} of regions asked per 3 h:   ${g.realistic.openMeteoCalls} calls/day (${pct(g.realistic.share)})`);
  console.log(`  busiest hour: ≤ ${g.busiestHourCalls} calls (limit ${OPEN_METEO_FREE_LIMITS.perHour}); ${g.watchedModels} models' run metadata read, not counted`);
};
const big = clonedCatalog(Catalog.readRecords(), targetSpots, targetRegions);
console.log(`\nWith refreshes that follow the models' runs (metadata API), today's ${catalog.spots.length} spots:`);
gatedLines(catalog, gatedBudget(catalog, askedShare));
console.log(`\nThe same for ${big.spots.length} spots in ${big.regions.length} regions (today's regions cloned):`);
gatedLines(big, gatedBudget(big, askedShare));

/**
 * (c) One emulated UTC day against the emulator, on a pinned clock stepped 5 minutes at a time with
 * the refresh-ahead ticker: every hour each region in `asked(hour)` is asked about once.
 */
async function emulatedDay(cat: Catalog, asked: (hour: number) => readonly number[]) {
  const clock = new FixedClock("2026-11-21T00:00:00Z");
  const stub = await startStubUpstreams({ scenario: "calm", latencyScale: 0.01, now: () => clock.now() });
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const NO_CAPS = { RATE_LIMIT_FACTS_PER_HOUR: "0", RATE_LIMIT_FACTS_PER_DAY: "0", RATE_LIMIT_SPOTS_PER_HOUR: "0", RATE_LIMIT_SPOTS_PER_DAY: "0", RATE_LIMIT_DECISIONS_BURST: "0" };
  const config = loadConfig({ PORT: String(port), HOST: "127.0.0.1", DATA_SOURCE: "live", LOG_LEVEL: "silent", UPSTREAM_TIMEOUT_MS: "8000", ...NO_CAPS, ...stub.env });
  const ctx = createContext({ config, clock, log: createLogger("silent"), catalog: cat, climatology: clonedClimatology(cat) });
  server.on("request", createApp(ctx));
  const start = clock.now().getTime();
  const freshness: Record<string, number> = {};
  let worstHour = 0;
  let lastCalls = 0;
  for (let t = 0; t < DAY_MS; t += 5 * 60_000) {
    clock.set(start + t);
    if (t % HOUR_MS === 0) {
      const regions = asked(t / HOUR_MS);
      for (const [i, ri] of regions.entries()) {
        // The day's first round spreads over its first minutes, as a cold start under real traffic would.
        if (t === 0) clock.set(start + i * 7_500);
        const region = cat.regions[ri]!;
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/conditions?spot=${region.spots[0]!.id}`);
        const body = (await res.json()) as { data_quality?: { freshness?: string } };
        const f = res.status === 200 ? (body.data_quality?.freshness ?? "none") : `HTTP ${res.status}`;
        freshness[f] = (freshness[f] ?? 0) + 1;
      }
      const calls = stub.openMeteo.counters.weightedCalls;
      worstHour = Math.max(worstHour, calls - lastCalls);
      lastCalls = calls;
    }
    await ctx.upstreams!.refreshAhead();
  }
  await ctx.upstreams!.settled();
  const c = stub.openMeteo.counters;
  const out = {
    day: c.weightedCallsByDay["2026-11-21"] ?? 0,
    requests: stub.calls.marine + stub.calls.forecast,
    refused: Object.values(c.refused).reduce((a, n) => a + n, 0),
    worstHour,
    meta: stub.metaRequests,
    governor: { ...ctx.upstreams!.governor.stats },
    freshness,
  };
  server.closeAllConnections();
  server.close();
  await ctx.close();
  await stub.close();
  return out;
}
const all = big.regions.map((_, i) => i);
// Realistic: the same `askedShare` of the regions is asked every hour (the popular ones), so within
// any 3 hours that share is asked and the rest is never refreshed. Spread over the catalogue (a
// low-discrepancy pick), so North American, Hawaiian and other regions are all among them.
const popular = all.filter((i) => ((i + 1) * 0.6180339887) % 1 < askedShare);
const rotating = () => popular;
console.log(`\n(c) Measured against the emulator: ${big.spots.length} spots, one UTC day (2026-11-21), refresh ticker every 5 emulated minutes:`);
for (const [name, asked] of [
  ["worst case, every region asked every hour", () => all],
  [`realistic, ${popular.length} of ${big.regions.length} regions asked every hour, the rest never`, rotating],
] as const) {
  const m = await emulatedDay(big, asked);
  console.log(
    `  ${name}: ${Math.round(m.day)} weighted calls in the UTC day (${pct(m.day / OPEN_METEO_FREE_LIMITS.perDay)}), ${m.requests} requests, busiest hour ${Math.round(m.worstHour)} calls, ${m.refused} refused (429)`,
  );
  console.log(`    ${m.meta} metadata requests (not counted); governor ${m.governor.granted} granted / ${m.governor.refused} held back; answers by freshness ${JSON.stringify(m.freshness)}`);
}

// The emulator's real limits with a tenth of its latency, so the measurement takes seconds.
const stub = await startStubUpstreams({ scenario: "calm", latencyScale: 0.1 });
const server = createServer();
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const port = (server.address() as AddressInfo).port;
// One client asks about every spot: the per-caller caps (0 = off) would rightly refuse it.
const NO_CAPS = { RATE_LIMIT_FACTS_PER_HOUR: "0", RATE_LIMIT_FACTS_PER_DAY: "0", RATE_LIMIT_SPOTS_PER_HOUR: "0", RATE_LIMIT_SPOTS_PER_DAY: "0", RATE_LIMIT_DECISIONS_BURST: "0" };
const config = loadConfig({ PORT: String(port), HOST: "127.0.0.1", DATA_SOURCE: "live", LOG_LEVEL: "silent", ...NO_CAPS, ...stub.env });
const ctx = createContext({ config, clock: systemClock, log: createLogger("silent"), catalog });
server.on("request", createApp(ctx));

// A catalogue whose cold start needs more than the upstream's per-minute limit cannot be fetched
// whole in one go: the governor holds downloads back and live mode answers 503 data_unavailable
// (with Retry-After) for what it could not fetch. Those answers are counted, not timed.
const unavailable = new Map<number, number>();
const timed = async (spot: string) => {
  const t = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/conditions?spot=${spot}`);
  await res.arrayBuffer();
  if (res.status !== 200) {
    if (res.status !== 503) throw new Error(`${spot}: HTTP ${res.status}`);
    unavailable.set(res.status, (unavailable.get(res.status) ?? 0) + 1);
  }
  return performance.now() - t;
};
// Warm up the JIT and the harmonic tide windows on a region we then leave out.
await timed(catalog.regions[0]!.spots[0]!.id);
await timed(catalog.regions[0]!.spots[1]!.id);
const cold: number[] = [];
const warm: number[] = [];
const hot: number[] = [];
for (const region of catalog.regions.slice(1)) {
  cold.push(await timed(region.spots[0]!.id));
  warm.push(await timed(region.spots[1]!.id));
  hot.push(await timed(region.spots[0]!.id));
}
for (const s of catalog.spots) await timed(s.id);
const median = (xs: number[]) => [...xs].sort((a, c) => a - c)[xs.length >> 1]!;
await ctx.upstreams?.settled();
console.log(
  `\nToday's catalogue against the emulator at a tenth of its latency, real time (${catalog.spots.length} spots in one hour): ${JSON.stringify(stub.calls)}, ${stub.openMeteo.counters.weightedCalls} weighted Open-Meteo calls, ${Object.values(stub.openMeteo.counters.refused).reduce((a, c) => a + c, 0)} refused, ${unavailable.get(503) ?? 0} answers 503 (downloads held back)`,
);
console.log(`Latency per conditions request, median over ${cold.length} regions:`);
console.log(`  upstream cache miss (2 Open-Meteo calls one at a time, CO-OPS, build): ${median(cold).toFixed(1)} ms`);
console.log(`  upstream cache hit, forecast built:             ${median(warm).toFixed(1)} ms`);
console.log(`  forecast cache hit:                             ${median(hot).toFixed(1)} ms`);
console.log(`  → a cache miss adds about ${(median(cold) - median(warm)).toFixed(1)} ms against the emulator at a tenth of the real latency`);
server.closeAllConnections();
server.close();
await stub.close();
