// Words of names and ids as a search reads them: folded (case, diacritics, ʻokina and apostrophes
// ignored) and split on anything that is not a letter or a digit. Shared by the spots search and the
// suggestions for a wrong guess (src/catalog/suggest.ts).

/** Lower-case, without diacritics, ʻokina or apostrophes, so "Kahaluu" meets "Kahaluʻu". */
export function fold(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f\u02bb\u2018\u2019']/g, "")
    .toLowerCase();
}

/** The words of a text: runs of letters and digits, folded. */
export function wordsOf(s: string): string[] {
  return fold(s)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Every word of the query in the spot's name, its region's name or id, or its id (a word may be a prefix). */
export function matchesEveryWord(words: readonly string[], s: { id: string; name: string; region: { id: string; name: string } }): boolean {
  const hay = [...wordsOf(s.name), ...wordsOf(s.region.name), ...wordsOf(s.region.id), ...wordsOf(s.id)];
  return words.every((w) => hay.some((h) => h.startsWith(w)));
}
