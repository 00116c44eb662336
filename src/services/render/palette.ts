// Colours of the share image and pages besides the tier colours (those live in forecast/tiers.ts),
// and the rule that picks readable text on a tier colour.

export const PALETTE = {
  /** Deep-water background of the card and page header. */
  navy: "#0B1F33",
  /** Raised panels on the navy. */
  navyRaised: "#14314F",
  /** Secondary text on navy. */
  mist: "#A9C4DE",
  /** Body text on navy. */
  foam: "#E8F1F8",
  /** Notices (closed to spearfishing, not ranked): a dark red that carries white text. */
  notice: "#A3221B",
  /** Night shading and grid lines on the light chart. */
  night: "#DDE5EE",
  grid: "#C9D4E0",
  /** Visibility line and tide curve on the chart. */
  visibility: "#0B5CAD",
  tide: "#5B6B7F",
} as const;

/** The maps (front page, region pages): sea, land, coastline, and a spot's dot with its ring. */
export const MAP_COLORS = { sea: "#DCEBF5", land: "#BFCDB8", coast: "#8C9C85", spot: PALETTE.navy, ring: "#FFFFFF" } as const;

function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** WCAG contrast ratio of two #RRGGBB colours (1–21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Text colour for a background: navy or white, whichever contrasts more. Every tier colour is light
 * enough that navy wins (white on the yellow "good" tier would be unreadable).
 */
export function inkOn(background: string): string {
  return contrastRatio(background, PALETTE.navy) >= contrastRatio(background, "#FFFFFF") ? PALETTE.navy : "#FFFFFF";
}
