// The 1200x630 share image of a spot card: the plain model of what is drawn (card-draw.ts draws it),
// and the images served, with a byte-bounded cache keyed by the model's content, ETags, and one
// render per key however many requests arrive at once.
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { splitMetric } from "../../model/format.js";
import type { SpotCardJson } from "../../schemas/decisions.js";
import { CARD_CACHE_MAX_BYTES } from "./card-size.js";
import { typicalFor } from "../../model/norms.js";
import { WIND_BANDS } from "../../model/wind-words.js";
import { dateLabel, shortDate } from "../../base/zone.js";
import { CARD_LAYOUT_VERSION, localRenderer, type CardImageModel, type CardMetric } from "./card-draw.js";
import type { CardFont } from "./fonts.js";

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
  spot: { ranked: boolean };
}

/** The word the score block carries for each notice: a notice means the spot is not a pick. */
const UNRANKED_WORDS: Record<string, string> = {
  conditions_only: "Not ranked",
  visibility_not_calibrated: "Not ranked",
  region_not_ranked: "Not ranked",
  activity_not_modeled: "Not ranked",
  closed_to_spearfishing: "Closed",
  closed_on_date: "Closed",
  no_data: "No forecast",
  day_passed: "Past",
};

/** Why the card's score is not a ranking, or null when it is one (see CardImageModel.unranked). */
export function unrankedWord(day: Pick<CardImageInput, "notice" | "spot">): string | null {
  if (day.notice) return UNRANKED_WORDS[day.notice.code] ?? (day.notice.code.startsWith("unsuited") ? "Not suited" : "Not ranked");
  // A general card for a spot decisions do not rank (its level not calibrated, or its region not `full`) rates conditions only.
  return day.spot.ranked ? null : "Conditions only";
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
    metrics: [metric("Visibility", c.metrics.visibility), metric("Swell", c.metrics.swell), windMetric(c.metrics.wind), metric("Water", c.metrics.water_temp)],
    why: day.why,
    notice: day.notice ? { title: day.notice.title, text: day.notice.text } : null,
    attribution: c.attribution,
  };
}

/** "moderate breeze, 13 kt ENE gusting 23 (24 km/h)" → value "13 kt ENE gusting 23", sub "moderate breeze · 24 km/h": the word sits under the speed, in the widest column (METRIC_GROW, card-draw.ts). */
function windMetric(v: string | null): CardMetric {
  if (v === null) return { label: "Wind", value: "–", sub: null };
  const { value, sub } = splitMetric(v);
  const band = WIND_BANDS.find((b) => value.startsWith(`${b.word}, `));
  return band ? { label: "Wind", value: value.slice(band.word.length + 2), sub: [band.word, sub].filter(Boolean).join(" · ") } : { label: "Wind", value, sub };
}

// --- rendering and caching ---

export interface RenderedCard {
  png: Buffer;
  etag: string;
}

/** Where PNGs are drawn: this thread, or a pool of worker threads (src/services/render/render-pool.ts). */
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

  constructor(opts: { fonts?: CardFont[]; maxBytes?: number; renderer?: CardRenderer } = {}) {
    this.#renderer = opts.renderer ?? localRenderer(opts.fonts);
    this.#cache = new CardCache(opts.maxBytes ?? CARD_CACHE_MAX_BYTES);
  }

  /** PNGs rendered so far (cache misses); tests count these. */
  get renders(): number {
    return this.#renders;
  }

  /** Content key of a model: also its ETag, so a revalidation needs no render. */
  etag(model: CardImageModel): string {
    const digest = createHash("sha256")
      .update(JSON.stringify([CARD_LAYOUT_VERSION, model]))
      .digest("base64url");
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

  /** Loads the renderer and its fonts ahead of the first request. */
  warm(): Promise<void> {
    return this.#renderer.warm();
  }

  async close(): Promise<void> {
    await this.#renderer.close?.();
  }
}
