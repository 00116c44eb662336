// The catalogue the decision tests rank: the real regions and spots, with every region except
// Santa Catalina published `full`. No region earns `full` from the visibility calibration yet
// (docs/model.md), so the shipped data publishes them all `conditions_only`; ranking, exclusions,
// caveats and cards still need a ranked region to be tested on real spots. Catalina stays the
// `conditions_only` example. What the data actually publishes is tested in calibration.test.ts.
import { Catalog } from "../../src/catalog/catalog.js";

export const UNRANKED_TEST_REGION = "us-ca-catalina";

export function rankedTestCatalog(): Catalog {
  return new Catalog(Catalog.readRecords().map((r) => ({ ...r, decision_support: r.id === UNRANKED_TEST_REGION ? "conditions_only" : "full" })));
}
