// What "calibrated" means to a caller, and the rules that protect a person wherever a score is shown
// (docs/model.md, "Visibility calibration"; docs/data.md, "Sources"): decisions rank only spots whose
// typical visibility is calibrated and list the rest with why; a region that declines still applies
// every rule first and names its spots; a closed day says so in the periods, the Markdown and the
// page; gear limits and unchecked rules reach the headline. Through the real HTTP server and the
// official MCP client, on the shipped catalogue.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { closureOn } from "../src/catalog/access.js";
import { dateLabel } from "../src/base/zone.js";
import { UNRANKED_NOTES } from "../src/model/why.js";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import type { BestDayJson, RecommendationJson } from "../src/schemas/decisions.js";
import { connectClient } from "./helpers/mcp.js";
import { startService, type TestService } from "./helpers/service.js";

// Tuesday 24 November 2026, 09:00 in Honolulu: Hanauma Bay is closed on Mondays and Tuesdays.
const TUESDAY = "2026-11-24";
let svc: TestService;
/** The shipped catalogue, but with Oʻahu published conditions_only: a region that declines to rank. */
let declining: TestService;
const shipped = Catalog.load();

beforeAll(async () => {
  svc = await startService({ catalog: shipped, now: `${TUESDAY}T19:00:00Z` });
  declining = await startService({
    catalog: new Catalog(Catalog.readRecords().map((r) => (r.id === "us-hi-oahu" ? { ...r, decision_support: "conditions_only" as const } : r))),
    now: `${TUESDAY}T19:00:00Z`,
  });
});
afterAll(async () => {
  await svc.close();
  await declining.close();
});

async function mcpCall(s: TestService, name: string, args: Record<string, unknown>) {
  const c = await connectClient(s.base, "2026-07-28");
  try {
    const res = (await c.client.callTool({ name, arguments: args })) as { content: { type: string; text?: string }[]; structuredContent?: unknown };
    return { text: res.content.map((x) => x.text ?? "").join("\n"), structured: res.structuredContent as Record<string, unknown> };
  } finally {
    await c.close();
  }
}

const rec = (s: TestService, qs: string) => s.json<RecommendationJson>(`/api/v1/recommendations?${qs}`);
const best = (s: TestService, qs: string) => s.json<BestDayJson>(`/api/v1/best-day?${qs}`);

describe("ranking spot by spot", () => {
  const full = shipped.regions.filter((r) => r.decision_support === "full");

  it("publishes at least 40 of the catalogue's regions `full`, each with three calibrated spots or more", () => {
    expect(full.length).toBeGreaterThanOrEqual(40);
    for (const r of full) expect(r.spots.filter((s) => s.levelCalibrated).length, r.id).toBeGreaterThanOrEqual(3);
  });

  it("ranks only calibrated spots in every full region, and lists every other spot as not calibrated, with what would calibrate it", async () => {
    for (const r of full) {
      const { status, body } = await rec(svc, `activity=snorkel&region=${r.id}&date=2026-11-25&limit=5`);
      expect(status, r.id).toBe(200);
      for (const p of body.picks) expect(shipped.spot(p.spot.id)!.levelCalibrated, `${r.id}: ${p.spot.id}`).toBe(true);
      const excluded = new Map(body.considered.excluded.map((e) => [e.spot.id, e]));
      for (const s of r.spots.filter((x) => !x.levelCalibrated)) {
        const e = excluded.get(s.id);
        expect(e, `${r.id}: ${s.id} is neither ranked nor listed`).toBeDefined();
        // A rule of the place may come first (a closure, an unsuited spot); otherwise the reason is calibration.
        if (e!.reason === "visibility_not_calibrated") expect(e!.note).toMatch(/^Not ranked: its typical visibility is an estimate .*would calibrate it/);
      }
      for (const e of body.considered.excluded.filter((x) => x.reason === "visibility_not_calibrated")) expect(shipped.spot(e.spot.id)!.levelCalibrated).toBe(false);
    }
  });

  it("ranks snorkel and dive picks tomorrow in Oʻahu, Grand Cayman, the US Virgin Islands and Guam", async () => {
    for (const region of ["us-hi-oahu", "ky-gc-grand-cayman", "us-vi-st-john-st-thomas", "us-gu-guam"]) {
      for (const activity of ["snorkel", "dive"]) {
        const { body } = await rec(svc, `activity=${activity}&region=${region}&date=2026-11-25`);
        expect(body.status, `${region} ${activity}: ${body.message}`).toBe("ok");
        expect(body.picks.length).toBeGreaterThan(0);
      }
    }
  });

  it("says beside every score of an estimated spot that its level is an estimate and it is not ranked, over REST and MCP", async () => {
    const estimated = full.flatMap((r) => r.spots).find((s) => !s.levelCalibrated)!;
    const { body } = await svc.json<ConditionsJson>(`/api/v1/conditions?spot=${estimated.id}`);
    const rated = body.periods.filter((x) => x.score !== null);
    expect(rated.length).toBeGreaterThan(0);
    for (const p of rated) expect(p.why).toContain(UNRANKED_NOTES.spot);
    const { text } = await mcpCall(svc, "get_conditions", { spot: estimated.id });
    expect(text).toContain(`_${UNRANKED_NOTES.spot}_`);
    const ranked = full.flatMap((r) => r.spots).find((s) => s.ranked)!;
    const r = await svc.json<ConditionsJson>(`/api/v1/conditions?spot=${ranked.id}`);
    for (const p of r.body.periods) expect(p.why ?? "").not.toContain("not ranked");
  });

  it("says so over MCP: an estimated spot asked for by name is excluded as not calibrated, in the structured answer and the text", async () => {
    const estimated = full.flatMap((r) => r.spots).find((s) => !s.levelCalibrated && s.unsuited.snorkel === undefined && s.access.length === 0)!;
    const { structured, text } = await mcpCall(svc, "recommend_spot", { activity: "snorkel", spot: estimated.id, date: "2026-11-25" });
    const considered = structured.considered as RecommendationJson["considered"];
    expect(considered.excluded).toEqual([expect.objectContaining({ spot: { id: estimated.id, name: estimated.name }, reason: "visibility_not_calibrated" })]);
    expect(structured.picks).toEqual([]);
    expect(text).toContain("Not ranked: its typical visibility is an estimate");
  });
});

