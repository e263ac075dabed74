/**
 * Batch-means estimates for the cavity queue (theory.md §8): the pooled ratio Σ(values)/Σ(counts) over the measured
 * window, with the Student-t half-width of the B per-batch ratios, and their lag-1 autocorrelation as the
 * independence check (should be below about 0.2).
 */
import { lag1Autocorrelation } from '../../stats/batchMeans.ts';
import { ConvergenceError } from '../../errors.ts';
import { tInterval, type Estimate } from '../../stats/tInterval.ts';

/**
 * @param sums per-batch sums (length B). @param counts per-batch counts (length B).
 * @returns the Estimate (`replications` = B batches) and the lag-1 autocorrelation of the batch ratios.
 * @throws {ConvergenceError} if a batch is empty (the horizon is too short for the number of batches).
 */
export function batchRatioEstimate(sums: Float64Array, counts: Float64Array): { estimate: Estimate; lag1: number } {
  const B = sums.length;
  const ratios = new Float64Array(B);
  let total = 0;
  let count = 0;
  for (let b = 0; b < B; b++) {
    if (!(counts[b] > 0)) throw new ConvergenceError(`cavity batch ${b} of ${B} completed no jobs: raise the horizon`, NaN, 0);
    ratios[b] = sums[b] / counts[b];
    total += sums[b];
    count += counts[b];
  }
  const t = tInterval(ratios);
  const mean = total / count;
  return {
    // a ratio of positive sums: the interval is intersected with [0, ∞) (coverage unchanged)
    estimate: { mean, ci95: [Math.max(0, mean - t.halfWidth), mean + t.halfWidth], halfWidth: t.halfWidth, replications: B },
    lag1: lag1Autocorrelation(ratios),
  };
}

export { lag1Autocorrelation };
