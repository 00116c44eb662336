// Tides: offline harmonic prediction (the constants extracted into data/tide-stations.json, the
// astronomy of @neaps/tide-predictor, our own search for highs and lows in tide-curve.ts), plus the
// pure helpers that turn high/low waters into a height and a state at any instant. Heights are
// always feet above MLLW.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Station } from "@neaps/tide-predictor";
import { LRUCache } from "lru-cache";
import type { DataCredit } from "../base/attribution.js";
import type { Spot } from "../catalog/catalog.js";
import { DATA_DIR } from "../base/paths.js";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../base/clock.js";
import { StationHarmonics } from "./tide-curve.js";
import type { Origin, TideEvent, TideSeries, TideSource } from "./types.js";
import { M_PER_FT } from "../model/visibility.js";

interface StationFile {
  generated_from: string;
  stations: Record<string, Station & { license: { type: string; commercial_use: boolean; url: string }; attribution: string }>;
}

export type TideStationRecord = StationFile["stations"][string];

/** The extracted stations, loaded once. */
export function loadTideStations(file = join(DATA_DIR, "tide-stations.json")): Map<string, TideStationRecord> {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as StationFile;
  return new Map(Object.entries(parsed.stations));
}

/** The credit a station's licence asks for, shown in `data_credits`. */
export function tideStationCredit(st: TideStationRecord): DataCredit {
  const isNoaa = st.id.startsWith("noaa/");
  return {
    provider: isNoaa ? "NOAA CO-OPS harmonic constants via the Neaps tide database" : `${st.source.name} via the Neaps tide database`,
    credit: isNoaa ? `Tides computed from NOAA harmonic constants, station ${st.source.id} ${st.name} (Neaps tide database)` : `Tide predictions for ${st.name}: ${st.attribution}`,
    url: st.source.url,
    license: isNoaa ? "Public domain (U.S. Government)" : (LICENSE_NAMES[st.license.type] ?? st.license.type),
  };
}

const LICENSE_NAMES: Record<string, string> = {
  "cc-by-4.0": "CC BY 4.0",
  "cc-by-nc-4.0": "CC BY-NC 4.0",
  "public domain": "Public domain",
};

/** Tide windows cover this many days each, on a fixed grid from the epoch. */
const STEP_MS = 10 * DAY_MS;
/** How far past its own days a window's events reach (see `#window`). */
const WINDOW_OVERLAP_MS = HOUR_MS;

/** Offline tide source: real harmonic predictions, deterministic, no network. */
export class HarmonicTideSource implements TideSource {
  readonly id = "tide-harmonics";
  readonly #stations: Map<string, TideStationRecord>;
  readonly #harmonics = new Map<string, StationHarmonics>();
  readonly #origins = new Map<string, Origin>();
  // Extremes per station for a 12-day window starting on a UTC day; tides never change, so any
  // window computed once stays right. Bounded: ~40 stations × a few windows.
  readonly #windows = new LRUCache<string, TideEvent[]>({ max: 512 });

  constructor(stations: Map<string, TideStationRecord>) {
    this.#stations = stations;
  }

