// POST /mcp: the Streamable HTTP endpoint (stateless; 2026-07-28 per-request calls and the 2025
// initialize-then-call eras at one URL), guarded against DNS rebinding by Host and Origin checks.
// No body parser runs before the SDK, so malformed JSON is its -32700, not an HTML page.
import { originValidation, hostHeaderValidation } from "@modelcontextprotocol/express";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import type { Express } from "express";
import type { ServiceContext } from "../context.js";
import { callerOf } from "../http/request-state.js";
import { MCP_MAX_BODY_BYTES } from "../limits.js";
import { createMcpServerFactory } from "./server.js";

export function mountMcp(app: Express, ctx: ServiceContext) {
  const onerror = (err: Error) => ctx.log.debug({ err: err.message }, "mcp request rejected");
  const handler = createMcpHandler(createMcpServerFactory(ctx), { onerror, maxRequestBodySize: MCP_MAX_BODY_BYTES });
  const node = toNodeHandler(handler, { onerror: (err) => ctx.log.error({ err }, "mcp adapter error"), maxRequestBodySize: MCP_MAX_BODY_BYTES });
  app.post("/mcp", hostHeaderValidation(ctx.config.mcpAllowedHosts), originValidation(ctx.config.mcpAllowedOrigins), (req, res) => {
    // The SDK hands `req.auth` to the server factory as authInfo: carry the caller through it so
    // tool calls are metered like their REST twins. No token: keys stay out of the SDK's hands.
    (req as typeof req & { auth?: unknown }).auth = { token: "", clientId: "", scopes: [], extra: { caller: callerOf(ctx, req, res) } };
    void node(req, res);
  });
  // No server-push stream and no sessions: every other method is 405 (spec: GET returns 405).
  app.all("/mcp", (_req, res) => {
    res.setHeader("Allow", "POST");
    res.status(405).json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: use POST." }, id: null });
  });
  return handler;
}
