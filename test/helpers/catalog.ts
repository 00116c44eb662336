// The catalogue the decision tests rank: the real regions and spots, with every region except
// Santa Catalina published `full` and every spot ranked there as if its typical visibility were
// calibrated. Ranking, exclusions, caveats and cards need ranked regions and spots to be tested on
// real places, whatever the calibration of the day says; Catalina stays the `conditions_only`
// example. What the data actually publishes, spot by spot, is tested on the shipped catalogue in
// calibration.test.ts and rules-and-ranking.test.ts.
import { Catalog } from "../../src/catalog/catalog.js";

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
 * The 28 regions of the catalogue before it grew to 47. The three-process test asks every spot of
 * them in real time: every spot of the 47 at once meets Open-Meteo's 600 calls a minute (honest 503s
 * with Retry-After, tested in test/live-emulator.test.ts), which is not what that test measures.
 */
export const FIRST_REGIONS: readonly string[] = ["au-nsw-sydney", "au-qld-cairns", "bq-bo-bonaire", "eg-ba-hurghada", "eg-js-dahab", "eg-js-sharm-el-sheikh", "es-cn-gran-canaria", "es-cn-lanzarote", "es-ct-costa-brava", "gb-ork-scapa-flow", "id-nt-komodo", "jp-47-okinawa", "ky-gc-grand-cayman", "mt-30-malta-gozo", "mx-roo-cozumel", "nz-ntl-northland", "ph-07-cebu-bohol", "th-81-phi-phi-lanta", "us-ca-catalina", "us-ca-monterey", "us-ca-san-diego", "us-fl-keys", "us-gu-guam", "us-hi-kona", "us-hi-maui", "us-hi-oahu", "us-vi-st-john-st-thomas", "za-wc-cape-peninsula"];
