// Operating the service: request ids and one structured log line per request (no query strings,
// no keys), liveness and readiness, and headers fit for an API.
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
const logs: Record<string, unknown>[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      for (const line of chunk.toString().split("\n")) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  svc = await startService({ env: { LOG_LEVEL: "info" }, log: pino({ level: "info" }, sink) });
});
afterAll(() => svc.close());

describe("request ids and logs", () => {
  it("gives every response a request id, keeping a well-formed incoming one", async () => {
    const fresh = await svc.get("/api/v1/coverage");
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await svc.get("/api/v1/coverage", { headers: { "X-Request-Id": "trace-42.a" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-42.a");
    const replaced = await svc.get("/api/v1/coverage", { headers: { "X-Request-Id": "<script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("logs one line per request with id, route, status and duration, and never the query string", async () => {
    const res = await svc.get("/api/v1/conditions?spot=hanauma-bay&note=private-words", { headers: { "X-Request-Id": "log-check-1" } });
    await res.text();
    await expect.poll(() => logs.find((l) => l.reqId === "log-check-1")).toBeDefined();
    const line = logs.find((l) => l.reqId === "log-check-1")!;
    expect(line).toMatchObject({ msg: "request", method: "GET", route: "/api/v1/conditions", status: 200, caller: "ip:127.0.0.1" });
    expect(typeof line.ms).toBe("number");
    expect(JSON.stringify(logs)).not.toContain("private-words");
    await svc.get("/nope", { headers: { "X-Request-Id": "log-check-2" } });
    await expect.poll(() => logs.find((l) => l.reqId === "log-check-2")).toMatchObject({ status: 404, route: "/nope" });
  });
});

describe("health", () => {
  it("is live and ready once the data is loaded, and not ready while draining", async () => {
    expect(await (await svc.get("/healthz")).json()).toMatchObject({ status: "ok", source: { name: "Ocean Conditions" } });
    const ready = await svc.json("/readyz");
    expect(ready).toMatchObject({ status: 200, body: { status: "ok", checks: { catalog: true, tides: true, draining: false } } });
    svc.ctx.draining = true;
    try {
      const draining = await svc.json("/readyz");
      expect(draining).toMatchObject({ status: 503, body: { status: "draining" } });
      expect(draining.res.headers.get("retry-after")).toBe("5");
      expect((await svc.get("/healthz")).status).toBe(200);
    } finally {
      svc.ctx.draining = false;
    }
  });
});

describe("headers fit for an API", () => {
  it("allows cross-origin GET on REST only, exposes the budget headers and never sniffs", async () => {
    const res = await svc.get("/api/v1/coverage");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("RateLimit");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const pre = await svc.get("/api/v1/coverage", { method: "OPTIONS" });
    expect(pre.headers.get("access-control-allow-methods")).toBe("GET, OPTIONS");
    const mcp = await svc.get("/mcp", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(mcp.headers.get("access-control-allow-origin")).toBeNull();
  });
  it("sends a strict Content-Security-Policy with HTML pages", async () => {
    const page = await svc.get("/spots/hanauma-bay");
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
  });
});
