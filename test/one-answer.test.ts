// One question, one answer: whoever asks first, over whichever transport, through whatever proxy,
// on whichever instance. The echo of a question, MCP calls answered in the SDK's envelope and ETags all agree.
import { spawn, type ChildProcess } from "node:child_process";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { ClimatologySource, loadClimatology } from "../src/sources/climatology.js";
import type { Source } from "../src/sources/types.js";
import { connectClient, RAW_META, rawHeaders } from "./helpers/mcp.js";
import { freePort } from "./helpers/ports.js";
import { startService, type TestService } from "./helpers/service.js";
import { SERVICE_ARGS } from "./helpers/process.js";

const META = RAW_META;
const HEADERS = rawHeaders("tools/call", "get_conditions");
const callText = (id: string, args: Record<string, unknown> = { spot: "electric-beach" }) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${JSON.stringify({ name: "get_conditions", arguments: args, _meta: META })}}`;

/** A service whose request log tells whether each MCP call was answered in the SDK's envelope, without the SDK. */
async function serviceWithLog(extra: Parameters<typeof startService>[0] = {}) {
  const lines: { replayed?: boolean; msg?: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
      done();
    },
  });
  const svc = await startService({ ...extra, env: { LOG_LEVEL: "info", ...extra.env }, log: pino({ level: "info" }, sink) });
  const post = async (text: string, headers: Record<string, string> = HEADERS) => {
    const before = lines.length;
    const res = await svc.get("/mcp", { method: "POST", headers, body: text });
    const out = await res.text();
    await new Promise((r) => setImmediate(r));
    const log = lines.slice(before).find((l) => l.msg === "request");
    return { res, text: out, json: JSON.parse(out) as { id?: unknown; error?: { code: number }; result?: { structuredContent: Record<string, unknown> } }, replayed: log?.replayed === true };
  };
  return { svc, post };
}

describe("the query echo", () => {
  for (const order of ["REST first", "MCP first"] as const) {
    it(`is the same whichever transport asked first (${order})`, async () => {
      const svc = await startService();
      const mcp = await connectClient(svc.base, "2026-07-28");
      try {
        const path = "/api/v1/recommendations?activity=snorkel&region=us-hi-oahu";
        const rest = async () => {
          const res = await svc.get(path);
          return { etag: res.headers.get("etag"), body: (await res.json()) as { query: { limit: unknown } } };
        };
        const viaMcp = async () =>
          ((await mcp.client.callTool({ name: "recommend_spot", arguments: { activity: "snorkel", region: "us-hi-oahu", limit: null } })) as { structuredContent: { query: { limit: unknown } } })
            .structuredContent;
        let r: Awaited<ReturnType<typeof rest>>;
        let m: Awaited<ReturnType<typeof viaMcp>>;
        if (order === "REST first") {
          r = await rest();
          m = await viaMcp();
        } else {
          m = await viaMcp();
          r = await rest();
        }
        expect(r.body.query.limit).toBeNull();
        expect(m.query.limit).toBeNull();
        expect(m).toEqual(r.body);
        // One answer, one ETag, whoever asked.
        expect((await svc.get(path)).headers.get("etag")).toBe(r.etag);
      } finally {
        await mcp.close();
        await svc.close();
      }
    });
  }
});

describe("MCP calls answered in the SDK's envelope", () => {
  let svc: TestService;
  let post: Awaited<ReturnType<typeof serviceWithLog>>["post"];
  beforeAll(async () => {
    ({ svc, post } = await serviceWithLog());
  });
  afterAll(() => svc.close());

  it("give ids the SDK refuses the SDK's answer, never a result", async () => {
    const first = await post(callText("1"));
    expect(first.res.status).toBe(200);
    expect((await post(callText("2"))).replayed).toBe(true);
    for (const id of ["1.5", "1e999", "null", "true"]) {
      const r = await post(callText(id));
      expect(r.replayed, id).toBe(false);
      expect(r.res.status, id).toBe(400);
      expect(r.json.error?.code, id).toBe(-32600);
      expect(r.json.result, id).toBeUndefined();
    }
  });

  it("are answered so behind a proxy that adds per-request headers, whatever the client details", async () => {
    await post(callText("10"));
    const proxyHeaders = (i: number): Record<string, string> => ({
      ...HEADERS,
      "x-amzn-trace-id": `Root=1-6567a1b2-${String(i).padStart(24, "0")}`,
      "cf-ray": `8a1b2c3d4e5f${i}-SJC`,
      traceparent: `00-${String(i).padStart(32, "0")}-00f067aa0ba902b7-01`,
      "x-b3-traceid": String(i).padStart(16, "0"),
      via: `1.1 proxy-${i}`,
    });
    for (let i = 0; i < 5; i++) {
      const r = await post(callText(String(100 + i)), proxyHeaders(i));
      expect(r.replayed).toBe(true);
      expect(r.json.id).toBe(100 + i);
    }
    // Client details in `_meta` do not change the answer either.
    const otherClient = callText("200").replace('"name":"raw"', '"name":"another-client"');
    expect((await post(otherClient)).replayed).toBe(true);
    // A null argument is the same question as an absent one.
    expect((await post(callText("201", { spot: "electric-beach", from: null }))).replayed).toBe(true);
  });
});

describe("answers without a current data version", () => {
  it("are computed again for every call, never reused", async () => {
    // A source with a refresh always due: its forecasts have no version, so no answer is kept.
    const climatology = new ClimatologySource(loadClimatology());
    let reads = 0;
    const due: Source = {
      id: "refresh-due",
      hourly: (spot, start, end) => {
        reads++;
        return climatology.hourly(spot, start, end);
      },
      revision: () => null,
    };
    const { svc, post } = await serviceWithLog({ source: due });
    try {
      for (const id of ["1", "2", "3"]) {
        const before = reads;
        const r = await post(callText(id));
        expect(r.res.status).toBe(200);
        // The forecast is read again for each call, whether the SDK wrote the answer or not.
        expect(reads, id).toBeGreaterThan(before);
        expect(r.replayed, id).toBe(id !== "1");
      }
      expect(svc.ctx.answers.size).toBe(0);
    } finally {
      await svc.close();
    }
  });
});

describe("two service processes", () => {
  const start = async () => {
    const port = await freePort();
    const child = spawn(process.execPath, SERVICE_ARGS, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_BASE_URL: "https://ocean.example", DATA_SOURCE: "offline", LOG_LEVEL: "silent" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const base = `http://127.0.0.1:${port}`;
    for (let waited = 0; (await fetch(`${base}/readyz`).catch(() => null))?.status !== 200; waited += 200) {
      if (waited > 60_000) throw new Error(`${base} never became ready`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return { child, base };
  };
  let a: { child: ChildProcess; base: string };
  let b: { child: ChildProcess; base: string };
  beforeAll(async () => {
    [a, b] = await Promise.all([start(), start()]);
  }, 120_000);
  afterAll(() => {
    a?.child.kill("SIGKILL");
    b?.child.kill("SIGKILL");
  });

  it("answer the same question with the same bytes and ETag, and a 304 to each other's tag", async () => {
    for (const path of [
      "/api/v1/conditions?spot=hanauma-bay",
      "/api/v1/recommendations?activity=snorkel&region=us-hi-oahu",
      "/api/v1/best-day?activity=dive&spot=electric-beach",
      "/api/v1/coverage",
    ]) {
      const [ra, rb] = await Promise.all([fetch(`${a.base}${path}`), fetch(`${b.base}${path}`)]);
      const [ta, tb] = await Promise.all([ra.text(), rb.text()]);
      expect(ra.status, path).toBe(200);
      expect(tb, path).toBe(ta);
      expect(rb.headers.get("etag"), path).toBe(ra.headers.get("etag"));
      const cross = await fetch(`${b.base}${path}`, { headers: { "If-None-Match": ra.headers.get("etag")! } });
      expect(cross.status, path).toBe(304);
      const back = await fetch(`${a.base}${path}`, { headers: { "If-None-Match": rb.headers.get("etag")! } });
      expect(back.status, path).toBe(304);
    }
  }, 60_000);
});
