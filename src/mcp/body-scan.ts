// One pass over a POST /mcp body's bytes before anything parses it: how deep it nests, and where its
// top-level "id" value lies. A scan, not a parse: malformed bodies pass through to the SDK's parse
// error, and an id range is only trusted once a parse has confirmed it (replay.ts, rememberShape).

export interface BodyScan {
  /**
   * Arrays/objects nest deeper than the limit (brackets inside strings ignored): such a body would
   * overflow the stack of the SDK's validation (a 500), so it is refused before any parse.
   */
  tooDeep: boolean;
  /**
   * The top-level `"id"` value as a byte range [start, end), whitespace excluded; null unless the
   * body is one JSON object whose top level has exactly one key written `"id"`.
   */
  id: [number, number] | null;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

export function scanBody(raw: Uint8Array, maxDepth: number): BodyScan {
  let i = 0;
  while (i < raw.length && isSpace(raw[i]!)) i++;
  const object = raw[i] === 0x7b;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let stringStart = -1;
  let keyIsId = false;
  let valueStart = -1;
  let start = -1;
  let end = -1;
  // A second "id" (which one counts is the parser's business) leaves no range.
  let ids = 0;
  const close = (at: number) => {
    if (++ids === 1) {
      start = valueStart;
      end = at;
      while (start < end && isSpace(raw[start]!)) start++;
      while (end > start && isSpace(raw[end - 1]!)) end--;
    }
    valueStart = -1;
  };
  for (; i < raw.length; i++) {
    const c = raw[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) {
        inString = false;
        keyIsId = object && depth === 1 && valueStart < 0 && i - stringStart === 3 && raw[stringStart + 1] === 0x69 && raw[stringStart + 2] === 0x64;
      }
      continue;
    }
    if (c === 0x22) {
      inString = true;
      stringStart = i;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return { tooDeep: true, id: null };
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 1 && valueStart >= 0) close(i);
      depth--;
    } else if (c === 0x3a) {
      if (depth === 1 && keyIsId) valueStart = i + 1;
    } else if (c === 0x2c) {
      if (depth === 1 && valueStart >= 0) close(i);
    }
    if (!isSpace(c)) keyIsId = false; // only the next thing after a key may be its colon
  }
  return { tooDeep: false, id: ids === 1 && depth === 0 ? [start, end] : null };
}
