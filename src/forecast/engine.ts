// The forecast engine: hourly inputs + tides + sun → the spot's periods for the whole horizon.
// Pure: the same inputs and `now` always give the same forecast.
import { getPosition } from "suncalc";
import type { DataCredit } from "../base/attribution.js";
import { unionCredits } from "../base/attribution.js";
import { closureOn, CLOSED_ON_DATE } from "../catalog/access.js";
import type { Spot } from "../catalog/catalog.js";
import { HOUR_MS, hourFloor } from "../base/clock.js";
import { CircularMean, round } from "../catalog/geo.js";
import { HORIZON_DAYS } from "../base/limits.js";
import type { PeriodJson } from "../schemas/conditions.js";
import { freshnessOf, type Freshness } from "../sources/freshness.js";
import { tideHeightAt, tideStateAt } from "../sources/tides.js";
import { NO_ORIGIN, SWELL_TRAINS, type HourlyInputs, type InputField, type Origin, type TideEvent, type TideSeries } from "../sources/types.js";
import { isoWithOffset, localDate, monthOf } from "../base/zone.js";
import { isDaylightSlot, periodSlots } from "../model/periods.js";
import { scoreConditions } from "../model/score.js";
import { exposureWeight, SHELTERED_WEIGHT, surgeEquivalentM, swellAtSpot, type SwellTrainInput } from "../model/swell.js";
import { ratingFor, type Rating } from "../model/tiers.js";
import { estimateVisibility, M_PER_FT, RAIN_MEMORY_H, rainIndexAt, SATELLITE_MAX_AGE_H, type Conditions, satelliteVisibilityM, visibilityConfidence, type TideState } from "../model/visibility.js";
import { explainRating, unrankedOf, type Basis } from "../model/why.js";

/** Hours of inputs needed before the first period: rain memory plus the longest (DST) block. */
export const INPUT_LOOKBACK_H = 72 + 4;

export interface PeriodResult {
  kind: "nowcast" | "forecast";
  date: string;
  startHour: number;
  start: Date;
  end: Date;
  daylight: boolean;
  score: number | null;
  rating: Rating | null;
  visFt: number | null;
  swellFt: number | null;
  swellPeriodS: number | null;
  swellFromDeg: number | null;
  windKt: number | null;
  /** Highest gust in the period, kt. */
  gustKt: number | null;
  windFromDeg: number | null;
  waterTempC: number | null;
  tideState: TideState | null;
  confidence: number | null;
  visibilitySource: "satellite" | "heuristic" | null;
  /** The score rests (at least in part) on seasonal norms rather than a forecast for this period. */
  seasonal: boolean;
  /** Indexes into the forecast's origins that fed this period. */
  origins: number[];
  json: PeriodJson;
}

/**
 * A period as the engine keeps it for the hour: its JSON as answers show it, and the same values
 * read from that JSON rather than held twice (a forecast is kept for every spot asked about).
 */
class Period implements PeriodResult {
  constructor(
    readonly kind: PeriodResult["kind"],
    readonly date: string,
    readonly startHour: number,
    readonly start: Date,
    readonly end: Date,
    readonly seasonal: boolean,
    readonly origins: number[],
    readonly json: PeriodJson,
  ) {}
  get daylight(): boolean {
    return this.kind === "forecast" && isDaylightSlot(this.startHour);
  }
  get score(): number | null {
    return this.json.score;
  }
  get rating(): Rating | null {
    return this.json.rating;
  }
  get visFt(): number | null {
    return this.json.visibility_ft;
  }
  get swellFt(): number | null {
    return this.json.swell_height_ft;
  }
  get swellPeriodS(): number | null {
    return this.json.swell_period_s;
  }
  get swellFromDeg(): number | null {
    return this.json.swell_from_deg;
  }
  get windKt(): number | null {
    return this.json.wind_speed_kt;
  }
  get gustKt(): number | null {
    return this.json.wind_gust_kt;
  }
  get windFromDeg(): number | null {
    return this.json.wind_from_deg;
  }
  get waterTempC(): number | null {
    return this.json.water_temp_c;
  }
  get tideState(): TideState | null {
    return this.json.tide_state;
  }
  get confidence(): number | null {
    return this.json.confidence;
  }
  get visibilitySource(): "satellite" | "heuristic" | null {
    return this.json.visibility_source;
  }
}

