// Structured logs (pino). Never log keys or full query strings with secrets.
//
// Logs never block the event loop or shutdown. pino's own destination writes synchronously and, on a
// pipe its reader has stopped draining, retries EAGAIN in a loop that parks the main thread for good
// (pinojs/sonic-boom#33, #95): requests stall and SIGTERM never completes. Here each line goes to the
// process's stdout or stderr stream, which Node writes asynchronously on a pipe or socket (a file or
// terminal is written synchronously and cannot stall that way). Lines queue in that stream up to a
// bound; past it they are dropped and counted, and one line reports how many once writing resumes.
// A reader that went away (EPIPE) drops every later line instead of crashing the process.
import { pino, type Logger } from "pino";
import type { LogLevel } from "./config.js";

/** Log bytes queued for a slow reader before further lines are dropped. */
export const LOG_QUEUE_BYTES = 1024 * 1024;

/** What a log destination needs of a stream (process.stdout / process.stderr, or a test's). */
export interface LogStream {
  write(chunk: string): boolean;
  readonly writableLength: number;
  once(event: "drain", listener: () => void): unknown;
  on(event: "error", listener: (err: Error) => void): unknown;
  off(event: "drain", listener: () => void): unknown;
}

/** A pino destination that queues a bounded amount for a slow reader and drops (and counts) the rest. */
export class BoundedLogDestination {
  readonly #stream: LogStream;
  readonly #limit: number;
  #dropped = 0;
  #droppedTotal = 0;
  #gone = false;

  constructor(stream: LogStream, limit = LOG_QUEUE_BYTES) {
    this.#stream = stream;
    this.#limit = limit;
    stream.on("error", () => {
      // The reader is gone (EPIPE) or the descriptor failed: nothing more can be written.
      this.#gone = true;
    });
  }

  /** Logs one line saying how many lines were dropped (set by the logger writing here). */
  reportDropped?: (count: number) => void;

  /** Lines dropped since the process started. */
  get dropped(): number {
    return this.#droppedTotal;
  }

  write(line: string): void {
    if (this.#gone || this.#stream.writableLength >= this.#limit) {
      this.#dropped += 1;
      this.#droppedTotal += 1;
      return;
    }
    if (this.#dropped > 0) {
      // One report per stretch of dropped lines, written before the line that follows them.
      const dropped = this.#dropped;
      this.#dropped = 0;
      this.reportDropped?.(dropped);
    }
    this.#stream.write(line);
  }

  /** Resolves once queued lines are written, or after `timeoutMs` (a stalled reader never drains). */
  flush(timeoutMs: number): Promise<void> {
    if (this.#gone || this.#stream.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#stream.off("drain", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      this.#stream.once("drain", done);
    });
  }
}

export interface ServiceLogger extends Logger {
  /** Waits (at most `timeoutMs`) for queued lines to reach the reader; used just before exiting. */
  flushLines?: (timeoutMs: number) => Promise<void>;
}

/** One destination per descriptor, however many loggers write to it. */
const destinations: { 1?: BoundedLogDestination; 2?: BoundedLogDestination } = {};

const LEVEL_NAMES: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };
/** Fields a readable line leaves out: shown another way, or the same on every line. */
const UNSHOWN = new Set(["level", "time", "msg", "service", "pid", "hostname"]);

/**
 * One JSON log line as a person reads it on a terminal: `17:02:03 WARN  message  key=value …`
 * (local time; objects as compact JSON). A line that is not JSON passes through unchanged.
 */
export function readableLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof entry.time === "string" ? new Date(entry.time).toTimeString().slice(0, 8) : "";
  const level = (LEVEL_NAMES[entry.level as number] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([k, v]) => !UNSHOWN.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return `${time} ${level} ${String(entry.msg ?? "")}${fields.length ? "  " + fields.join(" ") : ""}\n`;
}

/**
 * Logs to stdout, or to stderr (fd 2) when stdout carries the MCP stdio protocol: JSON lines, or
 * readable lines when `readable` (the HTTP service on a terminal).
 */
export function createLogger(level: LogLevel, fd: 1 | 2 = 1, readable = false): ServiceLogger {
  const destination = (destinations[fd] ??= new BoundedLogDestination(fd === 1 ? process.stdout : process.stderr));
  const sink = readable ? { write: (line: string) => destination.write(readableLine(line)) } : destination;
  const log: ServiceLogger = pino({ level, base: { service: "ocean-conditions" }, timestamp: pino.stdTimeFunctions.isoTime }, sink);
  log.flushLines = (timeoutMs) => destination.flush(timeoutMs);
  destination.reportDropped ??= (dropped) => log.warn({ dropped }, "log lines dropped: the log reader was not keeping up");
  return log;
}
