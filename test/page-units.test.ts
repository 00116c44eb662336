// Units on the pages, through the real HTTP server: a region's own units by default (feet in Hawaiʻi,
// metres in Malta), a link that switches them and a cookie that remembers the switch, the same
// figures either way (metres are the API's own, not re-rounded feet), and one cached page per choice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import { startService, type TestService } from "./helpers/service.js";

const catalog = Catalog.load();
let svc: TestService;
beforeAll(async () => {
  svc = await startService({ catalog, now: "2026-11-25T19:00:00Z" });
});
afterAll(() => svc.close());

const page = async (path: string, cookie?: string) => {
  const res = await svc.get(path, { headers: { accept: "text/html", ...(cookie ? { cookie } : {}) } });
  expect(res.status, path).toBe(200);
  return { res, text: (await res.text()).replace(/&amp;/g, "&") };
};
/** The "Now" box's visibility, e.g. "49 ft (typically 40–70 ft · 14.9 m)". */
const nowVisibility = (text: string) => /· visibility ([^\n]*)\n/.exec(text.slice(text.indexOf('aria-label="Now"')))?.[1];

describe("units on the forecast and region pages", () => {
  it("default by region: feet and °F in Hawaiʻi, metres and °C in Malta, each page offering the other", async () => {
    const hawaii = await page("/spots/hanauma-bay");
    expect(hawaii.text).toContain('<strong aria-current="true">ft, °F</strong>');
    expect(hawaii.text).toContain('<a href="http://127.0.0.1');
    expect(hawaii.text).toMatch(/href="[^"]*\/spots\/hanauma-bay\?units=metric" rel="nofollow">m, °C<\/a>/);
    expect(nowVisibility(hawaii.text)).toMatch(/^\d+ ft \(/);
    expect(hawaii.text).toContain("Visibility (ft)");

    const malta = await page("/spots/blue-hole-gozo");
    expect(malta.text).toContain('<strong aria-current="true">m, °C</strong>');
    expect(nowVisibility(malta.text)).toMatch(/^[\d.]+ m \(/);
    expect(malta.text).toContain("Visibility (m)");
    expect(malta.text).toMatch(/\d+ °C<span class="alt"> \(\d+ °F\)<\/span>/);
  });

  it("says the same figures in either order: the API's metres, the API's feet", async () => {
    const api = (await (await svc.get("/api/v1/conditions?spot=hanauma-bay")).json()) as ConditionsJson;
    const n = api.now!;
    const feet = nowVisibility((await page("/spots/hanauma-bay?units=us")).text)!;
    const metres = nowVisibility((await page("/spots/hanauma-bay?units=metric")).text)!;
    expect(feet.startsWith(`${n.visibility_ft} ft (`)).toBe(true);
    expect(metres.startsWith(`${n.visibility_m} m (`)).toBe(true);
    expect(metres).toContain(`· ${n.visibility_ft} ft)`);
  });

  it("remembers a switch in a cookie, and serves each choice its own page", async () => {
    const switched = await page("/spots/hanauma-bay?units=metric");
    expect(switched.res.headers.get("set-cookie")).toMatch(/^units=metric; Path=\/; Max-Age=31536000; SameSite=Lax$/);
    expect(switched.res.headers.get("vary")).toMatch(/Cookie/);
    const remembered = await page("/spots/hanauma-bay", "units=metric");
    expect(remembered.res.headers.get("set-cookie")).toBeNull();
    expect(remembered.text).toContain('<strong aria-current="true">m, °C</strong>');
    // Asked for right after the metric page: the feet page is not the cached metric one.
    expect((await page("/spots/hanauma-bay")).text).toContain('<strong aria-current="true">ft, °F</strong>');
    // A value that is not a unit is ignored, not an error, and not remembered.
    const odd = await page("/spots/hanauma-bay?units=furlongs");
    expect(odd.res.headers.get("set-cookie")).toBeNull();
  });

  it("gives a region's depths in its units, and switches them", async () => {
    const oahu = await page("/regions/us-hi-oahu");
    expect(oahu.text).toMatch(/<td class="num hide-sm">\d+–\d+ ft<\/td>/);
    const metric = await page("/regions/us-hi-oahu?units=metric");
    expect(metric.text).toMatch(/<td class="num hide-sm">\d+–\d+ m<\/td>/);
    expect(metric.text).toMatch(/href="[^"]*\/regions\/us-hi-oahu\?units=us" rel="nofollow">ft, °F<\/a>/);
  });
});
