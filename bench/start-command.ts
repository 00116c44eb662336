// The process `npm start` runs, read from package.json so the bench measures exactly what a user
// starts: the environment it sets first (`NAME=value` words) and node's own arguments.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../src/base/paths.js";

export interface StartCommand {
  /** Variables the script sets for node (glibc's malloc settings). */
  env: Record<string, string>;
  /** node's arguments, the entry point last. */
  args: string[];
}

export const START: StartCommand = (() => {
  const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split("=");
    env[name!] = value.join("=");
  }
  if (words[0] !== "node") throw new Error(`npm start is expected to run node, not ${words[0]}`);
  return { env, args: words.slice(1) };
})();

/** Caps this high keep the limiter code on the path without refusing the load. */
const HIGH = "100000000";

/**
 * The environment the bench starts the service with on `port`: what `npm start` sets, offline data,
 * rate-limit caps set HIGH, and no per-address request budget (the bench sends every request from
 * 127.0.0.1).
 */
export function benchEnv(port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...START.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATA_SOURCE: "offline",
    LOG_LEVEL: "warn",
    RATE_LIMIT_FACTS_PER_HOUR: HIGH,
    RATE_LIMIT_FACTS_PER_DAY: HIGH,
    RATE_LIMIT_SPOTS_PER_HOUR: HIGH,
    RATE_LIMIT_SPOTS_PER_DAY: HIGH,
    RATE_LIMIT_DECISIONS_BURST: HIGH,
    RATE_LIMIT_RENDERS_PER_HOUR: HIGH,
    MAX_REQUESTS_PER_SECOND_PER_IP: "0",
  };
}
