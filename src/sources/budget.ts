// The upstream call budget for the whole catalogue at the hourly refresh, derived from the query
// plans and request shapes the adapters actually use (docs/live-data.md quotes `npm run budget`).
import type { Catalog } from "../catalog/catalog.js";
import { DAY_MS } from "../clock.js";
import { OPEN_METEO_FREE_TIER, REFRESH_MS } from "../limits.js";
import { coopsStationId } from "./coops.js";
import { ERDDAP_RETRY_FAILED_MS } from "./erddap.js";
import { FORECAST, MARINE, openMeteoCallWeight, queryPlan } from "./open-meteo.js";

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

/** Worst case: every spot asked about every hour, so every region is refreshed every hour. */
export function callBudget(catalog: Catalog, kd490Datasets = 2): CallBudget {
  const refreshesPerDay = DAY_MS / REFRESH_MS;
  let points = 0;
  let calls = 0;
  for (const region of catalog.regions) {
    const plan = queryPlan(region);
    points += plan.points.length;
    calls += openMeteoCallWeight(MARINE, plan.points.length) + openMeteoCallWeight(FORECAST, plan.points.length);
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
