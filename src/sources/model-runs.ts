// Which weather and wave models an Open-Meteo `best_match` answer rests on for a region, and when
// each last published a run, from Open-Meteo's run metadata (`/data/<model>/static/meta.json`,
// open-meteo/open-meteo PR #963; https://open-meteo.com/en/docs/model-updates). Metadata requests
// are not counted toward the API's limits, so the hourly re-check asks them first and downloads a
// region's batch again only when a model it rests on has a run the cached answer does not include.
//
// Which models (from the server's own mixer, open-meteo `MarineController.swift` and
// `ForecastapiController.swift`, `case .best_match`):
// - Marine: waves from Météo-France MFWAM (`meteofrance_wave`), SST and currents from the Météo-France/
//   Mercator daily system (`meteofrance_currents`; the SST domain has no metadata file of its own on the
//   model-updates page, and is published with the currents, JUDGEMENT), DWD EWAM over Europe
//   (`dwd_ewam`), and ECMWF WAM 0.25° (`ecmwf_wam025`) only while MFWAM's last run is more than 26 h
//   old (the server's own fallback rule, mirrored here). GWAM is commented out of best_match.
// - Forecast: always NCEP GFS (`ncep_gfs025` and `ncep_gfs013`) and DWD ICON (`dwd_icon`); then the
//   first regional model whose domain holds the point: KNMI over NL/BE, MET Nordic north of 54.9°N,
//   ICON-D2, AROME France, DMI Harmonie, HRRR over North America, JMA MSM, ICON-EU, ARPEGE Europe
//   (northern Africa). ECMWF IFS 0.25° joins the KNMI, Nordic and DMI mixes.
// Conservative by design: a region watches every model whose area (a box slightly larger than the
// model's domain) holds any of its spots, even where the server would pick another first. Watching a
// model too many costs only re-downloads; missing one would hold back a new forecast.
import { HOUR_MS, type Clock } from "../base/clock.js";
import { ShapeError, type UpstreamClient } from "./http.js";
import { refreshTicket } from "./scheduler.js";

export type OpenMeteoApi = "marine" | "forecast";

/** [south, west, north, east] in degrees; west > east wraps the antimeridian. */
type Box = readonly [number, number, number, number];

export interface WatchedModel {
  /** Open-Meteo's model id, as in its metadata path. */
  id: string;
  api: OpenMeteoApi;
  /** `update_interval_seconds` the model publishes (its run cadence). */
  intervalS: number;
  /**
   * Typical time from a run's initialisation to its availability on Open-Meteo, in minutes: only the
   * emulator uses it (the service reads the real availability time from the metadata).
   */
  delayMin: number;
  /** Where best_match may use it; absent = everywhere. */
  areas?: readonly Box[];
  /** Watched only when the server would fall back to it (see ecmwf_wam025). */
  fallback?: true;
}

// Cadences: `update_interval_seconds` and availability measured from the metadata files on
// 2026-08-09 (DWD ICON 6 h / 224 min, ICON-EU 3 h / 227 min, ICON-D2 3 h / 85 min, EWAM 12 h / 227 min,
// MFWAM 12 h / 725 min, Météo-France currents and SST 24 h / 727 min); the documented cadences on the
// model pages (GFS 6 h, HRRR hourly, IFS 6 h); availability delays of GFS (~5 h), HRRR (~1 h 24 min),
// ECMWF IFS (~7 h 55 min), ARPEGE Europe (~4 h 21 min) as an independent ingest measures them
// (wethr.net/model-schedule). ECMWF WAM shares the IFS dissemination (JUDGEMENT). Areas from the
// server's best_match bounds, widened by a degree.
export const WATCHED_MODELS: readonly WatchedModel[] = [
  { id: "meteofrance_wave", api: "marine", intervalS: 43_200, delayMin: 725 },
  { id: "meteofrance_currents", api: "marine", intervalS: 86_400, delayMin: 727 },
  { id: "dwd_ewam", api: "marine", intervalS: 43_200, delayMin: 227, areas: [[29, -12, 67, 43]] },
  { id: "ecmwf_wam025", api: "marine", intervalS: 21_600, delayMin: 475, fallback: true },
  { id: "ncep_gfs025", api: "forecast", intervalS: 21_600, delayMin: 299 },
  { id: "ncep_gfs013", api: "forecast", intervalS: 21_600, delayMin: 299 },
  { id: "dwd_icon", api: "forecast", intervalS: 21_600, delayMin: 224 },
  // HRRR CONUS: the server tries it for any point its Lambert grid holds (about 21–53°N, 60–134°W);
  // widened to 18°N so Caribbean and Mexican points near the grid's southern edge are watched too.
  { id: "ncep_hrrr_conus", api: "forecast", intervalS: 3_600, delayMin: 84, areas: [[18, -135, 55, -59]] },
  { id: "dwd_icon_eu", api: "forecast", intervalS: 10_800, delayMin: 227, areas: [[28.5, -24.5, 71.5, 63.5]] },
  { id: "dwd_icon_d2", api: "forecast", intervalS: 10_800, delayMin: 85, areas: [[42, -5, 59, 21.5]] },
  { id: "meteofrance_arpege_europe", api: "forecast", intervalS: 21_600, delayMin: 261, areas: [[19, -33, 73, 43]] },
  { id: "ecmwf_ifs025", api: "forecast", intervalS: 21_600, delayMin: 475, areas: [[43, -31, 72, 41]] },
  { id: "meteofrance_arome_france_hd", api: "forecast", intervalS: 3_600, delayMin: 56, areas: [[41, -7, 52.5, 9.5]] },
  { id: "jma_msm", api: "forecast", intervalS: 10_800, delayMin: 180, areas: [[26.5, 124, 43.5, 146]] },
];

