// The Node HTTP server around the Express app: timeouts for slow clients, and answers to requests
// Node refuses before Express sees them (headers over the 16 KiB limit, malformed HTTP, clients too
// slow to send their headers). Used by src/main.ts and by the test harness, so tests run the same server.
import { createServer, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { callerAddress } from "../services/metering/caller.js";
import type { ServiceContext } from "../services/context.js";
import { ServiceError, type ErrorCode } from "../base/errors.js";
import {
  CONNECTIONS_CHECK_INTERVAL_MS,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_PIPELINED_REQUESTS,
  MAX_QUERY_BYTES,
  MAX_UNREAD_RESPONSE_BYTES,
  REQUEST_TIMEOUT_MS,
} from "../web/http-limits.js";
import { problemBody } from "../web/problem.js";

export interface ServerTimeouts {
  /** Whole request head (request line and headers) must arrive within this. */
  headersTimeoutMs: number;
  /** Whole request, body included, must arrive within this (responses are not limited). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** How often Node checks the two timeouts above; a slow client is cut off up to this much late. */
  checkIntervalMs: number;
}

/** How often idle connections are closed while the server shuts down. */
const CLOSE_SWEEP_MS = 50;

export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
  checkIntervalMs: CONNECTIONS_CHECK_INTERVAL_MS,
};

/** The total size of a request head Node accepts (its default, 16 KiB, unless --max-http-header-size). */
export const MAX_HEADER_BYTES = maxHeaderSize;

/**
 * An HTTP server with the service's timeouts; attach the app with `server.on("request", app)`.
 * The check interval can only be given here (Node reads it when the server is constructed).
 */
export function createHttpServer(timeouts: ServerTimeouts = SERVER_TIMEOUTS): Server {
  const server = createServer({
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    connectionsCheckingInterval: timeouts.checkIntervalMs,
  });
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  // Node 20 closes idle connections once, when close() is called. A keep-alive connection whose
  // request was still in flight would then stay open for the whole keep-alive timeout after its
  // response, holding a graceful shutdown open. So once close() is called, requests still arriving
  // are told not to reuse their connection, and idle connections are swept until the server has
  // closed (nothing is added to the per-request path while serving).
  const close = server.close.bind(server);
  server.close = (callback?: (err?: Error) => void) => {
    server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
      res.shouldKeepAlive = false;
    });
    const sweep = setInterval(() => server.closeIdleConnections(), CLOSE_SWEEP_MS);
    sweep.unref();
    server.once("close", () => clearInterval(sweep));
    return close(callback);
  };
  return server;
}

/** The Link header every response carries: the developer docs and the OpenAPI document. */
export function linkHeader(links: ServiceContext["links"]): string {
  return `<${links.docs}>; rel="service-doc", <${links.openapi}>; rel="service-desc"; type="application/openapi+json"`;
}

const REASONS: Record<number, string> = { 400: "Bad Request", 408: "Request Timeout", 414: "URI Too Long", 431: "Request Header Fields Too Large" };

/** What a parser error means for the caller: a problem, or (timeouts) a bare status. */
function classify(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): { status: number; code?: ErrorCode; detail?: string } {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW": {
      // The request line counts toward the same limit. When the packet holds the start of the request
      // and its first line alone is over the limit, it was the URL that was too long.
      const packet = err.rawPacket?.toString("latin1") ?? "";
      const lineEnd = packet.indexOf("\r\n");
      const urlTooLong = /^[A-Z]+ \S/.test(packet) && (lineEnd === -1 || lineEnd > MAX_HEADER_BYTES);
      return urlTooLong
        ? { status: 414, code: "uri_too_long", detail: `Query strings are limited to ${MAX_QUERY_BYTES} bytes (and the whole request head to ${MAX_HEADER_BYTES}).` }
        : { status: 431, code: "header_too_large", detail: `Request headers are limited to ${MAX_HEADER_BYTES} bytes in total.` };
    }
    case "ERR_HTTP_REQUEST_TIMEOUT":
      // The client is too slow to finish its request; it gets a status, not a body it would not read.
      return { status: 408 };
    default:
      return { status: 400, code: "invalid_parameter", detail: "The request is not valid HTTP/1.1 and could not be read." };
  }
}

