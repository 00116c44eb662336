// Generated sections of the docs sit between a start and an end marker; the generators replace
// what lies between them and leave the rest of the document as it is.

/** `doc` with `body` between `start` and `end`; throws, naming `where`, when the markers are missing. */
export function betweenMarkers(doc: string, start: string, end: string, body: string, where: string): string {
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${where} has no markers (${start} … ${end})`);
  return `${doc.slice(0, a + start.length)}\n${body}\n${doc.slice(b)}`;
}
