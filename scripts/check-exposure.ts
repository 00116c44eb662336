// Checks each spot's `exposure` (the octants a swell must come FROM to reach it) against the map:
// looks out from the spot along each of the eight octants over Natural Earth's 1:10m land polygons
// (scripts/coastline.ts) and prints how far open water runs that way before land, the fetch.
// Usage: npm run data:exposure [-- region-id ...]
//
// A swell reaches a spot only across open water, so:
// - a listed octant whose fetch is short (land within SHORT_FETCH_KM) is flagged: the exposure is
//   likely wrong, or the swell only wraps in by refraction round a headland or island (a human
//   decides which);
// - an unlisted octant whose fetch is long (more than LONG_FETCH_KM) is noted as a possible
//   omission: only a note, since a reef, headland or breakwater at the spot's scale, below 1:10m's
//   resolution, may block it.
//
// How a fetch is measured:
// - an octant is sampled by great-circle rays from the spot at RAY_OFFSETS_DEG about its centre
//   bearing, and its fetch is the median of theirs: the centre ray's unless both edge rays disagree
//   with it, so an octant counts as blocked (or open) when most of it is, not when one edge is.
//   The median rather than the longest ray because of how the forecast reads `exposure`
//   (exposureWeight in src/model/swell.ts): a listed octant lets in all of a swell from anywhere
//   within ±22.5° of its centre, and a swell just past a listed octant's edge still gets most of
//   its weight, so an octant open only at one edge is better left to its neighbour. Each flag
//   prints all three rays and says how many agree, for the human judging it;
// - land in the first NEAR_LAND_IGNORED_KM of a ray is ignored: a spot may lie inside the
//   generalised 1:10m coast (a cove or harbour drawn as land), which would otherwise block every
//   direction; so a fetch is never shorter than that, and land nearer is not seen;
// - a ray is marched by the distance to the nearest coast (it cannot cross land in a step shorter
//   than that), from MIN_STEP_KM near a coast up to MAX_STEP_KM in open ocean, and stops at the
//   first point on land or at FETCH_CAP_KM (read "500+").
// Small islands are missing from 1:10m (Phi Phi, Sesoko), and so are reefs, so a fetch can read
// long where a small island or reef blocks it: the check finds land that blocks, not all of it.
// Exit code 0 (a report for people, like the warnings of data:check) unless a region file fails
// to parse.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { OCTANTS, RegionRecord, type Octant } from "../src/catalog/schema.js";
import { EARTH_RADIUS_KM, octantDeg } from "../src/catalog/geo.js";
import { naturalEarthCoastline, SHORE_TOLERANCE_KM, type Coastline } from "./coastline.js";

/** Longest fetch measured, km; a ray with no land within it reads "500+". */
export const FETCH_CAP_KM = 500;
/** A listed octant with a fetch this short or shorter is flagged: no swell builds or passes in it. */
export const SHORT_FETCH_KM = 30;
/** An unlisted octant with a fetch longer than this is noted: open ocean, a possible omission. */
export const LONG_FETCH_KM = 300;
/**
 * Land this near the spot is ignored, km: how far inside the generalised 1:10m land a correct spot
 * may lie (SHORE_TOLERANCE_KM). A spot in a harbour or cove that 1:10m closes off would otherwise
 * read as blocked in every direction; the cost is that a headland or the far side of a bay that
 * near is not seen.
 */
export const NEAR_LAND_IGNORED_KM = SHORE_TOLERANCE_KM;
/** Bearings sampled in each octant, degrees off its centre (the octant spans ±22.5°). */
export const RAY_OFFSETS_DEG = [-15, 0, 15] as const;
/**
 * Shortest step of a ray, km: near a coast the march goes no slower than this, so land narrower
 * than it can be stepped over. Near world-atlas's quantisation (~370 × 190 m), below which 1:10m
 * draws no land anyway.
 */
const MIN_STEP_KM = 0.2;
/** Longest step of a ray, km, and how far each step looks for the coast (a wider search reads more bands). */
const MAX_STEP_KM = 50;
/**
 * Share of the distance to the coast taken as a step: the coastline's distance is measured in a
 * local flat plane (error well under 1 %), so a full step could end just over a coast. Every
 * sample is also tested for land, so an overshoot still stops the ray.
 */
