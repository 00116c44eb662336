// Who is calling: the counter key for rate limits (client address, or the key in metered mode),
// whether it is a user-triggered AI fetcher, and the key it presented.
import type { KeyRecord } from "./keys.js";

/**
 * User-Agent tokens of fetchers that act for a person in a chat (not crawlers). They share a few
 * egress addresses among many users, so their caps are multiplied by AI_FETCHER_MULTIPLIER.
 */
export const AI_FETCHER_AGENTS = ["ChatGPT-User", "Claude-User", "Perplexity-User", "MistralAI-User"] as const;

export interface Caller {
  /** Counter key: `ip:<address>`, or `key:<hash prefix>` for a valid key in metered mode. */
  id: string;
  ip: string | null;
  /** The key presented, if any (plain text stays in memory only for this request). */
  presentedKey: string | null;
  /** The registry entry for the presented key (metered mode). */
  key: KeyRecord | null;
  aiFetcher: (typeof AI_FETCHER_AGENTS)[number] | null;
  /** Local stdio host: the operator's own process, never metered. */
  local: boolean;
}

export function aiFetcherOf(userAgent: string | undefined | null): Caller["aiFetcher"] {
  if (!userAgent) return null;
  return AI_FETCHER_AGENTS.find((a) => userAgent.includes(a)) ?? null;
}

export const LOCAL_CALLER: Caller = { id: "local", ip: null, presentedKey: null, key: null, aiFetcher: null, local: true };
