// Strings kept for a long time are made flat, and the same text is kept once. V8 builds a string
// from concatenation or a template literal as a rope of its pieces, which costs several times the
// characters it holds. A forecast keeps some 160 such strings for an hour (each period's `why`,
// `start` and `end`); flattening them cut a spot's forecast from about 95 KB to 63 KB of heap
// (measured over all 274 spots). Most of them are also the same text as another forecast's: at 479
// spots, 56,608 period times were 2,023 distinct strings and 26,093 period reasons 7,218, together
// 6.6 MB of heap held more than once (a heap snapshot after the bench's mixed workload). `intern`
// keeps one.

/** The same string, flattened in place: reading a character makes V8 flatten a rope. */
export function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

/**
 * At most this many strings are remembered; past it the table starts again (the strings already
 * shared stay shared, and texts no forecast holds any more are let go). Every spot's forecast for
 * the hour needs about 9,200 at 479 spots (the figures above): past about 850 spots the table
 * would start again within one refresh and share less, so it grows with the catalogue.
 */
export const INTERN_MAX = 16_384;

const interned = new Map<string, string>();

/** Strings the table holds now (tests). */
export function internedCount(): number {
  return interned.size;
}

/** One flat copy of this text for everyone who keeps it: the first seen, or `s` made flat. */
export function intern(s: string): string {
  const kept = interned.get(s);
  if (kept !== undefined) return kept;
  if (interned.size >= INTERN_MAX) interned.clear();
  interned.set(s, flat(s));
  return s;
}
