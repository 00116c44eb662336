// RFC 9457 problem bodies for ServiceErrors: type URI into the OpenAPI document, stable code, source.
import type { ServerResponse } from "node:http";
import type { Source } from "../base/attribution.js";
import { ServiceError } from "../base/errors.js";

export function problemType(baseUrl: string, code: string): string {
  return `${baseUrl}/openapi.json#problem-${code}`;
}

export function problemBody(err: ServiceError, baseUrl: string, source: Source): Record<string, unknown> {
  return {
    type: problemType(baseUrl, err.code),
    title: err.title,
    status: err.status,
    detail: err.detail,
    code: err.code,
    ...(err.upgradeUrl ? { upgrade_url: err.upgradeUrl } : {}),
    ...(err.extra ?? {}),
    source,
  };
}

export function sendProblem(res: ServerResponse, err: ServiceError, baseUrl: string, source: Source): void {
  for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
  if (err.retryAfterS !== undefined) res.setHeader("Retry-After", String(Math.max(1, Math.ceil(err.retryAfterS))));
  const body = Buffer.from(JSON.stringify(problemBody(err, baseUrl, source)));
  res.statusCode = err.status;
  res.setHeader("Content-Type", "application/problem+json; charset=utf-8");
  res.setHeader("Content-Length", body.length);
  res.end(body);
}