describe("a region that declines to rank applies every rule first, and names its spots", () => {
  const oahu = shipped.region("us-hi-oahu")!;

  it("lists every spot with its rule or why it is not ranked, and names the spots get_conditions answers for", async () => {
    const { body } = await rec(declining, "activity=snorkel&region=us-hi-oahu&date=2026-11-25");
    expect(body.status).toBe("conditions_only");
    expect(body.picks).toEqual([]);
    expect(new Set(body.considered.excluded.map((e) => e.spot.id))).toEqual(new Set(oahu.spots.map((s) => s.id)));
    expect(body.message).toContain("get_conditions");
    for (const e of body.considered.excluded.filter((x) => x.reason === "visibility_not_calibrated" || x.reason === "region_not_ranked")) expect(body.message).toContain(e.spot.id);
    expect(body.facts_hint).toBeNull();
  });

  it("excludes Hanauma Bay from spearfishing as closed to it, in recommend_spot and best_day, over REST and MCP", async () => {
    const r = await rec(declining, "activity=spearfish&spot=hanauma-bay");
    expect(r.body.status).toBe("conditions_only");
    expect(r.body.considered.excluded).toEqual([expect.objectContaining({ spot: { id: "hanauma-bay", name: "Hanauma Bay" }, reason: "closed_to_spearfishing" })]);
    expect(r.body.message).toMatch(/Whatever the conditions, for spearfishing: Hanauma Bay: Inside Hanauma Bay Marine Life Conservation District, closed to spearfishing/);
    const b = await best(declining, "activity=spearfish&spot=hanauma-bay");
    expect(b.body.considered.excluded.map((e) => e.reason)).toEqual(["closed_to_spearfishing"]);
    const m = await mcpCall(declining, "best_day", { activity: "spearfish", spot: "hanauma-bay" });
    expect((m.structured.considered as BestDayJson["considered"]).excluded[0]!.reason).toBe("closed_to_spearfishing");
    expect(m.text).toContain("closed to spearfishing");
    // In the shipped catalogue, where Oʻahu ranks, the same exclusion.
    const shippedAnswer = await rec(svc, "activity=spearfish&spot=hanauma-bay&date=2026-11-25");
    expect(shippedAnswer.body.considered.excluded[0]!.reason).toBe("closed_to_spearfishing");
  });

  it("says the activity's note without promising a ranking", async () => {
    const { body } = await rec(declining, "activity=snorkel&region=us-hi-oahu");
    expect(body.activity.note).not.toMatch(/^Ranked spots/);
  });
});

