/**
 * The "Without V" fit of theory.md §8: x̂_n = a + c₁/n (+ c₂/n²) by weighted least squares over an n-sweep, where
 * no refined 1/n term is known (LWL(d), cavity and size-based models). The intercept a estimates the n → ∞ limit
 * from the simulations alone, to be checked against the mean-field reference; c₁ is the measured 1/n coefficient
 * (theory.md §9 question 6).
 */
import { mathjs } from '../lazy.ts';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import type { Estimate } from '../stats/index.ts';

export interface LimitPoint {
  /** Number of servers. */
  readonly n: number;
  /** The simulated estimate x̂_n with its Student-t 95% CI over replications. */
  readonly estimate: Estimate;
}

export interface LimitFit {
  /** Intercept: the fitted n → ∞ value (unit of x). */
  readonly a: number;
  /** Coefficient of 1/n. */
  readonly c1: number;
  /** Coefficient of 1/n² (0 when not fitted). */
  readonly c2: number;
  /** Standard errors from (XᵀWX)⁻¹ with the known weights 1/σ_n², σ_n = h_n/t_{0.975,R−1} (NaN c2 when not fitted). */
  readonly aStandardError: number;
  readonly c1StandardError: number;
  readonly c2StandardError: number;
  /** 1.96 × aStandardError: the 95% half-width of a (normal, the weights being treated as known). */
  readonly aHalfWidth: number;
  /** Σ w_n (x̂_n − fit)², and its degrees of freedom (points − parameters); χ²/dof ≫ 1 says the form does not fit. */
  readonly chiSquare: number;
  readonly degreesOfFreedom: number;
  /** Whether the c₂/n² term was fitted. */
  readonly inverseSquare: boolean;
  /** The n that entered the fit. */
  readonly nUsed: number[];
}

/** Standard error of the mean behind an estimate: h/t_{0.975,R−1}, floored at 1e−12 so a zero-variance point cannot divide by 0. */
export function standardError(e: Estimate): number {
  const t = e.replications >= 2 ? tQuantile(0.975, e.replications - 1) : 1.96;
  return Math.max(e.halfWidth / t, 1e-12);
}

/**
 * Weighted least-squares fit x̂_n = a + c₁/n (+ c₂/n²), theory.md §8 "Without V".
 * @param points one simulated estimate per n (distinct n ≥ 1).
 * @param inverseSquare fit c₂ too: `true`, `false`, or 'auto' (default) = when there are at least 4 points.
 * @returns the fit, or `null` when there are fewer distinct n than parameters or the normal equations are singular.
 */
export function fitLimit(points: readonly LimitPoint[], inverseSquare: boolean | 'auto' = 'auto'): LimitFit | null {
  const withC2 = inverseSquare === 'auto' ? points.length >= 4 : inverseSquare;
  const k = withC2 ? 3 : 2;
  if (new Set(points.map((p) => p.n)).size < k) return null; // too few distinct n: the normal equations are singular
  const row = (n: number) => (withC2 ? [1, 1 / n, 1 / (n * n)] : [1, 1 / n]);
  const XtWX = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const XtWy = new Array<number>(k).fill(0);
  for (const p of points) {
    const s = standardError(p.estimate);
    const w = 1 / (s * s);
    const x = row(p.n);
    for (let i = 0; i < k; i++) {
      XtWy[i] += w * x[i] * p.estimate.mean;
      for (let j = 0; j < k; j++) XtWX[i][j] += w * x[i] * x[j];
    }
  }
  let cov: number[][];
  try {
    cov = mathjs().inv(XtWX) as number[][];
  } catch {
    return null; // singular: repeated n
  }
  if (!cov.every((r) => r.every(Number.isFinite))) return null;
  const theta = cov.map((r) => r.reduce((s, v, j) => s + v * XtWy[j], 0));
  let chiSquare = 0;
  for (const p of points) {
    const x = row(p.n);
    const fitted = x.reduce((s, v, j) => s + v * theta[j], 0);
    chiSquare += ((p.estimate.mean - fitted) / standardError(p.estimate)) ** 2;
  }
  const se = (i: number) => Math.sqrt(Math.max(cov[i][i], 0));
  return {
    a: theta[0], c1: theta[1], c2: withC2 ? theta[2] : 0,
    aStandardError: se(0), c1StandardError: se(1), c2StandardError: withC2 ? se(2) : Number.NaN,
    aHalfWidth: 1.96 * se(0), chiSquare, degreesOfFreedom: points.length - k, inverseSquare: withC2,
    nUsed: points.map((p) => p.n),
  };
}
