// The embedded default source: seasonal norms per region and month (data/climatology/*.json),
// turned into deterministic hourly inputs. Never a forecast, and always labelled as seasonal norms.
//
// Scalars (wind speed, water temperature, rain, cloud) are interpolated linearly between month
// midpoints so a week that crosses a month boundary does not jump; swell trains are taken from the
// calendar month as listed (blending trains from different directions would invent swells).
// A region that holds two seas lists stretches of coast with their own water temperature
// (`water_temp_zones`); a spot in one takes its seasonal water temperature from that zone's monthly
// table, interpolated the same way, and everything else from the region's months.
// Wind follows a daily cosine cycle around its monthly mean, peaking at the table's peak hour; gusts
// are the mean times NORM_GUST_FACTOR.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DataCredit } from "../base/attribution.js";
import type { Spot } from "../catalog/catalog.js";
import { DATA_DIR } from "../base/paths.js";
import { LRUCache } from "lru-cache";
import { HOUR_MS } from "../base/clock.js";
import { OPEN_WATER_GUST_FACTOR } from "../model/wind-words.js";
import { offsetMinutes } from "../base/zone.js";
import { ClimatologyTable, type ClimatologyMonth, type WaterTempZone } from "./climatology-schema.js";
import { emptyInputs, SWELL_TRAINS, SourceUnavailableError, type HourlyInputs, type Origin, type Source } from "./types.js";

export function loadClimatology(dir = join(DATA_DIR, "climatology")): Map<string, ClimatologyTable> {
  const tables = new Map<string, ClimatologyTable>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const parsed = ClimatologyTable.safeParse(JSON.parse(readFileSync(join(dir, f), "utf8")));
    if (!parsed.success) throw new Error(`climatology ${f}: ${parsed.error.message}`);
    tables.set(parsed.data.region, parsed.data);
  }
  return tables;
}

