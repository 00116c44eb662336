// The import layers of src/ and tools/, checked by `npm run lint` (dependency-cruiser) and drawn in
// docs/development.md by `npm run docs:layers` from this same list. Layers run from the bottom up: a
// module may import modules of its own layer and of any layer below it, never one above, and no
// import circle is allowed, type-only imports included. Every module belongs to exactly one layer.

/** Bottom first. `paths`: regular expressions over paths from the project root. */
export const LAYERS = [
  {
    name: "base",
    what: "values and plumbing every layer may use: the clock, errors, limits, configuration, the logger, the Redis connection, attribution, activities, time zones, the heap's compaction when idle",
    paths: ["^src/(activities|attribution|clock|config|errors|flat|idle-compaction|limits|logger|order|package-info|paths|redis)\\.ts$", "^src/time/"],
  },
  {
    name: "catalog",
    what: "regions and spots, venue access and protected areas, coordinates, and parsing a spot, date or point argument against them",
    paths: ["^src/catalog/", "^src/(geo|params)\\.ts$"],
  },
  {
    name: "model",
    what: "the forecast's pure functions: optics, swell, visibility, score, tiers, periods, wind words, seasonal norms, the why sentence; units and formatting; the validation record's skill arithmetic",
    paths: ["^src/forecast/(curve|norms|optics|periods|score|swell|tiers|visibility|why|wind-words)\\.ts$", "^src/format\\.ts$", "^src/validation/skill\\.ts$"],
  },
  {
    name: "sources",
    what: "where numbers come from: the Source interface, seasonal norms, harmonic tides, freshness, the DATA_SOURCE policy, and the live upstreams with their HTTP client, cache, breaker, budget and scheduler, and the validation hindcast (a new upstream goes here)",
    paths: ["^src/sources/", "^src/validation/hindcast\\.ts$"],
  },
  {
    name: "schemas",
    what: "zod schemas of every response and tool output: validation, types, MCP output schemas",
    paths: ["^src/schemas/"],
  },
  {
    name: "forecast",
    what: "the engine that turns a spot's sources into scored periods, the forecast service that caches it, the visibility calibration",
    paths: ["^src/forecast/(calibration|engine|service)\\.ts$"],
  },
  {
    name: "services",
    what: "the long-lived parts the context holds: metering (keys, rate limits, allotments), the answers shared by REST and MCP (valid per hour and forecast version), the share-image renderer and its worker pool, the validation record (scoring, pair store, report)",
    paths: ["^src/metering/", "^src/answer-cache\\.ts$", "^src/share/(card-draw|card-image|escape|fonts|palette|render-pool|render-worker)\\.ts$", "^src/validation/(report|schema|scorer|store|validation)\\.ts$"],
  },
  {
    name: "context",
    what: "ServiceContext and Links: the types-only shape every handler receives, and the pure link helpers",
    paths: ["^src/context\\.ts$"],
  },
  {
    name: "cards",
    what: "the spot card a pick carries, and the Markdown of picks",
    paths: ["^src/cards/"],
  },
  {
    name: "decisions",
    what: "parameters, evaluation and ranking, picks, confidence, caveats, and one spot on one date as a decision judges it (spot-day)",
    paths: ["^src/decisions/"],
  },
  {
    name: "answers",
    what: "one module per MCP tool (get-conditions, list-coverage, recommend-spot, best-day: schemas, handler, Markdown), which the REST routes call too; the tool definition they share; the spots directory (a new tool goes here)",
    paths: ["^tools/", "^src/mcp/tool\\.ts$", "^src/facts/"],
  },
  {
    name: "surfaces",
    what: "how answers reach people: the request prelude, the REST router, Express for pages, discovery and health, problems, OpenAPI; the MCP server, the /mcp endpoint with its replays, discovery documents; the forecast and share pages and charts, the validation endpoint (a new page or route goes here)",
    paths: ["^src/http/", "^src/mcp/(?!tool\\.ts$)", "^src/share/(forecast-chart|forecast-page|html|region-page|share-page|units)\\.ts$", "^src/failures\\.ts$", "^src/validation/route\\.ts$"],
  },
  {
    name: "root",
    what: "the entry point (and the block it prints on a terminal) and the composition root that wires configuration → sources → forecast service → catalogue → metering → renderer → answer cache → warm-up",
    paths: ["^src/(main|compose|startup|warm-up)\\.ts$"],
  },
];

/** @param {string[]} paths */
const anyOf = (paths) => `(${paths.join(")|(")})`;
const ALL = anyOf(LAYERS.flatMap((l) => l.paths));
const CHECKED = "^(src|tools)/";

export default {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle (type-only imports count): decide which module owns the shared part and move it below both.",
      from: {},
      to: { circular: true },
    },
    {
      name: "in-a-layer",
      severity: "error",
      comment: "Every module of src/ and tools/ belongs to a layer: add its path to LAYERS in .dependency-cruiser.mjs (then npm run docs:layers).",
      from: { path: CHECKED, pathNot: ALL },
      to: {},
    },
    {
      name: "in-a-layer-imported",
      severity: "error",
      comment: "Every module of src/ and tools/ belongs to a layer: add its path to LAYERS in .dependency-cruiser.mjs (then npm run docs:layers).",
      from: {},
      to: { path: CHECKED, pathNot: ALL },
    },
    ...LAYERS.slice(0, -1).map((layer, i) => ({
      name: `no-upward-from-${layer.name}`,
      severity: "error",
      comment: `The ${layer.name} layer imports only its own layer and those below it (docs/development.md, "Layers").`,
      from: { path: anyOf(layer.paths) },
      to: { path: anyOf(LAYERS.slice(i + 1).flatMap((l) => l.paths)) },
    })),
  ],
  options: {
    includeOnly: CHECKED,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
