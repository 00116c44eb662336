// Structured logs (pino). Never log keys or full query strings with secrets.
import { pino, type Logger } from "pino";
import type { LogLevel } from "./config.js";

export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: "ocean-conditions" }, timestamp: pino.stdTimeFunctions.isoTime });
}
