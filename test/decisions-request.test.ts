// Reading a decision request: the activity, one location, the radius, the limit and the date, each
// refused with the spec's code, a detail that says what to send instead, and the problem's extra
// members (allowed values, regions, the horizon); and the spots a region or point query considers.
import { describe, expect, it } from "vitest";
import { Catalog } from "../src/catalog/catalog.js";
import type { ServiceContext } from "../src/services/context.js";
import { assertWithinHorizon, parseActivity, parseDecisionQuery, parseLimit, resolveDestination } from "../src/decisions/request.js";
import { ServiceError } from "../src/base/errors.js";

const ACTIVITIES = ["snorkel", "dive", "freedive", "spearfish", "surf"];

/** The ServiceError a call throws (fails the test when it does not throw one). */
function refusal(f: () => unknown): ServiceError {
  try {
    f();
  } catch (e) {
    if (e instanceof ServiceError) return e;
    throw e;
  }
  throw new Error("expected a ServiceError");
}

describe("the activity", () => {
  it("is required, and an unknown one is refused with the allowed values", () => {
    expect(refusal(() => parseActivity(undefined))).toMatchObject({ code: "missing_activity", detail: "Give an `activity`: one of snorkel, dive, freedive, spearfish, surf." });
    const kite = refusal(() => parseActivity("kite"));
    expect(kite).toMatchObject({ code: "unknown_activity", extra: { allowed: ACTIVITIES } });
    expect(kite.detail).toBe(
      'Unknown activity "kite". Allowed values: snorkel, dive, freedive, spearfish, surf. Kite, windsurf and wing sports have no decision model; wind facts for every spot are in the conditions endpoint.',
    );
  });

  it("refuses a repeated activity as unknown, still listing the allowed values", () => {
    const twice = refusal(() => parseActivity(["dive", "snorkel"]));
    expect(twice).toMatchObject({ code: "unknown_activity", extra: { allowed: ACTIVITIES } });
    expect(twice.detail).toMatch(/activity.* Allowed values: snorkel, dive, freedive, spearfish, surf\.$/);
  });

  it("reads any letter case", () => expect(parseActivity("Snorkel").id).toBe("snorkel"));
});

describe("the location and radius", () => {
  it("takes exactly one location, and the radius as a number more than 0 and at most 100 km", () => {
    expect(refusal(() => parseDecisionQuery({ activity: "dive" })).code).toBe("missing_location");
    expect(refusal(() => parseDecisionQuery({ activity: "dive", region: "us-hi-oahu", spot: "hanauma-bay" })).code).toBe("ambiguous_location");
    expect(parseDecisionQuery({ activity: "dive", region: "us-hi-oahu" })).toMatchObject({ regionId: "us-hi-oahu", spotId: null, point: null, radiusKm: 40, radiusGiven: null });
    expect(parseDecisionQuery({ activity: "dive", lat: "21.27", lon: "-157.69", radius_km: "100" })).toMatchObject({ radiusKm: 100, radiusGiven: 100 });
    for (const radius of ["0", "100.5", "-3"]) {
      const e = refusal(() => parseDecisionQuery({ activity: "dive", lat: "21.27", lon: "-157.69", radius_km: radius }));
      expect(e.code).toBe("invalid_radius");
      expect(e.detail).toBe(`\`radius_km\` must be more than 0 and at most 100; got ${Number(radius)}.`);
    }
    expect(refusal(() => parseDecisionQuery({ activity: "dive", lat: "21.27", lon: "-157.69", radius_km: "far" })).detail).toMatch(/radius_km/);
  });

  it("names the parameter given twice", () => {
    expect(refusal(() => parseDecisionQuery({ activity: "dive", region: ["us-hi-oahu", "us-hi-maui"] })).detail).toBe("Give `region` once; it was given 2 times.");
  });

  it("takes a limit from 1 to 5, 3 by default", () => {
    expect(parseLimit(undefined)).toBe(3);
    expect(parseLimit("5")).toBe(5);
    for (const v of ["0", "6", "2.5"]) expect(refusal(() => parseLimit(v))).toMatchObject({ code: "invalid_limit", detail: `\`limit\` must be a whole number from 1 to 5; got ${Number(v)}.` });
    expect(refusal(() => parseLimit("many")).detail).toMatch(/limit/);
  });
});

describe("the spots considered", () => {
  const records = Catalog.readRecords();
  const catalog = Catalog.load();
  const ctx = (c: Catalog) => ({ catalog: c }) as unknown as ServiceContext;
  const query = (over: Record<string, string>) => parseDecisionQuery({ activity: "dive", ...over });

  it("refuses an unknown region with the regions there are", () => {
    const e = refusal(() => resolveDestination(query({ region: "qqqq-zzzz" }), ctx(catalog)));
    const ids = catalog.regions.map((r) => r.id);
    expect(e).toMatchObject({ code: "unknown_spot", extra: { region: "qqqq-zzzz", suggestions: [], regions: ids } });
    expect(e.detail).toBe(`No region with id \`qqqq-zzzz\`, so no spot to rank. Regions (list_coverage; REST: /api/v1/coverage): ${ids.join(", ")}.`);
  });

  it("considers at most 20 spots of a region and counts the rest as over the limit", () => {
    const oahu = records.find((r) => r.id === "us-hi-oahu")!;
    const spots = Array.from({ length: 25 }, (_, i) => ({ ...oahu.spots[i % oahu.spots.length]!, id: `reef-${i}`, name: `Reef ${i}` }));
    const big = new Catalog([{ ...oahu, spots }]);
    const d = resolveDestination(query({ region: "us-hi-oahu" }), ctx(big));
    expect(d.covered && d.candidates.map((c) => c.spot.id)).toEqual(spots.slice(0, 20).map((s) => s.id));
    expect(d.covered && d.overLimit.map((c) => c.spot.id)).toEqual(spots.slice(20).map((s) => s.id));
    const near = resolveDestination(query({ lat: String(spots[0]!.lat), lon: String(spots[0]!.lon), radius_km: "100" }), ctx(big));
    expect(near.covered && near.candidates.length).toBe(20);
    expect(near.covered && near.overLimit.length).toBe(5);
  });
});

describe("the date", () => {
  it("lies between today and today + 6, and a date outside says which dates are available", () => {
    expect(() => assertWithinHorizon("2026-11-21", "2026-11-21")).not.toThrow();
    expect(() => assertWithinHorizon("2026-11-27", "2026-11-21")).not.toThrow();
    for (const date of ["2026-11-20", "2026-11-28"]) {
      expect(refusal(() => assertWithinHorizon(date, "2026-11-21"))).toMatchObject({
        code: "outside_horizon",
        detail: `date ${date} is outside the forecast horizon: 2026-11-21 (today, spot-local) through 2026-11-27.`,
        extra: { available_from: "2026-11-21", available_to: "2026-11-27" },
      });
    }
  });
});
