// The four tools through the official MCP client over real HTTP, at each supported protocol version:
// same tools for everyone, same objects as the REST twins, statuses as normal results, and tool
// errors carrying the REST codes for every bad input — including inputs the schema itself rejects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CoverageSchema } from "../src/schemas/catalog.js";
import { ConditionsSchema } from "../src/schemas/conditions.js";
import { BestDaySchema, RecommendationSchema } from "../src/schemas/decisions.js";
import { ToolErrorSchema } from "../src/schemas/tool-error.js";
import { connectClient, VERSIONS, type Connected } from "./helpers/mcp.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

type CallResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
const call = async (c: Connected, name: string, args: Record<string, unknown>) => (await c.client.callTool({ name, arguments: args })) as CallResult;
const rest = async (path: string, args: Record<string, unknown>) => {
  const qs = new URLSearchParams(Object.entries(args).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return svc.json(`${path}?${qs}`);
};

const TWINS: [string, string, Record<string, unknown>, { parse(v: unknown): unknown }][] = [
  ["get_conditions", "/api/v1/conditions", { spot: "hanauma-bay", from: "2026-11-22", to: "2026-11-23" }, ConditionsSchema],
  ["get_conditions", "/api/v1/conditions", { lat: 32.85, lon: -117.27 }, ConditionsSchema],
  ["list_coverage", "/api/v1/coverage", { region: "us-hi-kona" }, CoverageSchema],
  ["recommend_spot", "/api/v1/recommendations", { activity: "snorkel", region: "us-hi-maui", limit: 5 }, RecommendationSchema],
  ["recommend_spot", "/api/v1/recommendations", { activity: "spearfish", lat: 19.6, lon: -156, radius_km: 60 }, RecommendationSchema],
  ["best_day", "/api/v1/best-day", { activity: "dive", region: "us-ca-monterey" }, BestDaySchema],
];

for (const version of VERSIONS) {
  describe(`protocol ${version}`, () => {
    let c: Connected;
    beforeAll(async () => {
      c = await connectClient(svc.base, version);
    });
    afterAll(() => c.close());

    it("speaks this version statelessly", async () => {
      await c.client.listTools();
      expect([...c.sentVersions]).toEqual([version]);
      expect(c.sessionIds.size).toBe(0);
    });

    it("lists the four read-only tools with descriptions, input and output schemas", async () => {
      const { tools } = await c.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["get_conditions", "list_coverage", "recommend_spot", "best_day"]);
      for (const t of tools) {
        expect(t.title).toBeTruthy();
        expect(t.description!.length).toBeGreaterThan(100);
        expect(t.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
        expect(t.inputSchema.type).toBe("object");
        expect(t.outputSchema).toMatchObject({ type: "object" });
      }
      expect(tools.find((t) => t.name === "recommend_spot")!.inputSchema.required).toEqual(["activity"]);
      expect(tools.find((t) => t.name === "recommend_spot")!._meta).toMatchObject({ ui: { resourceUri: "ui://ocean-conditions/card.html" } });
    });

    it.each(TWINS)("%s returns the same object as GET %s (%o), with a Markdown card ending in the source line", async (tool, path, args, schema) => {
      const r = await call(c, tool, args);
      expect(r.isError ?? false).toBe(false);
      const twin = await rest(path, args);
      expect(twin.status).toBe(200);
      const { generated_at: _a, ...structured } = r.structuredContent as Record<string, unknown>;
      const { generated_at: _b, ...restBody } = twin.body;
      expect(structured).toEqual(restBody);
      schema.parse(r.structuredContent);
      expect(r.structuredContent!.source).toMatchObject({ name: "Ocean Conditions", url: svc.base });
      const text = r.content.find((x) => x.type === "text")!.text!;
      expect(text).toMatch(/^## /);
      expect(text.endsWith(`Source: Ocean Conditions (${svc.base})`)).toBe(true);
    });

    it.each([
      ["recommend_spot", { activity: "snorkel", lat: 0, lon: 0 }, "not_covered"],
      ["recommend_spot", { activity: "snorkel", region: "us-ca-catalina" }, "conditions_only"],
      ["recommend_spot", { activity: "surf", spot: "waimea-bay" }, "activity_not_modeled"],
      ["best_day", { activity: "surf", region: "us-hi-oahu" }, "activity_not_modeled"],
    ])("%s %o is a normal result with status %s and a message to relay", async (tool, args, status) => {
      const r = await call(c, tool, args);
      expect(r.isError ?? false).toBe(false);
      expect(r.structuredContent).toMatchObject({ status });
      expect(String(r.structuredContent!.message).length).toBeGreaterThan(20);
      expect(r.content[0]!.text).toContain(String(r.structuredContent!.message).slice(0, 20));
    });

    // The REST twin is asked the same thing; the tool error must carry the code of its problem.
    it.each([
      ["recommend_spot", { region: "us-hi-oahu" }, "/api/v1/recommendations", "missing_activity"],
      ["recommend_spot", { activity: "kite", region: "us-hi-oahu" }, "/api/v1/recommendations", "unknown_activity"],
      ["recommend_spot", { activity: "snorkel" }, "/api/v1/recommendations", "missing_location"],
      ["recommend_spot", { activity: "snorkel", region: "us-hi-oahu", spot: "hanauma-bay" }, "/api/v1/recommendations", "ambiguous_location"],
      ["recommend_spot", { activity: "snorkel", region: "us-hi-oahu", limit: 9 }, "/api/v1/recommendations", "invalid_limit"],
      ["recommend_spot", { activity: "snorkel", region: "us-hi-oahu", limit: 2.5 }, "/api/v1/recommendations", "invalid_limit"],
      ["recommend_spot", { activity: "snorkel", lat: 21, lon: -157, radius_km: 0 }, "/api/v1/recommendations", "invalid_radius"],
      ["recommend_spot", { activity: "snorkel", region: "us-hi-oahu", date: "2026-13-01" }, "/api/v1/recommendations", "invalid_date"],
      ["recommend_spot", { activity: "snorkel", region: "us-hi-oahu", date: "2026-12-25" }, "/api/v1/recommendations", "outside_horizon"],
      ["recommend_spot", { activity: "snorkel", spot: "atlantis" }, "/api/v1/recommendations", "unknown_spot"],
      ["recommend_spot", { activity: "snorkel", region: "atlantis" }, "/api/v1/recommendations", "unknown_spot"],
      ["best_day", { activity: "snorkel", region: "us-hi-oahu", from: "2026-11-24", to: "2026-11-22" }, "/api/v1/best-day", "invalid_range"],
      ["best_day", { activity: "snorkel", region: "us-hi-oahu", from: "2026-11-21", to: "2026-11-29" }, "/api/v1/best-day", "range_too_long"],
      ["get_conditions", {}, "/api/v1/conditions", "missing_location"],
      ["get_conditions", { lat: 95, lon: 0 }, "/api/v1/conditions", "invalid_coordinates"],
      ["get_conditions", { lat: 0, lon: -140 }, "/api/v1/conditions", "no_spot_nearby"],
      ["get_conditions", { spot: "Hanauma Bay" }, "/api/v1/conditions", "unknown_spot"],
      ["get_conditions", { spot: "hanauma-bay", from: "2026-02-30" }, "/api/v1/conditions", "invalid_date"],
    ])("%s %o is a tool error with the REST code %s", async (tool, args, path, code) => {
      const r = await call(c, tool, args);
      expect(r.isError).toBe(true);
      const err = ToolErrorSchema.parse(r.structuredContent);
      expect(err.error.code).toBe(code);
      const twin = await rest(path, args);
      expect(twin.body.code).toBe(code);
      expect(err.error.status).toBe(twin.status);
      expect(r.content[0]!.text).toContain(code);
    });

    it("keeps the code for arguments of the wrong type", async () => {
      for (const [args, code] of [
        [{ activity: 7, region: "us-hi-oahu" }, "unknown_activity"],
        [{ activity: "snorkel", region: "us-hi-oahu", limit: "lots" }, "invalid_limit"],
        [{ activity: "snorkel", lat: "north", lon: 3 }, "invalid_coordinates"],
        [{ activity: "snorkel", spot: ["hanauma-bay", "sharks-cove"] }, "one_spot_per_request"],
      ] as const) {
        const r = await call(c, "recommend_spot", args as Record<string, unknown>);
        expect(r.isError).toBe(true);
        expect(ToolErrorSchema.parse(r.structuredContent).error.code).toBe(code);
      }
    });

    it("serves the card view as an MCP Apps resource", async () => {
      const { contents } = await c.client.readResource({ uri: "ui://ocean-conditions/card.html" });
      const html = contents[0] as { mimeType: string; text: string; _meta?: unknown };
      expect(html.mimeType).toBe("text/html;profile=mcp-app");
      expect(html.text).toMatch(/^<!doctype html>/i);
      expect(html.text).toContain('"#09A1FB"');
      expect(html.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    });
  });
}

describe("across versions", () => {
  it("lists identical tools to every client", async () => {
    const lists = [];
    for (const v of VERSIONS) {
      const c = await connectClient(svc.base, v);
      lists.push((await c.client.listTools()).tools);
      await c.close();
    }
    expect(lists[1]).toEqual(lists[0]);
    expect(lists[2]).toEqual(lists[0]);
  });
});
