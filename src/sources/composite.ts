// DATA_SOURCE policy: `offline` reads only the embedded seasonal norms; `live` reads only upstreams
// and fails (503) when they have nothing; `auto` reads upstreams and fills every value they lack,
// hour by hour and field by field, from the seasonal norms — each value keeping its own origin.
import type { Spot } from "../catalog/catalog.js";
import type { DataSourceMode } from "../base/config.js";
import type { ClimatologySource } from "./climatology.js";
import { emptyInputs, INPUT_FIELDS, NO_ORIGIN, SourceUnavailableError, SWELL_TRAINS, type HourlyInputs, type InputField, type Source } from "./types.js";

/** Fields without which no period can be rated; `live` mode needs at least some of each. */
const ESSENTIAL = ["swell1_height_m", "wind_speed_kt"] as const;

export class CompositeSource implements Source {
  readonly id = "composite";

  constructor(
    readonly mode: DataSourceMode,
    readonly live: readonly Source[],
    readonly climatology: ClimatologySource,
  ) {}

  revision(spot: Spot): string | null {
    if (this.mode === "offline") return "";
    const parts = this.live.map((s) => (s.revision ? s.revision(spot) : ""));
    return parts.includes(null) ? null : parts.join("/");
  }

  async hourly(spot: Spot, start: Date, end: Date): Promise<HourlyInputs> {
    if (this.mode === "offline" || this.live.length === 0) {
      if (this.mode === "live") throw new SourceUnavailableError("no live upstream is configured");
      return this.climatology.hourlySync(spot, start, end);
    }
    // Each source's revision is read as soon as its own answer is in: a background answer landing
    // while a slower source is still being read belongs to the next build, not this one.
    const revisions: (string | null)[] = [];
    const settled = await Promise.allSettled(
      this.live.map((s, i) => {
        const read = () => (revisions[i] = s.revision ? s.revision(spot) : "");
        return s.hourly(spot, start, end).then(
          (v) => (read(), v),
          (e: unknown) => {
            read();
            throw e;
          },
        );
      }),
    );
    const parts = settled.filter((r): r is PromiseFulfilledResult<HourlyInputs> => r.status === "fulfilled").map((r) => r.value);
    if (this.mode === "auto") parts.push(this.climatology.hourlySync(spot, start, end));
    const merged = mergeInputs(start, Math.round((end.getTime() - start.getTime()) / 3_600_000), parts);
    merged.revision = revisions.includes(null) ? null : revisions.join("/");
    if (this.mode === "live" && ESSENTIAL.some((f) => merged.values[f].every(Number.isNaN))) {
      const retry = settled.map((r) => (r.status === "rejected" && r.reason instanceof SourceUnavailableError ? r.reason.retryAfterS : 0)).reduce((a, b) => Math.max(a, b), 60);
      // Why, in our words ("open-meteo-marine: request quota spent …"), so a caller and an operator
      // can tell a spent quota from an outage without reading the logs.
      const why = [...new Set(settled.flatMap((r) => (r.status === "rejected" && r.reason instanceof SourceUnavailableError && r.reason.summary ? [r.reason.summary] : [])))];
      throw new SourceUnavailableError(`live upstream data is unavailable for this spot${why.length ? ` (${why.join("; ")})` : ""}`, retry);
    }
    return merged;
  }
}

const TRAIN_FIELDS = new Set<InputField>(SWELL_TRAINS.flat());

/**
 * Fills each empty slot from the first part that has a value there; parts are in priority order.
 * A swell train is taken whole, hour by hour, from the first part that has it complete (or says it
 * is absent with a zero height): mixing one source's height with another's period and direction
 * would describe a sea neither of them forecast.
 */
export function mergeInputs(start: Date, hours: number, parts: readonly HourlyInputs[]): HourlyInputs {
  const out = emptyInputs(start, hours);
  for (const part of parts) {
    const shift = Math.round((part.start.getTime() - start.getTime()) / 3_600_000);
    const remap = part.origins.map((o) => {
      const i = out.origins.indexOf(o);
      if (i >= 0) return i;
      out.origins.push(o);
      return out.origins.length - 1;
    });
    for (const train of SWELL_TRAINS) {
      const [hf, pf, df] = train;
      for (let h = 0; h < part.hours; h++) {
        const j = h + shift;
        if (j < 0 || j >= hours || !Number.isNaN(out.values[hf][j]!)) continue;
        const height = part.values[hf][h]!;
        const complete = !Number.isNaN(part.values[pf][h]!) && !Number.isNaN(part.values[df][h]!);
        if (Number.isNaN(height) || (height !== 0 && !complete)) continue;
        for (const f of train) {
          out.values[f][j] = part.values[f][h]!;
          const o = part.origin[f][h]!;
          out.origin[f][j] = o === NO_ORIGIN || Number.isNaN(part.values[f][h]!) ? NO_ORIGIN : remap[o]!;
        }
      }
    }
    for (const f of INPUT_FIELDS) {
      if (TRAIN_FIELDS.has(f)) continue;
      const src = part.values[f];
      const srcOrigin = part.origin[f];
      const dst = out.values[f];
      const dstOrigin = out.origin[f];
      for (let h = 0; h < part.hours; h++) {
        const j = h + shift;
        if (j < 0 || j >= hours || !Number.isNaN(dst[j]!) || Number.isNaN(src[h]!)) continue;
        dst[j] = src[h]!;
        const o = srcOrigin[h]!;
        dstOrigin[j] = o === NO_ORIGIN ? NO_ORIGIN : remap[o]!;
      }
    }
    if (!out.satellite && part.satellite) {
      out.satellite = part.satellite;
      if (!out.origins.includes(part.satellite.origin)) out.origins.push(part.satellite.origin);
    }
  }
  // Drop origins that ended up supplying nothing, keeping indexes consistent.
  return compactOrigins(out);
}

function compactOrigins(inputs: HourlyInputs): HourlyInputs {
  const used = new Set<number>();
  for (const f of INPUT_FIELDS) for (const o of inputs.origin[f]) if (o !== NO_ORIGIN) used.add(o);
  if (inputs.satellite) used.add(inputs.origins.indexOf(inputs.satellite.origin));
  if (used.size === inputs.origins.length) return inputs;
  const keep = [...used].sort((a, b) => a - b);
  const map = new Map(keep.map((old, i) => [old, i]));
  for (const f of INPUT_FIELDS) {
    const arr = inputs.origin[f];
    for (let h = 0; h < arr.length; h++) if (arr[h] !== NO_ORIGIN) arr[h] = map.get(arr[h]!)!;
  }
  inputs.origins = keep.map((i) => inputs.origins[i]!);
  return inputs;
}
