// Piecewise-linear curves: every empirical table of the model is written as one, so the numbers
// are visible in one place and monotonicity is easy to read and test.

export type Curve = readonly (readonly [x: number, y: number])[];

/** y at x by linear interpolation; clamped to the first/last point outside the table. */
export function at(curve: Curve, x: number): number {
  const first = curve[0]!;
  const last = curve[curve.length - 1]!;
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < curve.length; i++) {
    const [x1, y1] = curve[i]!;
    if (x <= x1) {
      const [x0, y0] = curve[i - 1]!;
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
    }
  }
  return last[1];
}
