/**
 * Convergence-rate fits for n-sweeps (theory.md §8, "Sweep" and "Without V"): the log–log slope of |error| against n,
 * and the one fit of x̂_n to a + c₁/n + c₂/n² (intercept fitted, or held at the known limit) with calibrated intervals.
 */
import { linearRegression } from 'simple-statistics';
import { InvalidModelError } from '../errors.ts';
import {
  fixedCoefficientFit,
  standardErrorOfMean,
  studentOrNormalQuantile,
  weightedLeastSquares,
  type FixedCoefficientFit,
} from '../stats/index.ts';

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
  /**
   * 'fixed' (default): least squares with fixed (unit-weight) coefficients, s.e.² = Σ a_n² σ̂_n², Student t with the
   * Welch–Satterthwaite ν (`fixedCoefficientFit`): calibrated with σ̂_n estimated from few replications.
   * 'estimated': the rule before, weights 1/σ̂_n² from the same replications, s.e. from (XᵀŴX)⁻¹ and 1.96 (ν = ∞):
   * its intervals under-cover (c₁ at R = 4: about 72 % of a nominal 95 %, scripts/fit-coverage.ts); kept only so
   * calibration scripts and tests can measure it.
   */
  readonly weights?: 'fixed' | 'estimated';
}

export interface InverseNFit {
  /** The n → ∞ value: fitted intercept, or the given limit. */
  readonly a: number;
  /** Coefficient of 1/n (unit of the quantity × servers). */
  readonly c1: number;
  /** Coefficient of 1/n² (unit × servers²; 0 when not fitted). */
  readonly c2: number;
  /**
   * Standard errors of â, ĉ₁, ĉ₂: √Σ a_n² σ̂_n² (a_n the coefficient's row of (XᵀX)⁻¹Xᵀ) with fixed weights, or
   * √diag (XᵀŴX)⁻¹ with estimated ones; NaN for a held limit or an unfitted c₂.
   */
  readonly aStandardError: number;
  readonly c1StandardError: number;
  readonly c2StandardError: number;
  /** Welch–Satterthwaite ν of each (each σ̂_n² from R_n − 1 degrees of freedom); +∞ with estimated weights; NaN where not fitted. */
  readonly aDegreesOfFreedom: number;
  readonly c1DegreesOfFreedom: number;
  readonly c2DegreesOfFreedom: number;
  /**
   * The 95% half-widths t_{0.975,ν}·s.e. of â, ĉ₁, ĉ₂ (1.96·s.e. with estimated weights): what every printed
   * "ĉ ± h" uses; NaN for a held limit or an unfitted c₂.
   */
  readonly aHalfWidth: number;
  readonly c1HalfWidth: number;
  readonly c2HalfWidth: number;
  /**
   * Σ ((x̂_n − fit)/σ̂_n)², the goodness of fit read with the estimated σ̂_n (whatever the weights of the fit), and its
   * degrees of freedom (points − parameters).
   */
  readonly chiSquare: number;
  readonly degreesOfFreedom: number;
  /** Whether a was fitted (false: the given limit was held). */
  readonly limitFitted: boolean;
  /** Whether the c₂/n² term was fitted. */
  readonly inverseSquare: boolean;
  /** Which weights the fit used (`InverseNFitOptions.weights`). */
  readonly weights: 'fixed' | 'estimated';
  /** The n that entered the fit. */
  readonly nUsed: number[];
}

