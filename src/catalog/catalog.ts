// The catalogue of regions and spots, loaded once from data/regions/*.json, with the lookups the
// endpoints need: by id, by region, by name, nearest to a point, and each region's bounding box.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { distanceKm } from "./geo.js";
import { isKnownTimeZone } from "../base/zone.js";
import { DATA_DIR } from "../base/paths.js";
import { habitatSpreads, regionLevels, visibilityBand, type RegionLevels, type SpotLevel, type VisibilityBand } from "./levels.js";

const NO_BAND: VisibilityBand = { ranges: [], publishers: 0, estimated: true };
import { RegionRecord, type SpotRecord } from "./schema.js";
import { byCodeUnit } from "../base/order.js";
import { matchesEveryWord, wordsOf } from "./words.js";

export interface BBox {
  south: number;
  west: number;
  north: number;
  east: number;
}

export interface Region extends Omit<RegionRecord, "spots"> {
  bbox: BBox;
  spots: Spot[];
}

export interface Spot extends SpotRecord {
  region: Region;
  timezone: string;
  /** Its typical visibility level is calibrated to published figures (src/catalog/levels.ts). */
  levelCalibrated: boolean;
  /** Decisions rank it: its level is calibrated and its region is published `full`. */
  ranked: boolean;
  /** Its typical range month by month and what stands behind it (src/catalog/levels.ts). */
  band: VisibilityBand;
}

export interface SpotWithDistance {
  spot: Spot;
  distanceKm: number;
}

export class Catalog {
  readonly regions: readonly Region[];
  readonly spots: readonly Spot[];
  readonly #spotsById = new Map<string, Spot>();
  readonly #regionsById = new Map<string, Region>();
  readonly #levels = new Map<string, RegionLevels>();

  constructor(records: readonly RegionRecord[]) {
    const regions: Region[] = [];
    for (const rec of records) {
      if (!isKnownTimeZone(rec.timezone)) throw new Error(`region ${rec.id}: unknown time zone ${rec.timezone}`);
      if (this.#regionsById.has(rec.id)) throw new Error(`duplicate region id ${rec.id}`);
      const region: Region = { ...rec, bbox: bboxOf(rec.spots), spots: [] };
      const levels = regionLevels(rec);
      this.#levels.set(rec.id, levels);
      rec.spots.forEach((s, i) => {
        if (this.#spotsById.has(s.id)) throw new Error(`duplicate spot id ${s.id}`);
        const levelCalibrated = levels.spots[i]!.calibrated;
        // The band is set once every region's levels are known (habitat spreads pool the whole catalogue).
        const spot: Spot = { ...s, region, timezone: rec.timezone, levelCalibrated, ranked: levelCalibrated && rec.decision_support === "full", band: NO_BAND };
        region.spots.push(spot);
        this.#spotsById.set(s.id, spot);
      });
      this.#regionsById.set(rec.id, region);
      regions.push(region);
    }
    this.regions = regions;
    this.spots = regions.flatMap((r) => r.spots);
    const levels = [...this.#levels.values()];
    const spreads = habitatSpreads(levels.flatMap((l) => l.spots));
    for (const region of regions) {
      const l = this.#levels.get(region.id)!;
      region.spots.forEach((s, i) => (s.band = visibilityBand(l.spots[i]!, spreads)));
    }
  }

  /** Loads and validates every data/regions/*.json file. */
  static load(dir = join(DATA_DIR, "regions")): Catalog {
    return new Catalog(Catalog.readRecords(dir));
  }

  /** The validated region records of data/regions/*.json, in file-name order. */
  static readRecords(dir = join(DATA_DIR, "regions")): RegionRecord[] {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort();
    return files.map((f) => {
      const parsed = RegionRecord.safeParse(JSON.parse(readFileSync(join(dir, f), "utf8")));
      if (!parsed.success) throw new Error(`${f}: ${parsed.error.message}`);
      return parsed.data;
    });
  }

  /** The calibration rule on a region's data (src/catalog/levels.ts), computed once when the catalogue is built. */
  levels(region: Region): RegionLevels {
    return this.#levels.get(region.id)!;
  }

  /** A spot's calibration under the rule: decisions rank only spots whose level is calibrated. */
  spotLevel(spot: Spot): SpotLevel {
    return this.levels(spot.region).spots.find((s) => s.id === spot.id)!;
  }

  spot(id: string): Spot | undefined {
    return this.#spotsById.get(id);
  }

  region(id: string): Region | undefined {
    return this.#regionsById.get(id);
  }

  /**
   * Spots matching a query: every word of it in the spot's name, its region's name or id, or its id
   * (case, accents and ʻokina ignored; a word may be the start of one): "Blue Hole Dahab" finds
   * "Blue Hole & El Bells (Dahab)".
   */
  search(q: string): Spot[] {
    const words = wordsOf(q);
    if (words.length === 0) return [...this.spots];
    return this.spots.filter((s) => matchesEveryWord(words, s));
  }

  /** All spots sorted by distance from a point, nearest first. */
  byDistance(lat: number, lon: number, spots: readonly Spot[] = this.spots): SpotWithDistance[] {
    return spots.map((spot) => ({ spot, distanceKm: distanceKm(lat, lon, spot.lat, spot.lon) })).sort((a, b) => a.distanceKm - b.distanceKm || byCodeUnit(a.spot.id, b.spot.id));
  }

  nearest(lat: number, lon: number): SpotWithDistance {
    const [first] = this.byDistance(lat, lon);
    if (!first) throw new Error("empty catalogue");
    return first;
  }
}

function bboxOf(spots: readonly { lat: number; lon: number }[]): BBox {
  const lats = spots.map((s) => s.lat);
  const lons = spots.map((s) => s.lon);
  return { south: Math.min(...lats), west: Math.min(...lons), north: Math.max(...lats), east: Math.max(...lons) };
}
