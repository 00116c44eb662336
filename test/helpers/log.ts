// A real pino logger whose JSON lines a test can read back.
import { Writable } from "node:stream";
import { pino, type Logger } from "pino";

export function capturedLog(level = "info"): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  return { log: pino({ level }, sink), lines };
}
