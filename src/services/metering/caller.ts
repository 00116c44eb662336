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

/**
 * The address a caller is counted by: IPv4 as is (IPv4-mapped IPv6 included), IPv6 by its /64,
 * since one subscriber is routinely given a whole /64 and can pick a new address for every request.
 */
export function callerAddress(ip: string): string {
  if (!ip.includes(":")) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  return `${ipv6Prefix(ip, 4)}::/64`;
}

/** Groups per IPv6 network counted as one for the render budget: a /48, a site's usual allocation. */
const NETWORK_GROUPS = 3;

/**
 * The IPv6 network (/48) a caller's /64 belongs to, or null for IPv4: a /48 holds 65,536 /64s, so
 * per-/64 budgets alone would let one allocation mint thousands of them (see RenderPolicy in meter.ts).
 */
export function callerNetwork(ip: string | null): string | null {
  if (!ip || !ip.includes(":") || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return null;
  return `${ipv6Prefix(ip, NETWORK_GROUPS)}::/${NETWORK_GROUPS * 16}`;
}

/** The first `n` groups of an IPv6 address, normalised (no leading zeros, `::` expanded). */
function ipv6Prefix(ip: string, n: number): string {
  const bare = ip.split("%")[0]!.toLowerCase();
  const [head, tail] = bare.split("::", 2) as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  // An embedded IPv4 tail is two groups; only the first groups matter here.
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  const prefix = groups.slice(0, n).map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? g.replace(/^0+(?=.)/, "") : "0"));
  while (prefix.length < n) prefix.push("0");
  return prefix.join(":");
}