/**
 * Answers what Node's parser refuses (431, 414, 400 as problem+json; 408 for slow clients) instead of
 * Node's bodiless default, then closes the connection. Call once, after the context exists.
 */
export function attachClientErrorHandler(server: Server, ctx: ServiceContext): void {
  server.on("clientError", (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    // As Node's own handler: write only if nothing of a response has gone out on this socket.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, code, detail } = classify(err);
    const body = code ? JSON.stringify(problemBody(new ServiceError(code, detail!), ctx.links.base, ctx.source)) : "";
    const head = [
      `HTTP/1.1 ${status} ${REASONS[status]}`,
      "Connection: close",
      "X-Content-Type-Options: nosniff",
      "Access-Control-Allow-Origin: *",
      `Link: ${linkHeader(ctx.links)}`,
      ...(code ? ["Content-Type: application/problem+json"] : []),
      `Content-Length: ${Buffer.byteLength(body)}`,
    ];
    ctx.log.debug({ err: err.code, status }, "client error");
    socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  });
}

// Requests read from a socket and not yet answered (more than one only when pipelined), kept on the
// socket under a symbol of its own: cheaper per request than a WeakMap entry.
const UNANSWERED = Symbol("unanswered");
// The caller address a socket counts against (see callerAddress), set when it connects.
const ADDRESS = Symbol("address");
type CountedSocket = Socket & { [UNANSWERED]?: number; [ADDRESS]?: string };

/**
 * Each address's request budget, a token bucket: `burst` requests at once, refilled at `perSecond`.
 * Measured before it: 100 connections from one address, each pipelining 15 requests for the OpenAPI
 * document (under the per-connection limit) and reading none, held another address's /healthz for
 * 2.3–3.5 s while the loop answered all 1,500; answers the kernel takes are finished at once, so a
 * count of requests in flight never binds. A spent budget closes the connection the request came on,
 * as an over-deep pipeline does: the request is not run and costs no answer.
 */
