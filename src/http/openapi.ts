// GET /openapi.json: the OpenAPI 3.1 document, generated from the zod schemas the service already
// uses (response schemas, the tools' input schemas for query and path parameters, the MCP SDK's
// JSON-RPC schemas) and the error-code table. Each problem code gets a component with a JSON Schema
// $anchor, so the `type` URI of a problem, `<base>/openapi.json#problem-<code>`, resolves to the
// schema that describes it. Besides the REST API it describes every other route a client may call:
// share image and pages, POST /mcp, the discovery documents, the docs page and the health checks.
import { JSONRPCErrorResponseSchema, JSONRPCMessageSchema, JSONRPCResponseSchema } from "@modelcontextprotocol/core";
import { z } from "zod";
import { tool as bestDayTool } from "../answers/best-day.js";
import { config as getConditionsConfig, tool as getConditionsTool } from "../answers/get-conditions.js";
import { ERRORS as LIST_COVERAGE_ERRORS, tool as listCoverageTool } from "../answers/list-coverage.js";
import { config as recommendSpotConfig, tool as recommendSpotTool } from "../answers/recommend-spot.js";
import { DISCLAIMER, SERVICE_NAME } from "../base/attribution.js";
import type { Config } from "../base/config.js";
import { ERROR_CODES, type ErrorCode } from "../base/errors.js";
import { SpotsQuerySchema } from "../answers/spots.js";
import { MAX_QUERY_BYTES, MCP_MAX_BODY_BYTES } from "../web/http-limits.js";
import { CARD_HEIGHT, CARD_WIDTH } from "../services/render/card-size.js";
import { advertisedProtocolVersions, DISCOVERY } from "../mcp/discovery.js";
import { CARD_IMAGE_PATH, SHARE_ROUTE_ERRORS } from "./page-routes.js";
import { MCP_PATH } from "../mcp/http.js";
import { portableJsonSchema } from "../schemas/portable.js";
import { TOOLS } from "../mcp/server.js";
import "../schemas/catalog.js";
import "../schemas/conditions.js";
import "../schemas/decisions.js";
import "../schemas/health.js";
import "../schemas/tool-error.js";
import { VALIDATION_PATH } from "../services/validation/report.js";
import "../services/validation/schema.js";

type Json = Record<string, unknown>;

/** HTTP statuses per operation (spec section 7 for the REST API), besides 200. */
export const OPERATION_STATUSES = {
  conditions: [400, 404, 422, 429, 503],
  spots: [400, 429],
  // The spec lists no error for coverage: no filter value is refused (a repeated `region` lists each
  // region), and the listing counts toward no cap (src/services/metering/meter.ts).
  coverage: [],
  recommendations: [400, 401, 402, 404, 422, 429, 503],
  "best-day": [400, 401, 402, 404, 422, 429, 503],
} as const;

const statusesOf = (codes: readonly ErrorCode[]) => [...new Set(codes.map((c) => ERROR_CODES[c].status))].sort((a, b) => a - b);

/** Statuses of POST /mcp besides 200, and what each means; the bodies are JSON-RPC errors. */
const MCP_STATUSES: Record<number, string> = {
  202: "Accepted: the message was a notification or a response; no body",
  400: "Malformed JSON (-32700), not a JSON-RPC message (-32600), headers disagreeing with the body (-32020) or an unsupported protocol version (-32022)",
  403: "An Origin or Host header that is not this service's (DNS-rebinding guard)",
  404: "Unknown JSON-RPC method (-32601)",
  405: "Any method but POST: there is no server-push stream and no session to delete",
  413: `Request body over ${MCP_MAX_BODY_BYTES} bytes`,
  415: "Content-Type is not application/json",
};

const codesFor = (status: number) => (Object.keys(ERROR_CODES) as ErrorCode[]).filter((c) => ERROR_CODES[c].status === status);

