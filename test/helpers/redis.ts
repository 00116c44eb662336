// A real redis-server (Debian package) on a free loopback port, started and stopped by the test.
// Without redis-server the Redis tests skip, saying why, unless CI is set, when they fail.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { describe } from "vitest";
import { freePort } from "./ports.js";

const available = spawnSync("redis-server", ["--version"]).status === 0;
if (!available && !process.env.CI) console.warn("Redis tests skipped: no redis-server on PATH. Install it with: sudo apt-get install -y redis-server");

export const describeWithRedis = available || process.env.CI ? describe : describe.skip;


export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A fresh, empty redis-server; on `port` when given (a restart where clients expect it). */
export async function startRedis(port?: number): Promise<RedisServer> {
  port ??= await freePort();
  const proc: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("redis-server did not start")), 10_000);
    proc.stdout!.on("data", (d: Buffer) => {
      if (d.toString().includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.on("exit", (code) => reject(new Error(`redis-server exited (${code})`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once("exit", () => resolve());
        proc.kill("SIGTERM");
      }),
  };
}
