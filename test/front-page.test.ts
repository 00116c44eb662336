// GET /: the front page a browser gets (what this is, a server-side world map of the spots, the MCP
// URL with a host configuration, links to the docs, a sample forecast page and the coverage listing)
// and the JSON index everything else gets. The map's land is a checked-in asset made from Natural
// Earth by scripts/world-map.ts; the service reads only that file, never a devDependency.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { LAND_ASSET_PATH, REGION_MAPS_PATH } from "../src/pages/world-map.js";
import { PROJECT_ROOT } from "../src/base/paths.js";
import { FrontIndexSchema } from "../src/schemas/health.js";
import { makeLandAsset, makeRegionMaps } from "../scripts/world-map.js";
import { describeInBrowser, launchChromium, recordPageProblems } from "./helpers/browser.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
const catalog = Catalog.load();
beforeAll(async () => {
  svc = await startService({ catalog });
});
afterAll(() => svc.close());

const HTML_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("the map's land outline", () => {
  it("is exactly what scripts/world-map.ts makes from world-atlas (npx tsx scripts/world-map.ts rewrites it)", () => {
    const checkedIn = readFileSync(LAND_ASSET_PATH, "utf8");
    expect(checkedIn).toBe(JSON.stringify(makeLandAsset()) + "\n");
    expect(checkedIn.length).toBeLessThan(40_000);
  });

  it("and each region page's coastline are exactly what scripts/world-map.ts makes (npm run data:map rewrites them)", () => {
    expect(readFileSync(REGION_MAPS_PATH, "utf8")).toBe(JSON.stringify(makeRegionMaps()) + "\n");
  }, 120_000);

  it("is read at run time as data: no file of the service imports a devDependency", () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    const dev = Object.keys(pkg.devDependencies);
    const files = (readdirSync(join(PROJECT_ROOT, "src"), { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));
    const offending: string[] = [];
    for (const f of files) {
      const text = readFileSync(join(PROJECT_ROOT, "src", f), "utf8");
      for (const m of text.matchAll(/^\s*import\s[^;]*?from\s+"([^"]+)"|import\("([^"]+)"\)/gm)) {
        const spec = m[1] ?? m[2]!;
        const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
        if (dev.includes(name) && !/^\s*import\s+type\s/.test(m[0])) offending.push(`src/${f}: ${spec}`);
      }
    }
    expect(files.length).toBeGreaterThan(50);
    expect(offending).toEqual([]);
  });
});

describe("GET /", () => {
  it("gives a browser the front page: what this is, the map, the MCP URL with a host configuration, docs and examples", async () => {
    const res = await svc.get("/", { headers: { accept: HTML_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("vary")).toMatch(/Accept/);
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    const page = await res.text();
    expect(page).toMatch(/<h1>Ocean Conditions<\/h1>/);
    expect(page).toMatch(/<header class="top">[\s\S]*<main>[\s\S]*<footer class="credits">/);
    expect(page).toContain(`<svg viewBox="0 0 900 360" width="100%" role="img" aria-labelledby="map-title map-desc"`);
    expect(page).toContain('<title id="map-title">World map of the covered spots</title>');
    expect(page.match(/<circle /g)).toHaveLength(catalog.spots.length);
    expect(page.match(/<g><title>/g)).toHaveLength(catalog.regions.length);
    expect(page).toContain(`<code>${svc.base}/mcp</code>`);
    expect(page).toContain(`&quot;url&quot;: &quot;${svc.base}/mcp&quot;`);
    for (const href of [`${svc.base}/docs`, `${svc.base}/spots/hanauma-bay`, `${svc.base}/api/v1/coverage`, `${svc.base}/api/v1/conditions?spot=hanauma-bay`, `${svc.base}/openapi.json`]) {
      expect(page).toContain(`href="${href}"`);
    }
  });

  it("links only to addresses that answer", async () => {
    const page = await (await svc.get("/", { headers: { accept: HTML_ACCEPT } })).text();
    const own = [...new Set([...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&")).filter((h) => h.startsWith(svc.base)))];
    expect(own.length).toBeGreaterThan(catalog.regions.length);
    const broken: string[] = [];
    for (const href of own) {
      const r = await fetch(href, { headers: { accept: HTML_ACCEPT } });
      await r.arrayBuffer();
      if (r.status !== 200) broken.push(`${r.status} ${href}`);
    }
    expect(broken).toEqual([]);
  }, 240_000);

  it.each([["application/json"], ["*/*"], [null]])("answers Accept %s with the JSON index and its source object", async (accept) => {
    const { status, body, res } = await svc.json("/", accept ? { headers: { accept } } : undefined);
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(FrontIndexSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    expect(body).toMatchObject({
      name: "Ocean Conditions",
      links: { mcp: `${svc.base}/mcp`, docs: `${svc.base}/docs` },
      coverage: { regions: catalog.regions.length, spots: catalog.spots.length },
      source: svc.ctx.source,
    });
  });
});

describeInBrowser("the front page in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it.each([[390], [1280]])(
    "fits %i px wide with no page problems, the map scaled to the width",
    async (width) => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      try {
        const problems = recordPageProblems(page);
        await page.goto(`${svc.base}/`);
        expect(await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")).toBeLessThanOrEqual(0);
        const map = (await page.locator("svg[role=img]").boundingBox())!;
        expect(map.width).toBeGreaterThan(width * 0.6);
        expect(map.width).toBeLessThanOrEqual(width);
        expect(await page.getByRole("img", { name: "World map of the covered spots" }).count()).toBe(1);
        expect(await page.getByRole("heading", { level: 2 }).allTextContents()).toEqual(["Where it covers", "Try it", "Connect an AI assistant (MCP)", "Documentation"]);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    120_000,
  );
});
