// Graceful shutdown: on SIGTERM (or SIGINT) stop accepting connections, report not-ready so load
// balancers stop sending, let in-flight requests finish, release Redis and timers, then exit 0.
// A request still running after the grace period is abandoned and the process exits 1.
//
// The forced exit is armed before anything else runs (a log line included), so nothing that can
// stall (a log reader that stopped reading, a Redis that does not answer, a request that never ends)
// can keep the process alive past the grace period.
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { ServiceContext } from "../services/context.js";
import type { ServiceLogger } from "../base/logger.js";

export const SHUTDOWN_GRACE_MS = 10_000;

/** How often a process started by npm looks whether npm is still there. */
const PARENT_CHECK_MS = 1_000;

const SHELLS = new Set(["sh", "dash", "bash", "zsh", "ash"]);

/** A process's parent pid (Linux /proc), or null where there is no /proc. */
function parentOf(pid: number): number | null {
  try {
    // The command name may hold spaces and parentheses: the fields after it start at the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

function commandOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * npm's own pid for a process npm started: the parent, or the parent's parent when npm ran the
 * script through a shell that stayed (npm → sh → node).
 */
function npmPid(): number {
  const parent = process.ppid;
  const command = commandOf(parent);
  const grandparent = command !== null && SHELLS.has(command) ? parentOf(parent) : null;
  return grandparent !== null && grandparent > 1 ? grandparent : parent;
}

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
  // and the shell, never this process, which is handed to init and would keep the port; npm killed
  // outright (SIGKILL) leaves the shell too. So a process started by npm stops as on SIGTERM once
  // its parent is gone (it has been re-parented) or npm itself is.
  if (process.env.npm_lifecycle_event) {
    const parent = process.ppid;
    const npm = npmPid();
    const watch = setInterval(() => {
      if (process.ppid === parent && alive(npm)) return;
      clearInterval(watch);
      stop("parent exited");
    }, PARENT_CHECK_MS);
    watch.unref();
  }
  return stop;
}