export function climatologyCredit(table: ClimatologyTable, regionName: string, zone: WaterTempZone | null = null): DataCredit {
  // A zone's own sources lead, so the credit names where its water temperature came from.
  const sources = zone ? [...table.sources.filter((s) => zone.source_ids.includes(s.id)), ...table.sources.filter((s) => !zone.source_ids.includes(s.id))] : table.sources;
  // Titles read "Publisher, 'Page title'": credit each publisher once, in table order.
  const publishers = [...new Set(sources.map((s) => s.title.split(/,\s|\s'/)[0]!.trim()))];
  const named = publishers.slice(0, 4).join("; ") + (publishers.length > 4 ? `; and ${publishers.length - 4} more` : "");
  const where = zone ? `${regionName}, with ${zone.name} water temperature` : regionName;
  return {
    provider: "Ocean Conditions seasonal norms",
    credit: `Seasonal norms for ${where} (not a forecast), compiled from published sources: ${named}`,
    url: sources[0]!.url,
    license: "Compiled from published sources; see each source",
  };
}

/** The water-temperature zone a spot belongs to in its region's table, or null (the region's own water). */
export function waterTempZoneOf(table: ClimatologyTable, spotId: string): WaterTempZone | null {
  return table.water_temp_zones?.find((z) => z.spots.includes(spotId)) ?? null;
}

/** Zone members that are not spots of the region: a typo would silently give a spot the wrong sea. */
export function unknownZoneSpots(table: ClimatologyTable, regionSpotIds: ReadonlySet<string>): string[] {
  return (table.water_temp_zones ?? []).flatMap((z) => z.spots.filter((id) => !regionSpotIds.has(id)).map((id) => `${z.id}: ${id}`));
}

/**
 * Gusts in the norms: the hour's mean wind times one documented gust factor, not per-region guesses
 * (those averaged 1.7–2.4, which is gusty inland air, not sea air): the usual open-water peak gust,
 * the same factor the wind words judge gusts by (src/model/wind-words.ts gives its source).
 */
export const NORM_GUST_FACTOR = OPEN_WATER_GUST_FACTOR;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export class ClimatologySource implements Source {
  readonly id = "climatology";
  readonly #tables: Map<string, ClimatologyTable>;
  readonly #origins = new Map<string, Origin>();
  // One series per region and window; a few windows per hour at most.
  readonly #series = new LRUCache<string, HourlyInputs>({ max: 64 });

  constructor(tables: Map<string, ClimatologyTable>) {
    this.#tables = tables;
  }

  table(regionId: string): ClimatologyTable | undefined {
    return this.#tables.get(regionId);
  }

  origin(spot: Spot): Origin | null {
    const table = this.#tables.get(spot.region.id);
    if (!table) return null;
    const zone = waterTempZoneOf(table, spot.id);
    const key = `${spot.region.id}|${zone?.id ?? ""}`;
    let o = this.#origins.get(key);
    if (!o) {
      // One feed id per region (a zone is part of the region's table); the credit names the zone.
      o = {
        id: `climatology:${spot.region.id}`,
        climatology: true,
        fetchedAt: null,
        credits: [climatologyCredit(table, spot.region.name, zone)],
      };
      this.#origins.set(key, o);
    }
    return o;
  }

  async hourly(spot: Spot, start: Date, end: Date): Promise<HourlyInputs> {
    return this.hourlySync(spot, start, end);
  }

  /**
   * The series depends only on the region (its table and time zone), the spot's water-temperature
   * zone and the window, so the spots of a region (or zone) share one: built once, kept for the hour.
   * Callers treat it as read-only.
   */
  hourlySync(spot: Spot, start: Date, end: Date): HourlyInputs {
    const table = this.#tables.get(spot.region.id);
    const zone = table ? waterTempZoneOf(table, spot.id) : null;
    const key = `${spot.region.id}|${zone?.id ?? ""}|${start.getTime()}|${end.getTime()}`;
    let series = this.#series.get(key);
    if (!series) {
      series = this.#build(spot, start, end);
      this.#series.set(key, series);
    }
    return series;
  }

  #build(spot: Spot, start: Date, end: Date): HourlyInputs {
    const table = this.#tables.get(spot.region.id);
    const origin = this.origin(spot);
    if (!table || !origin) throw new SourceUnavailableError(`no seasonal norms for region ${spot.region.id}`);
    const zone = waterTempZoneOf(table, spot.id);
    const hours = Math.max(0, Math.round((end.getTime() - start.getTime()) / HOUR_MS));
    const out = emptyInputs(start, hours);
    out.origins.push(origin);
    const v = out.values;
    for (let h = 0; h < hours; h++) {
      const t = start.getTime() + h * HOUR_MS;
      const local = new Date(t + offsetMinutes(t, spot.timezone) * 60_000);
      const month = local.getUTCMonth(); // 0-based
      const dayFrac = (local.getUTCDate() - 0.5) / DAYS_IN_MONTH[month]!;
      const localHour = local.getUTCHours();
      const m = table.months[month]!;
      const scalar = (pick: (x: ClimatologyMonth) => number) => interpolate(table.months, month, dayFrac, pick);

      m.swell.forEach((train, i) => {
        const [hf, pf, df] = SWELL_TRAINS[i]!;
        v[hf][h] = train.height_m;
        v[pf][h] = train.period_s;
        v[df][h] = train.from_deg;
      });
      const meanKt = scalar((x) => x.wind.speed_kt);
      const range = scalar((x) => x.wind.diurnal_range_kt);
      const speed = Math.max(0, meanKt + (range / 2) * Math.cos((2 * Math.PI * (localHour - m.wind.peak_hour)) / 24));
      v.wind_speed_kt[h] = speed;
      v.wind_gust_kt[h] = speed * NORM_GUST_FACTOR;
      v.wind_from_deg[h] = m.wind.from_deg;
      v.precip_mm[h] = scalar((x) => x.rain_mm) / DAYS_IN_MONTH[month]! / 24;
      v.cloud_pct[h] = scalar((x) => x.cloud_pct);
      v.water_temp_c[h] = zone ? interpolateSeries(zone.water_temp_c, month, dayFrac) : scalar((x) => x.water_temp_c);
    }
    for (const f of Object.keys(v) as (keyof typeof v)[]) {
      const vals = v[f];
      const org = out.origin[f];
      for (let h = 0; h < hours; h++) if (!Number.isNaN(vals[h]!)) org[h] = 0;
    }
    return out;
  }
}

/** Linear interpolation between month midpoints; `dayFrac` is the position within `month` (0..1). */
function interpolate(months: readonly ClimatologyMonth[], month: number, dayFrac: number, pick: (m: ClimatologyMonth) => number): number {
  return interpolateSeries(months.map(pick), month, dayFrac);
}

/** The same interpolation over a plain January..December series. */
function interpolateSeries(values: readonly number[], month: number, dayFrac: number): number {
  const other = dayFrac < 0.5 ? (month + 11) % 12 : (month + 1) % 12;
  const w = Math.abs(dayFrac - 0.5); // 0 at mid-month, 0.5 at the boundary
  return values[month]! * (1 - w) + values[other]! * w;
}