describe("a closed day, wherever its score is shown", () => {
  const hanauma = shipped.spot("hanauma-bay")!;

  it("is a Tuesday Hanauma Bay is closed on", () => {
    expect(closureOn(hanauma.access, TUESDAY)).not.toBeNull();
    expect(closureOn(hanauma.access, "2026-11-25")).toBeNull();
  });

  it("starts every period's why with the closure on a closed day, and only then", async () => {
    const { body } = await svc.json<ConditionsJson>(`/api/v1/conditions?spot=hanauma-bay&from=${TUESDAY}&to=2026-11-25`);
    const tuesday = body.periods.filter((p) => p.start!.startsWith(TUESDAY));
    const wednesday = body.periods.filter((p) => p.start!.startsWith("2026-11-25"));
    expect(tuesday.length).toBeGreaterThan(0);
    for (const p of tuesday) expect(p.why).toMatch(/^Closed on this date: Hanauma Bay Nature Preserve is closed all day on Mondays and Tuesdays\./);
    for (const p of wednesday) expect(p.why ?? "").not.toContain("Closed on this date");
    expect(body.now!.why).toMatch(/^Closed on this date/);
  });

  it("says it once at the top of the MCP card, before any rating", async () => {
    const { text } = await mcpCall(svc, "get_conditions", { spot: "hanauma-bay" });
    const closed = text.indexOf(`**Closed: Today, ${dateLabel("2026-11-30", TUESDAY)}.**`);
    expect(closed, text.slice(0, 600)).toBeGreaterThan(0);
    expect(closed).toBeLessThan(text.indexOf("| Day |"));
    expect(text.match(/\*\*Closed:/g)).toHaveLength(1);
  });

  it("puts it in the forecast page's Now box in place of the rating", async () => {
    const res = await svc.get("/spots/hanauma-bay");
    const page = await res.text();
    const now = page.slice(page.indexOf('<section class="now"'), page.indexOf("</section>", page.indexOf('<section class="now"')));
    expect(now).toContain("Closed on this date");
    expect(now).not.toMatch(/>Excellent[^<]*<\/span>/);
  });
});

describe("gear limits and unchecked rules in the headline", () => {
  it("says 'hand spear only' in every Okinawa spearfishing pick's summary and card headline", async () => {
    const { body } = await rec(svc, "activity=spearfish&region=jp-47-okinawa&date=2026-11-25&limit=5");
    expect(body.picks.length).toBeGreaterThan(0);
    for (const p of body.picks) {
      expect(p.why.summary).toContain("Spearfishing here: hand spear only");
      expect(p.card.headline).toContain("(hand spear only");
    }
    expect(body.card_markdown).toContain("hand spear only");
  });

  it("does not rank Pamilacan or the Gili Matra park for spearfishing", async () => {
    const pam = await rec(svc, "activity=spearfish&spot=pamilacan-island&date=2026-11-25");
    expect(pam.body.considered.excluded[0]).toMatchObject({ reason: "closed_to_spearfishing", areas: ["Pamilacan Island marine sanctuary (Baclayon)"] });
    const gili = await rec(svc, "activity=spearfish&region=id-nb-gili-islands&date=2026-11-25");
    expect(gili.body.picks).toEqual([]);
    for (const e of gili.body.considered.excluded) expect(e.reason).toMatch(/^(closed_to_spearfishing|unsuited_use)$/);
    expect(gili.body.considered.excluded.filter((e) => e.reason === "closed_to_spearfishing").length).toBeGreaterThanOrEqual(9);
  });

  it("checks every Victoria spearfishing pick against the Rockfish Conservation Areas, or says the rules were not checked", async () => {
    const victoria = shipped.region("ca-bc-victoria")!;
    for (const s of victoria.spots) {
      const { body } = await rec(svc, `activity=spearfish&spot=${s.id}&date=2026-11-25`);
      const excluded = body.considered.excluded[0];
      if (excluded?.reason === "closed_to_spearfishing") continue;
      for (const p of body.picks) expect(p.why.summary, s.id).toMatch(/local rules not checked/);
      // Nothing in Victoria is ranked for spearfishing with no rule said.
      expect(svc.ctx.regulations.readable && svc.ctx.regulations.areasFor(s.id).length, s.id).toBeGreaterThan(0);
    }
  });
});

describe("sentences built from what differs", () => {
  it("credits the tide only where the spots have one", async () => {
    const tideless = shipped.regions.find((r) => r.decision_support === "full" && r.spots.every((s) => s.tide_station === null))!;
    const withTide = shipped.regions.find((r) => r.decision_support === "full" && r.spots.every((s) => s.tide_station !== null))!;
    const a = await best(svc, `activity=snorkel&region=${tideless.id}`);
    expect(a.body.status).toBe("ok");
    expect(a.body.message).toContain("seasonal norms");
    expect(a.body.message).not.toMatch(/tide/i);
    const b = await best(svc, `activity=snorkel&region=${withTide.id}`);
    expect(b.body.message).toContain("differ only by the tide, the light");
  });

  it("names the rule without a date when every spot is closed to the activity by a rule that has none", async () => {
    const { body } = await rec(svc, "activity=spearfish&region=mx-roo-cozumel&date=2026-11-25");
    expect(body.status).toBe("no_data");
    expect(body.message).toMatch(/^Every spot here is excluded for spearfishing\./);
    expect(body.message).not.toContain("2026-11-25");
    const b = await best(svc, "activity=spearfish&region=mx-roo-cozumel");
    for (const d of b.body.days) expect(d.summary).toMatch(/^No spot can be ranked: .*Parque Nacional Arrecifes de Cozumel/);
  });
});
