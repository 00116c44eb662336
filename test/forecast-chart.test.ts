// The forecast page's chart as drawn: score labels stay legible next to the panel title.
import { describe, expect, it } from "vitest";
import { forecastChartSvg, type ChartPeriod } from "../src/pages/forecast-chart.js";

const period = (startIso: string, score: number, rating: ChartPeriod["rating"]): ChartPeriod => {
  const start = new Date(startIso);
  return { start, end: new Date(start.getTime() + 3 * 3_600_000), score, rating, visibilityFt: 40, swellFt: 2, windKt: 10 };
};

/** y of each score label and of its bar, in drawing order. */
function labels(svg: string) {
  const bars = [...svg.matchAll(/<rect class="bar" x="[\d.]+" y="([\d.]+)"/g)].map((m) => Number(m[1]));
  const texts = [...svg.matchAll(/<text x="[\d.]+" y="([\d.]+)" text-anchor="middle" class="(score[^"]*)">(\d+)<\/text>/g)].map((m) => ({ y: Number(m[1]), cls: m[2], score: Number(m[3]) }));
  return texts.map((t, i) => ({ ...t, barY: bars[i]! }));
}

describe("forecast chart", () => {
  it("puts a full-height bar's score inside the bar, in ink that reads on its colour, and others above their bars", () => {
    const svg = forecastChartSvg({
      timeZone: "Pacific/Honolulu",
      lat: 21.27,
      lon: -157.69,
      today: "2026-11-22",
      days: 1,
      periods: [period("2026-11-22T19:00:00Z", 100, "excellent"), period("2026-11-22T22:00:00Z", 40, "good")],
      tideEvents: [],
      highlight: null,
    });
    const [full, low] = labels(svg);
    expect(full).toMatchObject({ score: 100 });
    expect(full!.cls).toMatch(/^score on-(light|dark)$/);
    expect(full!.y).toBeGreaterThan(full!.barY);
    expect(low).toMatchObject({ score: 40, cls: "score" });
    expect(low!.y).toBeLessThan(low!.barY);
  });
});
