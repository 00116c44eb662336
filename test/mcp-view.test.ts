// The MCP Apps card view in real Chromium, hosted by the official AppBridge: real tool results from
// the running server are delivered over postMessage and what a person would see is checked.
import { build } from "esbuild";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { SEASONAL_NORM_LABEL } from "../src/model/norms.js";
import { TIERS } from "../src/model/tiers.js";
import { CHECK_WIDTHS, seriousViolations, SIDEWAYS_OVERFLOW } from "./helpers/axe.js";
import { describeInBrowser, launchChromium, outputPath } from "./helpers/browser.js";
import { connectClient, type Connected } from "./helpers/mcp.js";
import { startService, type TestService } from "./helpers/service.js";

describeInBrowser("MCP Apps card view in Chromium", () => {
  let svc: TestService;
  let mcp: Connected;
  let browser: Browser;
  let harness: string;
  let html: string;

  beforeAll(async () => {
    svc = await startService();
    mcp = await connectClient(svc.base, "2026-07-28");
    html = ((await mcp.client.readResource({ uri: "ui://ocean-conditions/card.html" })).contents[0] as { text: string }).text;
    const bundled = await build({ entryPoints: [`${PROJECT_ROOT}/test/harness/app-host.ts`], bundle: true, format: "iife", platform: "browser", write: false, logLevel: "silent" });
    harness = bundled.outputFiles[0]!.text;
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await mcp?.close();
    await svc?.close();
  });

  async function host(tool: string, args: Record<string, unknown>, theme: "light" | "dark" = "light"): Promise<{ page: Page; view: Frame; errors: string[] }> {
    const result = await mcp.client.callTool({ name: tool, arguments: args });
    const page = await browser.newPage({ viewport: { width: 680, height: 1150 } });
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    await page.setContent(`<!doctype html><html><body style="margin:0;background:#eef2f6"><script>${harness}</script></body></html>`);
    await page.evaluate(([h, a, r, t]) => window.runHost(h as string, a as Record<string, unknown>, r, t as "light" | "dark"), [html, args, result, theme] as const);
    const view = page.frames().find((f) => f !== page.mainFrame())!;
    return { page, view, errors };
  }

  it("renders recommend_spot picks: tier band, score, window, metrics, why, caveats, credits, disclaimer", async () => {
    const { page, view, errors } = await host("recommend_spot", { activity: "snorkel", region: "us-hi-maui", limit: 3 });
    const cards = view.locator("article.card");
    await expect.poll(() => cards.count()).toBe(3);
    const rec = (await mcp.client.callTool({ name: "recommend_spot", arguments: { activity: "snorkel", region: "us-hi-maui", limit: 3 } })).structuredContent as {
      picks: { spot: { name: string }; score: number; card: { tier_color: string; best_window: { start_local: string } }; caveats: unknown[] }[];
      disclaimer: string;
    };
    for (const [i, pick] of rec.picks.entries()) {
      const card = cards.nth(i);
      await expect.poll(() => card.locator(".name").textContent()).toBe(`${i + 1}. ${pick.spot.name}`);
      expect(await card.locator(".band .score").textContent()).toBe(String(pick.score));
      const bg = await card.locator(".band").evaluate((e) => getComputedStyle(e).backgroundColor);
      const hex = pick.card.tier_color.match(/[0-9A-F]{2}/gi)!.map((h) => parseInt(h, 16));
      expect(bg).toBe(`rgb(${hex.join(", ")})`);
      expect(await card.locator(".sub").textContent()).toContain(pick.card.best_window.start_local);
      // Offline the score rests on seasonal norms: the label sits in the band beside the score, and
      // the date reads as typical for the season.
      expect(await card.locator(".band").textContent()).toContain(`· ${SEASONAL_NORM_LABEL}${pick.score}`);
      expect(await card.locator(".sub").textContent()).toContain("Typical for late November");
      expect(await card.locator(".metric").count()).toBe(4);
      expect(await card.locator("ul.caveats li").count()).toBe(pick.caveats.length);
      expect(await card.locator(".why").textContent()).toContain(pick.spot.name);
      expect(await card.locator(".fine").textContent()).toMatch(/Tides computed|Seasonal norms/);
    }
    expect(await view.locator("main").textContent()).toContain(rec.disclaimer);
    const log = await page.evaluate(() => window.hostLog);
    expect(log.some(([k]) => k === "initialized")).toBe(true);
    expect(log.some(([k, d]) => k === "size" && (d as { height: number }).height > 300)).toBe(true);
    await page.screenshot({ path: outputPath("mcp-view-recommend.png"), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a venue's entry rule among a pick's caveats (Hanauma Bay's reservation)", async () => {
    const { page, view, errors } = await host("recommend_spot", { activity: "snorkel", spot: "hanauma-bay", date: "2026-11-25" });
    const caveats = view.locator("article.card ul.caveats li");
    await expect.poll(() => caveats.allTextContents()).toContainEqual(expect.stringMatching(/online entry reservation for Hanauma Bay/));
    expect(errors).toEqual([]);
    await page.close();
  });

  it("renders best_day with a 7-day strip coloured by tier and opens links through the host", async () => {
    const { page, view, errors } = await host("best_day", { activity: "dive", region: "us-hi-kona" }, "dark");
    const days = view.locator(".strip .day");
    await expect.poll(() => days.count()).toBe(7);
    expect(await view.locator(".strip .day.best").count()).toBe(1);
    const colours = new Set(
      TIERS.map((t) =>
        t.color
          .match(/[0-9A-F]{2}/gi)!
          .map((h) => parseInt(h, 16))
          .join(", "),
      ),
    );
    const best = await view.locator(".strip .day.best").evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(colours.has(best.replace(/^rgb\(|\)$/g, ""))).toBe(true);
    expect(await view.locator("html").getAttribute("class")).toBe("dark");
    // Tier colours are light: the day cells keep dark text on them even in the dark theme.
    expect(await view.locator(".strip .day.best").evaluate((e) => getComputedStyle(e).color)).toBe("rgb(15, 27, 45)");
    await view.locator("article.card .links a").first().click();
    await expect.poll(() => page.evaluate(() => window.hostLog.filter(([k]) => k === "open").map(([, u]) => u))).toEqual([expect.stringMatching(/\/spots\/[a-z0-9-]+$/)]);
    await page.screenshot({ path: outputPath("mcp-view-best-day.png"), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the data credits on the get_conditions card", async () => {
    const args = { spot: "hanauma-bay", from: "2026-11-22", to: "2026-11-23" };
    const { page, view, errors } = await host("get_conditions", args);
    const c = (await mcp.client.callTool({ name: "get_conditions", arguments: args })).structuredContent as { data_credits: { credit: string }[] };
    expect(c.data_credits.length).toBeGreaterThan(0);
    await expect.poll(() => view.locator(".credits").textContent()).toBe(c.data_credits.map((d) => d.credit).join(" · "));
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shrinks to a short card after a tall one, and answers ping with an empty result", async () => {
    const { page, view } = await host("recommend_spot", { activity: "snorkel", region: "us-hi-maui", limit: 3 });
    await expect.poll(() => view.locator("article.card").count()).toBe(3);
    const heights = () => page.evaluate(() => window.hostLog.filter(([k]) => k === "size").map(([, d]) => (d as { height: number }).height));
    await expect.poll(async () => Math.max(...(await heights()))).toBeGreaterThan(600);
    const short = await mcp.client.callTool({ name: "recommend_spot", arguments: { activity: "snorkel", lat: 25.77, lon: -80.13 } });
    await page.evaluate((r) => window.sendResult(r), short);
    await expect.poll(() => view.locator("article.card").count()).toBe(0);
    // The last size reported fits the short answer (the frame itself is 1100 px tall).
    await expect.poll(async () => (await heights()).at(-1)!).toBeLessThan(400);
    expect(await page.evaluate(() => window.pingView())).toEqual({ result: {} });
    await page.close();
  });

  it("fits 390 and 1280 px and has no serious axe-core violation, for every tool's card in both themes", async () => {
    const cases = [
      { tool: "recommend_spot", args: { activity: "snorkel", region: "us-hi-maui", limit: 3 }, selector: "article.card" },
      { tool: "best_day", args: { activity: "dive", region: "us-hi-kona" }, selector: ".strip .day" },
      { tool: "get_conditions", args: { spot: "blue-hole-dahab" }, selector: ".credits" },
      { tool: "recommend_spot", args: { activity: "kite", region: "us-hi-oahu" }, selector: ".error" },
    ];
    const found: Record<string, { overflow: number; violations: string[] }> = {};
    for (const theme of ["light", "dark"] as const) {
      for (const c of cases) {
        const { page, view } = await host(c.tool, c.args, theme);
        await expect.poll(() => view.locator(c.selector).count()).toBeGreaterThan(0);
        for (const width of CHECK_WIDTHS) {
          // The host gives the view a frame of this width, as a phone or a wide chat column would.
          await page.setViewportSize({ width: width + 40, height: 1150 });
          await page.evaluate((w) => (document.querySelector("iframe")!.style.width = `${w}px`), width);
          await expect.poll(() => view.evaluate<number>("window.innerWidth")).toBe(width);
          const overflow = await view.evaluate<number>(SIDEWAYS_OVERFLOW);
          const violations = await seriousViolations(view);
          if (overflow > 0 || violations.length > 0) found[`${c.tool} ${JSON.stringify(c.args)} ${theme} ${width}px`] = { overflow, violations };
        }
        await page.close();
      }
    }
    expect(found).toEqual({});
  }, 120_000);

  it("shows a tool error's code instead of a card", async () => {
    const { page, view } = await host("recommend_spot", { activity: "kite", region: "us-hi-oahu" });
    await expect.poll(() => view.locator(".error strong").textContent()).toBe("unknown_activity");
    await page.close();
  });
});
