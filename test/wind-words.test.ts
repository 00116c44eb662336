// The one wind vocabulary (src/forecast/wind-words.ts, docs/model.md "Wind words"): its edges
// against the Beaufort scale, the gust rule, and, through the real HTTP server, a pick and a period
// at 10 kt gusting 16 that no text calls calm — why, factors, model note, card, Markdown, share page,
// forecast page and the share image's wind block all say the same word.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spotDay } from "../src/decisions/spot-day.js";
import { OPEN_WATER_GUST_FACTOR, WIND_BANDS, judgedWindKt, windWord } from "../src/forecast/wind-words.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import type { RecommendationJson } from "../src/schemas/decisions.js";
import { cardImageModel } from "../src/share/card-image.js";
import { startService, type TestService } from "./helpers/service.js";

// The Beaufort scale's lower limits in knots for forces 0–12 (WMO), stated here as the reference
// the words are checked against rather than read from the module under test.
const BEAUFORT_MIN_KT = [0, 1, 4, 7, 11, 17, 22, 28, 34, 41, 48, 56, 64];
const forceOf = (kt: number) => BEAUFORT_MIN_KT.filter((min) => Math.round(kt) >= min).length - 1;

describe("the wind words follow the Beaufort scale", () => {
  it("names each whole-knot mean by its force: calm 0–3 kt, light 4–6, gentle 7–10, moderate 11–16, fresh 17–21, strong from 22", () => {
    const expected = (kt: number): string => {
      const f = forceOf(kt);
      return f <= 1 ? "calm" : f === 2 ? "light breeze" : f === 3 ? "gentle breeze" : f === 4 ? "moderate breeze" : f === 5 ? "fresh breeze" : "strong wind";
    };
    for (let kt = 0; kt <= 70; kt++) expect(windWord(kt, null), `${kt} kt`).toBe(expected(kt));
  });

  it("takes the speed in whole knots as the texts show it, so the word never disagrees with the number", () => {
    expect([windWord(3.4, null), windWord(3.5, null)]).toEqual(["calm", "light breeze"]);
    expect([windWord(6.4, null), windWord(6.5, null)]).toEqual(["light breeze", "gentle breeze"]);
    expect([windWord(10.4, null), windWord(10.5, null)]).toEqual(["gentle breeze", "moderate breeze"]);
    expect([windWord(16.4, null), windWord(16.5, null)]).toEqual(["moderate breeze", "fresh breeze"]);
    expect([windWord(21.4, null), windWord(21.5, null)]).toEqual(["fresh breeze", "strong wind"]);
  });

  it("lists the bands lightest first, each from its Beaufort force's lower limit", () => {
    expect(WIND_BANDS.map((b) => b.minKt)).toEqual([BEAUFORT_MIN_KT[0], BEAUFORT_MIN_KT[2], BEAUFORT_MIN_KT[3], BEAUFORT_MIN_KT[4], BEAUFORT_MIN_KT[5], BEAUFORT_MIN_KT[6]]);
  });
});

describe("gusts lift the word when they are stronger than the mean's usual gust", () => {
  it("keeps the mean's word for a gust up to the open-water factor times the mean", () => {
    // An hour of the seasonal norms gusts at exactly its mean times the factor: the gust never moves its word.
    for (let tenths = 0; tenths <= 400; tenths++) {
      const kt = tenths / 10;
      expect(windWord(kt, kt * OPEN_WATER_GUST_FACTOR), `${kt} kt`).toBe(windWord(kt, null));
    }
    expect(windWord(10, 14)).toBe("gentle breeze");
    expect(windWord(10, 14.6)).toBe("gentle breeze");
  });

  it("reads a stronger gust as the wind whose usual gust it is", () => {
    expect(judgedWindKt(10, 16)).toBeCloseTo(16 / 1.4, 10);
    expect(judgedWindKt(10, 12)).toBe(10);
    expect(judgedWindKt(10, null)).toBe(10);
    expect(windWord(10, 14.8)).toBe("moderate breeze");
    expect(windWord(2, 4.8)).toBe("calm");
    expect(windWord(2, 5)).toBe("light breeze");
    expect(windWord(9, 25)).toBe("fresh breeze");
    expect(windWord(17.7, 31.5)).toBe("strong wind");
    expect(windWord(13, 23)).toBe("moderate breeze");
  });

  it("never calls the audit's 9–11 kt gusting 15–16 calm: a gentle or moderate breeze", () => {
    for (const [kt, gust] of [
      [9, 15],
      [10, 16],
      [10.4, 15.5],
      [11, 16],
    ] as const) {
      expect(windWord(kt, gust), `${kt}/${gust}`).toBe("moderate breeze");
    }
    expect(windWord(9, 12)).toBe("gentle breeze");
  });
});

