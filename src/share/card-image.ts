// The 1200x630 share image of a spot card: a plain model of what is drawn, the satori element tree
// for it, and the renderer (satori → SVG → resvg → PNG) with a byte-bounded cache keyed by the
// model's content, ETags, and one render per key however many requests arrive at once.
import { createHash } from "node:crypto";
import type { Resvg as ResvgClass } from "@resvg/resvg-js";
import { LRUCache } from "lru-cache";
import type { Font, default as Satori } from "satori";
import { splitMetric } from "../format.js";
import type { SpotCardJson } from "../schemas/decisions.js";
import { CARD_CACHE_MAX_BYTES, CARD_HEIGHT, CARD_WIDTH } from "../limits.js";
import { typicalFor } from "../forecast/norms.js";
import { NO_DATA_COLOR } from "../forecast/tiers.js";
import { WIND_BANDS } from "../forecast/wind-words.js";
import { dateLabel, shortDate } from "../time/zone.js";
import { CARD_FONT_FAMILY, loadCardFonts } from "./fonts.js";
import { inkOn, PALETTE } from "./palette.js";

/** Bump when the layout changes, so cached images and ETags from the old layout are not reused. */
export const CARD_LAYOUT_VERSION = 3;

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

/**
 * What the image is drawn from: a spot-day as the decision layer judges it (src/decisions/spot-day.ts
 * passes its SpotDay). Declared here as plain values so the renderer, which the service context
 * holds, never imports the decisions above it.
 */
export interface CardImageInput {
  card: SpotCardJson;
  date: string;
  /** Spot-local today, which the relative date label is measured from. */
  today: string;
  activity: { label: string } | null;
  period: { seasonal: boolean } | null;
  why: string | null;
  /** Why the spot is not a pick (`code`: an excluded reason or a decision status), or null. */
  notice: { code: string; title: string; text: string } | null;
  spot: { region: { decision_support: "full" | "conditions_only" } };
}

/** The word the score block carries for each notice: a notice means the spot is not a pick. */
const UNRANKED_WORDS: Record<string, string> = {
  conditions_only: "Not ranked",
  activity_not_modeled: "Not ranked",
  closed_to_spearfishing: "Closed",
  closed_on_date: "Closed",
  no_data: "No forecast",
};

/** Why the card's score is not a ranking, or null when it is one (see CardImageModel.unranked). */
export function unrankedWord(day: Pick<CardImageInput, "notice" | "spot">): string | null {
  if (day.notice) return UNRANKED_WORDS[day.notice.code] ?? (day.notice.code.startsWith("unsuited") ? "Not suited" : "Not ranked");
  // A general card in a region published conditions_only rates conditions but ranks nothing.
  return day.spot.region.decision_support === "conditions_only" ? "Conditions only" : null;
}

export function cardImageModel(day: CardImageInput): CardImageModel {
  const c = day.card;
  const rel = dateLabel(day.date, day.today);
  const abs = shortDate(day.date);
  const metric = (label: string, v: string | null): CardMetric => (v === null ? { label, value: "–", sub: null } : { label, ...splitMetric(v) });
  return {
    spotName: c.spot_name,
    regionName: c.region_name,
    dateText: day.period?.seasonal ? `${typicalFor(day.date)} · ${abs}` : rel === abs ? abs : `${rel} · ${abs}`,
    activityText: day.activity?.label ?? "Conditions",
    tierLabel: c.tier_label,
    tierColor: c.tier_color,
    score: c.score,
    unranked: unrankedWord(day),
    window: c.best_window ? `${c.best_window.start_local}–${c.best_window.end_local}` : null,
    metrics: [
      metric("Visibility", c.metrics.visibility),
      metric("Swell", c.metrics.swell),
      windMetric(c.metrics.wind),
      metric("Water", c.metrics.water_temp),
    ],
    why: day.why,
    notice: day.notice ? { title: day.notice.title, text: day.notice.text } : null,
    attribution: c.attribution,
  };
}

