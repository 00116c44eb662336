import { expect } from "vitest";
import { ProblemSchema } from "../../src/schemas/common.js";
import type { TestService } from "./service.js";

/** Asserts an RFC 9457 problem body with the expected status and stable code. */
export function expectProblem(svc: TestService, status: number, body: Record<string, unknown>, wantStatus: number, wantCode: string): void {
  expect({ status, code: body.code }).toEqual({ status: wantStatus, code: wantCode });
  ProblemSchema.parse(body);
  expect(body.type).toBe(`${svc.base}/openapi.json#problem-${wantCode}`);
  expect(body.status).toBe(wantStatus);
  expect(body.title).toMatch(/^[a-z ]+$/);
  expect(String(body.detail).length).toBeGreaterThan(10);
  expect(body.source).toMatchObject({ name: "Ocean Conditions", url: svc.base });
}
