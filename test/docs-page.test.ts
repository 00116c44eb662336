// GET /docs: the developer docs page (Swagger UI from node_modules rendering /openapi.json). Over
// HTTP: the strict CSP, content-hashed assets cached for a year, gzip. In Chromium: the intro and
// every operation render, "Try it out" reaches the API under the CSP, no console errors, no CSP
// violations, no request leaves this origin. Screenshots go to test-output/ for a person to look at.
import { gunzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCLAIMER } from "../src/attribution.js";
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

describe("GET /docs over HTTP", () => {
  it("is an HTML page with a strict CSP: scripts and styles from 'self' only, no inline code, nothing third-party", async () => {
    const res = await svc.get("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("link")).toContain(`<${svc.base}/docs>; rel="service-doc"`);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)|https?:\/\/(?!127\.0\.0\.1)/);
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(html).not.toMatch(/<style|style="/);
    expect(html).toContain(`${svc.base}/mcp`);
    expect(html).toContain(DISCLAIMER);
    expect(assetUrls(html)).toHaveLength(4);
  });

  it("serves its assets from node_modules under content-hashed names, cached for a year, gzipped on request", async () => {
    const html = await (await svc.get("/docs")).text();
    for (const url of assetUrls(html)) {
      const res = await svc.get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("content-type")).toMatch(url.endsWith(".js") ? /^text\/javascript/ : /^text\/css/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const bundle = assetUrls(html).find((u) => u.includes("swagger-ui-bundle"))!;
    // fetch() decodes gzip itself; ask over raw HTTP to see the encoding on the wire.
    const { request } = await import("node:http");
    const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      request(`${svc.base}${bundle}`, { headers: { "Accept-Encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
      })
        .on("error", reject)
        .end();
    });
    expect(raw.encoding).toBe("gzip");
    const plain = Buffer.from(await (await svc.get(bundle, { headers: { "Accept-Encoding": "identity" } })).arrayBuffer());
    expect(raw.body.length).toBeLessThan(plain.length / 2);
    expect(gunzipSync(raw.body).equals(plain)).toBe(true);
  });

  it("answers an unknown asset with a 404 problem", async () => {
    const r = await svc.json("/docs/assets/swagger-ui-bundle.nope.js");
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
    // Registered before any page script runs; CSP violations are reported to it as well as the console.
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

  it("renders the intro and every operation from /openapi.json, with no console errors, CSP violations or third-party requests", async () => {
    const { page, problems, foreign, close } = await open({ width: 1280, height: 900 });
    await page.getByText("getRecommendations", { exact: true }).waitFor({ timeout: 15_000 });
    const doc = (await svc.json<{ paths: Record<string, Record<string, { operationId: string }>> }>("/openapi.json")).body;
    const ids = Object.values(doc.paths).flatMap((p) => Object.values(p).map((op) => op.operationId));
    expect((await page.locator(".opblock-summary-operation-id").allInnerTexts()).sort()).toEqual(ids.sort());
    await expect(page.locator(".opblock-summary-path", { hasText: "/api/v1/recommendations" }).first().isVisible()).resolves.toBe(true);
    const intro = await page.locator("section.intro").innerText();
    expect(intro).toContain(`${svc.base}/mcp`);
    for (const t of TOOLS) expect(intro).toContain(t.name);
    expect(intro).toContain(DISCLAIMER);
    await page.screenshot({ path: outputPath("docs-page.png") });
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
    await close();
  });

  it("'Try it out' calls the API from the page (connect-src allows it) and shows the answer", async () => {
    const { page, problems, close } = await open({ width: 1280, height: 900 });
    const op = page.locator("#operations-facts-getCoverage");
    await op.locator(".opblock-summary").click();
    await op.getByRole("button", { name: "Try it out" }).click();
    await op.getByRole("button", { name: "Execute" }).click();
    const status = op.locator(".live-responses-table tbody .response-col_status").first();
    await status.waitFor({ timeout: 15_000 });
    expect((await status.innerText()).trim()).toBe("200");
    await expect(op.locator(".live-responses-table").innerText()).resolves.toContain("service.coverage.v1");
    await op.scrollIntoViewIfNeeded();
    await page.screenshot({ path: outputPath("docs-page-try-it-out.png") });
    expect(problems).toEqual([]);
    await close();
  });

  it("fits a phone: the intro and the reference do not scroll sideways", async () => {
    const { page, problems, close } = await open({ width: 390, height: 844 });
    await page.getByText("getRecommendations", { exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBeLessThanOrEqual(0);
    await page.screenshot({ path: outputPath("docs-page-phone.png") });
    expect(problems).toEqual([]);
    await close();
  });
});
