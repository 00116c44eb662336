// Abuse resistance, through the real HTTP server and MCP client: the limiter's memory stays bounded
// under a flood of made-up callers; X-Forwarded-For is read from the right through trusted proxies;
// IPv6 callers count by /64; AI fetchers share the caller's one counter; failed key attempts are
// limited per address; allotments are exact under concurrency; fresh renders have a per-caller
// budget and a bounded queue; pages are cached for the hour; connection caps per address; MCP
// guards against non-scalar arguments and deep bodies; upstream redirects are never followed.
import { writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { get as httpGet } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ToolErrorSchema } from "../src/schemas/tool-error.js";
import { MAX_PIPELINED_REQUESTS } from "../src/web/http-limits.js";
import { connectClient } from "./helpers/mcp.js";
import { expectProblem } from "./helpers/problem.js";
import { servicesPerTest, type TestService } from "./helpers/service.js";

const service = servicesPerTest();

const xff = (address: string): RequestInit => ({ headers: { "X-Forwarded-For": address } });
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call" };
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "abuse-test", version: "1" } };

describe("limiter memory and who the caller is", () => {
  it("keeps at most RATE_LIMIT_MAX_CALLERS callers in memory however many addresses appear", async () => {
    const svc = await service({ TRUST_PROXY: "loopback", RATE_LIMIT_FACTS_PER_HOUR: "5", RATE_LIMIT_MAX_CALLERS: "100" });
    // Each body is read: an unread one holds its connection, and 256 held connections from one
    // address are the per-address cap.
    for (let i = 0; i < 300; i++) expect((await svc.json("/api/v1/spots", xff(`198.51.${i >> 8}.${i & 255}`))).status).toBe(200);
    expect(svc.ctx.meter.limits.trackedCallers).toBeLessThanOrEqual(100);
    // The most recent callers are still counted.
    const recent = await svc.get("/api/v1/spots", xff("198.51.1.43"));
    expect(recent.headers.get("ratelimit")).toMatch(/"facts-hour";r=3;/);
  });

  it("takes the rightmost address a trusted proxy did not add, so the client-chosen leftmost one buys nothing", async () => {
    for (const trust of ["loopback", "1"]) {
      const svc = await service({ TRUST_PROXY: trust, RATE_LIMIT_FACTS_PER_HOUR: "1" });
      expect((await svc.get("/api/v1/spots", xff("198.51.100.1, 203.0.113.9"))).status).toBe(200);
      const refused = await svc.json("/api/v1/spots", xff("198.51.100.2, 203.0.113.9"));
      expectProblem(svc, refused.status, refused.body, 429, "rate_limited");
      expect((await svc.get("/api/v1/spots", xff("198.51.100.2, 203.0.113.10"))).status).toBe(200);
    }
  });

  it("counts IPv6 callers by their /64", async () => {
    const svc = await service({ TRUST_PROXY: "loopback", RATE_LIMIT_FACTS_PER_HOUR: "1" });
    expect((await svc.get("/api/v1/spots", xff("2001:db8:1:2::a"))).status).toBe(200);
    expect((await svc.get("/api/v1/spots", xff("2001:db8:1:2:ffff:1:2:3"))).status).toBe(429);
    expect((await svc.get("/api/v1/spots", xff("2001:db8:1:3::a"))).status).toBe(200);
  });

  it("gives an AI fetcher a larger quota on the caller's one counter, not a second counter", async () => {
    const svc = await service({ RATE_LIMIT_FACTS_PER_HOUR: "2", AI_FETCHER_MULTIPLIER: "3" });
    const ai = { headers: { "User-Agent": "Mozilla/5.0 (compatible; Claude-User/1.0)" } };
    // The address uses its ordinary budget first…
    for (let i = 0; i < 2; i++) expect((await svc.get("/api/v1/spots")).status).toBe(200);
    expect((await svc.get("/api/v1/spots")).status).toBe(429);
    // …then an AI fetcher's User-Agent gets only the rest of the multiplied quota (6 - 2), not 6 more.
    const aiStatuses = [];
    for (let i = 0; i < 5; i++) aiStatuses.push((await svc.get("/api/v1/spots", ai)).status);
    expect(aiStatuses).toEqual([200, 200, 200, 200, 429]);
    expect((await svc.get("/api/v1/spots", ai)).headers.get("ratelimit-policy")).toContain('"facts-hour";q=6;');
  });

  it("keeps the distinct-spot caps of AI fetchers under half the catalogue", async () => {
    const svc = await service({ RATE_LIMIT_SPOTS_PER_HOUR: "30", AI_FETCHER_MULTIPLIER: "10" });
    const res = await svc.get("/api/v1/conditions?spot=hanauma-bay", { headers: { "User-Agent": "ChatGPT-User/1.0" } });
    const quota = Number(/"spots-hour";q=(\d+)/.exec(res.headers.get("ratelimit-policy")!)![1]);
    expect(quota).toBeGreaterThanOrEqual(30);
    expect(quota).toBeLessThanOrEqual(Math.ceil(svc.ctx.catalog.spots.length / 2));
  });
});

