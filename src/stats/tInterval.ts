/**
 * Student-t confidence interval over independent replications: x̄ ± t_{(1+c)/2, R−1} · s/√R.
 * Source: theory.md §8 (replications with seed substreams of one master seed).
 */
import { tQuantile as quantile } from '../lazy.ts';
import { InvalidModelError } from '../errors.ts';

/** A point estimate with its confidence interval, from `replications` independent runs. */
export interface Estimate {
  /** Sample mean x̄ of the replication values. */
  mean: number;
  /** Two-sided confidence interval [x̄ − h, x̄ + h] (95% unless stated otherwise). */
  ci95: [number, number];
  /** Half-width h = t_{(1+c)/2, R−1} · s/√R. */
  halfWidth: number;
  /** Number of replications R behind the estimate. */
  replications: number;
}

/**
 * Student-t interval for the mean of i.i.d. replication values.
 * @param samples R ≥ 2 finite values (one per replication); not modified.
 * @param confidence two-sided level in (0, 1), default 0.95 (the field is still called `ci95`).
 * @returns `{ mean, ci95, halfWidth, replications }`; halfWidth is 0 when all samples are equal.
 * @throws {InvalidModelError} if fewer than 2 samples, a sample is not finite, or confidence ∉ (0, 1).
 * @example tInterval([1, 2, 3]).halfWidth // ≈ 2.484 (t_{0.975,2} = 4.303, s = 1, √3)
 */
export function tInterval(samples: ArrayLike<number>, confidence = 0.95): Estimate {
  const r = samples.length;
  if (r < 2) throw new InvalidModelError(`tInterval needs at least 2 samples for a confidence interval, got ${r}`);
  if (!(confidence > 0 && confidence < 1)) {
    throw new InvalidModelError(`tInterval confidence must be in (0, 1), got ${confidence}`);
  }
  let sum = 0;
  for (let i = 0; i < r; i++) {
    const x = samples[i];
    if (!Number.isFinite(x)) throw new InvalidModelError(`tInterval sample ${i} is not finite: ${x}`);
    sum += x;
  }
  const mean = sum / r;
  let ss = 0;
  for (let i = 0; i < r; i++) {
    const dev = samples[i] - mean;
    ss += dev * dev;
  }
  const sd = Math.sqrt(ss / (r - 1));
  const halfWidth = quantile((1 + confidence) / 2, r - 1) * (sd / Math.sqrt(r));
  return { mean, ci95: [mean - halfWidth, mean + halfWidth], halfWidth, replications: r };
}
