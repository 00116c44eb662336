// Shape of the catalogue data files in data/regions/*.json: regions, their spots, and
// what we know about each spot. Validated once at start-up; a bad file stops the service.
import { z } from "zod";
import { SPOT_ID_PATTERN } from "../base/limits.js";

export const OCTANTS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;
export const Octant = z.enum(OCTANTS);
export type Octant = z.infer<typeof Octant>;

/** Activities a spot can be judged for (surf is never ranked, so it has no suitability). */
export const RankedActivity = z.enum(["snorkel", "dive", "freedive", "spearfish"]);
export type RankedActivity = z.infer<typeof RankedActivity>;

/** Stable reasons a spot is excluded from an activity's ranking (`considered.excluded[].reason`). */
export const UNSUITED_REASONS = [
  "unsuited_depth", // too deep to see anything from the surface, or too shallow to dive
  "unsuited_entry", // access does not fit the activity (e.g. boat-only drift for snorkelers)
  "unsuited_hazard", // boat traffic, strong current or other hazard for this activity
  "unsuited_access", // permit-only, night-only or otherwise not a normal day trip for this activity
  "unsuited_use", // the water is set aside for another use (a swimming or resort lagoon for spearfishing)
] as const;
export const UnsuitedReason = z.enum(UNSUITED_REASONS);

const Url = z.url();
const Month12 = <T extends z.ZodType>(t: T) => z.array(t).length(12);

export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
const MonthDay = z.string().regex(/^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/, "MM-DD");

/**
 * A venue rule with the page that states it. Closures (`closed_weekdays`, `closed_season`) exclude
 * the spot on the dates they cover; `reservation` and `permit` are told to the user as caveats.
 * `rule` is the plain sentence shown to users (exclusion note or caveat message).
 */
export const AccessRule = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("closed_weekdays"), weekdays: z.array(z.enum(WEEKDAYS)).min(1), rule: z.string().min(1), source: Url }),
  z.strictObject({
    kind: z.literal("closed_season"),
    /** Inclusive spot-local MM-DD bounds; `from` after `to` wraps the new year (e.g. 12-15 … 05-15). */
    from: MonthDay,
    to: MonthDay,
    rule: z.string().min(1),
    source: Url,
  }),
  z.strictObject({
    kind: z.enum(["reservation", "permit"]),
    /** Activities the requirement applies to; absent means every activity. */
    activities: z.array(RankedActivity).min(1).optional(),
    rule: z.string().min(1),
    source: Url,
  }),
]);
export type AccessRule = z.infer<typeof AccessRule>;

/**
 * What a published visibility figure is, which decides whether it can calibrate a spot's typical
 * level (docs/model.md, "Calibration"):
 * - `site`: a page about this spot (a park, dive-guide or dive-centre site page, a survey of the site);
 * - `area`: a typical figure for water the spot lies in (its `scope` says which water);
 * - `operator_table`: a dive operator's month-by-month figures (its `scope` says for which water);
 * - `log`: one dive or one day's trip report. Never a typical figure, so it never calibrates.
 */
export const REFERENCE_KINDS = ["site", "area", "operator_table", "log"] as const;
export const ReferenceKind = z.enum(REFERENCE_KINDS);
export type ReferenceKind = z.infer<typeof ReferenceKind>;

/**
 * The water an `area` figure or an operator's table describes. Which scope may calibrate which spot
 * habitat is one table in code (HABITAT_FITS in src/catalog/habitat.ts), not a judgement per spot:
 * - `bay`: the bay, cove or lagoon the spot lies in;
 * - `coast`: an island's or a stretch of coast's reefs as a whole;
 * - `outer_reef`: outer reefs, walls, drop-offs, pinnacles and passes;
 * - `centre`: one dive centre's or club's average over all the sites it dives;
 * - `elsewhere`: another place than the spot's (another reef, another coast): kept as a lead, never counted.
 */
export const REFERENCE_SCOPES = ["bay", "coast", "outer_reef", "centre", "elsewhere"] as const;
export const ReferenceScope = z.enum(REFERENCE_SCOPES);
export type ReferenceScope = z.infer<typeof ReferenceScope>;

/**
 * A published typical horizontal visibility for the spot: what calibrates its typical level
 * (`clarity_ft`). `high_ft` null: the source gives only a floor ("rarely less than 50 ft");
 * `low_ft` null: only a ceiling ("seldom more than 30 ft"). A floor or a ceiling bounds the level
 * (a level beyond it is a data error) but never calibrates it. A single typical figure is stored as
 * low = high. Every source found is kept, including those that do not count (a log, a figure for
 * other water, a generated page kept as a lead); the rule in src/catalog/levels.ts decides which do,
 * and data/publishers.json says who published each page.
 */