describe("keys", () => {
  const LIVE = "oc_live_Abuse0000000000";
  const keysFile = (allotment: number) => {
    const file = join(tmpdir(), `abuse-keys-${process.pid}-${allotment}.json`);
    writeFileSync(file, JSON.stringify([{ key: LIVE, status: "active", allotment }]));
    return file;
  };
  const REC = "/api/v1/best-day?activity=dive&spot=molokini-back-wall";

  it("limits failed key attempts per address, then refuses every keyed call from it until the window ends", async () => {
    const svc = await service({ AUTH_MODE: "metered", API_KEYS_FILE: keysFile(100), RATE_LIMIT_FAILED_KEYS: "3" });
    for (let i = 0; i < 3; i++) expect((await svc.get(REC, { headers: { Authorization: `Bearer oc_live_guess${i}000000000` } })).status).toBe(401);
    const refused = await svc.json(REC, { headers: { Authorization: "Bearer oc_live_guess9000000000" } });
    expectProblem(svc, refused.status, refused.body, 429, "rate_limited");
    expect(Number(refused.res.headers.get("retry-after"))).toBeGreaterThan(0);
    // Guessing right now teaches nothing: the valid key is refused the same way.
    expect((await svc.get(REC, { headers: { Authorization: `Bearer ${LIVE}` } })).status).toBe(429);
  });

  it("spends a live key's allotment exactly under 20 concurrent calls", async () => {
    const svc = await service({ AUTH_MODE: "metered", API_KEYS_FILE: keysFile(5) });
    const statuses = await Promise.all(Array.from({ length: 20 }, () => svc.get(REC, { headers: { Authorization: `Bearer ${LIVE}` } }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(15);
  });
});

describe("share images and pages", () => {
  it("gives each caller a budget of fresh renders; cached cards and pages stay free", async () => {
    const svc = await service({ RATE_LIMIT_RENDERS_PER_HOUR: "2" });
    expect((await svc.get("/cards/hanauma-bay/2026-11-22.png?activity=snorkel")).status).toBe(200);
    expect((await svc.get("/cards/sharks-cove/2026-11-22.png?activity=snorkel")).status).toBe(200);
    const refused = await svc.json("/cards/electric-beach/2026-11-22.png?activity=snorkel");
    expectProblem(svc, refused.status, refused.body, 429, "rate_limited");
    expect(Number(refused.res.headers.get("retry-after"))).toBeGreaterThan(0);
    // Cards already drawn cost nothing, for anyone.
    for (let i = 0; i < 5; i++) expect((await svc.get("/cards/hanauma-bay/2026-11-22.png?activity=snorkel")).status).toBe(200);
    // Pages share the budget: a page not built yet is refused, a built one is served.
    expect((await svc.get("/spots/hanauma-bay")).status).toBe(429);
  });

  it("groups IPv6 render budgets by /48 too: one allocation cannot mint a budget per /64", async () => {
    const svc = await service({ RATE_LIMIT_RENDERS_PER_HOUR: "1", TRUST_PROXY: "loopback" });
    const spots = ["hanauma-bay", "sharks-cove", "three-tables", "waimea-bay", "electric-beach", "mahi-wreck", "magic-island", "waikiki-mlcd", "china-walls"];
    const pages = spots.flatMap((s) => [`/spots/${s}?date=2026-11-22`, `/spots/${s}?date=2026-11-23`]);
    const statuses = [];
    // Each page from a fresh /64 of the same /48: 16 budgets of one (RENDERS_PER_NETWORK_FACTOR), then none.
    for (const [i, page] of pages.slice(0, 17).entries()) statuses.push((await svc.get(page, xff(`2001:db8:7:${(i + 1).toString(16)}::1`))).status);
    expect(statuses.slice(0, 16).every((s) => s === 200)).toBe(true);
    expect(statuses[16]).toBe(429);
    // Another /48 has its own.
    expect((await svc.get(pages[17]!, xff("2001:db8:8:1::1"))).status).toBe(200);
  });

  it("serves a built page again from cache within the hour without spending the budget", async () => {
    const svc = await service({ RATE_LIMIT_RENDERS_PER_HOUR: "1" });
    // 19:50 UTC: the next forecast hour starts ten minutes into the render budget's hour.
    svc.clock.set("2026-11-21T19:50:00Z");
    const first = await svc.get("/spots/hanauma-bay");
    expect(first.status).toBe(200);
    const body = await first.text();
    for (let i = 0; i < 3; i++) {
      const again = await svc.get("/spots/hanauma-bay");
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(body);
    }
    expect((await svc.get("/s/hanauma-bay/2026-11-22?activity=snorkel")).status).toBe(429);
    // The next hour's page is built afresh (and so counts).
    svc.clock.set(new Date(Date.parse("2026-11-21T20:00:00Z")));
    expect((await svc.get("/spots/hanauma-bay")).status).toBe(429);
  });

  it("answers 503 with Retry-After when the render queue is full, and draws the rest", async () => {
    const svc = await service({ RENDER_CONCURRENCY: "1", RENDER_QUEUE: "0" });
    const spots = ["hanauma-bay", "sharks-cove", "electric-beach", "three-tables", "waimea-bay", "china-walls", "magic-island", "kuilima-cove"];
    const answers = await Promise.all(spots.map((s) => svc.get(`/cards/${s}/2026-11-23.png?activity=snorkel`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    const busy = answers.filter((r) => r.status === 503);
    expect(busy.length, `statuses ${statuses.join(",")}`).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    for (const r of busy) {
      expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await r.json()).toMatchObject({ code: "unavailable", status: 503 });
    }
  });

  it("bounds one caller's share of the render queue, so another caller's cards are still drawn", async () => {
    // 8 places (1 drawing, 7 waiting): a caller holds at most 2 of them.
    const svc = await service({ RENDER_CONCURRENCY: "1", RENDER_QUEUE: "7", TRUST_PROXY: "loopback" });
    const spots = ["hanauma-bay", "sharks-cove", "electric-beach", "three-tables", "waimea-bay", "china-walls", "magic-island", "kuilima-cove", "pokai-bay"];
    const greedy = spots.map((s) => svc.get(`/cards/${s}/2026-11-23.png?activity=snorkel`, xff("198.51.100.7")).then((r) => r.status));
    // Once the greedy caller's refusals are back, its admitted renders are still being drawn (a
    // worker's first card alone takes about 0.4 s): another caller asks now, and is drawn.
    const first503 = await Promise.race(greedy.map((p) => p.then((s) => (s === 503 ? s : new Promise<number>(() => {})))));
    expect(first503).toBe(503);
    const other = await svc.get("/cards/hanauma-bay/2026-11-24.png?activity=snorkel", xff("203.0.113.9"));
    expect(other.status).toBe(200);
    const statuses = await Promise.all(greedy);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 503)).toHaveLength(spots.length - 2);
  });

  it("keeps the renderer's last place for a caller with none in flight, so four callers cannot fill it", async () => {
    // 8 places (1 drawing, 7 waiting), a share of 2 each: four addresses asking 3 cards each could
    // hold all 8 between them; the last place stays free for a fifth.
    const svc = await service({ RENDER_CONCURRENCY: "1", RENDER_QUEUE: "7", TRUST_PROXY: "loopback" });
    const spots = [
      "hanauma-bay",
      "sharks-cove",
      "electric-beach",
      "three-tables",
      "waimea-bay",
      "china-walls",
      "magic-island",
      "kuilima-cove",
      "pokai-bay",
      "ko-olina-lagoons",
      "lanikai-beach",
      "kawela-bay",
    ];
    const callers = ["198.51.100.11", "198.51.100.12", "198.51.100.13", "198.51.100.14"];
    const greedy = spots.map((s, i) => svc.get(`/cards/${s}/2026-11-23.png?activity=snorkel`, xff(callers[i % 4]!)).then((r) => r.status));
    const first503 = await Promise.race(greedy.map((p) => p.then((s) => (s === 503 ? s : new Promise<number>(() => {})))));
    expect(first503).toBe(503);
    const other = await svc.get("/cards/hanauma-bay/2026-11-24.png?activity=snorkel", xff("203.0.113.19"));
    expect(other.status).toBe(200);
    // The four kept their shares but the one place (7 of 8, more if a card finished meanwhile).
    const statuses = await Promise.all(greedy);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(7);
  });

  it("compresses and caches /openapi.json", async () => {
    const svc = await service({});
    const plain = await fetchRaw(svc.base, "/openapi.json", {});
    const gz = await fetchRaw(svc.base, "/openapi.json", { "accept-encoding": "gzip, br" });
    expect(gz.headers["content-encoding"]).toMatch(/^(br|gzip)$/);
    expect(gz.body.length).toBeLessThan(plain.body.length / 4);
    expect(gz.headers.vary).toMatch(/Accept-Encoding/i);
    expect(plain.headers.etag).toBeTruthy();
    const again = await fetchRaw(svc.base, "/openapi.json", { "if-none-match": plain.headers.etag as string });
    expect(again.status).toBe(304);
  });

  it("honours q=0 in Accept-Encoding, and gives each encoding its own ETag", async () => {
    const svc = await service({});
    const noBr = await fetchRaw(svc.base, "/openapi.json", { "accept-encoding": "br;q=0, gzip" });
    expect(noBr.headers["content-encoding"]).toBe("gzip");
    const none = await fetchRaw(svc.base, "/openapi.json", { "accept-encoding": "gzip;q=0, br;q=0" });
    expect(none.headers["content-encoding"]).toBeUndefined();
    const starNoBr = await fetchRaw(svc.base, "/openapi.json", { "accept-encoding": "*, br;q=0" });
    expect(starNoBr.headers["content-encoding"]).toBe("gzip");
    const br = await fetchRaw(svc.base, "/openapi.json", { "accept-encoding": "br" });
    expect(br.headers["content-encoding"]).toBe("br");
    const etags = new Set([noBr, none, br].map((r) => r.headers.etag));
    expect(etags.size).toBe(3);
    // A validator of one encoding does not confirm another: the gzip ETag sent with br gets the body.
    const cross = await fetchRaw(svc.base, "/openapi.json", { "accept-encoding": "br", "if-none-match": noBr.headers.etag as string });
    expect(cross.status).toBe(200);
    const same = await fetchRaw(svc.base, "/openapi.json", { "accept-encoding": "br", "if-none-match": br.headers.etag as string });
    expect(same.status).toBe(304);
  });
});

/** A GET with node:http (no automatic decompression), from an optional local address. */
function fetchRaw(
  base: string,
  path: string,
  headers: Record<string, string>,
  localAddress?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("connections", () => {
  const opener = (svc: TestService) => {
    const port = Number(new URL(svc.base).port);
    return (localAddress: string) =>
      new Promise<Socket>((resolve, reject) => {
        const s = connect({ host: "127.0.0.1", port, localAddress }, () => resolve(s));
        s.on("error", reject);
      });
  };
  const closed = (s: Socket) => new Promise<boolean>((resolve) => (s.destroyed || s.readableEnded ? resolve(true) : s.once("close", () => resolve(true))));

  it("at the global cap closes the longest-idle connection to answer a newcomer", async () => {
    const svc = await service({ MAX_CONNECTIONS: "5" });
    const open = opener(svc);
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 5; i++) held.push(await open(`127.0.0.${10 + i}`));
      const other = await fetchRaw(svc.base, "/healthz", {}, "127.0.0.2");
      expect(other.status).toBe(200);
      // The oldest silent connection made room.
      expect(await closed(held[0]!)).toBe(true);
    } finally {
      for (const s of held) s.destroy();
    }
  });

  it("caps open connections per address; other addresses are still answered", async () => {
    const svc = await service({ MAX_CONNECTIONS_PER_IP: "5" });
    const open = opener(svc);
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 5; i++) held.push(await open("127.0.0.1"));
      const extra = await open("127.0.0.1");
      held.push(extra);
      // The sixth from the same address is closed by the server without an answer.
      expect(await closed(extra)).toBe(true);
      expect(held.slice(0, 5).every((s) => !s.destroyed)).toBe(true);
      // Another address (loopback is a /8) is answered meanwhile.
      const other = await fetchRaw(svc.base, "/healthz", {}, "127.0.0.2");
      expect(other.status).toBe(200);
    } finally {
      for (const s of held) s.destroy();
    }
  });
});