const STEP_SHARE = 0.9;

const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** The point `km` along the great circle from (lat, lon) at `bearing` degrees true. */
function destination(lat: number, lon: number, bearing: number, km: number): [number, number] {
  const d = km / EARTH_RADIUS_KM;
  const p1 = rad(lat);
  const t = rad(bearing);
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(t));
  const l2 = rad(lon) + Math.atan2(Math.sin(t) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return [deg(p2), ((((deg(l2) + 180) % 360) + 360) % 360) - 180];
}

/**
 * Open water from (lat, lon) along `bearing`, km: the distance of the first land beyond
 * NEAR_LAND_IGNORED_KM (that distance itself if the ray is on land there), or FETCH_CAP_KM if the
 * ray meets none.
 */
export function rayFetchKm(coast: Coastline, lat: number, lon: number, bearing: number): number {
  let km = NEAR_LAND_IGNORED_KM;
  while (km < FETCH_CAP_KM) {
    const [la, lo] = destination(lat, lon, bearing, km);
    if (coast.onLand(la, lo)) return km;
    const toCoast = coast.coastKm(la, lo, MAX_STEP_KM) ?? MAX_STEP_KM;
    km += Math.max(MIN_STEP_KM, STEP_SHARE * toCoast);
  }
  return FETCH_CAP_KM;
}

export interface OctantFetch {
  octant: Octant;
  /** The octant's fetch, km: the median of its rays. */
  km: number;
  /** Each ray's fetch, km, in the order of RAY_OFFSETS_DEG. */
  rays: number[];
}

