// The planned keyed mode (spec section 5): AUTH_MODE=metered with API_KEYS_FILE. Decisions need a
// key (401 key_required / invalid_key / key_revoked, 402 free_allotment_exhausted with upgrade_url),
// facts stay keyless, keys are never accepted in the URL or written to logs, test keys are never
// charged — over REST and, with the same codes, MCP.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyHash } from "../src/services/metering/keys.js";
import { ToolErrorSchema } from "../src/schemas/tool-error.js";
import { expectProblem } from "./helpers/problem.js";
import { startService, type TestService } from "./helpers/service.js";

const LIVE = "oc_live_Q2x7mR9vK3pL8sT4";
const TEST = "oc_test_Z8y1nB6cV5xM2qW0";
const REVOKED = "oc_live_revoked0000000000";
const MCP_ONLY = "oc_live_M4cP0nLy7rT2wQ9z";
const ALLOTMENT = 2;

let svc: TestService;
const logLines: string[] = [];
beforeAll(async () => {
  const file = join(tmpdir(), `keys-${process.pid}.json`);
  writeFileSync(
    file,
    JSON.stringify([
      { key: LIVE, status: "active", allotment: ALLOTMENT },
      { key: TEST, status: "active", allotment: 1 },
      { key: REVOKED, status: "revoked" },
      { key: MCP_ONLY, status: "active", allotment: ALLOTMENT },
    ]),
  );
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  svc = await startService({ env: { AUTH_MODE: "metered", API_KEYS_FILE: file, UPGRADE_URL: "https://ocean.example.com/pricing", LOG_LEVEL: "info" }, log: pino({ level: "info" }, sink) });
});
afterAll(() => svc.close());

const REC = "/api/v1/recommendations?activity=snorkel&region=us-hi-oahu";
const withKey = (key: string, how: "bearer" | "header" = "bearer"): RequestInit => ({
  headers: how === "bearer" ? { Authorization: `Bearer ${key}` } : { "X-Service-Key": key },
});

describe("keyed decisions over REST", () => {
  it("says at start-up that allotments kept in memory start again on restart (no REDIS_URL)", () => {
    const warned = logLines.map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => /allotments .* start again from zero on every restart/.test(l.msg));
    expect(warned?.level).toBe(40);
  });

  it("needs a key for decisions, and says how to send one", async () => {
    const r = await svc.json(REC);
    expectProblem(svc, r.status, r.body, 401, "key_required");
    expect(r.res.headers.get("www-authenticate")).toBe('Bearer realm="ocean-conditions"');
    expect(r.body.detail).toMatch(/Authorization: Bearer <key> or X-Service-Key/);
  });

  it("tells unknown keys from revoked ones", async () => {
    const unknown = await svc.json(REC, withKey("oc_live_notissued000000"));
    expectProblem(svc, unknown.status, unknown.body, 401, "invalid_key");
    const revoked = await svc.json(REC, withKey(REVOKED, "header"));
    expectProblem(svc, revoked.status, revoked.body, 401, "key_revoked");
  });

  it("refuses a valid key sent with a different (revoked) one, and a bearer with more after the key, as invalid_key", async () => {
    const both = await svc.json(REC, { headers: { Authorization: `Bearer ${LIVE}`, "X-Service-Key": REVOKED } });
    expectProblem(svc, both.status, both.body, 401, "invalid_key");
    const extra = await svc.json(REC, { headers: { Authorization: `Bearer ${LIVE} extra` } });
    expectProblem(svc, extra.status, extra.body, 401, "invalid_key");
  });

  it("never accepts a key in the URL, and says so", async () => {
    const r = await svc.json(`${REC}&api_key=${LIVE}`);
    expectProblem(svc, r.status, r.body, 401, "invalid_key");
    expect(r.body.detail).toMatch(/never accepted in the URL/);
  });

  it("charges successful calls against a live key's allotment, then answers 402 with upgrade_url", async () => {
    // A refused call (bad input) is not charged.
    expect((await svc.get("/api/v1/recommendations?activity=snorkel&region=us-hi-oahu&limit=9", withKey(LIVE))).status).toBe(400);
    for (let i = 0; i < ALLOTMENT; i++) expect((await svc.get(REC, withKey(LIVE, i % 2 ? "header" : "bearer"))).status).toBe(200);
    const r = await svc.json(REC, withKey(LIVE));
    expectProblem(svc, r.status, r.body, 402, "free_allotment_exhausted");
    expect(r.body.upgrade_url).toBe("https://ocean.example.com/pricing");
  });

  it("never charges a test key", async () => {
    for (let i = 0; i < 4; i++) expect((await svc.get("/api/v1/best-day?activity=dive&spot=molokini-back-wall", withKey(TEST))).status).toBe(200);
  });

  it("lets only the caller's own cache keep a keyed answer", async () => {
    const r = await svc.get("/api/v1/best-day?activity=dive&spot=molokini-back-wall", withKey(TEST));
    expect(r.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
  });

  it("keeps facts keyless", async () => {
    expect((await svc.get("/api/v1/conditions?spot=hanauma-bay")).status).toBe(200);
    expect((await svc.get("/api/v1/coverage", withKey("oc_live_notissued000000"))).status).toBe(200);
  });
});

