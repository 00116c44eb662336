// A soak of a few thousand mixed requests (REST facts and decisions, MCP calls, share images and
// pages, bad inputs) against one service: no 5xx, and memory settles instead of growing.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "./helpers/service.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "soak", version: "0" } };

function mixedRequest(i: number, spots: readonly string[], dates: readonly string[]): [string, RequestInit?] {
  const spot = spots[i % spots.length]!;
  const date = dates[i % dates.length]!;
  switch (i % 9) {
    case 0:
      return [`/api/v1/conditions?spot=${spot}&from=${date}&to=${date}`];
    case 1:
      return [`/api/v1/recommendations?activity=${["snorkel", "dive", "freedive", "spearfish"][i % 4]}&spot=${spot}&date=${date}`];
    case 2:
      return [`/api/v1/best-day?activity=snorkel&spot=${spot}`];
    case 3:
      return [`/api/v1/spots?q=${spot.slice(0, 4)}`];
    case 4:
      // Cards of a few spots (every ninth request lands on 4 of the first 12): drawing one costs about
      // 90 ms of CPU, so drawing one per request made this the suite's slowest file. 4 spots × 7 dates
      // × 2 activities: the activity changes for the last 1,000 requests, so the measured run draws
      // 28 new cards as well as serving cached ones.
      return [`/cards/${spots[i % 12]}/${date}.png?activity=${i < 2000 ? "dive" : "snorkel"}`];
    case 5:
      return [`/s/${spot}/${date}?activity=snorkel`];
    case 6:
      return [`/api/v1/conditions?spot=${spot}-nope&from=${date}`];
    case 7:
      return [
        "/mcp",
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "get_conditions",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "get_conditions", arguments: { spot, from: date, to: date }, _meta: META } }),
        },
      ];
    default:
      return [`/api/v1/recommendations?activity=kite&region=us-hi-oahu`];
  }
}

describe("soak", () => {
  it("answers 3,000 mixed requests without a 5xx while memory stays flat", async () => {
    // Every eighth spot (60 of 479, across the regions): the warm-up's 1,000 requests then touch every
    // spot, day and kind of request the measured 2,000 repeat, so growth after it is a leak, not a
    // cache still filling (every spot × day would take more requests than the soak sends).
    const spots = svc.ctx.catalog.spots.filter((_, i) => i % 8 === 0).map((s) => s.id);
    const dates = ["2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"];
    const run = async (from: number, count: number) => {
      const statuses = new Map<number, number>();
      for (let i = from; i < from + count; i += 25) {
        const batch = Array.from({ length: 25 }, (_, k) => mixedRequest(i + k, spots, dates));
        const results = await Promise.all(
          batch.map(async ([path, init]) => {
            const res = await svc.get(path, init);
            await res.arrayBuffer();
            return res.status;
          }),
        );
        for (const s of results) statuses.set(s, (statuses.get(s) ?? 0) + 1);
      }
      return statuses;
    };
    // Warm every cache the mix touches (forecasts for each spot-hour, images, pages), then measure.
    await run(0, 1000);
    gc();
    const before = process.memoryUsage().heapUsed;
    const statuses = await run(1000, 2000);
    gc();
    const after = process.memoryUsage().heapUsed;
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(1300);
    expect(statuses.get(404)).toBeGreaterThan(100);
    const growthMb = (after - before) / 1024 / 1024;
    expect(growthMb, `heap grew ${growthMb.toFixed(1)} MB over 2,000 requests`).toBeLessThan(15);
  }, 900_000); // generous: 3,000 requests on a machine whose cores may be busy elsewhere; nothing here is timed
});