  /**
   * Computes the high/low tables of the given stations for the days around `now`, so that no
   * request pays for harmonic prediction (~1–3 ms a station): tides are as static as the catalogue.
   * One station at a time, yielding in between, so requests arriving meanwhile are not held up.
   */
  async warm(stationIds: Iterable<string>, now: Date): Promise<void> {
    for (const id of new Set(stationIds)) {
      this.extremesSync(id, new Date(now.getTime() - 5 * DAY_MS), new Date(now.getTime() + 10 * DAY_MS));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  station(id: string): TideStationRecord | undefined {
    return this.#stations.get(id);
  }

  origin(stationId: string): Origin | null {
    const st = this.#stations.get(stationId);
    if (!st) return null;
    let o = this.#origins.get(stationId);
    if (!o) {
      o = { id: `tide-harmonics:${stationId}`, climatology: false, fetchedAt: null, credits: [tideStationCredit(st)] };
      this.#origins.set(stationId, o);
    }
    return o;
  }

  /** Null when the spot has no tide station (none within reach in the database). */
  async extremes(spot: Spot, start: Date, end: Date): Promise<TideSeries | null> {
    return spot.tide_station === null ? null : this.extremesSync(spot.tide_station, start, end);
  }

  /** High/low waters at a station between two instants (inclusive). */
  extremesSync(stationId: string, start: Date, end: Date): TideSeries | null {
    const st = this.#stations.get(stationId);
    const origin = this.origin(stationId);
    if (!st || !origin) return null;
    const from = start.getTime();
    const to = end.getTime();
    const events: TideEvent[] = [];
    for (let k = Math.floor(from / STEP_MS); k <= Math.floor(to / STEP_MS); k++) {
      for (const e of this.#window(stationId, st, k)) {
        const t = e.time.getTime();
        if (t < from || t > to) continue;
        // Where two windows overlap, each has seen the same high or low (a second or so apart, their
        // node corrections differing): keep the first window's and go on after it.
        const last = events[events.length - 1];
        if (last && (t <= last.time.getTime() || (e.type === last.type && t - last.time.getTime() < WINDOW_OVERLAP_MS))) continue;
        events.push(e);
      }
    }
    return { stationId, stationName: st.name, events, origin };
  }

  /**
   * Window `k` holds the events of days [k·STEP, (k+1)·STEP) and of an hour either side, predicted
   * over a day more on each side. Each window's node corrections are its own, so an extreme right at
   * a boundary can fall a second before it in one window and a second after it in the next: the
   * overlap makes sure one of them has it, and `extremesSync` keeps it once. Windows sit on a fixed
   * grid, so every request (and the start-up warm) shares them.
   */
  #window(stationId: string, st: TideStationRecord, k: number): TideEvent[] {
    const key = `${stationId}|${k}`;
    let events = this.#windows.get(key);
    if (!events) {
      let harmonics = this.#harmonics.get(stationId);
      if (!harmonics) {
        // The reference curve: a subordinate station carries its reference station's constants
        // and datums, and its own NOAA offsets are applied to the reference's extremes below.
        harmonics = new StationHarmonics(st);
        this.#harmonics.set(stationId, harmonics);
      }
      const lo = k * STEP_MS;
      const hi = (k + 1) * STEP_MS;
      const curve = harmonics.curve(lo - DAY_MS, (lo + hi) / 2);
      const everyMinute = (from: Date, to: Date) => {
        const out: { time: Date; level: number }[] = [];
        for (let t = Math.floor(from.getTime() / MINUTE_MS) * MINUTE_MS; t <= to.getTime(); t += MINUTE_MS) out.push({ time: new Date(t), level: curve.levelFt(t) });
        return out;
      };
      const reference = alternateExtremes(curve.extremes(lo - DAY_MS, hi + DAY_MS), everyMinute);
      events = applySubordinateOffsets(reference, st.offsets).filter((e) => e.time.getTime() >= lo - WINDOW_OVERLAP_MS && e.time.getTime() < hi + WINDOW_OVERLAP_MS);
      this.#windows.set(key, events);
    }
    return events;
  }
}

/** NOAA's subordinate-station corrections: a time shift per high/low and a height ratio or fixed offset. */
export interface SubordinateOffsets {
  reference?: string;
  time?: { high?: number; low?: number };
  height?: { high?: number; low?: number; type?: "ratio" | "fixed" | string };
}

/**
 * A subordinate station's high and low waters from its reference station's, the way NOAA publishes
 * them: each high (low) moved by the station's high (low) time difference in minutes, and its height
 * (feet above MLLW) multiplied by the height ratio, or shifted by a fixed difference given in metres.
 * Because highs and lows move by different amounts, a tiny stand can swap order; runs of one type
 * are then merged so the table still alternates.
 */
export function applySubordinateOffsets(reference: readonly TideEvent[], offsets: SubordinateOffsets | undefined): TideEvent[] {
  if (!offsets) return [...reference];
  const fixed = offsets.height?.type === "fixed";
  const moved = reference.map((e): TideEvent => {
    const minutes = (e.type === "high" ? offsets.time?.high : offsets.time?.low) ?? 0;
    const adj = (e.type === "high" ? offsets.height?.high : offsets.height?.low) ?? (fixed ? 0 : 1);
    return {
      type: e.type,
      time: new Date(e.time.getTime() + minutes * 60_000),
      heightFt: fixed ? e.heightFt + adj / M_PER_FT : e.heightFt * adj,
    };
  });
  moved.sort((a, b) => a.time.getTime() - b.time.getTime());
  return mergeRuns(moved);
}

/**
 * High and low waters that strictly alternate. The predictor drops an extreme whose rise or fall is
 * under a centimetre (a "stand", common in Hawaiʻi's mixed tides), which leaves two highs or two
 * lows in a row; the missing low (high) between them is put back from the curve itself, sampled
 * each minute, so heights read off the table rise and fall with the water.
 */
export function alternateExtremes(events: readonly TideEvent[], curve: (from: Date, to: Date) => readonly { time: Date; level: number }[]): TideEvent[] {
  const out: TideEvent[] = [];
  for (const e of events) {
    const prev = out[out.length - 1];
    if (prev && prev.type === e.type && e.time.getTime() - prev.time.getTime() > 2 * 60_000) {
      const samples = curve(prev.time, e.time).slice(1, -1);
      const pick = samples.reduce<{ time: Date; level: number } | null>((best, s) => (best === null || (e.type === "high" ? s.level < best.level : s.level > best.level) ? s : best), null);
      if (pick) out.push({ type: e.type === "high" ? "low" : "high", time: pick.time, heightFt: pick.level });
    }
    out.push(e);
  }
  return mergeRuns(out);
}

/** Collapses each run of same-type events to its most extreme member. */
function mergeRuns(events: readonly TideEvent[]): TideEvent[] {
  const out: TideEvent[] = [];
  for (const e of events) {
    const prev = out[out.length - 1];
    if (prev && prev.type === e.type) {
      const keep = e.type === "high" ? e.heightFt > prev.heightFt : e.heightFt < prev.heightFt;
      if (keep) out[out.length - 1] = e;
    } else out.push(e);
  }
  return out;
}

/**
 * Water level between two extremes by cosine interpolation — the standard way to read heights off a
 * high/low table (NOAA uses it for subordinate stations). Null outside the events' span.
 */
export function tideHeightAt(events: readonly TideEvent[], t: Date): number | null {
  const ms = t.getTime();
  const i = upperIndex(events, ms);
  if (i <= 0 || i >= events.length) return null;
  const a = events[i - 1]!;
  const b = events[i]!;
  const ta = a.time.getTime();
  const tb = b.time.getTime();
  const phase = (ms - ta) / (tb - ta);
  return a.heightFt + ((b.heightFt - a.heightFt) * (1 - Math.cos(Math.PI * phase))) / 2;
}

/** Within this long of a high or low water, the tide is called high or low. */
export const SLACK_WINDOW_MS = 60 * 60_000;

/** `high`/`low` within an hour of an extreme, otherwise `rising`/`falling`; null outside the events. */
export function tideStateAt(events: readonly TideEvent[], t: Date): "high" | "low" | "rising" | "falling" | null {
  const ms = t.getTime();
  const i = upperIndex(events, ms);
  if (i <= 0 || i >= events.length) return null;
  const prev = events[i - 1]!;
  const next = events[i]!;
  const dPrev = ms - prev.time.getTime();
  const dNext = next.time.getTime() - ms;
  if (Math.min(dPrev, dNext) <= SLACK_WINDOW_MS) return dPrev <= dNext ? prev.type : next.type;
  return next.type === "high" ? "rising" : "falling";
}

/** Index of the first event strictly after `ms` (events sorted by time). */
function upperIndex(events: readonly TideEvent[], ms: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid]!.time.getTime() <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
