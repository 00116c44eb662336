// The WMO Beaufort scale, forces 0–12: each name and its lowest mean wind in whole knots, stated here
// as the reference the service's words are checked against rather than read from the module under test.
export const WMO_BEAUFORT: readonly (readonly [name: string, minKt: number])[] = [
  ["calm", 0],
  ["light air", 1],
  ["light breeze", 4],
  ["gentle breeze", 7],
  ["moderate breeze", 11],
  ["fresh breeze", 17],
  ["strong breeze", 22],
  ["near gale", 28],
  ["gale", 34],
  ["strong gale", 41],
  ["storm", 48],
  ["violent storm", 56],
  ["hurricane force", 64],
];

/** The WMO name of a wind speed as shown (whole knots). */
export const wmoName = (kt: number): string => WMO_BEAUFORT.filter(([, min]) => Math.round(kt) >= min).at(-1)![0];
