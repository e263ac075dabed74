/** Estimates with a chosen interval, for the tests of what judges them (verdicts, claims, experiment reports). */
import type { Estimate } from '../../src/stats/index.ts';

/** An `Estimate` of `mean` with the symmetric 95% interval mean ± halfWidth, from `replications` replications. */
export function estimate(mean: number, halfWidth: number, replications = 5): Estimate {
  return { mean, ci95: [mean - halfWidth, mean + halfWidth], halfWidth, replications };
}
