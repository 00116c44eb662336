// Graceful shutdown: on SIGTERM (or SIGINT) stop accepting connections, report not-ready so load
// balancers stop sending, let in-flight requests finish, release Redis and timers, then exit 0.
// A request still running after the grace period is abandoned and the process exits 1.
//
// The forced exit is armed before anything else runs (a log line included), so nothing that can
// stall (a log reader that stopped reading, a Redis that does not answer, a request that never ends)
// can keep the process alive past the grace period.
import type { Server } from "node:http";
import type { ServiceContext } from "../context.js";
import type { ServiceLogger } from "../logger.js";

export const SHUTDOWN_GRACE_MS = 10_000;

/** How often a process started by npm looks whether npm is still its parent. */
const PARENT_CHECK_MS = 1_000;

/** Part of the grace period kept for queued log lines to reach their reader before exiting. */
const LOG_FLUSH_MS = 500;

export function installGracefulShutdown(
  server: Server,
  ctx: ServiceContext,
  log: ServiceLogger,
  exit: (code: number) => void = (c) => process.exit(c),
  graceMs = SHUTDOWN_GRACE_MS,
): (signal: string) => void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const deadline = performance.now() + graceMs;
    const hard = setTimeout(() => exit(1), graceMs);
    hard.unref();
    ctx.draining = true;
    log.info({ signal, graceMs }, "shutting down: finishing in-flight requests");
    const late = setTimeout(() => log.warn({ graceMs }, "requests still running after the grace period; exiting"), Math.max(0, graceMs - LOG_FLUSH_MS));
    late.unref();
    server.close(() => {
      void ctx.close().finally(async () => {
        clearTimeout(late);
        log.info("shut down cleanly");
        await log.flushLines?.(Math.min(LOG_FLUSH_MS, Math.max(0, deadline - performance.now())));
        clearTimeout(hard);
        exit(0);
      });
    });
    // Keep-alive connections with no request in flight would otherwise hold close() open.
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  // Under `npm start` the process runs below npm and a shell. A supervisor that signals npm ends npm
  // and the shell, never this process, which is handed to init and would keep the port. So a process
  // started by npm stops as on SIGTERM once its parent is gone (it has been re-parented).
  if (process.env.npm_lifecycle_event) {
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(watch);
      stop("parent exited");
    }, PARENT_CHECK_MS);
    watch.unref();
  }
  return stop;
}
