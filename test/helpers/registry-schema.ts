// The MCP Registry's server.json schema (draft-07) as a validator. The fixture is a byte-for-byte copy
// of https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json, taken from the
// repository that publishes it (modelcontextprotocol/static, schemas/2025-12-11/server.schema.json at
// commit a9ba437d9fbbe92076a24b20d56449ac7c7786ac; sha256 3fba0959…2a4114de0).
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import formats from "ajv-formats";

export const REGISTRY_SCHEMA_FILE = new URL("../fixtures/registry-server.schema.json", import.meta.url);

export function registryValidator(): ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true });
  (formats as unknown as { default: (a: Ajv) => void }).default(ajv);
  return ajv.compile(JSON.parse(readFileSync(REGISTRY_SCHEMA_FILE, "utf8")));
}
