// An emulator of the four upstreams on one local node:http server, answering in their real formats
// (Open-Meteo /v1/marine and /v1/forecast, CO-OPS /api/prod/datagetter, ERDDAP /erddap/griddap)
// built from a scenario for whatever coordinates and dates are asked. By default it behaves like the
// real services (reference: data-notes §8): Open-Meteo's per-IP concurrency and weighted quotas, its
// array answers without the first `location_id` and its `best_match` marine model without a third
// swell train, and its modelled sea level (a small tide, in whole centimetres, null outside the sea mask); ERDDAP's 7- and 11-day lags, slow answers, occasional 502s, north→south latitude and
// HTTP-500 axis refusals; CO-OPS's HTTP-200 errors. Latency can be scaled down for tests; limits
// and quirks cannot be switched off. Faults can be injected per upstream. Open-Meteo's model run
// metadata (`/data/<model>/static/meta.json`, on both API hosts) follows each model's real cadence and
// availability delay (src/sources/model-runs.ts) on the emulator's clock, is never counted against the
// quota, and the data served changes only when a run the point rests on changes. Used by the tests,
// the bench and `npm run stub`.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OPEN_METEO_EMULATED_TIER, OpenMeteoLimits, weightOf, type OpenMeteoLimitsOptions } from "./open-meteo-limits.js";
import { kd490Value, openMeteoValue, round, SCENARIOS, type Scenario, type ScenarioName } from "./scenarios.js";
import { WATCHED_MODELS, watchedModelsFor, type OpenMeteoApi } from "../../src/sources/model-runs.js";

export const STUB_UPSTREAMS = ["marine", "forecast", "coops", "erddap"] as const;
export type StubUpstream = (typeof STUB_UPSTREAMS)[number];

export const FAULT_KINDS = ["timeout", "http500", "http429", "malformed", "shape", "partial-nulls", "coops-error"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  kind: FaultKind;
  /** Retry-After seconds sent with http429. */
  retryAfterS?: number;
}

export interface StubOptions {
  scenario?: ScenarioName;
  port?: number;
  host?: string;
  /** The stub's idea of now (tests share the service's FixedClock). */
  now?: () => Date;
  /** Extra delay before every answer, on top of the upstream's own latency. */
  delayMs?: number;
  /**
   * Multiplies every upstream's realistic latency (1 = as measured: Open-Meteo 150–400 ms, CO-OPS
   * 200–600 ms, ERDDAP 8–18 s). Tests shorten it; nothing else about the upstreams changes.
   */
  latencyScale?: number;
  /** Open-Meteo limits; the free tier unless a test or a commercial-key run says otherwise. */
  openMeteoLimits?: Partial<OpenMeteoLimitsOptions>;
  /** Every Nth ERDDAP request answers 502 Bad Gateway (0 = never). */
  erddapBadGatewayEvery?: number;
  /** Status of ERDDAP's axis-order refusal: 500 on the older servers still in service, 400 on newer ones. */
  erddapAxisRefusalStatus?: 400 | 500;
}

/** Latency ranges of the real upstreams (ms), before `latencyScale`. */
export const UPSTREAM_LATENCY_MS: Record<StubUpstream, [number, number]> = {
  marine: [150, 400],
  forecast: [150, 400],
  coops: [200, 600],
  erddap: [8_000, 18_000],
};

