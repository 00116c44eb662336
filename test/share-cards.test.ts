// Share images and pages over real HTTP (no browser): the PNG itself, its caching, single-flight
// rendering, problems for bad requests, the card quoting the decision layer, escaping and CSP.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIVITIES } from "../src/base/activities.js";
import { Catalog } from "../src/catalog/catalog.js";
import { RegionRecord } from "../src/catalog/schema.js";
import { spotDay } from "../src/decisions/spot-day.js";
import { DATA_DIR } from "../src/base/paths.js";
import { clampLines, cardSvg, drawCard, fit, loadEngine, type CardImageModel, type Engine } from "../src/services/render/card-draw.js";
import { RenderPool } from "../src/services/render/render-pool.js";
import { CardImages, cardImageModel } from "../src/services/render/card-image.js";
import { UNRANKED_TEST_REGION } from "./helpers/catalog.js";
import { recommendSpot } from "../src/answers/recommend-spot.js";
import { expectProblem } from "./helpers/problem.js";
import { DEFAULT_NOW, startService, type TestService } from "./helpers/service.js";

const OUT = join(import.meta.dirname, "..", "test-output");
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the PNG's IHDR chunk (the first chunk, right after the signature). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE), "PNG signature").toBe(true);
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const png = async (path: string, init?: RequestInit, s: TestService = svc) => {
  const res = await s.get(path, init);
  return { res, body: Buffer.from(await res.arrayBuffer()) };
};