/** Open-Meteo asks to wait this long after a run's availability for every server to have it. */
export const RUN_PROPAGATION_MS = 10 * 60_000;
/** The marine best_match falls back to ECMWF WAM when MFWAM's last run is older than this. */
export const MFWAM_STALE_MS = 26 * HOUR_MS;
/** Metadata answers are reused this long: one request per model per refresh tick, for every region. */
export const RUN_METADATA_TTL_MS = 60_000;

function inBox([south, west, north, east]: Box, lat: number, lon: number): boolean {
  if (lat < south || lat > north) return false;
  return west <= east ? lon >= west && lon <= east : lon >= west || lon <= east;
}

/** The models a region's `best_match` answers from `api` may rest on (the fallback ones included). */
export function watchedModelsFor(api: OpenMeteoApi, region: { spots: readonly { lat: number; lon: number }[] }): WatchedModel[] {
  return WATCHED_MODELS.filter((m) => m.api === api && (!m.areas || region.spots.some((s) => m.areas!.some((b) => inBox(b, s.lat, s.lon)))));
}

export interface ModelRun {
  /** Epoch ms of the last run's initialisation (its reference time). */
  initialisedAt: number;
  /** Epoch ms from which that run was served by (at least one of) the API servers. */
  availableAt: number;
  updateIntervalS: number;
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0;

/** Reads a `meta.json` answer; anything without the run times is not one. */
export function parseModelRun(body: unknown): ModelRun {
  const o = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  if (!isInt(o.last_run_initialisation_time) || !isInt(o.last_run_availability_time)) throw new ShapeError("no last_run_* times");
  return {
    initialisedAt: o.last_run_initialisation_time * 1000,
    availableAt: o.last_run_availability_time * 1000,
    updateIntervalS: isInt(o.update_interval_seconds) ? o.update_interval_seconds : 0,
  };
}

/** The metadata address of `model` on the host of an API URL (free, customer or emulator host alike). */
export function modelRunUrl(apiUrl: string, model: string): URL {
  return new URL(`/data/${model}/static/meta.json`, apiUrl);
}

export interface RunCheck {
  /** Models with a run, propagated to every server, that the answer downloaded at `downloadedAt` lacks. */
  newer: string[];
  watched: string[];
}

export interface ModelRunWatchOptions {
  client: UpstreamClient;
  /** The Marine and Forecast API URLs: metadata is asked on the same hosts. */
  urls: Record<OpenMeteoApi, string>;
  clock: Clock;
}

/** Model run times from the metadata files, one request per model per tick, shared by every region. */
export class ModelRunWatch {
  readonly #cache = new Map<string, { at: number; run: Promise<ModelRun> }>();
  /** Metadata requests sent (for tests and `npm run budget`). */
  requests = 0;

  constructor(readonly opts: ModelRunWatchOptions) {}

  /** The model's last run (cached for RUN_METADATA_TTL_MS, failures too, so a dead file costs one request a tick). */
  run(model: WatchedModel): Promise<ModelRun> {
    const now = this.opts.clock.now().getTime();
    const have = this.#cache.get(model.id);
    if (have && now - have.at < RUN_METADATA_TTL_MS && now >= have.at) return have.run;
    this.requests++;
    const run = this.opts.client.getJson(modelRunUrl(this.opts.urls[model.api], model.id), parseModelRun, { ticket: refreshTicket(), weight: 0 });
    run.catch(() => {}); // read by every caller; an unhandled rejection here would be noise
    this.#cache.set(model.id, { at: now, run });
    return run;
  }

  /**
   * Whether an answer downloaded at `downloadedAt` still holds the newest runs of every model the
   * region's answer rests on. A run counts as included when it was available RUN_PROPAGATION_MS
   * before the download, and as new once it has been available that long before now. Throws when
   * any metadata cannot be read (the caller then downloads, as without the check).
   */
  async check(api: OpenMeteoApi, region: { spots: readonly { lat: number; lon: number }[] }, downloadedAt: number): Promise<RunCheck> {
    const now = this.opts.clock.now().getTime();
    const models = watchedModelsFor(api, region);
    const runs = new Map<string, ModelRun>();
    for (const m of models.filter((x) => !x.fallback)) runs.set(m.id, await this.run(m));
    const mfwave = runs.get("meteofrance_wave");
    const fallbackDue = mfwave !== undefined && mfwave.availableAt <= now - MFWAM_STALE_MS;
    if (fallbackDue) for (const m of models.filter((x) => x.fallback)) runs.set(m.id, await this.run(m));
    const newer: string[] = [];
    for (const [id, r] of runs) {
      const settled = r.availableAt + RUN_PROPAGATION_MS;
      if (settled > downloadedAt && settled <= now) newer.push(id);
    }
    return { newer, watched: [...runs.keys()] };
  }
}