export interface StubUpstreams {
  base: string;
  port: number;
  /** Environment that points the service at this stub. */
  env: Record<string, string>;
  calls: Record<StubUpstream, number>;
  /** Request URLs received, newest last (bounded). */
  requests: { upstream: StubUpstream; url: string }[];
  /** Open-Meteo's limiter, shared by /v1/marine and /v1/forecast: counters, exhaust(), resetQuotas(). */
  openMeteo: OpenMeteoLimits;
  /** ERDDAP answers by status. */
  erddapStatuses: Record<number, number>;
  scenario: Scenario;
  /** Metadata (`meta.json`) requests received; never counted against the emulated quota. */
  metaRequests: number;
  /** A model's last run as the metadata files say at `at` (default now); null for a model not emulated. */
  modelRun(model: string, at?: Date): { initialisedAt: number; availableAt: number; intervalS: number } | null;
  /** Publishes an extra run of `model`, available from `at` (default now), besides its regular cadence. */
  publishRun(model: string, at?: Date): void;
  /** While true, every metadata file answers HTTP 500. */
  failMetadata: boolean;
  setScenario(name: ScenarioName): void;
  fault(upstream: StubUpstream, fault: Fault | null): void;
  now: () => Date;
  delayMs: number;
  resetCalls(): void;
  close(): Promise<void>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Grid spacing the stub's Open-Meteo snaps to, like the wave models do. */
const MODEL_GRID_DEG = 0.08;
/**
 * ERDDAP datasets the emulator serves: pixel size, lag of the latest step (days), and latitude
 * storage order. Both real grids store latitude north→south, so an ascending range is refused.
 */
export const ERDDAP_DATASETS: Record<string, { gapFilled: boolean; stepDeg: number; lagDays: number; latDescending: boolean }> = {
  noaacwNPPVIIRSkd490Daily: { gapFilled: false, stepDeg: 0.0375, lagDays: 7, latDescending: true },
  noaacwNPPN20S3AkdSCIDINEOF2kmDaily: { gapFilled: true, stepDeg: 0.02, lagDays: 11, latDescending: true },
};
const DATASETS = ERDDAP_DATASETS;

/** A deterministic spread in [0, 1) for the n-th request: latency varies without randomness. */
function spread(n: number): number {
  const x = Math.sin(n * 12.9898 + 78.233) * 43758.5453;
  return x - Math.floor(x);
}

export async function startStubUpstreams(opts: StubOptions = {}): Promise<StubUpstreams> {
  const faults = new Map<StubUpstream, Fault>();
  const extraRuns = new Map<string, number[]>();
  const hanging = new Set<ServerResponse>();
  const now = opts.now ?? (() => new Date());
  const latencyScale = opts.latencyScale ?? 1;
  const badGatewayEvery = opts.erddapBadGatewayEvery ?? 9;
  const axisRefusalStatus = opts.erddapAxisRefusalStatus ?? 500;
  const timers = new Set<NodeJS.Timeout>();
  const pause = (ms: number) =>
    ms <= 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            timers.delete(t);
            resolve();
          }, ms);
          timers.add(t);
        });
  const latency = (upstream: StubUpstream) => {
    const [lo, hi] = UPSTREAM_LATENCY_MS[upstream];
    return (lo + (hi - lo) * spread(state.calls[upstream])) * latencyScale + state.delayMs;
  };
  const state: StubUpstreams = {
    base: "",
    port: 0,
    env: {},
    calls: { marine: 0, forecast: 0, coops: 0, erddap: 0 },
    requests: [],
    openMeteo: new OpenMeteoLimits({ ...OPEN_METEO_EMULATED_TIER, ...opts.openMeteoLimits }, now),
    erddapStatuses: {},
    scenario: SCENARIOS[opts.scenario ?? "calm"],
    metaRequests: 0,
    failMetadata: false,
    modelRun(model, at) {
      const m = WATCHED_MODELS.find((x) => x.id === model);
      if (!m) return null;
      const t = (at ?? now()).getTime();
      const intervalMs = m.intervalS * 1000;
      const delayMs = m.delayMin * 60_000;
      const init = Math.floor((t - delayMs) / intervalMs) * intervalMs;
      let run = { initialisedAt: init, availableAt: init + delayMs, intervalS: m.intervalS };
      for (const extra of extraRuns.get(model) ?? [])
        if (extra <= t && extra > run.availableAt) run = { initialisedAt: Math.floor(extra / HOUR_MS) * HOUR_MS, availableAt: extra, intervalS: m.intervalS };
      return run;
    },
    publishRun(model, at) {
      const list = extraRuns.get(model) ?? [];
      list.push((at ?? now()).getTime());
      extraRuns.set(model, list);
    },
    setScenario(name) {
      state.scenario = SCENARIOS[name];
    },
    fault(upstream, fault) {
      if (fault) faults.set(upstream, fault);
      else faults.delete(upstream);
    },
    now,
    delayMs: opts.delayMs ?? 0,
    resetCalls() {
      for (const k of STUB_UPSTREAMS) state.calls[k] = 0;
      state.requests.length = 0;
      state.openMeteo.resetCounters();
      state.erddapStatuses = {};
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(e));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://stub");
    if (url.pathname === "/_stub") return control(url, res);
    const meta = /^\/data\/([a-z0-9_]+)\/static\/meta\.json$/.exec(url.pathname);
    if (meta) return modelMeta(meta[1]!, res);
    const upstream = routeOf(url.pathname);
    if (!upstream) return send(res, 404, "text/plain", "no such stub route");
    state.requests.push({ upstream, url: url.pathname + url.search });
    if (state.requests.length > 1000) state.requests.shift();
    if (upstream === "marine" || upstream === "forecast") return openMeteoAdmitted(url, upstream, req, res);
    state.calls[upstream]++;
    if (upstream === "erddap") res.on("finish", () => (state.erddapStatuses[res.statusCode] = (state.erddapStatuses[res.statusCode] ?? 0) + 1));
    await pause(latency(upstream));
    return answer(url, upstream, res);
  }

  /** Open-Meteo: quotas first (weighted calls), then the per-client concurrency queue. */
  async function openMeteoAdmitted(url: URL, upstream: "marine" | "forecast", req: IncomingMessage, res: ServerResponse): Promise<void> {
    const p = url.searchParams;
    const locations = (p.get("latitude") ?? "").split(",").length;
    const variables = (p.get("hourly") ?? "").split(",").filter(Boolean).length;
    const days = Number(p.get("past_days") ?? 0) + Number(p.get("forecast_days") ?? 7);
    const admission = await state.openMeteo.admit(req.socket.remoteAddress ?? "?", weightOf(locations, variables, days));
    if (!admission.ok) return send(res, admission.status, "application/json", JSON.stringify({ error: true, reason: admission.reason }));
    state.calls[upstream]++;
    try {
      await pause(latency(upstream));
      answer(url, upstream, res);
    } finally {
      admission.release();
    }
  }

  function answer(url: URL, upstream: StubUpstream, res: ServerResponse): void {
    const fault = faults.get(upstream);
    if (fault?.kind === "timeout") {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (fault?.kind === "http500") return send(res, 500, "text/html", "<html><body>502 Bad Gateway</body></html>");
    if (fault?.kind === "http429") {
      res.setHeader("Retry-After", String(fault.retryAfterS ?? 60));
      return send(res, 429, "application/json", JSON.stringify({ error: true, reason: "Too many concurrent requests" }));
    }
    if (fault?.kind === "malformed") return send(res, 200, "application/json", '{"latitude":21.25,"hourly":{"time":["2026-11-21T00:00",');
    if (fault?.kind === "shape") return send(res, 200, "application/json", JSON.stringify(wrongShape(upstream)));
    const now = state.now();
    const partial = fault?.kind === "partial-nulls";
    if (upstream === "erddap" && badGatewayEvery > 0 && state.calls.erddap % badGatewayEvery === 0) {
      return send(res, 502, "text/html", "<html><head><title>502 Proxy Error</title></head><body>Proxy Error</body></html>");
    }
    switch (upstream) {
      case "marine":
      case "forecast":
        return openMeteo(url, upstream, now, partial, res);
      case "coops":
        return coops(url, now, fault?.kind === "coops-error", partial, res);
      case "erddap":
        return erddap(url, now, partial, res);
    }
  }

  /** A model's metadata file as Open-Meteo serves it (unix seconds), outside the quota. */
  async function modelMeta(model: string, res: ServerResponse): Promise<void> {
    state.metaRequests++;
    await pause(latency("forecast"));
    if (state.failMetadata) return send(res, 500, "text/plain", "Internal Server Error");
    const run = state.modelRun(model);
    if (!run) return send(res, 404, "text/plain", "Not Found");
    const s = (ms: number) => Math.round(ms / 1000);
    send(
      res,
      200,
      "application/json",
      JSON.stringify({
        last_run_initialisation_time: s(run.initialisedAt),
        last_run_modification_time: s(run.availableAt) - 30,
        last_run_availability_time: s(run.availableAt),
        temporal_resolution_seconds: 3600,
        update_interval_seconds: run.intervalS,
      }),
    );
  }

  /**
   * The moment the data for a point was last renewed: the newest run, as of `now`, of the models its
   * best_match answer rests on. Values are computed as of that moment, so they change only with a run.
   */
  function dataStamp(api: OpenMeteoApi, lat: number, lon: number, now: Date): number {
    let stamp = 0;
    for (const m of watchedModelsFor(api, { spots: [{ lat, lon }] })) if (!m.fallback) stamp = Math.max(stamp, state.modelRun(m.id, now)!.availableAt);
    return stamp;
  }

  function control(url: URL, res: ServerResponse): void {
    const scenario = url.searchParams.get("scenario");
    if (scenario && scenario in SCENARIOS) state.setScenario(scenario as ScenarioName);
    for (const f of url.searchParams.getAll("fault")) {
      const [up, kind] = f.split(":") as [StubUpstream, FaultKind | "none"];
      if ((STUB_UPSTREAMS as readonly string[]).includes(up)) state.fault(up, kind === "none" ? null : { kind });
    }
    const exhaust = url.searchParams.get("exhaust");
    if (exhaust === "minutely" || exhaust === "hourly" || exhaust === "daily") state.openMeteo.exhaust(exhaust);
    if (url.searchParams.get("quotas") === "reset") state.openMeteo.resetQuotas();
    send(
      res,
      200,
      "application/json",
      JSON.stringify({ scenario: state.scenario.name, faults: Object.fromEntries(faults), calls: state.calls, openMeteo: state.openMeteo.counters, erddap: state.erddapStatuses }, null, 2),
    );
  }

  function openMeteo(url: URL, kind: "marine" | "forecast", now: Date, partial: boolean, res: ServerResponse): void {
    const p = url.searchParams;
    const lats = (p.get("latitude") ?? "").split(",").map(Number);
    const lons = (p.get("longitude") ?? "").split(",").map(Number);
    if (lats.length !== lons.length || lats.some((v) => !Number.isFinite(v) || Math.abs(v) > 90) || lons.some((v) => !Number.isFinite(v))) {
      return send(res, 400, "application/json", JSON.stringify({ error: true, reason: "Latitude and longitude must have the same number of elements" }));
    }
    const tz = p.get("timezone") ?? "GMT";
    if (tz !== "GMT" && tz !== "UTC") return send(res, 400, "application/json", JSON.stringify({ error: true, reason: "The stub only speaks GMT" }));
    const variables = (p.get("hourly") ?? "").split(",").filter(Boolean);
    const pastDays = Number(p.get("past_days") ?? 0);
    const forecastDays = Number(p.get("forecast_days") ?? 7);
    const knots = p.get("wind_speed_unit") === "kn";
    const first = Math.floor(now.getTime() / DAY_MS) * DAY_MS - pastDays * DAY_MS;
    const hours = (pastDays + forecastDays) * 24;
    const s = state.scenario;
    const units: Record<string, string> = { time: "iso8601" };
    for (const v of variables) units[v] = unitOf(v, knots);
    // The marine best_match (Météo-France + DWD, ECMWF WAM when stale) has no third swell train:
    // its values are all null and its unit is the string "undefined".
    const absent = (v: string) => kind === "marine" && v.startsWith("tertiary_swell");
    for (const v of variables) if (absent(v)) units[v] = "undefined";
    const locations = lats.map((lat, i) => {
      const lon = lons[i]!;
      const stamp = dataStamp(kind, lat, lon, now);
      const hourly: Record<string, unknown[]> = { time: [] };
      for (const v of variables) hourly[v] = [];
      // The sea level comes from the ocean model (Météo-France/Mercator currents), whose reader has no
      // sea cell at a point outside its mask: the column is then all null with the unit "undefined",
      // as for any variable no model of the mix supplies (coastal-nulls: the odd-numbered points).
      const masked = (v: string) => kind === "marine" && v === "sea_level_height_msl" && s.coastalNulls && i % 2 === 1;
      const pointUnits = variables.some(masked) ? { ...units, sea_level_height_msl: "undefined" } : units;
      for (let h = 0; h < hours; h++) {
        const t = first + h * HOUR_MS;
        hourly.time!.push(new Date(t).toISOString().slice(0, 16));
        for (const v of variables) {
          let x = absent(v) || masked(v) ? null : openMeteoValue(s, v, t, lat, lon, stamp);
          if (x !== null && v.startsWith("wind_") && !v.includes("direction") && !knots) x = round(x * 1.852, 1);
          // The wave model's coastal gaps are its own; the ocean model's sea level has none but its mask.
          const coastalGap = kind === "marine" && s.coastalNulls && v !== "sea_level_height_msl" && (i % 2 === 1 || h % 4 === 0);
          if (coastalGap || (partial && h % 2 === 1)) x = null;
          hourly[v]!.push(x);
        }
      }
      return {
        // Written only when not 0 (Open-Meteo omits a zero location_id), so the first has none.
        ...(i > 0 ? { location_id: i } : {}),
        latitude: round(Math.round(lat / MODEL_GRID_DEG) * MODEL_GRID_DEG, 3),
        longitude: round(Math.round(lon / MODEL_GRID_DEG) * MODEL_GRID_DEG, 3),
        generationtime_ms: 0.4,
        utc_offset_seconds: 0,
        timezone: "GMT",
        timezone_abbreviation: "GMT",
        elevation: 0,
        hourly_units: pointUnits,
        hourly,
      };
    });
    send(res, 200, "application/json", JSON.stringify(locations.length === 1 ? locations[0] : locations));
  }

  function coops(url: URL, _now: Date, forceError: boolean, partial: boolean, res: ServerResponse): void {
    const p = url.searchParams;
    const station = p.get("station") ?? "";
    const required: Record<string, string> = { product: "predictions", datum: "MLLW", interval: "hilo", units: "english", time_zone: "gmt", format: "json" };
    const wrong = Object.keys(required).find((k) => p.get(k) !== required[k]);
    // Subordinate ids such as TPT… are not served, like the real API may answer for them.
    if (forceError || wrong || !/^\d{7}$/.test(station)) {
      return send(res, 200, "application/json", JSON.stringify({ error: { message: "No Predictions data was found. Please make sure the Datum input is valid." } }));
    }
    const day = (s: string | null) => (s && /^\d{8}$/.test(s) ? Date.UTC(+s.slice(0, 4), +s.slice(4, 6) - 1, +s.slice(6, 8)) : Number.NaN);
    const begin = day(p.get("begin_date"));
    const end = day(p.get("end_date")) + DAY_MS;
    if (Number.isNaN(begin) || Number.isNaN(end) || end <= begin) {
      return send(res, 200, "application/json", JSON.stringify({ error: { message: "The begin_date and end_date are invalid." } }));
    }
    // A semidiurnal tide: extremes every half M2 period, phase from the station id, springs and neaps.
    const halfM2 = 6.2103 * HOUR_MS;
    const phase = (Number(station) % 1000) * 60_000 * 7;
    const predictions: { t: string; v: string; type: string }[] = [];
    let k = Math.ceil((begin - phase) / halfM2);
    for (let t = phase + k * halfM2; t < end; t = phase + ++k * halfM2) {
      const high = k % 2 === 0;
      const spring = Math.sin((2 * Math.PI * t) / (14.77 * DAY_MS));
      const v = high ? 1.9 + 0.4 * spring : 0.25 - 0.2 * spring;
      const tm = Math.round(t / 60_000) * 60_000;
      predictions.push({ t: new Date(tm).toISOString().slice(0, 16).replace("T", " "), v: partial && k % 3 === 0 ? "" : v.toFixed(3), type: high ? "H" : "L" });
    }
    send(res, 200, "application/json", JSON.stringify({ predictions }));
  }

  function erddap(url: URL, now: Date, partial: boolean, res: ServerResponse): void {
    const m = /^\/erddap\/griddap\/([A-Za-z0-9_]+)\.json$/.exec(url.pathname);
    const ds = m ? DATASETS[m[1]!] : undefined;
    if (!ds) return send(res, 404, "text/plain", 'Error {\n    code=404;\n    message="Not Found: Currently unknown datasetID";\n}\n');
    const q = decodeURIComponent(url.search.slice(1));
    const num = "(-?\\d+(?:\\.\\d+)?)";
    const c = new RegExp(`^kd_490\\[\\(last\\)\\]\\[0\\]\\[\\(${num}\\):1:\\(${num}\\)\\]\\[\\(${num}\\):1:\\(${num}\\)\\]$`).exec(q);
    if (!c) return send(res, 400, "text/plain", `Error {\n    code=400;\n    message="Bad Request: Query error: unrecognized constraint ${q}";\n}\n`);
    const [lat0, lat1, lon0, lon1] = c.slice(1, 5).map(Number) as [number, number, number, number];
    if (ds.latDescending !== lat0 > lat1) {
      return send(
        res,
        axisRefusalStatus,
        "text/plain",
        `Error {\n    code=400;\n    message="Bad Request: Query error: For variable=kd_490 axis#2=latitude Constraint=\\"[(${lat0}):1:(${lat1})]\\": StartIndex=40 is greater than StopIndex=0.";\n}\n`,
      );
    }
    const time = Math.floor(now.getTime() / DAY_MS) * DAY_MS - ds.lagDays * DAY_MS + 12 * HOUR_MS;
    const step = ds.stepDeg;
    const lats: number[] = [];
    for (let i = Math.ceil(Math.min(lat0, lat1) / step); i * step <= Math.max(lat0, lat1); i++) lats.push(round(i * step, 4));
    if (ds.latDescending) lats.reverse();
    const rows: unknown[][] = [];
    const iso = new Date(time).toISOString().replace(".000Z", "Z");
    for (const [li, lat] of lats.entries()) {
      for (let j = Math.ceil(lon0 / step); j * step <= lon1; j++) {
        const lon = round(j * step, 4);
        const v = partial && (li + j) % 2 === 0 ? null : kd490Value(state.scenario, ds.gapFilled, lat, lon, time);
        rows.push([iso, 0.0, lat, lon, v]);
      }
    }
    send(
      res,
      200,
      "application/json",
      JSON.stringify({
        table: {
          columnNames: ["time", "altitude", "latitude", "longitude", "kd_490"],
          columnTypes: ["String", "double", "double", "double", "float"],
          columnUnits: ["UTC", "m", "degrees_north", "degrees_east", "m-1"],
          rows,
        },
      }),
    );
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  state.port = port;
  state.base = `http://${opts.host ?? "127.0.0.1"}:${port}`;
  state.env = {
    OPEN_METEO_MARINE_URL: `${state.base}/v1/marine`,
    OPEN_METEO_FORECAST_URL: `${state.base}/v1/forecast`,
    COOPS_URL: `${state.base}/api/prod/datagetter`,
    ERDDAP_URL: `${state.base}/erddap`,
  };
  return state;
}

function routeOf(path: string): StubUpstream | null {
  if (path === "/v1/marine") return "marine";
  if (path === "/v1/forecast") return "forecast";
  if (path === "/api/prod/datagetter") return "coops";
  if (path.startsWith("/erddap/griddap/")) return "erddap";
  return null;
}

function unitOf(variable: string, knots: boolean): string {
  if (variable.includes("direction")) return "°";
  if (variable.includes("period")) return "s";
  if (variable.includes("height")) return "m";
  if (variable === "sea_surface_temperature") return "°C";
  if (variable.startsWith("wind_")) return knots ? "kn" : "km/h";
  if (variable === "precipitation") return "mm";
  if (variable === "cloud_cover") return "%";
  return "";
}

/** Valid JSON that is not the upstream's format. */
function wrongShape(upstream: StubUpstream): unknown {
  switch (upstream) {
    case "marine":
    case "forecast":
      return { latitude: 21.25, longitude: -157.7, hourly: { time: "2026-11-21T00:00", swell_wave_height: 1.2 } };
    case "coops":
      return { predictions: [{ time: "2026-11-21T00:00Z", height: 1.2 }] };
    case "erddap":
      return { table: { columnNames: ["when", "value"], rows: "none" } };
  }
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
  res.end(body);
}