/** "moderate breeze, 13 kt ENE gusting 23 (24 km/h)" → value "13 kt ENE gusting 23", sub "moderate breeze · 24 km/h": the word sits under the speed, in the widest column (METRIC_GROW). */
function windMetric(v: string | null): CardMetric {
  if (v === null) return { label: "Wind", value: "–", sub: null };
  const { value, sub } = splitMetric(v);
  const band = WIND_BANDS.find((b) => value.startsWith(`${b.word}, `));
  return band
    ? { label: "Wind", value: value.slice(band.word.length + 2), sub: [band.word, sub].filter(Boolean).join(" · ") }
    : { label: "Wind", value, sub };
}

// --- element tree (satori takes React-shaped objects; no JSX needed) ---

type Style = Record<string, string | number>;
type Child = SatoriElement | string | null | false;
interface SatoriElement {
  type: string;
  props: { style: Style; children?: (SatoriElement | string)[] | string };
}

function el(style: Style, ...children: Child[]): SatoriElement {
  const kept = children.filter((c): c is SatoriElement | string => c !== null && c !== false);
  return { type: "div", props: { style: { display: "flex", boxSizing: "border-box", ...style }, children: kept.length === 1 && typeof kept[0] === "string" ? kept[0] : kept } };
}

/**
 * Text held to `lines` lines. Callers size it with `fit` first so it is never cut; the clamp (with
 * an ellipsis) only keeps a layout intact should a measurement ever fall short, and the share-card
 * test fails on any ellipsis drawn.
 */
function text(style: Style, s: string, lines = 1): SatoriElement {
  return { type: "div", props: { style: { display: "block", lineClamp: lines, overflow: "hidden", ...style }, children: s } };
}

/** Advance widths of the card font's glyphs per weight, in ems, measured once by satori itself. */
export class TextWidths {
  constructor(readonly advances: ReadonlyMap<number, ReadonlyMap<string, number>>) {}

  /** Width in px of `s` on one line at `size` px and `weight` (an unmeasured glyph counts as wide). */
  width(s: string, size: number, weight: number): number {
    const table = this.advances.get(weight);
    let em = 0;
    for (const ch of s) em += table?.get(ch) ?? UNKNOWN_GLYPH_EM;
    return em * size;
  }
}

/** Wider than any Latin glyph of Inter at these weights, so an unmeasured character never overflows. */
const UNKNOWN_GLYPH_EM = 1;
/**
 * Lines are fitted short of their box: a few pixels for rounding, and a share of the width because
 * satori's line breaking measures some runs (a bracket before a word with an ʻokina) wider than
 * the words it then draws.
 */
const SAFETY_PX = 6;
const SAFETY_SHARE = 0.05;

/**
 * Lines `s` takes in `width` px, breaking only at spaces (satori may also break after a slash or a
 * hyphen, so this never counts fewer lines than it draws); Infinity when one word is wider than the box.
 */
