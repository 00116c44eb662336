// The import layers of src/, checked by `npm run lint` (dependency-cruiser) and drawn in
// docs/development.md by `npm run docs:layers` from this same list. Layers run from the bottom up: a
// module may import modules of its own layer and of any layer below it, never one above, and no
// import circle is allowed, type-only imports included. Every module belongs to exactly one layer.

/**
 * Bottom first. Each layer is one folder of src/ (its subfolders included) and each folder of src/
 * one layer; the root layer is the files directly in src/ (the entry point, the composition root and
 * the block printed at start). `paths` is made from `folder`: one pattern per layer.
 */
const DECLARED = [
  {
    folder: "src/base/",
    name: "base",
    what: "values and plumbing every layer may use: the clock, errors, limits, configuration, the logger, the Redis connection, attribution, activities, time zones and the sun",
  },
  {
    folder: "src/runtime/",
    name: "runtime",
    what: "the process's memory and start-up measures, each behind a switch with the measurement that justified it: string interning, the heap's compaction when idle, V8's flags",
  },
  {
    folder: "src/catalog/",
    name: "catalog",
    what: "regions and spots, venue access and protected areas, provenance, coordinates, and parsing a spot, date or point argument against them",
  },
  {
    folder: "src/model/",
    name: "model",
    what: "the forecast's pure functions: optics, swell, visibility, score, tiers, periods, wind words, seasonal norms, the why sentence; units and formatting; the validation record's skill arithmetic",
  },
  {
    folder: "src/sources/",
    name: "sources",
    what: "where numbers come from: the Source interface, seasonal norms, harmonic tides, freshness, the DATA_SOURCE policy, and the live upstreams with their HTTP client, cache, breaker, budget and scheduler, and the validation hindcast (a new upstream goes here)",
  },
  {
    folder: "src/schemas/",
    name: "schemas",
    what: "zod schemas of every response and tool output: validation, types, MCP output schemas",
  },
  {
    folder: "src/forecast/",
    name: "forecast",
    what: "the engine that turns a spot's sources into scored periods, the forecast service that caches it, the visibility calibration",
  },
  {
    folder: "src/services/",
    name: "services",
    what: "the long-lived parts the context holds: metering (keys, rate limits, allotments), the answers shared by REST and MCP, the share-image renderer and its worker pool, the validation record (scoring, pair store, report); and ServiceContext, the types-only shape they are handed to handlers in",
  },
  {
    folder: "src/decisions/",
    name: "decisions",
    what: "parameters, evaluation and ranking, picks, confidence, caveats, one spot on one date as a decision judges it (spot-day), the spot card a pick carries and the Markdown of picks",
  },
  {
    folder: "src/answers/",
    name: "answers",
    what: "one module per MCP tool (get-conditions, list-coverage, recommend-spot, best-day: schemas, handler, Markdown), which the REST routes call too; the tool definition they share; the spots directory; the warm-up that asks them ahead (a new tool goes here)",
  },
  {
    folder: "src/web/",
    name: "web",
    what: "HTTP plumbing every surface shares: validators and Cache-Control, compressed bodies, problem documents, the request's state and the failure words",
  },
  {
    folder: "src/pages/",
    name: "pages",
    what: "the HTML people open: the forecast, region and share pages, the chart, the map, units (a new page goes here; its route goes in http)",
  },
  {
    folder: "src/mcp/",
    name: "mcp",
    what: "the MCP adapter: the SDK server and its registrations, the /mcp endpoint with its envelope path and body checks, protocol versions, discovery documents",
  },
  {
    folder: "src/http/",
    name: "http",
    what: "the HTTP server: Express, the request prelude, the REST router, page and validation routes, the docs and front pages, OpenAPI, shutdown (a new route goes here)",
  },
  {
    folder: "src/",
    name: "root",
    what: "the entry point (and the block it prints on a terminal) and the composition root that wires configuration → sources → forecast service → catalogue → metering → renderer → answer cache → warm-up",
  },
];

/** A layer's one pattern: its folder, or for the root the files directly in src/. */
const folderPattern = (folder) => (folder === "src/" ? "^src/[^/]+\\.ts$" : `^${folder}`);

export const LAYERS = DECLARED.map((l) => ({ ...l, paths: [folderPattern(l.folder)] }));

/** @param {string[]} paths */
const anyOf = (paths) => `(${paths.join(")|(")})`;
const ALL = anyOf(LAYERS.flatMap((l) => l.paths));
const CHECKED = "^src/";

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
      name: "no-circular-folders",
      severity: "error",
      comment: "Two folders import each other (directly or round a circle): a folder is a layer, and layers import downward only.",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    {
      name: "in-a-layer",
      severity: "error",
      comment: "Every module of src/ belongs to a layer: add its path to LAYERS in .dependency-cruiser.mjs (then npm run docs:layers).",
      from: { path: CHECKED, pathNot: ALL },
      to: {},
    },
    {
      name: "in-a-layer-imported",
      severity: "error",
      comment: "Every module of src/ belongs to a layer: add its path to LAYERS in .dependency-cruiser.mjs (then npm run docs:layers).",
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
