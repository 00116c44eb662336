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
import { WIND_BANDS } from "../forecast/wind-words.js";
import { dateLabel, shortDate } from "../time/zone.js";
import { CARD_FONT_FAMILY, loadCardFonts } from "./fonts.js";
import { inkOn, PALETTE } from "./palette.js";

/** Bump when the layout changes, so cached images and ETags from the old layout are not reused. */
export const CARD_LAYOUT_VERSION = 2;

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
  notice: { title: string; text: string } | null;
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

/** Text clamped to `lines` lines with an ellipsis, so a long name or reason never spills out. */
function text(style: Style, s: string, lines = 1): SatoriElement {
  return { type: "div", props: { style: { display: "block", lineClamp: lines, overflow: "hidden", ...style }, children: s } };
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

/** Long names step down in size so two lines hold them ("Kealakekua Bay (Kaʻawaloa / Cook Monument)"). */
function nameFontSize(name: string): number {
  if (name.length <= 18) return 68;
  if (name.length <= 26) return 58;
  if (name.length <= 34) return 50;
  return 44;
}

export function cardElement(m: CardImageModel): SatoriElement {
  const ink = inkOn(m.tierColor);
  const leftWidth = INNER_W - TIER_BLOCK_W - 40;
  const nameSize = nameFontSize(m.spotName);
  const header = el(
    { justifyContent: "space-between", alignItems: "center", width: INNER_W },
    text({ fontSize: 22, fontWeight: 700, letterSpacing: 3, color: PALETTE.mist }, "OCEAN CONDITIONS"),
    text({ fontSize: 26, fontWeight: 700, color: PALETTE.foam }, m.dateText),
  );
  const subtitle = [m.regionName, m.activityText].filter(Boolean).join(" · ");
  const windowOrNotice = m.notice
    ? el(
        { backgroundColor: PALETTE.notice, borderRadius: 12, padding: "8px 18px", marginTop: 18, alignSelf: "flex-start", maxWidth: leftWidth },
        text({ fontSize: 30, fontWeight: 800, color: "#FFFFFF" }, m.notice.title),
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
    text({ fontSize: nameSize, fontWeight: 800, color: "#FFFFFF", lineHeight: 1.1, width: leftWidth }, m.spotName, 2),
    text({ fontSize: 28, color: PALETTE.mist, marginTop: 10, width: leftWidth }, subtitle),
    windowOrNotice,
  );
  const tierBlock = el(
    {
      flexDirection: "column",
      alignItems: "center",
      justifyContent: "center",
      width: TIER_BLOCK_W,
      height: 230,
      borderRadius: 28,
      backgroundColor: m.tierColor,
    },
    text({ fontSize: 128, fontWeight: 800, color: ink, lineHeight: 1 }, m.score === null ? "–" : String(m.score)),
    // "Excellent · seasonal norm" wraps to two smaller lines under the score.
    m.tierLabel.length <= 12
      ? text({ fontSize: 36, fontWeight: 800, color: ink, marginTop: 6 }, m.tierLabel)
      : text({ fontSize: 26, fontWeight: 800, color: ink, marginTop: 6, textAlign: "center", width: TIER_BLOCK_W - 24 }, m.tierLabel, 2),
  );
  const metrics = el(
    { width: INNER_W, justifyContent: "space-between", backgroundColor: PALETTE.navyRaised, borderRadius: 20, padding: "18px 28px" },
    ...m.metrics.map((x) =>
      el(
        { flexDirection: "column", flexGrow: METRIC_GROW[x.label] ?? 1, flexBasis: 0 },
        text({ fontSize: 18, fontWeight: 700, letterSpacing: 2, color: PALETTE.mist }, x.label.toUpperCase()),
        text({ fontSize: 30, fontWeight: 800, color: "#FFFFFF", marginTop: 4 }, x.value),
        text({ fontSize: 20, color: PALETTE.mist, marginTop: 2 }, x.sub ?? " "),
      ),
    ),
  );
  const reason = m.notice?.text ?? m.why;
  const footer = el(
    { justifyContent: "space-between", width: INNER_W },
    text({ fontSize: 20, color: PALETTE.mist }, m.attribution),
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
      borderLeft: `${EDGE}px solid ${m.tierColor}`,
      fontFamily: CARD_FONT_FAMILY,
    },
    header,
    el({ justifyContent: "space-between", alignItems: "center", width: INNER_W }, left, tierBlock),
    metrics,
    reason ? text({ fontSize: 25, color: PALETTE.foam, lineHeight: 1.3, width: INNER_W }, reason, 2) : el({ height: 33 }),
    footer,
  );
}

// --- rendering and caching ---

export interface RenderedCard {
  png: Buffer;
  etag: string;
}

/** The renderer's libraries and fonts, loaded on first use (they add ~150 ms and ~30 MB to start-up). */
interface Engine {
  satori: typeof Satori;
  Resvg: typeof ResvgClass;
  fonts: Font[];
}

function loadEngine(fonts?: Font[]): Promise<Engine> {
  return Promise.all([import("satori"), import("@resvg/resvg-js")]).then(([s, r]) => ({ satori: s.default, Resvg: r.Resvg, fonts: fonts ?? loadCardFonts() }));
}

/** satori → SVG → resvg → PNG for one model (in this thread; the pool runs it in its workers). */
export async function drawCard(engine: Engine, model: CardImageModel): Promise<Buffer> {
  const { satori, Resvg, fonts } = engine;
  const svg = await satori(cardElement(model), { width: CARD_WIDTH, height: CARD_HEIGHT, fonts });
  return new Resvg(svg, { fitTo: { mode: "original" }, font: { loadSystemFonts: false } }).render().asPng();
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
  render(model: CardImageModel): Promise<Buffer>;
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

  /** The PNG of a model, from the cache or rendered once; pass the model's ETag when already known. */
  async get(model: CardImageModel, etag = this.etag(model)): Promise<RenderedCard> {
    const hit = this.#cache.get(etag);
    if (hit) return { png: hit, etag };
    let pending = this.#inflight.get(etag);
    if (!pending) {
      pending = this.render(model)
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
  async render(model: CardImageModel): Promise<Buffer> {
    this.#renders++;
    return this.#renderer.render(model);
  }

  /** Loads the renderer and parses the fonts ahead of the first request (satori parses them on first use, ~250 ms). */
  warm(): Promise<void> {
    return this.#renderer.warm();
  }

  async close(): Promise<void> {
    await this.#renderer.close?.();
  }
}
