// Marine protected and managed areas (data/protected-areas.json): which spots lie in an area closed
// to spearfishing, and which in an area with its own rules. Loaded separately from the catalogue so
// that a missing or broken file degrades spearfishing advice ("regulations not checked") instead of
// taking the service down.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { DATA_DIR } from "../base/paths.js";
import type { Catalog } from "./catalog.js";

export const ProtectedArea = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    name: z.string().min(1),
    designation: z.enum(["closed_to_spearfishing", "rules_only"]),
    source: z.url().nullable(),
    verified: z.boolean(),
    /**
     * For a rules-only area where only some gear or some way of fishing is legal: what is, in a few
     * words ("hand spear only, on a breath-hold"). Said in every spearfishing pick's headline there.
     */
    gear: z.string().min(1).optional(),
    note: z.string(),
    spots: z.array(z.string()).min(1),
  })
  .strict()
  .refine((a) => a.gear === undefined || a.designation === "rules_only", { message: "`gear` is for rules-only areas (a closed area allows no gear)" });
export type ProtectedArea = z.infer<typeof ProtectedArea>;

const ProtectedAreasFile = z.object({ description: z.string(), areas: z.array(ProtectedArea) }).strict();

export const DEFAULT_PROTECTED_AREAS_FILE = join(DATA_DIR, "protected-areas.json");

export type Regulations = { readable: true; areasFor(spotId: string): readonly ProtectedArea[] } | { readable: false; error: string };

/** Loads the areas; returns `readable: false` (never throws) when the file is missing or invalid. */
export function loadRegulations(catalog: Catalog, file = DEFAULT_PROTECTED_AREAS_FILE): Regulations {
  try {
    const parsed = ProtectedAreasFile.parse(JSON.parse(readFileSync(file, "utf8")));
    const bySpot = new Map<string, ProtectedArea[]>();
    for (const area of parsed.areas) {
      for (const id of area.spots) {
        if (!catalog.spot(id)) throw new Error(`area ${area.id} names unknown spot ${id}`);
        bySpot.set(id, [...(bySpot.get(id) ?? []), area]);
      }
    }
    return { readable: true, areasFor: (spotId) => bySpot.get(spotId) ?? [] };
  } catch (e) {
    return { readable: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** An area with its own fishing rules, as a caveat quotes it. */
export interface AreaRule {
  name: string;
  /** The area's rule in our data's words, e.g. "Spearfishing allowed by free-diving only (…)". */
  rule: string;
  /** The only gear allowed there, in a few words, when the area limits it; null when it does not. */
  gear: string | null;
  /** Whether the rule was checked against the regulation text. */
  verified: boolean;
}

/** Said in a spearfishing headline where an area's rules apply but were not checked against the regulation text. */
export const RULES_NOT_CHECKED = "local rules not checked";

/**
 * What a spearfishing headline must say of the rules where the spot lies, or null when nothing
 * limits it: the gear allowed (hand spear only, breath-hold only), and "local rules not checked" where
 * a rules-only area's rule was not checked against its regulation text. A closed area never gets here
 * (its spots are excluded).
 */
export function spearfishingTag(rules: readonly AreaRule[]): string | null {
  const parts = [...new Set(rules.flatMap((r) => (r.gear === null ? [] : [r.gear])))];
  if (rules.some((r) => !r.verified)) parts.push(RULES_NOT_CHECKED);
  return parts.length === 0 ? null : parts.join("; ");
}

/**
 * The rule an area's note records, to quote to the user: its first sentence (the rule itself, before
 * any sourcing remarks), with "unverified" added when the note was not checked against the
 * regulation text.
 */
export function ruleOf(area: ProtectedArea): AreaRule {
  const first = /^(.*?[.;])(\s|$)/.exec(area.note.replace(/\s*\(?https?:\/\/\S+\)?/g, ""))?.[1] ?? area.note;
  const rule = first.replace(/[.;]$/, "");
  return {
    name: area.name,
    rule: area.verified ? rule : `${rule} (our summary, not checked against the current regulation text)`,
    gear: area.gear ?? null,
    verified: area.verified,
  };
}
