// The MCP server: the four tools of tools/, the MCP Apps card view, and the per-request factory
// createMcpHandler calls. Everything heavy (schemas as JSON, the view's HTML) is prepared once here;
// the factory itself only registers what was prepared.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EXTENSION_ID, RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import { McpServer, type CallToolResult, type McpRequestContext } from "@modelcontextprotocol/server";
import { tool as bestDay } from "../answers/best-day.js";
import { tool as getConditions } from "../answers/get-conditions.js";
import { tool as listCoverage } from "../answers/list-coverage.js";
import { tool as recommendSpot } from "../answers/recommend-spot.js";
import { SERVICE_NAME, SERVICE_VERSION } from "../base/attribution.js";
import type { ServiceContext } from "../services/context.js";
import { isServiceError } from "../base/errors.js";
import { asServiceError } from "../web/failures.js";
import { AnswerCache, canonicalArgs, type CachedAnswer } from "../services/answer-cache.js";
import { LOCAL_CALLER, type Caller } from "../services/metering/caller.js";
import { codeOfParameter, requireScalarArguments, type Raw } from "../catalog/params.js";
import { SEASONAL_NORM_LABEL } from "../model/norms.js";
import { NO_DATA_COLOR, TIERS as TIER_TABLE } from "../model/tiers.js";
import { PACKAGE } from "../base/package-info.js";
import { PROJECT_ROOT } from "../base/paths.js";
import type { ToolErrorJson } from "../schemas/tool-error.js";
import { MCP_PROTOCOL_VERSIONS } from "./versions.js";
import { carried, STATELESS_CAPABILITIES } from "./sdk-fence.js";
import { advertisedInput, advertisedOutput, checkArguments, prepareSchemas, type ToolDefinition } from "../answers/tool.js";

/** Registry name; the server card and server.json use the same. */
export const SERVER_NAME = PACKAGE.mcpName;
export const SERVER_INFO = { name: SERVER_NAME, title: SERVICE_NAME, version: SERVICE_VERSION };
export const CARD_VIEW_URI = "ui://ocean-conditions/card.html";

// Each tool module is typed by its own result; the registry handles them uniformly.
const erase = <T>(t: ToolDefinition<T>) => t as unknown as ToolDefinition;
export const TOOLS: readonly ToolDefinition[] = [erase(getConditions), erase(listCoverage), erase(recommendSpot), erase(bestDay)];

export const INSTRUCTIONS =
  "Ocean Conditions forecasts underwater visibility, swell, wind, tide and water temperature at named dive and snorkel spots " +
  "for the next 7 days (spot-local dates, 3-hour periods) and ranks spots and days per activity. Start with list_coverage to " +
  "find spot and region ids; use recommend_spot for 'where should I go', best_day for 'which day', get_conditions for the facts " +
  "at one spot. Results are estimates, not safety guarantees: relay the caveats and the disclaimer, and show the data credits.";

/** Loaded once: the self-contained card view, with the tier colours filled in from the tier table. */
export function loadCardView(file = join(PROJECT_ROOT, "ui", "card.html")): string {
  const html = readFileSync(file, "utf8");
  const seasonal = '/*SEASONAL_NORM_LABEL*/"seasonal norm"';
  if (!html.includes("/*TIERS*/[]") || !html.includes('/*NO_DATA_COLOR*/"#8A94A6"') || !html.includes(seasonal)) throw new Error(`${file}: tier placeholders missing`);
  return html.replace("/*TIERS*/[]", JSON.stringify(TIERS_FOR_VIEW)).replace('/*NO_DATA_COLOR*/"#8A94A6"', JSON.stringify(NO_DATA_COLOR)).replace(seasonal, JSON.stringify(SEASONAL_NORM_LABEL));
}

const TIERS_FOR_VIEW = TIER_TABLE.map(({ id, label, color }) => ({ id, label, color }));

export function toolErrorResult(e: unknown, ctx: ServiceContext, toolName: string): CallToolResult {
  const { error, unexpected } = asServiceError(e);
  if (unexpected) ctx.log.error({ err: e, tool: toolName }, "tool failed");
  const structured: ToolErrorJson = {
    source: ctx.source,
    error: {
      code: error.code,
      message: error.detail,
      status: error.status,
      ...(error.retryAfterS === undefined ? {} : { retry_after_s: Math.max(1, Math.ceil(error.retryAfterS)) }),
      ...(error.upgradeUrl === undefined ? {} : { upgrade_url: error.upgradeUrl }),
    },
  };
  return { isError: true, content: [{ type: "text", text: `Error ${error.code}: ${error.detail}` }], structuredContent: structured };
}

/**
 * What /mcp knows about one request, handed to the server factory through the SDK's authInfo (sdk-fence.ts, J): the
 * caller (for metering), a result the route already ran the tool for (so a call is never
 * admitted twice), and, after the call, the cached answer it was served from.
 */
export interface CallRecord {
  caller: Caller;
  answered?: CachedAnswer<unknown>;
  /** RateLimit-Policy / RateLimit headers of the call's admission (or refusal), for the HTTP answer. */
  rateLimit?: Record<string, string>;
  /** An argument name the request carried that an object treats specially (`__proto__`, …): refused. */
  forbiddenArgument?: string;
  /** The tool's result: run by /mcp before the SDK (replay.ts), which is then handed it, or by the SDK's call. */
  ran?: { tool: string; result: CallToolResult };
}

