// The share image's fonts: Inter from @fontsource, Latin and Latin Extended subsets so Hawaiian
// names (ū, ā, ʻokina) render, at the card's three weights.
//
// @fontsource ships WOFF; resvg (through fontdb) reads only plain TrueType/OpenType, and only from
// files. So each WOFF is unpacked once into its TrueType form (WOFF 1.0 is the sfnt's tables, each
// zlib-compressed) and written, under a name that is its content hash, to this user's directory in
// the system's temporary directory, where every process and worker of the service shares it. The
// same tables give the advance width of every glyph, which the card's layout fits its text with.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";

const require = createRequire(import.meta.url);

export const CARD_FONT_FAMILY = "Inter";
export const CARD_FONT_WEIGHTS = [400, 700, 800] as const;
export type CardFontWeight = (typeof CARD_FONT_WEIGHTS)[number];
const SUBSETS = ["latin", "latin-ext"] as const;

/** One face as a TrueType font: its bytes and what the card's layout reads from them. */
export interface CardFont {
  weight: CardFontWeight;
  ttf: Buffer;
  /** Advance width in ems of every character the face maps. */
  advances: Map<string, number>;
  /** hhea ascender and descender in ems (the descender positive, below the baseline). */
  ascent: number;
  descent: number;
}

/** The sfnt (TrueType) a WOFF 1.0 file wraps: its tables unpacked, in the same order. */
export function sfntFromWoff(woff: Buffer): Buffer {
  if (woff.toString("latin1", 0, 4) !== "wOFF") throw new Error("not a WOFF 1.0 font");
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables: { tag: number; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    const at = 44 + 20 * i;
    const [offset, compLength, origLength] = [woff.readUInt32BE(at + 4), woff.readUInt32BE(at + 8), woff.readUInt32BE(at + 12)];
    const stored = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(stored) : stored;
    if (data.length !== origLength) throw new Error("WOFF table length mismatch");
    tables.push({ tag: woff.readUInt32BE(at), checksum: woff.readUInt32BE(at + 16), data });
  }
  const pad4 = (n: number) => (n + 3) & ~3;
  const headerLength = 12 + 16 * count;
  const out = Buffer.alloc(headerLength + tables.reduce((s, t) => s + pad4(t.data.length), 0));
  const entrySelector = Math.floor(Math.log2(count));
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(count, 4);
  out.writeUInt16BE(16 * 2 ** entrySelector, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(16 * count - 16 * 2 ** entrySelector, 10);
  let offset = headerLength;
  tables.forEach((t, i) => {
    const rec = 12 + 16 * i;
    out.writeUInt32BE(t.tag, rec);
    out.writeUInt32BE(t.checksum, rec + 4);
    out.writeUInt32BE(offset, rec + 8);
    out.writeUInt32BE(t.data.length, rec + 12);
    t.data.copy(out, offset);
    offset += pad4(t.data.length);
  });
  return out;
}

function table(ttf: Buffer, tag: string): Buffer {
  const count = ttf.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const rec = 12 + 16 * i;
    if (ttf.toString("latin1", rec, rec + 4) === tag) {
      const offset = ttf.readUInt32BE(rec + 8);
      return ttf.subarray(offset, offset + ttf.readUInt32BE(rec + 12));
    }
  }
  throw new Error(`font has no ${tag} table`);
}

