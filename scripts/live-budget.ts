// `npm run budget`: the upstream call budget for the whole catalogue (from the adapters' own query
// plans), then the same numbers measured against the upstream emulator, and the latency a cache miss
// adds (first request in a region vs. a neighbour whose upstream answers are already cached).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Catalog } from "../src/catalog/catalog.js";
import { systemClock } from "../src/clock.js";
import { loadConfig } from "../src/config.js";
import { createContext } from "../src/context.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/logger.js";
import { callBudget, OPEN_METEO_FREE_LIMITS } from "../src/sources/budget.js";
import { startStubUpstreams } from "./stub/upstreams.js";

const catalog = Catalog.load();
const b = callBudget(catalog);
console.log(`Catalogue: ${b.spots} spots in ${b.regions} regions → ${b.queryPoints} Open-Meteo query points (each spot's own coordinates).`);
console.log(`Worst case, every spot asked about every hour:`);
console.log(`  Open-Meteo: ${b.perHour.openMeteoRequests} requests/h, ${b.perHour.openMeteoCalls} counted calls/h → ${b.perDay.openMeteoCalls}/day ` + `(${(b.perDay.openMeteoShareOfFreeTier * 100).toFixed(1)} % of the free ${OPEN_METEO_FREE_LIMITS.perDay}/day)`);
console.log(`  ERDDAP:     ${b.perDay.erddapRequests.min}–${b.perDay.erddapRequests.max} requests/day (at most ${b.perDay.erddapRequests.worst} if it fails all day)`);
console.log(`  CO-OPS:     ${b.perDay.coopsRequests} requests/day (one per NOAA station)`);

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

const timed = async (spot: string) => {
  const t = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/conditions?spot=${spot}`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${spot}: HTTP ${res.status}`);
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
console.log(`\nMeasured against the emulator (${catalog.spots.length} spots in one hour): ${JSON.stringify(stub.calls)}, ${stub.openMeteo.counters.weightedCalls} weighted Open-Meteo calls, ${Object.values(stub.openMeteo.counters.refused).reduce((a, c) => a + c, 0)} refused`);
console.log(`Latency per conditions request, median over ${cold.length} regions:`);
console.log(`  upstream cache miss (2 Open-Meteo calls one at a time, CO-OPS, build): ${median(cold).toFixed(1)} ms`);
console.log(`  upstream cache hit, forecast built:             ${median(warm).toFixed(1)} ms`);
console.log(`  forecast cache hit:                             ${median(hot).toFixed(1)} ms`);
console.log(`  → a cache miss adds about ${(median(cold) - median(warm)).toFixed(1)} ms against the emulator at a tenth of the real latency`);
server.closeAllConnections();
server.close();
await stub.close();
