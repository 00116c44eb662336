// Suggestions for a wrong guess: the spot, region or activity a caller most likely meant, by edit
// distance on ids and by the words of names ("hanuama-bay" → hanauma-bay, "cozumel" → the region
// mx-roo-cozumel, "Blue Hole Dahab" → the spot named "Blue Hole & El Bells (Dahab)"). Said in REST
// problems (`detail` and the additive `suggestions` member) and in MCP tool errors.
import type { Catalog, Region, Spot } from "./catalog.js";
import { fold, matchesEveryWord, wordsOf } from "./words.js";

/** How many suggestions an answer carries at most. */
export const MAX_SUGGESTIONS = 3;

/** Levenshtein distance with adjacent transpositions (optimal string alignment), capped at `max` + 1. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** Close enough to be a typo: a third of the guess's length, at least one edit, at most three. */
const typoBudget = (guess: string) => Math.min(3, Math.max(1, Math.floor(guess.length / 3)));

interface Candidate<T> {
  item: T;
  /** Lower is better. */
  rank: number;
}

/** The best-ranked candidates, ties kept (up to MAX_SUGGESTIONS): a closer guess hides a farther one. */
function best<T>(candidates: Candidate<T>[], key: (t: T) => string): T[] {
  const sorted = candidates.sort((a, b) => a.rank - b.rank || (key(a.item) < key(b.item) ? -1 : 1));
  const top = sorted[0]?.rank;
  return sorted
    .filter((c) => c.rank === top)
    .slice(0, MAX_SUGGESTIONS)
    .map((c) => c.item);
}

/** Edits for every word of the guess to meet a word of `hay`, each within its typo budget; null when one does not. */
function wordEdits(words: readonly string[], hay: readonly string[]): number | null {
  let total = 0;
  for (const w of words) {
    const budget = typoBudget(w);
    let min = budget + 1;
    for (const h of hay) min = Math.min(min, editDistance(w, h, budget));
    if (min > budget) return null;
    total += min;
  }
  return total;
}

/** A guess as its words, as an id (spaces and underscores as hyphens) and the typos allowed in that id. */
function readGuess(guess: string): { words: string[]; id: string; budget: number } {
  const id = fold(guess)
    .trim()
    .replace(/[\s_]+/g, "-");
  return { words: wordsOf(guess), id, budget: typoBudget(id) };
}

/**
 * Spots a guess may mean: every word of the guess in the spot's name, region or id (rank 0), or
 * the id within a typo's reach of the guess (rank 1 + edits).
 */
export function suggestSpots(catalog: Catalog, guess: string): Spot[] {
  const { words, id, budget } = readGuess(guess);
  const out: Candidate<Spot>[] = [];
  for (const s of catalog.spots) {
    if (words.length > 0 && matchesEveryWord(words, s)) {
      out.push({ item: s, rank: 0 });
      continue;
    }
    const d = editDistance(id, s.id, budget);
    const w = words.length === 0 ? null : wordEdits(words, [...wordsOf(s.name), ...wordsOf(s.id)]);
    const rank = Math.min(d <= budget ? d : Infinity, w ?? Infinity);
    if (rank < Infinity) out.push({ item: s, rank: 1 + rank });
  }
  return best(out, (s) => s.id);
}

/**
 * Regions a guess may mean: the guess as a word of a region's id or name ("cozumel", "Maui"), or a
 * region id within a typo's reach, or the region of a spot the guess names.
 */
export function suggestRegions(catalog: Catalog, guess: string): Region[] {
  const { words, id, budget } = readGuess(guess);
  const out: Candidate<Region>[] = [];
  for (const r of catalog.regions) {
    const hay = [...wordsOf(r.name), ...wordsOf(r.id)];
    if (words.length > 0 && words.every((w) => hay.some((h) => h.startsWith(w)))) out.push({ item: r, rank: 0 });
    else {
      const d = editDistance(id, r.id, budget);
      if (d <= budget) out.push({ item: r, rank: 1 + d });
    }
  }
  if (out.length === 0) for (const s of suggestSpots(catalog, guess)) if (!out.some((c) => c.item === s.region)) out.push({ item: s.region, rank: 9 });
  return best(out, (r) => r.id);
}

/** The listed value nearest a guess within a typo's reach ("snorkle" → snorkel), or none. */
export function suggestValue(allowed: readonly string[], guess: string): string[] {
  const g = fold(guess).trim();
  const budget = typoBudget(g);
  return allowed
    .map((v) => ({ v, d: editDistance(g, v, budget) }))
    .filter((x) => x.d <= budget)
    .sort((a, b) => a.d - b.d)
    .slice(0, MAX_SUGGESTIONS)
    .map((x) => x.v);
}

/** " Did you mean `a`, `b`?" for a detail, or "" when there is nothing to suggest. */
export function didYouMean(ids: readonly string[]): string {
  return ids.length === 0 ? "" : ` Did you mean ${ids.map((i) => `\`${i}\``).join(", ")}?`;
}
