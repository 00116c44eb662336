// What the score, its words, its range and its confidence promise (docs/model.md, "Score", "Wind
// words", "A range beside every visibility", "Confidence"), checked over every spot's seven days as
// the service ships them (offline, seasonal norms), through the real HTTP server, and over MCP for a
// sample of spots: the thresholds are stated here from the issue and the sources, not read from the
// rubric's table.
import { getPosition } from "suncalc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import { wmoName } from "./helpers/beaufort.js";
import { connectClient } from "./helpers/mcp.js";
import { startService, type TestService } from "./helpers/service.js";

const HORIZON_DEG = -0.833;

let svc: TestService;
const catalog = Catalog.load();
const answers = new Map<string, ConditionsJson>();

beforeAll(async () => {
  svc = await startService({ catalog, now: "2026-12-02T00:00:00Z" });
  const ids = catalog.spots.map((s) => s.id);
  for (let i = 0; i < ids.length; i += 16) {
    await Promise.all(
      ids.slice(i, i + 16).map(async (id) => {
        const { status, body } = await svc.json<ConditionsJson>(`/api/v1/conditions?spot=${id}`);
        expect(status, id).toBe(200);
        answers.set(id, body);
      }),
    );
  }
}, 120_000);
afterAll(() => svc.close());

const periods = () => [...answers.values()].flatMap((a) => a.periods.map((p) => ({ spot: a.spot, p })));

describe("over every spot's seven days, as shipped", () => {
  it("rates no period at 17 kt sustained or 25 kt gusts excellent, and none at 28 kt gusts great or excellent", () => {
    const bad = periods().filter(
      ({ p }) => (p.rating === "excellent" && ((p.wind_speed_kt ?? 0) >= 17 || (p.wind_gust_kt ?? 0) >= 25)) || ((p.rating === "great" || p.rating === "excellent") && (p.wind_gust_kt ?? 0) >= 28),
    );
    expect(bad.map(({ spot, p }) => `${spot.id} ${p.start} ${p.rating} ${p.wind_speed_kt}/${p.wind_gust_kt}`)).toEqual([]);
  });

  it("rates no period wholly in darkness great or excellent, and says so when a window starts before sunrise", () => {
    let dark = 0;
    let dawn = 0;
    for (const { spot, p } of periods()) {
      if (p.kind !== "forecast" || p.score === null) continue;
      const alt = (iso: string) => getPosition(new Date(iso), spot.lat, spot.lon).altitude;
      const start = alt(p.start!);
      const end = alt(p.end!);
      const mid = alt(new Date((Date.parse(p.start!) + Date.parse(p.end!)) / 2).toISOString());
      if (start < HORIZON_DEG && mid < HORIZON_DEG && end < HORIZON_DEG) {
        dark++;
        expect(["great", "excellent"], `${spot.id} ${p.start}`).not.toContain(p.rating);
      } else if (start < HORIZON_DEG && end >= HORIZON_DEG && end > start) {
        dawn++;
        expect(p.why, `${spot.id} ${p.start}`).toMatch(/The window starts before sunrise \(\d\d:\d\d\)\./);
      }
    }
    expect(dark).toBeGreaterThan(1000);
    expect(dawn).toBeGreaterThan(100);
  });

  it("names every wind by the WMO force of the knots shown, and no excellent period is capped or limited", () => {
    for (const { spot, p } of periods()) {
      if (p.wind_speed_kt === null || p.why === null) continue;
      const named = new RegExp(`\\b${Math.round(p.wind_speed_kt)} kt [^.(]*?wind[^(]*?\\(([a-z ]+)\\)`).exec(p.why);
      if (named) expect(named[1], `${spot.id} ${p.start}: ${p.why}`).toBe(wmoName(p.wind_speed_kt));
      const lead = /Clear water, ([a-z ]+):/.exec(p.why);
      if (lead) expect(lead[1], `${spot.id} ${p.start}`).toBe(wmoName(p.wind_speed_kt));
      if (p.rating === "excellent") expect(p.why, `${spot.id} ${p.start}`).not.toMatch(/caps this|main limit/);
    }
  });

  it("gives every period with a visibility its range, low ≤ estimate ≤ high, in whole feet", () => {
    for (const { spot, p } of periods()) {
      if (p.visibility_ft === null) {
        expect([p.visibility_low_ft, p.visibility_high_ft]).toEqual([null, null]);
        continue;
      }
      expect(Number.isInteger(p.visibility_low_ft) && Number.isInteger(p.visibility_high_ft), spot.id).toBe(true);
      expect(p.visibility_low_ft!, `${spot.id} ${p.start}`).toBeLessThanOrEqual(p.visibility_ft);
      expect(p.visibility_high_ft!, `${spot.id} ${p.start}`).toBeGreaterThanOrEqual(p.visibility_ft);
      expect(p.visibility_low_ft!).toBeGreaterThan(0);
    }
  });

  it("gives the facts' confidence at least five values across the catalogue, higher where more sources agree on a narrower range", () => {
    const values = new Set(periods().map(({ p }) => p.confidence));
    expect(values.size).toBeGreaterThanOrEqual(5);
    const noon = (id: string) => answers.get(id)!.periods.find((p) => p.start!.includes("T12:00"))!.confidence!;
    const best = catalog.spots.filter((s) => s.band.publishers >= 3).map((s) => s.id);
    const estimated = catalog.spots.filter((s) => s.band.estimated).map((s) => s.id);
    expect(best.length).toBeGreaterThan(0);
    expect(Math.min(...best.map(noon))).toBeGreaterThan(Math.max(...estimated.map(noon)));
  });
});

describe("over MCP", () => {
  it("carries the same range and confidence in get_conditions' structured answer, and the range in its text", async () => {
    const c = await connectClient(svc.base, "2026-07-28");
    try {
      for (const spot of ["hanauma-bay", "sms-markgraf", catalog.spots.find((s) => s.band.estimated)!.id]) {
        const res = (await c.client.callTool({ name: "get_conditions", arguments: { spot } })) as { content: { text?: string }[]; structuredContent: ConditionsJson };
        const rest = answers.get(spot)!;
        expect(res.structuredContent.periods.map((p) => [p.visibility_low_ft, p.visibility_ft, p.visibility_high_ft, p.confidence])).toEqual(
          rest.periods.map((p) => [p.visibility_low_ft, p.visibility_ft, p.visibility_high_ft, p.confidence]),
        );
        expect(res.content.map((x) => x.text ?? "").join("\n")).toMatch(/\d+ ft \(typically \d+–\d+ ft · /);
      }
    } finally {
      await c.close();
    }
  });
});