describe("MCP input guards and headers", () => {
  const post = (svc: TestService, body: string, name = "get_conditions") => fetch(`${svc.base}/mcp`, { method: "POST", headers: { ...MCP_HEADERS, "mcp-name": name }, body });

  it("refuses a non-scalar argument such as {toString: …} with an invalid_parameter tool error", async () => {
    const svc = await service({});
    const c = await connectClient(svc.base, "2026-07-28");
    try {
      const r = await c.client.callTool({ name: "get_conditions", arguments: { spot: { toString: "snorkel" } } });
      expect(r.isError).toBe(true);
      expect(ToolErrorSchema.parse(r.structuredContent).error).toMatchObject({ code: "invalid_parameter", status: 400 });
      const rec = await c.client.callTool({ name: "recommend_spot", arguments: { activity: { toString: "snorkel" }, region: "us-hi-oahu" } });
      expect(rec.isError).toBe(true);
      expect(ToolErrorSchema.parse(rec.structuredContent).error.code).not.toBe("unavailable");
    } finally {
      await c.close();
    }
  });

  it("answers a body nested deeper than 64 levels with 400 before parsing it", async () => {
    const svc = await service({});
    const deep = "[".repeat(20_000) + "]".repeat(20_000);
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_conditions","arguments":{"spot":${deep}},"_meta":${JSON.stringify(META)}}}`;
    const res = await post(svc, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    // Brackets inside strings are not nesting.
    const ok = await post(svc, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_conditions", arguments: { spot: "[".repeat(100) }, _meta: META } }));
    expect(ok.status).toBe(200);
  });

  it("carries the same RateLimit headers on /mcp answers as REST, those written in the SDK's envelope included", async () => {
    const svc = await service({ RATE_LIMIT_FACTS_PER_HOUR: "10" });
    const call = (id: number) => post(svc, JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_conditions", arguments: { spot: "hanauma-bay" }, _meta: META } }));
    const first = await call(1);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toContain('"facts-hour";q=10;w=3600');
    expect(first.headers.get("ratelimit")).toMatch(/"facts-hour";r=9;/);
    const second = await call(2);
    expect(second.headers.get("ratelimit")).toMatch(/"facts-hour";r=8;/);
    const rest = await svc.get("/api/v1/conditions?spot=hanauma-bay");
    expect(rest.headers.get("ratelimit")).toMatch(/"facts-hour";r=7;/);
  });
});

describe("upstream redirects", () => {
  let upstream: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve())));

  it("are never followed: the redirect target is never called and the answer falls back to labelled norms", async () => {
    const hits: string[] = [];
    upstream = createServer((req, res) => {
      hits.push(req.url!.split("?")[0]!);
      res.writeHead(302, { Location: "/elsewhere" }).end();
    });
    await new Promise<void>((resolve) => upstream!.listen(0, "127.0.0.1", resolve));
    const at = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    const svc = await service({
      DATA_SOURCE: "auto",
      OPEN_METEO_MARINE_URL: `${at}/v1/marine`,
      OPEN_METEO_FORECAST_URL: `${at}/v1/forecast`,
      COOPS_URL: `${at}/api/prod/datagetter`,
      ERDDAP_URL: `${at}/erddap`,
      UPSTREAM_TIMEOUT_MS: "2000",
    });
    const r = await svc.json<{ sources: unknown }>("/api/v1/conditions?spot=hanauma-bay");
    expect(r.status).toBe(200);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits).not.toContain("/elsewhere");
  });
});

