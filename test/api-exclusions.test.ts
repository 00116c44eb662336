// Exclusions through the real HTTP API and MCP client: a spot excluded for the activity says so on
// every card, page and image whatever its region's decision support; a decision with no picks is
// never `ok` (no daylight is said first, then each excluding rule); a pick carries one
// regulated_area caveat with every rule that applies. Pinned now: 2026-11-21 09:00 in Honolulu.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { spotDay } from "../src/decisions/spot-day.js";
import type { BestDayJson, RecommendationJson } from "../src/schemas/decisions.js";
import { cardImageModel } from "../src/services/render/card-image.js";
import { UNRANKED_TEST_REGION } from "./helpers/catalog.js";
import { connectClient } from "./helpers/mcp.js";
import { startService, type TestService } from "./helpers/service.js";

const SUNDAY = "2026-11-22";
const TUESDAY = "2026-11-24";
const WEDNESDAY = "2026-11-25";
/** Hanauma Bay's no-take rule, as the protected-area data records it. */
const MLCD = "Hanauma Bay Marine Life Conservation District";

/** The test catalogue with O'ahu published conditions_only, as the shipped data may publish it. */
function oahuConditionsOnly(): Catalog {
  return new Catalog(Catalog.readRecords().map((r) => ({ ...r, decision_support: r.id === UNRANKED_TEST_REGION || r.id === "us-hi-oahu" ? "conditions_only" : "full" })));
}

let ranked: TestService;
let unranked: TestService;
beforeAll(async () => {
  [ranked, unranked] = await Promise.all([startService(), startService({ catalog: oahuConditionsOnly() })]);
});
afterAll(async () => {
  await Promise.all([ranked.close(), unranked.close()]);
});