export interface SpotForecast {
  spot: Spot;
  /** Instant the forecast was computed for. */
  now: Date;
  /** Spot-local date of `now`. */
  today: string;
  /** Every period from the one containing `now` to the end of today + 6 (spot-local). */
  periods: PeriodResult[];
  nowcast: PeriodResult | null;
  tideEvents: TideEvent[];
  tideOrigin: Origin | null;
  origins: readonly Origin[];
  satelliteAgeH: number | null;
}

export interface EngineInputs {
  spot: Spot;
  inputs: HourlyInputs;
  /**
   * The month's normal conditions (the region's seasonal norms) over the same hours, which the
   * spot's typical level already holds: visibility moves by how far `inputs` depart from them.
   * Null when unknown: visibility then stays at the typical level (docs/model.md).
   */
  normal: HourlyInputs | null;
  tides: TideSeries | null;
  now: Date;
}

/** When a spot has no band (a made-up spot in a test): an estimated level with a third either side. */
const NO_EVIDENCE = { publishers: 0, estimated: true, rangeRatio: 2 };

/** The sun's altitude at sunrise and sunset (degrees): its upper limb on the horizon, with refraction. */
export const HORIZON_DEG = -0.833;

/**
 * Spot-local HH:MM of the sunrise between `start` (sun below the horizon) and `end` (above): the
 * altitude crossing found by bisection to the minute, which needs no calendar day to ask suncalc for.
 */
function sunriseWithin(start: Date, end: Date, spot: Spot): string {
  let lo = start.getTime();
  let hi = end.getTime();
  while (hi - lo > 30_000) {
    const mid = (lo + hi) / 2;
    if (getPosition(new Date(mid), spot.lat, spot.lon).altitude < HORIZON_DEG) lo = mid;
    else hi = mid;
  }
  return isoWithOffset(new Date(Math.round(hi / 60_000) * 60_000), spot.timezone).slice(11, 16);
}

