// Property-based fuzzing with fast-check, against the real service over HTTP and the real MCP client.
// REST, share and page routes get arbitrary query strings (odd and repeated keys, unicode, huge and
// non-finite numbers, impossible dates, empty and very long values, broken percent-encoding) and
// arbitrary path segments; every MCP tool gets arbitrary argument objects, and raw tools/call POSTs
// get arbitrary `name` and `arguments`. The properties: never a 5xx or a hang; every 4xx is a valid
// problem (HTML pages: an HTML page) with a known code and a status the OpenAPI document lists for
// that route; every 200 validates against its response schema; no JSON-RPC internal error; every tool
// error carries a known code. A failure prints the seed and the shrunk counterexample.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import { ALL_ERROR_CODES, ERROR_CODES, type ErrorCode } from "../src/base/errors.js";
import { MAX_QUERY_BYTES } from "../src/web/http-limits.js";
import { TOOLS } from "../src/mcp/server.js";
import { CoverageSchema, SpotListSchema } from "../src/schemas/catalog.js";
import { ProblemSchema } from "../src/schemas/common.js";
import { ConditionsSchema } from "../src/schemas/conditions.js";
import { BestDaySchema, RecommendationSchema } from "../src/schemas/decisions.js";
import { ToolErrorSchema } from "../src/schemas/tool-error.js";
import { connectClient, type Connected } from "./helpers/mcp.js";
import { startService, type TestService } from "./helpers/service.js";

/** Runs per property (about 5,750 in all). Sized so the file takes well under 40 s on 2 quiet cores. */
const RUNS = { rest: 600, page: 250, card: 250, tool: 400, rawMcp: 400 } as const;
// Each run draws a fresh seed; a failure prints it. FUZZ_SEED=<seed> replays that run exactly.
if (process.env.FUZZ_SEED) fc.configureGlobal({ seed: Number(process.env.FUZZ_SEED) });
// Each property makes hundreds of requests: on a machine whose cores are busy elsewhere one can take
// ten times as long as on a quiet one. The limit only stops a hang, it measures nothing.
vi.setConfig({ testTimeout: 600_000 });
/** No single request may take longer than this (a hang fails the run instead of stalling it); generous for a busy machine. */
const REQUEST_TIMEOUT_MS = 30_000;

let svc: TestService;
let mcp: Connected;
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { oneOf?: { $ref: string }[] } }> }> }>> };
let doc: Doc;
beforeAll(async () => {
  svc = await startService();
  mcp = await connectClient(svc.base, "2026-07-28");
  doc = (await svc.json<Doc>("/openapi.json")).body;
});
afterAll(async () => {
  await mcp?.close();
  await svc?.close();
});

// ── Arbitraries ──────────────────────────────────────────────────────────────────────────────────

const KNOWN_KEYS = ["spot", "lat", "lon", "from", "to", "region", "q", "activity", "radius_km", "date", "limit"];
const GOOD_VALUES = [
  "hanauma-bay",
  "sharks-cove",
  "la-jolla-cove",
  "us-hi-oahu",
  "us-ca-san-diego",
  "snorkel",
  "dive",
  "freedive",
  "spearfish",
  "surf",
  "21.27",
  "-157.69",
  "32.85",
  "-117.27",
  "3",
  "40",
  "2026-11-21",
  "2026-11-22",
  "2026-11-27",
];
const ODD_VALUES = [
  "NaN",
  "Infinity",
  "-Infinity",
  "-0",
  "0",
  "+0",
  "1e308",
  "1e309",
  "-1e309",
  "1e-400",
  "99999999999999999999999999",
  "0x1F",
  "1_000",
  " 12 ",
  "+5",
  ".5",
  "5.",
  "1,2",
  "١٢",
  "Ⅻ",
  "2026-02-30",
  "2026-02-29",
  "2028-02-29",
  "2026-13-01",
  "2026-00-10",
  "0000-00-00",
  "9999-12-31",
  "2026-11-22T00:00:00Z",
  "2026-1-1",
  "20261122",
  "2026/11/22",
  "-2026-11-22",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "SNORKEL",
  "Snorkel ",
  "kitesurf",
  "hanauma-bay,sharks-cove",
  "HANAUMA-BAY",
  "hanauma_bay",
  "../etc/passwd",
  "<script>alert(1)</script>",
  "%",
  "%%",
  "%zz",
  "%00",
  "%0A",
  "%E0%A4%A",
  "%C0%AF",
  "%uD800",
  "%FF%FE",
  "%2526",
  "\u0000",
  "\u202e",
  "🐠🌊",
  "ʻĀhihi",
  "\uFEFF",
];
const ODD_KEYS = ["", "=", "__proto__", "constructor", "hasOwnProperty", "spot[]", "spot[0]", "spot.id", "SPOT", " spot", "spot ", "a".repeat(300), "%73pot", "lat%00"];