describe("card image", () => {
  it("is a 1200x630 PNG with ETag and Cache-Control", async () => {
    const { res, body } = await png("/cards/sharks-cove/2026-11-22.png?activity=snorkel");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(pngSize(body)).toEqual({ width: 1200, height: 630 });
    expect(res.headers.get("etag")).toMatch(/^"card-[A-Za-z0-9_-]{32}"$/);
    // The pinned clock is on the hour, so the forecast is good for a full hour.
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    mkdirSync(OUT, { recursive: true });
    writeFileSync(join(OUT, "card-sharks-cove.png"), body);
  });

  it("is served from the cache the second time, and If-None-Match gives 304 without rendering", async () => {
    const path = "/cards/hanauma-bay/2026-11-23.png?activity=dive";
    const first = await png(path);
    const renders = svc.ctx.cardImages.renders;
    const second = await png(path);
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.res.headers.get("etag")).toBe(first.res.headers.get("etag"));
    const etag = first.res.headers.get("etag")!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const revalidated = await png(path, { headers: { "If-None-Match": inm } });
      expect(revalidated.res.status, inm).toBe(304);
      expect(revalidated.body.length).toBe(0);
      expect(revalidated.res.headers.get("etag")).toBe(etag);
    }
    expect((await png(path, { headers: { "If-None-Match": '"stale"' } })).res.status).toBe(200);
    expect(svc.ctx.cardImages.renders).toBe(renders);
  });

  it("follows the clock: the same card later in the hour, a new one when the day it is measured from moves", async () => {
    const path = "/cards/sharks-cove/2026-11-23.png?activity=snorkel";
    const first = await png(path);
    try {
      svc.clock.advance(45 * 60_000);
      const later = await png(path);
      expect(later.res.headers.get("etag")).toBe(first.res.headers.get("etag"));
      expect(later.res.headers.get("cache-control")).toBe("public, max-age=900");
      // A day on, a forecast card would say "Tomorrow" instead of naming the day; this one rests on
      // seasonal norms, so it claims only what is typical for late November and stays the same image.
      svc.clock.advance(24 * 3_600_000);
      const nextDay = await png(path);
      expect(nextDay.res.status).toBe(200);
      expect(nextDay.res.headers.get("etag")).toBe(first.res.headers.get("etag"));
    } finally {
      svc.clock.set(DEFAULT_NOW);
    }
  });

  it("renders once for many concurrent requests of the same image", async () => {
    const fresh = await startService();
    try {
      const before = fresh.ctx.cardImages.renders;
      const results = await Promise.all(Array.from({ length: 12 }, () => png("/cards/three-tables/2026-11-24.png?activity=snorkel", undefined, fresh)));
      expect(results.map((r) => r.res.status)).toEqual(Array(12).fill(200));
      expect(new Set(results.map((r) => createHash("sha256").update(r.body).digest("hex"))).size).toBe(1);
      expect(fresh.ctx.cardImages.renders - before).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it("is deterministic: the same model draws the same bytes, and the ETag follows the content", async () => {
    const day = await spotDay({ spot: "kealakekua-bay", date: "2026-11-25", activity: "freedive" }, svc.ctx);
    const model = cardImageModel(day);
    const renderer = new CardImages();
    const [a, b] = [await renderer.render(model), await renderer.render(model)];
    expect(a.equals(b)).toBe(true);
    expect(renderer.etag(model)).toBe(svc.ctx.cardImages.etag(model));
    expect(renderer.etag({ ...model, score: (model.score ?? 0) + 1 })).not.toBe(renderer.etag(model));
  });

  it("keeps the cache within its byte bound, and a scan of distinct cards never evicts a card asked for twice", async () => {
    const spots = ["hanauma-bay", "sharks-cove", "electric-beach", "three-tables", "waimea-bay"];
    const models = await Promise.all(spots.map(async (spot) => cardImageModel(await spotDay({ spot, date: "2026-11-22", activity: "snorkel" }, svc.ctx))));
    const largest = Math.max(...(await Promise.all(models.map((m) => new CardImages().render(m)))).map((png) => png.length));
    // A fifth of the bytes is probation (room for one card here), the rest protected (about four).
    const renderer = new CardImages({ maxBytes: Math.ceil(largest * 5.25) });
    const [popular, ...scan] = models as [CardImageModel, ...CardImageModel[]];
    await renderer.get(popular);
    await renderer.get(popular);
    expect(renderer.renders, "a second request is a hit, and promotes the card").toBe(1);
    for (const m of scan) await renderer.get(m);
    expect(renderer.renders).toBe(1 + scan.length);
    await renderer.get(scan.at(-1)!);
    expect(renderer.renders, "the newest stays cached").toBe(1 + scan.length);
    await renderer.get(popular);
    expect(renderer.renders, "the popular card survived the scan").toBe(1 + scan.length);
    await renderer.get(scan[0]!);
    expect(renderer.renders, "a card seen once was evicted to stay under the bound").toBe(2 + scan.length);
  });

  it("answers bad requests with problems, never a 5xx or an image", async () => {
    const cases: [string, number, string][] = [
      ["/cards/no-such-spot/2026-11-22.png", 404, "unknown_spot"],
      ["/cards/Sharks-Cove/2026-11-22.png", 404, "unknown_spot"],
      ["/cards/sharks-cove/2026-11-28.png", 422, "outside_horizon"],
      ["/cards/sharks-cove/2026-02-30.png", 400, "invalid_date"],
      ["/cards/sharks-cove/tomorrow.png", 400, "invalid_date"],
      ["/cards/sharks-cove/2026-11-22.png?activity=kite", 400, "unknown_activity"],
      ["/cards/sharks-cove/2026-11-22.png?activity=snorkel&activity=dive", 400, "unknown_activity"],
    ];
    for (const [path, status, code] of cases) {
      const { status: got, body } = await svc.json(path);
      expectProblem(svc, got, body, status, code);
    }
    for (const path of ["/cards/%00/2026-11-22.png", `/cards/${"a".repeat(300)}/2026-11-22.png`, "/cards/sharks-cove/2026-11-22.jpg", "/cards/%E2%80%AE/%FF.png", "/cards/sharks-cove/.png"]) {
      const res = await svc.get(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get("content-type"), path).toContain("application/problem+json");
    }
  });
});

describe("one source of truth: the card is the decision layer's", () => {
  it("equals recommend_spot's card for the spot and date, for every ranked activity", async () => {
    const ranked = ACTIVITIES.filter((a) => a.model !== "unsupported");
    let compared = 0;
    for (const spot of ["hanauma-bay", "sharks-cove", "molokini-crater", "la-jolla-cove", "kealakekua-bay"]) {
      expect(svc.ctx.catalog.spot(spot), spot).toBeDefined();
      for (const a of ranked) {
        for (const date of ["2026-11-21", "2026-11-24"]) {
          const rec = await recommendSpot({ activity: a.id, spot, date }, svc.ctx);
          const day = await spotDay({ spot, date, activity: a.id }, svc.ctx);
          const pick = rec.picks[0];
          if (!pick) {
            expect(day.notice, `${spot} ${a.id} ${date}`).not.toBeNull();
            continue;
          }
          expect(day.card, `${spot} ${a.id} ${date}`).toEqual(pick.card);
          expect(day.caveats).toEqual(pick.caveats);
          expect(day.notice).toBeNull();
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThanOrEqual(20);
  });

  it("marks a spot closed to spearfishing, as recommend_spot excludes it", async () => {
    const rec = await recommendSpot({ activity: "spearfish", spot: "waikiki-mlcd", date: "2026-11-22" }, svc.ctx);
    expect(rec.picks).toEqual([]);
    expect(rec.considered.excluded[0]).toMatchObject({ reason: "closed_to_spearfishing" });
    const day = await spotDay({ spot: "waikiki-mlcd", date: "2026-11-22", activity: "spearfish" }, svc.ctx);
    expect(day.notice).toMatchObject({ code: "closed_to_spearfishing", title: "Closed to spearfishing" });
    expect(day.notice!.text).toContain(rec.considered.excluded[0]!.areas![0]!);
    expect(day.card.activity).toBe("spearfish");
    expect(cardImageModel(day).notice?.title).toBe("Closed to spearfishing");
    const { res, body } = await png("/cards/waikiki-mlcd/2026-11-22.png?activity=spearfish");
    expect(res.status).toBe(200);
    expect(pngSize(body)).toEqual({ width: 1200, height: 630 });
    writeFileSync(join(OUT, "card-waikiki-closed-spearfish.png"), body);
  });

  it("marks a wreck beyond the breath-hold range as not suited to spearfishing, on the share page and the card image", async () => {
    const depth = "Typical depth 98 ft (30 m): beyond the 66 ft (20 m) recreational breath-hold range.";
    const res = await svc.get("/s/sea-tiger-wreck/2026-11-22?activity=spearfish");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`<div class="notice" role="note"><strong>Not suited to spearfishing</strong>${depth}</div>`);
    const day = await spotDay({ spot: "sea-tiger-wreck", date: "2026-11-22", activity: "spearfish" }, svc.ctx);
    expect(day.notice).toEqual({ code: "unsuited_depth", title: "Not suited to spearfishing", text: depth });
    expect(cardImageModel(day).notice?.title).toBe("Not suited to spearfishing");
    const { res: image } = await png("/cards/sea-tiger-wreck/2026-11-22.png?activity=spearfish");
    expect(image.status).toBe(200);
    // Scuba is another matter: the same wreck is a diving pick.
    expect((await spotDay({ spot: "sea-tiger-wreck", date: "2026-11-22", activity: "dive" }, svc.ctx)).notice).toBeNull();
  });

  it("without an activity gives a general conditions card; surf and conditions-only regions say they are not ranked", async () => {
    const general = await spotDay({ spot: "black-rock", date: "2026-11-23" }, svc.ctx);
    expect(general.activity).toBeNull();
    expect(general.card.activity).toBeNull();
    expect(general.card.image_url).toBe(`${svc.base}/cards/black-rock/2026-11-23.png`);
    expect(general.notice).toBeNull();
    expect(general.card.score).not.toBeNull();
    const surf = await spotDay({ spot: "black-rock", date: "2026-11-23", activity: "surf" }, svc.ctx);
    expect(surf.notice?.code).toBe("activity_not_modeled");
    expect(surf.card.score).toBe(general.card.score);
    const catalina = svc.ctx.catalog.regions.find((r) => r.decision_support === "conditions_only")!.spots[0]!;
    const co = await spotDay({ spot: catalina.id, date: "2026-11-23", activity: "snorkel" }, svc.ctx);
    expect(co.notice?.code).toBe("region_not_ranked");
  });

  it("after today's daylight has gone, today's card says there is no daylight forecast left", async () => {
    const late = await startService({ now: "2026-11-22T05:00:00Z" }); // 19:00 in Honolulu
    try {
      const day = await spotDay({ spot: "sharks-cove", date: "2026-11-21", activity: "snorkel" }, late.ctx);
      expect(day.notice?.code).toBe("no_data");
      expect(day.card.score).toBeNull();
      const { res, body } = await png("/cards/sharks-cove/2026-11-21.png?activity=snorkel", undefined, late);
      expect(res.status).toBe(200);
      expect(pngSize(body)).toEqual({ width: 1200, height: 630 });
    } finally {
      await late.close();
    }
  });
});

describe("share page and forecast page (HTML)", () => {
  it("share page carries Open Graph tags for the card, a strict CSP whose style hash matches, and the credits", async () => {
    const rec = await recommendSpot({ activity: "snorkel", spot: "hanauma-bay", date: "2026-11-22" }, svc.ctx);
    const card = rec.picks[0]!.card;
    const res = await svc.get("/s/hanauma-bay/2026-11-22?activity=snorkel");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const page = await res.text();
    const metaContent = (key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(page)?.[1];
    expect(metaContent("og:image")).toBe(card.image_url);
    expect(metaContent("og:url")).toBe(card.links.share);
    expect(metaContent("twitter:card")).toBe("summary_large_image");
    expect(metaContent("og:title")).toContain("Hanauma Bay");
    expect(page).toContain(rec.disclaimer);
    for (const c of rec.picks[0]!.data_credits) expect(page).toContain(c.credit.replace(/'/g, "&#39;"));
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toMatch(/script-src/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;
    expect(csp).toContain(`style-src 'sha256-${createHash("sha256").update(style).digest("base64")}'`);
    expect(page).not.toMatch(/ style="/);
    expect(page).not.toContain("<script");
  });

  it("forecast page: 200 with the SVG chart; a bad ?date= is ignored; links.page from conditions resolves", async () => {
    const c = await svc.json<{ links: { page: string } }>("/api/v1/conditions?spot=electric-beach");
    const res = await fetch(c.body.links.page);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toMatch(/<svg [^>]*class="forecast-chart"/);
    expect((page.match(/class="bar"/g) ?? []).length).toBeGreaterThan(40);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    for (const q of ["?date=nonsense", "?date=2030-01-01&activity=kite", "?date=2026-11-22&date=2026-11-23"]) {
      expect((await svc.get(`/spots/electric-beach${q}`)).status, q).toBe(200);
    }
  });

  it("a share link opened after its day answers 200, says the day has passed and links the current forecast; its image still draws", async () => {
    const res = await svc.get("/s/sharks-cove/2026-11-19?activity=snorkel");
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("This day has passed");
    expect(page).toMatch(/<meta property="og:image" content="[^"]*\/cards\/sharks-cove\/2026-11-19\.png\?activity=snorkel">/);
    expect(page).toMatch(/<meta property="og:title" content="Shark[^"]*This day has passed/);
    // The call to action is the spot's forecast now, not the day that has gone.
    expect(page).toContain(`href="${svc.ctx.links.spotPage("sharks-cove")}"`);
    const image = await svc.get("/cards/sharks-cove/2026-11-19.png?activity=snorkel");
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    const model = cardImageModel(await spotDay({ spot: "sharks-cove", date: "2026-11-19", activity: "snorkel" }, svc.ctx));
    expect(model.unranked).toBe("Past");
  });

  it("unknown spot and bad dates give HTML error pages with the problem's status", async () => {
    for (const [path, status] of [
      ["/s/no-such-spot/2026-11-22", 404],
      ["/spots/no-such-spot", 404],
      ["/s/sharks-cove/2027-01-01", 422],
      ["/s/sharks-cove/2026-11-31", 400],
    ] as const) {
      const res = await svc.get(path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("when the font files cannot be written, a card is 503 unavailable, the rest still answers, and a later card is drawn once they can", async () => {
    // A file where the render worker's font directory should be: it cannot make the directory.
    const blocked = join(OUT, "fonts-blocked");
    rmSync(blocked, { recursive: true, force: true });
    writeFileSync(blocked, "");
    const fresh = await startService({ cardImages: new CardImages({ renderer: new RenderPool({ concurrency: 1, queue: 8, fontDirectory: blocked }) }) });
    try {
      const { res, body } = await png("/cards/sharks-cove/2026-11-22.png?activity=snorkel", undefined, fresh);
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect(JSON.parse(body.toString()).code).toBe("unavailable");
      expect((await fresh.get("/api/v1/conditions?spot=sharks-cove")).status).toBe(200);
      expect((await fresh.get("/s/sharks-cove/2026-11-22?activity=snorkel")).status).toBe(200);
      // Once the directory can be made, the next card is drawn: a failed load is not kept.
      rmSync(blocked);
      expect((await png("/cards/sharks-cove/2026-11-22.png?activity=snorkel", undefined, fresh)).res.status).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it("escapes every value placed in HTML and SVG", async () => {
    const evil = `<img src=x onerror=alert(1)> "Quote" & 'Apos' </title><script>alert(2)</script>`;
    const records = ["us-hi-oahu.json"].map((f) => RegionRecord.parse(JSON.parse(readFileSync(join(DATA_DIR, "regions", f), "utf8"))));
    records[0]!.name = `Oʻahu <b>bold</b>`;
    records[0]!.spots[0]!.name = evil;
    const s = await startService({ catalog: new Catalog(records) });
    try {
      const id = records[0]!.spots[0]!.id;
      for (const [path, status] of [
        [`/s/${id}/2026-11-22?activity=snorkel`, 200],
        [`/spots/${id}?date=2026-11-22`, 200],
        [`/s/%3Cscript%3Ealert(3)%3C%2Fscript%3E/2026-11-22`, 404],
      ] as const) {
        const res = await s.get(path);
        expect(res.status, path).toBe(status);
        const page = await res.text();
        expect(page, path).not.toContain("<script");
        expect(page, path).not.toContain("<img src=x");
        expect(page, path).not.toContain("<b>bold");
        if (status === 200) expect(page, path).toContain("&lt;img src=x onerror=alert(1)&gt; &quot;Quote&quot; &amp; &#39;Apos&#39;");
      }
      const { res, body } = await png(`/cards/${id}/2026-11-22.png`, undefined, s);
      expect(res.status).toBe(200);
      expect(pngSize(body)).toEqual({ width: 1200, height: 630 });
    } finally {
      await s.close();
    }
  });
});

describe("card image text and score block", () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await loadEngine();
  });

  /** Every line of text drawn (one <text> element per line). */
  const drawn = async (m: CardImageModel) => {
    const svg = cardSvg(engine, m);
    return { svg, words: [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((x) => x[1]!.replace(/&amp;/g, "&")) };
  };

  it("fit measures with the font: a wider string gets a smaller size or more lines, never more than the room", () => {
    const w = engine.widths;
    expect(w.width("WWWW", 30, 800)).toBeGreaterThan(w.width("iiii", 30, 800));
    expect(w.width("12 kt NE gusting 18", 30, 800)).toBeCloseTo(2 * w.width("12 kt NE gusting 18", 15, 800), 6);
    const short = fit(w, "12 kt NE", 300, { max: 30, min: 20, weight: 800 });
    expect(short).toEqual({ size: 30, lines: 1 });
    const long = fit(w, "23 kt NNE gusting 35", 300, { max: 30, min: 20, weight: 800 });
    expect(long.size).toBeLessThan(30);
    expect(w.width("23 kt NNE gusting 35", long.size, 800)).toBeLessThanOrEqual(300);
    const wrapped = fit(w, "a much longer notice title than one line can ever hold", 300, { max: 30, min: 24, weight: 800, maxLines: 2 });
    expect(wrapped.lines).toBe(2);
  });

  it("draws every text whole on every shipped spot's card and on extreme values: no ellipsis, no character the fonts lack", async () => {
    const shipped = await startService({ catalog: Catalog.load() });
    try {
      const cut: string[] = [];
      // Characters no card font has a glyph for: resvg would draw an empty box in their place.
      const noGlyph: string[] = [];
      const unmapped = (words: string[]) => [...new Set(words.join("").replace(/\s/g, ""))].filter((ch) => ![...engine.widths.advances.values()].some((t) => t.has(ch)));
      // The longest names, and one spot per region (its name, its activities, its sentences): a
      // card of every spot would take a minute on a small machine.
      const spots = shipped.ctx.catalog.spots;
      const longest = [...spots].sort((a, b) => b.name.length - a.name.length).slice(0, 25);
      const perRegion = [...new Map(spots.map((x) => [x.region.id, x])).values()];
      for (const spot of new Set([...longest, ...perRegion])) {
        const m = cardImageModel(await spotDay({ spot: spot.id, date: "2026-11-22", activity: "dive" }, shipped.ctx));
        const { words } = await drawn(m);
        if (words.some((t) => t.includes("…"))) cut.push(`${spot.id}: ${words.join(" / ")}`);
        const missing = unmapped(words);
        if (missing.length > 0) noGlyph.push(`${spot.id}: ${missing.join(" ")}`);
      }
      const base = cardImageModel(await spotDay({ spot: "kealakekua-bay", date: "2026-11-22", activity: "spearfish" }, shipped.ctx));
      const extreme: CardImageModel = {
        ...base,
        spotName: "Kealakekua Bay (Kaʻawaloa / Cook Monument) and the Long Reef Wall",
        regionName: "Dahab & Ras Abu Galum Protectorate, South Sinai",
        dateText: "Typical for late November · Wed, Nov 25",
        metrics: [
          { label: "Visibility", value: "100 ft", sub: "30.5 m" },
          { label: "Swell", value: "12.5 ft WNW @ 16 s", sub: "3.8 m" },
          { label: "Wind", value: "23 kt NNE gusting 35", sub: "strong breeze · 43 km/h" },
          { label: "Water", value: "100 °F", sub: "37.8 °C" },
        ],
        notice: { title: "Not suited to breath-hold spearfishing", text: "x ".repeat(10) + (base.notice?.text ?? "").repeat(2) },
        attribution: "Ocean Conditions · https://forecasts.dive-shop.example.com/ocean-conditions",
      };
      const { words } = await drawn(extreme);
      if (words.some((t) => t.includes("…"))) cut.push(`extreme: ${words.join(" / ")}`);
      writeFileSync(join(OUT, "card-long-texts.png"), await new CardImages().render(extreme));
      expect(cut).toEqual([]);
      expect(noGlyph).toEqual([]);
      expect(unmapped(["→"]), "the check finds a character the fonts lack").toEqual(["→"]);
      // The "12 kt NE…" case from the report: the wind value is drawn whole.
      const windy = await drawn({ ...base, metrics: base.metrics.map((x) => (x.label === "Wind" ? { ...x, value: "12 kt NE gusting 18" } : x)) });
      expect(windy.words.join(" / ")).toContain("12 kt NE gusting 18");
    } finally {
      await shipped.close();
    }
  }, 120_000);

  it("never fails on text it cannot fit: a word wider than its box is cut between characters, control characters are dropped", async () => {
    const w = engine.widths;
    const word = "Supercalifragilisticexpialidocious-and-then-some";
    const lines = clampLines(w, `Short ${word}`, 300, 36, 800, 2);
    expect(lines.length).toBeLessThanOrEqual(2);
    for (const line of lines) expect(w.width(line, 36, 800)).toBeLessThanOrEqual(300);
    expect(clampLines(w, word, 300, 36, 800, 0)).toEqual([]);
    const base = cardImageModel(await spotDay({ spot: "sharks-cove", date: "2026-11-22", activity: "snorkel" }, svc.ctx));
    const odd: CardImageModel = {
      ...base,
      spotName: `Bell\u0007 Reef\u0000 ${word}${word}`,
      metrics: base.metrics.map((x) => (x.label === "Water" ? { ...x, value: "25.5–26.5°C/78–80°F" } : x)),
    };
    const { words } = await drawn(odd);
    expect(words.join(" ")).toContain("Bell");
    // eslint-disable-next-line no-control-regex
    expect(words.join(" ")).not.toMatch(/[\u0000-\u001F]/);
    const png = await drawCard(engine, odd);
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
  });

  it("draws the text even when the font files have been removed since", async () => {
    const dir = join(OUT, "fonts-removed");
    rmSync(dir, { recursive: true, force: true });
    const own = await loadEngine(undefined, dir);
    const model = cardImageModel(await spotDay({ spot: "sharks-cove", date: "2026-11-22", activity: "snorkel" }, svc.ctx));
    const whole = await drawCard(own, model);
    expect(own.fontFiles.every((f) => f.startsWith(dir))).toBe(true);
    // A temporary-file cleaner removes them: resvg would draw the card without any text.
    rmSync(dir, { recursive: true, force: true });
    expect((await drawCard(own, model)).equals(whole)).toBe(true);
  });

  it("a score that is not ranked looks it: grey, named a conditions score, with the reason, and no tier colour", async () => {
    const unranked = cardImageModel(await spotDay({ spot: "lovers-cove-catalina", date: "2026-11-22", activity: "snorkel" }, svc.ctx));
    expect(svc.ctx.catalog.spot("lovers-cove-catalina")!.region.id).toBe(UNRANKED_TEST_REGION);
    expect(unranked.notice?.title).toBe("Not ranked for snorkeling");
    expect(unranked.unranked).toBe("Not ranked");
    const u = await drawn(unranked);
    const text = u.words.join(" / ");
    expect(text).toContain("CONDITIONS SCORE");
    expect(text).toContain("Not ranked");
    expect(text).not.toContain(unranked.tierLabel.split(" ")[0]!);
    expect(u.svg.toLowerCase()).not.toContain(unranked.tierColor.toLowerCase());

    const closed = cardImageModel(await spotDay({ spot: "waikiki-mlcd", date: "2026-11-22", activity: "spearfish" }, svc.ctx));
    expect(closed.unranked).toBe("Closed");

    const ranked = cardImageModel(await spotDay({ spot: "sharks-cove", date: "2026-11-22", activity: "snorkel" }, svc.ctx));
    expect(ranked.unranked).toBeNull();
    const r = await drawn(ranked);
    expect(r.words.join(" / ")).toContain(ranked.tierLabel.split(" ")[0]!);
    expect(r.words.join(" / ")).not.toContain("CONDITIONS SCORE");
    expect(r.svg.toLowerCase()).toContain(ranked.tierColor.toLowerCase());
    writeFileSync(join(OUT, "card-not-ranked.png"), await new CardImages().render(unranked));
  });

  it("the forecast page's day rows agree: a day that is not a pick shows its score in grey beside the notice", async () => {
    const res = await svc.get("/spots/lovers-cove-catalina?activity=snorkel");
    const html = await res.text();
    const cells = [...html.matchAll(/<td data-label="Rating"><span class="tier (tier-[a-z-]+)">[^<]*<\/span><br><small class="note">([^<]*)<\/small><\/td>/g)];
    const notRanked = cells.filter((m) => m[2] === "Not ranked for snorkeling");
    expect(notRanked.length, `${res.status}: ${html.replace(/<style[\s\S]*?<\/style>/g, "").slice(0, 3000)}`).toBeGreaterThanOrEqual(6);
    expect(new Set(notRanked.map((m) => m[1]))).toEqual(new Set(["tier-none"]));
  });
});
