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