const meta = (page: string, key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(page)?.[1];

describe("an exclusion shows whatever the region's decision support (item 3)", () => {
  it("Hanauma Bay spearfishing in a conditions_only O'ahu: the share page says closed to spearfishing and names the MLCD", async () => {
    expect(unranked.ctx.catalog.spot("hanauma-bay")!.region.decision_support).toBe("conditions_only");
    const res = await unranked.get(`/s/hanauma-bay/${SUNDAY}?activity=spearfish`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(meta(page, "og:title")).toMatch(/^Hanauma Bay: Closed to spearfishing, /);
    // The image's alt text is drawn from the same model as the image.
    expect(meta(page, "og:image:alt")).toContain("Closed to spearfishing");
    expect(meta(page, "og:description")).toContain(MLCD);
    expect(page).toMatch(/<div class="notice" role="note"><strong>Closed to spearfishing<\/strong>[^<]*Hanauma Bay Marine Life Conservation District/);
    expect(page).not.toContain("Not ranked for spearfishing");
  });

  it("the card image draws the closure, as in a ranked region", async () => {
    const path = `/cards/hanauma-bay/${SUNDAY}.png?activity=spearfish`;
    const res = await unranked.get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    // The ETag is the hash of what the image draws: the served image is this model's.
    const model = cardImageModel(await spotDay({ spot: "hanauma-bay", date: SUNDAY, activity: "spearfish" }, unranked.ctx));
    expect(res.headers.get("etag")).toBe(unranked.ctx.cardImages.etag(model));
    expect(model.notice?.title).toBe("Closed to spearfishing");
    expect(model.notice?.text).toContain(MLCD);
    const inRanked = cardImageModel(await spotDay({ spot: "hanauma-bay", date: SUNDAY, activity: "spearfish" }, ranked.ctx));
    expect(model.notice).toEqual(inRanked.notice);
  });

  it("the forecast page marks every day closed to spearfishing, a closed Tuesday included", async () => {
    const page = await (await unranked.get("/spots/hanauma-bay?activity=spearfish")).text();
    expect(page.match(/<small class="note">Closed to spearfishing<\/small>/g)).toHaveLength(7);
    expect(page).not.toContain("Not ranked for spearfishing");
    expect(page).not.toContain("Closed on this date");
  });

  it("keeps the venue closure and the conditions_only notice for an activity the spot is open to", async () => {
    const tuesday = await (await unranked.get(`/s/hanauma-bay/${TUESDAY}?activity=snorkel`)).text();
    expect(meta(tuesday, "og:title")).toMatch(/^Hanauma Bay: Closed on this date, /);
    const wednesday = await (await unranked.get(`/s/hanauma-bay/${WEDNESDAY}?activity=snorkel`)).text();
    expect(meta(wednesday, "og:title")).toMatch(/^Hanauma Bay: Not ranked for snorkeling, /);
  });
});

describe("ok only with picks (item 4)", () => {
  it("spearfishing at Bonaire: no_data, and the message and Markdown name the park's rule", async () => {
    const { status, body } = await ranked.json<RecommendationJson>("/api/v1/recommendations?activity=spearfish&region=bq-bo-bonaire");
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "no_data", picks: [], cards: [] });
    expect(body.considered.excluded.length).toBeGreaterThan(0);
    expect(body.considered.excluded.every((e) => e.reason === "closed_to_spearfishing")).toBe(true);
    expect(body.message).toMatch(/^Every spot here is excluded for spearfishing\. .*Inside Bonaire National Marine Park, closed to spearfishing: .*spearfishing .* prohibited/);
    expect(body.message).toMatch(/Another date will not change this\.$/);
    expect(body.card_markdown).toContain("Bonaire National Marine Park, closed to spearfishing");
  });

  it("best day for spearfishing at Bonaire: no_data with best null, naming the rule", async () => {
    const { body } = await ranked.json<BestDayJson>("/api/v1/best-day?activity=spearfish&region=bq-bo-bonaire");
    expect(body).toMatchObject({ status: "no_data", best: null, runner_up: null });
    expect(body.message).toMatch(/Inside Bonaire National Marine Park, closed to spearfishing/);
  });

  it("one spot excluded: Mahi wreck for snorkeling, and Hanauma Bay for spearfishing over MCP", async () => {
    const { body } = await ranked.json<RecommendationJson>(`/api/v1/recommendations?activity=snorkel&spot=mahi-wreck&date=${SUNDAY}`);
    expect(body.status).toBe("no_data");
    expect(body.message).toMatch(/^M\/V Mahi wreck \(Waiʻanae\) is excluded for snorkeling: The wreck lies at 50–92 ft .*Another date will not change this\.$/);
    const c = await connectClient(ranked.base, "2026-07-28");
    try {
      const r = (await c.client.callTool({ name: "recommend_spot", arguments: { activity: "spearfish", spot: "hanauma-bay", date: SUNDAY } })) as {
        structuredContent: RecommendationJson;
        content: { type: string; text: string }[];
      };
      expect(r.structuredContent.status).toBe("no_data");
      expect(r.content.find((x) => x.type === "text")!.text).toContain(`${MLCD}, closed to spearfishing`);
    } finally {
      await c.close();
    }
  });

  it("Komodo, an explicit date of today asked after dark: no_data for no daylight, before the spearfishing closure", async () => {
    const evening = await startService({ now: "2026-11-21T11:00:00Z" }); // 19:00 in Komodo (UTC+8)
    try {
      const today = await evening.json<RecommendationJson>("/api/v1/recommendations?activity=spearfish&region=id-nt-komodo&date=2026-11-21");
      expect(today.body).toMatchObject({ status: "no_data", date: "2026-11-21", date_rolled_forward: false, picks: [] });
      expect(today.body.message).toMatch(/^No daylight forecast is left for 2026-11-21 in Komodo/);
      // Tomorrow has daylight: the closure is the reason there.
      const rolled = await evening.json<RecommendationJson>("/api/v1/recommendations?activity=spearfish&region=id-nt-komodo");
      expect(rolled.body).toMatchObject({ status: "no_data", date: "2026-11-22", date_rolled_forward: true });
      expect(rolled.body.message).toMatch(/^Every spot here is excluded for spearfishing\. .*Inside Komodo National Park, closed to spearfishing/);
      expect(rolled.body.message).toContain("so this answer is for tomorrow (2026-11-22)");
      const bestToday = await evening.json<BestDayJson>("/api/v1/best-day?activity=spearfish&region=id-nt-komodo&from=2026-11-21&to=2026-11-21");
      expect(bestToday.body).toMatchObject({ status: "no_data", best: null });
      expect(bestToday.body.message).toMatch(/^No daylight window is left between 2026-11-21 and 2026-11-21/);
      expect(bestToday.body.days[0]!.summary).toBe("No daylight window left today.");
    } finally {
      await evening.close();
    }
  });
});

describe("one regulated_area caveat per pick (item 9)", () => {
  it("Stillwater Cove spearfishing: the club's diver limit and the Carmel Bay SMCA rule in one caveat", async () => {
    const { body } = await ranked.json<RecommendationJson>(`/api/v1/recommendations?activity=spearfish&spot=stillwater-cove&date=${WEDNESDAY}`);
    expect(body.status).toBe("ok");
    const regulated = body.picks[0]!.caveats.filter((c) => c.code === "regulated_area");
    expect(regulated).toHaveLength(1);
    expect(regulated[0]!.message).toMatch(/admits a limited number of divers a day.* Inside Carmel Bay State Marine Conservation Area: .* Check the current rules before you go: http/);
  });

  it("Cape Peninsula spearfishing: Sandy Cove and North Paw carry the MPA permit and the controlled zone's rule once each", async () => {
    const { body } = await ranked.json<RecommendationJson>("/api/v1/recommendations?activity=spearfish&region=za-wc-cape-peninsula&limit=5");
    expect(body.picks.map((p) => p.spot.id).sort()).toEqual(["north-paw", "sandy-cove-kraaiestein"]);
    for (const p of body.picks) {
      const regulated = p.caveats.filter((c) => c.code === "regulated_area");
      expect(regulated, p.spot.id).toHaveLength(1);
      const m = regulated[0]!.message;
      expect(m.match(/needs a recreational fishing permit/g), p.spot.id).toHaveLength(1);
      expect(m.match(/Inside Table Mountain National Park MPA \(controlled zone\)/g), p.spot.id).toHaveLength(1);
      expect(m).toContain("sanparks.org");
    }
  });
});
