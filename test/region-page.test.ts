// The region page (/regions/{region}) through the real HTTP server: for each activity, today's and
// tomorrow's top spot are the recommendations API's own picks; every rule that keeps a spot out of an
// activity is said beside them; each spot is listed with its ranking standing and rules; a region that
// declines to rank says so and shows no score; an unknown region is a 404 page naming the near miss.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { regionFrame, regionMapsAsset } from "../src/pages/world-map.js";
import type { RecommendationJson } from "../src/schemas/decisions.js";
import { startService, type TestService } from "./helpers/service.js";

// Tuesday 24 November 2026, 09:00 in Honolulu: Hanauma Bay is closed on Mondays and Tuesdays.
const TUESDAY = "2026-11-24";
const WEDNESDAY = "2026-11-25";
const catalog = Catalog.load();
let svc: TestService;

beforeAll(async () => {
  svc = await startService({ catalog, now: `${TUESDAY}T19:00:00Z` });
});
afterAll(() => svc.close());

const HTML = { headers: { accept: "text/html" } };

/** The text of the section for one activity (from its heading to the next section). */
function section(page: string, activity: string): string {
  const start = page.indexOf(`id="act-${activity}"`);
  expect(start, `section for ${activity}`).toBeGreaterThan(0);
  return page.slice(start, page.indexOf("</section>", start));
}

const decode = (s: string) =>
  s
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');

