// The one wind vocabulary (src/model/wind-words.ts, docs/model.md "Wind words"): the WMO Beaufort
// name of the knots shown, never moved by the gust; and, through the real HTTP server, a pick and a
// period at 10 kt gusting 16 that every text calls a gentle breeze (force 3, 7–10 kt) — why, factors,
// model note, card, Markdown, share page, forecast page and the share image's wind block.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spotDay } from "../src/decisions/spot-day.js";
import { beaufort, WIND_BANDS, windWord } from "../src/model/wind-words.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import type { RecommendationJson } from "../src/schemas/decisions.js";
import { cardImageModel } from "../src/services/render/card-image.js";
import { startService, type TestService } from "./helpers/service.js";
import { WMO_BEAUFORT, wmoName } from "./helpers/beaufort.js";

describe("the wind words are the WMO Beaufort names", () => {
  it("names each whole knot from 0 to 80 by its force", () => {
    for (let kt = 0; kt <= 80; kt++) expect(windWord(kt), `${kt} kt`).toBe(wmoName(kt));
    expect(WIND_BANDS.map((b) => [b.word, b.minKt])).toEqual(WMO_BEAUFORT.map(([w, m]) => [w, m]));
    expect(WIND_BANDS.map((b) => b.force)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it("takes the speed in whole knots as the texts show it, so the word never disagrees with the number", () => {
    expect([windWord(0.4), windWord(0.5)]).toEqual(["calm", "light air"]);
    expect([windWord(3.4), windWord(3.5)]).toEqual(["light air", "light breeze"]);
    expect([windWord(6.4), windWord(6.5)]).toEqual(["light breeze", "gentle breeze"]);
    expect([windWord(10.4), windWord(10.5)]).toEqual(["gentle breeze", "moderate breeze"]);
    expect([windWord(16.4), windWord(16.5)]).toEqual(["moderate breeze", "fresh breeze"]);
    expect([windWord(21.4), windWord(21.5)]).toEqual(["fresh breeze", "strong breeze"]);
    // The audit's cases: 6, 10 and 16 kt are forces 2, 3 and 4.
    expect([windWord(6), windWord(10), windWord(16)]).toEqual(["light breeze", "gentle breeze", "moderate breeze"]);
    expect(beaufort(17).force).toBe(5);
  });
});

describe("10 kt gusting 16 through the HTTP API", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  // Early mornings on the Cape Peninsula in late November: the seasonal norms' south-easter at
  // 10.4 kt gusting 15.5 (shown as "10 kt ... gusting 16"): a gentle breeze by the knots shown, which
  // an older rule called calm and a later one, reading the gust, a moderate breeze.
  const REGION = "za-wc-cape-peninsula";
  const DATE = "2026-11-25";
  const TEN_GUSTING_16 = /^gentle breeze, 10 kt( [NESW]{1,3})? gusting 16 \(\d+ km\/h\)$/;

  async function picksAtTenGusting16(): Promise<{ body: RecommendationJson; picks: RecommendationJson["picks"] }> {
    const { status, body } = await svc.json<RecommendationJson>(`/api/v1/recommendations?activity=snorkel&region=${REGION}&date=${DATE}&limit=5`);
    expect(status).toBe(200);
    const picks = body.picks.filter((p) => /\b10 kt( [NESW]{1,3})? gusting 16\b/.test(p.card.metrics.wind ?? ""));
    expect(picks.length, "picks at 10 kt gusting 16").toBeGreaterThan(0);
    return { body, picks };
  }

  it("a pick: why, factors, model note, card and Markdown all say gentle breeze, none says calm", async () => {
    const { body, picks } = await picksAtTenGusting16();
    for (const p of picks) {
      expect(p.card.metrics.wind).toMatch(TEN_GUSTING_16);
      expect(p.why.factors).toContain(`wind ${p.card.metrics.wind}`);
      expect(p.why.model_note).toMatch(/\bgentle breeze\b/);
      expect(p.why.model_note).not.toMatch(/\bmoderate breeze\b/);
      expect(JSON.stringify(p)).not.toMatch(/\bcalm\b/i);
      expect(body.card_markdown).toContain(`- Wind: ${p.card.metrics.wind}`);
    }
    expect(body.card_markdown).not.toMatch(/\bcalm\b/i);
  });

  it("the pick's period: its why says gentle breeze with the same numbers, never calm seas", async () => {
    const { picks } = await picksAtTenGusting16();
    for (const p of picks) {
      const { body } = await svc.json<ConditionsJson>(`/api/v1/conditions?spot=${p.spot.id}&from=${DATE}&to=${DATE}`);
      const period = body.periods.find((x) => x.start === p.best_window.start)!;
      expect([Math.round(period.wind_speed_kt!), Math.round(period.wind_gust_kt!)]).toEqual([10, 16]);
      expect(period.why).toMatch(/\b10 kt gusting 16 kt wind\b/);
      expect(period.why).toMatch(/\bgentle breeze\b/);
      expect(period.why).not.toMatch(/\bcalm\b/i);
    }
  });

  it("the share image, share page and forecast page use the card's word", async () => {
    const { picks } = await picksAtTenGusting16();
    const p = picks[0]!;
    const model = cardImageModel(await spotDay({ spot: p.spot.id, date: DATE, activity: "snorkel" }, svc.ctx));
    const wind = model.metrics.find((m) => m.label === "Wind")!;
    expect(wind.value).toMatch(/^10 kt( [NESW]{1,3})? gusting 16$/);
    expect(wind.sub).toMatch(/^gentle breeze · \d+ km\/h$/);

    const share = await svc.get(`/s/${p.spot.id}/${DATE}?activity=snorkel`);
    expect(share.status).toBe(200);
    const shareHtml = await share.text();
    expect(shareHtml).toContain(`wind ${p.card.metrics.wind}`);
    expect(shareHtml).not.toMatch(/\bcalm\b/i);

    const page = await svc.get(`/spots/${p.spot.id}?activity=snorkel`);
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).toMatch(/gentle breeze, 10 kt( [NESW]{1,3})? gusting 16/);
  });
});