export function buildSpotForecast({ spot, inputs, normal, tides, now }: EngineInputs): SpotForecast {
  const today = localDate(now, spot.timezone);
  const slots = periodSlots(today, HORIZON_DAYS, spot.timezone).filter((s) => s.end.getTime() > now.getTime());
  const satellite = inputs.satellite;
  const satelliteAgeH = satellite ? (now.getTime() - satellite.observedAt.getTime()) / HOUR_MS : null;
  const satVisM = satellite ? satelliteVisibilityM(satellite.kd490) : null;
  const events = tides?.events ?? [];
  // Periods fed by the same inputs share one list of them.
  const originSets = new Map<string, number[]>();

  // Venue closures by spot-local date (a weekday or a season), looked up once per date.
  const closures = new Map<string, ReturnType<typeof closureOn>>();
  const closedOn = (date: string) => {
    if (!closures.has(date)) closures.set(date, closureOn(spot.access, date));
    return closures.get(date)!;
  };
  const evaluate = (kind: PeriodResult["kind"], date: string, startHour: number, start: Date, end: Date, startIso: string, endIso: string): PeriodResult => {
    const used = new Set<number>();
    const c = conditionsOf(inputs, spot, start, end, used);
    const { swell, windKt, windFromDeg, windOnshore } = c;
    const gustKt = maxOf(inputs, "wind_gust_kt", c.h0, c.h1, used);
    const waterTempC = meanOf(inputs, "water_temp_c", c.h0, c.h1, used);
    const mid = new Date((start.getTime() + end.getTime()) / 2);
    const tideState = tideStateAt(events, mid);
    const tideFt = tideHeightAt(events, mid);
    const sunAltitudeDeg = getPosition(mid, spot.lat, spot.lon).altitude;
    // Light from the real sun: a period is wholly dark when the sun is below the horizon at its start,
    // middle and end (within three hours the altitude turns only once, at solar noon or midnight, so a
    // sunrise or sunset inside the window would leave one end above); one that starts before sunrise
    // says when the sun rises.
    const startAltitude = getPosition(start, spot.lat, spot.lon).altitude;
    const endAltitude = getPosition(end, spot.lat, spot.lon).altitude;
    const dark = startAltitude < HORIZON_DEG && sunAltitudeDeg < HORIZON_DEG && endAltitude < HORIZON_DEG;
    const sunrise = startAltitude < HORIZON_DEG && endAltitude >= HORIZON_DEG ? sunriseWithin(start, end, spot) : null;
    // The observation's age when this period happens: it persists, fading, into the forecast.
    const satAgeAtPeriodH = satelliteAgeH === null ? null : satelliteAgeH + (mid.getTime() - now.getTime()) / HOUR_MS;
    const useSatellite = satVisM !== null && satAgeAtPeriodH !== null && satelliteAgeH! >= 0 && satAgeAtPeriodH <= SATELLITE_MAX_AGE_H;

    const vis = estimateVisibility({
      clarityFt: spot.clarity_ft[monthOf(date) - 1]!,
      bottom: spot.bottom,
      depthM: spot.typical_depth_m,
      runoff: spot.runoff,
      ...c.conditions,
      normal: normal ? conditionsOf(normal, spot, start, end, null).conditions : null,
      tideState,
      sunAltitudeDeg,
      satellite: useSatellite ? { visibilityM: satVisM, ageH: satAgeAtPeriodH } : null,
    });
    if (vis?.source === "satellite" && satellite) used.add(inputs.origins.indexOf(satellite.origin));

    const climatology = [...used].some((i) => inputs.origins[i]?.climatology);
    const basis: Basis = vis?.source === "satellite" ? "satellite" : climatology ? "climatology" : "live";
    let score: number | null = null;
    let rating: Rating | null = null;
    let why: string;
    if (vis && swell && windKt !== null) {
      const surgeFt = surgeEquivalentM(swell.heightM, swell.periodS) / M_PER_FT;
      // Scored on the visibility the period shows (whole feet), so equal visibilities score alike.
      const breakdown = scoreConditions({ visFt: Math.round(vis.ft), swellFt: surgeFt, windKt, gustKt, onshore: windOnshore, dark });
      score = breakdown.score;
      rating = ratingFor(score)!;
      why = explainRating({
        breakdown,
        rating,
        visFt: vis.ft,
        swellFt: swell.heightM / M_PER_FT,
        swellFromDeg: swell.fromDeg,
        // The speeds the period reports, so the sentence's numbers and wind word are the card's.
        windKt: round(windKt, 1),
        gustKt: gustKt === null ? null : round(gustKt, 1),
        windFromDeg,
        // Wind of unknown direction counts as half onshore for the score, but is never called onshore.
        windOnshore: windFromDeg !== null && windOnshore >= 0.5,
        night: sunAltitudeDeg < HORIZON_DEG,
        sunrise,
        basis,
        seasonal: climatology,
        date,
        unranked: unrankedOf(spot),
        satelliteAgeH,
        satelliteObservedAt: satellite?.observedAt ?? null,
      });
    } else {
      why = missingReason(swell === null, windKt === null);
    }
    // The month's typical range, moved by the same swell, wind, rain, tide and light as the estimate.
    const band = spot.band.ranges[monthOf(date) - 1] ?? null;
    const evidence = band ? { publishers: spot.band.publishers, estimated: spot.band.estimated, rangeRatio: band.high / band.low } : NO_EVIDENCE;
    const confidence = vis ? round(visibilityConfidence(vis.source, climatology, vis.source === "satellite" ? satAgeAtPeriodH : null, evidence), 2) : null;
    const visFt = vis ? Math.round(vis.ft) : null;
    const moved = vis ? vis.factors.response * vis.factors.tide * vis.factors.light : null;
    const visLowFt = visFt === null || band === null ? null : Math.min(visFt, Math.max(1, Math.floor(band.low * moved!)));
    const visHighFt = visFt === null || band === null ? null : Math.max(visFt, Math.ceil(band.high * moved!));
    const json: PeriodJson = {
      kind,
      start: startIso,
      end: endIso,
      rating,
      score,
      visibility_ft: visFt,
      visibility_m: vis ? round(vis.ft * M_PER_FT, 1) : null,
      visibility_low_ft: visLowFt,
      visibility_high_ft: visHighFt,
      swell_height_ft: swell ? round(swell.heightM / M_PER_FT, 1) : null,
      swell_height_m: swell ? round(swell.heightM, 2) : null,
      swell_period_s: swell ? round(swell.periodS, 1) : null,
      swell_from_deg: swell ? Math.round(swell.fromDeg) % 360 : null,
      wind_speed_kt: windKt === null ? null : round(windKt, 1),
      wind_gust_kt: gustKt === null ? null : round(gustKt, 1),
      wind_from_deg: windFromDeg === null ? null : Math.round(windFromDeg) % 360,
      tide_state: tideState,
      tide_height_ft: tideFt === null ? null : round(tideFt, 1),
      water_temp_c: waterTempC === null ? null : round(waterTempC, 1),
      confidence,
      visibility_source: vis?.source ?? null,
      // A closure is said first wherever the period is shown: the score rates the water, not whether one may enter it.
      why: closedOn(date) === null ? why : `${CLOSED_ON_DATE}: ${closedOn(date)!.rule} ${why ?? ""}`.trimEnd(),
    };
    const key = [...used].sort((a, b) => a - b).join(",");
    let origins = originSets.get(key);
    if (!origins) originSets.set(key, (origins = key === "" ? [] : key.split(",").map(Number)));
    return new Period(kind, date, startHour, start, end, score !== null && climatology, origins, json);
  };

  const periods = slots.map((s) => evaluate("forecast", s.date, s.startHour, s.start, s.end, s.startIso, s.endIso));
  const nowHour = hourFloor(now);
  const nowEnd = new Date(nowHour.getTime() + HOUR_MS);
  const nowcast = evaluate("nowcast", today, -1, nowHour, nowEnd, isoWithOffset(nowHour, spot.timezone), isoWithOffset(nowEnd, spot.timezone));
  const first = slots[0]?.start ?? nowHour;
  const last = slots[slots.length - 1]?.end ?? nowHour;
  return {
    spot,
    now,
    today,
    periods,
    nowcast,
    tideEvents: events.filter((e) => e.time >= first && e.time < last),
    tideOrigin: tides?.origin ?? null,
    origins: inputs.origins,
    satelliteAgeH,
  };
}

