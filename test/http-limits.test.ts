// Requests Node refuses before Express sees them, and slow clients, on the raw wire (net sockets):
// oversized or numerous headers → 431 problem, a URL over the head limit → 414 problem, garbage → 400
// problem, a client dribbling its headers or body → 408 and the connection closed, while other
// clients are served as usual. The timeouts are shortened here; the service's own are checked too.
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachClientErrorHandler, createHttpServer, MAX_HEADER_BYTES, SERVER_TIMEOUTS, type ServerTimeouts } from "../src/http/server-hooks.js";
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_QUERY_BYTES, MCP_MAX_BODY_BYTES, REQUEST_TIMEOUT_MS } from "../src/web/http-limits.js";
import { expectProblem } from "./helpers/problem.js";
import { startService, type TestService } from "./helpers/service.js";

// Short enough to test in seconds, long enough that a busy machine still serves the other clients
// well inside them: no assertion below depends on how fast anything runs, only on what happened first.
const FAST: ServerTimeouts = { headersTimeoutMs: 3000, requestTimeoutMs: 5000, keepAliveTimeoutMs: 20_000, checkIntervalMs: 100 };

let svc: TestService;
let port: number;
beforeAll(async () => {
  svc = await startService({ timeouts: FAST });
  port = Number(new URL(svc.base).port);
});
afterAll(() => svc.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfterMs: number;
  /** When the server closed the connection (performance.now()). */
  closedAt: number;
  /** Whether every part had been written before the server closed the connection. */
  sentAll: boolean;
}

/** Writes `parts` to a fresh socket, `gapMs` apart, and reads until the server closes it. */
function rawExchange(parts: string[], gapMs = 0): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", body = ""] = text.split("\r\n\r\n", 2);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      const closedAt = performance.now();
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body, closedAfterMs: closedAt - started, closedAt, sentAll: i >= parts.length });
    });
    let i = 0;
    const next = () => {
      if (i >= parts.length || socket.destroyed) return;
      socket.write(parts[i++]!);
      timer = setTimeout(next, gapMs);
    };
    next();
  });
}

const problemOf = (a: RawAnswer) => {
  expect(a.headers["content-type"]).toBe("application/problem+json");
  expect(a.headers["connection"]).toBe("close");
  expect(a.headers["link"]).toContain(`<${svc.base}/docs>; rel="service-doc"`);
  expect(Number(a.headers["content-length"])).toBe(Buffer.byteLength(a.body));
  return JSON.parse(a.body) as Record<string, unknown>;
};

