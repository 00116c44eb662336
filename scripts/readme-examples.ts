// Prints real responses for the README's examples: the offline service at a pinned time, arrays
// trimmed to their first items. Usage: npx tsx scripts/readme-examples.ts > /tmp/examples.md
import { FixedClock } from "../src/clock.js";
import { loadConfig } from "../src/config.js";
import { createContext } from "../src/context.js";
import { createLogger } from "../src/logger.js";
import { listSpots } from "../src/facts/spots.js";
import { bestDay } from "../tools/best-day.js";
import { getConditions } from "../tools/get-conditions.js";
import { listCoverage } from "../tools/list-coverage.js";
import { recommendSpot } from "../tools/recommend-spot.js";
import { toolErrorResult } from "../src/mcp/server.js";

const ctx = createContext({
  config: loadConfig({ DATA_SOURCE: "offline", PORT: "3000" }),
  clock: new FixedClock("2026-11-21T19:00:00Z"),
  log: createLogger("silent"),
});

/** Keeps the first `n` items of every array deeper than the top level. */
function trim(v: unknown, n: number, depth = 0): unknown {
  if (Array.isArray(v)) return v.slice(0, depth === 0 ? v.length : n).map((x) => trim(x, n, depth + 1));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trim(x, n, depth + 1)]));
  return v;
}
const show = (name: string, value: unknown, n = 1) => console.log(`<!-- example: ${name} -->\n\`\`\`json\n${JSON.stringify(trim(value, n), null, 2)}\n\`\`\`\n`);

show("conditions", await getConditions({ spot: "hanauma-bay", from: "2026-11-22", to: "2026-11-22" }, ctx), 2);
show("spots", listSpots({ lat: 21.27, lon: -157.7 }, ctx), 2);
show("coverage", listCoverage({ region: "us-hi-kona" }, ctx), 2);
const rec = await recommendSpot({ activity: "snorkel", region: "us-hi-maui", limit: 1 }, ctx);
show("recommendation", rec, 1);
console.log("```markdown\n" + rec.card_markdown + "\n```\n");
show("best-day", await bestDay({ activity: "dive", spot: "molokini-back-wall", from: "2026-11-22", to: "2026-11-24" }, ctx), 2);
show("recommendation-not-covered", await recommendSpot({ activity: "snorkel", lat: 25.77, lon: -80.13 }, ctx));
try {
  await recommendSpot({ activity: "kitesurf", region: "us-hi-oahu" }, ctx);
} catch (e) {
  show("tool-error", toolErrorResult(e, ctx, "recommend_spot").structuredContent);
}
