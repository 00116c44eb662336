// Tool calls (2026-07-28 and 2025-era) are run by /mcp itself and written into the envelope the SDK
// wrote around an earlier result of the same kind (src/mcp/replay.ts). What a client sees must not
// change: byte for byte what the SDK answers (a twin service with MCP_REPLAY=off says what that is),
// with its own id, the same metering, and the SDK's own answer whenever anything that reaches it differs.
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "./helpers/service.js";
import { connectClient, RAW_META, rawHeaders } from "./helpers/mcp.js";
import { scanBody } from "../src/mcp/body-scan.js";

const META = RAW_META;
const HEADERS = rawHeaders("tools/call", "get_conditions");
const LEGACY_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
const body = (id: string | number, args: Record<string, unknown> = { spot: "electric-beach" }, name = "get_conditions") =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: META } });
const legacyBody = (id: string | number, args: Record<string, unknown> = { spot: "electric-beach" }, name = "get_conditions") =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

const NOW = "2026-11-21T19:59:00Z";
let svc: TestService;
// A second service without the low rate limit (the first counts its calls).
let legacySvc: TestService;
// MCP_REPLAY=off at the same instant: the SDK answers every call, and says what each answer must be.
let sdkOnlySvc: TestService;
const lines: { replayed?: boolean; route?: string; msg?: string }[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
      done();
    },
  });
  // A minute before the forecast hour turns: crossing it takes a minute of the rate limit's hour, not all of it.
  svc = await startService({ now: NOW, env: { LOG_LEVEL: "info", RATE_LIMIT_FACTS_PER_HOUR: "9", MCP_REPLAY: "on" }, log: pino({ level: "info" }, sink) });
  legacySvc = await startService({ now: NOW, env: { LOG_LEVEL: "info", MCP_REPLAY: "on" }, log: pino({ level: "info" }, sink) });
  sdkOnlySvc = await startService({ now: NOW, env: { LOG_LEVEL: "info", MCP_REPLAY: "off" }, log: pino({ level: "info" }, sink) });
});
afterAll(async () => {
  await svc.close();
  await legacySvc.close();
  await sdkOnlySvc.close();
});

const post = async (id: string | number, headers: Record<string, string> = HEADERS, text = body(id), on = svc) => {
  const before = lines.length;
  const res = await on.get("/mcp", { method: "POST", headers, body: text });
  const out = await res.text();
  // The access line is written when the response finishes: wait for it, so a missing line fails
  // here instead of reading as "not answered here".
  const requestLines = () => lines.slice(before).filter((l) => l.msg === "request" && l.route === "/mcp");
  await expect.poll(() => requestLines().length, { timeout: 10_000 }).toBe(1);
  return { res, text: out, replayed: requestLines()[0]!.replayed === true };
};

/** What the SDK answers the same request with, on the twin (its own address in the answer read as ours). */
const sdkAnswer = async (id: string | number, headers: Record<string, string>, text: string, as: TestService) => {
  const r = await post(id, headers, text, sdkOnlySvc);
  expect(r.replayed).toBe(false);
  return { ...r, text: r.text.replaceAll(sdkOnlySvc.base, as.base) };
};