/** The fetch of each octant from (lat, lon), in OCTANTS order. */
export function octantFetches(coast: Coastline, lat: number, lon: number): OctantFetch[] {
  return OCTANTS.map((octant) => {
    const rays = RAY_OFFSETS_DEG.map((off) => rayFetchKm(coast, lat, lon, octantDeg(octant) + off));
    return { octant, km: median(rays), rays };
  });
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** "12", "3.4", "≤3.5" (land within the ignored distance or at it), "500+": a fetch in km, without the unit. */
export function formatFetch(km: number): string {
  if (km >= FETCH_CAP_KM) return `${FETCH_CAP_KM}+`;
  if (km <= NEAR_LAND_IGNORED_KM) return `≤${NEAR_LAND_IGNORED_KM}`;
  return km < 10 ? km.toFixed(1) : km.toFixed(0);
}

/** "−15°/0°/+15°": the ray offsets as printed. */
const OFFSETS_LABEL = RAY_OFFSETS_DEG.map((d) => `${d > 0 ? "+" : d < 0 ? "−" : ""}${Math.abs(d)}°`).join("/");

export interface ExposureFlag {
  /** `short`: listed but land is near that way; `open`: not listed but open ocean that way. */
  kind: "short" | "open";
  octant: Octant;
  /** How many of the octant's rays agree (land within SHORT_FETCH_KM, or open beyond LONG_FETCH_KM). */
  rays: number;
  message: string;
}

/**
 * The flags for a spot's listed exposure against its octant fetches. Each says how many of the
 * octant's rays agree: a flag on all of them is a firmer sign than one on two of three, where one
 * edge of the octant is open (short) or blocked (open).
 */
export function exposureFlags(exposure: readonly Octant[], fetches: readonly OctantFetch[]): ExposureFlag[] {
  const flags: ExposureFlag[] = [];
  for (const f of fetches) {
    const o = f.octant;
    const listed = exposure.includes(o);
    const detail = (agree: number) => `${agree === f.rays.length ? "all" : `${agree} of ${f.rays.length}`} rays, ${OFFSETS_LABEL}: ${f.rays.map(formatFetch).join(" / ")} km`;
    if (listed && f.km <= SHORT_FETCH_KM) {
      const agree = f.rays.filter((km) => km <= SHORT_FETCH_KM).length;
      flags.push({
        kind: "short",
        octant: o,
        rays: agree,
        message: `listed exposed to ${o} but land lies ${formatFetch(f.km)} km to the ${o} (${detail(agree)}): likely wrong, or a swell that only wraps in by refraction`,
      });
    } else if (!listed && f.km > LONG_FETCH_KM) {
      const agree = f.rays.filter((km) => km > LONG_FETCH_KM).length;
      flags.push({
        kind: "open",
        octant: o,
        rays: agree,
        message: `open ocean to the ${o} for ${formatFetch(f.km)} km but ${o} not listed (${detail(agree)}): a possible omission, unless a reef or headland too small for 1:10m blocks it`,
      });
    }
  }
  return flags;
}

/** "[N 12] · [NE 500+] · E 500+ · …" (km), the listed octants in brackets. */
export function fetchLine(exposure: readonly Octant[], fetches: readonly OctantFetch[]): string {
  return fetches.map((f) => (exposure.includes(f.octant) ? `[${f.octant} ${formatFetch(f.km)}]` : `${f.octant} ${formatFetch(f.km)}`)).join(" · ");
}

function main() {
  const started = performance.now();
  const root = new URL("..", import.meta.url).pathname;
  const dir = join(root, "data/regions");
  const wanted = process.argv.slice(2);
  let failed = false;
  const records: RegionRecord[] = [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  for (const f of files) {
    let parsed;
    try {
      parsed = RegionRecord.safeParse(JSON.parse(readFileSync(join(dir, f), "utf8")));
    } catch (e) {
      failed = true;
      console.error(`error: data/regions/${f}: ${(e as Error).message}`);
      continue;
    }
    if (!parsed.success) {
      failed = true;
      console.error(`error: data/regions/${f}: ${JSON.stringify(parsed.error.issues, null, 1)}`);
      continue;
    }
    if (wanted.length === 0 || wanted.includes(parsed.data.id)) records.push(parsed.data);
  }
  for (const id of wanted) if (!records.some((r) => r.id === id)) console.warn(`warning: no region ${id} in data/regions`);

  const coast = naturalEarthCoastline();
  console.log(
    `Open-water fetch per octant, km: distance to the first land of Natural Earth 1:10m, the median of rays at ${OFFSETS_LABEL} about the octant's centre; ` +
      `land within ${NEAR_LAND_IGNORED_KM} km of the spot ignored (≤${NEAR_LAND_IGNORED_KM}: land there); ${FETCH_CAP_KM}+: none within ${FETCH_CAP_KM} km. [X] = listed in exposure.\n` +
      `FLAG: a listed octant with land within ${SHORT_FETCH_KM} km. note: an unlisted octant open for more than ${LONG_FETCH_KM} km.\n` +
      `Small islands and reefs are missing from 1:10m, so a fetch they cut short reads long here.`,
  );
  let spots = 0;
  const count = { short: 0, shortAll: 0, open: 0, openAll: 0 };
  const flagged = new Set<string>();
  for (const r of records) {
    console.log(`\n${r.id}: ${r.spots.length} spots`);
    for (const s of r.spots) {
      spots++;
      const fetches = octantFetches(coast, s.lat, s.lon);
      console.log(`  ${s.id} (${s.name})`);
      console.log(`    ${fetchLine(s.exposure, fetches)}`);
      for (const f of exposureFlags(s.exposure, fetches)) {
        console.log(`    ${f.kind === "short" ? "FLAG" : "note"}: ${f.message}`);
        const all = f.rays === RAY_OFFSETS_DEG.length ? 1 : 0;
        if (f.kind === "short") {
          count.short++;
          count.shortAll += all;
        } else {
          count.open++;
          count.openAll += all;
        }
        flagged.add(`${r.id}/${s.id}`);
      }
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `\n${spots} spots in ${records.length} region${records.length === 1 ? "" : "s"}, ${flagged.size} with a flag or note: ` +
      `${count.short} listed octants with land within ${SHORT_FETCH_KM} km (FLAG; ${count.shortAll} on all rays), ` +
      `${count.open} unlisted octants open for more than ${LONG_FETCH_KM} km (note; ${count.openAll} on all rays); ${seconds} s`,
  );
  process.exit(failed ? 1 : 0);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