const toJson = (schema: z.ZodType, io: "input" | "output" = "output"): Json => {
  // A component is not a document of its own: drop the $schema zod adds.
  const { $schema: _s, ...rest } = portableJsonSchema(z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Json);
  return rest;
};

function componentSchemas(): Record<string, Json> {
  const { schemas } = portableJsonSchema(z.toJSONSchema(z.globalRegistry, { target: "draft-2020-12", uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Json> });
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
  // JSON-RPC envelopes from the MCP SDK's own schemas. Transport-level refusals (400/403/405/413/415)
  // cannot name a request, so their error responses carry `id: null`, which JSON-RPC 2.0 allows.
  const errorResponse = toJson(JSONRPCErrorResponseSchema) as { properties: Record<string, Json> };
  out.JsonRpcMessage = { description: "A JSON-RPC 2.0 request, notification or response (MCP)", ...toJson(JSONRPCMessageSchema) };
  out.JsonRpcResponse = { description: "A JSON-RPC 2.0 result or error response (MCP)", ...toJson(JSONRPCResponseSchema) };
  out.JsonRpcTransportError = {
    ...errorResponse,
    description: "A JSON-RPC 2.0 error response; `id` is null when the request could not be read",
    properties: { ...errorResponse.properties, id: { anyOf: [errorResponse.properties.id, { type: "null" }] } },
  };
  return out;
}

/** One parameter per property of a zod object schema (query: optional unless required; path: always required). */
function parameters(schema: z.ZodObject, where: "query" | "path" = "query"): Json[] {
  const json = portableJsonSchema(z.toJSONSchema(schema, { target: "draft-2020-12", io: "input" }) as { properties?: Record<string, Json>; required?: string[] });
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return { name, in: where, required: where === "path" || (json.required ?? []).includes(name), description, schema: rest };
  });
}

const ref = (kind: "schemas" | "headers", id: string) => ({ $ref: `#/components/${kind}/${id}` });

/** Response headers clients rely on; referenced from the responses that carry them. */
const HEADERS: Record<string, Json> = {
  Link: { description: "Links to the developer docs (rel=service-doc) and this document (rel=service-desc). On every response.", schema: { type: "string" } },
  "X-Request-Id": {
    description: "This request's id, as logged; quote it when reporting a problem. A client's own X-Request-Id (1-64 of A-Z a-z 0-9 . _ -) is kept.",
    schema: { type: "string" },
  },
  "WWW-Authenticate": { description: 'The scheme a key is expected in: `Bearer realm="ocean-conditions"`.', schema: { type: "string" } },
  ETag: { description: "Strong validator of the representation; send it back in If-None-Match to get 304 Not Modified.", schema: { type: "string" } },
  "Cache-Control": {
    description:
      "How long the response may be reused. Forecast-derived answers: `max-age=N` with N the seconds until the hourly refresh, `public` (`private` for the REST API when AUTH_MODE=metered, so a shared cache never hands a keyed answer to an unadmitted caller); error pages `no-store`.",
    schema: { type: "string" },
  },
  "Retry-After": { description: "Seconds to wait before retrying (integer).", schema: { type: "integer", minimum: 1 } },
  "RateLimit-Policy": {
    description:
      'The caller\'s quota policies (IETF draft-ietf-httpapi-ratelimit-headers, Structured Fields): one item per policy with its quota `q` and window `w` in seconds, e.g. `"facts-hour";q=300;w=3600, "facts-day";q=2000;w=86400`.',
    schema: { type: "string" },
  },
  RateLimit: {
    description: 'What is left of each policy: remaining requests `r` and seconds until the window resets `t`, e.g. `"facts-hour";r=298;t=3540`.',
    schema: { type: "string" },
  },
};

/** Response headers by name; every response carries Link and X-Request-Id. */
const headerRefs = (...names: string[]) => Object.fromEntries(["Link", "X-Request-Id", ...names.filter((n) => n !== "Link")].map((n) => [n, ref("headers", n)]));

