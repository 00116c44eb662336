// The upstream call budget for the whole catalogue at the hourly refresh, derived from the query
// plans and request shapes the adapters actually use (docs/live-data.md quotes `npm run budget`).
import { Catalog } from "../catalog/catalog.js";
import type { RegionRecord } from "../catalog/schema.js";
import { DAY_MS } from "../base/clock.js";
import { REFRESH_MS } from "../base/limits.js";
import { OPEN_METEO_FREE_TIER } from "../base/upstream-limits.js";
import { coopsStationId } from "./coops.js";
import { loadClimatology } from "./climatology.js";
import type { ClimatologyTable } from "./climatology-schema.js";
import { ERDDAP_RETRY_FAILED_MS } from "./erddap.js";
import { HOLD_MAX_AGE_MS, REFRESH_SHARE } from "./live.js";
import { RUN_PROPAGATION_MS, watchedModelsFor, type WatchedModel } from "./model-runs.js";
import { endpointFor, FORECAST, MARINE, openMeteoCallWeight, queryPlan } from "./open-meteo.js";

/** Open-Meteo's free tier: calls per day, hour and minute (open-meteo.com/en/terms). */
export const OPEN_METEO_FREE_LIMITS = OPEN_METEO_FREE_TIER;

export interface CallBudget {
  regions: number;
  spots: number;
  /** Distinct query points after snapping spots to the query grid. */
  queryPoints: number;
  perHour: {
    openMeteoRequests: number;
    /** As Open-Meteo counts them (per location, weighted by variables and days). */
    openMeteoCalls: number;
  };
  perDay: {
    openMeteoRequests: number;
    openMeteoCalls: number;
    /** Share of the free tier's daily allowance. */
    openMeteoShareOfFreeTier: number;
    /**
     * One per region and UTC day, one more when clouds or a failure send us to the gap-filled
     * product; `worst` is ERDDAP failing all day (a failed region is retried at most hourly).
     */
    erddapRequests: { min: number; max: number; worst: number };
    /** One per NOAA station per day: predictions do not change, only the window moves. */
    coopsRequests: number;
  };
}

/**
 * Every spot asked about every hour and every region downloaded every hour: the budget without the
 * model-run gate (gatedBudget below is what the service spends), and the cost of one hourly round.
 */
