// The Source interface: per spot and hour, the raw inputs the forecast engine needs, with where
// each value came from and when it was fetched. Implementations: the embedded climatology (offline)
// and the live upstream adapters; a composite fills gaps in one from the other, value by value.
import type { DataCredit } from "../base/attribution.js";
import type { Spot } from "../catalog/catalog.js";

/** Hourly input fields. Units are in the names; directions are where the thing comes FROM. */
export const INPUT_FIELDS = [
  "swell1_height_m",
  "swell1_period_s",
  "swell1_from_deg",
  "swell2_height_m",
  "swell2_period_s",
  "swell2_from_deg",
  "swell3_height_m",
  "swell3_period_s",
  "swell3_from_deg",
  "wind_speed_kt",
  "wind_gust_kt",
  "wind_from_deg",
  "precip_mm",
  "cloud_pct",
  "water_temp_c",
] as const;
export type InputField = (typeof INPUT_FIELDS)[number];

/** The swell trains, in the order their fields appear above. */
export const SWELL_TRAINS = [
  ["swell1_height_m", "swell1_period_s", "swell1_from_deg"],
  ["swell2_height_m", "swell2_period_s", "swell2_from_deg"],
  ["swell3_height_m", "swell3_period_s", "swell3_from_deg"],
] as const satisfies readonly (readonly [InputField, InputField, InputField])[];

/** Where a value came from. `fetchedAt` is null for embedded data, which is never fetched. */
export interface Origin {
  /** Identifier listed in a response's `sources`, e.g. "open-meteo:marine" or "climatology:us-hi-oahu". */
  id: string;
  /** True for embedded seasonal norms (not a forecast). */
  climatology: boolean;
  fetchedAt: Date | null;
  credits: readonly DataCredit[];
  /**
   * A dated observation (satellite ocean colour) whose own age is weighed and labelled where it is
   * used; fetched once a day, its fetch time does not set the answer's freshness.
   */
  observation?: boolean;
}

/**
 * Hourly inputs for one spot on a contiguous grid of UTC hours. Values are NaN when unknown; each
 * value's origin is an index into `origins` (255 = none).
 */
export interface HourlyInputs {
  /** First hour (UTC, on the hour). */
  start: Date;
  hours: number;
  values: Record<InputField, Float64Array>;
  origin: Record<InputField, Uint8Array>;
  origins: Origin[];
  /** The most recent satellite water-clarity observation near the spot, if any. */
  satellite: SatelliteObservation | null;
  /**
   * The source revision these inputs were read at (see Source.revision), when the source knows it:
   * an answer that arrives while a forecast is being built must not be credited to that build.
   */
  revision?: string | null;
}

export const NO_ORIGIN = 255;

export interface SatelliteObservation {
  /** Diffuse attenuation coefficient at 490 nm, m⁻¹ (median of valid pixels near the spot). */
  kd490: number;
  observedAt: Date;
  pixels: number;
  origin: Origin;
}

export interface Source {
  readonly id: string;
  /** Inputs for the UTC hours [start, end). Throws SourceUnavailableError when it has nothing. */
  hourly(spot: Spot, start: Date, end: Date): Promise<HourlyInputs>;
  /**
   * Changes whenever `hourly` for the spot would answer differently (new upstream data arrived);
   * null while a refresh is due and could be tried, so nothing built from older data is reused.
   * Sources whose answer only changes with the hour leave it out.
   */
  revision?(spot: Spot): string | null;
}

export class SourceUnavailableError extends Error {
  override name = "SourceUnavailableError";
  constructor(
    message: string,
    readonly retryAfterS: number = 60,
  ) {
    super(message);
  }

  /** What a caller may be told of the cause: words of ours, never an upstream's own text. */
  get summary(): string | null {
    return null;
  }
}

export function emptyInputs(start: Date, hours: number): HourlyInputs {
  const values = {} as Record<InputField, Float64Array>;
  const origin = {} as Record<InputField, Uint8Array>;
  for (const f of INPUT_FIELDS) {
    values[f] = new Float64Array(hours).fill(Number.NaN);
    origin[f] = new Uint8Array(hours).fill(NO_ORIGIN);
  }
  return { start, hours, values, origin, origins: [], satellite: null };
}

/** High and low waters. Heights are feet above MLLW. */
export interface TideEvent {
  type: "high" | "low";
  time: Date;
  heightFt: number;
}

export interface TideSeries {
  stationId: string;
  stationName: string;
  events: TideEvent[];
  origin: Origin;
}

export interface TideSource {
  readonly id: string;
  /** High/low waters at the spot's station for [start, end]. Null when the spot has no usable station. */
  extremes(spot: Spot, start: Date, end: Date): Promise<TideSeries | null>;
}

/**
 * A stored single-precision value back at the decimals it was published with: Open-Meteo publishes
 * at most two (0.62 m is stored as 0.6200000048), and a threshold at 0.3 m must see 0.3, not
 * 0.30000001. Four decimals keep converted units (feet, knots) well under their last shown digit.
 * The one rule for reading a stored float32: the forecast's inputs and the answers written to Redis.
 */
export const fromSingle = (v: number): number => Math.round(v * 1e4) / 1e4;
