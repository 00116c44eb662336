// Limits from the spec (section 8) and the forecast shape. Imported everywhere they apply,
// including tests and the OpenAPI document; never restated as literals elsewhere. The HTTP server's
// own limits are in src/web/http-limits.ts, the share card's size in src/services/render/card-size.ts,
// and what the upstreams allow in src/base/upstream-limits.ts.

/** Days per request (conditions, best-day) and the forecast horizon: today through today + 6. */
export const MAX_RANGE_DAYS = 7;
export const HORIZON_DAYS = 7;
/** Forecast periods are 3-hour blocks aligned to spot-local midnight. */
export const PERIOD_HOURS = 3;
/** lat/lon snaps to the nearest covered spot within this distance (conditions). */
export const SNAP_DISTANCE_KM = 30;
/** Spot id pattern. */
export const SPOT_ID_PATTERN = /^[a-z0-9-]{1,64}$/;
/** Decisions. */
export const MAX_SPOTS_CONSIDERED = 20;
export const MAX_PICKS = 5;
export const DEFAULT_LIMIT = 3;
export const DEFAULT_RADIUS_KM = 40;
export const MAX_RADIUS_KM = 100;
/** Daylight periods are the ones starting between these spot-local hours (inclusive). */
export const DAYLIGHT_FIRST_START_HOUR = 6;
export const DAYLIGHT_LAST_START_HOUR = 17;
/** Data refresh cadence. */
export const REFRESH_MS = 3_600_000;
