// The MCP protocol versions this server speaks. The server card template lists them and is the one
// place they are written; the SDK's negotiation, server/discover, the version-header check on /mcp
// and the OpenAPI document all read this list. Anything else is refused: `initialize` asking for
// another version is answered with the newest 2025-era one here, and any other MCP-Protocol-Version
// header is a 400 with the -32022 UnsupportedProtocolVersion error listing these.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../base/paths.js";

/** Where the server card template lives (discovery.ts serves it). */
export const SERVER_CARD_TEMPLATE = ".well-known/mcp/server-card.json";

function readVersions(): readonly string[] {
  const card = JSON.parse(readFileSync(join(PROJECT_ROOT, SERVER_CARD_TEMPLATE), "utf8")) as { remotes: { supportedProtocolVersions: string[] }[] };
  return Object.freeze([...card.remotes[0]!.supportedProtocolVersions]);
}

/** Newest first: 2026-07-28, then the 2025-era versions served through `initialize`. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = readVersions();

/** JSON-RPC error code of UnsupportedProtocolVersionError (MCP 2026-07-28, basic/versioning). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
