/**
 * The output boundary of every mean-field solver: a tail fraction, ccdf, probability or population density is
 * never negative (nor above 1 where it is a fraction), but an integrator's or Newton's round-off can leave
 * entries a hair outside: odex at tolerance 1e−10 gives s_7(0.5) = −8.8e−67 for SQ(2), λ = 0.9 from empty, and a
 * population transient reached −3.6e−26. Solvers project their samples onto the range once, here, just before
 * returning them. The move is far below the solver's own error (odex's local error is bounded by its tolerance,
 * ~1e−10; Newton's residual by ~1e−12), so the projection only removes signs that are noise; the largest move is
 * returned so a solver can report it (`diagnostics.clamped`).
 * Source: a projection onto the box [lower, upper] is the nearest point in every norm; it never increases the
 * distance to a true state lying in the box.
 */

/**
 * Projects `values` onto [lower, upper] in place (NaN is left as it is, for the caller's finiteness checks).
 * @param values the solver's output, modified in place. @param lower default 0. @param upper default 1 (tail
 *   fractions, ccdfs, probabilities); pass Infinity for densities that are only non-negative.
 * @returns the largest distance any entry moved, 0 if none (a number to report, not an error: compare it with
 *   the solver's tolerance).
 * @example const row = [1, 0.5, -8.8e-67]; clampToRange(row) // 8.8e-67, row = [1, 0.5, 0]
 */
export function clampToRange(values: number[] | Float64Array, lower = 0, upper = 1): number {
  let moved = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < lower) {
      moved = Math.max(moved, lower - v);
      values[i] = lower;
    } else if (v > upper) {
      moved = Math.max(moved, v - upper);
      values[i] = upper;
    }
  }
  return moved;
}

/**
 * Projects every row of a table onto [lower, upper] in place (`clampToRange` per row).
 * @returns the largest distance any entry moved.
 */
export function clampRowsToRange(rows: Array<number[] | Float64Array>, lower = 0, upper = 1): number {
  let moved = 0;
  for (const row of rows) moved = Math.max(moved, clampToRange(row, lower, upper));
  return moved;
}
