/**
 * Convergence-rate fits for n-sweeps (theory.md §8, "Sweep" and "Without V"): the log–log slope of |error| against n,
 * and the one weighted fit of x̂_n to a + c₁/n + c₂/n² (intercept fitted, or held at the known limit).
 */
import { linearRegression } from 'simple-statistics';
import { InvalidModelError } from '../errors.ts';
import { standardErrorOfMean, weightedLeastSquares } from '../stats/index.ts';

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
  // an error of an infinite mean (∞ − x, or NaN) is no error to fit (model/moments.ts)
  const used = points.filter((p) => Number.isFinite(p.error) && Math.abs(p.error) > resolution * p.halfWidth && p.error !== 0);
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

/** One simulated value of an n-sweep, with the CI it came with. */
export interface FitPoint {
  /** Number of servers. */
  readonly n: number;
  /** Simulated value x̂_n (unit of the measured quantity). */
  readonly value: number;
  /** 95% CI half-width h_n (same unit), Student t over `replications` ≥ 2 replications: σ_n = h_n / t_{0.975,R−1}. */
  readonly halfWidth: number;
  readonly replications: number;
}

export interface InverseNFitOptions {
  /**
   * The n → ∞ value x_∞ when it is taken as known: then x̂_n − x_∞ = c₁/n + c₂/n² is fitted and a = x_∞. Default
   * 'fit': the intercept a is fitted too (x̂_n = a + c₁/n (+ c₂/n²), theory.md §8 "Without V").
   */
  readonly limit?: number | 'fit';
  /** Fit c₂ too: true, false, or 'auto' (default) = when at least one degree of freedom remains with it. */
  readonly inverseSquare?: boolean | 'auto';
}

export interface InverseNFit {
  /** The n → ∞ value: fitted intercept, or the given limit. */
  readonly a: number;
  /** Coefficient of 1/n. */
  readonly c1: number;
  /** Coefficient of 1/n² (0 when not fitted). */
  readonly c2: number;
  /** Standard errors from (XᵀWX)⁻¹ with the known weights 1/σ_n² (NaN for a held limit or an unfitted c₂). */
  readonly aStandardError: number;
  readonly c1StandardError: number;
  readonly c2StandardError: number;
  /** 1.96 × aStandardError: the 95% half-width of a (normal, the weights being treated as known); NaN for a held limit. */
  readonly aHalfWidth: number;
  /** Σ w_n (x̂_n − fit)², and its degrees of freedom (points − parameters). */
  readonly chiSquare: number;
  readonly degreesOfFreedom: number;
  /** Whether a was fitted (false: the given limit was held). */
  readonly limitFitted: boolean;
  /** Whether the c₂/n² term was fitted. */
  readonly inverseSquare: boolean;
  /** The n that entered the fit. */
  readonly nUsed: number[];
}

/**
 * The finite-n fit of an n-sweep (theory.md §8), by weighted least squares (`weightedLeastSquares`) with
 * σ_n = h_n / t_{0.975,R−1} floored at 1e−12 (a zero-variance point cannot divide by 0):
 * x̂_n = a + c₁/n (+ c₂/n²) with a fitted, or x̂_n − x_∞ = c₁/n (+ c₂/n²) with the limit held (`options.limit`).
 * With the refined mean field, c₁ of the held-limit fit should be near ΣV/λ; without V it is the measured 1/n coefficient.
 * @returns the fit, or `null` with fewer distinct n than parameters (the normal equations are singular), or when a
 *   value or half-width is not finite (a mean infinite in theory, model/moments.ts: there is no curve through ∞).
 * @throws {InvalidModelError} when a point has fewer than 2 replications (no t law for its σ).
 */
export function fitInverseN(points: readonly FitPoint[], options: InverseNFitOptions = {}): InverseNFit | null {
  const held = typeof options.limit === 'number' ? options.limit : null;
  const base = held === null ? 2 : 1;
  const auto = options.inverseSquare ?? 'auto';
  const withC2 = auto === 'auto' ? points.length >= base + 2 : auto;
  const k = base + (withC2 ? 1 : 0);
  if (new Set(points.map((p) => p.n)).size < k) return null;
  if (points.some((p) => !Number.isFinite(p.value) || !Number.isFinite(p.halfWidth))) return null;
  const design = points.map((p) => [...(held === null ? [1] : []), 1 / p.n, ...(withC2 ? [1 / (p.n * p.n)] : [])]);
  const sigma = points.map((p) => {
    if (!(p.replications >= 2))
      throw new InvalidModelError(`fitInverseN needs points with ≥ 2 replications (a CI), got ${p.replications} at n = ${p.n}`);
    return Math.max(standardErrorOfMean(p), 1e-12);
  });
  const fit = weightedLeastSquares(
    design,
    points.map((p) => p.value - (held ?? 0)),
    sigma,
  );
  if (!fit) return null;
  const at = (i: number) => (i >= 0 ? fit.coefficients[i] : Number.NaN);
  const se = (i: number) => (i >= 0 ? fit.standardErrors[i] : Number.NaN);
  const [ia, i1, i2] = held === null ? [0, 1, withC2 ? 2 : -1] : [-1, 0, withC2 ? 1 : -1];
  return {
    a: held ?? at(ia),
    c1: at(i1),
    c2: withC2 ? at(i2) : 0,
    aStandardError: se(ia),
    c1StandardError: se(i1),
    c2StandardError: se(i2),
    aHalfWidth: 1.96 * se(ia),
    chiSquare: fit.chiSquare,
    degreesOfFreedom: fit.degreesOfFreedom,
    limitFitted: held === null,
    inverseSquare: withC2,
    nUsed: points.map((p) => p.n),
  };
}
