// The --stdio entry for desktop hosts: the same four tools over stdin/stdout, through the official
// client's stdio transport, with logs kept off stdout.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { SERVICE_ARGS } from "./helpers/process.js";

// The child loads the whole service before it answers; on a machine whose cores are
// busy elsewhere that takes far longer than the client's default 60 s request timeout.
const SLOW_MACHINE = { timeout: 240_000 };

describe("stdio entry", () => {
  it("serves the tools over stdio to a 2025 client and to a 2026-07-28 client", async () => {
    for (const mode of ["legacy", "modern"] as const) {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [...SERVICE_ARGS, "--stdio"],
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATA_SOURCE: "offline", LOG_LEVEL: "info" } as Record<string, string>,
        stderr: "pipe",
      });
      const client = mode === "modern" ? new Client({ name: "stdio-test", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } }) : new Client({ name: "stdio-test", version: "1" });
      await client.connect(transport, SLOW_MACHINE);
      try {
        const { tools } = await client.listTools(undefined, SLOW_MACHINE);
        expect(tools.map((t) => t.name)).toEqual(["get_conditions", "list_coverage", "recommend_spot", "best_day"]);
        const r = (await client.callTool({ name: "recommend_spot", arguments: { activity: "snorkel", region: "us-hi-kona", limit: 2 } }, SLOW_MACHINE)) as {
          structuredContent: { schema: string; status: string; picks: unknown[] };
          content: { text: string }[];
        };
        expect(r.structuredContent.schema).toBe("service.recommendation.v1");
        // The shipped data: Kona ranks only once its visibility calibration earns `full` (docs/model.md).
        const kona = Catalog.load().region("us-hi-kona")!;
        if (kona.decision_support === "full") expect(r.structuredContent.picks).toHaveLength(2);
        else expect([r.structuredContent.status, r.structuredContent.picks]).toEqual(["conditions_only", []]);
        expect(r.content[0]!.text).toMatch(/Source: Ocean Conditions/);
      } finally {
        await client.close();
      }
    }
  }, 600_000);
});
