// With no internet every upstream call fails at once with a network error. That is an expected state,
// not news per request: one warning per upstream when it becomes unreachable, one line when it is back,
// and the breaker's cycles in between at debug.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { FixedClock } from "../src/base/clock.js";
import { CircuitBreaker } from "../src/sources/breaker.js";
import { UpstreamClient } from "../src/sources/http.js";
import { MemoryUpstreamBudget, UpstreamLane } from "../src/sources/scheduler.js";
import { freePort } from "./helpers/ports.js";

function capture() {
  const lines: { level: number; msg: string }[] = [];
  const log = pino(
    { level: "debug" },
    new Writable({
      write(c: Buffer, _e, done) {
        for (const l of c.toString().split("\n")) if (l) lines.push(JSON.parse(l) as { level: number; msg: string });
        done();
      },
    }),
  );
  return { log, lines };
}

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe("an upstream with no network route", () => {
  it("is reported once as unreachable, its breaker cycles at debug, and once when it answers again", async () => {
    const clock = new FixedClock("2026-11-21T19:00:00Z");
    const { log, lines } = capture();
    const breaker = new CircuitBreaker("test-upstream", { failureThreshold: 3, cooldownMs: 60_000, clock, log });
    const lane = new UpstreamLane("test-upstream", { budget: new MemoryUpstreamBudget(2, []), clock, log });
    const client = new UpstreamClient("test-upstream", { breaker, lane, timeoutMs: 10_000, clock, log, userAgent: "test" });
    // A port nobody listens on: connection refused, the network error an offline machine gives.
    const port = await freePort();
    const url = new URL(`http://127.0.0.1:${port}/data`);
    const parse = (b: unknown) => b;
    for (let cycle = 0; cycle < 4; cycle++) {
      for (let i = 0; i < 5; i++) await expect(client.getJson(url, parse)).rejects.toMatchObject({ kind: expect.stringMatching(/^(network|circuit_open)$/) });
      clock.advance(61_000);
    }
    const loud = lines.filter((l) => l.level >= 40);
    expect(loud.map((l) => l.msg)).toEqual(["upstream test-upstream unreachable (no network?): answering without it until it is back; further failures are not logged"]);
    expect(lines.some((l) => l.level === 20 && l.msg.includes("circuit opened"))).toBe(true);

    // The network is back: one line says so.
    server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    await client.getJson(url, parse);
    expect(lines.filter((l) => l.level === 30).map((l) => l.msg)).toEqual(
      expect.arrayContaining(["upstream test-upstream: reachable again", "upstream test-upstream: circuit closed, upstream healthy again"]),
    );
    expect(lines.filter((l) => l.level >= 40)).toHaveLength(1);
  });

  it("other failures still warn per failure and when the circuit opens", async () => {
    const clock = new FixedClock("2026-11-21T19:00:00Z");
    const { log, lines } = capture();
    server = createServer((_req, res) => res.writeHead(500).end("boom"));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/data`);
    const breaker = new CircuitBreaker("test-upstream", { failureThreshold: 3, cooldownMs: 60_000, clock, log });
    const lane = new UpstreamLane("test-upstream", { budget: new MemoryUpstreamBudget(2, []), clock, log });
    const client = new UpstreamClient("test-upstream", { breaker, lane, timeoutMs: 10_000, clock, log, userAgent: "test" });
    for (let i = 0; i < 3; i++) await expect(client.getJson(url, (b) => b)).rejects.toBeTruthy();
    expect(
      lines
        .filter((l) => l.level === 40)
        .map((l) => l.msg)
        .sort(),
    ).toEqual(["upstream test-upstream failed", "upstream test-upstream failed", "upstream test-upstream failed", "upstream test-upstream: circuit opened, calls paused"]);
  });
});
