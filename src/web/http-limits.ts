// The HTTP server's limits: request sizes, slow clients, keep-alive and pipelining. The spec's own
// limits (days, spots, radius) are in src/base/limits.ts.

/** Longest query string accepted by the REST API, in bytes. */
export const MAX_QUERY_BYTES = 2048;
/** Largest JSON-RPC body accepted on POST /mcp, in bytes (tool arguments are small). */
export const MCP_MAX_BODY_BYTES = 65_536;
/** Deepest nesting of arrays/objects accepted in a POST /mcp body (tool calls need about 5). */
export const MCP_MAX_JSON_DEPTH = 64;
/**
 * Slow clients (src/http/server-hooks.ts). The request head must arrive within 10 s and the whole
 * request within 30 s (bodies are at most MCP_MAX_BODY_BYTES); Node checks both every second.
 * Idle keep-alive connections stay open 65 s: longer than the 60 s idle timeout of common load
 * balancers and proxies, so a proxy never reuses a connection this server has just closed.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
export const CONNECTIONS_CHECK_INTERVAL_MS = 1_000;
/**
 * Pipelining (src/http/server-hooks.ts): Node runs every pipelined request as soon as it is read and
 * queues its response behind the earlier ones, so a client that writes many and reads none would
 * hold the loop and memory. A connection with more than this many requests unanswered, or more than
 * MAX_UNREAD_RESPONSE_BYTES of answers its client has not read, is closed.
 */
export const MAX_PIPELINED_REQUESTS = 16;
export const MAX_UNREAD_RESPONSE_BYTES = 1024 * 1024;
