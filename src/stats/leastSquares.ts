/**
 * Weighted least squares with known standard errors: minimises Σ_j ((y_j − x_jᵀθ)/σ_j)² over θ. The weights 1/σ_j²
 * are taken as known, so cov(θ̂) = (XᵀWX)⁻¹ (no rescaling by the residual variance). Small dense systems only
 * (a handful of parameters): the normal equations are solved by Gauss–Jordan elimination with partial pivoting.
 */
import { erfcinv, tQuantile as quantile } from '../lazy.ts';

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

/** A least-squares fit with fixed coefficients and, per coefficient, its Welch–Satterthwaite Student-t interval. */
export interface FixedCoefficientFit {
  /** θ̂ = A y, A = (XᵀX)⁻¹Xᵀ (unit weights: the coefficients a_ij do not depend on the noisy σ̂_j). */
  readonly coefficients: number[];
  /** s.e.(θ̂_i) = √Σ_j a_ij² σ̂_j², each point with its own estimated variance (sandwich), same unit as θ̂_i. */
  readonly standardErrors: number[];
  /** Welch–Satterthwaite ν_i = (Σ_j a_ij² σ̂_j²)² / Σ_j (a_ij² σ̂_j²)²/ν_j; +∞ where every σ̂_j is 0 or known. */
  readonly degreesOfFreedom: number[];
  /** t_{(1+c)/2, ν_i} · s.e.(θ̂_i): the half-width of θ̂_i's interval at the fit's confidence (0.95 unless stated). */
  readonly halfWidths: number[];
  /** Σ_j ((y_j − x_jᵀθ̂)/σ̂_j)²: the goodness of fit of the unweighted θ̂, read with the estimated σ̂_j. */
  readonly chiSquare: number;
  /** Rows minus columns: the χ²'s degrees of freedom. */
  readonly residualDegreesOfFreedom: number;
}

/**
 * Least squares with fixed (unit-weight) coefficients and a sandwich variance, for y_j whose standard errors σ̂_j are
 * themselves estimated from few replications. Weights 1/σ̂_j² from the same replications favour the points whose
 * variance came out small, and (XᵀŴX)⁻¹ then understates the spread of θ̂ (c₁ of an n-sweep at R = 4 runs per n:
 * about 72 % coverage of a nominal 95 % interval, scripts/fit-coverage.ts). Here θ̂ = A y with A = (XᵀX)⁻¹Xᵀ,
 * Var(θ̂_i) = Σ_j a_ij² σ̂_j², and the interval reads Student t with the Welch–Satterthwaite degrees of freedom of that
 * sum of independently estimated variances (Satterthwaite, Biometrics Bulletin 2:110, 1946; Welch, Biometrika 34:28,
 * 1947): ν_i = (Σ_j v_ij)² / Σ_j v_ij²/ν_j, v_ij = a_ij² σ̂_j², ν_j the degrees of freedom of σ̂_j² (R_j − 1).
 * @param design rows x_j (same length k ≥ 1). @param y observations. @param sigma estimated standard errors σ̂_j ≥ 0
 *   (same unit as y; σ̂_j > 0 where the χ² is wanted). @param sigmaDegreesOfFreedom ν_j > 0 of each σ̂_j² (+∞: known).
 * @param confidence two-sided level in (0, 1), default 0.95.
 * @returns the fit, or `null` when XᵀX is singular or not finite.
 * @example fixedCoefficientFit([[1], [1]], [1, 3], [1, 1], [3, 3]).halfWidths[0] // t_{0.975,6}·√0.5 ≈ 1.730
 */
export function fixedCoefficientFit(
  design: readonly (readonly number[])[],
  y: readonly number[],
  sigma: readonly number[],
  sigmaDegreesOfFreedom: readonly number[],
  confidence = 0.95,
): FixedCoefficientFit | null {
  const fit = weightedLeastSquares(
    design,
    y,
    design.map(() => 1),
  );
  if (!fit) return null;
  const k = fit.coefficients.length;
  const variance = new Array<number>(k).fill(0);
  const welch = new Array<number>(k).fill(0);
  let chiSquare = 0;
  design.forEach((x, j) => {
    for (let i = 0; i < k; i++) {
      const a = fit.covariance[i].reduce((s, v, b) => s + v * x[b], 0);
      const v = a * a * sigma[j] * sigma[j];
      variance[i] += v;
      welch[i] += (v * v) / sigmaDegreesOfFreedom[j];
    }
    const fitted = x.reduce((s, v, b) => s + v * fit.coefficients[b], 0);
    chiSquare += ((y[j] - fitted) / sigma[j]) ** 2;
  });
  const standardErrors = variance.map((v) => Math.sqrt(v));
  const degreesOfFreedom = variance.map((v, i) => (welch[i] > 0 ? (v * v) / welch[i] : Number.POSITIVE_INFINITY));
  const p = (1 + confidence) / 2;
  return {
    coefficients: fit.coefficients,
    standardErrors,
    degreesOfFreedom,
    halfWidths: standardErrors.map((se, i) => studentOrNormalQuantile(p, degreesOfFreedom[i]) * se),
    chiSquare,
    residualDegreesOfFreedom: fit.degreesOfFreedom,
  };
}

/** t_{p,ν}, and the normal quantile z_p = −√2·erfcinv(2p) for ν = +∞ (where @stdlib's t quantile answers NaN). */
export function studentOrNormalQuantile(p: number, nu: number): number {
  return nu === Number.POSITIVE_INFINITY ? -Math.SQRT2 * erfcinv(2 * p) : quantile(p, nu);
}
