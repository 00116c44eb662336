// GET /api/v1/spots and GET /api/v1/coverage through real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CoverageSchema, SpotListSchema, type CoverageJson, type SpotListJson } from "../src/schemas/catalog.js";
import { expectProblem } from "./helpers/problem.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

describe("spots directory", () => {
  it("lists every spot with its region, zone and links, and no distance without a point", async () => {
    const { status, body } = await svc.json<SpotListJson>("/api/v1/spots");
    expect(status).toBe(200);
    expect(SpotListSchema.parse(body)).toEqual(body);
    expect(body.schema).toBe("service.spots.v1");
    expect(body.spots.length).toBe(svc.ctx.catalog.spots.length);
    expect(body.regions.reduce((n, r) => n + r.spot_count, 0)).toBe(body.spots.length);
    for (const s of body.spots) {
      expect(s).not.toHaveProperty("distance_km");
      expect(s.links.conditions).toBe(`${svc.base}/api/v1/conditions?spot=${s.id}`);
      expect(s.timezone).toBeTruthy();
    }
  });

  it("filters by region and by a case- and accent-insensitive name search", async () => {
    const oahu = await svc.json<SpotListJson>("/api/v1/spots?region=us-hi-oahu");
    expect(oahu.body.spots.length).toBeGreaterThan(5);
    expect(oahu.body.spots.every((s) => s.region.id === "us-hi-oahu")).toBe(true);
    expect(oahu.body.regions.map((r) => r.id)).toEqual(["us-hi-oahu"]);
    const byName = await svc.json<SpotListJson>("/api/v1/spots?q=HANAUMA");
    expect(byName.body.spots.map((s) => s.id)).toEqual(["hanauma-bay"]);
    const byId = await svc.json<SpotListJson>("/api/v1/spots?q=jolla");
    expect(byId.body.spots.length).toBeGreaterThanOrEqual(2);
    const none = await svc.json<SpotListJson>("/api/v1/spots?region=xx-yy-nowhere");
    expect(none.status).toBe(200);
    expect(none.body.spots).toEqual([]);
  });

  it("sorts by distance from a point and gives each spot its distance", async () => {
    const { body } = await svc.json<SpotListJson>("/api/v1/spots?lat=32.85&lon=-117.27");
    expect(body.spots[0]!.id).toBe("la-jolla-cove");
    const d = body.spots.map((s) => s.distance_km!);
    expect(d.every((x) => typeof x === "number")).toBe(true);
    expect([...d].sort((a, b) => a - b)).toEqual(d);
  });

  it("rejects a half or broken point", async () => {
    for (const qs of ["lat=32", "lat=x&lon=1", "lat=100&lon=0"]) {
      const r = await svc.json(`/api/v1/spots?${qs}`);
      expectProblem(svc, r.status, r.body, 400, "invalid_coordinates");
    }
  });
});

describe("coverage", () => {
  it("publishes regions with decision support, bounding boxes and spots, and the activity models", async () => {
    const { status, body } = await svc.json<CoverageJson>("/api/v1/coverage");
    expect(status).toBe(200);
    expect(CoverageSchema.parse(body)).toEqual(body);
    expect(body.schema).toBe("service.coverage.v1");
    expect(body.regions.length).toBeGreaterThanOrEqual(6);
    expect(body.regions.reduce((n, r) => n + r.spot_count, 0)).toBeGreaterThanOrEqual(60);
    expect(body.regions.some((r) => r.decision_support === "conditions_only")).toBe(true);
    expect(body.regions.some((r) => r.country !== "US")).toBe(true);
    for (const r of body.regions) {
      expect(r.id).toMatch(/^[a-z]{2}-[a-z0-9]+-[a-z0-9-]+$/);
      expect(r.spot_count).toBe(r.spots.length);
      for (const s of r.spots) {
        expect(s.lat).toBeGreaterThanOrEqual(r.bbox.south);
        expect(s.lat).toBeLessThanOrEqual(r.bbox.north);
        expect(s.lon).toBeGreaterThanOrEqual(r.bbox.west);
        expect(s.lon).toBeLessThanOrEqual(r.bbox.east);
      }
    }
    expect(body.activities.map((a) => [a.id, a.model])).toEqual([
      ["snorkel", "native"],
      ["dive", "proxy"],
      ["freedive", "proxy"],
      ["spearfish", "proxy"],
      ["surf", "unsupported"],
    ]);
  });

  it("filters by region, and says so when the region is unknown", async () => {
    const one = await svc.json<CoverageJson>("/api/v1/coverage?region=us-ca-san-diego");
    expect(one.body.regions.map((r) => r.id)).toEqual(["us-ca-san-diego"]);
    const none = await svc.json<CoverageJson>("/api/v1/coverage?region=atlantis");
    expect(none.status).toBe(200);
    expect(none.body.regions).toEqual([]);
    expect(none.body.notes[0]).toMatch(/No region has id "atlantis"/);
  });
});