/** Dates around the pinned clock (2026-11-21), most real, some impossible, some out of horizon. */
const nearDate = fc
  .tuple(fc.constantFrom(2025, 2026, 2027), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);

const value: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...GOOD_VALUES), weight: 6 },
  { arbitrary: fc.constantFrom(...ODD_VALUES), weight: 4 },
  { arbitrary: nearDate, weight: 2 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 24 }), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 24 }), weight: 1 },
  { arbitrary: fc.double().map(String), weight: 1 },
  { arbitrary: fc.bigInt().map(String), weight: 1 },
  { arbitrary: fc.constant(""), weight: 1 },
  // Around the query-string limit: some just under, some over (414).
  { arbitrary: fc.integer({ min: MAX_QUERY_BYTES - 64, max: MAX_QUERY_BYTES + 512 }).map((n) => "v".repeat(n)), weight: 1 },
);
const key = fc.oneof({ arbitrary: fc.constantFrom(...KNOWN_KEYS), weight: 8 }, { arbitrary: fc.constantFrom(...ODD_KEYS), weight: 1 }, { arbitrary: fc.string({ maxLength: 10 }), weight: 1 });

/** How a pair is written: percent-encoded, raw (the URL parser escapes what it must), or a bare key. */
const encoding = fc.constantFrom("encoded", "encoded", "raw", "bare", "plus");
// Lone surrogates cannot be percent-encoded; make them U+FFFD first, as a browser would
// (String.prototype.toWellFormed, which is not in this project's ES2023 lib).
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
const enc = (s: string) => encodeURIComponent(wellFormed(s));
const rawPart = (s: string) => wellFormed(s).replaceAll("#", "%23").replaceAll("&", "%26");

const queryString = fc.record({ pairs: fc.array(fc.tuple(key, value, encoding), { maxLength: 6 }), sep: fc.constantFrom("&", "&", "&&", ";") }).map(({ pairs, sep }) => {
  const parts = pairs.map(([k, v, how]) =>
    how === "bare" ? enc(k) : how === "raw" ? `${rawPart(k)}=${rawPart(v)}` : how === "plus" ? `${enc(k)}=${enc(v).replaceAll("%20", "+")}` : `${enc(k)}=${enc(v)}`,
  );
  return parts.length === 0 ? "" : `?${parts.join(sep)}`;
});

/** Mostly no If-None-Match; else `*` (matches any answer), a list, or a tag that matches nothing. */
const ifNoneMatch = fc.option(fc.constantFrom("*", '"nope"', 'W/"x", *', '"a", "b"'), { freq: 4 });

/** A path segment: a real id most of the time, else anything (encoded or raw). */
const segment = (good: fc.Arbitrary<string>) =>
  fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: value.map(enc), weight: 2 }, { arbitrary: value.map((v) => rawPart(v).replaceAll("?", "%3F")), weight: 1 });
const spotSegment = segment(fc.constantFrom("hanauma-bay", "sharks-cove", "la-jolla-cove", "molokini-back-wall"));
const dateSegment = segment(fc.oneof(fc.constantFrom("2026-11-21", "2026-11-22", "2026-11-25"), nearDate));

// ── Checks ───────────────────────────────────────────────────────────────────────────────────────

/** Outcomes seen per route (HTTP statuses, tool results), to show the fuzzing reached both successes and refusals. */
const seen = new Map<string, Map<string, number>>();
const tally = (route: string, outcome: string | number, n = 1) => {
  const m = seen.get(route) ?? new Map<string, number>();
  m.set(String(outcome), (m.get(String(outcome)) ?? 0) + n);
  seen.set(route, m);
};

async function get(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${svc.base}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
}