describe("keyed decisions over MCP", () => {
  const connect = async (headers: Record<string, string>) => {
    const client = new Client({ name: "keys-test", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.base}/mcp`), { requestInit: { headers } }));
    return client;
  };
  it.each([
    [{}, "key_required"],
    [{ Authorization: "Bearer oc_live_notissued000000" }, "invalid_key"],
    [{ "X-Service-Key": REVOKED }, "key_revoked"],
    // The REST tests above used up this key's allotment: one count shared by REST and MCP.
    [{ Authorization: `Bearer ${LIVE}` }, "free_allotment_exhausted"],
  ])("headers %o → tool error %s", async (headers, code) => {
    const client = await connect(headers as Record<string, string>);
    try {
      const r = await client.callTool({ name: "recommend_spot", arguments: { activity: "snorkel", region: "us-hi-oahu" } });
      expect(r.isError).toBe(true);
      const err = ToolErrorSchema.parse(r.structuredContent).error;
      expect(err.code).toBe(code);
      if (code === "free_allotment_exhausted") expect(err.upgrade_url).toBe("https://ocean.example.com/pricing");
      // Facts tools stay keyless whatever the key.
      expect((await client.callTool({ name: "list_coverage", arguments: {} })).isError ?? false).toBe(false);
    } finally {
      await client.close();
    }
  });

  it("charges repeated calls answered from stored responses like any other", async () => {
    const client = await connect({ Authorization: `Bearer ${MCP_ONLY}` });
    const replayedBefore = logLines.filter((l) => l.includes('"replayed":true')).length;
    try {
      const call = () => client.callTool({ name: "best_day", arguments: { activity: "snorkel", region: "us-hi-maui" } });
      for (let i = 0; i < ALLOTMENT; i++) expect((await call()).isError ?? false).toBe(false);
      const over = await call();
      expect(over.isError).toBe(true);
      expect(ToolErrorSchema.parse(over.structuredContent).error.code).toBe("free_allotment_exhausted");
      // The second call was written in the SDK's envelope (learned from the first), and it was charged.
      expect(logLines.filter((l) => l.includes('"replayed":true')).length).toBeGreaterThan(replayedBefore);
    } finally {
      await client.close();
    }
  });

  it("answers a test key", async () => {
    const client = await connect({ "X-Service-Key": TEST });
    try {
      const r = await client.callTool({ name: "best_day", arguments: { activity: "dive", spot: "molokini-back-wall" } });
      expect(r.isError ?? false).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe("logs", () => {
  it("never contain a key, only its hash prefix", () => {
    const all = logLines.join("");
    expect(logLines.length).toBeGreaterThan(10);
    for (const key of [LIVE, TEST, REVOKED]) expect(all).not.toContain(key);
    expect(all).toContain(`key:${keyHash(LIVE).slice(0, 12)}`);
    expect(all).not.toMatch(/api_key=/);
  });
});
