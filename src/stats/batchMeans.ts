/**
 * Batch-means interval for one long run (theory.md §8 "Replications or batch means"): the run's measured jobs (or
 * its time window) cut into B consecutive batches (20–30), Student-t interval over the B batch values, and the
 * lag-1 autocorrelation of the batch values as the independence check (should be < 0.2).
 */
import { InvalidModelError } from '../errors.ts';
import { tQuantile } from '../lazy.ts';
import { sectioningInterval, tInterval, type Estimate } from './tInterval.ts';

/** A batch-means estimate: `mean` is the pooled (whole-run) value, the half-width that of the batch values. */
export interface BatchEstimate extends Estimate {
  /**
   * Lag-1 autocorrelation of the batch values (`batchLag1`): NaN if they are all equal, or if there are fewer than
   * MIN_LAG1_BATCHES of them (too few batches to check independence: no number, `fewBatchesNote` says why).
   */
  lag1: number;
}

/**
 * Fewest batches whose lag-1 autocorrelation is read as the independence check (< 0.2, theory.md §8). Under
 * independence the sample lag-1 autocorrelation of B values has mean ≈ −1/B and standard deviation ≈ 1/√B (Bartlett
 * 1946): 0.58 at B = 3, so a value against 0.2 is no evidence either way there; 10 is the least of Schmeiser's 10 to
 * 30 batches (1982, Oper. Res. 30:556), where that spread is 0.32.
 */
export const MIN_LAG1_BATCHES = 10;

/**
 * The lag-1 autocorrelation of B batch values as the independence check reads it: `lag1Autocorrelation` from
 * MIN_LAG1_BATCHES batches on, else NaN (too few batches to check: no number). @param xs the batch values, in run order.
 * @example batchLag1([1, 2, 3]) // NaN (3 batches); batchLag1([1, 2, 1, 2, 1, 2, 1, 2, 1, 2]) // -0.9
 */
export function batchLag1(xs: ArrayLike<number>): number {
  return xs.length >= MIN_LAG1_BATCHES ? lag1Autocorrelation(xs) : Number.NaN;
}

/**
 * What a run of few batch means cannot say, in one line, or null from MIN_LAG1_BATCHES batches on: no independence
 * check (`batchLag1`), and the Student t degrees of freedom B − 1 behind every interval (few: wide t quantile).
 * @param batches B ≥ 2. @param confidence two-sided level of the intervals (default 0.95).
 * @example fewBatchesNote(3) // "3 batch means: too few batches to check independence (the lag-1 autocorrelation needs ≥ 10 …); …"
 */
export function fewBatchesNote(batches: number, confidence = 0.95): string | null {
  if (batches >= MIN_LAG1_BATCHES) return null;
  const p = (1 + confidence) / 2;
  return (
    `${batches} batch means: too few batches to check independence (the lag-1 autocorrelation needs ≥ ${MIN_LAG1_BATCHES}: ` +
    `under independence its spread is ≈ 1/√${batches} = ${(1 / Math.sqrt(batches)).toFixed(2)} against the threshold 0.2, so no number is given); ` +
    `each interval is Student t with ${batches - 1} degree${batches === 2 ? '' : 's'} of freedom (t_{${p},${batches - 1}} = ${tQuantile(p, batches - 1).toPrecision(3)})`
  );
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
 * @returns `{ mean: pooled, ci95: pooled ± h, halfWidth: h, replications: B, lag1 }`, h from `tInterval(batches)`,
 *   lag1 from `batchLag1` (NaN below MIN_LAG1_BATCHES batches).
 * @throws {InvalidModelError} if B < 2 or a value is not finite.
 */
export function batchEstimate(batches: readonly number[], pooled?: number): BatchEstimate {
  if (batches.length < 2) throw new InvalidModelError(`batch means need at least 2 batches, got ${batches.length}`);
  const t = pooled === undefined ? tInterval(batches) : sectioningInterval(batches, pooled);
  return { ...t, lag1: batchLag1(batches) };
}
