// The catalogue the decision tests rank: the real regions and spots, with every region except
// Santa Catalina published `full` and every spot ranked there as if its typical visibility were
// calibrated. Ranking, exclusions, caveats and cards need ranked regions and spots to be tested on
// real places, whatever the calibration of the day says; Catalina stays the `conditions_only`
// example. What the data actually publishes, spot by spot, is tested on the shipped catalogue in
// calibration.test.ts and rules-and-ranking.test.ts.
import { Catalog } from "../../src/catalog/catalog.js";
import { OPEN_METEO_FREE_TIER } from "../../src/base/upstream-limits.js";
import { endpointFor, FORECAST, MARINE, openMeteoCallWeight, queryPlan } from "../../src/sources/open-meteo.js";

export const UNRANKED_TEST_REGION = "us-ca-catalina";

export function rankedTestCatalog(): Catalog {
  const catalog = new Catalog(Catalog.readRecords().map((r) => ({ ...r, decision_support: r.id === UNRANKED_TEST_REGION ? "conditions_only" : "full" })));
  for (const s of catalog.spots) {
    s.levelCalibrated = true;
    s.ranked = s.region.decision_support === "full";
  }
  return catalog;
}

/**
 * Regions in catalogue order while one download of each (Open-Meteo marine and forecast) stays within
 * `share` of Open-Meteo's calls a minute. The three-process test asks every spot of them at once:
 * more would meet the per-minute limit (honest 503s with Retry-After, tested in
 * test/live-emulator.test.ts), which is not what that test measures. A fixed list grew past the limit
 * as its regions gained spots (28 regions weighed 550 of 600 calls, and the validation hindcast may
 * spend another tenth of the minute), so the list is measured, not written down.
 */
export function regionsWithinMinute(share: number): string[] {
  const budget = share * OPEN_METEO_FREE_TIER.perMinute;
  const out: string[] = [];
  let spent = 0;
  for (const r of Catalog.load().regions) {
    const plan = queryPlan(r);
    const weight = openMeteoCallWeight(endpointFor(MARINE, plan), plan.points.length) + openMeteoCallWeight(endpointFor(FORECAST, plan), plan.points.length);
    if (spent + weight > budget) continue;
    spent += weight;
    out.push(r.id);
  }
  return out;
}
