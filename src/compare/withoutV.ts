/**
 * Judging agreement where no refined 1/n term V exists (theory.md §8 "Without V": LWL(d), phase-type JSQ, cavity
 * and size-based models): the fitted limit a of x̂_n = a + c₁/n (+ c₂/n²) is checked against the mean-field reference
 * with the combined CI; per n, |x̂_n − x_∞| is checked against the CIs plus the stated allowance |ĉ₁|/n.
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import type { Estimate } from '../stats/index.ts';
import type { LimitFit } from './limitFit.ts';

/** The n → ∞ reference value with its error bars. */
export interface ReferenceValue {
  /** x_∞ (time units for E[T]). */
  readonly value: number;
  /** 95% CI half-width of a simulated (cavity) reference; 0 for a deterministic solver. */
  readonly halfWidth: number;
  /** Numerical error bound of a deterministic solver (grid, quadrature, truncation); 0 when exact or unknown. */
  readonly numericalError: number;
}

export type LimitStatus = 'agrees' | 'disagrees' | 'not-judged';

export interface LimitCheck {
  readonly status: LimitStatus;
  /** â − x_∞. */
  readonly difference: number;
  /** 95% half-width of â. */
  readonly fitHalfWidth: number;
  /** √(h_â² + h_ref²) + numerical error: the combined 95% half-width. */
  readonly combinedHalfWidth: number;
  /** difference / (combined standard error), numerical error left out. */
  readonly zScore: number;
  readonly rule: string;
}

export const LIMIT_RULE = '|â − x_∞| ≤ √(h_â² + h_ref²) + ε_num (â from x̂_n = a + c₁/n (+ c₂/n²), weighted least squares)';

/**
 * Checks the fitted limit â against the reference (theory.md §8 "Without V": "check a against the reference with the
 * combined CI"). Independent errors: the statistical half-widths add in quadrature, the numerical bound linearly.
 * @returns status 'not-judged' when `fit` is null (fewer n than fit parameters).
 */
export function limitCheck(fit: LimitFit | null, reference: ReferenceValue): LimitCheck {
  if (!fit) {
    return { status: 'not-judged', difference: Number.NaN, fitHalfWidth: Number.NaN, combinedHalfWidth: Number.NaN, zScore: Number.NaN,
      rule: `${LIMIT_RULE}; not judged: fewer n than fit parameters` };
  }
  const difference = fit.a - reference.value;
  const statistical = Math.hypot(fit.aHalfWidth, reference.halfWidth);
  const combinedHalfWidth = statistical + reference.numericalError;
  const zScore = statistical > 0 ? difference / (statistical / 1.96) : Number.POSITIVE_INFINITY;
  return {
    status: Math.abs(difference) <= combinedHalfWidth ? 'agrees' : 'disagrees',
    difference, fitHalfWidth: fit.aHalfWidth, combinedHalfWidth, zScore, rule: LIMIT_RULE,
  };
}

export interface WithoutVVerdict {
  readonly status: LimitStatus;
  /** x̂_n − x_∞ (time units). */
  readonly difference: number;
  /** 95% CI half-width h_n of the simulated value. */
  readonly halfWidth: number;
  /** √(h_n² + h_ref²) + ε_num. */
  readonly combinedHalfWidth: number;
  /** Stated allowance for the finite-n bias: |ĉ₁|/n + |ĉ₂|/n² (ĉ₂ = 0 when not fitted; NaN when there is no c₁ fit). */
  readonly allowance: number;
  /** difference / standard error of x̂_n (the reference's error left out): a bias of order c₁/n shows here. */
  readonly zScore: number;
  readonly rule: string;
}

export const WITHOUT_V_RULE = '|x̂_n − x_∞| ≤ √(h_n² + h_ref²) + ε_num + |ĉ₁|/n + |ĉ₂|/n², ĉ₁ (ĉ₂ when fitted) from the sweep (no V: theory.md §8)';

/**
 * Per-n verdict without a refined term: the simulated x̂_n against the limit x_∞, allowing the CIs and the fitted
 * finite-n bias |ĉ₁|/n + |ĉ₂|/n². The allowance comes from the same sweep, so this checks consistency with a c₁/n
 * approach; the limit itself is judged by `limitCheck`.
 * @param c1 the fitted 1/n coefficient, or null: then the status is 'not-judged' ("no per-n verdict without V").
 * @param c2 the fitted 1/n² coefficient (default 0: not fitted).
 */
export function withoutVVerdict(simulated: Estimate, reference: ReferenceValue, c1: number | null, n: number, c2 = 0): WithoutVVerdict {
  const difference = simulated.mean - reference.value;
  const halfWidth = simulated.halfWidth;
  const combinedHalfWidth = Math.hypot(halfWidth, reference.halfWidth) + reference.numericalError;
  const se = simulated.replications >= 2 ? halfWidth / tQuantile(0.975, simulated.replications - 1) : Number.NaN;
  const zScore = se > 0 ? difference / se : Number.POSITIVE_INFINITY;
  if (c1 === null || !Number.isFinite(c1)) {
    return { status: 'not-judged', difference, halfWidth, combinedHalfWidth, allowance: Number.NaN, zScore,
      rule: 'no per-n verdict without V and without a c₁ fit (fewer n than fit parameters)' };
  }
  const allowance = Math.abs(c1) / n + Math.abs(c2) / (n * n);
  return {
    status: Math.abs(difference) <= combinedHalfWidth + allowance ? 'agrees' : 'disagrees',
    difference, halfWidth, combinedHalfWidth, allowance, zScore, rule: WITHOUT_V_RULE,
  };
}
