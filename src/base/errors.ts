// The one error type of the domain and the table of stable codes (spec section 7). REST maps a
// ServiceError to an RFC 9457 problem; MCP maps it to a tool error with structuredContent.error.code.

export const ERROR_CODES = {
  missing_location: { status: 400, title: "missing location" },
  ambiguous_location: { status: 400, title: "ambiguous location" },
  invalid_coordinates: { status: 400, title: "invalid coordinates" },
  invalid_date: { status: 400, title: "invalid date" },
  invalid_range: { status: 400, title: "invalid range" },
  range_too_long: { status: 400, title: "range too long" },
  missing_activity: { status: 400, title: "missing activity" },
  unknown_activity: { status: 400, title: "unknown activity" },
  invalid_limit: { status: 400, title: "invalid limit" },
  invalid_radius: { status: 400, title: "invalid radius" },
  one_spot_per_request: { status: 400, title: "one spot per request" },
  // Not an operation code: route-level refusals (an unreadable request or address) and, for MCP
  // tools, arguments the tool does not take or of the wrong JSON type. Operation parameters
  // always get their own code from the spec's table (see PARAMETER_CODES in params.ts).
  invalid_parameter: { status: 400, title: "invalid parameter" },
  invalid_key: { status: 401, title: "invalid key" },
  key_revoked: { status: 401, title: "key revoked" },
  key_required: { status: 401, title: "key required" },
  free_allotment_exhausted: { status: 402, title: "free allotment exhausted" },
  unknown_spot: { status: 404, title: "unknown spot" },
  no_spot_nearby: { status: 404, title: "no spot nearby" },
  not_found: { status: 404, title: "not found" },
  method_not_allowed: { status: 405, title: "method not allowed" },
  request_too_large: { status: 413, title: "request too large" },
  uri_too_long: { status: 414, title: "uri too long" },
  outside_horizon: { status: 422, title: "outside horizon" },
  rate_limited: { status: 429, title: "rate limited" },
  breadth_limit: { status: 429, title: "breadth limit" },
  header_too_large: { status: 431, title: "request header fields too large" },
  data_unavailable: { status: 503, title: "data unavailable" },
  unavailable: { status: 503, title: "unavailable" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

export interface ServiceErrorOptions {
  /** Seconds the caller should wait before retrying (429, 503). */
  retryAfterS?: number;
  /** Where to upgrade when a plan limit is hit (402). */
  upgradeUrl?: string;
  /** Extra members for the problem body. */
  extra?: Record<string, unknown>;
  /** Response headers to send with the problem (rate-limit state, WWW-Authenticate). */
  headers?: Record<string, string>;
}

export class ServiceError extends Error {
  override name = "ServiceError";
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly retryAfterS: number | undefined;
  readonly upgradeUrl: string | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: ServiceErrorOptions = {}) {
    super(detail);
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.title = ERROR_CODES[code].title;
    this.detail = detail;
    this.retryAfterS = options.retryAfterS;
    this.upgradeUrl = options.upgradeUrl;
    this.extra = options.extra;
    this.headers = options.headers ?? {};
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}
