// list_coverage — the regions and spots covered, each region's decision support level, and how
// each activity is modelled. REST twin: GET /api/v1/coverage. The spec lists no error status for
// coverage, so no filter value is refused: an unknown region gives an empty list and a note naming
// it, and a region given more than once lists each of them. (An MCP argument that is not text, or
// an argument the tool does not take, is a tool error before this runs; see src/mcp/server.ts.)
import { hourFloor } from "../base/clock.js";
import { z } from "zod";
import { didYouMean, suggestRegions } from "../catalog/suggest.js";
import { ACTIVITIES } from "../base/activities.js";
import { sourceLine } from "../base/attribution.js";
import type { ServiceContext } from "../services/context.js";
import type { ErrorCode } from "../base/errors.js";
import { HORIZON_DAYS } from "../base/limits.js";
import { TIDE_STATION_MAX_KM } from "../catalog/schema.js";
import type { Raw } from "../catalog/params.js";
import type { Region } from "../catalog/catalog.js";
import { CoverageSchema, type CoverageJson } from "../schemas/catalog.js";
import { mdEscape } from "../decisions/md-escape.js";
import { readOnlyAnnotations, type ToolDefinition } from "./tool.js";
import { VALIDATION_PATH } from "../services/validation/report.js";
import { MIN_PAIRS, NOT_ENOUGH, WINDOW_DAYS } from "../model/skill.js";

export const name = "list_coverage";

export const config = {
  title: "List covered regions and spots",
  description:
    "Use this to find which dive and snorkel spots the service covers (ids, names, coordinates, grouped by region), " +
    "whether each region supports ranked recommendations (decision_support full) or facts only (conditions_only), " +
    "and how each activity is modelled. All arguments are optional; pass a region id to list just that region.",
  inputSchema: z.object({
    region: z.string().max(64).optional().describe("Region id, e.g. us-hi-oahu"),
  }),
  outputSchema: CoverageSchema,
};

/** Every code listCoverage can refuse with (the OpenAPI document lists these): none. */
export const ERRORS = [] as const satisfies readonly ErrorCode[];

export interface ListCoverageInput {
  region?: Raw;
}

/** The region filter: every text value given (REST repeats a key to give several), trimmed, de-duplicated. */
function regionFilter(v: Raw): string[] | null {
  const values = (Array.isArray(v) ? v : [v]).filter((x): x is string | number => typeof x === "string" || typeof x === "number");
  const ids = [...new Set(values.map((x) => String(x).trim()).filter((x) => x !== ""))];
  return ids.length === 0 ? null : ids;
}

export function listCoverage(input: ListCoverageInput, ctx: Pick<ServiceContext, "catalog" | "clock" | "config" | "links" | "source">): CoverageJson {
  const query = parseCoverageQuery(input);
  return renderCoverage(decideCoverage(query, ctx), ctx);
}

interface CoverageQuery {
  /** Region ids asked for; null for every region. */
  wanted: string[] | null;
}

interface CoverageDecision {
  regions: readonly Region[];
  notes: string[];
}

function parseCoverageQuery(input: ListCoverageInput): CoverageQuery {
  return { wanted: regionFilter(input.region) };
}

