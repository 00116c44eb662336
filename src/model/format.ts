// Human formatting of conditions for cards and Markdown: the units a US diver expects first, metric
// in parentheses. One place, so the card, the Markdown and the share image say the same thing. The
// pages can put metric first instead (a visitor's units choice, src/pages/units.ts): the same
// figures, the other order.
import { windWord } from "./wind-words.js";
import { compass8 } from "../catalog/geo.js";
import { M_PER_FT } from "./visibility.js";

/** Which units a page shows first: feet and °F, or metres and °C (wind stays in knots either way). */
export type Units = "us" | "metric";

/**
 * "49 ft (typically 40–70 ft · 14.9 m)": the estimate, then its typical range when known (the
 * period's visibility_low_ft–visibility_high_ft), then metres. One wording for the card, the
 * Markdown, the pick's factors and the pages.
 */
export function formatVisibility(ft: number | null, m: number | null, lowFt: number | null = null, highFt: number | null = null, units: Units = "us"): string | null {
  if (ft === null) return null;
  if (units === "metric") {
    const toM = (x: number) => Math.round(x * M_PER_FT);
    const rangeM = lowFt === null || highFt === null ? "" : `typically ${toM(lowFt)}–${toM(highFt)} m · `;
    return `${m ?? toM(ft)} m (${rangeM}${ft} ft)`;
  }
  const range = lowFt === null || highFt === null ? "" : `typically ${lowFt}–${highFt} ft · `;
  return `${ft} ft (${range}${m ?? Math.round(ft * 0.3048)} m)`;
}

/** "1.8 ft NE @ 8 s (0.55 m)": the metres are the period's own (swell_height_m), never recomputed from rounded feet. */
export function formatSwell(ft: number | null, periodS: number | null, fromDeg: number | null, m: number | null, units: Units = "us"): string | null {
  if (ft === null) return null;
  const dir = compass8(fromDeg);
  const period = periodS === null ? "" : ` @ ${Math.round(periodS)} s`;
  if (units === "metric") return `${m ?? Math.round(ft * M_PER_FT * 100) / 100} m${dir ? ` ${dir}` : ""}${period} (${ft} ft)`;
  return `${ft} ft${dir ? ` ${dir}` : ""}${period} (${m ?? Math.round(ft * M_PER_FT * 100) / 100} m)`;
}

/** "moderate breeze, 13 kt ENE gusting 23 (24 km/h)": the Beaufort name of the speed shown first, then speed, direction and gust. */
export function formatWind(kt: number | null, fromDeg: number | null, gustKt: number | null): string | null {
  if (kt === null) return null;
  const dir = compass8(fromDeg);
  const gust = gustKt !== null && Math.round(gustKt) > Math.round(kt) ? ` gusting ${Math.round(gustKt)}` : "";
  return `${windWord(kt)}, ${Math.round(kt)} kt${dir ? ` ${dir}` : ""}${gust} (${Math.round(kt * 1.852)} km/h)`;
}

export function cToF(c: number): number {
  return Math.round((c * 9) / 5 + 32);
}

export function formatTemp(c: number | null, units: Units = "us"): string | null {
  if (c === null) return null;
  if (units === "metric") return `${c.toFixed(0)} °C (${cToF(c)} °F)`;
  return `${cToF(c)} °F (${c.toFixed(0)} °C)`;
}

/** Splits a formatted value such as "1.8 ft NE @ 8 s (0.5 m)" into the US value and its metric conversion. */
export function splitMetric(s: string): { value: string; sub: string | null } {
  const m = /^(.*) \(([^()]*)\)$/.exec(s);
  return m ? { value: m[1]!, sub: m[2]! } : { value: s, sub: null };
}

/** A length in feet, in the units asked: "12 ft" or "3.7 m" (`dp` decimals for metres). */
export function formatLength(ft: number, units: Units, dp = 1): string {
  return units === "metric" ? `${Math.round(ft * M_PER_FT * 10 ** dp) / 10 ** dp} m` : `${ft} ft`;
}

/** "85 ft (26 m)": a depth the catalogue gives in metres, feet first like every other length. */
export function formatDepth(m: number): string {
  return `${Math.round(m / M_PER_FT)} ft (${m} m)`;
}
