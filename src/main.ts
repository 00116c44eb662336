// Entry point: `npm start`. Reads configuration, loads the catalogue, tides and seasonal norms,
// and serves HTTP until SIGTERM/SIGINT, finishing in-flight requests before exiting.
import { systemClock } from "./clock.js";
import { ConfigError, loadConfig } from "./config.js";
import { createContext } from "./context.js";
import { createApp } from "./http/app.js";
import { createLogger } from "./logger.js";

function main(): void {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger(config.logLevel);
  const ctx = createContext({ config, clock: systemClock, log });
  // Parse the share-image fonts now rather than on the first card request (~250 ms once).
  ctx.cardImages.warm().catch((err: unknown) => log.error({ err }, "share-image fonts failed to load"));
  const server = createApp(ctx).listen(config.port, config.host, () => {
    log.info({ port: config.port, host: config.host, base: config.publicBaseUrl, data: config.dataSource, spots: ctx.catalog.spots.length }, "listening");
  });
  const stop = (signal: string) => {
    log.info({ signal }, "shutting down");
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main();
