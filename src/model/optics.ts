// Satellite water clarity → horizontal underwater visibility (docs/model.md, docs/live-data.md).
//
//   Kd(PAR) = 0.0864 + 0.884·Kd490 − 0.00137/Kd490      Morel et al. 2007, RSE 111:69–88
//   Z_SD    = 1.7 / Kd(PAR)                             Secchi depth, Poole & Atkins 1929
//   c       = BEAM_PER_KD · Kd(PAR)                     beam attenuation; c/Kd ≈ 2–4 in sea water
//   y       = 4.8 / c                                   black-target sighting range, Davies-Colley
//                                                       1988 (L&O 33:616); Hou, Lee & Weidemann 2007
//                                                       (Opt. Express 15:2791)
//   visibility = min(y, HORIZONTAL_VISIBILITY_MAX_M)
//
// With c/Kd = 3 the sighting range is about 0.94 × Secchi: the horizontal path sees the beam
// attenuation, not the diffuse one, so it is shorter than the vertical Secchi reading. Near the
// pure-water floor the inversion explodes (Kd490 0.0166 → 86 m), where the retrieval is mostly
// noise: the cap holds it to what divers report in the clearest tropical water.

/** Sighting-range constant for a black target, per metre of beam attenuation (Davies-Colley 1988). */
export const SIGHTING_CONSTANT = 4.8;
/** Beam attenuation per unit diffuse attenuation, mid-range of the 2–4 found in ocean water. */
export const BEAM_PER_KD = 3;
/** The clearest ocean water divers report (~130 ft); no satellite retrieval may claim more. */
export const HORIZONTAL_VISIBILITY_MAX_M = 40;
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

/** Horizontal sighting range (m) for a Kd490, capped. */
export function horizontalVisibilityM(kd490: number): number {
  return Math.min(HORIZONTAL_VISIBILITY_MAX_M, SIGHTING_CONSTANT / (BEAM_PER_KD * kdParFromKd490(kd490)));
}