/**
 * The finite-n fit of an n-sweep (theory.md §8): x̂_n = a + c₁/n (+ c₂/n²) with a fitted, or x̂_n − x_∞ = c₁/n (+ c₂/n²)
 * with the limit held (`options.limit`). By default with fixed coefficients (`fixedCoefficientFit`): ĉ = Σ a_n y_n,
 * Var(ĉ) = Σ a_n² σ̂_n², σ̂_n = h_n / t_{0.975,R_n−1}, and each 95% half-width t_{0.975,ν}·s.e. with the
 * Welch–Satterthwaite ν = (Σ a_n² σ̂_n²)² / Σ (a_n² σ̂_n²)²/(R_n − 1) (Satterthwaite 1946, Welch 1947): 94–96 %
 * coverage of c₁ at R = 4 and 10 runs per n where weights 1/σ̂_n² and 1.96 gave 72 % at R = 4
 * (scripts/fit-coverage.ts). σ̂_n is floored at 1e−12 in the χ² (a zero-variance point cannot divide by 0).
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
  const weights = options.weights ?? 'fixed';
  const k = base + (withC2 ? 1 : 0);
  if (new Set(points.map((p) => p.n)).size < k) return null;
  if (points.some((p) => !Number.isFinite(p.value) || !Number.isFinite(p.halfWidth))) return null;
  const design = points.map((p) => [...(held === null ? [1] : []), 1 / p.n, ...(withC2 ? [1 / (p.n * p.n)] : [])]);
  const sigma = points.map((p) => {
    if (!(p.replications >= 2))
      throw new InvalidModelError(`fitInverseN needs points with ≥ 2 replications (a CI), got ${p.replications} at n = ${p.n}`);
    return Math.max(standardErrorOfMean(p), 1e-12);
  });
  const y = points.map((p) => p.value - (held ?? 0));
  const fit = weights === 'fixed' ? fixedFit(design, y, sigma, points) : estimatedFit(design, y, sigma);
  if (!fit) return null;
  const [ia, i1, i2] = held === null ? [0, 1, withC2 ? 2 : -1] : [-1, 0, withC2 ? 1 : -1];
  const of = (values: readonly number[], i: number) => (i >= 0 ? values[i] : Number.NaN);
  return {
    a: held ?? of(fit.coefficients, ia),
    c1: of(fit.coefficients, i1),
    c2: withC2 ? of(fit.coefficients, i2) : 0,
    aStandardError: of(fit.standardErrors, ia),
    c1StandardError: of(fit.standardErrors, i1),
    c2StandardError: of(fit.standardErrors, i2),
    aDegreesOfFreedom: of(fit.degreesOfFreedom, ia),
    c1DegreesOfFreedom: of(fit.degreesOfFreedom, i1),
    c2DegreesOfFreedom: of(fit.degreesOfFreedom, i2),
    aHalfWidth: of(fit.halfWidths, ia),
    c1HalfWidth: of(fit.halfWidths, i1),
    c2HalfWidth: of(fit.halfWidths, i2),
    chiSquare: fit.chiSquare,
    degreesOfFreedom: fit.residualDegreesOfFreedom,
    limitFitted: held === null,
    inverseSquare: withC2,
    weights,
    nUsed: points.map((p) => p.n),
  };
}

/** `fixedCoefficientFit` with each σ̂_n² on R_n − 1 degrees of freedom. */
function fixedFit(design: number[][], y: number[], sigma: number[], points: readonly FitPoint[]): FixedCoefficientFit | null {
  return fixedCoefficientFit(
    design,
    y,
    sigma,
    points.map((p) => p.replications - 1),
  );
}

/** The rule before (`InverseNFitOptions.weights` 'estimated'): weights 1/σ̂_n², (XᵀŴX)⁻¹ taken as known, 1.96. */
function estimatedFit(design: number[][], y: number[], sigma: number[]): FixedCoefficientFit | null {
  const fit = weightedLeastSquares(design, y, sigma);
  if (!fit) return null;
  const z = studentOrNormalQuantile(0.975, Number.POSITIVE_INFINITY);
  return {
    coefficients: fit.coefficients,
    standardErrors: fit.standardErrors,
    degreesOfFreedom: fit.coefficients.map(() => Number.POSITIVE_INFINITY),
    halfWidths: fit.standardErrors.map((se) => z * se),
    chiSquare: fit.chiSquare,
    residualDegreesOfFreedom: fit.degreesOfFreedom,
  };
}
