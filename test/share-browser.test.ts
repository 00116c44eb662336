// The share page and the forecast page in real Chromium (Debian's /usr/bin/chromium driven by
// playwright-core): meta tags, the card image, the SVG chart, no console errors or CSP violations.
// Screenshots go to test-output/ for a person to look at. Without Chromium the suite is skipped
// locally, but fails when CI is set (.ci/run installs it).
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { recommendSpot } from "../src/answers/recommend-spot.js";
import { NO_TIDE_TEXT, NO_TIDE_TITLE } from "../src/pages/forecast-page.js";
import { describeInBrowser, launchChromium, outputPath, recordPageProblems } from "./helpers/browser.js";
import { startService, type TestService } from "./helpers/service.js";

/** How far the page scrolls sideways, in CSS pixels (evaluated in the page; this file has no DOM types). */
const SIDEWAYS_OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth";
const DAY_TABLE_OVERFLOW = "(w => w.scrollWidth - w.clientWidth)(document.querySelector('.table-wrap'))";
interface LoadedImage {
  complete: boolean;
  naturalWidth: number;
  naturalHeight: number;
}
describeInBrowser("pages in Chromium", () => {
  let svc: TestService;
  let browser: Browser;

  beforeAll(async () => {
    svc = await startService();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await svc?.close();
  });

  /** Opens a page and records console errors, page errors and failed requests. */
  async function open(path: string, viewport: { width: number; height: number }, mobile = false): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
    const context = await browser.newContext({ viewport, deviceScaleFactor: mobile ? 2 : 1, isMobile: mobile, hasTouch: mobile });
    const page = await context.newPage();
    const problems = recordPageProblems(page);
    const res = await page.goto(`${svc.base}${path}`, { waitUntil: "load" });
    expect(res?.status(), path).toBe(200);
    return { page, context, problems };
  }

  const meta = (page: Page, attr: "property" | "name", key: string) => page.getAttribute(`meta[${attr}="${key}"]`, "content");

  it("share page: Open Graph tags point at the card image and share URL; the card loads; no console errors", async () => {
    const rec = await recommendSpot({ activity: "snorkel", spot: "sharks-cove", date: "2026-11-22" }, svc.ctx);
    const card = rec.picks[0]!.card;
    const { page, context, problems } = await open("/s/sharks-cove/2026-11-22?activity=snorkel", { width: 1280, height: 900 });
    expect(await meta(page, "property", "og:image")).toBe(card.image_url);
    expect(await meta(page, "property", "og:url")).toBe(card.links.share);
    expect(await meta(page, "name", "twitter:card")).toBe("summary_large_image");
    expect(await meta(page, "property", "og:title")).toContain("Shark's Cove (Pūpūkea)");
    expect(await meta(page, "property", "og:title")).toContain(`${card.tier_label} (${card.score}/100)`);
    expect((await meta(page, "property", "og:description"))!.length).toBeGreaterThan(40);
    expect(await page.textContent("h1")).toBe(card.spot_name);
    const img = page.locator("img.card-img");
    await expect.poll(() => img.evaluate((el) => (el as unknown as LoadedImage).complete && (el as unknown as LoadedImage).naturalWidth)).toBe(1200);
    expect(await img.evaluate((el) => (el as unknown as LoadedImage).naturalHeight)).toBe(630);
    const forecastHref = await page.getAttribute("a.cta", "href");
    expect(forecastHref).toBe(`${card.links.forecast}?date=2026-11-22&activity=snorkel`);
    const footer = await page.textContent("footer.credits");
    expect(footer).toContain(rec.disclaimer);
    for (const credit of rec.picks[0]!.data_credits) expect(footer).toContain(credit.credit);
    expect(footer).toContain(card.attribution);
    await page.screenshot({ path: outputPath("share-page-desktop.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();

    const mobile = await open("/s/sharks-cove/2026-11-22?activity=snorkel", { width: 390, height: 844 }, true);
    const overflow = await mobile.page.evaluate<number>(SIDEWAYS_OVERFLOW);
    expect(overflow).toBeLessThanOrEqual(0);
    await mobile.page.screenshot({ path: outputPath("share-page-mobile.png"), fullPage: true });
    expect(mobile.problems).toEqual([]);
    await mobile.context.close();
  });

  it("share page for a spot closed to spearfishing says so", async () => {
    const { page, context, problems } = await open("/s/waikiki-mlcd/2026-11-22?activity=spearfish", { width: 1280, height: 900 });
    expect(await page.textContent(".notice")).toContain("Closed to spearfishing");
    expect(await meta(page, "property", "og:title")).toContain("Closed to spearfishing");
    await page.screenshot({ path: outputPath("share-page-closed.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("forecast page: the SVG chart renders with bars, visibility, tides and night; no console errors", async () => {
    const { page, context, problems } = await open("/spots/sharks-cove?date=2026-11-23&activity=snorkel", { width: 1280, height: 900 });
    const chart = page.locator("svg.forecast-chart");
    await expect.poll(() => chart.count()).toBe(1);
    const box = (await chart.boundingBox())!;
    expect(box.width).toBeGreaterThan(600);
    expect(box.height).toBeGreaterThan(200);
    const conditions = await svc.json<{ periods: unknown[]; tide_events: unknown[] }>("/api/v1/conditions?spot=sharks-cove");
    expect(await page.locator("svg.forecast-chart rect.bar").count()).toBe(conditions.body.periods.length);
    expect(await page.locator("svg.forecast-chart circle.tide-mark").count()).toBe(conditions.body.tide_events.length);
    expect(await page.locator("svg.forecast-chart rect.night").count()).toBeGreaterThanOrEqual(7);
    expect(await page.locator("svg.forecast-chart rect.highlight").count()).toBe(1);
    expect((await page.getAttribute("svg.forecast-chart polyline.vis", "points"))!.split(" ").length).toBe(conditions.body.periods.length);
    expect((await page.getAttribute("svg.forecast-chart path.tide", "d"))!.length).toBeGreaterThan(1000);
    // The chart paints something other than background: bars are visible, not zero-sized.
    const firstBar = (await page.locator("svg.forecast-chart rect.bar").first().boundingBox())!;
    expect(firstBar.width * firstBar.height).toBeGreaterThan(20);
    expect(await page.locator("table tbody tr.hl").count()).toBeGreaterThanOrEqual(1);
    expect(await page.textContent("footer.credits")).toContain("not for navigation");
    await page.screenshot({ path: outputPath("forecast-page-desktop.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();

    const mobile = await open("/spots/sharks-cove", { width: 390, height: 844 }, true);
    const overflow = await mobile.page.evaluate<number>(SIDEWAYS_OVERFLOW);
    expect(overflow, "the page itself does not scroll sideways; only the chart does").toBeLessThanOrEqual(0);
    const tableOverflow = await mobile.page.evaluate<number>(DAY_TABLE_OVERFLOW);
    expect(tableOverflow, "the day table fits a phone without scrolling").toBeLessThanOrEqual(0);
    await mobile.page.screenshot({ path: outputPath("forecast-page-mobile.png"), fullPage: true });
    expect(mobile.problems).toEqual([]);
    await mobile.context.close();
  });

  it("forecast page of a spot with no tide station says why, instead of an empty tide chart and column", async () => {
    expect(svc.ctx.catalog.spot("blue-hole-dahab")!.tide_station).toBeNull();
    const { page, context, problems } = await open("/spots/blue-hole-dahab", { width: 1280, height: 900 });
    const note = page.locator("section.no-tide");
    expect(await note.locator("h3").textContent()).toBe(NO_TIDE_TITLE);
    expect(await note.locator("p").textContent()).toBe(NO_TIDE_TEXT);
    expect(NO_TIDE_TEXT).toMatch(/no harmonic tide station within \d+ km/);
    // The chart's tide panel carries the reason, not an empty frame; no curve, no marks.
    expect(await page.locator("svg.forecast-chart text.no-tide-text").textContent()).toMatch(/^No tide: no tide station within \d+ km/);
    expect(await page.locator("svg.forecast-chart path.tide").count()).toBe(0);
    expect(await page.locator("svg.forecast-chart circle.tide-mark").count()).toBe(0);
    // No Tides/Tide column in either table, and the legend has no tide key.
    const headers = await page.locator("table th").allTextContents();
    expect(headers).not.toContain("Tides");
    expect(headers).not.toContain("Tide");
    expect(await page.locator(".legend i.tide").count()).toBe(0);
    expect(await page.locator("section.now").textContent()).toContain("tide not available (no station)");
    await page.screenshot({ path: outputPath("forecast-page-no-tide.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();

    // A spot with a station shows none of this.
    const tidal = await open("/spots/sharks-cove", { width: 1280, height: 900 });
    expect(await tidal.page.locator("section.no-tide").count()).toBe(0);
    expect(await tidal.page.locator("table th").allTextContents()).toContain("Tides");
    await tidal.context.close();
  });

  it("unknown spot: a 404 HTML page", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const res = await page.goto(`${svc.base}/s/no-such-spot/2026-11-22`);
    expect(res?.status()).toBe(404);
    expect(await page.textContent("h1")).toBe("Unknown spot");
    await context.close();
  });
});