/** The statuses and problem codes the OpenAPI document lists for a route; 414 applies to every route. */
function documented(route: string): { statuses: Set<number>; codes: (status: number) => Set<string> | null } {
  const responses = doc.paths[route]!.get!.responses;
  return {
    statuses: new Set([...Object.keys(responses).map(Number), 414]),
    codes: (status) => {
      const oneOf = responses[String(status)]?.content?.["application/problem+json"]?.schema.oneOf;
      return oneOf ? new Set(oneOf.map((r) => r.$ref.split("#/components/schemas/problem-")[1]!)) : null;
    },
  };
}

/** A 4xx problem+json body: valid shape, known code, status matching the code's, type URI into the document. */
async function checkProblem(res: Response, route: string, url: string): Promise<ErrorCode> {
  expect(res.headers.get("content-type"), url).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as Record<string, unknown>;
  const parsed = ProblemSchema.safeParse(body);
  expect(parsed.success ? [] : parsed.error.issues, url).toEqual([]);
  const code = body.code as ErrorCode;
  expect(ALL_ERROR_CODES, url).toContain(code);
  expect(ERROR_CODES[code].status, url).toBe(res.status);
  expect(body.type, url).toBe(`${svc.base}/openapi.json#problem-${code}`);
  const codes = documented(route).codes(res.status);
  if (codes) expect([...codes], `${url}: ${code} is not documented for ${route} ${res.status}`).toContain(code);
  return code;
}

function checkStatus(res: Response, route: string, url: string): void {
  tally(route, res.status);
  expect(res.status, url).toBeLessThan(500);
  expect([...documented(route).statuses], `${url}: status ${res.status} is not documented for ${route}`).toContain(res.status);
}

/**
 * Per route, valid queries that the fuzzed pairs are appended to half the time, so the fuzzing also
 * reaches deep into the handlers (a random query rarely names an activity and exactly one location).
 */
const REST: { route: string; schema: z.ZodType; valid: string[] }[] = [
  { route: "/api/v1/conditions", schema: ConditionsSchema, valid: ["spot=hanauma-bay", "lat=21.27&lon=-157.69", "spot=la-jolla-cove&from=2026-11-22&to=2026-11-24"] },
  { route: "/api/v1/spots", schema: SpotListSchema, valid: ["region=us-hi-oahu", "lat=32.85&lon=-117.27", "q=cove"] },
  { route: "/api/v1/coverage", schema: CoverageSchema, valid: ["region=us-hi-oahu", ""] },
  {
    route: "/api/v1/recommendations",
    schema: RecommendationSchema,
    valid: ["activity=snorkel&region=us-hi-oahu", "activity=dive&spot=hanauma-bay", "activity=spearfish&lat=21.27&lon=-157.69", "activity=freedive&region=us-ca-san-diego&date=2026-11-23"],
  },
  {
    route: "/api/v1/best-day",
    schema: BestDaySchema,
    valid: ["activity=snorkel&region=us-hi-oahu", "activity=dive&spot=la-jolla-cove", "activity=freedive&lat=32.85&lon=-117.27&from=2026-11-22&to=2026-11-25"],
  },
];

/** A fuzzed query string, either on its own or appended to one of the route's valid queries. */
const queryFor = (valid: string[]) =>
  fc.oneof(
    queryString,
    fc.tuple(fc.constantFrom(...valid), queryString).map(([v, q]) => (v === "" ? q : q === "" ? `?${v}` : `?${v}&${q.slice(1)}`)),
  );

// ── REST ─────────────────────────────────────────────────────────────────────────────────────────

describe("fuzzing REST endpoints with arbitrary query strings", () => {
  it.each(REST)(`$route: ${RUNS.rest} runs, never a 5xx; problems and 200s valid`, async ({ route, schema, valid }) => {
    await fc.assert(
      fc.asyncProperty(queryFor(valid), ifNoneMatch, async (qs, inm) => {
        const url = `${route}${qs}`;
        const res = await get(url, inm ? { headers: { "If-None-Match": inm } } : {});
        checkStatus(res, route, url);
        if (res.status === 304) {
          expect(inm, url).toBeTruthy();
        } else if (res.status === 200) {
          expect(res.headers.get("content-type"), url).toMatch(/^application\/json/);
          const parsed = schema.safeParse(await res.json());
          expect(parsed.success ? [] : parsed.error.issues.slice(0, 3), url).toEqual([]);
        } else {
          await checkProblem(res, route, url);
        }
      }),
      { numRuns: RUNS.rest },
    );
    const statuses = seen.get(route)!;
    expect(statuses.get("200") ?? 0, route).toBeGreaterThan(0);
    expect(
      [...statuses.keys()].some((s) => Number(s) >= 400),
      route,
    ).toBe(true);
  });
});

