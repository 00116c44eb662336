// One JSON Schema spelling that every consumer reads: zod writes a plain nullable field as
// `type: ["number", "null"]`, which is valid 2020-12 but which hosts that map tool schemas onto a
// single-type dialect (the OpenAPI subset some model providers use) reject or flatten; MCP
// Inspector's --strict check flags each one. Every such array becomes `anyOf` branches with one
// type each. Applied where zod's output leaves the process: the MCP tool schemas and OpenAPI.

type Json = Record<string, unknown>;

/** Keywords that describe the whole value and stay outside the anyOf. */
const ANNOTATIONS = new Set(["$id", "$anchor", "$comment", "$schema", "$defs", "title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly", "id"]);

function split(node: Json): Json {
  const types = node.type as string[];
  const outer: Json = {};
  const common: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "type") continue;
    if (ANNOTATIONS.has(k)) outer[k] = v;
    else common[k] = v;
  }
  // Constraints (minimum, pattern, enum…) belong to the non-null branch; null has none.
  outer.anyOf = types.map((t) => (t === "null" ? { type: "null" } : { type: t, ...common }));
  return outer;
}

/** A deep copy of `schema` with every `type: [..]` array split into single-type anyOf branches. */
export function portableJsonSchema<T>(schema: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== "object" || v === null) return v;
    const out: Json = {};
    for (const [k, child] of Object.entries(v as Json)) {
      // Property names are data, not keywords: walk their schemas, never the names.
      out[k] = k === "const" || k === "enum" || k === "default" || k === "examples" || k === "example" ? child : walk(child);
    }
    return Array.isArray(out.type) ? split(out) : out;
  };
  return walk(schema) as T;
}
