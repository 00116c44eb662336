// The share image drawn: the card's layout as SVG, by hand (rows and boxes at computed positions,
// each line of text fitted with the fonts' own advance widths and placed as a <text> element), and
// resvg rasterising it to PNG with the same fonts. What is drawn comes in as a plain model
// (card-image.ts builds it); this module imports nothing of the service's data, so a render worker
// loads only this, the fonts and resvg.
import { existsSync } from "node:fs";
import type { Resvg as ResvgClass } from "@resvg/resvg-js";
import { CARD_HEIGHT, CARD_WIDTH } from "./card-size.js";
import { NO_DATA_COLOR } from "../../model/tiers.js";
import { CARD_FONT_FAMILY, CARD_FONT_WEIGHTS, cardFontFiles, loadCardFonts, type CardFont } from "./fonts.js";
import { esc } from "./escape.js";
import { inkOn, PALETTE } from "./palette.js";

/** Bump when the layout changes, so cached images and ETags from the old layout are not reused. */
export const CARD_LAYOUT_VERSION = 4;

export interface CardMetric {
  label: string;
  /** Main value in US units, e.g. "1.8 ft NE @ 8 s". */
  value: string;
  /** Metric conversion, e.g. "0.5 m", or null. */
  sub: string | null;
}

/** Everything the image shows, as plain values: equal models draw equal images. */
export interface CardImageModel {
  spotName: string;
  regionName: string | null;
  /** "Tomorrow · Sun, Nov 22", or just "Thu, Nov 26": a shared image outlives "Today". */
  dateText: string;
  activityText: string;
  tierLabel: string;
  tierColor: string;
  score: number | null;
  /**
   * Null when the score stands as a rating; otherwise why it does not ("Not ranked", "Closed"…),
   * and the score block is then drawn grey with this word instead of the tier colour and label.
   */
  unranked: string | null;
  /** "06:00–09:00" (spot-local), or null. */
  window: string | null;
  metrics: CardMetric[];
  why: string | null;
  notice: { title: string; text: string } | null;
  attribution: string;
}

// --- layout: the card drawn as SVG by hand, text placed line by line ---

/** Advance widths of the card font's glyphs per weight, in ems, read from the fonts' own tables. */
export class TextWidths {
  constructor(readonly advances: ReadonlyMap<number, ReadonlyMap<string, number>>) {}

  /** Both subsets of each weight merged, Latin first (resvg falls back between them the same way). */
  static of(fonts: readonly CardFont[]): TextWidths {
    const advances = new Map<number, Map<string, number>>();
    for (const f of fonts) {
      const table = advances.get(f.weight) ?? new Map<string, number>();
      for (const [ch, em] of f.advances) if (!table.has(ch)) table.set(ch, em);
      advances.set(f.weight, table);
    }
    return new TextWidths(advances);
  }

  /** Width in px of `s` on one line at `size` px and `weight` (an unmapped glyph counts as wide). */
  width(s: string, size: number, weight: number, letterSpacing = 0): number {
    const table = this.advances.get(weight);
    let em = 0;
    let chars = 0;
    for (const ch of s) {
      em += table?.get(ch) ?? UNKNOWN_GLYPH_EM;
      chars++;
    }
    return em * size + chars * letterSpacing;
  }
}

/** Wider than any Latin glyph of Inter at these weights, so an unmapped character never overflows. */
const UNKNOWN_GLYPH_EM = 1;
/**
 * Lines are fitted short of their box: a few pixels for rounding, and a share of the width because
 * resvg shapes the text (kerning, and a fallback face for a glyph one subset lacks) while the fit
 * adds up advance widths.
 */
const SAFETY_PX = 6;
const SAFETY_SHARE = 0.05;
const ELLIPSIS = "…";

function room(width: number): number {
  return width * (1 - SAFETY_SHARE) - SAFETY_PX;
}

/**
 * `s` broken into lines of at most `width` px, at spaces. A word wider than the box alone makes it
 * null, unless `split` is set: then such a word is cut between characters, as a last resort.
 */
