// Test harness: the real service (context + Express app) on an ephemeral 127.0.0.1 port, with a
// pinned clock. Each call starts its own server; `close()` stops it. The catalogue defaults to the
// ranked test catalogue (helpers/catalog.ts); pass `catalog: Catalog.load()` for the shipped publication.
import type { Server } from "node:http";
import { afterEach } from "vitest";
import type { AddressInfo } from "node:net";
import { FixedClock } from "../../src/base/clock.js";
import { loadConfig } from "../../src/base/config.js";
import { createContext, type ContextOptions } from "../../src/compose.js";
import type { ServiceContext } from "../../src/services/context.js";
import { createApp } from "../../src/http/app.js";
import { rankedTestCatalog } from "./catalog.js";
import { attachClientErrorHandler, createHttpServer, limitConnections, SERVER_TIMEOUTS, type ServerTimeouts } from "../../src/http/server-hooks.js";
import { createLogger } from "../../src/base/logger.js";

export interface TestService {
  base: string;
  ctx: ServiceContext;
  clock: FixedClock;
  server: Server;
  get(path: string, init?: RequestInit): Promise<Response>;
  json<T = Record<string, unknown>>(path: string, init?: RequestInit): Promise<{ status: number; body: T; res: Response }>;
  close(): Promise<void>;
}

export interface StartOptions extends Partial<Omit<ContextOptions, "config" | "clock">> {
  /** Pinned time (default 2026-11-21T19:00:00Z = 09:00 in Honolulu, 11:00 in San Diego). */
  now?: string;
  env?: Record<string, string>;
  /**
   * Server timeouts (default: TEST_TIMEOUTS, generous); slow-client tests set their own short ones.
   * The service's own 10 s header timeout raced the test's own CPU in the same worker: a busy
   * machine made a page answer 408 before the test had written its request.
   */
  timeouts?: ServerTimeouts;
}

export const DEFAULT_NOW = "2026-11-21T19:00:00Z";

/** The test servers' timeouts: a test's own generous timeouts, never a race with the machine's speed. */
export const TEST_TIMEOUTS: ServerTimeouts = { ...SERVER_TIMEOUTS, headersTimeoutMs: 120_000, requestTimeoutMs: 120_000 };

/** Tests fire hundreds of calls from one address: caps are off unless a test turns them on. */
export const NO_RATE_LIMITS = {
  RATE_LIMIT_FACTS_PER_HOUR: "0",
  RATE_LIMIT_FACTS_PER_DAY: "0",
  RATE_LIMIT_SPOTS_PER_HOUR: "0",
  RATE_LIMIT_SPOTS_PER_DAY: "0",
  RATE_LIMIT_DECISIONS_BURST: "0",
  RATE_LIMIT_RENDERS_PER_HOUR: "0",
  // The per-address request budget (docs/operations.md) is tested on its own in test/abuse.test.ts.
  MAX_REQUESTS_PER_SECOND_PER_IP: "0",
};

export async function startService(opts: StartOptions = {}): Promise<TestService> {
  const server = createHttpServer(opts.timeouts ?? TEST_TIMEOUTS);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  // Scoring satellite observations adds Open-Meteo hindcast requests in live runs; tests that count
  // upstream calls leave it off, and the validation tests turn it on.
  const config = loadConfig({
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_BASE_URL: base,
    DATA_SOURCE: "offline",
    LOG_LEVEL: "silent",
    VALIDATION_SCORING: "off",
    MCP_REPLAY: process.env.MCP_REPLAY,
    ...NO_RATE_LIMITS,
    ...opts.env,
  });
  const clock = new FixedClock(opts.now ?? DEFAULT_NOW);
  const { now: _now, env: _env, timeouts: _timeouts, ...rest } = opts;
  const ctx = createContext({ config, clock, ...rest, catalog: rest.catalog ?? rankedTestCatalog(), log: rest.log ?? createLogger("silent") });
  attachClientErrorHandler(server, ctx);
  limitConnections(server, ctx.config.connections, ctx.log);
  server.on("request", createApp(ctx));
  const get = (path: string, init?: RequestInit) => fetch(`${base}${path}`, init);
  return {
    base,
    ctx,
    clock,
    server,
    get,
    async json<T>(path: string, init?: RequestInit) {
      const res = await get(path, init);
      const text = await res.text();
      let body: T;
      try {
        body = JSON.parse(text) as T;
      } catch {
        throw new Error(`${path}: not JSON (${res.status}): ${text.slice(0, 200)}`);
      }
      return { status: res.status, body, res };
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await ctx.close();
    },
  };
}

/** A `service(env)` starter for a test file: every service it starts is closed after each test. */
export function servicesPerTest(): (env: Record<string, string>) => Promise<TestService> {
  const started: TestService[] = [];
  afterEach(async () => {
    while (started.length) await started.pop()!.close();
  });
  return async (env) => {
    const s = await startService({ env });
    started.push(s);
    return s;
  };
}
