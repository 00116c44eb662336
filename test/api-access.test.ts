// Venue access through the real HTTP API and MCP client: a spot closed on the date is excluded as
// closed_on_date with the rule as its note (Hanauma Bay is closed Mondays and Tuesdays; the
// Children's Pool beach closes for the seal pupping season); reservations and permits reach picks,
// Markdown cards, the MCP result and the share page as caveats; swimming lagoons are excluded for
// spearfishing. Pinned now: Saturday 2026-11-21, 09:00 in Honolulu.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closureOn } from "../src/catalog/access.js";
import type { BestDayJson, RecommendationJson } from "../src/schemas/decisions.js";
import { connectClient } from "./helpers/mcp.js";
import { startService, type TestService } from "./helpers/service.js";

const TUESDAY = "2026-11-24";
const MONDAY = "2026-11-23";
const WEDNESDAY = "2026-11-25";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const rec = async (q: string) => {
  const { status, body } = await svc.json<RecommendationJson>(`/api/v1/recommendations?${q}`);
  expect(status).toBe(200);
  return body;
};

describe("weekday closures", () => {
  it("leaves Hanauma Bay out of Tuesday's O'ahu snorkel picks, saying why", async () => {
    const body = await rec(`activity=snorkel&region=us-hi-oahu&date=${TUESDAY}&limit=5`);
    expect(body.status).toBe("ok");
    expect(body.picks.map((p) => p.spot.id)).not.toContain("hanauma-bay");
    const excluded = body.considered.excluded.find((x) => x.spot.id === "hanauma-bay");
    expect(excluded?.reason).toBe("closed_on_date");
    expect(excluded?.note).toMatch(/closed all day on Mondays and Tuesdays/);
    // On an open day it is the region's top snorkel pick, so the closure is what keeps it out.
    const wednesday = await rec(`activity=snorkel&region=us-hi-oahu&date=${WEDNESDAY}`);
    expect(wednesday.picks[0]!.spot.id).toBe("hanauma-bay");
  });

  it("ranks Hanauma Bay again on Wednesday, with its entry reservation as a caveat everywhere a pick is shown", async () => {
    const body = await rec(`activity=snorkel&spot=hanauma-bay&date=${WEDNESDAY}`);
    expect(body.considered.excluded).toEqual([]);
    const pick = body.picks[0]!;
    expect(pick.spot.id).toBe("hanauma-bay");
    const reservation = pick.caveats.find((c) => c.code === "regulated_area" && /reservation/.test(c.message));
    expect(reservation?.message).toMatch(/staradvertiser\.com/);
    expect(body.card_markdown).toContain("online entry reservation");
  });

  it("answers a Tuesday question about Hanauma Bay alone with the closure, not a forecast pick", async () => {
    const body = await rec(`activity=snorkel&spot=hanauma-bay&date=${TUESDAY}`);
    // The spec's `ok` means picks exist: with none, no_data, and the message names the rule.
    expect(body.status).toBe("no_data");
    expect(body.picks).toEqual([]);
    expect(body.considered.excluded).toEqual([{ spot: { id: "hanauma-bay", name: "Hanauma Bay" }, reason: "closed_on_date", note: expect.stringMatching(/Mondays and Tuesdays/), areas: null }]);
    expect(body.message).toMatch(/^Hanauma Bay is excluded for snorkeling on 2026-11-24: .*closed all day on Mondays and Tuesdays\. A closure on the day may not hold on another date\.$/);
  });

  it("never picks a closed day as Hanauma Bay's best day, and marks the closed days", async () => {
    const { status, body } = await svc.json<BestDayJson>(`/api/v1/best-day?activity=snorkel&spot=hanauma-bay`);
    expect(status).toBe(200);
    expect(body.best).not.toBeNull();
    expect([MONDAY, TUESDAY]).not.toContain(body.best!.date);
    for (const d of body.days.filter((x) => x.date === MONDAY || x.date === TUESDAY)) {
      expect(d.score).toBeNull();
      expect(d.summary).toMatch(/^Closed: .*Mondays and Tuesdays/);
    }
    const closed = body.considered.excluded.find((x) => x.reason === "closed_on_date");
    expect(closed?.note).toMatch(/Closed 2026-11-23, 2026-11-24 in this window\.$/);
    // Open days are still ranked, so the spot is not also listed as skipped.
    expect(body.considered.skipped.map((s) => s.spot.id)).not.toContain("hanauma-bay");
  });

  it("shows the closure on the share page for a closed day", async () => {
    const res = await svc.get(`/s/hanauma-bay/${TUESDAY}?activity=snorkel`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("Closed on this date");
    expect(page).toContain("closed all day on Mondays and Tuesdays");
  });

  it("gives MCP hosts the same exclusion and the reservation caveat in the Markdown card", async () => {
    const c = await connectClient(svc.base, "2026-07-28");
    try {
      const closed = (await c.client.callTool({ name: "recommend_spot", arguments: { activity: "snorkel", region: "us-hi-oahu", date: TUESDAY, limit: 5 } })) as {
        structuredContent: RecommendationJson;
      };
      expect(closed.structuredContent.considered.excluded.find((x) => x.spot.id === "hanauma-bay")?.reason).toBe("closed_on_date");
      const open = (await c.client.callTool({ name: "recommend_spot", arguments: { activity: "snorkel", spot: "hanauma-bay", date: WEDNESDAY } })) as {
        structuredContent: RecommendationJson;
        content: { type: string; text: string }[];
      };
      expect(open.structuredContent.picks[0]!.caveats.some((k) => /online entry reservation/.test(k.message))).toBe(true);
      expect(open.content.find((x) => x.type === "text")!.text).toContain("online entry reservation");
    } finally {
      await c.close();
    }
  });
});

describe("reservations and permits", () => {
  it("tells Point Lobos divers that a reservation is required, citing the reserve's rules", async () => {
    const body = await rec(`activity=dive&spot=whalers-cove&date=${WEDNESDAY}`);
    const pick = body.picks[0]!;
    const caveat = pick.caveats.find((k) => k.code === "regulated_area");
    expect(caveat?.message).toMatch(/Point Lobos requires a diving reservation/);
    expect(caveat?.message).toContain("pointlobos.org");
    expect(body.card_markdown).toContain("Point Lobos requires a diving reservation");
  });

  it("shows Stillwater Cove's limited diver access on its share page", async () => {
    const page = await (await svc.get(`/s/stillwater-cove/${WEDNESDAY}?activity=dive`)).text();
    expect(page).toContain("admits a limited number of divers a day");
  });

  it("adds no access caveat where the catalogue records none", async () => {
    const body = await rec(`activity=snorkel&spot=sharks-cove&date=${WEDNESDAY}`);
    expect(body.picks[0]!.caveats.map((k) => k.code)).not.toContain("regulated_area");
  });
});

describe("seasonal closures", () => {
  it("excludes the Children's Pool during the seal pupping season (Dec 15 – May 15) and not before", async () => {
    const before = await rec(`activity=snorkel&spot=childrens-pool&date=${WEDNESDAY}`);
    expect(before.picks.map((p) => p.spot.id)).toEqual(["childrens-pool"]);
    const winter = await startService({ now: "2026-12-20T19:00:00Z" });
    try {
      const { body } = await winter.json<RecommendationJson>("/api/v1/recommendations?activity=snorkel&region=us-ca-san-diego&date=2026-12-21");
      const x = body.considered.excluded.find((e) => e.spot.id === "childrens-pool");
      expect(x?.reason).toBe("closed_on_date");
      expect(x?.note).toMatch(/December 15 to May 15/);
      expect(body.picks.map((p) => p.spot.id)).not.toContain("childrens-pool");
    } finally {
      await winter.close();
    }
  });

  it("reads a season that runs across the new year inclusively at both ends", () => {
    const access = [{ kind: "closed_season" as const, from: "12-15", to: "05-15", rule: "r", source: "https://example.org/" }];
    expect(["2026-12-14", "2027-05-16", "2027-07-01"].map((d) => closureOn(access, d))).toEqual([null, null, null]);
    expect(["2026-12-15", "2027-01-01", "2027-05-15"].every((d) => closureOn(access, d) !== null)).toBe(true);
  });
});

describe("spots unsuited to spearfishing", () => {
  it("excludes the Ko Olina swimming lagoons and Magic Island with a note", async () => {
    const body = await rec(`activity=spearfish&region=us-hi-oahu&date=${WEDNESDAY}&limit=5`);
    for (const id of ["ko-olina-lagoons", "magic-island"]) {
      const x = body.considered.excluded.find((e) => e.spot.id === id);
      expect(x?.reason, id).toBe("unsuited_use");
      expect(x?.note, id).toMatch(/swim/i);
      expect(body.picks.map((p) => p.spot.id)).not.toContain(id);
    }
  });
});
