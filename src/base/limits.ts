// Limits from the spec (section 8) and the forecast shape. Imported everywhere they apply,
// including tests and the OpenAPI document; never restated as literals elsewhere.

/** Days per request (conditions, best-day) and the forecast horizon: today through today + 6. */
export const MAX_RANGE_DAYS = 7;
export const HORIZON_DAYS = 7;
/** Forecast periods are 3-hour blocks aligned to spot-local midnight. */
export const PERIOD_HOURS = 3;
/** lat/lon snaps to the nearest covered spot within this distance (conditions). */
export const SNAP_DISTANCE_KM = 30;
/** Spot id pattern. */
export const SPOT_ID_PATTERN = /^[a-z0-9-]{1,64}$/;
/** Decisions. */
export const MAX_SPOTS_CONSIDERED = 20;
export const MAX_PICKS = 5;
export const DEFAULT_LIMIT = 3;
export const DEFAULT_RADIUS_KM = 40;
export const MAX_RADIUS_KM = 100;
/** Daylight periods are the ones starting between these spot-local hours (inclusive). */
export const DAYLIGHT_FIRST_START_HOUR = 6;
export const DAYLIGHT_LAST_START_HOUR = 17;
/** Data refresh cadence. */
export const REFRESH_MS = 3_600_000;
/** Longest query string accepted by the REST API, in bytes. */
export const MAX_QUERY_BYTES = 2048;
/** Largest JSON-RPC body accepted on POST /mcp, in bytes (tool arguments are small). */
export const MCP_MAX_BODY_BYTES = 65_536;
/** Deepest nesting of arrays/objects accepted in a POST /mcp body (tool calls need about 5). */
export const MCP_MAX_JSON_DEPTH = 64;
/** Share images kept in memory (PNG bytes); at ~70 KB each this holds some 340 cards, the popular ones protected from scans. */
export const CARD_CACHE_MAX_BYTES = 24 * 1024 * 1024;
/** Share image size (Open Graph's recommended 1.91:1). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
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
/**
 * Open-Meteo's free tier, per client IP: requests running at once, and weighted calls per UTC
 * minute, hour and day (open-meteo RateLimiter.swift; open-meteo#1493, #1295).
 */
export const OPEN_METEO_FREE_TIER = { concurrency: 1, perMinute: 600, perHour: 5_000, perDay: 10_000 } as const;