export const VisibilityReference = z
  .strictObject({
    low_ft: z.number().positive().nullable(),
    high_ft: z.number().positive().nullable(),
    /** Months (1–12) the figure describes; all twelve for a year-round figure. */
    months: z.array(z.number().int().min(1).max(12)).min(1),
    kind: ReferenceKind,
    /** For `area` and `operator_table` only: the water the figure describes. */
    scope: ReferenceScope.optional(),
    source: Url,
    /** What the source says, in our words (and, for an area figure, what water it describes). */
    says: z.string().min(1),
  })
  .refine((r) => r.low_ft !== null || r.high_ft !== null, { message: "a reference needs low_ft, high_ft or both" })
  .refine((r) => r.high_ft === null || r.low_ft === null || r.high_ft >= r.low_ft, { message: "high_ft must be >= low_ft" })
  .refine((r) => (r.kind === "area" || r.kind === "operator_table") === (r.scope !== undefined), {
    message: "`scope` is given for area and operator_table references, and only for them",
  });
export type VisibilityReference = z.infer<typeof VisibilityReference>;

/**
 * Farthest a spot's tide station may be. Beyond it the station's tide is a different tide (another
 * basin, another amphidromic regime), so the spot gets no station rather than a wrong one.
 */
export const TIDE_STATION_MAX_KM = 100;

export const SpotRecord = z
  .object({
    id: z.string().regex(SPOT_ID_PATTERN),
    name: z.string().min(1),
    lat: z.number().min(-90).max(90),
    lon: z.number().min(-180).max(180),
    /** Where the coordinate comes from: a page that states it, and how it was checked. */
    coord: z.object({
      source: Url,
      note: z.string(),
      confidence: z.enum(["sourced", "cross-checked", "approximate"]),
    }),
    entry: z.array(z.enum(["shore", "boat"])).min(1),
    typical_depth_m: z.number().positive(),
    max_depth_m: z.number().positive(),
    /** Sea floor where the spot is dived: sand resuspends easily, reef and rock much less. */
    bottom: z.enum(["sand", "reef", "rock", "kelp", "mixed"]),
    /** Compass octants the swell must come FROM to reach the spot. */
    exposure: z.array(Octant).min(1),
    /**
     * Fraction (0.1–1) of the offshore swell height that reaches the spot from its exposed
     * directions, after refraction and the shelter of reefs, headlands and breakwaters. Judgement
     * from the spot's shape and orientation; 1 = fully open coast.
     */
    swell_exposure: z.number().min(0.1).max(1),
    /** Activities this spot does not suit, with a stable reason and a plain note. */
    unsuited: z.partialRecord(RankedActivity, z.object({ reason: UnsuitedReason, note: z.string().min(1) })),
    /**
     * Tide station id in @neaps/tide-database (e.g. "noaa/1612301"), or null when the database has
     * no station within TIDE_STATION_MAX_KM of the spot: its tide fields are then null, and the
     * spot's notes say why (npm run data:check enforces both).
     */
    tide_station: z.string().min(1).nullable(),
    /**
     * Typical horizontal visibility, feet, January..December: the spot's normal level, with the
     * month's normal swell, wind and rain already in it (not a calm-day figure). The forecast moves
     * it by how far a period's conditions depart from the month's normal (docs/model.md).
     */
    clarity_ft: Month12(z.number().positive()),
    /** Where the typical level comes from, in words, with the pages it rests on. */
    clarity_source: z.string().min(1),
    /**
     * The kind of source the level rests on: a reference kind above, or `judgement` when no
     * published typical figure fits the spot (the level is then an estimate and the spot is not
     * calibrated).
     */
    clarity_kind: z.enum([...REFERENCE_KINDS, "judgement"]),
    /** 0 (no runoff, e.g. lava coast) .. 1 (stream mouth, harbour): how much rain muddies the water. */
    runoff: z.number().min(0).max(1),
    /** Published typical visibility to check the model against; empty when none was found. */
    visibility_refs: z.array(VisibilityReference),
    /** Closures, reservations and permits, each with its source; empty when none apply. */
    access: z.array(AccessRule),
    notes: z.string(),
  })
  .strict()
  .refine((s) => s.max_depth_m >= s.typical_depth_m, { message: "max_depth_m must be >= typical_depth_m" });
export type SpotRecord = z.infer<typeof SpotRecord>;

export const RegionRecord = z
  .object({
    id: z.string().regex(/^[a-z]{2}-[a-z0-9]{1,3}-[a-z0-9-]+$/),
    name: z.string().min(1),
    country: z.string().regex(/^[A-Z]{2}$/),
    admin1: z.string().regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/),
    timezone: z.string().min(1),
    decision_support: z.enum(["full", "conditions_only"]),
    /**
     * How the inputs of the region's day-to-day response (each spot's exposure octants, swell
     * exposure, depths and runoff) were checked against a map or a source; null until they are. A
     * region is published `full` only once they are (src/catalog/levels.ts).
     */
    response_check: z.string().min(1).nullable(),
    notes: z.string(),
    spots: z.array(SpotRecord).min(1).max(20),
  })
  .strict();
export type RegionRecord = z.infer<typeof RegionRecord>;
