/**
 * Batch-means interval for one long run (theory.md §8 "Replications or batch means"): the run's measured jobs (or
 * its time window) cut into B consecutive batches (20–30), Student-t interval over the B batch values, and the
 * lag-1 autocorrelation of the batch values as the independence check (should be < 0.2).
 */
import { InvalidModelError } from '../errors.ts';
import { sectioningInterval, tInterval, type Estimate } from './tInterval.ts';

/** A batch-means estimate: `mean` is the pooled (whole-run) value, the half-width that of the batch values. */
export interface BatchEstimate extends Estimate {
  /** Lag-1 autocorrelation of the batch values (NaN if they are all equal). */
  lag1: number;
}

/** Lag-1 sample autocorrelation Σ(x_i − x̄)(x_{i+1} − x̄) / Σ(x_i − x̄)². */
export function lag1Autocorrelation(xs: ArrayLike<number>): number {
  const m = xs.length;
  let mean = 0;
  for (let i = 0; i < m; i++) mean += xs[i] / m;
  let num = 0;
  let den = 0;
  for (let i = 0; i < m; i++) {
    const u = xs[i] - mean;
    den += u * u;
    if (i + 1 < m) num += u * (xs[i + 1] - mean);
  }
  return den > 0 ? num / den : NaN;
}

/**
 * @param batches the B ≥ 2 batch values, in run order. @param pooled the whole-run value (default: their mean).
 * @returns `{ mean: pooled, ci95: pooled ± h, halfWidth: h, replications: B, lag1 }`, h from `tInterval(batches)`.
 * @throws {InvalidModelError} if B < 2 or a value is not finite.
 */
export function batchEstimate(batches: readonly number[], pooled?: number): BatchEstimate {
  if (batches.length < 2) throw new InvalidModelError(`batch means need at least 2 batches, got ${batches.length}`);
  const t = pooled === undefined ? tInterval(batches) : sectioningInterval(batches, pooled);
  return { ...t, lag1: lag1Autocorrelation(batches) };
}
