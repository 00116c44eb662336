// Structured logs (pino). Never log keys or full query strings with secrets.
import { pino, type Logger } from "pino";
import type { LogLevel } from "./config.js";

/** JSON logs to stdout, or to stderr (fd 2) when stdout carries the MCP stdio protocol. */
export function createLogger(level: LogLevel, fd: 1 | 2 = 1): Logger {
  return pino({ level, base: { service: "ocean-conditions" }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination(fd));
}
