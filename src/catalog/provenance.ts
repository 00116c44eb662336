// The provenance rule applied to the whole catalogue (npm run data:check): every page the data cites
// has a judged publisher (data/publishers.json), and nothing that protects or places a person rests on
// generated text: not a position (of any confidence: since December 2026 an approximate position is
// placed from a person's description, never taken from a generated page), not a closure, permit or
// reservation, not a protected area. A generated page never counts towards a level (src/catalog/
// levels.ts); here a level whose kind says it rests on a published figure must have one such figure
// from a person, and a level beyond a published floor or ceiling is an error.
import { spotLevel } from "./levels.js";
import { GENERATED_LEAD, type Publishers } from "./publishers.js";
import type { RegionRecord, SpotRecord } from "./schema.js";

export interface ProvenanceArea {
  id: string;
  source: string | null;
}

/** Every breach of the provenance rule, one sentence each; empty when the data keeps it. */
export function provenanceErrors(records: readonly RegionRecord[], areas: readonly ProvenanceArea[], publishers: Publishers): string[] {
  const errors: string[] = [];
  const judged = (where: string, url: string) => {
    const p = publishers.of(url);
    if (p === null) errors.push(`${where}: the publisher of ${url} is not judged (add its host to data/publishers.json; docs/data.md, Sources)`);
    return p;
  };
  for (const r of records) {
    for (const s of r.spots) {
      const where = `${r.id}/${s.id}`;
      const coord = judged(`${where} coord`, s.coord.source);
      if (coord?.kind === "generated") {
        errors.push(`${where}: its position rests on generated text (${coord.name}); place it from a person's source or description (approximate, saying how), or remove the spot`);
      }
      for (const a of s.access) {
        const p = judged(`${where} access`, a.source);
        if (p?.kind === "generated") errors.push(`${where}: its ${a.kind} rule rests on generated text (${p.name}); cite the authority's own text`);
      }
      for (const v of s.visibility_refs) {
        if (judged(`${where} visibility`, v.source)?.kind === "generated" && !v.says.startsWith(GENERATED_LEAD)) {
          errors.push(`${where}: a visibility reference cites generated text (${v.source}); start its says with ${GENERATED_LEAD}`);
        }
      }
      for (const [field, text] of [
        ["clarity_source", s.clarity_source],
        ["notes", s.notes],
        ["coord.note", s.coord.note],
      ] as const) {
        for (const url of unmarkedGenerated(text, publishers)) errors.push(`${where}: its ${field} cites generated text (${url}) without ${GENERATED_LEAD} after the address`);
      }
      errors.push(...levelErrors(where, s, publishers));
    }
  }
  for (const a of areas) {
    if (a.source === null) continue;
    const p = judged(`protected area ${a.id}`, a.source);
    if (p?.kind === "generated") errors.push(`protected area ${a.id}: rests on generated text (${p.name}); cite the authority's own text`);
  }
  return errors;
}

/** Addresses of generated pages cited in prose without the lead marker right after them. */
function unmarkedGenerated(text: string, publishers: Publishers): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/https?:\/\/[^\s"')\]]+/g)) {
    const url = m[0].replace(/[.,;:]+$/, "");
    if (publishers.of(url)?.kind === "generated" && !text.startsWith(` ${GENERATED_LEAD}`, m.index + url.length)) out.push(url);
  }
  return out;
}

function levelErrors(where: string, s: SpotRecord, publishers: Publishers): string[] {
  const errors: string[] = [];
  if (s.clarity_kind !== "judgement" && s.clarity_kind !== "log") {
    const fromPeople = s.visibility_refs.some((v) => v.kind === s.clarity_kind && publishers.of(v.source) !== null && publishers.of(v.source)!.kind !== "generated");
    if (!fromPeople) errors.push(`${where}: its level is said to rest on a ${s.clarity_kind.replace("_", " ")} figure, but no such figure from a person is cited; label it judgement`);
  }
  const level = spotLevel(s, s.clarity_ft, publishers);
  if (level.beyondBounds.length > 0) errors.push(`${where}: its level lies beyond a published floor or ceiling in ${level.beyondBounds.join(", ")}`);
  return errors;
}
