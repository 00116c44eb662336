#!/usr/bin/env node
// Entry point. `npm start` serves HTTP (REST, MCP at /mcp, pages) until SIGTERM/SIGINT, finishing
// in-flight requests before exiting. With `--stdio` it serves the same four MCP tools over
// stdin/stdout for desktop hosts (logs then go to stderr).
import type { AddressInfo } from "node:net";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { systemClock } from "./base/clock.js";
import { ConfigError, loadConfig, type Config } from "./base/config.js";
import { createContext } from "./compose.js";
import { createApp } from "./http/app.js";
import { attachClientErrorHandler, createHttpServer, limitConnections } from "./http/server-hooks.js";
import { installGracefulShutdown } from "./http/shutdown.js";
import { startIdleCompaction, type Compaction } from "./runtime/idle-compaction.js";
import { setHeapGrowth } from "./runtime/heap.js";
import { createLogger, type ServiceLogger } from "./base/logger.js";
import { createMcpServerFactory, prepareToolSchemas } from "./mcp/server.js";
import { startupBlock } from "./startup.js";

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
}

const MB = 1024 * 1024;

/**
 * Once warmed up: the tools' JSON Schemas for tools/list, then the watch that compacts the heap when
 * the service falls idle (src/runtime/idle-compaction.ts), counting the heap's growth from its size at
 * ready; never while a request is being answered (`waiting`). Each compaction is a debug line: its
 * pause and what it gave back.
 */
async function afterWarmUp(log: ServiceLogger, waiting?: () => boolean): Promise<void> {
  await prepareToolSchemas().catch((err: unknown) => log.error({ err }, "tool schemas failed"));
  if (!config.runtime.idleCompaction) return;
  startIdleCompaction((c: Compaction) => log.debug({ ms: Math.round(c.ms), heap_mb: [Math.round(c.heapBeforeBytes / MB), Math.round(c.heapAfterBytes / MB)] }, "heap compacted while idle"), waiting);
}

function serveHttp(config: Config): void {
  // On a terminal, readable lines after the start-up block; elsewhere JSON lines.
  const log = createLogger(config.logLevel, 1, process.stdout.isTTY === true);
  const ctx = createContext({ config, clock: systemClock, log });
  ctx.upstreams?.start();
  const server = createHttpServer();
  attachClientErrorHandler(server, ctx);
  const connections = limitConnections(server, ctx.config.connections, ctx.log);
  server.on("request", createApp(ctx));
  // Warming from the first tick: /readyz says `starting` until it is done.
  const started = performance.now();
  ctx
    .warmUp()
    .then(() => log.info({ ms: Math.round(performance.now() - started) }, "warmed up: ready"))
    .catch((err: unknown) => log.error({ err }, "warm-up failed"))
    .finally(() => afterWarmUp(log, () => connections.answering() > 0));
  server.listen(config.port, config.host, () => {
    const port = (server.address() as AddressInfo).port;
    // PORT=0 takes any free port: the block names the one taken.
    const base = config.port === 0 ? ctx.links.base.replace(/:0$/, `:${port}`) : ctx.links.base;
    if (process.stdout.isTTY)
      process.stdout.write(startupBlock({ base, dataSource: config.dataSource, spots: ctx.catalog.spots.length, regions: ctx.catalog.regions.length, logLevel: config.logLevel }));
    else log.info({ port, host: config.host, base, data: config.dataSource, spots: ctx.catalog.spots.length }, "listening");
  });
  installGracefulShutdown(server, ctx, log);
}

function serveMcpStdio(config: Config): void {
  const log = createLogger(config.logLevel, 2);
  const ctx = createContext({ config, clock: systemClock, log });
  ctx.upstreams?.start();
  serveStdio(createMcpServerFactory(ctx), { onerror: (err) => log.error({ err }, "stdio error") });
  ctx
    .warmUp()
    .catch((err: unknown) => log.error({ err }, "warm-up failed"))
    .finally(() => afterWarmUp(log));
  log.info({ data: config.dataSource, spots: ctx.catalog.spots.length }, "serving MCP over stdio");
}

const config = readConfig();
setHeapGrowth(config.runtime.heapGrowingPercent);
if (process.argv.includes("--stdio")) serveMcpStdio(config);
else serveHttp(config);
