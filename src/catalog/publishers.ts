// Who published each page the data cites (data/publishers.json): an authority, a paper, a dive
// operator, a guidebook … or generated text. One entry per host (or host and path prefix, for a
// host that carries several publishers, such as a code-hosting site); the longest match wins. A
// page whose publisher is `generated` (AI-written, templated, machine-translated or a content farm)
// never counts towards a visibility level, a position marked `sourced` or a closure: it may stay in
// the data as a lead. docs/data.md ("Sources") says how a page is judged and how to add one.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { DATA_DIR } from "../base/paths.js";

/** Who published a page, from the most to the least primary. `generated` never counts. */
export const PUBLISHER_KINDS = [
  "authority", // a government, park or marine-reserve authority, a public agency, a law
  "paper", // a scientific paper, thesis, survey or technical report
  "operator", // a dive or snorkel operator, dive centre, liveaboard, or a guide's own site
  "guidebook", // a guidebook, dive or travel magazine, edited travel guide
  "press", // a newspaper or news site
  "tourism", // a tourism board or official destination site
  "encyclopedia", // Wikipedia, Wikivoyage and faithful mirrors
  "community", // written by people: a blog, trip report, forum, dive log, OpenStreetMap, a hobbyist's data
  "aggregator", // lists or republishes others' material (listing portals, booking sites)
  "generated", // AI-written, templated, machine-translated or content-farm text
] as const;
export const PublisherKind = z.enum(PUBLISHER_KINDS);
export type PublisherKind = z.infer<typeof PublisherKind>;

export const Publisher = z.strictObject({
  /** A host without `www.` ("padi.com"), or a host and path prefix ("github.com/owner/repo"). */
  match: z.string().regex(/^[a-z0-9.-]+\.[a-z0-9-]+(\/[^\s?#]*)?$/),
  kind: PublisherKind,
  name: z.string().min(1),
  /** How it was judged: what the site is and what was seen there. */
  why: z.string().min(1),
});
export type Publisher = z.infer<typeof Publisher>;

export const PublishersFile = z.strictObject({ description: z.string(), publishers: z.array(Publisher) });

/**
 * Written in the data wherever a generated page is cited (after its address in prose, at the start of a
 * reference's `says` and of a position's note): such a page stays as a lead, marked so, and counts for
 * nothing. `npm run data:check` requires it.
 */
export const GENERATED_LEAD = "[generated text: a lead only, not counted]";

export const DEFAULT_PUBLISHERS_FILE = join(DATA_DIR, "publishers.json");

/** The key a URL is looked up by: its host without `www.` and its path. */
export function matchKey(url: string): string {
  const u = new URL(url);
  return `${u.hostname
    .toLowerCase()
    .replace(/^www\./, "")
    .replace(/\.$/, "")}${u.pathname}`;
}

export class Publishers {
  readonly #byMatch = new Map<string, Publisher>();

  constructor(readonly list: readonly Publisher[]) {
    for (const p of list) {
      if (this.#byMatch.has(p.match)) throw new Error(`data/publishers.json: ${p.match} is listed twice`);
      this.#byMatch.set(p.match, p);
    }
  }

  static load(file = DEFAULT_PUBLISHERS_FILE): Publishers {
    return new Publishers(PublishersFile.parse(JSON.parse(readFileSync(file, "utf8"))).publishers);
  }

  /** The publisher of a page: the longest `match` that is the page's host, or its host and a path prefix. */
  of(url: string): Publisher | null {
    const parts = matchKey(url).split("/");
    for (let n = parts.length; n >= 1; n--) {
      const p = this.#byMatch.get(parts.slice(0, n).join("/"));
      if (p) return p;
    }
    return null;
  }

  /** Whether a page may count as a source (a level, a `sourced` position, a closure): known, and not generated. */
  counts(url: string): boolean {
    const p = this.of(url);
    return p !== null && p.kind !== "generated";
  }
}

let shipped: Publishers | null = null;
/** The shipped registry, read once. */
export function shippedPublishers(): Publishers {
  return (shipped ??= Publishers.load());
}