/** Reads a paused socket to its close: how many 200 answers it had been sent (`end`: half-close it first). */
function answersRead(s: Socket, opts: { end?: boolean } = {}): Promise<number> {
  return new Promise((resolve) => {
    let text = "";
    s.setEncoding("latin1");
    s.on("data", (d: string) => (text += d));
    s.once("close", () => resolve(text.split("HTTP/1.1 200 OK").length - 1));
    s.resume();
    if (opts.end) s.end();
  });
}

describe("pipelining", () => {
  // A client that writes many pipelined requests and reads none would have Node run every one and
  // queue every answer: 100 such sockets stalled other clients for seconds and grew memory by 150 MB.
  it("closes a connection whose client pipelines requests and never reads the answers; others are served meanwhile", async () => {
    const svc = await service({});
    const port = Number(new URL(svc.base).port);
    const PIPELINED = 200;
    const request = `GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${"x".repeat(3000)}\r\n\r\n`;
    const greedy = await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const s = connect({ host: "127.0.0.1", port }, () => {
              s.pause(); // never reads
              s.write(request.repeat(PIPELINED));
              resolve(s);
            });
            s.on("error", () => {});
            s.once("error", reject);
          }),
      ),
    );
    try {
      const other = await fetch(`${svc.base}/healthz`, { signal: AbortSignal.timeout(30_000) });
      expect(other.status).toBe(200);
      // Each greedy connection was cut off: read now, it holds far fewer than its 200 answers, then ends.
      const answers = await Promise.all(greedy.map((s) => answersRead(s)));
      for (const n of answers) expect(n).toBeLessThan(PIPELINED);
    } finally {
      for (const s of greedy) s.destroy();
    }
  }, 60_000);

  it("holds one address to its request budget across its connections; another address is served meanwhile", async () => {
    // A small budget, so that how fast this machine answers cannot let the burst's answers reach the bound below.
    const svc = await service({ MAX_REQUESTS_PER_SECOND_PER_IP: "16", MAX_REQUEST_BURST_PER_IP: "32" });
    const port = Number(new URL(svc.base).port);
    // Each connection stays under the per-connection pipeline limit; together they are 25 times the address's budget.
    const SOCKETS = 100;
    const EACH = MAX_PIPELINED_REQUESTS - 1;
    const request = `GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    const greedy = await Promise.all(
      Array.from(
        { length: SOCKETS },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const s = connect({ host: "127.0.0.1", port }, () => {
              s.pause(); // never reads, until counted below
              s.write(request.repeat(EACH));
              resolve(s);
            });
            s.on("error", () => {});
            s.once("error", reject);
          }),
      ),
    );
    try {
      // Another address (127.0.0.2) is answered while the first one's answers sit unread.
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpGet({ host: "127.0.0.1", port, path: "/healthz", localAddress: "127.0.0.2", timeout: 30_000 }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("timeout", () => req.destroy(new Error("timed out")));
        req.on("error", reject);
      });
      expect(status).toBe(200);
      // Read now: the address got far fewer answers than it asked for (32 at once, 16 a second after), because
      // each connection whose request found the budget spent was closed.
      const answers = await Promise.all(greedy.map((s) => answersRead(s, { end: true })));
      const total = answers.reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThan(0);
      expect(answers.filter((n) => n === 0).length).toBeGreaterThan(0);
      expect(total).toBeLessThan((SOCKETS * EACH) / 2);
    } finally {
      for (const s of greedy) s.destroy();
    }
  }, 90_000);

  it("answers a short pipeline in order", async () => {
    const svc = await service({});
    const port = Number(new URL(svc.base).port);
    const text = await new Promise<string>((resolve, reject) => {
      let out = "";
      const s = connect({ host: "127.0.0.1", port }, () => s.write(`${"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n".repeat(4)}GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`));
      s.setEncoding("latin1");
      s.on("data", (d: string) => (out += d));
      s.on("error", reject);
      s.on("close", () => resolve(out));
    });
    expect(text.split("HTTP/1.1 200 OK").length - 1).toBe(5);
  });
});
