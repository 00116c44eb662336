// Calling an upstream: through its scheduler lane (concurrency, priority, quotas), Node's fetch
// with a timeout on every call, the upstream's circuit breaker, a cap on body size, and one error
// type that says what went wrong. A 429 is the upstream pacing us, not failing: a "too many
// concurrent requests" waits and retries (bounded), a spent quota pauses the lane until the window
// resets; neither counts against the breaker.
import type { Logger } from "pino";
import type { Clock } from "../base/clock.js";
import type { CircuitBreaker } from "./breaker.js";
import { callerTicket, windowReset, type QuotaWindowId, type Ticket, type UpstreamLane } from "./scheduler.js";
import { SourceUnavailableError } from "./types.js";

export type UpstreamFailure =
  | "circuit_open" // we did not call: the breaker is open
  | "timeout"
  | "network"
  | "http" // non-2xx status
  | "rate_limited" // 429
  | "too_large"
  | "malformed" // body is not JSON
  | "shape" // JSON, but not the documented format
  | "data"; // well-formed answer that says "no data here" (e.g. CO-OPS `error` key): upstream is healthy

/** How a failure is told to a caller (the upstream's own message goes only to the log). */
const FAILURE_WORDS: Record<UpstreamFailure, string> = {
  circuit_open: "paused after repeated failures",
  timeout: "did not answer in time",
  network: "unreachable",
  http: "answered with HTTP status",
  rate_limited: "request quota spent until its window resets",
  too_large: "answer too large to read",
  malformed: "answer was not JSON",
  shape: "answer was not in its documented format",
  data: "has no data for this place",
};

export class UpstreamError extends SourceUnavailableError {
  override name = "UpstreamError";
  constructor(
    readonly upstream: string,
    readonly kind: UpstreamFailure,
    message: string,
    retryAfterS: number,
    /** HTTP status, when the upstream answered with an error status. */
    readonly status: number | null = null,
  ) {
    super(`${upstream}: ${message}`, retryAfterS);
  }

  override get summary(): string {
    return `${this.upstream}: ${FAILURE_WORDS[this.kind]}${this.kind === "http" && this.status !== null ? ` ${this.status}` : ""}`;
  }

  /** A failure of the upstream itself (down, slow, overloaded, garbled), not of one query. */
  get serverSide(): boolean {
    return this.kind !== "data" && this.kind !== "shape" && !(this.kind === "http" && this.status !== null && this.status < 500);
  }
}

/** Thrown by a parser for a body that is not in the upstream's documented format. */
export class ShapeError extends Error {
  override name = "ShapeError";
}

/** Thrown by a parser for a well-formed "no data" answer; does not count against the breaker. */
export class NoDataError extends Error {
  override name = "NoDataError";
}

export interface UpstreamClientOptions {
  breaker: CircuitBreaker;
  /** The upstream's scheduler lane (shared by clients of one upstream, e.g. both Open-Meteo APIs). */
  lane: UpstreamLane;
  timeoutMs: number;
  clock: Clock;
  log: Logger;
  userAgent: string;
  /** Largest body accepted; a bigger one is a failure, not a memory problem. */
  maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Retries after "too many concurrent requests", and the pause before the first (doubling). */
export const CONCURRENCY_RETRIES = 3;
export const CONCURRENCY_RETRY_MS = 250;
/** Pause after a 429 that names no window and sends no Retry-After. */
const UNNAMED_429_PAUSE_MS = 60_000;

export interface CallOptions {
  /** Place in the lane's queue (default: a caller waiting). */
  ticket?: Ticket;
  /** Calls the upstream counts for this request (Open-Meteo's weighted calls; 0 = not counted). */
  weight?: number;
  /** Recognises an error status as a healthy upstream declining this query (kind "data"). */
  refusal?: (status: number, text: string) => string | null;
}

export class UpstreamClient {
  /**
   * Set by a network failure (no route, no DNS: typically no internet), cleared by an answer. Being
   * offline is expected, so it is logged once as a state, not as a warning per call.
   */
  #unreachable = false;