export function breakLines(widths: TextWidths, s: string, width: number, size: number, weight: number, split = false): string[] | null {
  const max = room(width);
  const space = widths.width(" ", size, weight);
  const lines: string[] = [];
  let line = "";
  let used = 0;
  const words: string[] = [];
  for (const word of s.split(" ")) {
    if (widths.width(word, size, weight) <= max) words.push(word);
    else if (!split) return null;
    else {
      // As many characters as fit, then the rest on the next piece.
      let piece = "";
      for (const ch of word) {
        if (piece !== "" && widths.width(piece + ch, size, weight) > max) {
          words.push(piece);
          piece = "";
        }
        piece += ch;
      }
      words.push(piece);
    }
  }
  for (const word of words) {
    const w = widths.width(word, size, weight);
    if (line === "") {
      line = word;
      used = w;
    } else if (used + space + w <= max) {
      line += ` ${word}`;
      used += space + w;
    } else {
      lines.push(line);
      line = word;
      used = w;
    }
  }
  lines.push(line);
  return lines;
}

/** Lines `s` takes in `width` px; Infinity when one word is wider than the box. */
export function linesNeeded(widths: TextWidths, s: string, width: number, size: number, weight: number): number {
  return breakLines(widths, s, width, size, weight)?.length ?? Infinity;
}

export interface Fit {
  size: number;
  lines: number;
}

/**
 * The largest size from `max` down to `min` (then on more lines, up to `maxLines`) at which `s`
 * fits `width` px. Past that the smallest size on the most lines: the clamp is the last resort.
 */
export function fit(widths: TextWidths, s: string, width: number, o: { max: number; min: number; weight: number; maxLines?: number; step?: number }): Fit {
  const maxLines = o.maxLines ?? 1;
  const step = o.step ?? 1;
  for (let lines = 1; lines <= maxLines; lines++) {
    for (let size = o.max; size >= o.min; size -= step) {
      if (linesNeeded(widths, s, width, size, o.weight) <= lines) return { size, lines };
    }
  }
  return { size: o.min, lines: maxLines };
}

/**
 * The lines drawn for `s` in `width` px, at most `maxLines`. Callers size text with `fit` first so
 * it is never cut; the clamp (an ellipsis) only keeps the layout intact should a measurement ever
 * fall short, and the share-card test fails on any ellipsis drawn.
 */
export function clampLines(widths: TextWidths, s: string, width: number, size: number, weight: number, maxLines: number): string[] {
  if (maxLines < 1) return [];
  const max = room(width);
  const lines = breakLines(widths, s, width, size, weight, true)!;
  if (lines.length <= maxLines) return lines;
  let last = lines.slice(maxLines - 1).join(" ");
  while (last.length > 0 && widths.width(last + ELLIPSIS, size, weight) > max) last = [...last].slice(0, -1).join("");
  return [...lines.slice(0, maxLines - 1), last.trimEnd() + ELLIPSIS];
}

const PAD = 56;
const EDGE = 16;
/** Width inside the padding and the tier-coloured left edge, given explicitly so every row lines up. */
const INNER_W = CARD_WIDTH - 2 * PAD - EDGE;
const LEFT_X = EDGE + PAD;
const RIGHT_X = LEFT_X + INNER_W;
const TOP = PAD - 12;
const BOTTOM = CARD_HEIGHT - (PAD - 16);
const TIER_BLOCK_W = 300;
const TIER_BLOCK_H = 230;
/**
 * Share of the metrics row per column: wind carries the most ("10 kt NE gusting 16" over "moderate
 * breeze · 19 km/h"), then swell; visibility and water are a few characters.
 */
const METRIC_GROW: Record<string, number> = { Visibility: 0.8, Swell: 1.35, Wind: 1.65, Water: 0.7 };

/** Width of the metrics panel's content, shared out by METRIC_GROW. */
const METRICS_PAD_X = 28;
const METRICS_PAD_Y = 18;
const METRICS_W = INNER_W - 2 * METRICS_PAD_X;
const METRIC_GROW_TOTAL = Object.values(METRIC_GROW).reduce((a, b) => a + b, 0);
/** Gap between the metric columns, so neighbouring values never touch. */
const METRIC_GAP = 14;
const BRAND = "OCEAN CONDITIONS";
const BRAND_STYLE = { size: 22, weight: 700, letterSpacing: 3 };
/** Grey of an unranked score block's number and border, light enough to read on the raised navy. */
const UNRANKED_INK = "#C9D4E0";
/** Largest size of the reason by its number of lines. */
const REASON_CAP: Record<number, number> = { 3: 17, 4: 15 };
/** Height of the reason's row when a card has none, so the rows keep their places. */
const NO_REASON_H = 33;

