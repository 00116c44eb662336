// Every page the service serves, in real Chromium at a phone's and a laptop's width: nothing wider
// than the viewport, and axe-core finds no critical or serious accessibility violation. One browser
// and one page per width, reused across the list. The MCP Apps view is checked the same way in
// mcp-view.test.ts (it needs a host). Adding a page is one line in PAGES.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CHECK_WIDTHS, seriousViolations, SIDEWAYS_OVERFLOW } from "./helpers/axe.js";
import { describeInBrowser, launchChromium, recordPageProblems } from "./helpers/browser.js";
import { startService, type TestService } from "./helpers/service.js";

/** Dates are within the pinned clock's horizon (helpers/service.ts: 2026-11-21). */
const PAGES: { path: string; status?: number; why: string }[] = [
  { path: "/", why: "front page" },
  { path: "/s/sharks-cove/2026-11-22?activity=snorkel", why: "share page of a ranked pick" },
  { path: "/s/hanauma-bay/2026-11-22?activity=snorkel", why: "share page whose caveats carry long bare URLs" },
  { path: "/s/lovers-cove-catalina/2026-11-22?activity=snorkel", why: "share page of a region that is not ranked" },
  { path: "/s/waikiki-mlcd/2026-11-22?activity=spearfish", why: "share page of a spot closed to the activity" },
  { path: "/spots/sharks-cove?date=2026-11-23&activity=snorkel", why: "forecast page with a highlighted day" },
  { path: "/spots/blue-hole-dahab", why: "forecast page of a Red Sea spot with no tide station" },
  { path: "/spots/cirkewwa", why: "forecast page of a Malta spot with no tide station" },
  { path: "/regions/us-hi-oahu", why: "region page with picks and rules" },
  { path: "/regions/ca-bc-victoria", why: "region page of a region that is not ranked" },
  { path: "/docs", why: "developer docs and API reference" },
  { path: "/s/no-such-spot/2026-11-22", status: 404, why: "error page" },
];

describeInBrowser("every served page at 390 and 1280 px: fits the width, no serious axe-core violation", () => {
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

  for (const width of CHECK_WIDTHS) {
    it(`at ${width} px`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page: Page = await context.newPage();
      const problems = recordPageProblems(page);
      const found: Record<string, { overflow: number; violations: string[]; problems: string[] }> = {};
      for (const p of PAGES) {
        const seen = problems.length;
        const res = await page.goto(`${svc.base}${p.path}`, { waitUntil: "load" });
        expect(res?.status(), `${p.path} (${p.why})`).toBe(p.status ?? 200);
        const overflow = await page.evaluate<number>(SIDEWAYS_OVERFLOW);
        const violations = await seriousViolations(page);
        // An error page's own status shows up as a console error; nothing else may.
        const own = problems.slice(seen).filter((x) => !(p.status && /status of \d+|HTTP \d+:/.test(x)));
        if (overflow > 0 || violations.length > 0 || own.length > 0) found[p.path] = { overflow, violations, problems: own };
      }
      expect(found).toEqual({});
      await context.close();
    }, 120_000);
  }

  // The forecast page's day table, on the same service and browser: every column readable.
  for (const width of CHECK_WIDTHS) {
    it(`day table at ${width} px: no sideways scroll, and each day's wind, water and tides on screen with its sunrise and sunset`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page: Page = await context.newPage();
      await page.goto(`${svc.base}/spots/hanauma-bay`, { waitUntil: "load" });
      const found = await page.evaluate(() => {
        const table = document.querySelector("table.days")!;
        const wrap = table.closest(".table-wrap") as HTMLElement;
        const shown = (td: Element | null) => {
          if (!td) return "missing";
          const r = td.getBoundingClientRect();
          const text = (td as HTMLElement).innerText.trim();
          return r.width > 0 && r.height > 0 && r.right <= wrap.getBoundingClientRect().right + 1 && text !== "" ? text : `hidden (${Math.round(r.right)} px)`;
        };
        return {
          overflow: table.scrollWidth - wrap.clientWidth,
          rows: [...table.querySelectorAll("tbody tr")].map((tr) => ({
            wind: shown(tr.querySelector('td[data-label="Wind"]')),
            water: shown(tr.querySelector('td[data-label="Water"]')),
            tides: shown(tr.querySelector('td[data-label="Tides"]')),
            window: shown(tr.querySelector('td[data-label="Window"]')),
          })),
        };
      });
      expect(found.overflow).toBeLessThanOrEqual(0);
      expect(found.rows).toHaveLength(7);
      for (const r of found.rows) {
        expect(r.wind).toMatch(/\d+ kt/);
        expect(r.water).toMatch(/°F/);
        expect(r.tides).toMatch(/^[HL] \d\d:\d\d/);
        // Honolulu in late November: sunrise about 06:45, sunset about 17:47 (any almanac).
        expect(r.window).toMatch(/sunrise 06:4\d · sunset 17:4\d/);
      }
      await context.close();
    }, 120_000);
  }
});