export function callBudget(catalog: Catalog, kd490Datasets = 2): CallBudget {
  const refreshesPerDay = DAY_MS / REFRESH_MS;
  let points = 0;
  let calls = 0;
  for (const region of catalog.regions) {
    const plan = queryPlan(region);
    points += plan.points.length;
    // A region with spots without a tide station asks the marine API for the sea level too (its weight counted here).
    calls += openMeteoCallWeight(endpointFor(MARINE, plan), plan.points.length) + openMeteoCallWeight(FORECAST, plan.points.length);
  }
  const regions = catalog.regions.length;
  const stations = new Set(catalog.spots.map((s) => coopsStationId(s.tide_station)).filter((id) => id !== null));
  return {
    regions,
    spots: catalog.spots.length,
    queryPoints: points,
    perHour: { openMeteoRequests: 2 * regions, openMeteoCalls: round1(calls) },
    perDay: {
      openMeteoRequests: 2 * regions * refreshesPerDay,
      openMeteoCalls: round1(calls * refreshesPerDay),
      openMeteoShareOfFreeTier: Math.round((calls * refreshesPerDay * 1000) / OPEN_METEO_FREE_LIMITS.perDay) / 1000,
      erddapRequests: { min: regions, max: regions * kd490Datasets, worst: regions * kd490Datasets * (DAY_MS / ERDDAP_RETRY_FAILED_MS) },
      coopsRequests: stations.size,
    },
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

// --- with the model-run gate and the governor ----------------------------------------------------

/**
 * Realistic traffic's default: the share of regions someone asks about in any 3-hour window (the
 * RECENT_MS that keeps a region refreshed ahead). JUDGEMENT: a diving service's catalogue spans many
 * time zones and most regions are asked about in local daytime; half the regions within any 3 hours is
 * on the busy side for a catalogue of a few hundred spots, so the figure errs high.
 */
export const DEFAULT_ASKED_SHARE = 0.5;

export interface GatedBudget {
  regions: number;
  spots: number;
  /** Distinct models whose metadata is read (requests not counted by Open-Meteo: at most one each a minute). */
  watchedModels: number;
  /** Every region asked every hour, downloads only when a watched model has a new run (no governor). */
  gateOnly: { marineDownloads: number; forecastDownloads: number; openMeteoCalls: number; share: number };
  /** The same with the governor: background work stops at its paced share; owed downloads still go. */
  worstCase: { openMeteoCalls: number; share: number; ownedFloorCalls: number };
  /** Only the regions asked about within 3 hours are refreshed (`askedShare` of them at a time). */
  realistic: { askedShare: number; openMeteoCalls: number; share: number };
  /** Calls per hour in the busiest hour of the worst case (every region's downloads due in one hour). */
  busiestHourCalls: number;
}

/**
 * Downloads in one UTC day of hourly checks for a set of models: a check downloads when a model's
 * run became available (plus the propagation margin) since the previous check.
 */
export function downloadsPerDay(models: readonly WatchedModel[], day = 0): number {
  const hours = new Set<number>();
  for (const m of models) {
    if (m.fallback) continue;
    const every = m.intervalS * 1000;
    for (let init = day - every; init < day + DAY_MS; init += every) {
      const settled = init + m.delayMin * 60_000 + RUN_PROPAGATION_MS;
      if (settled >= day && settled < day + DAY_MS) hours.add(Math.ceil((settled - day) / REFRESH_MS));
    }
  }
  return hours.size;
}

/** The call budget with refreshes that follow the models' runs, under the governor. */
export function gatedBudget(catalog: Catalog, askedShare = DEFAULT_ASKED_SHARE, refreshShare = REFRESH_SHARE, holdMaxAgeMs = HOLD_MAX_AGE_MS): GatedBudget {
  const models = new Set<string>();
  let marineDownloads = 0;
  let forecastDownloads = 0;
  let calls = 0;
  let floor = 0;
  let busiest = 0;
  // An answer held back past a new run is kept only while it stays inside the recent window to the
  // end of the hour it is kept for: a caller is owed a download at least every (window − 1 h).
  const owedPerDay = Math.ceil(DAY_MS / (holdMaxAgeMs - REFRESH_MS));
  for (const region of catalog.regions) {
    const plan = queryPlan(region);
    const points = plan.points.length;
    for (const [endpoint, api] of [
      [MARINE, "marine"],
      [FORECAST, "forecast"],
    ] as const) {
      const watched = watchedModelsFor(api, region);
      for (const m of watched) models.add(m.id);
      const n = downloadsPerDay(watched);
      const w = openMeteoCallWeight(endpointFor(endpoint, plan), points);
      if (api === "marine") marineDownloads += n;
      else forecastDownloads += n;
      calls += n * w;
      floor += Math.min(n, owedPerDay) * w;
      busiest += w;
    }
  }
  const share = (c: number) => Math.round((c * 1000) / OPEN_METEO_FREE_LIMITS.perDay) / 1000;
  const cap = refreshShare * OPEN_METEO_FREE_LIMITS.perDay;
  const governed = calls <= cap ? calls : Math.max(cap, floor);
  const realistic = Math.min(governed, calls * askedShare);
  return {
    regions: catalog.regions.length,
    spots: catalog.spots.length,
    watchedModels: models.size,
    gateOnly: { marineDownloads, forecastDownloads, openMeteoCalls: round1(calls), share: share(calls) },
    worstCase: { openMeteoCalls: round1(governed), share: share(governed), ownedFloorCalls: round1(floor) },
    realistic: { askedShare, openMeteoCalls: round1(realistic), share: share(realistic) },
    busiestHourCalls: round1(busiest),
  };
}

/** The size the budget is proven at (at least, beside the catalogue's own): where the catalogue is heading. */
export const BUDGET_TARGET = { spots: 400, regions: 40 } as const;

/** Seasonal norms for a cloned catalogue: each clone (`<region>-c<n>`) reads its original's table. */
export function clonedClimatology(catalog: Catalog, tables: Map<string, ClimatologyTable> = loadClimatology()): Map<string, ClimatologyTable> {
  const out = new Map(tables);
  for (const r of catalog.regions) {
    const original = tables.get(r.id.replace(/-c\d+$/, ""));
    if (out.has(r.id) || !original) continue;
    // Clone spot ids carry the region's suffix; a zone names the clones of its spots.
    const suffix = r.id.slice(original.region.length);
    const zones = original.water_temp_zones?.map((z) => ({ ...z, spots: z.spots.map((id) => `${id}${suffix}`) }));
    out.set(r.id, { ...original, region: r.id, ...(zones ? { water_temp_zones: zones } : {}) });
  }
  return out;
}

/**
 * A catalogue of at least `spots` spots in at least `regions` regions made by cloning today's regions
 * (ids suffixed `-c2`, `-c3`…, same coordinates, so the same models, tide stations and call weights):
 * to prove the budget at the size the catalogue is heading to. Planning only; never served.
 */
export function clonedCatalog(records: readonly RegionRecord[], spots: number, regions = 0): Catalog {
  const out: RegionRecord[] = [...records];
  const base = records.reduce((n, r) => n + r.spots.length, 0);
  for (let copy = 2, total = base; total < spots || out.length < regions; copy++) {
    for (const r of records) {
      if (total >= spots && out.length >= regions) break;
      out.push({ ...r, id: `${r.id}-c${copy}`, spots: r.spots.map((s) => ({ ...s, id: `${s.id}-c${copy}` })) });
      total += r.spots.length;
    }
  }
  return new Catalog(out);
}
