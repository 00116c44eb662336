// The structuredContent of an MCP tool error: the same stable code the REST twin puts in its problem.
import { z } from "zod";
import { ALL_ERROR_CODES } from "../base/errors.js";
import { SourceSchema } from "./common.js";

export const ToolErrorSchema = z
  .strictObject({
    source: SourceSchema,
    error: z.strictObject({
      code: z.enum(ALL_ERROR_CODES as [string, ...string[]]).meta({ description: "Stable machine code, as in the REST problem" }),
      message: z.string(),
      status: z.number().int().meta({ description: "HTTP status the REST twin answers with" }),
      retry_after_s: z.number().int().optional().meta({ description: "Seconds to wait before retrying (rate limits, unavailable data)" }),
      upgrade_url: z.url().optional().meta({ description: "Where to upgrade when a plan limit is reached" }),
    }),
  })
  .meta({ id: "ToolError", description: "structuredContent of a tool result with isError: true" });
export type ToolErrorJson = z.infer<typeof ToolErrorSchema>;
