// The documentation's examples are real responses: the offline service at a pinned time, arrays trimmed
// to their first items. `npm run docs:examples` rewrites them in README.md and docs/*.md; the docs test
// fails when they are out of date.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FixedClock } from "../src/base/clock.js";
import { loadConfig } from "../src/base/config.js";
import { createContext } from "../src/compose.js";
import { listSpots } from "../src/answers/spots.js";
import { createLogger } from "../src/base/logger.js";
import { toolErrorResult } from "../src/mcp/server.js";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { bestDay } from "../src/answers/best-day.js";
import { conditionsMarkdown, getConditions } from "../src/answers/get-conditions.js";
import { listCoverage } from "../src/answers/list-coverage.js";
import { recommendSpot } from "../src/answers/recommend-spot.js";

/** Keeps the first `n` items of every array below the top level. */
function trim(v: unknown, n: number, depth = 0): unknown {
  if (Array.isArray(v)) return v.slice(0, depth === 0 ? v.length : n).map((x) => trim(x, n, depth + 1));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trim(x, n, depth + 1)]));
  return v;
}
const json = (value: unknown, n = 1) => "```json\n" + JSON.stringify(trim(value, n), null, 2) + "\n```";

/** Example name → fenced block, generated now. */
export async function generateExamples(): Promise<Record<string, string>> {
  const ctx = createContext({
    config: loadConfig({ DATA_SOURCE: "offline", PORT: "3000" }),
    clock: new FixedClock("2026-11-21T19:00:00Z"),
    log: createLogger("silent"),
  });
  const rec = await recommendSpot({ activity: "snorkel", region: "jp-47-okinawa", limit: 1 }, ctx);
  let toolError: unknown = null;
  try {
    await recommendSpot({ activity: "kitesurf", region: "us-hi-oahu" }, ctx);
  } catch (e) {
    toolError = toolErrorResult(e, ctx, "recommend_spot").structuredContent;
  }
  const conditions = await getConditions({ spot: "hanauma-bay", from: "2026-11-22", to: "2026-11-22" }, ctx);
  return {
    conditions: json(conditions, 2),
    "conditions-markdown": "```markdown\n" + conditionsMarkdown(conditions, ctx) + "\n```",
    spots: json(listSpots({ lat: 21.27, lon: -157.7 }, ctx), 2),
    coverage: json(listCoverage({ region: "us-hi-kona" }, ctx), 2),
    recommendation: json(rec, 1),
    "recommendation-markdown": "```markdown\n" + rec.card_markdown + "\n```",
    "recommendation-not-covered": json(await recommendSpot({ activity: "snorkel", lat: 25.77, lon: -80.13 }, ctx)),
    "recommendation-conditions-only": json(await recommendSpot({ activity: "snorkel", region: "ca-bc-victoria" }, ctx)),
    "best-day": json(await bestDay({ activity: "dive", spot: "blue-cave-cape-maeda", from: "2026-11-22", to: "2026-11-24" }, ctx), 2),
    "tool-error": json(toolError),
  };
}

/** The documents that may hold generated examples: the README and every page in docs/. */
export function exampleDocuments(): string[] {
  const docs = readdirSync(join(PROJECT_ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort();
  return [join(PROJECT_ROOT, "README.md"), ...docs.map((f) => join(PROJECT_ROOT, "docs", f))];
}

/** Markdown text with every `<!-- example: name -->` block replaced by `examples[name]`. */
export function withExamples(readme: string, examples: Record<string, string>): string {
  // A block ends at the first fence after it (never inside another block), and may start empty.
  return readme.replace(/<!-- example: ([a-z-]+) -->\n```(json|markdown)\n(?:(?:(?!```)[\s\S])*?\n)?```/g, (whole, name: string) =>
    examples[name] ? `<!-- example: ${name} -->\n${examples[name]}` : whole,
  );
}

if (process.argv[1]?.endsWith("readme-examples.ts")) {
  const examples = await generateExamples();
  for (const path of exampleDocuments()) {
    const before = readFileSync(path, "utf8");
    const after = withExamples(before, examples);
    if (before !== after) writeFileSync(path, after);
    console.log(`${path.slice(PROJECT_ROOT.length + 1)}: ${before === after ? "examples up to date" : "examples rewritten"}`);
  }
}
