// A peer client nobody here wrote: the v1 TypeScript SDK (`@modelcontextprotocol/sdk` 1.32.2), which
// most MCP hosts still ship. Its Client validates every structuredContent against the tool's
// outputSchema with ajv and throws on a mismatch, so each call below is also a schema check by an
// independent validator, across every region, activity and tool.
import { Client } from "mcp-sdk-v1/client/index.js";
import { StreamableHTTPClientTransport } from "mcp-sdk-v1/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIVITY_IDS } from "../src/base/activities.js";
import { Catalog } from "../src/catalog/catalog.js";
import { startService, type TestService, NO_RATE_LIMITS } from "./helpers/service.js";

interface CallResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

let svc: TestService;
let client: Client;
let transport: StreamableHTTPClientTransport;
const catalog = Catalog.load();
beforeAll(async () => {
  svc = await startService({ catalog, env: NO_RATE_LIMITS });
  client = new Client({ name: "v1-sdk-peer", version: "1.32.2" });
  transport = new StreamableHTTPClientTransport(new URL(`${svc.base}/mcp`));
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  await svc?.close();
});

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallResult;

describe("the v1 SDK client", () => {
  it("negotiates a 2025 protocol version and lists the four tools, each with an output schema", async () => {
    expect(["2025-06-18", "2025-11-25"]).toContain(transport.protocolVersion);
    expect(transport.sessionId).toBeUndefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["best_day", "get_conditions", "list_coverage", "recommend_spot"]);
    for (const t of tools) expect(t.outputSchema, t.name).toBeDefined();
  });

  it("validates get_conditions for the first spot of every region against its output schema", async () => {
    let checked = 0;
    for (const region of catalog.regions) {
      const spot = region.spots[0]!;
      const r = await call("get_conditions", { spot: spot.id });
      expect(r.isError ?? false, spot.id).toBe(false);
      expect(r.structuredContent!.spot).toMatchObject({ id: spot.id });
      checked++;
    }
    expect(checked).toBe(catalog.regions.length);
  });

  it("validates recommend_spot and best_day for every activity against their output schemas", async () => {
    const region = catalog.regions[0]!;
    let checked = 0;
    for (const activity of ACTIVITY_IDS) {
      const rec = await call("recommend_spot", { activity, region: region.id });
      expect(rec.isError ?? false, activity).toBe(false);
      expect(rec.structuredContent).toHaveProperty("picks");
      const best = await call("best_day", { activity, spot: region.spots[0]!.id });
      expect(best.isError ?? false, activity).toBe(false);
      checked += 2;
    }
    expect(checked).toBe(2 * ACTIVITY_IDS.length);
  });

  it("validates list_coverage, and gets a tool error (not a protocol error) for an unknown spot", async () => {
    const coverage = await call("list_coverage", {});
    expect((coverage.structuredContent!.regions as unknown[]).length).toBe(catalog.regions.length);
    const err = await call("best_day", { spot: "nope", activity: "snorkel" });
    expect(err.isError).toBe(true);
    expect(err.structuredContent).toMatchObject({ error: { code: "unknown_spot" }, source: { name: "Ocean Conditions" } });
  });

  it("reads the MCP Apps view resource the tools point to", async () => {
    const { resources } = await client.listResources();
    const view = resources.find((r) => r.uri.startsWith("ui://"));
    expect(view).toBeDefined();
    const read = await client.readResource({ uri: view!.uri });
    const content = read.contents[0] as { text?: string; mimeType?: string };
    expect(content.mimeType).toMatch(/^text\/html/);
    expect(content.text).toContain("<html");
  });
});
