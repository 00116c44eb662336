// GET /api/v1/best-day through real HTTP, pinned clock, embedded data.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConditionsJson } from "../src/schemas/conditions.js";
import { BestDaySchema, type BestDayJson } from "../src/schemas/decisions.js";
import { expectProblem } from "./helpers/problem.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const best = async (qs: string) => {
  const r = await svc.json<BestDayJson>(`/api/v1/best-day?${qs}`);
  if (r.status === 200) expect(BestDaySchema.parse(r.body)).toEqual(r.body);
  return r;
};

describe("best day", () => {
  it("scores each of the next 7 days and names the winner, the runner-up and the margin", async () => {
    const { status, body } = await best("activity=snorkel&region=us-hi-oahu");
    expect(status).toBe(200);
    expect(body).toMatchObject({ schema: "service.best_day.v1", status: "ok" });
    expect(body.range).toEqual({ from: "2026-11-21", to: "2026-11-27", requested_from: "2026-11-21", requested_to: "2026-11-27" });
    expect(body.days.map((d) => d.date)).toEqual(["2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"]);
    expect(body.days.map((d) => d.date_label).slice(0, 2)).toEqual(["Today", "Tomorrow"]);
    // The spec: the highest score wins, the nearer day on a tie.
    const top = Math.max(...body.days.map((d) => d.score ?? -1));
    expect(body.best!.score).toBe(top);
    expect(body.best!.date).toBe(body.days.find((d) => d.score === top)!.date);
    const winningDay = body.days.find((d) => d.date === body.best!.date)!;
    expect(winningDay.spot!.id).toBe(body.best!.spot.id);
    expect(winningDay.best_window).toEqual(body.best!.best_window);
    expect(body.best!.date_label).toBe(winningDay.date_label);
    expect(body.runner_up!.date).not.toBe(body.best!.date);
    expect(body.runner_up!.score).toBeLessThanOrEqual(body.best!.score);
    expect(body.best!.why.versus_next).toMatch(/^(\d+ points? ahead of|Ties with) /);
    expect(body.cards).toEqual([body.best!.card]);
    expect(body.data_credits).toEqual(body.best!.data_credits);
    expect(body.card_markdown).toContain("| Day | Rating | Score | Spot | Window |");
    expect(body.days).toHaveLength(7);
    for (const d of body.days) expect(d.summary.length).toBeGreaterThan(10);
  });

  it("quotes the facts for the winning day in every region and activity", async () => {
    const regions = svc.ctx.catalog.regions.filter((r) => r.decision_support === "full");
    let winners = 0;
    let daysChecked = 0;
    let daysWithoutSpot = 0;
    const declined: string[] = [];
    for (const region of regions) {
      for (const activity of ["snorkel", "dive", "freedive", "spearfish"]) {
        const { body } = await best(`activity=${activity}&region=${region.id}`);
        if (!body.best) {
          expect(body.considered.scored).toBe(0);
          declined.push(`${activity}@${region.id}`);
          continue;
        }
        const c = await svc.json<ConditionsJson>(`/api/v1/conditions?spot=${body.best.spot.id}&from=${body.best.date}&to=${body.best.date}`);
        const p = c.body.periods.find((x) => x.start === body.best!.best_window.start)!;
        expect(body.best.score).toBe(p.score);
        expect(body.best.metrics.visibility_ft).toBe(p.visibility_ft);
        winners++;
        // Only today may lack a spot: where the pinned time is already after dark (Cairo, Malta).
        expect(body.days.slice(1).every((x) => x.spot)).toBe(true);
        if (!body.days[0]!.spot) daysWithoutSpot++;
        for (const d of body.days.filter((x) => x.spot)) {
          const cd = await svc.json<ConditionsJson>(`/api/v1/conditions?spot=${d.spot!.id}&from=${d.date}&to=${d.date}`);
          expect(cd.body.periods.find((x) => x.start === d.best_window!.start)!.score).toBe(d.score);
          daysChecked++;
        }
      }
    }
    // Every full-support region has a winner for each ranked activity, with 7 days each, except
    // spearfishing where every spot lies in water closed to it or unsuited to it: parks (Bonaire,
    // Cozumel, Komodo, Phi Phi & Ko Lanta, Galápagos, Palau's Rock Islands, the Similans, Raja Ampat,
    // Bunaken, Roatán's reserve with the Bay Islands speargun ban, the reported reserve off Tulamben,
    // Puerto Galera's dive sites, which its dive centres say are protected from fishing),
    // Bunaken, Roatán's reserve with the Bay Islands speargun ban, the reported reserve off Tulamben, the
    // Nusa Penida marine protected area),
    // national bans on spear guns (the Maldives, Belize's visitors, Curaçao), Aruba (every spot a bathing beach,
    // a tour-boat wreck or too deep, under its permit-only spear-gun tolerance), Grand Cayman's licence,
    // Egypt's suspension of recreational fishing on its Red Sea coasts, Portofino's protected area, Aqaba's marine reserve (its one
    // spot outside, the Power Station wall, is out because spear guns may not be brought into Jordan),
    // Eilat's Coral Beach reserve (its other spots are two dive-training wrecks and the dolphin enclosure),
    // and the Florida Keys, whose one open spot, the Duane wreck, lies beyond a breath-hold dive.
    const noSpearfishing = [
      "aw-aw-aruba",
      "bq-bo-bonaire",
      "bz-bz-ambergris-lighthouse",
      "cw-cw-curacao",
      "ec-w-galapagos-central",
      "eg-ba-hurghada",
      "eg-ba-marsa-alam",
      "eg-js-dahab",
      "eg-js-sharm-el-sheikh",
      "hn-ib-roatan-west",
      "id-ba-nusa-penida",
      "id-ba-tulamben-amed",
      "id-nb-gili-islands",
      "id-nt-komodo",
      "id-pd-raja-ampat",
      "id-sa-bunaken",
      "il-d-eilat",
      "it-42-portofino",
      "jo-aq-aqaba",
      "ky-gc-grand-cayman",
      "mv-26-male-atolls",
      "mx-roo-cozumel",
      "ph-mdr-puerto-galera",
      "pt-30-madeira",
      "pw-150-rock-islands",
      "th-81-phi-phi-lanta",
      "th-82-similan",
      "us-fl-keys",
    ];
    // And snorkelling where no spot suits it: the Crystal Coast's wrecks lie 17–35 m down, far offshore,
    // and its one shore dive sits on a ship channel's tidal current; every Plymouth site is a boat dive
    // 14-32 m down, offshore or among harbour traffic.
    const noSnorkelling = ["gb-con-south-cornwall", "us-nc-crystal-coast"];
    expect(regions.length).toBeGreaterThan(1);
    expect(declined.sort()).toEqual([...noSnorkelling.map((r) => `snorkel@${r}`), ...noSpearfishing.map((r) => `spearfish@${r}`)].sort());
    expect(winners).toBe(regions.length * 4 - noSpearfishing.length - noSnorkelling.length);
    expect(daysChecked).toBe(winners * 7 - daysWithoutSpot);
  });

  it("finds the best day at a single spot", async () => {
    const { body } = await best("activity=dive&spot=molokini-back-wall&from=2026-11-22&to=2026-11-24");
    expect(body.days).toHaveLength(3);
    expect(body.days.every((d) => d.spot?.id === "molokini-back-wall")).toBe(true);
    expect(body.best!.spot.id).toBe("molokini-back-wall");
  });

  it("clamps a past `from` to today and echoes what was asked", async () => {
    const { body } = await best("activity=snorkel&region=us-hi-maui&from=2026-11-18&to=2026-11-23");
    expect(body.range).toEqual({ from: "2026-11-21", to: "2026-11-23", requested_from: "2026-11-18", requested_to: "2026-11-23" });
    expect(body.days).toHaveLength(3);
  });

  it("trims a window that runs past the horizon", async () => {
    const { body } = await best("activity=snorkel&region=us-hi-maui&from=2026-11-25&to=2026-11-30");
    expect(body.range).toMatchObject({ from: "2026-11-25", to: "2026-11-27", requested_to: "2026-11-30" });
  });

  it("shows today as having no window left once daylight has passed", async () => {
    const evening = await startService({ now: "2026-11-22T05:00:00Z" });
    try {
      const { body } = await evening.json<BestDayJson>("/api/v1/best-day?activity=snorkel&region=us-hi-oahu");
      expect(body.days[0]).toMatchObject({ date: "2026-11-21", score: null, spot: null, best_window: null, summary: "No daylight window left today." });
      expect(body.best!.date).not.toBe("2026-11-21");
    } finally {
      await evening.close();
    }
  });

  it("answers the non-ranking statuses with every day listed", async () => {
    const surf = await best("activity=surf&region=us-hi-oahu");
    expect(surf.body).toMatchObject({ status: "activity_not_modeled", best: null, runner_up: null });
    expect(surf.body.facts_hint!.tool).toBe("get_conditions");
    expect(surf.body.days).toHaveLength(7);
    // Open South Atlantic, far from every covered region (Cape Town itself is covered now).
    const far = await best("activity=snorkel&lat=-40&lon=-30");
    expect(far.body.status).toBe("not_covered");
    expect(far.body.coverage.nearest_covered).not.toBeNull();
    const catalina = await best("activity=snorkel&region=us-ca-catalina");
    expect(catalina.body.status).toBe("conditions_only");
  });
});