/**
 * What a period's hours of a series say about the conditions the visibility responds to: swell at
 * the spot, wind and its onshore share, and the rain index at the period's middle hour. Origins of
 * the values read are added to `used` (null: not credited, for the normal conditions).
 */
export function conditionsOf(series: HourlyInputs, spot: Spot, start: Date, end: Date, used: Set<number> | null) {
  const h0 = Math.round((start.getTime() - series.start.getTime()) / HOUR_MS);
  const h1 = Math.max(h0 + 1, Math.round((end.getTime() - series.start.getTime()) / HOUR_MS));
  const mean = (f: InputField) => meanOf(series, f, h0, h1, used);
  const trains: SwellTrainInput[] = [];
  for (const [hf, pf, df] of SWELL_TRAINS) {
    const heightM = mean(hf);
    const periodS = mean(pf);
    const fromDeg = directionOf(series, df, hf, h0, h1);
    if (heightM !== null && periodS !== null && fromDeg !== null) trains.push({ heightM, periodS, fromDeg });
  }
  const swell = swellAtSpot(trains, spot.exposure, spot.swell_exposure);
  const windKt = mean("wind_speed_kt");
  const windFromDeg = directionOf(series, "wind_from_deg", "wind_speed_kt", h0, h1);
  const mid = (start.getTime() + end.getTime()) / 2;
  const midIdx = Math.min(series.hours - 1, Math.max(0, Math.floor((mid - series.start.getTime()) / HOUR_MS)));
  const rainIndex = rainIndexAt(series.values.precip_mm, midIdx);
  if (used) {
    // An origin covers runs of hours: add each run's once.
    let previous = NO_ORIGIN;
    for (let h = Math.max(0, midIdx - (RAIN_MEMORY_H - 1)); h <= midIdx; h++) {
      const o = series.origin.precip_mm[h]!;
      if (o !== NO_ORIGIN && o !== previous) used.add(o);
      previous = o;
    }
  }
  // 0 when the wind blows from a sheltered direction (offshore), 1 straight onshore.
  const windOnshore = windFromDeg === null ? 0.5 : (exposureWeight(windFromDeg, spot.exposure) - SHELTERED_WEIGHT) / (1 - SHELTERED_WEIGHT);
  const conditions: Conditions = { swellHeightM: swell?.heightM ?? null, swellPeriodS: swell?.periodS ?? null, windKt, windOnshore, rainIndexMm: rainIndex };
  return { h0, h1, swell, windKt, windFromDeg, windOnshore, conditions };
}