/** The regions asked for, and what a caller needs to know about them: the horizon, what ranks and why not, tides, unknown ids. */
function decideCoverage({ wanted }: CoverageQuery, ctx: Pick<ServiceContext, "catalog" | "config" | "links">): CoverageDecision {
  const regions = wanted === null ? ctx.catalog.regions : ctx.catalog.regions.filter((r) => wanted.includes(r.id));
  const notes = [
    `Forecasts cover today through today + ${HORIZON_DAYS - 1} (spot-local dates) in 3-hour periods, refreshed hourly.`,
    "Regions with decision_support conditions_only have facts but no calibrated visibility model yet (too few of their spots have a typical visibility calibrated to published figures, or their spots' exposure and depths are not yet checked): recommendations and best-day decline there with status conditions_only. Each such region's reason is noted below.",
    "Places outside every region get status not_covered from the decision tools, naming the nearest covered spot.",
    `Data mode: ${ctx.config.dataSource}. Offline, conditions come from seasonal norms (labelled as such), real harmonic tides and computed sun.`,
    `How good the visibility model is: each satellite observation of a spot is scored against the model's visibility for that day; per region over the last ${WINDOW_DAYS} days (pairs, bias, median absolute error, rank correlation of anomalies, beside the typical level alone) at ${ctx.links.base}${VALIDATION_PATH}. Fewer than ${MIN_PAIRS} pairs says "${NOT_ENOUGH}".`,
  ];
  for (const r of regions.filter((x) => x.decision_support === "conditions_only")) {
    notes.push(`Not ranked: ${ctx.catalog.levels(r).reason ?? `${r.name}: held back by its publisher although its data meet the calibration rule.`}`);
  }
  const tides = untidedNote(regions, ctx.config.dataSource !== "offline");
  if (tides) notes.push(tides);
  const unknown = (wanted ?? []).filter((id) => !ctx.catalog.region(id));
  if (unknown.length > 0) {
    const meant = unknown.map((id) => didYouMean(suggestRegions(ctx.catalog, id).map((r) => r.id))).join("");
    notes.unshift(`No region has id ${unknown.map((id) => JSON.stringify(id)).join(", ")}.${meant} Known regions: ${ctx.catalog.regions.map((r) => r.id).join(", ")}.`);
  }
  return { regions, notes };
}

/** Where no tide station is near: modelled tides with live data (src/sources/tide-model.ts), none offline. */
function untidedNote(regions: readonly Region[], live: boolean): string | null {
  const untided = regions.filter((r) => r.spots.some((s) => s.tide_station === null));
  if (untided.length === 0) return null;
  const where = untided.map((r) => {
    const n = r.spots.filter((s) => s.tide_station === null).length;
    return n === r.spots.length ? r.name : `${r.name} (${n} of ${r.spots.length} spots)`;
  });
  return (
    `No tide station lies within ${TIDE_STATION_MAX_KM} km in the tide database for ${where.join(", ")}: ` +
    (live
      ? "their tides are modelled (Open-Meteo's modelled sea level, tide plus surge, heights above an MLLW estimated from the model's own low waters; not a station prediction, not for navigation), and null where the model has none."
      : "tide fields are null there.")
  );
}

function renderCoverage({ regions, notes }: CoverageDecision, ctx: Pick<ServiceContext, "clock" | "source">): CoverageJson {
  return {
    schema: "service.coverage.v1",
    source: ctx.source,
    // The catalogue changes only with a release: the hour stands for its time, the same everywhere.
    generated_at: hourFloor(ctx.clock.now()).toISOString(),
    notes,
    activities: ACTIVITIES.map(({ id, label, model, note }) => ({ id, label, model, note })),
    regions: regions.map((r) => ({
      id: r.id,
      name: r.name,
      country: r.country,
      admin1: r.admin1,
      decision_support: r.decision_support,
      spot_count: r.spots.length,
      bbox: r.bbox,
      spots: r.spots.map((s) => ({ id: s.id, name: s.name, lat: s.lat, lon: s.lon })),
    })),
  };
}

export function coverageMarkdown(c: CoverageJson, ctx: Pick<ServiceContext, "links">): string {
  const lines = ["## Ocean Conditions coverage", ""];
  for (const r of c.regions) {
    const level = r.decision_support === "full" ? "recommendations and facts" : "facts only (conditions_only)";
    lines.push(`**${mdEscape(r.name)}** (\`${r.id}\`, ${r.spot_count} spots, ${level}): ${r.spots.map((s) => `${mdEscape(s.name)} \`${s.id}\``).join(", ")}`, "");
  }
  lines.push("**Activities:** " + c.activities.map((a) => `${a.id} (${a.model})`).join(", "), "");
  for (const n of c.notes) lines.push(`- ${n}`);
  lines.push("", sourceLine(ctx.links.base));
  return lines.join("\n");
}

export const tool: ToolDefinition<CoverageJson> = {
  name,
  operation: "coverage",
  config,
  annotations: readOnlyAnnotations(false),
  appView: false,
  // Its REST twin refuses nothing, so a region that is not text has no code of its own.
  argumentCode: () => "invalid_parameter",
  run: (args, ctx) => listCoverage(args, ctx),
  markdown: coverageMarkdown,
};
