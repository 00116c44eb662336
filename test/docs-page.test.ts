// GET /docs: the developer docs page (an API reference rendered on the server from /openapi.json).
// Over HTTP: the strict CSP (no script at all), the content-hashed stylesheet cached for a year,
// every operation and schema of the document. In Chromium: the intro and the reference render, no
// console errors, no CSP violations, no request leaves this origin, and it fits a phone.
// Accessibility (axe-core) is checked with every other page in pages-a11y.test.ts.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCLAIMER } from "../src/base/attribution.js";
import { TOOLS } from "../src/mcp/server.js";
import { describeInBrowser, launchChromium, outputPath, recordPageProblems } from "./helpers/browser.js";
import { expectProblem } from "./helpers/problem.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const assetUrls = (html: string) => [...html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);

interface Doc {
  paths: Record<string, Record<string, { operationId: string; parameters?: { name: string }[]; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
}

describe("GET /docs over HTTP", () => {
  it("is an HTML page with a strict CSP: its own stylesheet only, no script, nothing third-party", async () => {
    const res = await svc.get("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("link")).toContain(`<${svc.base}/docs>; rel="service-doc"`);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain("script-src");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)|https?:\/\//);
    const html = await res.text();
    expect(html).not.toMatch(/<script/);
    expect(html).not.toMatch(/<style|style="/);
    expect(html).toContain(`${svc.base}/mcp`);
    expect(html).toContain(DISCLAIMER);
    expect(assetUrls(html)).toHaveLength(1);
  });

  it("renders every operation, parameter, response status and schema of /openapi.json", async () => {
    const html = await (await svc.get("/docs")).text();
    const doc = (await svc.json<Doc>("/openapi.json")).body;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const section = html.match(new RegExp(`<section class="op ${method}" id="op-${op.operationId}"[\\s\\S]*?</section>`))?.[0];
        expect(section, op.operationId).toBeDefined();
        expect(section).toContain(`<code>${path}</code>`);
        for (const p of op.parameters ?? []) expect(section, `${op.operationId} ${p.name}`).toContain(`<code>${p.name}</code>`);
        for (const status of Object.keys(op.responses)) expect(section, `${op.operationId} ${status}`).toContain(`<li><code>${status}</code>`);
      }
    }
    for (const name of Object.keys(doc.components.schemas)) expect(html, name).toContain(`id="schema-${name}"`);
    // Every in-page link lands on something.
    const targets = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!));
    const broken = [...html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!).filter((id) => !targets.has(id));
    expect(broken).toEqual([]);
  });

  it("serves its stylesheet under a content-hashed name, cached for a year", async () => {
    const html = await (await svc.get("/docs")).text();
    for (const url of assetUrls(html)) {
      const res = await svc.get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("content-type")).toMatch(/^text\/css/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("answers an unknown asset with a 404 problem", async () => {
    const r = await svc.json("/docs/assets/docs.nope.css");
    expectProblem(svc, r.status, r.body, 404, "not_found");
  });
});

describeInBrowser("GET /docs in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(viewport: { width: number; height: number }): Promise<{ page: Page; problems: string[]; foreign: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems = recordPageProblems(page);
    const foreign: string[] = [];
    // Registered before the page loads; CSP violations are reported to it as well as the console.
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    page.on("request", (r) => {
      if (!r.url().startsWith(`${svc.base}/`) && !r.url().startsWith("data:")) foreign.push(r.url());
    });
    const res = await page.goto(`${svc.base}/docs`, { waitUntil: "load" });
    expect(res?.status()).toBe(200);
    return { page, problems, foreign, close: () => context.close() };
  }

  it("renders the intro and every operation, styled, with no console errors, CSP violations or third-party requests", async () => {
    const { page, problems, foreign, close } = await open({ width: 1280, height: 900 });
    const doc = (await svc.json<Doc>("/openapi.json")).body;
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p).map((op) => op.operationId));
    expect((await page.locator("section.op").evaluateAll((els) => els.map((e) => e.id.replace(/^op-/, "")))).sort()).toEqual(ids.sort());
    expect(await page.locator("#op-getRecommendations h3").innerText()).toContain("/api/v1/recommendations");
    // The stylesheet applied: the method badge has its colour.
    expect(await page.locator("#op-getCoverage .method").evaluate((e) => getComputedStyle(e).backgroundColor)).toBe("rgb(11, 92, 173)");
    const intro = await page.locator("section.intro").innerText();
    expect(intro).toContain(`${svc.base}/mcp`);
    for (const t of TOOLS) expect(intro).toContain(t.name);
    expect(intro).toContain(DISCLAIMER);
    // A schema link scrolls to its schema.
    await page.locator("#op-getCoverage a[href='#schema-Coverage']").first().click();
    await expect.poll(() => page.locator("#schema-Coverage h3").isVisible()).toBe(true);
    expect(await page.evaluate("location.hash")).toBe("#schema-Coverage");
    await page.screenshot({ path: outputPath("docs-page.png") });
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
    await close();
  });

  it("the coverage example link answers with the coverage document", async () => {
    const { page, close } = await open({ width: 1280, height: 900 });
    await page.locator("#op-getCoverage a", { hasText: "GET /api/v1/coverage" }).click();
    await page.waitForURL(`${svc.base}/api/v1/coverage`);
    expect(await page.locator("body").innerText()).toContain("service.coverage.v1");
    await close();
  });

  it("fits a phone: the intro and the reference do not scroll sideways", async () => {
    const { page, problems, close } = await open({ width: 390, height: 844 });
    expect(await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBeLessThanOrEqual(0);
    await page.screenshot({ path: outputPath("docs-page-phone.png") });
    expect(problems).toEqual([]);
    await close();
  });
});
