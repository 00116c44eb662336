// Who we are and what we ask of callers: the `source` object on every JSON body, the disclaimer,
// and the credits of the upstream data each response used.
import { PACKAGE } from "./package-info.js";

export const SERVICE_NAME = "Ocean Conditions";
export const SERVICE_VERSION = PACKAGE.version;

export const DISCLAIMER =
  "Estimates for planning only: not an official forecast, not a safety guarantee and not for navigation. " +
  "Conditions change quickly; look at the water, check local warnings and regulations, and never dive or swim beyond your training.";

export interface Source {
  name: string;
  url: string;
  docs: string;
  citation: string;
}

export function sourceObject(baseUrl: string): Source {
  return {
    name: SERVICE_NAME,
    url: baseUrl,
    docs: `${baseUrl}/docs`,
    citation: `${SERVICE_NAME}: dive and snorkel conditions forecast, ${baseUrl}`,
  };
}

export interface DataCredit {
  provider: string;
  credit: string;
  url: string;
  license: string;
}

/** One-line "Source: …" footer used at the end of every Markdown card. */
export function sourceLine(baseUrl: string): string {
  return `Source: ${SERVICE_NAME} (${baseUrl})`;
}

/** Credits joined into the one line shown under a card: each credit's required text. */
export function creditsText(credits: readonly DataCredit[]): string | null {
  if (credits.length === 0) return null;
  return credits.map((c) => c.credit).join(" · ");
}

/** Union of credits by provider+credit, order of first appearance. */
export function unionCredits(lists: readonly (readonly DataCredit[])[]): DataCredit[] {
  const seen = new Map<string, DataCredit>();
  for (const list of lists) for (const c of list) seen.set(`${c.provider}|${c.credit}`, seen.get(`${c.provider}|${c.credit}`) ?? c);
  return [...seen.values()];
}
