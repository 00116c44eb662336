// HTTP caching rules every route shares: conditional requests, and how long a response stays right.
import { hourFloor } from "../base/clock.js";
import { REFRESH_MS } from "../base/limits.js";

/** True when an If-None-Match header names this ETag: a list of tags (weak ones compare weakly) or `*`. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * Seconds until a response built from the forecast of `builtFor` (an hour boundary; by default the
 * current hour) is replaced at the hourly refresh; at least one.
 */
export function secondsUntilRefresh(now: Date, builtFor: Date = hourFloor(now)): number {
  return Math.max(1, Math.ceil((builtFor.getTime() + REFRESH_MS - now.getTime()) / 1000));
}
