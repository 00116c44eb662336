// Weather scenarios for the stub upstreams: each is a handful of parameters from which the stub
// builds answers in the real Open-Meteo, CO-OPS and ERDDAP formats for any coordinates and dates.
// Deterministic: the same request at the same stub time always gets the same bytes.

export const SCENARIO_NAMES = ["calm", "big-swell", "storm", "cloud-gapped", "coastal-nulls", "zero-swell"] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export interface SwellTrain {
  heightM: number;
  periodS: number;
  fromDeg: number;
}

export interface Scenario {
  name: ScenarioName;
  description: string;
  /** Primary, secondary and (GFS-style) tertiary swell; a missing train is answered as null. */
  swell: SwellTrain[];
  windKt: number;
  gustKt: number;
  windFromDeg: number;
  /** Rain (mm/h) falling from `rainFromH` to `rainToH` hours relative to the stub's now. */
  rain: { mmPerH: number; fromH: number; toH: number };
  cloudPct: number;
  /** Sea temperature at 20° latitude; cooler poleward. */
  sstC: number;
  /** Kd490 (m⁻¹) seen by the near-real-time product; null = clouds hide every pixel. */
  kd490Nrt: number | null;
  /** Kd490 in the gap-filled product (never null: that is its point). */
  kd490GapFilled: number;
  /** Marine nulls near the coast: odd-numbered points all null, others null every 4th hour. */
  coastalNulls: boolean;
  /** Every swell value exactly zero, as GFS-Wave answers for cells it treats as land. */
  zeroSwell: boolean;
}

const base: Omit<Scenario, "name" | "description"> = {
  swell: [
    { heightM: 0.8, periodS: 12, fromDeg: 190 },
    { heightM: 0.4, periodS: 8, fromDeg: 70 },
  ],
  windKt: 7,
  gustKt: 10,
  windFromDeg: 70,
  rain: { mmPerH: 0, fromH: 0, toH: 0 },
  cloudPct: 20,
  sstC: 25.5,
  kd490Nrt: 0.035,
  kd490GapFilled: 0.04,
  coastalNulls: false,
  zeroSwell: false,
};

export const SCENARIOS: Record<ScenarioName, Scenario> = {
  calm: { ...base, name: "calm", description: "Small swell, light trade winds, dry, clear water seen by the satellite" },
  "big-swell": {
    ...base,
    name: "big-swell",
    description: "A 4 m, 17 s north-west swell with two smaller trains, moderate wind",
    swell: [
      { heightM: 4, periodS: 17, fromDeg: 315 },
      { heightM: 1.5, periodS: 13, fromDeg: 200 },
      { heightM: 0.8, periodS: 9, fromDeg: 60 },
    ],
    windKt: 12,
    gustKt: 17,
    kd490Nrt: 0.06,
  },
  storm: {
    ...base,
    name: "storm",
    description: "Kona storm: 30 kt southerly gusting 42, heavy rain from a day ago to a day and a half ahead, murky water",
    swell: [
      { heightM: 3, periodS: 10, fromDeg: 200 },
      { heightM: 1, periodS: 7, fromDeg: 150 },
    ],
    windKt: 30,
    gustKt: 42,
    windFromDeg: 200,
    rain: { mmPerH: 6, fromH: -24, toH: 36 },
    cloudPct: 100,
    kd490Nrt: null,
    kd490GapFilled: 0.3,
  },
  "cloud-gapped": {
    ...base,
    name: "cloud-gapped",
    description: "Calm, but clouds hide every near-real-time satellite pixel; only the gap-filled product sees the water",
    kd490Nrt: null,
    kd490GapFilled: 0.05,
  },
  "coastal-nulls": {
    ...base,
    name: "coastal-nulls",
    description: "Calm, but the wave model has no data at some coastal points and gaps at the others",
    coastalNulls: true,
  },
  "zero-swell": {
    ...base,
    name: "zero-swell",
    description: "Calm, but the wave model answers all-zero swell (a land-masked cell)",
    zeroSwell: true,
  },
};

const HOUR_MS = 3_600_000;

/** A slow, smooth wobble so series are not flat: ±amp around 1, period in hours. */
function wobble(tMs: number, periodH: number, amp: number, phase = 0): number {
  return 1 + amp * Math.sin((2 * Math.PI * tMs) / (periodH * HOUR_MS) + phase);
}

