// The share image's fonts: Inter from @fontsource (satori reads .woff, not .woff2), Latin and
// Latin Extended subsets so Hawaiian names (ū, ā, ʻokina) render. Read once at start-up.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Font } from "satori";

const require = createRequire(import.meta.url);

export const CARD_FONT_FAMILY = "Inter";
const WEIGHTS = [400, 700, 800] as const;
const SUBSETS = ["latin", "latin-ext"] as const;

export function loadCardFonts(): Font[] {
  const fonts: Font[] = [];
  for (const weight of WEIGHTS) {
    for (const subset of SUBSETS) {
      const file = require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`);
      fonts.push({ name: CARD_FONT_FAMILY, data: readFileSync(file), weight, style: "normal" });
    }
  }
  return fonts;
}
