/**
 * Weighted least squares with known standard errors: minimises Σ_j ((y_j − x_jᵀθ)/σ_j)² over θ. The weights 1/σ_j²
 * are taken as known, so cov(θ̂) = (XᵀWX)⁻¹ (no rescaling by the residual variance). Small dense systems only
 * (a handful of parameters): the normal equations are solved by Gauss–Jordan elimination with partial pivoting.
 */
import { tQuantile as quantile } from '../lazy.ts';

export interface WeightedFit {
  /** θ̂, one entry per column of the design. */
  readonly coefficients: number[];
  /** (XᵀWX)⁻¹: the covariance of θ̂ with the weights taken as known. */
  readonly covariance: number[][];
  /** √diag(covariance). */
  readonly standardErrors: number[];
  /** Σ_j ((y_j − x_jᵀθ̂)/σ_j)²; χ²/dof ≫ 1 says the model does not fit. */
  readonly chiSquare: number;
  /** Rows minus columns. */
  readonly degreesOfFreedom: number;
}

/**
 * Weighted least-squares fit of y ≈ Xθ.
 * @param design rows x_j (all of the same length k ≥ 1). @param y observations, one per row. @param sigma standard
 *   errors σ_j > 0, one per row (same unit as y).
 * @returns the fit, or `null` when XᵀWX is singular (e.g. fewer distinct rows than parameters) or not finite.
 */
export function weightedLeastSquares(
  design: readonly (readonly number[])[],
  y: readonly number[],
  sigma: readonly number[],
): WeightedFit | null {
  const k = design[0]?.length ?? 0;
  if (k === 0) return null;
  const normal = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const rhs = new Array<number>(k).fill(0);
  design.forEach((x, j) => {
    const w = 1 / (sigma[j] * sigma[j]);
    for (let a = 0; a < k; a++) {
      rhs[a] += w * x[a] * y[j];
      for (let b = 0; b < k; b++) normal[a][b] += w * x[a] * x[b];
    }
  });
  const covariance = invert(normal);
  if (!covariance) return null;
  const coefficients = covariance.map((row) => row.reduce((s, v, b) => s + v * rhs[b], 0));
  let chiSquare = 0;
  design.forEach((x, j) => {
    const fitted = x.reduce((s, v, a) => s + v * coefficients[a], 0);
    chiSquare += ((y[j] - fitted) / sigma[j]) ** 2;
  });
  return {
    coefficients,
    covariance,
    standardErrors: covariance.map((row, a) => Math.sqrt(Math.max(row[a], 0))),
    chiSquare,
    degreesOfFreedom: design.length - k,
  };
}

/** Inverse of a small square matrix by Gauss–Jordan with partial pivoting; null when singular or not finite. */
function invert(matrix: readonly (readonly number[])[]): number[][] | null {
  const k = matrix.length;
  const a = matrix.map((row, i) => [...row, ...Array.from({ length: k }, (_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < k; col++) {
    let pivot = col;
    for (let r = col + 1; r < k; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    if (!(Math.abs(a[pivot][col]) > 0)) return null;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    const p = a[col][col];
    for (let c = 0; c < 2 * k; c++) a[col][c] /= p;
    for (let r = 0; r < k; r++) {
      if (r === col) continue;
      const f = a[r][col];
      for (let c = 0; c < 2 * k; c++) a[r][c] -= f * a[col][c];
    }
  }
  const inverse = a.map((row) => row.slice(k));
  return inverse.every((row) => row.every(Number.isFinite)) ? inverse : null;
}

/**
 * Standard error of the mean behind a Student-t 95% interval: σ = h / t_{0.975, R−1}, the interval's own law
 * (theory.md §8). @param estimate half-width h and replications R. @returns NaN when R < 2 (no t law).
 */
export function standardErrorOfMean(estimate: { readonly halfWidth: number; readonly replications: number }): number {
  return estimate.replications >= 2 ? estimate.halfWidth / quantile(0.975, estimate.replications - 1) : Number.NaN;
}
