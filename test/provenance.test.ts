// The provenance rule (src/catalog/provenance.ts, docs/data.md "Sources"), which npm run data:check
// applies: every cited page has a judged publisher, and nothing that places or protects a person, and
// no level said to rest on a published figure, rests on generated text. On the shipped data (none of
// it may) and on made-up records (each breach is caught).
import { describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import { countingRefs } from "../src/catalog/levels.js";
import { provenanceErrors } from "../src/catalog/provenance.js";
import { GENERATED_LEAD, Publishers, shippedPublishers } from "../src/catalog/publishers.js";
import type { RegionRecord, SpotRecord } from "../src/catalog/schema.js";
import { readFileSync } from "node:fs";

const PUBLISHERS = new Publishers([
  { match: "park.example", kind: "authority", name: "A park", why: "Test." },
  { match: "shop.example", kind: "operator", name: "A dive shop", why: "Test." },
  { match: "farm.example", kind: "generated", name: "A page farm", why: "Test." },
]);
const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const spot = (over: Partial<SpotRecord> = {}): SpotRecord => ({
  id: "s",
  name: "S",
  lat: 0,
  lon: 0,
  coord: { source: "https://park.example/map", note: "From the park map.", confidence: "sourced" },
  entry: ["shore"],
  typical_depth_m: 10,
  max_depth_m: 20,
  bottom: "reef",
  exposure: ["N"],
  swell_exposure: 0.5,
  unsuited: {},
  tide_station: null,
  clarity_ft: Array<number>(12).fill(60),
  clarity_source: "x",
  clarity_kind: "site",
  runoff: 0.1,
  visibility_refs: [{ low_ft: 40, high_ft: 80, months: ALL, kind: "site", source: "https://shop.example/site", says: "x" }],
  access: [],
  notes: "",
  ...over,
});
const region = (s: SpotRecord): RegionRecord => ({
  id: "xx-x-r",
  name: "R",
  country: "XX",
  admin1: "XX-X",
  timezone: "UTC",
  decision_support: "full",
  response_check: "Checked.",
  notes: "",
  spots: [s],
});
const errors = (s: SpotRecord, areas: { id: string; source: string | null }[] = []) => provenanceErrors([region(s)], areas, PUBLISHERS);

describe("the shipped data", () => {
  it("keeps the rule: every page judged, nothing resting on generated text", () => {
    const areas = (JSON.parse(readFileSync("data/protected-areas.json", "utf8")) as { areas: { id: string; source: string | null }[] }).areas;
    expect(provenanceErrors(Catalog.readRecords(), areas, shippedPublishers())).toEqual([]);
  });

  it("counts no reference from the AI-written dive-site wiki or any other generated page", () => {
    const publishers = shippedPublishers();
    expect(publishers.of("https://github.com/jbunderwater/dive-vibe-community/blob/x/divesites/a.md")?.kind).toBe("generated");
    for (const s of Catalog.load().spots) {
      for (const r of countingRefs(s, publishers)) expect(publishers.of(r.source)!.kind, `${s.id}: ${r.source}`).not.toBe("generated");
    }
  });
});

describe("each breach is caught", () => {
  it("a clean record passes", () => {
    expect(errors(spot())).toEqual([]);
  });

  it("a page whose publisher is not judged", () => {
    expect(errors(spot({ coord: { source: "https://nobody.example/", note: "x", confidence: "approximate" } }))).toEqual([
      "xx-x-r/s coord: the publisher of https://nobody.example/ is not judged (add its host to data/publishers.json; docs/data.md, Sources)",
    ]);
  });

  it("a position on generated text, whatever its confidence", () => {
    const gen = "https://farm.example/spot";
    for (const confidence of ["sourced", "cross-checked", "approximate"] as const) {
      expect(errors(spot({ coord: { source: gen, note: `${GENERATED_LEAD} From a generated page.`, confidence } }))).toEqual([
        "xx-x-r/s: its position rests on generated text (A page farm); place it from a person's source or description (approximate, saying how), or remove the spot",
      ]);
    }
  });

  it("a closure, permit or protected area on generated text", () => {
    const access = [{ kind: "closed_weekdays" as const, weekdays: ["mon" as const], rule: "Closed Mondays.", source: "https://farm.example/rules" }];
    expect(errors(spot({ access }))).toEqual(["xx-x-r/s: its closed_weekdays rule rests on generated text (A page farm); cite the authority's own text"]);
    expect(errors(spot(), [{ id: "reserve", source: "https://farm.example/reserve" }])).toEqual(["protected area reserve: rests on generated text (A page farm); cite the authority's own text"]);
  });

  it("a level said to rest on a published figure when the only such figure is generated", () => {
    const generatedOnly = spot({ visibility_refs: [{ low_ft: 40, high_ft: 80, months: ALL, kind: "site", source: "https://farm.example/site", says: `${GENERATED_LEAD} x` }] });
    expect(errors(generatedOnly)).toEqual(["xx-x-r/s: its level is said to rest on a site figure, but no such figure from a person is cited; label it judgement"]);
    expect(errors({ ...generatedOnly, clarity_kind: "judgement" })).toEqual([]);
  });

  it("a generated page cited without the lead mark: in a reference, or prose after its address", () => {
    const gen = "https://farm.example/site";
    expect(errors(spot({ visibility_refs: [...spot().visibility_refs, { low_ft: 40, high_ft: 80, months: ALL, kind: "site", source: gen, says: "x" }] }))).toEqual([
      `xx-x-r/s: a visibility reference cites generated text (${gen}); start its says with ${GENERATED_LEAD}`,
    ]);
    expect(errors(spot({ clarity_source: `Pooled with 20 m (${gen}).` }))).toEqual([`xx-x-r/s: its clarity_source cites generated text (${gen}) without ${GENERATED_LEAD} after the address`]);
    expect(errors(spot({ clarity_source: `Not counted: 20 m (${gen} ${GENERATED_LEAD}).`, notes: `See ${gen} ${GENERATED_LEAD}.` }))).toEqual([]);
  });

  it("a level below a published floor", () => {
    const floor = { low_ft: 70, high_ft: null, months: ALL, kind: "site" as const, source: "https://park.example/site", says: "Rarely under 70 ft." };
    const s = spot({ visibility_refs: [...spot().visibility_refs, floor] });
    expect(errors(s)[0]).toMatch(/^xx-x-r\/s: its level lies beyond a published floor or ceiling in Jan, Feb/);
    expect(errors({ ...s, clarity_ft: Array<number>(12).fill(75) })).toEqual([]);
  });
});
