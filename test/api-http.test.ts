// HTTP conventions shared by every REST endpoint: CORS, Link, problem bodies, methods, limits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem } from "./helpers/problem.js";
import { startService, type TestService } from "./helpers/service.js";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const ENDPOINTS = ["/api/v1/conditions?spot=hanauma-bay", "/api/v1/spots", "/api/v1/coverage"];

describe("every REST response", () => {
  it.each([...ENDPOINTS, "/api/v1/conditions", "/api/v1/nope"])("%s carries CORS, the Link header and a source object", async (path) => {
    const res = await svc.get(path);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const link = res.headers.get("link")!;
    expect(link).toContain(`<${svc.base}/docs>; rel="service-doc"`);
    expect(link).toContain(`<${svc.base}/openapi.json>; rel="service-desc"`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const body = (await res.json()) as { source?: unknown };
    expect(body.source).toMatchObject({ name: "Ocean Conditions", url: svc.base });
  });

  it("answers an unknown path with a 404 problem", async () => {
    const r = await svc.json("/api/v1/nope");
    expectProblem(svc, r.status, r.body, 404, "not_found");
  });

  it("answers other methods with 405 and Allow, and CORS preflight with 204", async () => {
    const post = await svc.get("/api/v1/conditions?spot=hanauma-bay", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, OPTIONS");
    const pre = await svc.get("/api/v1/conditions", { method: "OPTIONS", headers: { Origin: "https://example.org", "Access-Control-Request-Method": "GET" } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toContain("GET");
    expect(pre.headers.get("access-control-allow-headers")).toContain("X-Service-Key");
  });

  it("accepts and ignores keys in either header", async () => {
    const plain = await svc.json("/api/v1/conditions?spot=hanauma-bay");
    const bearer = await svc.json("/api/v1/conditions?spot=hanauma-bay", { headers: { Authorization: "Bearer test_abc123" } });
    const header = await svc.json("/api/v1/conditions?spot=hanauma-bay", { headers: { "X-Service-Key": "live_abc123" } });
    expect(bearer.body).toEqual(plain.body);
    expect(header.body).toEqual(plain.body);
  });

  it("refuses an oversized query string with a 4xx problem", async () => {
    const r = await svc.json(`/api/v1/spots?q=${"a".repeat(5000)}`);
    expectProblem(svc, r.status, r.body, 414, "uri_too_long");
  });

  it("serves a valid OpenAPI 3.1 stub and a health check", async () => {
    const doc = await svc.json<{ openapi: string; info: { version: string } }>("/openapi.json");
    expect(doc.body.openapi).toBe("3.1.0");
    expect(doc.body.info.version).toBe("1.0.0");
    expect((await svc.json("/healthz")).status).toBe(200);
  });
});
