/**
 * Per-cell agreement between a finite-n simulation and the (refined) mean field, theory.md §8 "Judging agreement".
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import type { Estimate } from '../stats/index.ts';

export type VerdictStatus = 'agrees' | 'disagrees' | 'refined-out-of-range';

export interface Verdict {
  readonly status: VerdictStatus;
  /** x̂_n − (π + V/n) for the mean response time (time units). */
  readonly difference: number;
  /** 95% CI half-width h_n of the simulated mean response time. */
  readonly halfWidth: number;
  /** Stated O(1/n²) allowance δ_n (time units): |ΣV/n|·|ΣV|/(nΣπ)/λ (theory.md §8 [H]). */
  readonly allowance: number;
  /** difference / (h_n/t): the standardised distance, to read with a multiple-testing eye. */
  readonly zScore: number;
  /** ΣV/(nΣπ): the relative size of the 1/n correction; above `maxRelativeCorrection` the refined term is not trusted. */
  readonly relativeCorrection: number;
  readonly rule: string;
}

/**
 * Verdict for one (λ, d, n) cell: `agrees` when |x̂_n − (π + V/n)| ≤ h_n + δ_n; `refined-out-of-range` when the
 * 1/n term exceeds `maxRelativeCorrection` (default 5%, the cautious end of theory.md §6's "5–10%") of Σπ,
 * where the expansion is not trusted: there the unmodelled 1/n² term can exceed the allowance.
 * @param simulated simulated mean response time with its CI.
 * @param refinedMeanResponseTime E[T_∞] + ΣV/(λn).
 * @param sumPi Σπ = E[Q_∞]; @param sumV ΣV; @param lambda λ; @param n servers.
 */
export function refinedVerdict(
  simulated: Estimate,
  refinedMeanResponseTime: number,
  sumPi: number,
  sumV: number,
  lambda: number,
  n: number,
  maxRelativeCorrection = 0.05,
): Verdict {
  const difference = simulated.mean - refinedMeanResponseTime;
  const halfWidth = simulated.halfWidth;
  const allowance = (Math.abs(sumV / n) * Math.abs(sumV)) / (n * sumPi) / lambda;
  const relativeCorrection = Math.abs(sumV) / (n * sumPi);
  const standardError = halfWidth / tQuantile(0.975, simulated.replications - 1);
  const zScore = standardError > 0 ? difference / standardError : Number.POSITIVE_INFINITY;
  let status: VerdictStatus;
  if (relativeCorrection > maxRelativeCorrection) status = 'refined-out-of-range';
  else status = Math.abs(difference) <= halfWidth + allowance ? 'agrees' : 'disagrees';
  const rule = `|sim − refined| ≤ h_n + δ_n, δ_n = |ΣV/n|·|ΣV|/(nΣπ)/λ; skipped when ΣV/(nΣπ) > ${maxRelativeCorrection}`;
  return { status, difference, halfWidth, allowance, zScore, relativeCorrection, rule };
}