  constructor(
    readonly upstream: string,
    readonly opts: UpstreamClientOptions,
  ) {}

  get breaker(): CircuitBreaker {
    return this.opts.breaker;
  }

  /**
   * GETs `url` and parses its JSON with `parse`; every failure is an UpstreamError. The request
   * waits its turn in the lane; a spent quota fails at once (kind "rate_limited") without calling.
   */
  async getJson<T>(url: URL, parse: (body: unknown) => T, how: CallOptions = {}): Promise<T> {
    const { breaker, log, lane, clock } = this.opts;
    const ticket = how.ticket ?? callerTicket();
    const weight = how.weight ?? 0;
    const quotaSpent = async () => {
      const until = await lane.blockedUntil(weight);
      if (until > 0) {
        throw new UpstreamError(this.upstream, "rate_limited", "quota spent; waiting for the window to reset", Math.max(1, Math.ceil((until - clock.now().getTime()) / 1000)));
      }
    };
    for (let attempt = 0; ; attempt++) {
      await quotaSpent();
      const slot = await lane.acquire(ticket);
      let result: CallResult<T>;
      const started = performance.now();
      try {
        // Again after the wait: a quota 429 may have come back while this request was queued.
        await quotaSpent();
        if (!breaker.tryAcquire()) {
          throw new UpstreamError(this.upstream, "circuit_open", "circuit open after repeated failures", breaker.retryAfterS());
        }
        // A call refused for concurrency is not counted by the upstream: its retries spend nothing.
        if (attempt === 0) await lane.spend(weight);
        result = await this.#call(url, parse, how.refusal);
      } finally {
        await lane.release(slot);
      }
      const where = { upstream: this.upstream, host: url.host, path: url.pathname, ms: Math.round(performance.now() - started) };
      if (result.ok) {
        breaker.onSuccess();
        log.debug(where, "upstream call");
        if (this.#unreachable) log.info(where, `upstream ${this.upstream}: reachable again`);
        this.#unreachable = false;
        return result.value;
      }
      const { kind, message, retryAfterMs, status, limit } = result;
      if (kind === "rate_limited") {
        breaker.onNeutral();
        if (limit === "concurrency" && attempt < CONCURRENCY_RETRIES) {
          log.info({ ...where, attempt: attempt + 1 }, `upstream ${this.upstream}: too many concurrent requests, retrying`);
          await new Promise((r) => setTimeout(r, CONCURRENCY_RETRY_MS * 2 ** attempt));
          continue;
        }
        const now = clock.now().getTime();
        const resumeAt = limit && limit !== "concurrency" ? windowReset(limit, now) : now + (retryAfterMs ?? UNNAMED_429_PAUSE_MS);
        if (limit !== "concurrency") await lane.block(resumeAt, message);
        throw new UpstreamError(this.upstream, kind, message, Math.max(1, Math.ceil((resumeAt - now) / 1000)), 429);
      }
      if (kind === "data") {
        breaker.onSuccess();
        log.info({ ...where, reason: message }, `upstream ${this.upstream}: no data`);
        throw new UpstreamError(this.upstream, kind, message, breaker.retryAfterS());
      }
      breaker.onFailure(kind);
      if (kind === "network" && this.#unreachable) {
        log.debug({ ...where, failure: kind, reason: message, breaker: breaker.state }, `upstream ${this.upstream} failed`);
      } else if (kind === "network") {
        this.#unreachable = true;
        log.warn(
          { ...where, failure: kind, reason: message, breaker: breaker.state },
          `upstream ${this.upstream} unreachable (no network?): answering without it until it is back; further failures are not logged`,
        );
      } else {
        log.warn({ ...where, failure: kind, reason: message, breaker: breaker.state }, `upstream ${this.upstream} failed`);
      }
      throw new UpstreamError(this.upstream, kind, message, breaker.retryAfterS(), status ?? null);
    }
  }

  async #call<T>(url: URL, parse: (body: unknown) => T, refusal?: (status: number, text: string) => string | null): Promise<CallResult<T>> {
    let res: Response;
    let text: string | null;
    try {
      res = await fetch(url, {
        signal: AbortSignal.timeout(this.opts.timeoutMs),
        headers: { accept: "application/json", "user-agent": this.opts.userAgent },
        // Redirects are never followed: the configured address is the only one we call, so an
        // upstream (or whoever answers for it) cannot send us elsewhere or round a loop.
        redirect: "manual",
      });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel().catch(() => undefined);
        return { ok: false, kind: "http", message: `HTTP ${res.status} redirect refused (redirects are not followed)`, status: res.status };
      }
      if (res.status === 429) {
        const body = await readBody(res, 4096).catch(() => null);
        const retryAfterMs = parseRetryAfterMs(res.headers.get("retry-after"), this.opts.clock.now()) ?? undefined;
        return { ok: false, kind: "rate_limited", message: `rate limited (HTTP 429${reasonOf(body ?? "")})`, retryAfterMs, limit: limitOf(body ?? "") };
      }
      text = await readBody(res, this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    } catch (e) {
      const name = (e as { name?: string }).name;
      return name === "TimeoutError" || name === "AbortError"
        ? { ok: false, kind: "timeout", message: `no answer within ${this.opts.timeoutMs} ms` }
        : { ok: false, kind: "network", message: `network error: ${(e as Error).message}` };
    }
    if (text === null) return { ok: false, kind: "too_large", message: "response body too large" };
    if (!res.ok) {
      const declined = refusal?.(res.status, text);
      if (declined) return { ok: false, kind: "data", message: declined };
      return { ok: false, kind: "http", message: `HTTP ${res.status}${reasonOf(text)}`, status: res.status };
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { ok: false, kind: "malformed", message: "response is not JSON" };
    }
    try {
      return { ok: true, value: parse(body) };
    } catch (e) {
      if (e instanceof NoDataError) return { ok: false, kind: "data", message: e.message };
      return { ok: false, kind: "shape", message: `unexpected response format: ${(e as Error).message}` };
    }
  }
}

type CallResult<T> = { ok: true; value: T } | { ok: false; kind: UpstreamFailure; message: string; retryAfterMs?: number; status?: number; limit?: RateLimit | null };

/** What a 429 says ran out: the concurrency queue, or a quota window (Open-Meteo names it). */
export type RateLimit = "concurrency" | QuotaWindowId;

/** Reads Open-Meteo's 429 reason: "Too many concurrent requests", "Minutely/Hourly/Daily API request limit exceeded…". */
export function limitOf(text: string): RateLimit | null {
  let reason = text;
  try {
    const j = JSON.parse(text) as { reason?: unknown };
    if (typeof j.reason === "string") reason = j.reason;
  } catch {
    // not JSON: read the text as it is
  }
  if (/concurrent/i.test(reason)) return "concurrency";
  if (/minute|minutely/i.test(reason)) return "minute";
  if (/hour/i.test(reason)) return "hour";
  if (/daily|\bday\b|tomorrow/i.test(reason)) return "day";
  return null;
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfterMs(value: string | null, now: Date): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

async function readBody(res: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!res.body) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      await res.body.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * What an error body says: Open-Meteo explains a 400 as {"error":true,"reason":"…"}, ERDDAP as a
 * plain-text `Error { code=400; message="…" }`.
 */
function reasonOf(text: string): string {
  let reason = text;
  try {
    const j = JSON.parse(text) as { reason?: unknown };
    reason = typeof j.reason === "string" ? j.reason : "";
  } catch {
    // plain text: quote it
  }
  reason = reason.replace(/\s+/g, " ").trim().slice(0, 300);
  return reason ? `: ${reason}` : "";
}