describe("GET /regions/{region}", () => {
  let page: string;
  beforeAll(async () => {
    const res = await svc.get("/regions/us-hi-oahu", HTML);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    page = decode(await res.text());
  });

  it("names the region and gives one section per modelled activity, none for surfing", () => {
    expect(page).toContain("<h1>Oʻahu");
    for (const a of ["snorkel", "dive", "freedive", "spearfish"]) section(page, a);
    expect(page).not.toContain('id="act-surf"');
  });

  it("shows, for each activity and day, the same top spot and score the recommendations API gives", async () => {
    for (const activity of ["snorkel", "dive", "freedive", "spearfish"]) {
      const text = section(page, activity);
      for (const date of [TUESDAY, WEDNESDAY]) {
        const res = await svc.get(`/api/v1/recommendations?region=us-hi-oahu&activity=${activity}&date=${date}`);
        const body = (await res.json()) as RecommendationJson;
        const top = body.picks[0]!;
        expect(top, `${activity} ${date}`).toBeDefined();
        const line = text.slice(text.indexOf(`<strong>${body.date_label}</strong>`));
        expect(line).toContain(`/spots/${top.spot.id}?date=${date}&activity=${activity}">${top.spot.name}</a>`);
        expect(line).toMatch(new RegExp(`class="tier tier-${top.rating}">[A-Za-z-]+ ${top.score}</span>`));
        expect(line).toContain(top.why.summary);
      }
    }
  });

  it("says beside the spearfishing picks which spots are closed to it, whatever the water", () => {
    const text = section(page, "spearfish");
    expect(text).toMatch(/Not considered for spearfishing, whatever the water<\/strong>[^<]*closed to spearfishing: [^;]*Hanauma Bay/);
    expect(text).toMatch(/Waikīkī|Waikiki/);
  });

  it("says which spots are closed on each day, and never picks one", () => {
    const text = section(page, "snorkel");
    const today = text.slice(text.indexOf("<li>"), text.indexOf("</li>"));
    expect(today).toContain("Closed this day: Hanauma Bay");
    expect(today).not.toContain("/spots/hanauma-bay?");
    const tomorrow = text.slice(text.indexOf("</li>") + 5);
    expect(tomorrow.slice(0, tomorrow.indexOf("</li>"))).not.toContain("Closed this day");
  });

  it("lists every spot of the region with a link to its forecast, its ranking standing and its rules", () => {
    const region = catalog.region("us-hi-oahu")!;
    const table = page.slice(page.indexOf("<table", page.indexOf("<h2>Spots</h2>")));
    for (const s of region.spots) {
      const row = table.slice(table.indexOf(`/spots/${s.id}"`));
      expect(row.slice(0, 2000)).toContain(`>${s.name}</a>`);
      const standing = s.ranked ? "Ranked: typical visibility calibrated" : "Not ranked";
      expect(row.slice(0, row.indexOf("</tr>"))).toContain(standing);
    }
    const hanauma = table.slice(table.indexOf('/spots/hanauma-bay"'));
    const row = hanauma.slice(0, hanauma.indexOf("</tr>"));
    expect(row).toContain("Closed today");
    expect(row).toContain("closed all day on Mondays and Tuesdays");
    expect(row).toMatch(/closed to spearfishing/);
  });

  it("maps every spot on the region's coast, numbered as in the list, each a link to its forecast", () => {
    const region = catalog.region("us-hi-oahu")!;
    const map = page.slice(page.indexOf('<figure class="region-map">'), page.indexOf("</figure>"));
    expect(map).toContain(`<title id="rmap-title">Map of the ${region.spots.length} spots in ${region.name}</title>`);
    // The coastline is drawn (Oʻahu is an island 1:10m shows), and every spot sits inside the frame.
    expect(map).toMatch(/<path d="M[\d ]+L/);
    const [, w, h] = /viewBox="0 0 (\d+) (\d+)"/.exec(map)!.map(Number);
    region.spots.forEach((s, i) => {
      const at = map.indexOf(`/spots/${s.id}" aria-label="${i + 1}. ${s.name}"><title>`);
      expect(at, s.id).toBeGreaterThan(0);
      const dot = /<circle cx="([\d.]+)" cy="([\d.]+)"/.exec(map.slice(at));
      expect(dot, s.id).not.toBeNull();
      expect(Number(dot![1])).toBeGreaterThan(0);
      expect(Number(dot![1])).toBeLessThan(w!);
      expect(Number(dot![2])).toBeGreaterThan(0);
      expect(Number(dot![2])).toBeLessThan(h!);
    });
    const table = page.slice(page.indexOf("<table", page.indexOf("<h2>Spots</h2>")));
    region.spots.forEach((s, i) => expect(table).toContain(`<td>${i + 1}. <a href="http://127.0.0.1`));
  });

  it("has a checked-in map for every region, framed on its spots as they are now (npm run data:map)", () => {
    const maps = regionMapsAsset().regions;
    expect(Object.keys(maps).sort()).toEqual(catalog.regions.map((r) => r.id).sort());
    for (const r of catalog.regions) expect(maps[r.id]!.frame, r.id).toEqual(regionFrame(r.bbox));
  });

  it("is linked from the front page and from its spots' forecast and share pages", async () => {
    const front = await (await svc.get("/", HTML)).text();
    expect(front).toMatch(/<a href="[^"]*\/regions\/us-hi-oahu">Oʻahu/);
    const spot = await (await svc.get("/spots/sharks-cove", HTML)).text();
    expect(spot).toMatch(/<p class="sub"><a href="[^"]*\/regions\/us-hi-oahu">Oʻahu/);
    const share = await (await svc.get(`/s/sharks-cove/${WEDNESDAY}?activity=snorkel`, HTML)).text();
    expect(share).toMatch(/Other spots nearby: <a href="[^"]*\/regions\/us-hi-oahu">Oʻahu<\/a>/);
  });
});

describe("a region that declines to rank", () => {
  it("says it is not ranked, shows no score, and still gives the rules and the spots", async () => {
    const res = await svc.get("/regions/ca-bc-victoria", HTML);
    expect(res.status).toBe(200);
    const page = decode(await res.text());
    expect(page).toContain("<strong>Not ranked</strong>");
    expect(page).not.toMatch(/class="tier tier-(excellent|great|good|fair|no-go)"/);
    expect(section(page, "snorkel")).toContain("not ranked");
    for (const s of catalog.region("ca-bc-victoria")!.spots) expect(page).toContain(`/spots/${s.id}"`);
  });
});

describe("an unknown region", () => {
  it("is a 404 HTML page that names the region it may have meant", async () => {
    const res = await svc.get("/regions/us-hi-oahoo", HTML);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const page = decode(await res.text());
    expect(page).toContain('No region has id "us-hi-oahoo"');
    expect(page).toContain("us-hi-oahu");
  });
});
