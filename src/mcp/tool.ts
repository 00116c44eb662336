// What every MCP tool module in tools/ exports, and the schema wrappers the SDK receives.
//
// Input: tools/list advertises the strict JSON Schema written in zod, but the SDK is handed a
// pass-through validator so every argument reaches the same parsers the REST routes use. A bad
// argument then becomes a tool error carrying the REST code (`invalid_limit`, `unknown_activity`,
// …) instead of the SDK's text-only "Input validation error".
// Output: the advertised schema admits both the success object and the tool-error object, so a
// host validating structuredContent accepts every result; success results are validated for real,
// once per answer object.
import type { ToolAnnotations } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { ServiceContext } from "../context.js";
import type { Operation } from "../metering/meter.js";
import { ToolErrorSchema } from "../schemas/tool-error.js";

export interface ToolDefinition<T = unknown> {
  name: string;
  /** The REST twin's operation: metered the same way (rate limits, keys). */
  operation: Operation;
  config: {
    title: string;
    description: string;
    inputSchema: z.ZodObject;
    outputSchema: z.ZodType<T>;
  };
  annotations: ToolAnnotations;
  /** Renders the MCP Apps card view as well as Markdown. */
  appView: boolean;
  run(args: Record<string, unknown>, ctx: ServiceContext): Promise<T> | T;
  /** Ready-to-show Markdown; ends with the source line. */
  markdown(result: T, ctx: ServiceContext): string;
}

/** Every tool only reads; `openWorld` when its answer draws on outside data (forecasts), not the catalogue alone. */
export function readOnlyAnnotations(openWorld: boolean): ToolAnnotations {
  return { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: openWorld };
}

type JsonSchema = Record<string, unknown>;

interface StandardWithJson {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { value: unknown } | { issues: { message: string }[] };
    readonly jsonSchema: { readonly input: () => JsonSchema; readonly output: () => JsonSchema };
  };
}

const toJson = (schema: z.ZodType, io: "input" | "output"): JsonSchema =>
  z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;

/** Advertises `schema` in tools/list; accepts any argument object (the handler validates). */
export function advertisedInput(schema: z.ZodObject): StandardWithJson {
  const json = toJson(schema, "input");
  return {
    "~standard": {
      version: 1,
      vendor: "ocean-conditions",
      validate: (value) =>
        typeof value === "object" && value !== null && !Array.isArray(value) ? { value } : { issues: [{ message: "arguments must be an object" }] },
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/** Advertises success-or-tool-error; validates success results against `schema`. */
export function advertisedOutput(schema: z.ZodType): StandardWithJson {
  const success = toJson(schema, "output");
  const failure = toJson(ToolErrorSchema, "output");
  // Hoist both $defs to the root so "#/$defs/…" references keep resolving inside anyOf.
  const { $schema, $defs: successDefs, ...successBody } = success;
  const { $schema: _s, $defs: failureDefs, ...failureBody } = failure;
  const json: JsonSchema = {
    $schema,
    type: "object",
    anyOf: [successBody, failureBody],
    $defs: { ...(successDefs as JsonSchema | undefined), ...(failureDefs as JsonSchema | undefined) },
  };
  // A cached answer is one object served to every caller: it is validated the first time only
  // (a 35 KB answer takes about 0.2 ms to validate). The value itself is passed on, so MCP sends
  // exactly what REST sends.
  const validated = new WeakSet<object>();
  return {
    "~standard": {
      version: 1,
      vendor: "ocean-conditions",
      validate: (value) => {
        const isObject = typeof value === "object" && value !== null;
        if (isObject && validated.has(value)) return { value };
        const r = schema.safeParse(value);
        if (!r.success) return { issues: r.error.issues.map((i) => ({ message: `${i.path.join(".")}: ${i.message}` })) };
        if (isObject) validated.add(value);
        return { value };
      },
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}
