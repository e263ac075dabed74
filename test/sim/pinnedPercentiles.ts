import type { SimulationResult } from '../../src/sim/index.ts';
import { feasible, sectioningInterval } from '../../src/stats/tInterval.ts';

/**
 * The result with its percentile intervals as the hash pins recorded them: pooled quantile ± t_{R−1}·s/√R over the
 * units' own quantiles (`sectioningInterval`, kept in `perReplication`). simulate now inverts the units' cdf interval
 * instead (stats/tInterval.ts `cdfSectioningInterval`: the old rule covered the M/M/1 λ = 0.9 p99 86 % of the time,
 * scripts/percentile-ci-coverage.ts); rebuilding the old intervals from the same run and matching the old pins shows
 * that nothing else changed.
 */
export function withPinnedPercentiles(r: SimulationResult): SimulationResult {
  const old = (key: 'p50' | 'p95' | 'p99') =>
    feasible(
      sectioningInterval(
        r.perReplication.map((x) => x.responseTimePercentiles[key]),
        r.responseTimePercentiles[key].mean,
      ),
      0,
    );
  return { ...r, responseTimePercentiles: { p50: old('p50'), p95: old('p95'), p99: old('p99') } };
}
