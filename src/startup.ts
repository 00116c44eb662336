// What `npm start` prints on a terminal: one short block saying where to go and what the answers rest
// on. When stdout is not a terminal (a process manager, a container, a pipe) the service logs the
// usual JSON `listening` line instead, and nothing else changes.
import type { DataSourceMode } from "./base/config.js";
import { MCP_PATH } from "./mcp/http.js";
import { PACKAGE } from "./base/package-info.js";

export interface StartupFacts {
  base: string;
  dataSource: DataSourceMode;
  spots: number;
  regions: number;
  logLevel: string;
}

/** Where the numbers come from in each data mode, and why. */
export const DATA_MODE_WORDS: Record<DataSourceMode, string> = {
  auto: "live upstreams (Open-Meteo, NOAA CO-OPS, NOAA CoastWatch ERDDAP) when reachable, embedded seasonal norms when not (DATA_SOURCE=auto); an upstream that cannot be reached is reported once below",
  live: "live upstreams only (DATA_SOURCE=live): while one is down, answers are 503 data_unavailable, never seasonal norms",
  offline: "embedded data only (DATA_SOURCE=offline): harmonic tides and sun computed here, labelled seasonal norms for swell, wind, rain and water temperature",
};

/** Words in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** The block, ready to write; lines fit an 80-column terminal except for long URLs. */
export function startupBlock(f: StartupFacts): string {
  const row = (label: string, value: string) => `  ${label.padEnd(12)}${value}`;
  const example = `${f.base}/api/v1/conditions?spot=hanauma-bay`;
  return [
    "",
    `${PACKAGE.name} ${PACKAGE.version}: dive and snorkel conditions, ${f.spots} spots in ${f.regions} regions`,
    row("Front page", `${f.base}/`),
    row("REST API", `${f.base}/api/v1/  (OpenAPI: ${f.base}/openapi.json)`),
    row("MCP", `${f.base}${MCP_PATH}  (add it to an AI assistant as a remote MCP server)`),
    row("API docs", `${f.base}/docs`),
    row("Example", `curl '${example}'`),
    row("Data", wrap(DATA_MODE_WORDS[f.dataSource], 66).join("\n" + " ".repeat(14))),
    `Logs follow (LOG_LEVEL=${f.logLevel}; JSON lines when stdout is not a terminal). Ctrl-C stops.`,
    "",
  ].join("\n");
}
