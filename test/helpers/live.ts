// Live-mode harness: the stub upstreams and the real service on ephemeral 127.0.0.1 ports, sharing
// the service's pinned clock, with small timeouts; log lines are captured for assertions.
import { Writable } from "node:stream";
import { pino } from "pino";
import { startStubUpstreams, type StubOptions, type StubUpstreams } from "../../scripts/stub/upstreams.js";
import type { ScenarioName } from "../../scripts/stub/scenarios.js";
import type { Catalog } from "../../src/catalog/catalog.js";
import type { ClimatologyTable } from "../../src/sources/climatology-schema.js";
import { startService, type TestService } from "./service.js";
import { afterEach } from "vitest";

export interface LiveRun {
  svc: TestService;
  stub: StubUpstreams;
  /** Log records the service wrote (parsed pino JSON). */
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

export interface LiveOptions {
  mode?: "live" | "auto" | "offline";
  scenario?: ScenarioName;
  now?: string;
  env?: Record<string, string>;
  /** The catalogue served (default: the ranked test catalogue), and norms for regions not in data/. */
  catalog?: Catalog;
  climatology?: Map<string, ClimatologyTable>;
  delayMs?: number;
  /** Emulator latency as a share of the real upstreams' (default TEST_LATENCY_SCALE). */
  latencyScale?: number;
  /** Emulator options beyond the defaults (limits and quirks stay real unless a test says so). */
  stub?: Omit<StubOptions, "scenario" | "now" | "delayMs" | "latencyScale">;
}

/** Tests run the emulator at 1 % of the real latency (ERDDAP 80–180 ms); limits and quirks are real. */
export const TEST_LATENCY_SCALE = 0.01;

/**
 * The service's upstream timeout in live runs: generous, because the stub on a machine whose cores
 * are busy elsewhere can take seconds to answer, and no healthy call may time out. Only a test that
 * makes the stub hang waits for it, and it passes HANG_TIMEOUT instead.
 */
export const TEST_TIMEOUT_MS = 20_000;
/** For tests that make an upstream hang (fault `timeout`): the service gives up on it (ERDDAP included) after 2.5 s. */
export const HANG_TIMEOUT = { UPSTREAM_TIMEOUT_MS: "2500", ERDDAP_TIMEOUT_MS: "2500" } as const;
/** ERDDAP's own timeout in tests: well above the emulator's scaled 80–180 ms, even on a busy machine. */
export const ERDDAP_TEST_TIMEOUT_MS = 5000;

export async function startLive(opts: LiveOptions = {}): Promise<LiveRun> {
  let svc: TestService | null = null;
  const stub = await startStubUpstreams({
    ...opts.stub,
    scenario: opts.scenario ?? "calm",
    now: () => svc!.clock.now(),
    delayMs: opts.delayMs ?? 0,
    latencyScale: opts.latencyScale ?? TEST_LATENCY_SCALE,
  });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString("utf8").split("\n")) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  svc = await startService({
    now: opts.now,
    catalog: opts.catalog,
    climatology: opts.climatology,
    env: { DATA_SOURCE: opts.mode ?? "live", UPSTREAM_TIMEOUT_MS: String(TEST_TIMEOUT_MS), ERDDAP_TIMEOUT_MS: String(ERDDAP_TEST_TIMEOUT_MS), ...stub.env, ...opts.env },
    log: pino({ level: "info" }, sink),
  });
  return {
    svc,
    stub,
    logs,
    async close() {
      await svc!.ctx.upstreams?.settled();
      await svc!.close();
      await stub.close();
    },
  };
}

/** For a test file: starts live runs on demand and closes each test's runs after it. */
export function liveRuns(): (opts?: LiveOptions) => Promise<LiveRun> {
  let runs: LiveRun[] = [];
  afterEach(async () => {
    await Promise.all(runs.map((r) => r.close()));
    runs = [];
  });
  return async (opts = {}) => {
    const r = await startLive(opts);
    runs.push(r);
    return r;
  };
}