// ── Share image and pages ────────────────────────────────────────────────────────────────────────

describe("fuzzing the share image and the pages", () => {
  it(`/cards/{spot}/{date}.png: ${RUNS.card} runs, a PNG, a 304 or a problem with a documented code`, async () => {
    const route = "/cards/{spot}/{date}.png";
    await fc.assert(
      fc.asyncProperty(spotSegment, dateSegment, queryString, ifNoneMatch, async (spot, date, qs, inm) => {
        const url = `/cards/${spot}/${date}.png${qs}`;
        const res = await get(url, inm ? { headers: { "If-None-Match": inm } } : {});
        if (res.status === 404 && (await peekCode(res)) === "not_found") return void tally(route, 404); // the segment changed the route
        checkStatus(res, route, url);
        if (res.status === 200) {
          expect(res.headers.get("content-type"), url).toBe("image/png");
          expect(
            Buffer.from(await res.arrayBuffer())
              .subarray(1, 4)
              .toString(),
            url,
          ).toBe("PNG");
        } else if (res.status !== 304) {
          await checkProblem(res, route, url);
        }
      }),
      { numRuns: RUNS.card },
    );
    expect(seen.get(route)!.get("200") ?? 0).toBeGreaterThan(0);
  });

  it.each([
    { route: "/s/{spot}/{date}", path: (s: string, d: string) => `/s/${s}/${d}` },
    { route: "/spots/{spot}", path: (s: string, d: string) => `/spots/${s}?date=${d}` },
  ])(`$route: ${RUNS.page} runs, an HTML page with a documented status`, async ({ route, path }) => {
    await fc.assert(
      fc.asyncProperty(spotSegment, dateSegment, queryString, async (spot, date, qs) => {
        const base = path(spot, date);
        const url = qs === "" ? base : base.includes("?") ? `${base}&${qs.slice(1)}` : `${base}${qs}`;
        const res = await get(url);
        if (res.status === 414) return void (await checkProblem(res, route, url)); // the REST query limit, before any route
        if (res.status === 404 && res.headers.get("content-type")?.startsWith("application/problem+json")) {
          expect(await peekCode(res), url).toBe("not_found"); // the segment changed the route
          return void tally(route, 404);
        }
        checkStatus(res, route, url);
        expect(res.headers.get("content-type"), url).toMatch(/^text\/html/);
        expect(res.headers.get("content-security-policy"), url).toContain("default-src 'none'");
        const html = await res.text();
        expect(html, url).toMatch(/^<!doctype html>/);
      }),
      { numRuns: RUNS.page },
    );
    expect(seen.get(route)!.get("200") ?? 0).toBeGreaterThan(0);
  });
});

async function peekCode(res: Response): Promise<string | undefined> {
  if (!res.headers.get("content-type")?.startsWith("application/problem+json")) return undefined;
  return ((await res.clone().json()) as { code?: string }).code;
}

// ── MCP ──────────────────────────────────────────────────────────────────────────────────────────

/** Argument values as JSON can carry them (the client serialises NaN and Infinity to null). */
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: value, weight: 6 },
  { arbitrary: fc.double(), weight: 2 },
  { arbitrary: fc.integer(), weight: 2 },
  { arbitrary: fc.constantFrom(0, -0, 1, 5, 2.5, 100, 101, -1, 1e308, Number.MAX_SAFE_INTEGER + 2, true, false, null), weight: 2 },
  { arbitrary: fc.array(value, { maxLength: 3 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), value, { maxKeys: 3 }), weight: 1 },
);
const toolArguments = fc.dictionary(fc.oneof({ arbitrary: fc.constantFrom(...KNOWN_KEYS), weight: 8 }, { arbitrary: fc.constantFrom(...ODD_KEYS), weight: 1 }), jsonValue, { maxKeys: 6 });