describe("10 kt gusting 16 through the HTTP API", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  // Early mornings on the Cape Peninsula in late November: the seasonal norms' south-easter at
  // 10.4 kt gusting 15.5 (shown as "10 kt ... gusting 16"), which the old rule called calm.
  const REGION = "za-wc-cape-peninsula";
  const DATE = "2026-11-25";
  const TEN_GUSTING_16 = /^moderate breeze, 10 kt( [NESW]{1,3})? gusting 16 \(\d+ km\/h\)$/;

  async function picksAtTenGusting16(): Promise<{ body: RecommendationJson; picks: RecommendationJson["picks"] }> {
    const { status, body } = await svc.json<RecommendationJson>(`/api/v1/recommendations?activity=snorkel&region=${REGION}&date=${DATE}&limit=5`);
    expect(status).toBe(200);
    const picks = body.picks.filter((p) => /\b10 kt( [NESW]{1,3})? gusting 16\b/.test(p.card.metrics.wind ?? ""));
    expect(picks.length, "picks at 10 kt gusting 16").toBeGreaterThan(0);
    return { body, picks };
  }

  it("a pick: why, factors, model note, card and Markdown all say moderate breeze, none says calm", async () => {
    const { body, picks } = await picksAtTenGusting16();
    for (const p of picks) {
      expect(p.card.metrics.wind).toMatch(TEN_GUSTING_16);
      expect(p.why.factors).toContain(`wind ${p.card.metrics.wind}`);
      expect(p.why.model_note).toMatch(/\bmoderate breeze\b/);
      expect(JSON.stringify(p)).not.toMatch(/\bcalm\b/i);
      expect(body.card_markdown).toContain(`- Wind: ${p.card.metrics.wind}`);
    }
    expect(body.card_markdown).not.toMatch(/\bcalm\b/i);
  });

  it("the pick's period: its why says moderate breeze with the same numbers, never calm seas", async () => {
    const { picks } = await picksAtTenGusting16();
    for (const p of picks) {
      const { body } = await svc.json<ConditionsJson>(`/api/v1/conditions?spot=${p.spot.id}&from=${DATE}&to=${DATE}`);
      const period = body.periods.find((x) => x.start === p.best_window.start)!;
      expect([Math.round(period.wind_speed_kt!), Math.round(period.wind_gust_kt!)]).toEqual([10, 16]);
      expect(period.why).toMatch(/\b10 kt gusting 16 kt wind\b/);
      expect(period.why).toMatch(/\bmoderate breeze\b/);
      expect(period.why).not.toMatch(/\bcalm\b/i);
    }
  });

  it("the share image, share page and forecast page use the card's word", async () => {
    const { picks } = await picksAtTenGusting16();
    const p = picks[0]!;
    const model = cardImageModel(await spotDay({ spot: p.spot.id, date: DATE, activity: "snorkel" }, svc.ctx));
    const wind = model.metrics.find((m) => m.label === "Wind")!;
    expect(wind.value).toMatch(/^10 kt( [NESW]{1,3})? gusting 16$/);
    expect(wind.sub).toMatch(/^moderate breeze · \d+ km\/h$/);

    const share = await svc.get(`/s/${p.spot.id}/${DATE}?activity=snorkel`);
    expect(share.status).toBe(200);
    const shareHtml = await share.text();
    expect(shareHtml).toContain(`wind ${p.card.metrics.wind}`);
    expect(shareHtml).not.toMatch(/\bcalm\b/i);

    const page = await svc.get(`/spots/${p.spot.id}?activity=snorkel`);
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).toMatch(/moderate breeze, 10 kt( [NESW]{1,3})? gusting 16/);
  });
});
