// The published record: each region's skill over the rolling window (GET /api/v1/validation, and
// the same text for MCP clients through list_coverage's notes). Below MIN_PAIRS a region says
// "not enough observations yet", never a number.
import type { Source as SourceObject } from "../../base/attribution.js";
import type { Catalog, Region } from "../../catalog/catalog.js";
import { MIN_PAIRS, MIN_SPOT_OBSERVATIONS, NOT_ENOUGH, regionSkill, WINDOW_DAYS, windowOf, type Figures } from "../../model/skill.js";
import type { PairStore } from "./store.js";

export const VALIDATION_SCHEMA = "service.validation.v1";
export const VALIDATION_PATH = "/api/v1/validation";

/**
 * How much a region's confidence in its visibility is multiplied by while the response does worse than
 * climatology over the window. It only ever lowers: no skill figure raises anything.
 */
export const WORSE_THAN_CLIMATOLOGY_FACTOR = 0.8;

export interface RegionValidation {
  region: string;
  name: string;
  window: { from: string; to: string };
  pairs: number;
  spots: number;
  anomaly_pairs: number;
  first_observation: string | null;
  last_observation: string | null;
  status: "ok" | "not_enough_observations";
  message: string | null;
  model: Figures | null;
  climatology: Figures | null;
  response_vs_climatology: "better" | "worse" | null;
  confidence_factor: number;
}

export interface ValidationJson {
  schema: typeof VALIDATION_SCHEMA;
  source: SourceObject;
  generated_at: string;
  data_mode: string;
  window_days: number;
  min_pairs: number;
  min_spot_observations: number;
  storage: "redis" | "memory";
  storage_note: string;
  method: string;
  docs: string;
  regions: RegionValidation[];
}

export const STORAGE_NOTES = {
  redis: "Pairs are kept in the shared store (Redis): every instance adds to and publishes the same record, and a restart keeps it.",
  memory: "Pairs are kept in this instance's memory only (no REDIS_URL): the record starts again on every restart and other instances keep their own.",
} as const;

export const METHOD =
  "Each satellite Kd490 observation of a spot (NOAA CoastWatch VIIRS, or the gap-filled product) is paired with the model's visibility for that spot and day, computed from Open-Meteo's swell, wind and rain for that day and never from the satellite. Levels: bias (model minus satellite) and median absolute error, in feet. Anomalies: the model's departure from the spot's typical level against the satellite's departure from that spot's own satellite mean, so a pixel biased by the reef or shore beside it does not count as model error. Climatology: the typical level alone (it predicts no departure).";

export async function regionValidation(region: Region, store: PairStore, now: Date): Promise<RegionValidation> {
  const w = windowOf(now);
  const pairs = (await store.list(region.id, w.fromMs)).filter((p) => p.observedAt <= now.getTime());
  const s = regionSkill(pairs);
  const worse = s.worseThanClimatology;
  return {
    region: region.id,
    name: region.name,
    window: { from: w.from, to: w.to },
    pairs: s.pairs,
    spots: s.spots,
    anomaly_pairs: s.anomalyPairs,
    first_observation: s.first,
    last_observation: s.last,
    status: s.enough ? "ok" : "not_enough_observations",
    message: s.enough ? null : `${NOT_ENOUGH}: ${s.pairs} of the ${MIN_PAIRS} pairs needed in the last ${WINDOW_DAYS} days`,
    model: s.model,
    climatology: s.climatology,
    response_vs_climatology: worse === null ? null : worse ? "worse" : "better",
    confidence_factor: worse === true ? WORSE_THAN_CLIMATOLOGY_FACTOR : 1,
  };
}

export async function validationReport(opts: { catalog: Catalog; store: PairStore; now: Date; source: SourceObject; dataMode: string; docs: string }): Promise<ValidationJson> {
  return {
    schema: VALIDATION_SCHEMA,
    source: opts.source,
    generated_at: opts.now.toISOString(),
    data_mode: opts.dataMode,
    window_days: WINDOW_DAYS,
    min_pairs: MIN_PAIRS,
    min_spot_observations: MIN_SPOT_OBSERVATIONS,
    storage: opts.store.kind,
    storage_note: STORAGE_NOTES[opts.store.kind] + (opts.dataMode === "offline" ? " Offline (DATA_SOURCE=offline) no satellite observation is read, so no pair is made." : ""),
    method: METHOD,
    docs: opts.docs,
    regions: await Promise.all(opts.catalog.regions.map((r) => regionValidation(r, opts.store, opts.now))),
  };
}