/** Problem responses per status: every code of that status, or only those in `only`. */
function problemResponses(statuses: readonly number[], rateLimited: boolean, only?: readonly ErrorCode[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const status of statuses) {
    const codes = codesFor(status).filter((c) => !only || only.includes(c));
    const extra = status === 429 ? (rateLimited ? ["Retry-After", "RateLimit-Policy", "RateLimit"] : ["Retry-After"]) : status === 503 ? ["Retry-After"] : status === 401 ? ["WWW-Authenticate"] : [];
    out[String(status)] = {
      description: `Problem: ${codes.map((c) => `\`${c}\``).join(", ")}`,
      headers: headerRefs("Link", ...extra),
      content: { "application/problem+json": { schema: { oneOf: codes.map((c) => ref("schemas", `problem-${c}`)) } } },
    };
  }
  return out;
}

/** Keys go in either header, never in the URL (spec section 5). `{}` first: calling without one is valid. */
const OPTIONAL_KEY = [{}, { ServiceKey: [] }, { BearerKey: [] }];
/** AUTH_MODE=metered: decisions need a key. */
const REQUIRED_KEY = [{ ServiceKey: [] }, { BearerKey: [] }];

export type AuthMode = Config["auth"]["mode"];

function restOperation(o: {
  id: string;
  summary: string;
  description: string;
  params: Json[];
  schema: string;
  statuses: readonly number[];
  tag: string;
  only?: readonly ErrorCode[];
  security?: Json[];
}): Json {
  const rateLimited = o.statuses.includes(429);
  return getOperation(o, o.tag, {
    parameters: o.params,
    security: o.security ?? OPTIONAL_KEY,
    responses: {
      "200": {
        description: "Success",
        headers: headerRefs("ETag", "Cache-Control", ...(rateLimited ? ["RateLimit-Policy", "RateLimit"] : [])),
        content: { "application/json": { schema: ref("schemas", o.schema) } },
      },
      "304": {
        description: "Not modified: If-None-Match named the answer's ETag (the answer changes at most hourly)",
        headers: headerRefs("ETag", "Cache-Control", ...(rateLimited ? ["RateLimit-Policy", "RateLimit"] : [])),
      },
      ...problemResponses(o.statuses, rateLimited, o.only),
    },
  });
}

const HTML = { "text/html": { schema: { type: "string" } } };

/** An HTML page: errors are HTML pages carrying the problem's status, not problem+json. */
function pageOperation(o: { id: string; summary: string; description: string; params: Json[]; codes: readonly ErrorCode[] }): Json {
  const errors = Object.fromEntries(
    statusesOf(o.codes).map((s) => [
      String(s),
      {
        description: `HTML error page for ${o.codes
          .filter((c) => ERROR_CODES[c].status === s)
          .map((c) => `\`${c}\``)
          .join(", ")}`,
        headers: headerRefs("Link", "Cache-Control", ...(s === 503 ? ["Retry-After"] : [])),
        content: HTML,
      },
    ]),
  );
  return getOperation(o, "share", {
    parameters: o.params,
    responses: { "200": { description: "The page", headers: headerRefs("Link", "Cache-Control"), content: HTML }, ...errors },
  });
}

/** A plain GET with one success body. */
function simpleGet(o: { id: string; summary: string; description: string; tag: string; content: Json; headers?: string[]; extra?: Record<string, Json> }): Json {
  return getOperation(o, o.tag, {
    responses: { "200": { description: "Success", headers: headerRefs("Link", ...(o.headers ?? [])), content: o.content }, ...o.extra },
  });
}

/**
 * A GET operation: its id, summary, description and tag, then the rest of its fields. Pages,
 * discovery documents and health checks take no key: `security: []` says so explicitly (an
 * operation without `security` is ambiguous to linters and generated clients).
 */
function getOperation(o: { id: string; summary: string; description: string }, tag: string, rest: Json): Json {
  return { get: { operationId: o.id, summary: o.summary, description: o.description, tags: [tag], security: [], ...rest } };
}

// Path and query parameters of the share routes come from the tools' input schemas: a spot id as in
// get_conditions, a date and an activity as in recommend_spot.
const required = <T extends z.ZodType>(o: z.ZodOptional<T>) => o.unwrap().describe(o.description ?? "");
const spotParam = z.object({ spot: required(getConditionsConfig.inputSchema.shape.spot) });
const regionParam = z.object({ region: required(recommendSpotConfig.inputSchema.shape.region) });
const spotDateParams = spotParam.extend({ date: required(recommendSpotConfig.inputSchema.shape.date) });
const cardQuery = z.object({
  activity: recommendSpotConfig.inputSchema.shape.activity.optional().describe("Judge the day for this activity; without it the card shows general conditions"),
});
const forecastPageQuery = z.object({
  date: recommendSpotConfig.inputSchema.shape.date.describe("Day to outline; an invalid value is ignored"),
  activity: recommendSpotConfig.inputSchema.shape.activity.optional().describe("Pick each day's window with this activity's tie-breaks; an invalid value is ignored"),
});

function mcpOperation(base: string): Json {
  const versions = advertisedProtocolVersions();
  const errors = Object.fromEntries(
    Object.entries(MCP_STATUSES).map(([status, description]) => [
      status,
      status === "202"
        ? { description, headers: headerRefs("Link") }
        : { description, headers: headerRefs("Link"), content: { "application/json": { schema: ref("schemas", "JsonRpcTransportError") } } },
    ]),
  );
  return {
    post: {
      operationId: "postMcp",
      summary: "MCP endpoint (Streamable HTTP, stateless)",
      description:
        `The four tools (${TOOLS.map((t) => `\`${t.name}\``).join(", ")}) over the Model Context Protocol, ` +
        `protocol versions ${versions.join(", ")} at this one URL. For ${versions[0]} a call is one POST; 2025-era clients send ` +
        "`initialize` first and are answered statelessly (no session ids). The request must accept both `application/json` and " +
        "`text/event-stream`. Tool input and output schemas are served by `tools/list`; the tools return the same objects as their REST twins. " +
        `Discovery: ${base}${DISCOVERY.serverCard.paths[0]}.`,
      tags: ["mcp"],
      security: OPTIONAL_KEY,
      parameters: [
        {
          name: "MCP-Protocol-Version",
          in: "header",
          required: false,
          description: "Protocol version; required from 2025-06-18 on, after initialize for 2025-era clients",
          schema: { type: "string", enum: versions },
        },
        {
          name: "Mcp-Method",
          in: "header",
          required: false,
          description: `The JSON-RPC method of the body (${versions[0]}; must match the body)`,
          schema: { type: "string", examples: ["tools/call", "tools/list", "server/discover"] },
        },
        {
          name: "Mcp-Name",
          in: "header",
          required: false,
          description: `The tool name on tools/call (${versions[0]}; must match params.name)`,
          schema: { type: "string", enum: TOOLS.map((t) => t.name) },
        },
      ],
      requestBody: { required: true, content: { "application/json": { schema: ref("schemas", "JsonRpcMessage") } } },
      responses: {
        "200": {
          description: "The JSON-RPC response, as JSON or as one server-sent event, whichever the client prefers",
          headers: headerRefs("Link"),
          content: {
            "application/json": { schema: ref("schemas", "JsonRpcResponse") },
            "text/event-stream": { schema: { type: "string", description: "`event: message` with the JSON-RPC response as `data`" } },
          },
        },
        ...errors,
      },
    },
  };
}

function discoveryOperation(id: string, summary: string, description: string, contentType: string): Json {
  return simpleGet({
    id,
    summary,
    description,
    tag: "discovery",
    headers: ["ETag", "Cache-Control"],
    content: { [contentType]: { schema: { type: "object" } } },
    extra: { "304": { description: "Not modified (If-None-Match matched the ETag)", headers: headerRefs("Link", "ETag", "Cache-Control") } },
  });
}

function paths(base: string, auth: AuthMode): Record<string, Json> {
  const decisionSecurity = auth === "metered" ? REQUIRED_KEY : OPTIONAL_KEY;
  const cardPaths = DISCOVERY.serverCard.paths;
  return {
    "/api/v1/conditions": restOperation({
      id: "getConditions",
      tag: "facts",
      summary: "Conditions for one spot, 3-hour periods, up to 7 days",
      description: getConditionsTool.config.description,
      params: parameters(getConditionsTool.config.inputSchema),
      schema: "Conditions",
      statuses: OPERATION_STATUSES.conditions,
    }),
    "/api/v1/spots": restOperation({
      id: "listSpots",
      tag: "facts",
      summary: "Directory of covered spots",
      description: "Metadata only. Filter by region or a name substring, or sort by distance from a point (each spot then carries distance_km).",
      params: parameters(SpotsQuerySchema),
      schema: "SpotList",
      statuses: OPERATION_STATUSES.spots,
    }),
    "/api/v1/coverage": restOperation({
      id: "getCoverage",
      tag: "facts",
      summary: "Covered regions and spots, and how each activity is modelled",
      description: listCoverageTool.config.description,
      params: parameters(listCoverageTool.config.inputSchema),
      schema: "Coverage",
      statuses: OPERATION_STATUSES.coverage,
      // Its handler's codes, and the facts caps' (src/services/metering/meter.ts; breadth_limit is conditions' only).
      only: [...LIST_COVERAGE_ERRORS, "rate_limited"],
    }),
    "/api/v1/recommendations": restOperation({
      id: "getRecommendations",
      tag: "decisions",
      summary: "Ranked spot picks for an activity in one area on one day",
      description: recommendSpotTool.config.description,
      params: parameters(recommendSpotTool.config.inputSchema),
      schema: "Recommendation",
      statuses: OPERATION_STATUSES.recommendations,
      security: decisionSecurity,
    }),
    "/api/v1/best-day": restOperation({
      id: "getBestDay",
      tag: "decisions",
      summary: "The best day in a window for an activity at a destination",
      description: bestDayTool.config.description,
      params: parameters(bestDayTool.config.inputSchema),
      schema: "BestDay",
      statuses: OPERATION_STATUSES["best-day"],
      security: decisionSecurity,
    }),
    [CARD_IMAGE_PATH]: {
      get: {
        operationId: "getCardImage",
        security: [],
        summary: `Share image of a spot card, ${CARD_WIDTH}x${CARD_HEIGHT} PNG`,
        description:
          "The image a card's `image_url` points at: the same spot, date and activity judgement as recommend_spot. " +
          "It can only change on the hourly refresh; the ETag is its content key. Errors are problem+json, never a broken image.",
        tags: ["share"],
        parameters: [...parameters(spotDateParams, "path"), ...parameters(cardQuery)],
        responses: {
          "200": { description: "The PNG", headers: headerRefs("Link", "ETag", "Cache-Control"), content: { "image/png": { schema: { type: "string", contentMediaType: "image/png" } } } },
          "304": { description: "Not modified (If-None-Match matched the ETag)", headers: headerRefs("Link", "ETag", "Cache-Control") },
          ...problemResponses(statusesOf(SHARE_ROUTE_ERRORS.cardImage), false, SHARE_ROUTE_ERRORS.cardImage),
        },
      },
    },
    "/s/{spot}/{date}": pageOperation({
      id: "getSharePage",
      summary: "Share page of a spot card (HTML with Open Graph tags)",
      description: "The page a card's `links.share` points at: the card image, headline, why, caveats, credits and disclaimer.",
      params: [...parameters(spotDateParams, "path"), ...parameters(cardQuery)],
      codes: SHARE_ROUTE_ERRORS.sharePage,
    }),
    "/spots/{spot}": pageOperation({
      id: "getForecastPage",
      summary: "7-day forecast page of a spot (HTML)",
      description: "The page `links.page` and a card's `links.forecast` point at: now, a chart of the week, a day table and every 3-hour period.",
      params: [...parameters(spotParam, "path"), ...parameters(forecastPageQuery)],
      codes: SHARE_ROUTE_ERRORS.forecastPage,
    }),
    "/regions/{region}": pageOperation({
      id: "getRegionPage",
      summary: "Region page: the best spot per activity today and tomorrow (HTML)",
      description:
        "For each modelled activity, the top recommend_spot pick today and tomorrow with its reason, the rules that keep spots out whatever the water, and every spot of the region with its ranking standing and rules, each linked to its forecast page. An unknown region is 404 not_found.",
      params: parameters(regionParam, "path"),
      codes: SHARE_ROUTE_ERRORS.regionPage,
    }),
    [MCP_PATH]: mcpOperation(base),
    ...Object.fromEntries(
      cardPaths.map((p, i) => [
        p,
        discoveryOperation(
          i === 0 ? "getServerCard" : "getServerCardAlias",
          i === 0 ? "MCP server card" : `MCP server card (same document as ${cardPaths[0]})`,
          "Names this deployment's /mcp URL and the protocol versions it speaks.",
          DISCOVERY.serverCard.contentType,
        ),
      ]),
    ),
    "/server.json": discoveryOperation("getRegistryServer", "This server in the MCP registry format (server.json)", "Rendered with this deployment's address.", DISCOVERY.registry.contentType),
    "/.well-known/ai-catalog.json": discoveryOperation("getAiCatalog", "AI catalog entry pointing at the MCP server card", "One entry whose url is the server card.", DISCOVERY.aiCatalog.contentType),
    "/openapi.json": simpleGet({
      id: "getOpenApi",
      summary: "This document",
      description: "OpenAPI 3.1, generated from the schemas the service validates with.",
      tag: "service",
      content: { "application/json": { schema: { type: "object" } } },
    }),
    "/docs": simpleGet({
      id: "getDocs",
      summary: "Developer documentation (HTML)",
      description: "This document rendered for people, with an introduction.",
      tag: "service",
      headers: ["Cache-Control"],
      content: HTML,
    }),
    [VALIDATION_PATH]: simpleGet({
      id: "getValidation",
      summary: "How good the visibility model is: each region's skill against satellite observations",
      description:
        "Every satellite Kd490 observation of a spot is paired with the model's visibility for that spot and day (from that day's swell, wind and rain, never the satellite). Per region over a rolling window: pairs, bias, median absolute error and the rank correlation of anomalies with its interval, beside the same figures for the climatology baseline. Below the minimum pair count a region says \"not enough observations yet\" and carries no figures. Metered like the facts (the hourly and daily facts limits; a 304 counts too); changes as observations arrive (7–11 days after the day they see). Built at most once a minute per instance and served with a strong ETag (If-None-Match gives 304).",
      tag: "service",
      headers: ["Cache-Control", "ETag", "RateLimit-Policy", "RateLimit"],
      content: { "application/json": { schema: ref("schemas", "Validation") } },
      extra: {
        "304": { description: "Not modified (If-None-Match matched the ETag)", headers: headerRefs("ETag", "Cache-Control", "RateLimit-Policy", "RateLimit") },
        ...problemResponses([429], true, ["rate_limited"]),
        ...problemResponses([503], false, ["unavailable"]),
      },
    }),
    "/": simpleGet({
      id: "getFrontPage",
      summary: "Front page",
      description:
        "For a browser (Accept naming text/html): what this service is, a map of the covered spots, how to connect an AI assistant and links to the docs. Otherwise a small JSON index of the same links.",
      tag: "service",
      headers: ["Cache-Control"],
      content: { ...HTML, "application/json": { schema: ref("schemas", "FrontIndex") } },
    }),
    "/api/v1/": simpleGet({
      id: "getApiIndex",
      summary: "The API's index",
      description: "Every REST operation with its summary, and the OpenAPI document's, the docs page's and the MCP endpoint's URLs.",
      tag: "service",
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["schema", "source", "endpoints", "openapi", "docs", "mcp"],
            properties: {
              schema: { const: "service.api_index.v1" },
              source: ref("schemas", "Source"),
              endpoints: {
                type: "array",
                items: {
                  type: "object",
                  required: ["method", "path", "url", "summary"],
                  properties: { method: { const: "GET" }, path: { type: "string" }, url: { type: "string", format: "uri" }, summary: { type: ["string", "null"] } },
                },
              },
              openapi: { type: "string", format: "uri" },
              docs: { type: "string", format: "uri" },
              mcp: { type: "string", format: "uri" },
            },
          },
        },
      },
    }),
    "/healthz": simpleGet({
      id: "getHealth",
      summary: "Liveness",
      description: "200 while the process answers requests.",
      tag: "service",
      content: { "application/json": { schema: ref("schemas", "Health") } },
    }),
    "/readyz": simpleGet({
      id: "getReadiness",
      summary: "Readiness",
      description:
        "200 once the catalogue and tide data are loaded (status `degraded` while Redis is down or not answering: keep the instance in rotation); 503 while starting and while draining for shutdown (take the instance out of rotation).",
      tag: "service",
      content: { "application/json": { schema: ref("schemas", "Readiness") } },
      extra: { "503": { description: "Not ready: starting, or draining for shutdown", headers: headerRefs("Retry-After"), content: { "application/json": { schema: ref("schemas", "Readiness") } } } },
    }),
  };
}

/** One line on what the API is; the docs page shows it too. */
export const API_SUMMARY = "Underwater visibility and dive/snorkel conditions at named spots, 7 days ahead, and the best spot and day per activity.";

let cached: { base: string; auth: AuthMode; doc: Json } | null = null;

/** The document for this deployment: its address, and whether decisions need a key (AUTH_MODE). */
export function openApiDocument(base: string, auth: AuthMode = "open"): Json {
  if (cached?.base === base && cached.auth === auth) return cached.doc;
  const keysNote =
    auth === "metered"
      ? "Decisions (recommendations, best-day) need a key; facts stay keyless. Never send a key in the URL."
      : "Not required today: accepted and ignored. Never send a key in the URL.";
  const doc: Json = {
    openapi: "3.1.0",
    info: {
      title: `${SERVICE_NAME} API`,
      version: "1.0.0",
      summary: API_SUMMARY,
      description:
        `${DISCLAIMER}\n\nThe same operations are available as MCP tools at ${base}/mcp.\n\n` +
        `Every response carries a \`Link\` header to the docs and this document. Query strings are limited to ${MAX_QUERY_BYTES} bytes ` +
        "(longer: 414 `uri_too_long`) and request headers to 16 KiB in total (larger: 431 `header_too_large`), on every route.",
    },
    servers: [{ url: base }],
    tags: [
      { name: "facts", description: "Conditions, spots and coverage. Free, no key." },
      {
        name: "decisions",
        description: auth === "metered" ? "Recommendations and best day. A key is required." : "Recommendations and best day. Free during early access; a key is optional now.",
      },
      { name: "share", description: "Share images and pages for spot cards." },
      { name: "mcp", description: "The Model Context Protocol endpoint: the same four operations as tools." },
      { name: "discovery", description: "Documents that let MCP hosts and registries find the endpoint." },
      { name: "service", description: "This document, the docs page and health checks." },
    ],
    paths: paths(base, auth),
    components: {
      schemas: componentSchemas(),
      headers: HEADERS,
      securitySchemes: {
        ServiceKey: {
          type: "apiKey",
          in: "header",
          name: "X-Service-Key",
          description: `API key; its prefix ends \`live_\` or \`test_\` (test keys are never billed). ${keysNote}`,
        },
        BearerKey: { type: "http", scheme: "bearer", description: `The same key as \`Authorization: Bearer <key>\`. ${keysNote}` },
      },
    },
  };
  cached = { base, auth, doc };
  return doc;
}
