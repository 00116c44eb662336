// Graceful shutdown: on SIGTERM (or SIGINT) stop accepting connections, report not-ready so load
// balancers stop sending, let in-flight requests finish, release Redis and timers, then exit 0.
// A request still running after the grace period is abandoned and the process exits 1.
import type { Server } from "node:http";
import type { Logger } from "pino";
import type { ServiceContext } from "../context.js";

export const SHUTDOWN_GRACE_MS = 10_000;

export function installGracefulShutdown(server: Server, ctx: ServiceContext, log: Logger, exit: (code: number) => void = (c) => process.exit(c)): (signal: string) => void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.draining = true;
    log.info({ signal }, "shutting down: finishing in-flight requests");
    const hard = setTimeout(() => {
      log.warn({ graceMs: SHUTDOWN_GRACE_MS }, "requests still running after the grace period; exiting");
      exit(1);
    }, SHUTDOWN_GRACE_MS);
    hard.unref();
    server.close(() => {
      void ctx.close().finally(() => {
        clearTimeout(hard);
        log.info("shut down cleanly");
        exit(0);
      });
    });
    // Keep-alive connections with no request in flight would otherwise hold close() open.
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return stop;
}