describe("tool calls answered in the SDK's envelope", () => {
  it("answer every call of a kind the SDK has answered once, byte for byte as the SDK would, in both eras", async () => {
    // New questions (other spots, dates, tools) and repeated ones; results and tool errors.
    const questions: [string, Record<string, unknown>][] = [
      ["get_conditions", { spot: "electric-beach" }],
      ["get_conditions", { spot: "hanauma-bay" }],
      ["get_conditions", { spot: "hanauma-bay", from: "2026-11-23" }],
      ["get_conditions", { spot: "electric-beach" }],
      ["get_conditions", { spot: "no-such-spot" }],
      ["get_conditions", { spot: "nowhere-at-all" }],
      ["get_conditions", { spot: "hanauma-bay", days: 2 }],
      ["recommend_spot", { activity: "snorkel", region: "us-hi-oahu" }],
      ["recommend_spot", { activity: "dive", region: "us-hi-oahu", date: "2026-11-23" }],
      ["best_day", { activity: "snorkel", spot: "hanauma-bay" }],
      ["best_day", { activity: "dive", spot: "electric-beach" }],
    ];
    for (const [era, headersOf, bodyOf] of [
      ["2026-07-28", (name: string) => rawHeaders("tools/call", name), body],
      ["2025-06-18", () => LEGACY_HEADERS, legacyBody],
    ] as const) {
      const seenKinds = new Set<string>();
      for (const [i, [name, args]] of questions.entries()) {
        const id = i % 2 === 0 ? 100 + i : `q-${i}`;
        const answer = await post(id, headersOf(name), bodyOf(id, args, name), legacySvc);
        const expected = await sdkAnswer(id, headersOf(name), bodyOf(id, args, name), legacySvc);
        expect(answer.text, `${era} ${name} ${JSON.stringify(args)}`).toBe(expected.text);
        expect(answer.res.status).toBe(expected.res.status);
        expect(answer.res.headers.get("content-type")).toBe(expected.res.headers.get("content-type"));
        expect(answer.res.headers.get("ratelimit-policy")).toBe(expected.res.headers.get("ratelimit-policy"));
        if (answer.res.headers.has("content-length")) expect(Number(answer.res.headers.get("content-length"))).toBe(Buffer.byteLength(answer.text));
        // The first call of each kind (tool, and result or tool error) goes through the SDK; the rest do not.
        const kind = `${name} ${answer.text.includes('"isError":true')}`;
        expect(answer.replayed, `${era} ${kind}`).toBe(seenKinds.has(kind));
        seenKinds.add(kind);
      }
    }
  });

  it("leave to the SDK any call whose headers differ from what it accepts", async () => {
    const wrongName = await post(4, { ...HEADERS, "mcp-name": "list_coverage" });
    expect(wrongName.replayed).toBe(false);
    expect(wrongName.res.status).toBe(400);
    const wrongVersion = await post(5, { ...HEADERS, "mcp-protocol-version": "2025-11-25" });
    expect(wrongVersion.replayed).toBe(false);
    expect(wrongVersion.res.status).toBe(400);
  });

  it("answer the new hour's forecast once the hour turns", async () => {
    const before = await post(7);
    svc.clock.advance(60_000);
    try {
      const after = await post(8);
      expect(after.replayed).toBe(true);
      const a = JSON.parse(before.text) as { result: { structuredContent: { generated_at: string } } };
      const b = JSON.parse(after.text) as { result: { structuredContent: { generated_at: string } } };
      expect(b.result.structuredContent.generated_at).not.toBe(a.result.structuredContent.generated_at);
    } finally {
      svc.clock.advance(-60_000);
    }
  });

  it("count against the caller's rate limit like any call, and refuse with the SDK's tool error", async () => {
    // The cap is 9 facts calls an hour and the tests above ran the tool twice (the two refused
    // by their headers never reached it): 7 more are answered, the next is refused.
    for (let i = 0; i < 7; i++) {
      const answered = await post(90 + i, HEADERS, body(90 + i, { spot: "electric-beach", from: `2026-11-2${2 + (i % 6)}` }));
      expect((JSON.parse(answered.text) as { result: { isError?: boolean } }).result.isError, `call ${i}: ${answered.text.slice(0, 300)}`).toBeFalsy();
    }
    const refusedCall = await post(100);
    const refused = JSON.parse(refusedCall.text) as { id: number; result: { isError?: boolean; structuredContent: { error?: { code: string } } } };
    expect(refused.id).toBe(100);
    expect(refused.result.isError).toBe(true);
    expect(refused.result.structuredContent.error?.code).toBe("rate_limited");
    expect(refusedCall.res.headers.get("ratelimit")).toMatch(/"facts-hour";r=0/);
    // REST shares the budget: the same caller is refused there too.
    expect((await svc.get("/api/v1/conditions?spot=electric-beach")).status).toBe(429);
  });
});

describe("MCP_REPLAY=off", () => {
  it("leaves every call to the SDK, which answers a repeated call with the same bytes but the id", async () => {
    const first = await post(1, HEADERS, body(1), sdkOnlySvc);
    for (const id of [2, "three"]) {
      const again = await post(id, HEADERS, body(id), sdkOnlySvc);
      expect(again.replayed).toBe(false);
      expect(again.res.status).toBe(200);
      expect(again.text).toBe(first.text.replace(/"id":1\}$/, `"id":${JSON.stringify(id)}}`));
    }
    expect(first.replayed).toBe(false);
  });
});

