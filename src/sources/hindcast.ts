// The model's inputs for a past day: Open-Meteo's hindcast (the same APIs, variables and cells the
// live forecast reads, asked with enough `past_days` to reach the day and its 72 h of antecedent
// rain), fetched through the same clients, so the same lanes, quotas and breakers govern it. Work no
// caller waits on: it goes with a background ticket.
import { DAY_MS, HOUR_MS, type Clock } from "../base/clock.js";
import type { Region } from "../catalog/catalog.js";
import type { UpstreamClient } from "./http.js";
import { FORECAST, MARINE, OPEN_METEO_CREDIT, openMeteoCallWeight, parseOpenMeteo, queryPlan, requestUrl, seriesToInputs, type OpenMeteoBatch, type OpenMeteoEndpoint } from "./open-meteo.js";
import { refreshTicket, type RefreshGovernor } from "./scheduler.js";
import { emptyInputs, INPUT_FIELDS, type HourlyInputs, type Origin } from "./types.js";

/** Open-Meteo serves `past_days` up to this many. */
export const HINDCAST_MAX_PAST_DAYS = 92;

/** Background work's share of the quotas is spent for now: the observations wait for a later batch. */
export class HindcastDeferred extends Error {
  override name = "HindcastDeferred";
  constructor() {
    super("hindcast held back: background work's share of the Open-Meteo quotas is spent");
  }
}

export interface HindcastDeps {
  marine: { client: UpstreamClient; url: string };
  forecast: { client: UpstreamClient; url: string };
  apiKey: string | null;
  clock: Clock;
  /** Background work's share of Open-Meteo's quotas (live.ts): a hindcast goes only within it. */
  governor?: RefreshGovernor;
  /** The same over the minute window alone, with a small share: a hindcast waits for a quiet minute. */
  quietMinute?: RefreshGovernor;
}

export interface Hindcast {
  /** Hourly inputs for each of the region's spots over [start, end); throws UpstreamError when it cannot. */
  inputs(region: Region, start: Date, end: Date): Promise<Map<string, HourlyInputs>>;
}

export class OpenMeteoHindcast implements Hindcast {
  constructor(readonly deps: HindcastDeps) {}

  async inputs(region: Region, start: Date, end: Date): Promise<Map<string, HourlyInputs>> {
    const today = Math.floor(this.deps.clock.now().getTime() / DAY_MS) * DAY_MS;
    const pastDays = Math.ceil((today - Math.floor(start.getTime() / DAY_MS) * DAY_MS) / DAY_MS);
    if (pastDays > HINDCAST_MAX_PAST_DAYS) throw new RangeError(`hindcast ${pastDays} days back is beyond Open-Meteo's ${HINDCAST_MAX_PAST_DAYS}`);
    const forecastDays = Math.max(1, Math.ceil((end.getTime() - today) / DAY_MS));
    const plan = queryPlan(region);
    const fetchedAt = this.deps.clock.now();
    const endpoints = [MARINE, FORECAST].map((endpoint): OpenMeteoEndpoint => ({ ...endpoint, pastDays: Math.max(0, pastDays), forecastDays }));
    const weights = endpoints.map((e) => openMeteoCallWeight(e, plan.points.length));
    // No caller waits on it: it spends only what background work may (the refresh governor's share).
    const weight = weights[0]! + weights[1]!;
    const quiet = this.deps.quietMinute ? await this.deps.quietMinute.reserve(weight) : () => {};
    if (!quiet) throw new HindcastDeferred();
    const share = this.deps.governor ? await this.deps.governor.reserve(weight) : () => {};
    if (!share) {
      quiet();
      throw new HindcastDeferred();
    }
    const release = () => {
      quiet();
      share();
    };
    const one = async (i: number, how: { client: UpstreamClient; url: string }) => {
      const e = endpoints[i]!;
      const batch = await how.client.getJson(requestUrl(how.url, e, plan, this.deps.apiKey), (body) => parseOpenMeteo(body, e, plan.points), { ticket: refreshTicket(), weight: weights[i]! });
      const origin: Origin = { id: `open-meteo:${e.kind}`, climatology: false, fetchedAt, credits: [OPEN_METEO_CREDIT] };
      return { batch, origin };
    };
    let marine, forecast;
    try {
      [marine, forecast] = await Promise.all([one(0, this.deps.marine), one(1, this.deps.forecast)]);
    } finally {
      release();
    }
    const out = new Map<string, HourlyInputs>();
    for (const spot of region.spots) out.set(spot.id, merge(plan.pointOf.get(spot.id)!, [marine, forecast], start, end));
    return out;
  }
}

/** The two answers on one hour grid: marine fields from the marine API, the rest from the forecast API. */
function merge(point: number, parts: { batch: OpenMeteoBatch; origin: Origin }[], start: Date, end: Date): HourlyInputs {
  const out = emptyInputs(start, Math.max(0, Math.round((end.getTime() - start.getTime()) / HOUR_MS)));
  for (const { batch, origin } of parts) {
    const series = batch.points[point];
    if (!series) continue;
    const one = seriesToInputs(series, origin, start, end);
    const index = out.origins.push(origin) - 1;
    for (const f of INPUT_FIELDS) {
      const src = one.values[f];
      for (let h = 0; h < out.hours; h++) {
        if (Number.isNaN(out.values[f][h]!) && !Number.isNaN(src[h]!)) {
          out.values[f][h] = src[h]!;
          out.origin[f][h] = index;
        }
      }
    }
  }
  return out;
}