/** Value of an Open-Meteo hourly variable in SI/metric units (m, s, °, °C, kt, mm, %), or null. */
export function openMeteoValue(s: Scenario, variable: string, tMs: number, lat: number, lon: number, nowMs: number): number | null {
  const train = (i: number) => s.swell[i] ?? null;
  const swell = (i: number, part: "h" | "t" | "d") => {
    const tr = train(i);
    if (!tr) return null;
    if (s.zeroSwell) return 0;
    if (part === "h") return round(tr.heightM * wobble(tMs, 36, 0.2, i), 2);
    if (part === "t") return round(tr.periodS * wobble(tMs, 50, 0.05, i), 2);
    return Math.round(tr.fromDeg + 8 * Math.sin((2 * Math.PI * tMs) / (60 * HOUR_MS)));
  };
  const hoursFromNow = (tMs - nowMs) / HOUR_MS;
  // Trade winds peak in the afternoon: a daily cycle on local solar time.
  const solarH = (((tMs / HOUR_MS + lon / 15) % 24) + 24) % 24;
  const daily = 1 + 0.25 * Math.cos((2 * Math.PI * (solarH - 14)) / 24);
  switch (variable) {
    case "swell_wave_height":
      return swell(0, "h");
    case "swell_wave_period":
      return swell(0, "t");
    case "swell_wave_direction":
      return swell(0, "d");
    case "secondary_swell_wave_height":
      return swell(1, "h");
    case "secondary_swell_wave_period":
      return swell(1, "t");
    case "secondary_swell_wave_direction":
      return swell(1, "d");
    case "tertiary_swell_wave_height":
      return swell(2, "h");
    case "tertiary_swell_wave_period":
      return swell(2, "t");
    case "tertiary_swell_wave_direction":
      return swell(2, "d");
    case "wave_height":
      return s.zeroSwell ? 0 : round(Math.sqrt(s.swell.reduce((a, t) => a + t.heightM ** 2, 0)), 2);
    case "sea_surface_temperature":
      return round(s.sstC - 0.45 * Math.max(0, Math.abs(lat) - 20) + 0.2 * Math.sin((2 * Math.PI * tMs) / (24 * HOUR_MS)), 1);
    case "wind_speed_10m":
      return round(s.windKt * daily, 1);
    case "wind_gusts_10m":
      return round(s.gustKt * daily, 1);
    case "wind_direction_10m":
      return Math.round(s.windFromDeg + 10 * Math.sin((2 * Math.PI * tMs) / (30 * HOUR_MS)));
    case "precipitation":
      return hoursFromNow >= s.rain.fromH && hoursFromNow < s.rain.toH ? s.rain.mmPerH : 0;
    case "cloud_cover":
      return s.cloudPct;
    case "sea_level_height_msl":
      return seaLevelM(tMs, lat, lon);
    default:
      return null;
  }
}

/**
 * Tidal constituents of the emulated sea level: speed (°/h) and amplitude (m). The amplitudes are a
 * small-tide sea's, like the northern Red Sea's (spring range ~0.6 m, neaps ~0.2 m): M2, S2 and N2
 * semi-diurnal, K1 and O1 diurnal.
 */
export const TIDE_CONSTITUENTS = [
  { name: "M2", speedDegH: 28.9841042, ampM: 0.16 },
  { name: "S2", speedDegH: 30.0, ampM: 0.05 },
  { name: "N2", speedDegH: 28.4397295, ampM: 0.03 },
  { name: "K1", speedDegH: 15.0410686, ampM: 0.03 },
  { name: "O1", speedDegH: 13.9430356, ampM: 0.02 },
] as const;

/**
 * Open-Meteo's `sea_level_height_msl` at a point: model tide plus a slow surge, in metres above global
 * mean sea level (the local mean sits a little above it), stored in whole centimetres as the real
 * server does. Phases vary with position, so neighbouring regions turn at different times.
 */
export function seaLevelM(tMs: number, lat: number, lon: number): number {
  const hours = tMs / HOUR_MS;
  let h = 0.08 + 0.03 * Math.sin((2 * Math.PI * hours) / 70 + lon);
  for (const [i, c] of TIDE_CONSTITUENTS.entries()) {
    const phase = ((lon * 7 + lat * 3 + i * 40) * Math.PI) / 180;
    h += c.ampM * Math.cos((c.speedDegH * hours * Math.PI) / 180 - phase);
  }
  return round(h, 2);
}

/**
 * Kd490 of one pixel on the day observed at `tMs`: the scenario's value with a little spatial texture
 * and a day-to-day swing that follows the primary swell (more swell, murkier water), so observations
 * of a live run differ from day to day as real ones do and the validation record has something to rank.
 */
export function kd490Value(s: Scenario, gapFilled: boolean, lat: number, lon: number, tMs = 0): number | null {
  const kd = gapFilled ? s.kd490GapFilled : s.kd490Nrt;
  if (kd === null) return null;
  const day = s.zeroSwell ? 1 : 1 + KD490_DAILY_SWING * Math.sin((2 * Math.PI * tMs) / (36 * HOUR_MS));
  return round(kd * day * (1 + 0.08 * Math.sin(lat * 40) * Math.cos(lon * 40)), 4);
}

/** Day-to-day swing of the emulated Kd490 (± share), in phase with the primary swell's 36-hour wobble. */
export const KD490_DAILY_SWING = 0.3;

export function round(v: number, dp: number): number {
  const f = 10 ** dp;
  return Math.round(v * f) / f;
}