describe("a repeated call recognised by its bytes", () => {
  const params = `"params":${JSON.stringify({ name: "get_conditions", arguments: { spot: "electric-beach", from: "2026-11-24" }, _meta: META })}`;
  const idOf = (text: string) => (JSON.parse(text) as { id: unknown }).id;

  it("finds the one top-level id, wherever it is written, and nothing else", () => {
    const span = (text: string) => {
      const s = scanBody(Buffer.from(text), 8).id;
      return s && text.slice(s[0], s[1]);
    };
    expect(span('{"jsonrpc":"2.0","id":7,"method":"x"}')).toBe("7");
    expect(span('{ "method" : "id" , "id" :  "abc" }')).toBe('"abc"');
    expect(span('{"params":{"id":1},"method":"id"}')).toBeNull(); // nested, and a value "id"
    expect(span('{"id":1,"id":2}')).toBeNull(); // two: the parser decides which counts
    expect(span('{"a":"\\"id\\":3"}')).toBeNull(); // inside a string
    expect(span('[{"id":1}]')).toBeNull();
    expect(span('{"id":{"x":1}}')).toBe('{"x":1}'); // found, but not an id a replay stands in for
    // The same pass measures the nesting (brackets inside strings not counted).
    expect(scanBody(Buffer.from('{"a":[[["[[[["]]]}'), 3)).toEqual({ tooDeep: true, id: null });
    expect(scanBody(Buffer.from('{"a":[["[[[["]],"id":1}'), 3)).toEqual({ tooDeep: false, id: [21, 22] });
  });

  it("replays a call written id-last with spaces, with the caller's new id", async () => {
    const text = (id: number) => `{ "jsonrpc": "2.0", "method": "tools/call", ${params}, "id" : ${id} }`;
    const first = await post(31, HEADERS, text(31), legacySvc);
    expect(first.res.status).toBe(200);
    const again = await post(32, HEADERS, text(32), legacySvc);
    expect(again.replayed).toBe(true);
    expect(idOf(again.text)).toBe(32);
  });

  it("answers with the id the parser reads when a body names two", async () => {
    // A duplicate written plainly, and one written with an escape that a byte scan does not see
    // as "id": either way JSON.parse (and so the SDK) takes the last, and so must a replay.
    const plain = (a: number, b: number) => `{"jsonrpc":"2.0","id":${a},"method":"tools/call",${params},"id":${b}}`;
    const escaped = (a: number, b: number) => `{"jsonrpc":"2.0","id":${a},"method":"tools/call",${params},"\\u0069d":${b}}`;
    for (const [a, b] of [
      [41, 42],
      [43, 44],
    ] as const)
      expect(idOf((await post(b, HEADERS, plain(a, b), legacySvc)).text)).toBe(b);
    for (const a of [51, 52, 53]) {
      const answer = await post(a, HEADERS, escaped(a, 50), legacySvc);
      expect(answer.res.status).toBe(200);
      expect(idOf(answer.text)).toBe(50);
    }
  });
});

