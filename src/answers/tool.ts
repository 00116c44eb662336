// What every MCP tool module in tools/ exports, and the schema wrappers the SDK receives.
//
// Input: tools/list advertises the strict JSON Schema written in zod, but the SDK is handed a
// pass-through validator so every argument reaches the same parsers the REST routes use. A bad
// value then becomes a tool error carrying the REST code (`invalid_limit`, `unknown_activity`,
// …) instead of the SDK's text-only "Input validation error". What REST cannot be sent (an
// argument the tool does not take, a JSON type or length the schema does not allow) is refused
// first by `checkArguments`, as `invalid_parameter` naming the tool's arguments.
// Output: the advertised schema admits both the success object and the tool-error object, so a
// host validating structuredContent accepts every result; success results are validated for real,
// once per answer object.
import type { ToolAnnotations } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { ServiceContext } from "../services/context.js";
import { ServiceError, type ErrorCode } from "../base/errors.js";
import type { Operation } from "../services/metering/meter.js";
import { portableJsonSchema } from "../schemas/portable.js";
import { ToolErrorSchema } from "../schemas/tool-error.js";
import { DATE_PATTERN } from "../schemas/common.js";

/**
 * The part of the service a tool may read: the catalogue and its rules, the clock, the forecasts and
 * the validation record, links and the source block. Metering, the answer cache, Redis, the upstream
 * adapters and the logger stay with the surfaces that call tools (mcp/server.ts, http/api.ts).
 * Each tool's own functions declare the smaller part they read (Pick<ServiceContext, …>).
 */
export type ToolContext = Pick<ServiceContext, "catalog" | "clock" | "config" | "forecasts" | "links" | "regulations" | "source" | "validation">;

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
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<T> | T;
  /** The code an argument of the wrong JSON type is refused with; default: the parameter's own (params.ts). */
  argumentCode?: (argument: string) => ErrorCode;
  /** Ready-to-show Markdown; ends with the source line. */
  markdown(result: T, ctx: ToolContext): string;
}

/** An optional date argument, YYYY-MM-DD, as every dated tool takes it. */
export const dateArgument = (description: string) => z.string().regex(DATE_PATTERN).optional().describe(description);

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

// Converting the four tools' schemas takes about 100 ms, a tenth of a start-up: each is converted
// when first listed, or when the entry point prepares them after the warm-up (prepareToolSchemas),
// and kept.
const converted = { input: new WeakMap<z.ZodType, JsonSchema>(), output: new WeakMap<z.ZodType, JsonSchema>() };

const toJson = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
  let json = converted[io].get(schema);
  if (!json) {
    json = portableJsonSchema(z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema);
    converted[io].set(schema, json);
  }
  return json;
};

/** Advertises `schema` in tools/list; accepts any argument object (the handler validates). */
export function advertisedInput(schema: z.ZodObject): StandardWithJson {
  const json = () => toJson(schema, "input");
  return {
    "~standard": {
      version: 1,
      vendor: "ocean-conditions",
      validate: (value) => (typeof value === "object" && value !== null && !Array.isArray(value) ? { value } : { issues: [{ message: "arguments must be an object" }] }),
      jsonSchema: { input: json, output: json },
    },
  };
}

/** Converts a tool's schemas now, so that the first tools/list does not wait for them. */
export function prepareSchemas(tool: Pick<ToolDefinition, "config">): void {
  toJson(tool.config.inputSchema, "input");
  toJson(tool.config.outputSchema, "output");
  toJson(ToolErrorSchema, "output");
}

/** The JSON Schema tools/list shows for a tool's result: its success object or a tool error. */
function successOrToolError(schema: z.ZodType): JsonSchema {
  const success = toJson(schema, "output");
  const failure = toJson(ToolErrorSchema, "output");
  // Hoist both $defs to the root so "#/$defs/…" references keep resolving inside anyOf.
  const { $schema, $defs: successDefs, ...successBody } = success;
  const { $schema: _s, $defs: failureDefs, ...failureBody } = failure;
  return {
    $schema,
    type: "object",
    anyOf: [successBody, failureBody],
    $defs: { ...(successDefs as JsonSchema | undefined), ...(failureDefs as JsonSchema | undefined) },
  };
}

/** Advertises success-or-tool-error; validates success results against `schema`. */
export function advertisedOutput(schema: z.ZodType): StandardWithJson {
  let advertised: JsonSchema | undefined;
  const json = () => (advertised ??= successOrToolError(schema));
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
      jsonSchema: { input: json, output: json },
    },
  };
}

const jsonTypeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : `a ${typeof v}`);

/**
 * Refuses arguments the tool's advertised schema rules out before any value is read: names it does
 * not take (`invalid_parameter`), and JSON types or string lengths it does not allow (the argument's
 * own code, `codeOf`). Values of the right type (a date that does not exist, a limit of 9) are left
 * to the shared parsers, so they get the REST codes and wording.
 */
export function checkArguments(tool: string, schema: z.ZodObject, args: Record<string, unknown>, codeOf: (argument: string) => ErrorCode, sentNames: readonly string[] = []): void {
  const allowed = Object.keys(schema.shape);
  const takes = allowed.length === 0 ? `${tool} takes no arguments.` : `${tool} takes: ${allowed.join(", ")}.`;
  // `sentNames`: names the request carried that the SDK's parsing dropped before the tool saw them
  // (`__proto__` does not survive an object copy), so they are refused like any unknown name.
  const unknown = [...new Set([...sentNames, ...Object.keys(args)])].filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    const names = unknown.map((k) => `\`${k}\``).join(", ");
    throw new ServiceError("invalid_parameter", `Unknown argument${unknown.length === 1 ? "" : "s"} ${names}. ${takes}`, { extra: { allowed } });
  }
  for (const name of allowed) {
    const value = args[name];
    // null is the same as leaving the argument out (the canonical form of a question, answer-cache.ts).
    if (value === undefined || value === null) continue;
    const r = (schema.shape[name] as z.ZodType).safeParse(value);
    if (r.success) continue;
    // A whole number given as 2.5 is the right JSON type: its parser says what is wrong with it.
    const issue = r.error.issues.find((i) => (i.code === "invalid_type" && i.expected !== "int") || ((i.code === "too_big" || i.code === "too_small") && i.origin === "string"));
    if (!issue) continue;
    const what = issue.code === "invalid_type" ? `must be ${issue.expected === "string" ? "text" : `a ${issue.expected}`}, not ${jsonTypeOf(value)}` : issue.message.toLowerCase();
    // An object where a value belongs is no value of that parameter at all; a list is that parameter
    // given more than once, which has its own code.
    const code = typeof value === "object" && !Array.isArray(value) ? "invalid_parameter" : codeOf(name);
    throw new ServiceError(code, `\`${name}\` ${what}. ${takes}`, { extra: { allowed } });
  }
}
