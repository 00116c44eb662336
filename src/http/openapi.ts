// GET /openapi.json: the OpenAPI 3.1 document, generated from the zod schemas the service already
// uses (response schemas, the tools' input schemas for query parameters) and the error-code table.
// Each problem code gets a component with a JSON Schema $anchor, so the `type` URI of a problem,
// `<base>/openapi.json#problem-<code>`, resolves to the schema that describes it.
import { z } from "zod";
import { tool as bestDayTool } from "../../tools/best-day.js";
import { tool as getConditionsTool } from "../../tools/get-conditions.js";
import { tool as listCoverageTool } from "../../tools/list-coverage.js";
import { tool as recommendSpotTool } from "../../tools/recommend-spot.js";
import { DISCLAIMER, SERVICE_NAME } from "../attribution.js";
import { ERROR_CODES, type ErrorCode } from "../errors.js";
import { SpotsQuerySchema } from "../facts/spots.js";
import "../schemas/catalog.js";
import "../schemas/conditions.js";
import "../schemas/decisions.js";
import "../schemas/tool-error.js";

type Json = Record<string, unknown>;

/** HTTP statuses per operation (spec section 7), besides 200. */
export const OPERATION_STATUSES = {
  conditions: [400, 404, 422, 429, 503],
  spots: [400, 429],
  coverage: [],
  recommendations: [400, 401, 402, 404, 422, 429, 503],
  "best-day": [400, 401, 402, 404, 422, 429, 503],
} as const;

const codesFor = (status: number) => (Object.keys(ERROR_CODES) as ErrorCode[]).filter((c) => ERROR_CODES[c].status === status);

function componentSchemas(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, { target: "draft-2020-12", uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Json> };
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Components are not documents of their own: drop $schema and the fragment-only $id zod adds.
    const { $schema: _s, $id: _i, ...rest } = schema;
    out[id] = rest;
  }
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    const { status, title } = ERROR_CODES[code];
    out[`problem-${code}`] = {
      $anchor: `problem-${code}`,
      title: `${status} ${code}`,
      description: `Problem \`${code}\` (${title}): HTTP ${status}.`,
      allOf: [{ $ref: "#/components/schemas/Problem" }, { type: "object", properties: { code: { const: code }, status: { const: status } } }],
    };
  }
  return out;
}

/** Query parameters from a zod object schema: one parameter per property. */
function queryParameters(schema: z.ZodObject): Json[] {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input" }) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return { name, in: "query", required: (json.required ?? []).includes(name), description, schema: rest };
  });
}

const LINK_HEADER = { description: "Links to the developer docs (rel=service-doc) and this document (rel=service-desc)", schema: { type: "string" } };
const RETRY_AFTER = { description: "Seconds to wait before retrying (integer)", schema: { type: "integer", minimum: 1 } };

function problemResponses(statuses: readonly number[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const status of statuses) {
    const codes = codesFor(status);
    out[String(status)] = {
      description: `Problem: ${codes.map((c) => `\`${c}\``).join(", ")}`,
      headers: { Link: LINK_HEADER, ...(status === 429 || status === 503 ? { "Retry-After": RETRY_AFTER } : {}) },
      content: {
        "application/problem+json": {
          schema: { oneOf: codes.map((c) => ({ $ref: `#/components/schemas/problem-${c}` })) },
        },
      },
    };
  }
  return out;
}

function operation(o: { id: string; summary: string; description: string; params: Json[]; schema: string; statuses: readonly number[]; tag: string }): Json {
  return {
    get: {
      operationId: o.id,
      summary: o.summary,
      description: o.description,
      tags: [o.tag],
      parameters: o.params,
      responses: {
        "200": {
          description: "Success",
          headers: { Link: LINK_HEADER },
          content: { "application/json": { schema: { $ref: `#/components/schemas/${o.schema}` } } },
        },
        ...problemResponses(o.statuses),
      },
    },
  };
}

let cached: { base: string; doc: Json } | null = null;

export function openApiDocument(base: string): Json {
  if (cached?.base === base) return cached.doc;
  const doc: Json = {
    openapi: "3.1.0",
    info: {
      title: `${SERVICE_NAME} API`,
      version: "1.0.0",
      summary: "Underwater visibility and dive/snorkel conditions at named spots, 7 days ahead, and the best spot and day per activity.",
      description: `${DISCLAIMER}\n\nThe same operations are available as MCP tools at ${base}/mcp.`,
    },
    servers: [{ url: base }],
    tags: [
      { name: "facts", description: "Conditions, spots and coverage. Free, no key." },
      { name: "decisions", description: "Recommendations and best day. Free during early access; a key is optional now." },
    ],
    paths: {
      "/api/v1/conditions": operation({
        id: "getConditions",
        tag: "facts",
        summary: "Conditions for one spot, 3-hour periods, up to 7 days",
        description: getConditionsTool.config.description,
        params: queryParameters(getConditionsTool.config.inputSchema),
        schema: "Conditions",
        statuses: OPERATION_STATUSES.conditions,
      }),
      "/api/v1/spots": operation({
        id: "listSpots",
        tag: "facts",
        summary: "Directory of covered spots",
        description: "Metadata only. Filter by region or a name substring, or sort by distance from a point (each spot then carries distance_km).",
        params: queryParameters(SpotsQuerySchema),
        schema: "SpotList",
        statuses: OPERATION_STATUSES.spots,
      }),
      "/api/v1/coverage": operation({
        id: "getCoverage",
        tag: "facts",
        summary: "Covered regions and spots, and how each activity is modelled",
        description: listCoverageTool.config.description,
        params: queryParameters(listCoverageTool.config.inputSchema),
        schema: "Coverage",
        statuses: OPERATION_STATUSES.coverage,
      }),
      "/api/v1/recommendations": operation({
        id: "getRecommendations",
        tag: "decisions",
        summary: "Ranked spot picks for an activity in one area on one day",
        description: recommendSpotTool.config.description,
        params: queryParameters(recommendSpotTool.config.inputSchema),
        schema: "Recommendation",
        statuses: OPERATION_STATUSES.recommendations,
      }),
      "/api/v1/best-day": operation({
        id: "getBestDay",
        tag: "decisions",
        summary: "The best day in a window for an activity at a destination",
        description: bestDayTool.config.description,
        params: queryParameters(bestDayTool.config.inputSchema),
        schema: "BestDay",
        statuses: OPERATION_STATUSES["best-day"],
      }),
    },
    components: { schemas: componentSchemas() },
  };
  cached = { base, doc };
  return doc;
}
