// A visitor's units on the pages: feet and °F, or metres and °C. Chosen by a link on the page
// (`?units=metric`), remembered in a cookie for a year, and otherwise taken from the region: feet
// where divers read feet (the United States and its territories), metres everywhere else. The API,
// the Markdown and the card image keep one order (feet first, metric beside it): they are read by
// programs or shared with people whose choice is unknown.
import type { Units } from "../model/format.js";
import { html, type Raw } from "./html.js";

export type { Units };

export const UNITS_COOKIE = "units";
/** A year: the choice is a preference, not a session. */
export const UNITS_COOKIE_MAX_AGE_S = 365 * 24 * 3600;

/** Where a dive shop quotes depth and visibility in feet: the United States and its territories. */
const FEET_COUNTRIES = new Set(["US", "GU", "VI", "PR", "AS", "MP"]);

export function defaultUnits(country: string): Units {
  return FEET_COUNTRIES.has(country) ? "us" : "metric";
}

const isUnits = (v: unknown): v is Units => v === "us" || v === "metric";

/** The units a link asked for (`?units=`), if it asked for one this service knows; anything else is ignored. */
export function unitsAsked(query: unknown): Units | null {
  return isUnits(query) ? query : null;
}

/** The units a visitor chose earlier, from the request's Cookie header. */
export function unitsRemembered(cookieHeader: string | undefined): Units | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, value] = part.split("=", 2).map((x) => x.trim());
    if (name === UNITS_COOKIE && isUnits(value)) return value;
  }
  return null;
}

/** The Set-Cookie value that remembers a choice. */
export function unitsCookie(units: Units): string {
  return `${UNITS_COOKIE}=${units}; Path=/; Max-Age=${UNITS_COOKIE_MAX_AGE_S}; SameSite=Lax`;
}

const LABEL: Record<Units, string> = { us: "ft, °F", metric: "m, °C" };

/** "Units: ft, °F · m, °C", the one in use marked, the other a link that switches (and is remembered). */
export function unitSwitch(current: Units, hrefFor: (u: Units) => string): Raw {
  const other: Units = current === "us" ? "metric" : "us";
  const order: Units[] = ["us", "metric"];
  return html`<span class="units">Units: ${order.map((u, i) => html`${i > 0 ? " · " : ""}${u === current ? html`<strong aria-current="true">${LABEL[u]}</strong>` : html`<a href="${hrefFor(other)}" rel="nofollow">${LABEL[u]}</a>`}`)}</span>`;
}