describe("bad requests", () => {
  it.each([
    ["region=us-hi-oahu", 400, "missing_activity"],
    ["activity=windsurf&region=us-hi-oahu", 400, "unknown_activity"],
    ["activity=snorkel", 400, "missing_location"],
    ["activity=snorkel&spot=hanauma-bay&lat=1&lon=2", 400, "ambiguous_location"],
    ["activity=snorkel&region=us-hi-oahu&from=2026-11-24&to=2026-11-22", 400, "invalid_range"],
    ["activity=snorkel&region=us-hi-oahu&from=2026-11-21&to=2026-11-28", 400, "range_too_long"],
    ["activity=snorkel&region=us-hi-oahu&from=2026-11-21&to=2026-11-2", 400, "invalid_date"],
    ["activity=snorkel&lat=21&lon=-157&radius_km=500", 400, "invalid_radius"],
    ["activity=snorkel&spot=nowhere", 404, "unknown_spot"],
    ["activity=snorkel&region=nowhere", 404, "unknown_spot"],
    ["activity=snorkel&region=us-hi-oahu&from=2026-11-28", 422, "outside_horizon"],
    ["activity=snorkel&region=us-hi-oahu&from=2026-11-01&to=2026-11-05", 422, "outside_horizon"],
  ])("?%s → %s %s", async (qs, status, code) => {
    const r = await svc.json(`/api/v1/best-day?${qs}`);
    expectProblem(svc, r.status, r.body, status, code);
  });
});
