/**
 * Judging agreement between finite-n simulations and the mean field (theory.md §8 "Judging agreement" and
 * "Without V"). Per cell, one rule: the simulated x̂_n against the expected finite-n value, allowing the CIs and a
 * stated O(·) allowance. With the refined 1/n term V (JSQ(d), FIFO, exponential: theory.md §6) the expected value is
 * π + V/n and the allowance its unmodelled 1/n² term; without V it is the limit x_∞ and the allowance the fitted
 * finite-n bias |ĉ₁|/n + |ĉ₂|/n². Per model, the fitted limit â is checked against x_∞ (`limitCheck`).
 */
import { standardErrorOfMean, type Estimate } from '../stats/index.ts';
import type { InverseNFit } from './fit.ts';

/** The n → ∞ reference value with its error bars. */
export interface ReferenceValue {
  /** x_∞ (time units for E[T]). */
  readonly value: number;
  /** 95% CI half-width of a simulated (cavity) reference; 0 for a deterministic solver. */
  readonly halfWidth: number;
  /** Numerical error bound of a deterministic solver (grid, quadrature, truncation); 0 when exact or unknown. */
  readonly numericalError: number;
}

/**
 * What a cell's expected value adds to the limit at finite n: the refined mean field where V exists, else the 1/n
 * coefficients fitted over the sweep (c1 null when the sweep has fewer n than fit parameters).
 */
export type FiniteNTerm =
  | {
    readonly kind: 'refined';
    /** Refined E[T] at this n: E[T_∞] + ΣV/(λn) (time units). */
    readonly meanResponseTime: number;
    /** ΣV, Σπ = E[Q_∞] and λ of the model. */
    readonly sumV: number;
    readonly sumPi: number;
    readonly lambda: number;
    /** δ_n = 2 × the 1/n² term of E[T] when it was computed (theory.md §8; `secondOrderAllowance`), else absent. */
    readonly secondOrderAllowance?: number;
  }
  | { readonly kind: 'fitted'; readonly c1: number | null; readonly c2: number };

export type VerdictStatus = 'agrees' | 'disagrees' | 'refined-out-of-range' | 'not-judged';

export interface CellVerdict {
  readonly status: VerdictStatus;
  /** x̂_n − expected value (π + V/n with V, else x_∞), time units. */
  readonly difference: number;
  /** 95% CI half-width h_n of the simulated value. */
  readonly halfWidth: number;
  /** √(h_n² + h_ref²) + ε_num (= h_n against an exact reference). */
  readonly combinedHalfWidth: number;
  /**
   * Stated allowance (time units): with V, δ_n = |ΣV/n|·|ΣV|/(nΣπ)/λ (theory.md §8 [H]); without V, |ĉ₁|/n + |ĉ₂|/n²
   * (NaN when there is no ĉ₁).
   */
  readonly allowance: number;
  /** difference / (h_n/t_{0.975,R−1}) (the reference's error left out): to read with a multiple-testing eye. */
  readonly zScore: number;
  /** ΣV/(nΣπ): the relative size of the 1/n correction (null without V). */
  readonly relativeCorrection: number | null;
  readonly rule: string;
}

export const REFINED_RULE = '|sim − refined| ≤ h_n + δ_n, δ_n = |ΣV/n|·|ΣV|/(nΣπ)/λ';
export const REFINED_SECOND_ORDER_RULE = '|sim − refined| ≤ h_n + δ_n, δ_n = 2|ΣA|/(n²λ) (twice the computed 1/n² term)';
export const WITHOUT_V_RULE = '|x̂_n − x_∞| ≤ √(h_n² + h_ref²) + ε_num + |ĉ₁|/n + |ĉ₂|/n², ĉ₁ (ĉ₂ when fitted) from the sweep (no V: theory.md §8)';

/**
 * Verdict for one (λ, d, n) cell: `agrees` when |x̂_n − expected| ≤ √(h_n² + h_ref²) + ε_num + allowance.
 * With V: `refined-out-of-range` when ΣV/(nΣπ) exceeds `maxRelativeCorrection` (default 5%, the cautious end of
 * theory.md §6's "5–10%"), where the expansion is not trusted. Without V: `not-judged` when `term.c1` is null; the
 * allowance comes from the same sweep, so this checks consistency with a c₁/n approach (the limit is judged by `limitCheck`).
 * @param simulated simulated mean response time with its Student-t CI. @param limit x_∞ with its error bars.
 * @param term the finite-n term (see `FiniteNTerm`). @param n servers.
 */
export function cellVerdict(simulated: Estimate, limit: ReferenceValue, term: FiniteNTerm, n: number, maxRelativeCorrection = 0.05): CellVerdict {
  const expected = term.kind === 'refined' ? term.meanResponseTime : limit.value;
  const difference = simulated.mean - expected;
  const halfWidth = simulated.halfWidth;
  const combinedHalfWidth = Math.hypot(halfWidth, limit.halfWidth) + limit.numericalError;
  const se = standardErrorOfMean(simulated);
  const zScore = se > 0 ? difference / se : Number.POSITIVE_INFINITY;
  const judge = (allowance: number) => (Math.abs(difference) <= combinedHalfWidth + allowance ? 'agrees' : 'disagrees');
  if (term.kind === 'refined') {
    const { sumV, sumPi, lambda } = term;
    const allowance = term.secondOrderAllowance ?? (Math.abs(sumV / n) * Math.abs(sumV)) / (n * sumPi) / lambda;
    const relativeCorrection = Math.abs(sumV) / (n * sumPi);
    const status = relativeCorrection > maxRelativeCorrection ? 'refined-out-of-range' : judge(allowance);
    return { status, difference, halfWidth, combinedHalfWidth, allowance, zScore, relativeCorrection,
      rule: `${term.secondOrderAllowance === undefined ? REFINED_RULE : REFINED_SECOND_ORDER_RULE}; skipped when ΣV/(nΣπ) > ${maxRelativeCorrection}` };
  }
  if (term.c1 === null || !Number.isFinite(term.c1)) {
    return { status: 'not-judged', difference, halfWidth, combinedHalfWidth, allowance: Number.NaN, zScore, relativeCorrection: null,
      rule: 'no per-n verdict without V and without a c₁ fit (fewer n than fit parameters)' };
  }
  const allowance = Math.abs(term.c1) / n + Math.abs(term.c2) / (n * n);
  return { status: judge(allowance), difference, halfWidth, combinedHalfWidth, allowance, zScore, relativeCorrection: null, rule: WITHOUT_V_RULE };
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
 * @param fit a fit with the limit fitted (`fitInverseN(points)`), or null.
 * @returns status 'not-judged' when `fit` is null (fewer n than fit parameters).
 */
export function limitCheck(fit: InverseNFit | null, reference: ReferenceValue): LimitCheck {
  if (!fit || !fit.limitFitted) {
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
