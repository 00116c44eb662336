// The official MCP client connected over real HTTP at a chosen protocol version, recording the
// protocol-version and session headers that actually crossed the wire.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

export const VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18"] as const;
export type Version = (typeof VERSIONS)[number];

export interface Connected {
  client: Client;
  /** MCP-Protocol-Version headers sent by the client. */
  sentVersions: Set<string>;
  /** Mcp-Session-Id headers received from the server (must stay empty: stateless). */
  sessionIds: Set<string>;
  close(): Promise<void>;
}

export async function connectClient(base: string, version: Version): Promise<Connected> {
  const sentVersions = new Set<string>();
  const sessionIds = new Set<string>();
  const recordingFetch = async (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const v = headers.get("mcp-protocol-version");
    if (v) sentVersions.add(v);
    const res = await fetch(url, init);
    const sid = res.headers.get("mcp-session-id");
    if (sid) sessionIds.add(sid);
    return res;
  };
  const info = { name: "ocean-conditions-tests", version: "1.0.0" };
  const client = version === "2026-07-28" ? new Client(info, { versionNegotiation: { mode: { pin: "2026-07-28" } } }) : new Client(info, { supportedProtocolVersions: [version] });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: recordingFetch }));
  return { client, sentVersions, sessionIds, close: () => client.close() };
}

/** The `_meta` a raw 2026-07-28 request carries (tests that POST JSON-RPC bodies themselves). */
export const RAW_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "0" },
};

/** Headers of a raw 2026-07-28 request for `method` (and the tool `name` of a tools/call). */
export const rawHeaders = (method: string, name?: string): Record<string, string> => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  ...(name ? { "mcp-name": name } : {}),
});
