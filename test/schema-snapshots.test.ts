// The published contract as clients see it: tools/list as served over MCP (names, descriptions,
// input and output schemas, annotations, _meta) and GET /openapi.json, compared with snapshots
// committed in test/__snapshots__/. A changed tool or OpenAPI schema fails here until the snapshot is
// updated on purpose, so every contract change shows up in review as a diff of these files.
//
// To accept a deliberate change, update the snapshots and commit them with the change:
//   npx vitest run test/schema-snapshots.test.ts -u
// (the path goes first: vitest 4's `-u` takes an optional value and would swallow a path after it,
// then run and update the whole suite).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, type Connected } from "./helpers/mcp.js";
import { startService, type TestService } from "./helpers/service.js";

/** What every occurrence of this deployment's address becomes (the discovery templates use the same). */
const BASE_PLACEHOLDER = "{{PUBLIC_BASE_URL}}";

let svc: TestService;
let mcp: Connected;
beforeAll(async () => {
  svc = await startService();
  mcp = await connectClient(svc.base, "2026-07-28");
});
afterAll(async () => {
  await mcp?.close();
  await svc?.close();
});

/** Object keys sorted at every level (arrays keep their order) and the base URL replaced: stable across runs and ports. */
function normalise(value: unknown, base: string): unknown {
  if (typeof value === "string") return value.replaceAll(base, BASE_PLACEHOLDER);
  if (Array.isArray(value)) return value.map((v) => normalise(v, base));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, normalise((value as Record<string, unknown>)[k], base)]),
    );
  }
  return value;
}

const snapshotText = (value: unknown, base: string) => `${JSON.stringify(normalise(value, base), null, 2)}\n`;

describe("published schemas match the committed snapshots", () => {
  it("tools/list, as served over MCP", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_conditions", "list_coverage", "recommend_spot", "best_day"]);
    await expect(snapshotText(tools, svc.base)).toMatchFileSnapshot("__snapshots__/tools-list.json");
  });

  it("GET /openapi.json", async () => {
    const res = await svc.get("/openapi.json");
    expect(res.status).toBe(200);
    const text = snapshotText(await res.json(), svc.base);
    expect(text).not.toContain("127.0.0.1");
    await expect(text).toMatchFileSnapshot("__snapshots__/openapi.json");
  });

  it("normalises the same way for any address, so the snapshot does not depend on the port", async () => {
    const other = await startService();
    try {
      const a = snapshotText(await (await svc.get("/openapi.json")).json(), svc.base);
      const b = snapshotText(await (await other.get("/openapi.json")).json(), other.base);
      expect(other.base).not.toBe(svc.base);
      expect(b).toBe(a);
    } finally {
      await other.close();
    }
  });
});
