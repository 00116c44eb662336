// Satellite water clarity → horizontal underwater visibility (see the optics notes in the README).
//
//   Kd(PAR) = 0.0864 + 0.884·Kd490 − 0.00137/Kd490      Morel et al. 2007, RSE 111:69–88
//   Z_SD    = 1.7 / Kd(PAR)                             Poole & Atkins 1929
//   y       = HORIZONTAL_PER_SECCHI · Z_SD
//
// Physics puts the sighting range of a black target at ~0.6–0.9 × Secchi (Davies-Colley 1988);
// divers report 1.5–2 × Secchi in clear water. We take 1.0 × as the calibration midpoint and keep
// it here, in one place, until field reports let us fit it.

export const HORIZONTAL_PER_SECCHI = 1.0;
/** Pure water is ~0.0166 m⁻¹ at 490 nm; anything lower is a retrieval artefact. */
export const KD490_MIN = 0.0166;
export const KD490_MAX = 6;

export function kdParFromKd490(kd490: number): number {
  const k = Math.min(KD490_MAX, Math.max(KD490_MIN, kd490));
  return 0.0864 + 0.884 * k - 0.00137 / k;
}

export function secchiDepthM(kd490: number): number {
  return 1.7 / kdParFromKd490(kd490);
}

export function horizontalVisibilityM(kd490: number): number {
  return HORIZONTAL_PER_SECCHI * secchiDepthM(kd490);
}
