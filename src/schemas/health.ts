// Bodies of the liveness and readiness checks (GET /healthz, GET /readyz), for the OpenAPI document.
// Loose objects: a check may add detail beside `status` without breaking a caller that reads only it.
import { z } from "zod";
import { SourceSchema } from "./common.js";

export const HealthSchema = z.looseObject({ status: z.literal("ok"), source: SourceSchema }).meta({ id: "Health", description: "The process is up and answering." });

export const ReadinessSchema = z
  .looseObject({
    status: z.enum(["ok", "degraded", "starting", "draining"]).meta({
      description:
        "ok: catalogue and tide data are loaded and the start-up warm-up is done; degraded: ready, but Redis is down, not answering or refusing writes for want of memory, so rate limits and upstream answers are this instance's own and key allotments are refused with 503 until it is back; starting: not yet; draining: shutting down",
    }),
    checks: z.looseObject({
      catalog: z.boolean(),
      tides: z.boolean(),
      warm: z.boolean(),
      draining: z.boolean(),
      redis: z.enum(["up", "down"]).nullable().meta({ description: "The shared Redis connection: up, down (refused, lost or not answering within its deadline), or null without REDIS_URL" }),
      redis_memory: z
        .enum(["ok", "full"])
        .nullable()
        .meta({ description: "full: Redis refused a write for want of memory (maxmemory reached with nothing it may evict) and has not accepted one since; null without REDIS_URL" }),
    }),
    source: SourceSchema,
  })
  .meta({ id: "Readiness", description: "Whether this instance should receive traffic." });

export const FrontIndexSchema = z
  .looseObject({
    name: z.string(),
    description: z.string(),
    version: z.string(),
    links: z.looseObject({
      docs: z.url(),
      openapi: z.url(),
      mcp: z.url(),
      coverage: z.url(),
      spots: z.url(),
      example_conditions: z.url(),
      example_forecast_page: z.url(),
      server_card: z.url(),
      project: z.url(),
    }),
    coverage: z.object({ regions: z.int(), spots: z.int() }),
    source: SourceSchema,
  })
  .meta({ id: "FrontIndex", description: "What this service is, where its API, MCP endpoint, docs and examples are, and how much it covers (GET / when HTML is not asked for)." });
