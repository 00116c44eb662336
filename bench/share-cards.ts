// Share-image benchmark: cold render time (first render in a fresh process and a fresh renderer),
// uncached render time across spots, and cached throughput of GET /cards/… (200 and 304) next to a
// bare node:http server sending the same PNG, in the same run. Loopback only; bounded in time.
// Run: npm run bench:cards [-- --duration 5 --connections 10]
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { spotDay } from "../src/cards/spot-day.js";
import { FixedClock } from "../src/clock.js";
import { loadConfig } from "../src/config.js";
import { createContext } from "../src/context.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/logger.js";
import { PROJECT_ROOT } from "../src/paths.js";
import { CardImages, cardImageModel } from "../src/share/card-image.js";

const { values: args } = parseArgs({ options: { duration: { type: "string", default: "5" }, connections: { type: "string", default: "10" } } });
const DURATION_S = Math.min(30, Number(args.duration));
const CONNECTIONS = Math.min(100, Number(args.connections));
const NOW = "2026-11-21T19:00:00Z";
const SPOT = "hanauma-bay";
const DATE = "2026-11-22";
const PATH = `/cards/${SPOT}/${DATE}.png?activity=snorkel`;

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const ms = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

const config = loadConfig({ DATA_SOURCE: "offline", LOG_LEVEL: "silent", PUBLIC_BASE_URL: "http://127.0.0.1" });
const ctx = createContext({ config, clock: new FixedClock(NOW), log: createLogger("silent") });
const model = cardImageModel(await spotDay({ spot: SPOT, date: DATE, activity: "snorkel" }, ctx));

// 1. Cold: the process's first render (library and font initialisation included), then a second
// renderer's first render (its fonts parsed again), then uncached renders across every spot.
let t0 = performance.now();
const firstPng = await ctx.cardImages.render(model);
const coldProcessMs = ms(t0);
t0 = performance.now();
await new CardImages().render(model);
const coldRendererMs = ms(t0);
const uncached: number[] = [];
for (const spot of ctx.catalog.spots) {
  const m = cardImageModel(await spotDay({ spot: spot.id, date: DATE, activity: "dive" }, ctx));
  t0 = performance.now();
  await ctx.cardImages.render(m);
  uncached.push(performance.now() - t0);
}

// 2. HTTP: the service (cache warm after one request) and a bare node:http baseline with the same bytes.
const service = createServer(createApp(ctx));
const servicePort = await listen(service);
const firstHttp = performance.now();
const first = await fetch(`http://127.0.0.1:${servicePort}${PATH}`);
await first.arrayBuffer();
const etag = first.headers.get("etag")!;
const firstRequestMs = ms(firstHttp);
const baseline = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "image/png", "content-length": firstPng.length, etag });
  res.end(firstPng);
});
const baselinePort = await listen(baseline);

async function load(url: string, headers: Record<string, string> = {}) {
  // The load generator runs in a worker thread so it does not share the server's event loop.
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers, workers: 1 });
  return { rps: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors, mb_s: Math.round((r.throughput.average / 1e6) * 10) / 10 };
}
const rendersBefore = ctx.cardImages.renders;
const cached200 = await load(`http://127.0.0.1:${servicePort}${PATH}`);
const cached304 = await load(`http://127.0.0.1:${servicePort}${PATH}`, { "if-none-match": etag });
const bare = await load(`http://127.0.0.1:${baselinePort}/card.png`);
const rendersDuringLoad = ctx.cardImages.renders - rendersBefore;
await close(service);
await close(baseline);

const results = {
  at: new Date().toISOString(),
  node: process.version,
  png_bytes: firstPng.length,
  cold: { first_render_in_process_ms: coldProcessMs, first_render_fresh_renderer_ms: coldRendererMs, first_http_request_ms: firstRequestMs },
  uncached_render_ms: { n: uncached.length, median: Math.round(pct(uncached, 0.5) * 10) / 10, p95: Math.round(pct(uncached, 0.95) * 10) / 10 },
  load: { duration_s: DURATION_S, connections: CONNECTIONS, cached_200: cached200, revalidated_304: cached304, bare_node_http_same_png: bare },
  ratio_cached_to_bare: Math.round((cached200.rps / bare.rps) * 100) / 100,
  renders_during_load: rendersDuringLoad,
};
console.log(JSON.stringify(results, null, 2));
const dir = join(PROJECT_ROOT, "bench", "results");
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, `share-cards-${results.at.replace(/[:.]/g, "-")}.json`), JSON.stringify(results, null, 2));