/** Valid arguments per tool; the fuzzed ones are merged over them half the time, as for REST. */
const VALID_ARGUMENTS: Record<string, Record<string, unknown>[]> = {
  get_conditions: [{ spot: "hanauma-bay" }, { lat: 21.27, lon: -157.69 }, { spot: "la-jolla-cove", from: "2026-11-22", to: "2026-11-24" }],
  list_coverage: [{}, { region: "us-hi-oahu" }],
  recommend_spot: [
    { activity: "snorkel", region: "us-hi-oahu" },
    { activity: "dive", spot: "hanauma-bay" },
    { activity: "spearfish", lat: 21.27, lon: -157.69, radius_km: 30, limit: 5 },
  ],
  best_day: [
    { activity: "snorkel", region: "us-hi-oahu" },
    { activity: "freedive", lat: 32.85, lon: -117.27, from: "2026-11-22", to: "2026-11-25" },
  ],
};
const argumentsFor = (name: string) =>
  fc.oneof(
    toolArguments,
    fc.tuple(fc.constantFrom(...VALID_ARGUMENTS[name]!), toolArguments).map(([v, extra]) => ({ ...v, ...extra })),
  );

describe("fuzzing MCP tools", () => {
  it.each(TOOLS.map((t) => ({ name: t.name, tool: t })))(`$name through the MCP client: ${RUNS.tool} runs, results valid, errors with known codes`, async ({ name, tool }) => {
    let errors = 0;
    await fc.assert(
      fc.asyncProperty(argumentsFor(name), async (args) => {
        // The client throws on a JSON-RPC error, including an internal error (-32603): that fails the property.
        const result = await mcp.client.callTool({ name, arguments: args }, { timeout: REQUEST_TIMEOUT_MS });
        const label = JSON.stringify(args).slice(0, 300);
        if (result.isError) {
          errors++;
          const parsed = ToolErrorSchema.safeParse(result.structuredContent);
          expect(parsed.success ? [] : parsed.error.issues, label).toEqual([]);
          expect(ALL_ERROR_CODES, label).toContain((result.structuredContent as { error: { code: ErrorCode } }).error.code);
        } else {
          const parsed = tool.config.outputSchema.safeParse(result.structuredContent);
          expect(parsed.success ? [] : parsed.error.issues.slice(0, 3), label).toEqual([]);
        }
      }),
      { numRuns: RUNS.tool },
    );
    tally(`mcp ${name}`, "result", RUNS.tool - errors);
    tally(`mcp ${name}`, "tool error", errors);
    // Both outcomes were reached: some results, some tool errors.
    expect(errors, name).toBeGreaterThan(0);
    expect(errors, name).toBeLessThan(RUNS.tool);
  });

  it(`raw tools/call POSTs with any name and any arguments: ${RUNS.rawMcp} runs, never a 5xx or an internal error`, async () => {
    const names = fc.oneof(
      { arbitrary: fc.constantFrom(...TOOLS.map((t) => t.name)), weight: 4 },
      { arbitrary: fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map(String.fromCharCode), maxLength: 20 }), weight: 1 },
    );
    const args = fc.oneof({ arbitrary: toolArguments, weight: 4 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 2 }, { arbitrary: fc.constant(undefined), weight: 1 });
    await fc.assert(
      fc.asyncProperty(names, args, async (name, argValue) => {
        const body = JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name,
            ...(argValue === undefined ? {} : { arguments: argValue }),
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
              "io.modelcontextprotocol/clientInfo": { name: "fuzz", version: "0" },
            },
          },
        });
        const res = await get("/mcp", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name },
          body,
        });
        const label = body.slice(0, 300);
        expect(res.status, label).toBeLessThan(500);
        const msg = (await res.json()) as { error?: { code: number }; result?: { isError?: boolean; structuredContent?: { error?: { code: string } } } };
        tally("mcp raw", `${res.status} ${msg.error ? `JSON-RPC ${msg.error.code}` : msg.result?.isError ? "tool error" : "result"}`);
        if (msg.error) {
          expect(msg.error.code, label).not.toBe(-32603);
        } else {
          expect(res.status, label).toBe(200);
          if (msg.result?.isError && msg.result.structuredContent) expect(ALL_ERROR_CODES, label).toContain(msg.result.structuredContent.error?.code);
        }
      }),
      { numRuns: RUNS.rawMcp },
    );
  });
});

describe("fuzzing summary", () => {
  it("reached every route, with successes and refusals", () => {
    const summary = Object.fromEntries([...seen].map(([route, m]) => [route, Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)))]));
    console.log(`fuzz outcomes per route: ${JSON.stringify(summary)}`);
    for (const { route } of REST) expect(seen.has(route), route).toBe(true);
  });
});
