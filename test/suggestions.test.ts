// A wrong guess gets help (docs/api.md, "Errors"): an unknown spot, region or activity is answered
// with what it most likely meant, by edit distance on ids and by the words of names, in the REST
// problem (`detail` and `suggestions`) and in the MCP tool error, which names the list_coverage tool;
// the spots search finds a spot by every word of its name and region. Through the real HTTP server
// and the official MCP client.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { editDistance, suggestSpots, suggestValue } from "../src/catalog/suggest.js";
import type { SpotListJson } from "../src/schemas/catalog.js";
import type { RecommendationJson } from "../src/schemas/decisions.js";
import { connectClient } from "./helpers/mcp.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ catalog: Catalog.load() });
});
afterAll(() => svc.close());

type Problem = { code: string; detail: string; suggestions?: string[] };

describe("an unknown spot", () => {
  it("suggests the spot a typo meant: hanuama-bay → hanauma-bay, blue-hole-dahb → blue-hole-dahab", async () => {
    for (const [guess, meant] of [
      ["hanuama-bay", "hanauma-bay"],
      ["blue-hole-dahb", "blue-hole-dahab"],
      ["Hanauma Bay", "hanauma-bay"],
    ]) {
      const { status, body } = await svc.json<Problem>(`/api/v1/conditions?spot=${encodeURIComponent(guess!)}`);
      expect(status, guess).toBe(404);
      expect(body.code).toBe("unknown_spot");
      expect(body.suggestions, guess).toContain(meant);
      expect(body.detail).toContain(`Did you mean \`${meant}\``);
      expect(body.detail).toContain("list_coverage");
    }
  });

  it("says so over MCP, naming the list_coverage tool", async () => {
    const c = await connectClient(svc.base, "2026-07-28");
    try {
      const res = (await c.client.callTool({ name: "get_conditions", arguments: { spot: "hanuama-bay" } })) as { isError?: boolean; content: { text?: string }[] };
      expect(res.isError).toBe(true);
      const text = res.content.map((x) => x.text ?? "").join("\n");
      expect(text).toContain("hanauma-bay");
      expect(text).toContain("list_coverage");
    } finally {
      await c.close();
    }
  });

  it("suggests nothing for a guess nothing is near", async () => {
    const { body } = await svc.json<Problem>("/api/v1/conditions?spot=zzzzzz-qqqq");
    expect(body.suggestions).toEqual([]);
    expect(body.detail).not.toContain("Did you mean");
  });
});

describe("an unknown region", () => {
  it("finds the region a place's name means: cozumel → mx-roo-cozumel, maui → us-hi-maui", async () => {
    for (const [guess, meant] of [
      ["cozumel", "mx-roo-cozumel"],
      ["maui", "us-hi-maui"],
      ["us-hi-oahuu", "us-hi-oahu"],
    ]) {
      const { status, body } = await svc.json<Problem>(`/api/v1/recommendations?activity=snorkel&region=${guess}`);
      expect(status, guess).toBe(404);
      expect(body.code).toBe("unknown_spot");
      expect(body.suggestions, guess).toEqual([meant]);
      expect(body.detail).toContain(`Did you mean \`${meant}\``);
    }
    const rec = await svc.json<RecommendationJson>("/api/v1/recommendations?activity=snorkel&region=mx-roo-cozumel");
    expect(rec.status).toBe(200);
  });

  it("gets a note, not a silent empty list, from the spots directory and list_coverage", async () => {
    const { status, body } = await svc.json<SpotListJson>("/api/v1/spots?region=cozumel");
    expect(status).toBe(200);
    expect(body.spots).toEqual([]);
    expect(body.notes.join(" ")).toMatch(/No region has id "cozumel"\. Did you mean `mx-roo-cozumel`\?/);
    const c = await connectClient(svc.base, "2026-07-28");
    try {
      const res = (await c.client.callTool({ name: "list_coverage", arguments: { region: "cozumel" } })) as { structuredContent: { notes: string[] } };
      expect(res.structuredContent.notes[0]).toMatch(/Did you mean `mx-roo-cozumel`/);
    } finally {
      await c.close();
    }
  });
});

describe("an activity", () => {
  it("is read in any case and echoed as the id it was read as; a typo gets a suggestion", async () => {
    const ok = await svc.json<RecommendationJson>("/api/v1/recommendations?activity=Snorkel&region=mx-roo-cozumel");
    expect(ok.status).toBe(200);
    expect(ok.body.query.activity).toBe("snorkel");
    const { status, body } = await svc.json<Problem>("/api/v1/recommendations?activity=snorkle&region=mx-roo-cozumel");
    expect(status).toBe(400);
    expect(body.code).toBe("unknown_activity");
    expect(body.suggestions).toEqual(["snorkel"]);
    expect(suggestValue(["snorkel", "dive"], "kitesurf")).toEqual([]);
  });
});

describe("the spots search", () => {
  it("matches every word of the query against name, region and id: 'Blue Hole Dahab' finds the Blue Hole", async () => {
    const { body } = await svc.json<SpotListJson>(`/api/v1/spots?q=${encodeURIComponent("Blue Hole Dahab")}`);
    expect(body.spots.map((s) => s.id)).toEqual(["blue-hole-dahab"]);
    const oahu = await svc.json<SpotListJson>(`/api/v1/spots?q=${encodeURIComponent("oahu bay")}`);
    expect(oahu.body.spots.length).toBeGreaterThan(1);
    for (const s of oahu.body.spots) expect(s.region.id).toBe("us-hi-oahu");
    const none = await svc.json<SpotListJson>(`/api/v1/spots?q=${encodeURIComponent("hanuama")}`);
    expect(none.body.spots).toEqual([]);
    expect(none.body.notes.join(" ")).toContain("`hanauma-bay`");
  });

  it("counts transpositions as one edit, and stops counting past the budget", () => {
    expect(editDistance("hanuama", "hanauma")).toBe(1);
    expect(editDistance("dahb", "dahab")).toBe(1);
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
    expect(suggestSpots(Catalog.load(), "electric beach").map((s) => s.id)).toEqual(["electric-beach"]);
  });
});

describe("the API's front door", () => {
  it("answers GET /api/v1/ with every REST operation, the OpenAPI document, the docs and the MCP endpoint", async () => {
    for (const path of ["/api/v1/", "/api/v1"]) {
      const { status, body } = await svc.json<{ schema: string; endpoints: { path: string; url: string; summary: string | null }[]; openapi: string; docs: string; mcp: string }>(path);
      expect(status, path).toBe(200);
      expect(body.schema).toBe("service.api_index.v1");
      expect(body.endpoints.map((e) => e.path)).toEqual(expect.arrayContaining(["/api/v1/conditions", "/api/v1/spots", "/api/v1/coverage", "/api/v1/recommendations", "/api/v1/best-day"]));
      for (const e of body.endpoints) expect(e.summary, e.path).toBeTruthy();
      expect(body.mcp).toBe(`${svc.base}/mcp`);
      expect((await svc.get(new URL(body.openapi).pathname)).status).toBe(200);
      expect((await svc.get(new URL(body.docs).pathname)).status).toBe(200);
    }
  });
});
