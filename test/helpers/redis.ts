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
  /** The server's process id (a test stops it with SIGSTOP to make it hang). */
  pid: number;
  /** The persistence arguments it was started with (a restart passes them again). */
  args: string[];
  stop(): Promise<void>;
}

/** Without persistence: a restart starts empty. */
export const NO_PERSISTENCE = ["--save", "", "--appendonly", "no"];

/**
 * A fresh redis-server; on `port` when given (a restart where clients expect it). `persistence`
 * replaces the default (none), e.g. with the documented production settings and a `--dir`.
 */
export async function startRedis(port?: number, persistence: string[] = NO_PERSISTENCE): Promise<RedisServer> {
  port ??= await freePort();
  const proc: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", ...persistence], { stdio: ["ignore", "pipe", "pipe"] });
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
    pid: proc.pid!,
    args: persistence,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once("exit", () => resolve());
        // A stopped (hung) server must run again to act on SIGTERM.
        proc.kill("SIGCONT");
        proc.kill("SIGTERM");
      }),
  };
}
