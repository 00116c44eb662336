// GET /openapi.json is a valid OpenAPI 3.1 document generated from the service's own schemas, every
// problem `type` URI resolves to a component, and every documented status is one the API uses.
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_ERROR_CODES, ERROR_CODES } from "../src/errors.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
let doc: {
  openapi: string;
  info: { version: string };
  paths: Record<string, { get: { parameters: { name: string; required: boolean }[]; responses: Record<string, unknown> } }>;
  components: { schemas: Record<string, { $anchor?: string }> };
};
beforeAll(async () => {
  svc = await startService();
  doc = (await svc.json<typeof doc>("/openapi.json")).body;
});
afterAll(() => svc.close());

describe("OpenAPI document", () => {
  it("is valid OpenAPI 3.1, document version 1.0.0", async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const broken = await new Validator().validate({ ...structuredClone(doc), paths: { "/x": { get: { responses: "none" } } } } as never);
    expect(broken.valid).toBe(false);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
  });

  it("describes every REST endpoint with its parameters and the spec's status codes", () => {
    const statuses = (p: string) => Object.keys(doc.paths[p]!.get.responses).sort();
    expect(statuses("/api/v1/conditions")).toEqual(["200", "400", "404", "422", "429", "503"]);
    expect(statuses("/api/v1/spots")).toEqual(["200", "400", "429"]);
    expect(statuses("/api/v1/coverage")).toEqual(["200"]);
    for (const p of ["/api/v1/recommendations", "/api/v1/best-day"]) expect(statuses(p)).toEqual(["200", "400", "401", "402", "404", "422", "429", "503"]);
    const params = (p: string) => doc.paths[p]!.get.parameters.map((x) => `${x.name}${x.required ? "*" : ""}`);
    expect(params("/api/v1/conditions")).toEqual(["spot", "lat", "lon", "from", "to"]);
    expect(params("/api/v1/recommendations")).toEqual(["activity*", "region", "spot", "lat", "lon", "radius_km", "date", "limit"]);
    expect(params("/api/v1/best-day")).toEqual(["activity*", "region", "spot", "lat", "lon", "radius_km", "from", "to"]);
    expect(params("/api/v1/spots")).toEqual(["region", "q", "lat", "lon"]);
  });

  it("resolves every problem type URI to a component with that anchor", async () => {
    for (const code of ALL_ERROR_CODES) {
      const c = doc.components.schemas[`problem-${code}`];
      expect(c?.$anchor, code).toBe(`problem-${code}`);
    }
    const problem = await svc.json("/api/v1/conditions?spot=atlantis");
    const fragment = String(problem.body.type).split("#")[1]!;
    expect(Object.values(doc.components.schemas).some((s) => s.$anchor === fragment)).toBe(true);
    expect(ERROR_CODES[problem.body.code as keyof typeof ERROR_CODES].status).toBe(problem.status);
  });

  it("uses this deployment's address", async () => {
    expect((doc as unknown as { servers: { url: string }[] }).servers[0]!.url).toBe(svc.base);
  });
});