describe("2025-era tool calls", () => {
  it("answer a repeated 2025-era call in the SDK's SSE event with the caller's own id", async () => {
    const legacy = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
    const call = (id: string | number, params: Record<string, unknown> = { name: "get_conditions", arguments: { spot: "electric-beach" } }) =>
      JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });
    const first = await post(11, legacy, call(11), legacySvc);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("content-type")).toBe("text/event-stream");
    expect(first.text).toMatch(/^event: message\ndata: \{.*"id":11\}\n\n$/s);
    for (const id of ["legacy-12", 13]) {
      const again = await post(id, legacy, call(id), legacySvc);
      expect(again.replayed).toBe(true);
      expect(again.res.headers.get("content-type")).toBe("text/event-stream");
      expect(again.text).toBe(first.text.replace(/"id":11\}\n\n$/, `"id":${JSON.stringify(id)}}\n\n`));
    }
    // A 2026-07-28 call for the same question is another response (JSON, its own envelope).
    const modern = await post(14, HEADERS, body(14), legacySvc);
    expect(modern.res.headers.get("content-type")).toMatch(/^application\/json/);
    // Whatever the SDK would treat differently goes to it: a task request, a malformed _meta.
    const task = await post(15, legacy, call(15, { name: "get_conditions", arguments: { spot: "electric-beach" }, task: { ttl: 1000 } }), legacySvc);
    expect(task.replayed).toBe(false);
    const badMeta = await post(16, legacy, call(16, { name: "get_conditions", arguments: { spot: "electric-beach" }, _meta: { progressToken: { no: 1 } } }), legacySvc);
    expect(badMeta.replayed).toBe(false);
    expect(badMeta.text).toContain('"error"');
    // The SDK's own 2025-era client reads a replayed answer like any other.
    const connected = await connectClient(legacySvc.base, "2025-06-18");
    try {
      const viaSdk = await connected.client.callTool({ name: "get_conditions", arguments: { spot: "electric-beach" } });
      const replayed = JSON.parse(first.text.slice("event: message\ndata: ".length)) as { result: unknown };
      expect(viaSdk).toEqual(replayed.result);
    } finally {
      await connected.close();
    }
  });

  it("check every call's id, though the same call with another id was replayed", async () => {
    await post(21, HEADERS, body(21), legacySvc);
    expect((await post(22, HEADERS, body(22), legacySvc)).replayed).toBe(true);
    for (const id of [1.5, 2 ** 60]) {
      const refused = await post(id, HEADERS, body(id), legacySvc);
      expect(refused.replayed).toBe(false);
      expect(refused.res.status).toBe(400);
      expect(refused.text).not.toContain("structuredContent");
    }
    expect((await post("again", HEADERS, body("again"), legacySvc)).replayed).toBe(true);
  });
});

describe("argument names an object treats specially", () => {
  it("meters a call that carries `__proto__`, `constructor` or `prototype` like any call: the distinct-spot cap holds", async () => {
    const capped = await startService({ env: { RATE_LIMIT_SPOTS_PER_HOUR: "2" } });
    try {
      const send = async (id: number, args: string) => {
        const text = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"get_conditions","arguments":${args},"_meta":${JSON.stringify(META)}}}`;
        const res = await capped.get("/mcp", { method: "POST", headers: HEADERS, body: text });
        return JSON.parse(await res.text()) as { result?: { isError?: boolean; structuredContent?: { spot?: { id: string }; error?: { code: string } } } };
      };
      // A spot asked by name, then answered again from stored bytes.
      expect((await send(1, '{"spot":"hanauma-bay"}')).result?.isError).toBeFalsy();
      expect((await send(2, '{"spot":"hanauma-bay"}')).result?.isError).toBeFalsy();
      // The probe's shape: the name inside `__proto__`, the real question as a point elsewhere.
      const answered: string[] = [];
      for (const [i, [lat, lon]] of [
        [21.2844, -157.8455],
        [21.6644, -158.0528],
        [20.6325, -156.4969],
        [19.5796, -155.9669],
      ].entries()) {
        for (const name of ["__proto__", "constructor", "prototype"]) {
          const r = await send(10 + i * 3 + answered.length, `{"${name}":{"spot":"hanauma-bay"},"lat":${lat},"lon":${lon}}`);
          if (!r.result?.isError) answered.push(`${name} ${lat},${lon}: ${r.result?.structuredContent?.spot?.id}`);
        }
      }
      // Refused as unknown arguments (the SDK's tool error), never answered for a point the meter did not count.
      expect(answered).toEqual([]);
    } finally {
      await capped.close();
    }
  });

  it("builds canonical arguments on a null-prototype object", async () => {
    const { canonicalArgs, forbiddenArgName } = await import("../src/services/answer-cache.js");
    const parsed = JSON.parse('{"__proto__":{"spot":"hanauma-bay"},"lat":1}') as Record<string, unknown>;
    expect(forbiddenArgName(parsed)).toBe("__proto__");
    const c = canonicalArgs(parsed);
    expect(Object.getPrototypeOf(c)).toBeNull();
    expect((c as { spot?: unknown }).spot).toBeUndefined();
    expect(forbiddenArgName({ spot: "x" })).toBeNull();
  });
});
