/**
 * The 1/n² term in a comparison (SQ(d), FIFO, exponential, sampling with replacement: `refineSecondOrder`): the
 * second-order refined value π + V/n + A/n² per cell, the O(1/n²) allowance δ_n = 2·|ΣA|/(n²λ) of the verdict
 * (theory.md §8: "δ_n = 2 × the 1/n² term if it was computed"), and the check of the computed c₂ = ΣA/λ of E[T]
 * against the ĉ₂ fitted from the sweep (x̂_n − x_∞ = c₁/n + c₂/n²).
 * Source: Gast, Bortolussi and Tribastone, Perf. Eval. 2019; theory.md §6, §8.
 */
import { InvalidModelError, SolverError } from '../errors.ts';
import type { SupermarketModel } from '../model/index.ts';
import { refineSecondOrder, secondOrderEstimate, type FixedPointResult, type SecondOrderCorrection } from '../meanfield/index.ts';
import type { InverseNFit } from './fit.ts';

/**
 * The second-order correction of a model, or null with the reason (sampling without replacement, an ill-conditioned
 * solve). @param model JSQ(d) FIFO exponential of mean 1 (the caller asks `meanFieldCapabilities`).
 * @param fixedPoint the model's fixed point, when already solved. Other errors pass through.
 */
export function secondOrderTerm(
  model: SupermarketModel,
  fixedPoint?: FixedPointResult,
): { correction: SecondOrderCorrection | null; note: string | null } {
  try {
    return { correction: refineSecondOrder(model, fixedPoint ? { fixedPoint } : {}), note: null };
  } catch (e) {
    if (!(e instanceof InvalidModelError || e instanceof SolverError)) throw e;
    return { correction: null, note: `no 1/n² term for d = ${model.d}, λ = ${model.lambda}: ${e.message}` };
  }
}

/** Second-order refined values at n (`secondOrderEstimate`): E[T]_n ≈ (Σπ + ΣV/n + ΣA/n²)/λ, E[Q]_n per server. */
export interface SecondOrderValue {
  readonly meanResponseTime: number;
  readonly meanQueueLength: number;
}

export function secondOrderValue(correction: SecondOrderCorrection, n: number): SecondOrderValue {
  const e = secondOrderEstimate(correction, n);
  return { meanResponseTime: e.meanResponseTime, meanQueueLength: e.meanQueueLength };
}

/** δ_n = 2·|ΣA|/(n²λ): twice the 1/n² term of E[T] (time units), theory.md §8. */
export function secondOrderAllowance(correction: SecondOrderCorrection, n: number, lambda: number): number {
  return (2 * Math.abs(correction.sumA)) / (n * n * lambda);
}

export type C2Status = 'agrees' | 'disagrees' | 'not-judged';

/** The computed c₂ of E[T] beside the fitted ĉ₂. */
export interface C2Check {
  /** ΣA/λ: the 1/n² coefficient of E[T]_n (time units). */
  readonly c2: number;
  /** ΣA (jobs per server): the 1/n² coefficient of E[Q]_n. */
  readonly sumA: number;
  /** ĉ₂ of the fit and its 95% half-width 1.96 × s.e. (NaN when not fitted). */
  readonly fitted: number;
  readonly fittedHalfWidth: number;
  readonly status: C2Status;
  readonly rule: string;
}

export const C2_RULE = '|ΣA/λ − ĉ₂| ≤ 1.96 s.e.(ĉ₂), ĉ₂ from x̂_n − x_∞ = c₁/n + c₂/n² (weighted least squares, limit held)';

/**
 * Judges the computed c₂ = ΣA/λ against the fitted ĉ₂: `agrees` when c₂ lies in ĉ₂'s 95% interval; `not-judged` when
 * the fit is missing, has no c₂/n² term or no finite standard error.
 * @param sumA ΣA of E[Q]_n. @param lambda λ per server. @param fit the sweep's fit with the limit held (`fitThroughReference`).
 */
export function judgeC2(sumA: number, lambda: number, fit: InverseNFit | null): C2Check {
  const c2 = sumA / lambda;
  if (!fit || !fit.inverseSquare || !Number.isFinite(fit.c2StandardError)) {
    return {
      c2,
      sumA,
      fitted: fit?.inverseSquare ? fit.c2 : Number.NaN,
      fittedHalfWidth: Number.NaN,
      status: 'not-judged',
      rule: `${C2_RULE}; not judged: no c₂ fit (fewer than three n)`,
    };
  }
  const fittedHalfWidth = 1.96 * fit.c2StandardError;
  return {
    c2,
    sumA,
    fitted: fit.c2,
    fittedHalfWidth,
    status: Math.abs(c2 - fit.c2) <= fittedHalfWidth ? 'agrees' : 'disagrees',
    rule: C2_RULE,
  };
}
