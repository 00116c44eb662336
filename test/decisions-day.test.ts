// One day's decision over several spots (src/decisions/evaluate.ts, response.ts), on the real
// forecast service fed by an upstream double: equal conditions ranked by distance then id, spots
// without a daylight period skipped with their reason, and the answer dated by its newest data.
import { describe, expect, it } from "vitest";
import { activity } from "../src/base/activities.js";
import { Catalog, type Spot } from "../src/catalog/catalog.js";
import { FixedClock } from "../src/base/clock.js";
import type { ServiceContext } from "../src/services/context.js";
import { evaluateDay } from "../src/decisions/evaluate.js";
import type { Destination } from "../src/decisions/request.js";
import { decisionDataTime } from "../src/decisions/response.js";
import { ForecastService } from "../src/forecast/service.js";
import type { HourlyInputs, Source, TideSource } from "../src/sources/types.js";
import { calmInputs } from "./helpers/inputs.js";

const catalog = Catalog.load();
const hanauma = catalog.spot("hanauma-bay")!;
/** Copies of one spot under other names: the same conditions at each. */
const twin = (id: string): Spot => ({ ...hanauma, id, name: `Twin ${id}` });
const HOUR = new Date("2026-11-21T19:00:00Z");
const minutes = (m: number) => new Date(HOUR.getTime() + m * 60_000);

/** An upstream whose answers were fetched at a different time for each spot. */
function upstream(fetched: Record<string, Date>): Source {
  return {
    id: "test",
    async hourly(spot: Spot, start: Date, end: Date): Promise<HourlyInputs> {
      return calmInputs(start, end, { id: "test:upstream", climatology: false, fetchedAt: fetched[spot.id] ?? null, credits: [] });
    },
  };
}
const noTides: TideSource = { id: "none", extremes: async () => null };

function context(at: string, fetched: Record<string, Date> = {}): ServiceContext {
  const clock = new FixedClock(at);
  return { clock, forecasts: new ForecastService({ source: upstream(fetched), tides: noTides, clock }, catalog) } as unknown as ServiceContext;
}
const eligible = (spots: [Spot, number | null][]) => ({ eligible: spots.map(([spot, distanceKm]) => ({ candidate: { spot, distanceKm }, regulatedAreas: [] })), excluded: [] });

describe("one day over several spots", () => {
  it("ranks equal conditions by distance, then by id, and dates the answer by the newest data it read", async () => {
    const [a, b, c] = [twin("twin-a"), twin("twin-b"), twin("twin-c")];
    const ctx = context("2026-11-21T19:30:00Z", { "twin-c": minutes(10), "twin-b": minutes(20), "twin-a": minutes(5) });
    const day = await evaluateDay(
      eligible([
        [c, 5],
        [b, 5],
        [a, 2],
      ]),
      "2026-11-21",
      activity("snorkel"),
      ctx,
    );
    expect(day.options.map((o) => o.candidate.spot.id)).toEqual(["twin-a", "twin-b", "twin-c"]);
    expect(new Set(day.options.map((o) => o.period.score)).size).toBe(1);
    expect(day.dataTime).toEqual(minutes(20));
    expect(day.considered).toEqual({ scored: 3, excluded: [], skipped: [] });
    const far = await evaluateDay(
      eligible([
        [a, 9],
        [c, 1],
        [b, 4],
      ]),
      "2026-11-21",
      activity("snorkel"),
      ctx,
    );
    expect(far.options.map((o) => o.candidate.spot.id)).toEqual(["twin-c", "twin-b", "twin-a"]);
  });

  it("skips a spot with no daylight period left that day, saying so", async () => {
    // 18:30 in Honolulu: the day's last daylight period (15:00–18:00) is over.
    const ctx = context("2026-11-22T04:30:00Z");
    const day = await evaluateDay(eligible([[twin("twin-a"), null]]), "2026-11-21", activity("snorkel"), ctx);
    expect(day.options).toEqual([]);
    expect(day.considered.skipped).toEqual([{ spot: { id: "twin-a", name: "Twin twin-a" }, reason: "no_daylight_data", note: "No scored daylight period on 2026-11-21." }]);
  });
});

describe("the time a decision is dated", () => {
  const dest = { covered: true, region: hanauma.region } as unknown as Destination;
  it("is the newest data read, or the start of the hour when none is newer", () => {
    const ctx = context("2026-11-21T19:30:00Z");
    expect(decisionDataTime(ctx, dest, [null, minutes(20), minutes(5)])).toBe("2026-11-21T09:20:00-10:00");
    expect(decisionDataTime(ctx, dest, [minutes(5), minutes(20), null])).toBe("2026-11-21T09:20:00-10:00");
    expect(decisionDataTime(ctx, dest, [minutes(-30), null])).toBe("2026-11-21T09:00:00-10:00");
    expect(decisionDataTime(ctx, dest)).toBe("2026-11-21T09:00:00-10:00");
  });
});