function missingReason(noSwell: boolean, noWind: boolean): string {
  const missing = [noSwell ? "swell" : null, noWind ? "wind" : null].filter(Boolean).join(" and ");
  return `No ${missing} data for this period, so it cannot be rated.`;
}

function meanOf(inputs: HourlyInputs, f: InputField, h0: number, h1: number, used: Set<number> | null): number | null {
  const vals = inputs.values[f];
  const org = inputs.origin[f];
  let sum = 0;
  let n = 0;
  let previous = NO_ORIGIN;
  for (let h = Math.max(0, h0); h < Math.min(h1, inputs.hours); h++) {
    const v = vals[h]!;
    if (Number.isNaN(v)) continue;
    sum += v;
    n++;
    if (used && org[h] !== previous) used.add((previous = org[h]!));
  }
  return n === 0 ? null : sum / n;
}

function maxOf(inputs: HourlyInputs, f: InputField, h0: number, h1: number, used: Set<number>): number | null {
  const vals = inputs.values[f];
  const org = inputs.origin[f];
  let best: number | null = null;
  let previous = NO_ORIGIN;
  for (let h = Math.max(0, h0); h < Math.min(h1, inputs.hours); h++) {
    const v = vals[h]!;
    if (Number.isNaN(v)) continue;
    if (best === null || v > best) best = v;
    if (org[h] !== previous) used.add((previous = org[h]!));
  }
  return best;
}

/** Circular mean of a direction field, weighted by its magnitude field. */
function directionOf(inputs: HourlyInputs, dirField: InputField, weightField: InputField, h0: number, h1: number): number | null {
  const dirs = inputs.values[dirField];
  const weights = inputs.values[weightField];
  const mean = new CircularMean();
  for (let h = Math.max(0, h0); h < Math.min(h1, inputs.hours); h++) {
    const d = dirs[h]!;
    if (Number.isNaN(d)) continue;
    const w = weights[h]!;
    mean.add(d, Number.isNaN(w) ? 1 : Math.max(w, 1e-6));
  }
  return mean.value();
}

/** Upstream feeds and credits a set of periods actually used (tides included). */
export function provenanceOf(forecast: SpotForecast, periods: readonly PeriodResult[]): { origins: Origin[]; sources: string[]; credits: DataCredit[]; freshness: Freshness } {
  const idx = new Set<number>();
  for (const p of periods) for (const i of p.origins) idx.add(i);
  const origins = [...idx]
    .sort((a, b) => a - b)
    .map((i) => forecast.origins[i])
    .filter((o): o is Origin => o !== undefined);
  const all = forecast.tideOrigin && forecast.tideEvents.length > 0 ? [...origins, forecast.tideOrigin] : origins;
  return {
    origins: all,
    sources: [...new Set([...all.map((o) => o.id), "suncalc"])],
    credits: unionCredits(all.map((o) => o.credits)),
    freshness: freshnessOf(origins, forecast.now),
  };
}