export function linesNeeded(widths: TextWidths, s: string, width: number, size: number, weight: number): number {
  const room = width * (1 - SAFETY_SHARE) - SAFETY_PX;
  const space = widths.width(" ", size, weight);
  let lines = 1;
  let used = 0;
  for (const word of s.split(" ")) {
    const w = widths.width(word, size, weight);
    if (w > room) return Infinity;
    if (used === 0) used = w;
    else if (used + space + w <= room) used += space + w;
    else {
      lines++;
      used = w;
    }
  }
  return lines;
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

/** Characters measured: printable ASCII, Latin-1 and Latin Extended-A, and the punctuation cards use. */
const MEASURED = [
  ...Array.from({ length: 126 - 33 + 1 }, (_, i) => String.fromCharCode(33 + i)),
  ...Array.from({ length: 0x17f - 0xa1 + 1 }, (_, i) => String.fromCharCode(0xa1 + i)),
  ..."ʻʼ‘’“”–—…·•→≥≤",
];
const MEASURE_SIZE = 100;
const XML_ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&apos;": "'" };

/** Measures every MEASURED glyph (and the space) at each card weight in one satori layout per weight. */
export async function measureTextWidths(satori: typeof Satori, fonts: Font[]): Promise<TextWidths> {
  const advances = new Map<number, Map<string, number>>();
  for (const weight of [...new Set(fonts.map((f) => f.weight ?? 400))]) {
    // One glyph per word: satori lays out word by word, and without embedded fonts writes each as
    // a <text> element carrying its measured width.
    const probe = { type: "div", props: { style: { display: "flex", flexWrap: "wrap", width: 100_000, fontFamily: CARD_FONT_FAMILY, fontSize: MEASURE_SIZE, fontWeight: weight }, children: MEASURED.join(" ") } };
    const svg = await satori(probe as never, { width: 100_000, height: 400, fonts, embedFont: false });
    const table = new Map<string, number>();
    for (const m of svg.matchAll(/<text [^>]*\bwidth="([\d.]+)"[^>]*>([^<]*)<\/text>/g)) {
      const glyph = m[2]!.replace(/&[#\w]+;/g, (e) => XML_ENTITIES[e] ?? e);
      table.set(glyph, Number(m[1]) / MEASURE_SIZE);
    }
    advances.set(weight, table);
  }
  return new TextWidths(advances);
}

const PAD = 56;
const EDGE = 16;
/** Width inside the padding and the tier-coloured left edge, given explicitly so every row lines up. */
const INNER_W = CARD_WIDTH - 2 * PAD - EDGE;
const TIER_BLOCK_W = 300;
/**
 * Share of the metrics row per column: wind carries the most ("10 kt NE gusting 16" over "moderate
 * breeze · 19 km/h"), then swell; visibility and water are a few characters.
 */
const METRIC_GROW: Record<string, number> = { Visibility: 0.8, Swell: 1.35, Wind: 1.65, Water: 0.7 };

/** Width of the metrics panel's content, shared out by METRIC_GROW. */
const METRICS_PAD_X = 28;
const METRICS_W = INNER_W - 2 * METRICS_PAD_X;
const METRIC_GROW_TOTAL = Object.values(METRIC_GROW).reduce((a, b) => a + b, 0);
/** Gap between the metric columns, so neighbouring values never touch. */
const METRIC_GAP = 14;
const BRAND = "OCEAN CONDITIONS";
const BRAND_STYLE = { size: 22, weight: 700, letterSpacing: 3 };
/** Grey of an unranked score block's number and border, light enough to read on the raised navy. */
const UNRANKED_INK = "#C9D4E0";

/** Every text box on the card, sized to fit by the font's own measurements. */
export function cardElement(m: CardImageModel, widths: TextWidths): SatoriElement {
  const ranked = m.unranked === null;
  const edge = ranked ? m.tierColor : NO_DATA_COLOR;
  const ink = inkOn(m.tierColor);
  const leftWidth = INNER_W - TIER_BLOCK_W - 40;
  const name = fit(widths, m.spotName, leftWidth, { max: 68, min: 36, weight: 800, maxLines: 2, step: 2 });
  const brandWidth = widths.width(BRAND, BRAND_STYLE.size, BRAND_STYLE.weight) + BRAND.length * BRAND_STYLE.letterSpacing;
  const date = fit(widths, m.dateText, INNER_W - brandWidth - 24, { max: 26, min: 16, weight: 700 });
  const header = el(
    { justifyContent: "space-between", alignItems: "center", width: INNER_W },
    text({ fontSize: BRAND_STYLE.size, fontWeight: BRAND_STYLE.weight, letterSpacing: BRAND_STYLE.letterSpacing, color: PALETTE.mist }, BRAND),
    text({ fontSize: date.size, fontWeight: 700, color: PALETTE.foam }, m.dateText),
  );
  const subtitle = [m.regionName, m.activityText].filter(Boolean).join(" · ");
  const sub = fit(widths, subtitle, leftWidth, { max: 28, min: 18, weight: 400 });
  const noticeTitle = m.notice ? fit(widths, m.notice.title, leftWidth - 36, { max: 30, min: 20, weight: 800, maxLines: 2 }) : null;
  const windowOrNotice = m.notice
    ? el(
        { backgroundColor: PALETTE.notice, borderRadius: 12, padding: "8px 18px", marginTop: 18, alignSelf: "flex-start", maxWidth: leftWidth },
        text({ fontSize: noticeTitle!.size, fontWeight: 800, color: "#FFFFFF", lineHeight: 1.2 }, m.notice.title, noticeTitle!.lines),
      )
    : m.window
      ? el(
          { marginTop: 18, alignItems: "baseline" },
          text({ fontSize: 26, color: PALETTE.mist, marginRight: 14 }, "Best window"),
          text({ fontSize: 40, fontWeight: 800, color: "#FFFFFF" }, m.window),
        )
      : null;
  const left = el(
    { flexDirection: "column", width: leftWidth },
    text({ fontSize: name.size, fontWeight: 800, color: "#FFFFFF", lineHeight: 1.1, width: leftWidth }, m.spotName, name.lines),
    text({ fontSize: sub.size, color: PALETTE.mist, marginTop: 10, width: leftWidth }, subtitle),
    windowOrNotice,
  );
  const labelWidth = TIER_BLOCK_W - 24;
  const scoreText = m.score === null ? "–" : String(m.score);
  const tierBox = { flexDirection: "column", alignItems: "center", justifyContent: "center", width: TIER_BLOCK_W, height: 230, borderRadius: 28 } as const;
  const tierBlock = ranked
    ? el(
        { ...tierBox, backgroundColor: m.tierColor },
        text({ fontSize: 128, fontWeight: 800, color: ink, lineHeight: 1 }, scoreText),
        // "Excellent · seasonal norm" wraps to two smaller lines under the score.
        tierLabel(widths, m.tierLabel, ink, labelWidth),
      )
    : // Not a ranking: no tier colour, a smaller grey number named for what it is, and the reason.
      el(
        { ...tierBox, backgroundColor: PALETTE.navyRaised, border: `3px solid ${NO_DATA_COLOR}` },
        text({ fontSize: 18, fontWeight: 700, letterSpacing: 2, color: PALETTE.mist }, "CONDITIONS SCORE"),
        text({ fontSize: 84, fontWeight: 800, color: UNRANKED_INK, lineHeight: 1, marginTop: 4 }, scoreText),
        tierLabel(widths, m.unranked!, PALETTE.foam, labelWidth),
      );
  const metricWidth = (label: string) => (METRICS_W * (METRIC_GROW[label] ?? 1)) / METRIC_GROW_TOTAL - METRIC_GAP;
  const metrics = el(
    { width: INNER_W, justifyContent: "space-between", backgroundColor: PALETTE.navyRaised, borderRadius: 20, padding: `18px ${METRICS_PAD_X}px` },
    ...m.metrics.map((x, i) => {
      const w = metricWidth(x.label);
      const value = fit(widths, x.value, w, { max: 30, min: 20, weight: 800, maxLines: 2 });
      const subFit = fit(widths, x.sub ?? " ", w, { max: 20, min: 14, weight: 400, maxLines: 2 });
      return el(
        { flexDirection: "column", flexGrow: METRIC_GROW[x.label] ?? 1, flexBasis: 0, paddingRight: i === m.metrics.length - 1 ? 0 : METRIC_GAP },
        text({ fontSize: 18, fontWeight: 700, letterSpacing: 2, color: PALETTE.mist }, x.label.toUpperCase()),
        text({ fontSize: value.size, fontWeight: 800, color: "#FFFFFF", marginTop: 4, lineHeight: 1.15 }, x.value, value.lines),
        text({ fontSize: subFit.size, color: PALETTE.mist, marginTop: 2, lineHeight: 1.2 }, x.sub ?? " ", subFit.lines),
      );
    }),
  );
  const reason = m.notice?.text ?? m.why;
  const reasonFit = reason ? fit(widths, reason, INNER_W, { max: 25, min: 16, weight: 400, maxLines: 3 }) : null;
  // Two lines at the full size is the layout's budget; a third line only comes with a smaller size.
  const reasonSize = reasonFit && reasonFit.lines === 3 ? Math.min(reasonFit.size, 17) : reasonFit?.size;
  const credit = fit(widths, m.attribution, INNER_W / 2 - 12, { max: 20, min: 13, weight: 400 });
  const footer = el(
    { justifyContent: "space-between", width: INNER_W },
    text({ fontSize: credit.size, color: PALETTE.mist }, m.attribution),
    text({ fontSize: 20, color: PALETTE.mist }, "Estimates for planning, not a safety guarantee"),
  );
  return el(
    {
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      flexDirection: "column",
      justifyContent: "space-between",
      padding: `${PAD - 12}px ${PAD}px ${PAD - 16}px ${PAD}px`,
      backgroundColor: PALETTE.navy,
      borderLeft: `${EDGE}px solid ${edge}`,
      fontFamily: CARD_FONT_FAMILY,
    },
    header,
    el({ justifyContent: "space-between", alignItems: "center", width: INNER_W }, left, tierBlock),
    metrics,
    reason ? text({ fontSize: reasonSize!, color: PALETTE.foam, lineHeight: 1.3, width: INNER_W }, reason, reasonFit!.lines) : el({ height: 33 }),
    footer,
  );
}

/** The word under the score: one line at 36 px when it fits, else up to two smaller lines. */
function tierLabel(widths: TextWidths, label: string, ink: string, width: number): SatoriElement {
  const f = fit(widths, label, width, { max: 36, min: 22, weight: 800, maxLines: 2 });
  const size = f.lines === 1 ? f.size : Math.min(f.size, 26);
  return text({ fontSize: size, fontWeight: 800, color: ink, marginTop: 6, textAlign: "center", width, lineHeight: 1.15 }, label, f.lines);
}

// --- rendering and caching ---

export interface RenderedCard {
  png: Buffer;
  etag: string;
}

/** The renderer's libraries and fonts, loaded on first use (they add ~150 ms and ~30 MB to start-up). */
export interface Engine {
  satori: typeof Satori;
  Resvg: typeof ResvgClass;
  fonts: Font[];
  widths: TextWidths;
}

export async function loadEngine(fonts?: Font[]): Promise<Engine> {
  const [s, r] = await Promise.all([import("satori"), import("@resvg/resvg-js")]);
  const f = fonts ?? loadCardFonts();
  return { satori: s.default, Resvg: r.Resvg, fonts: f, widths: await measureTextWidths(s.default, f) };
}

/** The card's SVG; `embedFont: false` writes text as <text> elements (tests read what is drawn). */
export function cardSvg(engine: Engine, model: CardImageModel, opts: { embedFont?: boolean } = {}): Promise<string> {
  return engine.satori(cardElement(model, engine.widths), { width: CARD_WIDTH, height: CARD_HEIGHT, fonts: engine.fonts, embedFont: opts.embedFont ?? true });
}

/** satori → SVG → resvg → PNG for one model (in this thread; the pool runs it in its workers). */
export async function drawCard(engine: Engine, model: CardImageModel): Promise<Buffer> {
  const svg = await cardSvg(engine, model);
  return new engine.Resvg(svg, { fitTo: { mode: "original" }, font: { loadSystemFonts: false } }).render().asPng();
}

/** A renderer in this thread, loaded on first use (the render workers each hold one). */
export function localRenderer(fonts?: Font[]): { render(model: CardImageModel): Promise<Buffer>; warm(): Promise<void> } {
  let engine: Promise<Engine> | undefined;
  const load = () => (engine ??= loadEngine(fonts));
  return {
    render: async (model) => drawCard(await load(), model),
    async warm() {
      const { satori, fonts: f } = await load();
      await satori(el({ fontFamily: CARD_FONT_FAMILY }, "warm"), { width: 10, height: 10, fonts: f });
    },
  };
}

/** Where PNGs are drawn: this thread, or a pool of worker threads (src/share/render-pool.ts). */
export interface CardRenderer {
  /** `owner` (the caller's counter key) bounds one caller's share of a shared renderer. */
  render(model: CardImageModel, owner?: string): Promise<Buffer>;
  warm(): Promise<void>;
  close?(): Promise<void>;
}

/**
 * Rendered PNGs by content key, scan-resistant: a card enters a probation segment (a fifth of the
 * bytes) and moves to the protected segment on its second request. A client cycling through every
 * distinct card only churns probation; cards that people keep asking for stay in protected.
 */
class CardCache {
  readonly #probation: LRUCache<string, Buffer>;
  readonly #protected: LRUCache<string, Buffer>;

  constructor(maxBytes: number) {
    const probationBytes = Math.max(1, Math.floor(maxBytes / 5));
    this.#probation = new LRUCache({ maxSize: probationBytes, sizeCalculation: (png) => png.length });
    // Evicted from protected: back to probation, where one more request promotes it again.
    this.#protected = new LRUCache({
      maxSize: Math.max(1, maxBytes - probationBytes),
      sizeCalculation: (png) => png.length,
      dispose: (png, key, reason) => {
        if (reason === "evict") this.#probation.set(key, png);
      },
    });
  }

  get(key: string): Buffer | undefined {
    const hot = this.#protected.get(key);
    if (hot) return hot;
    const warm = this.#probation.get(key);
    if (warm) {
      this.#probation.delete(key);
      this.#protected.set(key, warm);
    }
    return warm;
  }

  has(key: string): boolean {
    return this.#protected.has(key) || this.#probation.has(key);
  }

  set(key: string, png: Buffer): void {
    this.#probation.set(key, png);
  }
}

export class CardImages {
  readonly #renderer: CardRenderer;
  readonly #cache: CardCache;
  readonly #inflight = new Map<string, Promise<Buffer>>();
  #renders = 0;

  constructor(opts: { fonts?: Font[]; maxBytes?: number; renderer?: CardRenderer } = {}) {
    this.#renderer = opts.renderer ?? localRenderer(opts.fonts);
    this.#cache = new CardCache(opts.maxBytes ?? CARD_CACHE_MAX_BYTES);
  }

  /** PNGs rendered so far (cache misses); tests count these. */
  get renders(): number {
    return this.#renders;
  }

  /** Content key of a model: also its ETag, so a revalidation needs no render. */
  etag(model: CardImageModel): string {
    const digest = createHash("sha256").update(JSON.stringify([CARD_LAYOUT_VERSION, model])).digest("base64url");
    return `"card-${digest.slice(0, 32)}"`;
  }

  /** Whether a request for this card would be answered without drawing it (cached or being drawn). */
  isReady(etag: string): boolean {
    return this.#cache.has(etag) || this.#inflight.has(etag);
  }

  /**
   * The PNG of a model, from the cache or rendered once; pass the model's ETag when already known,
   * and the caller's counter key as `owner` (a render is charged to the caller that starts it).
   */
  async get(model: CardImageModel, etag = this.etag(model), owner?: string): Promise<RenderedCard> {
    const hit = this.#cache.get(etag);
    if (hit) return { png: hit, etag };
    let pending = this.#inflight.get(etag);
    if (!pending) {
      pending = this.render(model, owner)
        .then((png) => {
          this.#cache.set(etag, png);
          return png;
        })
        .finally(() => this.#inflight.delete(etag));
      this.#inflight.set(etag, pending);
    }
    return { png: await pending, etag };
  }

  /** Renders without the cache. */
  async render(model: CardImageModel, owner?: string): Promise<Buffer> {
    this.#renders++;
    return this.#renderer.render(model, owner);
  }

  /** Loads the renderer and parses the fonts ahead of the first request (satori parses them on first use, ~250 ms). */
  warm(): Promise<void> {
    return this.#renderer.warm();
  }

  async close(): Promise<void> {
    await this.#renderer.close?.();
  }
}
