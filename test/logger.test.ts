// The log destination under a reader that stops and resumes: bounded queue, dropped lines counted
// and reported once when writing resumes, a gone reader costing lines but never the process.
import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { BoundedLogDestination } from "../src/base/logger.js";

/** A pipe whose reader can be stalled: writes are acknowledged only when `resume()` is called. */
function stallablePipe() {
  const written: string[] = [];
  const held: (() => void)[] = [];
  let stalled = true;
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _enc, done) {
      written.push(chunk.toString());
      if (stalled) held.push(done);
      else done();
    },
  });
  return {
    stream,
    written,
    resume() {
      stalled = false;
      for (const done of held.splice(0)) done();
    },
  };
}

describe("the bounded log destination", () => {
  it("drops what does not fit while the reader is stalled, then reports the count once", async () => {
    const pipe = stallablePipe();
    const destination = new BoundedLogDestination(pipe.stream, 4096);
    const log = pino({ base: null, timestamp: false }, destination);
    destination.reportDropped = (dropped) => log.warn({ dropped }, "log lines dropped: the log reader was not keeping up");
    for (let i = 0; i < 200; i++) log.info({ i, pad: "x".repeat(100) }, "line");
    // The queue stays near its bound (one line may cross it); the rest was dropped and counted.
    expect(pipe.stream.writableLength).toBeLessThan(4096 + 200);
    expect(destination.dropped).toBeGreaterThan(150);

    pipe.resume();
    await destination.flush(1000);
    log.info("after");
    log.info("after again");
    const lines = pipe.written
      .join("")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { msg: string; dropped?: number });
    const reports = lines.filter((l) => l.msg.startsWith("log lines dropped"));
    expect(reports).toHaveLength(1);
    expect(reports[0]!.dropped).toBe(destination.dropped);
    // The report comes right before the first line written after the stall.
    expect(lines.at(-3)!.msg).toMatch(/^log lines dropped/);
    expect(lines.at(-2)!.msg).toBe("after");
    expect(lines.at(-1)!.msg).toBe("after again");
  });

  it("stops writing once the reader is gone, and flushing does not wait for it", async () => {
    const stream = new Writable({
      write(_chunk, _enc, done) {
        done(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    const destination = new BoundedLogDestination(stream);
    destination.write('{"msg":"one"}\n');
    await new Promise((r) => setImmediate(r));
    destination.write('{"msg":"two"}\n');
    expect(destination.dropped).toBe(1);
    const t0 = performance.now();
    await destination.flush(5000);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});
