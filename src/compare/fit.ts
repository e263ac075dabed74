/**
 * Convergence-rate fits for n-sweeps (theory.md §8, "Sweep"): the log–log slope of |error| against n,
 * and a weighted fit of the error to c₁/n + c₂/n².
 */
import { linearRegression } from 'simple-statistics';
import { mathjs } from '../lazy.ts';

export interface SweepPoint {
  /** Number of servers. */
  readonly n: number;
  /** Signed error x̂_n − x_∞ (simulation minus mean field), in the unit of the measured quantity. */
  readonly error: number;
  /** 95% CI half-width of the simulation estimate, same unit. */
  readonly halfWidth: number;
}

export interface SlopeFit {
  /** Fitted exponent of |error| ≈ C·n^slope; about −1 is the mean-field rate. */
  readonly slope: number;
  /** log C (natural log). */
  readonly intercept: number;
  /** Standard error of the slope (NaN with only two points). */
  readonly standardError: number;
  /** The n whose errors were resolved (|error| > 3·halfWidth) and entered the fit. */
  readonly nUsed: number[];
}

/**
 * Least-squares slope of log|error| against log n, over the points whose error is resolved by the simulation,
 * |error| > `resolution`·halfWidth (default 3, theory.md §8).
 * @returns the fit, or `null` when fewer than two points are resolved.
 */
export function logLogSlope(points: readonly SweepPoint[], resolution = 3): SlopeFit | null {
  const used = points.filter((p) => Math.abs(p.error) > resolution * p.halfWidth && p.error !== 0);
  if (used.length < 2) return null;
  const xy = used.map((p) => [Math.log(p.n), Math.log(Math.abs(p.error))]);
  const { m, b } = linearRegression(xy);
  let standardError = Number.NaN;
  if (xy.length > 2) {
    const mx = xy.reduce((s, [x]) => s + x, 0) / xy.length;
    const sxx = xy.reduce((s, [x]) => s + (x - mx) ** 2, 0);
    const sse = xy.reduce((s, [x, y]) => s + (y - (m * x + b)) ** 2, 0);
    standardError = Math.sqrt(sse / (xy.length - 2) / sxx);
  }
  return { slope: m, intercept: b, standardError, nUsed: used.map((p) => p.n) };
}

export interface InverseNFit {
  /** Coefficient of 1/n. */
  readonly c1: number;
  /** Coefficient of 1/n². */
  readonly c2: number;
  /** Standard errors of c1 and c2 from the weighted normal equations (weights 1/σ², σ = halfWidth/1.96). */
  readonly c1StandardError: number;
  readonly c2StandardError: number;
}

/**
 * Weighted least-squares fit error_n = c₁/n + c₂/n² (theory.md §8). With the refined mean field, c₁ should be
 * consistent with ΣV (in the unit of the quantity).
 * @returns the fit, or `null` with fewer than three distinct n (no degree of freedom left) or a singular system.
 */
export function fitInverseN(points: readonly SweepPoint[]): InverseNFit | null {
  // two parameters need a third n to leave a degree of freedom; with two the fit passes through both points
  if (new Set(points.map((p) => p.n)).size < 3) return null;
  // Normal equations Xᵀ W X c = Xᵀ W y, X rows (1/n, 1/n²).
  let a11 = 0, a12 = 0, a22 = 0, r1 = 0, r2 = 0;
  for (const p of points) {
    const sigma = Math.max(p.halfWidth / 1.96, 1e-12);
    const w = 1 / (sigma * sigma);
    const x1 = 1 / p.n, x2 = 1 / (p.n * p.n);
    a11 += w * x1 * x1; a12 += w * x1 * x2; a22 += w * x2 * x2;
    r1 += w * x1 * p.error; r2 += w * x2 * p.error;
  }
  const det = a11 * a22 - a12 * a12;
  if (!(Math.abs(det) > 0)) return null;
  const c = mathjs().lusolve([[a11, a12], [a12, a22]], [r1, r2]) as number[][];
  return {
    c1: c[0][0],
    c2: c[1][0],
    c1StandardError: Math.sqrt(a22 / det),
    c2StandardError: Math.sqrt(a11 / det),
  };
}