/**
 * What one exact set of arguments was found to be, kept by /mcp for a call it sees again (replay.ts,
 * per call shape): checked, and its canonical form with the answer key. The arguments object it
 * belongs to is frozen, so each fact holds for every later call with it.
 */
export interface ArgumentMemo {
  checked?: true;
  canonical?: Record<string, unknown>;
  key?: string;
}

/** Runs a tool for a caller: admitted like its REST twin (keys, rate limits, allotment refunded on failure). */
export async function callTool(t: ToolDefinition, args: unknown, ctx: ServiceContext, record: CallRecord, memo: ArgumentMemo = {}): Promise<CallToolResult> {
  try {
    const input = (args ?? {}) as Record<string, unknown>;
    if (!memo.checked) {
      checkArguments(t.name, t.config.inputSchema, input, t.argumentCode ?? codeOfParameter, record.forbiddenArgument ? [record.forbiddenArgument] : []);
      requireScalarArguments(input);
      memo.checked = true;
    }
    // As over REST (http/api.ts): admission and a valid answer decided in this turn when nothing needs waiting for.
    const admission = ctx.meter.admitAtOnce(t.operation, record.caller) ?? (await ctx.meter.admit(t.operation, input as Record<string, Raw>, record.caller));
    record.rateLimit = admission.headers;
    // The same cached answer the REST twin serves; its Markdown is rendered once.
    let answer;
    try {
      memo.canonical ??= canonicalArgs(input);
      memo.key ??= AnswerCache.key(t.operation, memo.canonical);
      answer = ctx.answers.current(memo.key) ?? (await ctx.answers.getCanonical(t.operation, memo.canonical, memo.key, (a) => t.run(a, ctx)));
      answer.markdown ??= t.markdown(answer.value, ctx);
    } catch (e) {
      await admission.refund();
      throw e;
    }
    record.answered = answer;
    return { content: [{ type: "text", text: answer.markdown }], structuredContent: answer.value as Record<string, unknown> };
  } catch (e) {
    if (isServiceError(e) && e.headers.RateLimit) record.rateLimit = e.headers;
    return toolErrorResult(e, ctx, t.name);
  }
}

/** The record /mcp made for the request (see http.ts); the stdio entry has none: a local caller. */
export function callRecordOf(reqCtx: McpRequestContext | undefined): CallRecord {
  const recorded = carried(reqCtx, "call") as CallRecord | undefined;
  if (recorded) return recorded;
  // An HTTP request always passes through http.ts; only stdio arrives without a request.
  return { caller: reqCtx?.requestInfo ? { ...LOCAL_CALLER, id: "ip:unknown", local: false } : LOCAL_CALLER };
}

/** Converts the tools' schemas for tools/list, one tool per turn of the event loop (about 25 ms each). */
export async function prepareToolSchemas(): Promise<void> {
  for (const t of TOOLS) {
    prepareSchemas(t);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Returns the factory createMcpHandler (and the stdio entry) call for each request or connection. */
export function createMcpServerFactory(ctx: ServiceContext, cardViewHtml = loadCardView()): (reqCtx?: McpRequestContext) => McpServer {
  const prepared = TOOLS.map((t) => ({
    t,
    config: {
      title: t.config.title,
      description: t.config.description,
      inputSchema: advertisedInput(t.config.inputSchema),
      outputSchema: advertisedOutput(t.config.outputSchema),
      annotations: { title: t.config.title, ...t.annotations },
    },
  }));
  const hour = { ttlMs: 3_600_000, cacheScope: "public" as const };
  return (reqCtx) => {
    const record = callRecordOf(reqCtx);
    const server = new McpServer(SERVER_INFO, {
      instructions: INSTRUCTIONS,
      // The only versions negotiated: `initialize` asking for any other gets the newest 2025-era one.
      supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
      capabilities: { ...STATELESS_CAPABILITIES, extensions: { [EXTENSION_ID]: {} } },
      cacheHints: { "tools/list": hour, "server/discover": hour, "resources/list": hour, "resources/read": hour },
    });
    for (const { t, config } of prepared) {
      // A result the route already ran the tool for is handed over; otherwise the tool runs here,
      // and the route learns the SDK's envelope from the response around its result.
      const cb = async (args: unknown) => {
        if (record.ran?.tool === t.name) return record.ran.result;
        const result = await callTool(t, args, ctx, record);
        record.ran = { tool: t.name, result };
        return result;
      };
      if (t.appView) registerAppTool(server, t.name, { ...config, _meta: { ui: { resourceUri: CARD_VIEW_URI } } }, cb);
      else server.registerTool(t.name, config, cb);
    }
    registerAppResource(
      server,
      `${SERVICE_NAME} card`,
      CARD_VIEW_URI,
      { description: "Spot cards for recommend_spot, best_day and get_conditions results: tier colour, score, window, metrics, caveats, credits." },
      async () => ({ contents: [{ uri: CARD_VIEW_URI, mimeType: RESOURCE_MIME_TYPE, text: cardViewHtml, _meta: { ui: { prefersBorder: true } } }] }),
    );
    return server;
  };
}
