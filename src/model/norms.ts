// How a score that rests on seasonal norms is labelled wherever it is shown (why, card, Markdown,
// share image and pages, MCP view): the label sits beside the score, and the date reads as typical
// for the time of year, never as a forecast for that day. One place for the wording.

/** Shown beside the tier and score: "Excellent · seasonal norm 84". */
export const SEASONAL_NORM_LABEL = "seasonal norm";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "early November", "mid-November", "late November" for a YYYY-MM-DD date. */
export function seasonOf(date: string): string {
  const month = MONTHS[Number(date.slice(5, 7)) - 1]!;
  const day = Number(date.slice(8, 10));
  return day <= 10 ? `early ${month}` : day <= 20 ? `mid-${month}` : `late ${month}`;
}

/** "Typical for late November": the date claim of a seasonal-norm score. */
export function typicalFor(date: string): string {
  return `Typical for ${seasonOf(date)}`;
}

/** The tier label with the seasonal-norm label beside it when the score rests on norms. */
export function tierLabelFor(tierLabel: string, seasonal: boolean): string {
  return seasonal ? `${tierLabel} · ${SEASONAL_NORM_LABEL}` : tierLabel;
}

/** True for a card tier label made by tierLabelFor(…, true). */
export function isSeasonalTierLabel(tierLabel: string): boolean {
  return tierLabel.endsWith(` · ${SEASONAL_NORM_LABEL}`);
}