/** How text sits in its line box: the font's ascent and descent, in ems (CSS's "normal" line height is their sum). */
export interface VerticalMetrics {
  ascent: number;
  descent: number;
}

interface TextStyle {
  size: number;
  weight: number;
  color: string;
  /** Line height as a multiple of the size; the font's own ("normal") when absent. */
  lineHeight?: number;
  letterSpacing?: number;
  anchor?: "start" | "middle" | "end";
}

/** The card's drawing, built top to bottom: SVG fragments and the text layout's measures. */
class Canvas {
  readonly parts: string[] = [];
  constructor(readonly v: VerticalMetrics) {}

  lineHeight(t: TextStyle): number {
    return (t.lineHeight ?? this.v.ascent + this.v.descent) * t.size;
  }

  /** Height of `lines` lines of text in this style. */
  height(t: TextStyle, lines: number): number {
    return lines * this.lineHeight(t);
  }

  /** Baseline of a line whose box starts at `top`: half the leading above the glyphs, as CSS places it. */
  baseline(t: TextStyle, top: number): number {
    return top + (this.lineHeight(t) - (this.v.ascent + this.v.descent) * t.size) / 2 + this.v.ascent * t.size;
  }

  text(t: TextStyle, lines: string[], x: number, top: number): void {
    const attrs = `font-family="${CARD_FONT_FAMILY}" font-size="${t.size}" font-weight="${t.weight}" fill="${esc(t.color)}"${t.letterSpacing ? ` letter-spacing="${t.letterSpacing}"` : ""}${t.anchor && t.anchor !== "start" ? ` text-anchor="${t.anchor}"` : ""}`;
    lines.forEach((line, i) => {
      const y = this.baseline(t, top + i * this.lineHeight(t));
      this.parts.push(`<text x="${round(x)}" y="${round(y)}" ${attrs}>${esc(line)}</text>`);
    });
  }