class RequestBudget {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}

  /** Takes one request from the address's budget; false when it is spent. */
  take(address: string): boolean {
    if (this.perSecond === 0) return true;
    const now = performance.now();
    const b = this.#buckets.get(address);
    if (!b) {
      // Full buckets are forgotten, so the map holds only addresses that sent a burst lately.
      if (this.#buckets.size >= 100_000) this.#forgetFull(now);
      this.#buckets.set(address, { tokens: this.burst - 1, at: now });
      return true;
    }
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  #forgetFull(now: number): void {
    for (const [address, b] of this.#buckets) if (b.tokens + ((now - b.at) / 1000) * this.perSecond >= this.burst) this.#buckets.delete(address);
  }
}
// The socket a response was for (Node detaches it from the response before "close").
const SOCKET = Symbol("socket");
type AnsweredResponse = ServerResponse & { [SOCKET]?: CountedSocket };

/** Idle keep-alive time while connections are over half the global cap (pressure). */
export const PRESSURED_KEEP_ALIVE_MS = 2_000;

/**
 * Connection caps: at most `max` open connections in all and at most `perIp` from one address (an
 * IPv6 client counts by its /64), so one client holding idle sockets cannot starve the others.
 * When a new connection would pass `max`, the connection that has been idle longest (no request in
 * flight, oldest first) is closed to make room; only when none is idle is the newcomer refused. Past
 * half of `max`, idle keep-alive connections are kept PRESSURED_KEEP_ALIVE_MS instead of the usual
 * timeout (and the idle ones are closed at once), until the count falls under a quarter.
 * A connection is also closed when its client pipelines more than MAX_PIPELINED_REQUESTS requests
 * without reading the answers, or leaves more than MAX_UNREAD_RESPONSE_BYTES of them unread, or when
 * its address has spent its request budget (`requestsPerSecondPerIp`, `requestBurstPerIp`; every
 * route, the unmetered ones included).
 *
 * Call before the app's request listener is attached, so an over-deep pipeline is cut off before
 * its request is run.
 */
export function limitConnections(
  server: Server,
  caps: { max: number; perIp: number; requestsPerSecondPerIp?: number; requestBurstPerIp?: number },
  log?: ServiceContext["log"],
): { open(): number; answering(): number } {
  const budget = new RequestBudget(caps.requestsPerSecondPerIp ?? 0, caps.requestBurstPerIp ?? 1);
  const normalKeepAlive = server.keepAliveTimeout;
  const perAddress = new Map<string, number>();
  // Sockets without a request in flight, least recently active first (a Set keeps insertion order).
  const idle = new Set<Socket>();
  let open = 0;
  let pressured = false;
  const setPressure = (on: boolean) => {
    if (on === pressured) return;
    pressured = on;
    server.keepAliveTimeout = on ? Math.min(PRESSURED_KEEP_ALIVE_MS, normalKeepAlive) : normalKeepAlive;
    if (on) {
      log?.warn({ open, max: caps.max }, "many open connections: keep-alive shortened");
      server.closeIdleConnections();
    }
  };
  const overdrawn = (socket: Socket) => socket.writableLength > MAX_UNREAD_RESPONSE_BYTES;
  // One listener for every response (a response closes once): no closure or once-wrapper per request.
  function answered(this: AnsweredResponse) {
    const socket = this[SOCKET]!;
    socket[UNANSWERED] = (socket[UNANSWERED] ?? 1) - 1;
    if (overdrawn(socket)) socket.destroy();
    else if (!socket.destroyed && this.writableFinished) idle.add(socket);
  }
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as CountedSocket;
    idle.delete(socket);
    const n = (socket[UNANSWERED] ?? 0) + 1;
    socket[UNANSWERED] = n;
    if (n > MAX_PIPELINED_REQUESTS || overdrawn(socket)) {
      log?.debug({ address: callerAddress(socket.remoteAddress ?? "unknown"), unanswered: n, unreadBytes: socket.writableLength }, "connection closed: answers not being read");
      // The app then skips the request (its socket is gone).
      socket.destroy();
      return;
    }
    const address = (socket[ADDRESS] ??= callerAddress(socket.remoteAddress ?? "unknown"));
    if (!budget.take(address)) {
      log?.debug({ address }, "connection closed: this address's request budget is spent");
      socket.destroy();
      return;
    }
    (res as AnsweredResponse)[SOCKET] = socket;
    res.on("close", answered);
  });
  server.on("connection", (socket: CountedSocket) => {
    const address = callerAddress(socket.remoteAddress ?? "unknown");
    socket[ADDRESS] = address;
    const n = (perAddress.get(address) ?? 0) + 1;
    if (n > caps.perIp) {
      log?.debug({ address }, "connection refused: too many from this address");
      socket.destroy();
      return;
    }
    if (open >= caps.max) {
      const oldest = idle.values().next();
      if (oldest.done) {
        log?.debug({ address }, "connection refused: every connection is busy");
        socket.destroy();
        return;
      }
      idle.delete(oldest.value);
      oldest.value.destroy();
    }
    perAddress.set(address, n);
    open++;
    idle.add(socket);
    if (open > caps.max / 2) setPressure(true);
    socket.once("close", () => {
      open--;
      idle.delete(socket);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
      if (open <= caps.max / 4) setPressure(false);
    });
  });
  // Connections with a request not yet answered: those not idle.
  return { open: () => open, answering: () => open - idle.size };
}
