// GET /openapi.json — a minimal valid OpenAPI 3.1 document until the full generated one lands.
import type { ServiceContext } from "../context.js";
import { SERVICE_NAME } from "../attribution.js";

export function openApiDocument(ctx: ServiceContext): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: SERVICE_NAME, version: "1.0.0" },
    servers: [{ url: ctx.links.base }],
    paths: {},
  };
}