describe("requests Node's parser refuses get a problem, not a reset", () => {
  it(`one header over the ${MAX_HEADER_BYTES}-byte head limit → 431 header_too_large`, async () => {
    const a = await rawExchange([`GET /api/v1/spots HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(MAX_HEADER_BYTES)}\r\n\r\n`]);
    expectProblem(svc, a.status, problemOf(a), 431, "header_too_large");
  });

  it("thousands of small headers → 431 header_too_large", async () => {
    const many = Array.from({ length: 2500 }, (_, i) => `X-H${i}: v`).join("\r\n");
    expect(many.length).toBeGreaterThan(MAX_HEADER_BYTES);
    const a = await rawExchange([`GET /api/v1/spots HTTP/1.1\r\nHost: x\r\n${many}\r\n\r\n`]);
    expectProblem(svc, a.status, problemOf(a), 431, "header_too_large");
  });

  it("a URL longer than the whole head limit → 414 uri_too_long (like any query over the REST limit)", async () => {
    const a = await rawExchange([`GET /api/v1/spots?q=${"a".repeat(MAX_HEADER_BYTES + 10)} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expectProblem(svc, a.status, problemOf(a), 414, "uri_too_long");
    const b = await svc.json(`/api/v1/spots?q=${"a".repeat(MAX_QUERY_BYTES + 1)}`);
    expectProblem(svc, b.status, b.body, 414, "uri_too_long");
  });

  it.each([
    ["not HTTP at all", "HELLO\r\n\r\n"],
    ["a bad header line", "GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n"],
    ["conflicting body lengths", "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"],
  ])("%s → 400 problem", async (_what, wire) => {
    const a = await rawExchange([wire]);
    expectProblem(svc, a.status, problemOf(a), 400, "invalid_parameter");
  });

  it("a path segment that is not valid percent-encoding → 400: an HTML page on pages, a problem on the card image", async () => {
    for (const path of ["/s/%C0%AF/2026-11-22", "/spots/%FF%FE", "/s/hanauma-bay/%E0%A4%A"]) {
      const res = await svc.get(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(res.headers.get("content-security-policy"), path).toContain("default-src 'none'");
    }
    const card = await svc.json("/cards/%C0%AF/2026-11-22.png");
    expectProblem(svc, card.status, card.body, 400, "invalid_parameter");
  });

  it(`a body over ${MCP_MAX_BODY_BYTES} bytes on /mcp → 413`, async () => {
    const res = await svc.get("/mcp", { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "x".repeat(MCP_MAX_BODY_BYTES + 1) });
    expect(res.status).toBe(413);
  });
});

describe("slow clients are cut off without holding up anyone else", () => {
  /**
   * Normal requests made while slow clients hold connections; resolves with when each was answered.
   * Not timed: the tests check they were answered before the slow clients were cut off.
   */
  async function othersMeanwhile(n: number): Promise<number[]> {
    const answeredAt: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await svc.get("/api/v1/spots?region=us-hi-oahu");
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      answeredAt.push(performance.now());
    }
    return answeredAt;
  }

  it("headers sent a few bytes at a time → 408 and closed once the headers timeout passes", async () => {
    // 400 header lines 50 ms apart would take 20 s: far past the headers timeout.
    const dribble = ["GET /api/v1/spots HTTP/1.1\r\n", ...Array.from({ length: 400 }, (_, i) => `X-${i}: a\r\n`)];
    const slow = Array.from({ length: 20 }, () => rawExchange(dribble, 50));
    const answeredAt = await othersMeanwhile(3);
    const answers = await Promise.all(slow);
    for (const a of answers) {
      expect(a.status).toBe(408);
      expect(a.headers["connection"]).toBe("close");
      // Cut off once the timeout passed, before it finished sending (never early, however busy the machine).
      expect(a.closedAfterMs).toBeGreaterThanOrEqual(FAST.headersTimeoutMs - 50);
      expect(a.sentAll).toBe(false);
    }
    // Everyone else was served while the slow clients still held their connections.
    expect(Math.max(...answeredAt)).toBeLessThan(Math.min(...answers.map((a) => a.closedAt)));
  });

  it("a body sent a byte at a time → 408 once the request timeout passes", async () => {
    const head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n";
    // 400 bytes 50 ms apart would take 20 s: far past the request timeout.
    const slow = rawExchange([head, ...Array.from({ length: 400 }, () => " ")], 50);
    const answeredAt = await othersMeanwhile(3);
    const a = await slow;
    expect(a.status).toBe(408);
    expect(a.closedAfterMs).toBeGreaterThanOrEqual(FAST.requestTimeoutMs - 50);
    expect(a.sentAll).toBe(false);
    expect(Math.max(...answeredAt)).toBeLessThan(a.closedAt);
  });

  it("an idle keep-alive connection outlives the headers timeout and is reused", async () => {
    const get = (agent: Agent) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const req = request(`${svc.base}/healthz`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode!, reused: req.reusedSocket }));
        });
        req.on("error", reject);
        req.end();
      });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(agent)).toEqual({ status: 200, reused: false });
    await new Promise((r) => setTimeout(r, FAST.headersTimeoutMs * 2));
    expect(await get(agent)).toEqual({ status: 200, reused: true });
    agent.destroy();
  });
});

describe("graceful close with long keep-alive", () => {
  it("close() completes as soon as the in-flight response is done, not after the keep-alive timeout", async () => {
    const server = createHttpServer(FAST);
    server.on("request", (_req, res) => setTimeout(() => res.end("done"), 300));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port: p } = server.address() as { port: number };
    const agent = new Agent({ keepAlive: true });
    const answer = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      request(`http://127.0.0.1:${p}/`, { agent }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
      })
        .on("error", reject)
        .end();
    });
    await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    const closed = new Promise<number>((r) => server.close(() => r(performance.now() - started)));
    expect((await answer).status).toBe(200);
    expect(await closed).toBeLessThan(FAST.keepAliveTimeoutMs / 4);
    agent.destroy();
  });
});

describe("the service's own server settings", () => {
  it("uses the limits from src/base/limits.ts: head in 10 s, request in 30 s, keep-alive longer than a 60 s proxy idle timeout", async () => {
    expect(SERVER_TIMEOUTS).toMatchObject({ headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS });
    expect(HEADERS_TIMEOUT_MS).toBeLessThan(REQUEST_TIMEOUT_MS);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    const server = createHttpServer();
    attachClientErrorHandler(server, svc.ctx);
    expect({ headers: server.headersTimeout, request: server.requestTimeout, keepAlive: server.keepAliveTimeout }).toEqual({
      headers: HEADERS_TIMEOUT_MS,
      request: REQUEST_TIMEOUT_MS,
      keepAlive: KEEP_ALIVE_TIMEOUT_MS,
    });
    expect(server.listenerCount("clientError")).toBe(1);
    server.close();
  });
});
