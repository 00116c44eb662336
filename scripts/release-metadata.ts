// Writes server.json (MCP Registry) and manifest.json (MCP Bundle) from package.json, or with
// --check exits 1 when the checked-in copies differ from what src/mcp/registry.ts makes.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bundleManifest, registryServerJson } from "../src/mcp/registry.js";
import { PROJECT_ROOT } from "../src/base/paths.js";

const files: Record<string, unknown> = { "server.json": registryServerJson(), "manifest.json": bundleManifest() };
const check = process.argv.includes("--check");
let stale = 0;
for (const [name, doc] of Object.entries(files)) {
  const path = join(PROJECT_ROOT, name);
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  if (!check) writeFileSync(path, text);
  else if (readFileSync(path, "utf8") !== text) {
    console.error(`${name} is out of date: run npm run release:metadata`);
    stale++;
  }
}
process.exit(stale ? 1 : 0);