/** Character → glyph id from the Unicode cmap (format 4 or 12). */
function characterMap(ttf: Buffer): Map<number, number> {
  const cmap = table(ttf, "cmap");
  const map = new Map<number, number>();
  const subtables = cmap.readUInt16BE(2);
  for (let i = 0; i < subtables; i++) {
    const [platform, encoding, offset] = [cmap.readUInt16BE(4 + 8 * i), cmap.readUInt16BE(6 + 8 * i), cmap.readUInt32BE(8 + 8 * i)];
    if (platform !== 3 && platform !== 0) continue;
    const format = cmap.readUInt16BE(offset);
    if (format === 4 && (platform === 0 || encoding === 1)) {
      const segments = cmap.readUInt16BE(offset + 6) / 2;
      const ends = offset + 14;
      const starts = ends + 2 * segments + 2;
      const deltas = starts + 2 * segments;
      const ranges = deltas + 2 * segments;
      for (let s = 0; s < segments; s++) {
        const [start, end, delta, range] = [cmap.readUInt16BE(starts + 2 * s), cmap.readUInt16BE(ends + 2 * s), cmap.readInt16BE(deltas + 2 * s), cmap.readUInt16BE(ranges + 2 * s)];
        for (let c = start; c <= end && c !== 0xffff; c++) {
          const glyph = range === 0 ? (c + delta) & 0xffff : cmap.readUInt16BE(ranges + 2 * s + range + 2 * (c - start));
          if (glyph !== 0) map.set(c, range === 0 ? glyph : (glyph + delta) & 0xffff);
        }
      }
    } else if (format === 12) {
      const groups = cmap.readUInt32BE(offset + 12);
      for (let g = 0; g < groups; g++) {
        const at = offset + 16 + 12 * g;
        const [start, end, first] = [cmap.readUInt32BE(at), cmap.readUInt32BE(at + 4), cmap.readUInt32BE(at + 8)];
        for (let c = start; c <= end; c++) map.set(c, first + c - start);
      }
    }
  }
  return map;
}

/** Advance widths (ems) by character, and the vertical metrics, from a TrueType font's tables. */
export function fontMetrics(ttf: Buffer): Pick<CardFont, "advances" | "ascent" | "descent"> {
  const unitsPerEm = table(ttf, "head").readUInt16BE(18);
  const hhea = table(ttf, "hhea");
  const hmtx = table(ttf, "hmtx");
  const longMetrics = hhea.readUInt16BE(34);
  const advance = (glyph: number) => hmtx.readUInt16BE(4 * Math.min(glyph, longMetrics - 1));
  const advances = new Map<string, number>();
  for (const [c, glyph] of characterMap(ttf)) advances.set(String.fromCodePoint(c), advance(glyph) / unitsPerEm);
  return { advances, ascent: hhea.readInt16BE(4) / unitsPerEm, descent: -hhea.readInt16BE(6) / unitsPerEm };
}

let loaded: CardFont[] | undefined;

/** Every face of the card (three weights × two subsets), unpacked once per thread. */
export function loadCardFonts(): CardFont[] {
  loaded ??= CARD_FONT_WEIGHTS.flatMap((weight) =>
    SUBSETS.map((subset) => {
      const ttf = sfntFromWoff(readFileSync(require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`)));
      return { weight, ttf, ...fontMetrics(ttf) };
    }),
  );
  return loaded;
}

/**
 * The directory the TrueType files go to: this user's own, under the system's temporary directory
 * (`TMPDIR`), so the service's processes and workers share one copy.
 */
export function cardFontDirectory(): string {
  return join(tmpdir(), `ocean-conditions-fonts-${process.getuid?.() ?? "user"}`);
}

/**
 * Paths of the faces as TrueType files, for resvg. A file already there is used only if it holds
 * exactly these bytes; otherwise it is written (to a temporary name, then renamed, so a process
 * reading meanwhile never sees half a file). A directory that is not this user's alone (another
 * user made it first, or others may write to it) is not trusted: this process then uses a private
 * one of its own.
 */
export function cardFontFiles(fonts: CardFont[] = loadCardFonts(), directory = cardFontDirectory()): string[] {
  let dir = directory;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) dir = mkdtempSync(`${dir}-`);
  return fonts.map((f) => {
    const file = join(dir, `inter-${f.weight}-${createHash("sha256").update(f.ttf).digest("hex").slice(0, 16)}.ttf`);
    if (!holds(file, f.ttf)) {
      const partial = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
      try {
        writeFileSync(partial, f.ttf);
        renameSync(partial, file);
      } catch (err) {
        rmSync(partial, { force: true });
        throw err;
      }
    }
    return file;
  });
}

function holds(file: string, bytes: Buffer): boolean {
  try {
    return readFileSync(file).equals(bytes);
  } catch {
    return false;
  }
}