  rect(x: number, y: number, w: number, h: number, fill: string, extra = ""): void {
    this.parts.push(`<rect x="${round(x)}" y="${round(y)}" width="${round(w)}" height="${round(h)}" fill="${esc(fill)}"${extra}/>`);
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The card as SVG: every text box sized to fit by the font's own measurements, drawn as <text>. */
export function cardSvg(engine: Pick<Engine, "widths" | "metrics">, m: CardImageModel): string {
  const { widths } = engine;
  const c = new Canvas(engine.metrics);
  const ranked = m.unranked === null;
  const ink = inkOn(m.tierColor);
  const leftWidth = INNER_W - TIER_BLOCK_W - 40;

  // Header: the brand, and the date right-aligned beside it.
  const brand: TextStyle = { ...BRAND_STYLE, color: PALETTE.mist };
  const brandWidth = widths.width(BRAND, BRAND_STYLE.size, BRAND_STYLE.weight, BRAND_STYLE.letterSpacing);
  const dateFit = fit(widths, m.dateText, INNER_W - brandWidth - 24, { max: 26, min: 16, weight: 700 });
  const date: TextStyle = { size: dateFit.size, weight: 700, color: PALETTE.foam, anchor: "end" };
  const headerH = Math.max(c.height(brand, 1), c.height(date, 1));

  // Middle row: name, subtitle and window or notice on the left; the score block on the right.
  const nameFit = fit(widths, m.spotName, leftWidth, { max: 68, min: 36, weight: 800, maxLines: 2, step: 2 });
  const name: TextStyle = { size: nameFit.size, weight: 800, color: "#FFFFFF", lineHeight: 1.1 };
  const nameLines = clampLines(widths, m.spotName, leftWidth, name.size, name.weight, nameFit.lines);
  const subtitleText = [m.regionName, m.activityText].filter(Boolean).join(" · ");
  // A long region name ("Raja Ampat: Dampier Strait (Kri, Mansuar, Arborek & south Waigeo)") takes a second line.
  const subtitleFit = fit(widths, subtitleText, leftWidth, { max: 28, min: 18, weight: 400, maxLines: 2 });
  const subtitle: TextStyle = { size: subtitleFit.size, weight: 400, color: PALETTE.mist, lineHeight: 1.2 };
  const subtitleLines = clampLines(widths, subtitleText, leftWidth, subtitle.size, subtitle.weight, subtitleFit.lines);
  let leftH = c.height(name, nameLines.length) + 10 + c.height(subtitle, subtitleLines.length);
  let extra: ((top: number) => void) | null = null;
  if (m.notice) {
    // A red box around the notice's title, as wide as its longest line.
    const titleFit = fit(widths, m.notice.title, leftWidth - 36, { max: 30, min: 20, weight: 800, maxLines: 2 });
    const title: TextStyle = { size: titleFit.size, weight: 800, color: "#FFFFFF", lineHeight: 1.2 };
    const lines = clampLines(widths, m.notice.title, leftWidth - 36, title.size, title.weight, titleFit.lines);
    const boxW = Math.min(leftWidth, Math.max(...lines.map((l) => widths.width(l, title.size, title.weight))) + 36);
    const boxH = c.height(title, lines.length) + 16;
    leftH += 18 + boxH;
    extra = (top) => {
      c.rect(LEFT_X, top + 18, boxW, boxH, PALETTE.notice, ` rx="12"`);
      c.text(title, lines, LEFT_X + 18, top + 26);
    };
  } else if (m.window) {
    // "Best window 06:00–09:00", the two sizes on one baseline.
    const label: TextStyle = { size: 26, weight: 400, color: PALETTE.mist };
    const time: TextStyle = { size: 40, weight: 800, color: "#FFFFFF" };
    const rowH = c.height(time, 1);
    leftH += 18 + rowH;
    extra = (top) => {
      const baseline = c.baseline(time, top + 18);
      const labelTop = baseline - c.baseline(label, 0);
      c.text(label, ["Best window"], LEFT_X, labelTop);
      c.text(time, [m.window!], LEFT_X + widths.width("Best window", label.size, label.weight) + 14, top + 18);
    };
  }
  const middleH = Math.max(leftH, TIER_BLOCK_H);

  // Metrics panel: four columns sharing the width by METRIC_GROW.
  const metricLabel: TextStyle = { size: 18, weight: 700, color: PALETTE.mist, letterSpacing: 2 };
  let x = LEFT_X + METRICS_PAD_X;
  const columns = m.metrics.map((metric, i) => {
    const colW = (METRICS_W * (METRIC_GROW[metric.label] ?? 1)) / METRIC_GROW_TOTAL;
    const w = colW - METRIC_GAP;
    const at = x;
    x += colW;
    const valueFit = fit(widths, metric.value, w, { max: 30, min: 20, weight: 800, maxLines: 2 });
    const value: TextStyle = { size: valueFit.size, weight: 800, color: "#FFFFFF", lineHeight: 1.15 };
    const valueLines = clampLines(widths, metric.value, w, value.size, value.weight, valueFit.lines);
    const subText = metric.sub ?? "";
    const subFit = fit(widths, subText || " ", w, { max: 20, min: 14, weight: 400, maxLines: 2 });
    const sub: TextStyle = { size: subFit.size, weight: 400, color: PALETTE.mist, lineHeight: 1.2 };
    const subLines = subText ? clampLines(widths, subText, w, sub.size, sub.weight, subFit.lines) : [];
    const h = c.height(metricLabel, 1) + 4 + c.height(value, valueLines.length) + 2 + c.height(sub, Math.max(1, subLines.length));
    return { metric, at, value, valueLines, sub, subLines, h, last: i === m.metrics.length - 1 };
  });
  const metricsH = 2 * METRICS_PAD_Y + Math.max(...columns.map((col) => col.h));

  // The reason (the notice's text, or why the day scores as it does): two lines at full size is the
  // layout's budget; a third line only comes with a smaller size, a fourth smaller still.
  const reasonText = m.notice?.text ?? m.why;
  let reason: { style: TextStyle; lines: string[] } | null = null;
  if (reasonText) {
    const f = fit(widths, reasonText, INNER_W, { max: 25, min: 15, weight: 400, maxLines: 4 });
    const style: TextStyle = { size: Math.min(f.size, REASON_CAP[f.lines] ?? f.size), weight: 400, color: PALETTE.foam, lineHeight: 1.3 };
    reason = { style, lines: clampLines(widths, reasonText, INNER_W, style.size, style.weight, f.lines) };
  }
  const reasonH = reason ? c.height(reason.style, reason.lines.length) : NO_REASON_H;

  // Footer: the attribution, and the disclaimer right-aligned.
  const creditFit = fit(widths, m.attribution, INNER_W / 2 - 12, { max: 20, min: 13, weight: 400 });
  const credit: TextStyle = { size: creditFit.size, weight: 400, color: PALETTE.mist };
  const disclaimer: TextStyle = { size: 20, weight: 400, color: PALETTE.mist, anchor: "end" };
  const footerH = Math.max(c.height(credit, 1), c.height(disclaimer, 1));

  // The five rows spread over the height, as much space between each.
  const gap = Math.max(0, (BOTTOM - TOP - headerH - middleH - metricsH - reasonH - footerH) / 4);
  c.rect(0, 0, CARD_WIDTH, CARD_HEIGHT, PALETTE.navy);
  c.rect(0, 0, EDGE, CARD_HEIGHT, ranked ? m.tierColor : NO_DATA_COLOR);

  let top = TOP;
  c.text(brand, [BRAND], LEFT_X, top + (headerH - c.height(brand, 1)) / 2);
  c.text(date, clampLines(widths, m.dateText, INNER_W - brandWidth - 24, date.size, date.weight, 1), RIGHT_X, top + (headerH - c.height(date, 1)) / 2);
  top += headerH + gap;

  const leftTop = top + (middleH - leftH) / 2;
  c.text(name, nameLines, LEFT_X, leftTop);
  const subtitleTop = leftTop + c.height(name, nameLines.length) + 10;
  c.text(subtitle, subtitleLines, LEFT_X, subtitleTop);
  extra?.(subtitleTop + c.height(subtitle, subtitleLines.length));
  drawScoreBlock(c, widths, m, ink, RIGHT_X - TIER_BLOCK_W, top + (middleH - TIER_BLOCK_H) / 2);
  top += middleH + gap;

  c.rect(LEFT_X, top, INNER_W, metricsH, PALETTE.navyRaised, ` rx="20"`);
  for (const col of columns) {
    let y = top + METRICS_PAD_Y;
    c.text(metricLabel, [col.metric.label.toUpperCase()], col.at, y);
    y += c.height(metricLabel, 1) + 4;
    c.text(col.value, col.valueLines, col.at, y);
    y += c.height(col.value, col.valueLines.length) + 2;
    c.text(col.sub, col.subLines, col.at, y);
  }
  top += metricsH + gap;

  if (reason) c.text(reason.style, reason.lines, LEFT_X, top);
  top += reasonH + gap;

  c.text(credit, clampLines(widths, m.attribution, INNER_W / 2 - 12, credit.size, credit.weight, 1), LEFT_X, top + (footerH - c.height(credit, 1)) / 2);
  c.text(disclaimer, ["Estimates for planning, not a safety guarantee"], RIGHT_X, top + (footerH - c.height(disclaimer, 1)) / 2);

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">${c.parts.join("")}</svg>`;
}

/**
 * The score block: the tier colour with the score and its label; or, when the score is not a
 * ranking, a grey frame on navy with a smaller grey number named for what it is, and the reason.
 */
function drawScoreBlock(c: Canvas, widths: TextWidths, m: CardImageModel, ink: string, x: number, y: number): void {
  const labelWidth = TIER_BLOCK_W - 24;
  const center = x + TIER_BLOCK_W / 2;
  const scoreText = m.score === null ? "–" : String(m.score);
  const ranked = m.unranked === null;
  const word = ranked ? m.tierLabel : m.unranked!;
  // "Excellent · seasonal norm" wraps to two smaller lines under the score.
  const labelFit = fit(widths, word, labelWidth, { max: 36, min: 22, weight: 800, maxLines: 2 });
  const label: TextStyle = { size: labelFit.lines === 1 ? labelFit.size : Math.min(labelFit.size, 26), weight: 800, color: ranked ? ink : PALETTE.foam, lineHeight: 1.15, anchor: "middle" };
  const labelLines = clampLines(widths, word, labelWidth, label.size, label.weight, labelFit.lines);
  const heading: TextStyle = { size: 18, weight: 700, color: PALETTE.mist, letterSpacing: 2, anchor: "middle" };
  const score: TextStyle = ranked ? { size: 128, weight: 800, color: ink, lineHeight: 1, anchor: "middle" } : { size: 84, weight: 800, color: UNRANKED_INK, lineHeight: 1, anchor: "middle" };
  const headingH = ranked ? 0 : c.height(heading, 1) + 4;
  const contentH = headingH + c.height(score, 1) + 6 + c.height(label, labelLines.length);
  let top = y + (TIER_BLOCK_H - contentH) / 2;
  if (ranked) c.rect(x, y, TIER_BLOCK_W, TIER_BLOCK_H, m.tierColor, ` rx="28"`);
  else {
    // A 3 px border drawn inside the box, as CSS draws one.
    c.rect(x + 1.5, y + 1.5, TIER_BLOCK_W - 3, TIER_BLOCK_H - 3, PALETTE.navyRaised, ` rx="26.5" stroke="${NO_DATA_COLOR}" stroke-width="3"`);
    // Letter spacing trails the last letter; half of it back keeps the heading centred.
    c.text(heading, ["CONDITIONS SCORE"], center + (heading.letterSpacing ?? 0) / 2, top);
    top += headingH;
  }
  c.text(score, [scoreText], center, top);
  top += c.height(score, 1) + 6;
  c.text(label, labelLines, center, top);
}

/** The renderer's library and fonts, loaded on first use (resvg's native module and the unpacked fonts). */
export interface Engine {
  Resvg: typeof ResvgClass;
  fonts: CardFont[];
  /** Where the TrueType files go: the user's shared directory unless a test names another. */
  fontDirectory: string | undefined;
  /** The faces as TrueType files resvg reads (src/services/render/fonts.ts); written again should they vanish. */
  fontFiles: string[];
  widths: TextWidths;
  metrics: VerticalMetrics;
}

export async function loadEngine(fonts: CardFont[] = loadCardFonts(), fontDirectory?: string): Promise<Engine> {
  const { Resvg } = await import("@resvg/resvg-js");
  return { Resvg, fonts, fontDirectory, fontFiles: cardFontFiles(fonts, fontDirectory), widths: TextWidths.of(fonts), metrics: { ascent: fonts[0]!.ascent, descent: fonts[0]!.descent } };
}

function rasterise(engine: Engine, svg: string): Buffer {
  // resvg reads the files on every render and draws no text, without an error, from a missing one:
  // a temporary-file cleaner must not turn cards blank.
  if (!engine.fontFiles.every((f) => existsSync(f))) engine.fontFiles = cardFontFiles(engine.fonts, engine.fontDirectory);
  const font = { loadSystemFonts: false, fontFiles: engine.fontFiles, defaultFontFamily: CARD_FONT_FAMILY };
  return new engine.Resvg(svg, { fitTo: { mode: "original" }, font }).render().asPng();
}

/** SVG → resvg → PNG for one model (in this thread; the pool runs it in its workers). */
export async function drawCard(engine: Engine, model: CardImageModel): Promise<Buffer> {
  return rasterise(engine, cardSvg(engine, model));
}

/** A renderer in this thread, loaded on first use (the render workers each hold one). */
export function localRenderer(fonts?: CardFont[], fontDirectory?: string): { render(model: CardImageModel): Promise<Buffer>; warm(): Promise<void> } {
  let engine: Promise<Engine> | undefined;
  // A load that failed (no writable directory for the font files) is tried again on the next card.
  const load = () =>
    (engine ??= loadEngine(fonts, fontDirectory).catch((err: unknown) => {
      engine = undefined;
      throw err;
    }));
  return {
    render: async (model) => drawCard(await load(), model),
    async warm() {
      // One word in each weight: resvg's text path (font loading, shaping) runs once before a card needs it.
      const e = await load();
      const words = CARD_FONT_WEIGHTS.map((w, i) => `<text x="0" y="${12 * (i + 1)}" font-family="${CARD_FONT_FAMILY}" font-size="10" font-weight="${w}">Aa</text>`);
      rasterise(e, `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">${words.join("")}</svg>`);
    },
  };
}
