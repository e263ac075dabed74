/**
 * Search and linear interpolation in sorted arrays: the count of entries ≤ x (d3-array's `bisectRight`, the step of
 * an empirical cdf) and the piecewise-linear interpolant through tabulated points (grid, value).
 * Source: d3-array src/bisector.js (bisectRight).
 */

/**
 * Number of entries of the non-decreasing `xs` that are ≤ x: the insertion point after any equal entries.
 * @example countAtMost([1, 2, 2, 3], 2) // 3
 */
export function countAtMost(xs: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The interval [xs[i], xs[i + 1]] of a strictly increasing grid (length ≥ 2) that holds x: the last i ≤ xs.length − 2
 * with xs[i] ≤ x, or 0 when x < xs[0].
 */
export function bracketIndex(xs: ArrayLike<number>, x: number): number {
  return Math.max(0, Math.min(xs.length - 2, countAtMost(xs, x) - 1));
}

/**
 * The straight line through (xs[i], ys[i]) and (xs[i + 1], ys[i + 1]) at x (extrapolates outside the interval).
 * @param i an interval of the grid, e.g. from `bracketIndex`.
 */
export function interpolateAt(xs: ArrayLike<number>, ys: ArrayLike<number>, i: number, x: number): number {
  const u = (x - xs[i]) / (xs[i + 1] - xs[i]);
  return ys[i] + u * (ys[i + 1] - ys[i]);
}

/**
 * Piecewise-linear interpolation of the points (xs, ys) at x; constant beyond the ends (ys[0] below xs[0], the last
 * value past the last grid point).
 * @param xs strictly increasing grid, length ≥ 2. @param ys values at the grid points, same length.
 * @example interpolateLinear([0, 1, 2], [0, 10, 30], 1.5) // 20
 */
export function interpolateLinear(xs: ArrayLike<number>, ys: ArrayLike<number>, x: number): number {
  if (x <= xs[0]) return ys[0];
  const last = xs.length - 1;
  if (x >= xs[last]) return ys[last];
  return interpolateAt(xs, ys, bracketIndex(xs, x), x);
}
