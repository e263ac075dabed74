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
  return asPinnedPoints({ ...r, responseTimePercentiles: { p50: old('p50'), p95: old('p95'), p99: old('p99') } });
}

/**
 * `x` with every estimate flagged `unobserved` (a level no unit reached, stats/tInterval.ts `monotoneFractions`, and
 * its kin, added after the pins) as the pins recorded it: the one-point t interval of equal values, ci95 [mean, mean],
 * halfWidth 0, no flag. Everything else is kept (a deep copy through JSON: numbers as JSON writes them).
 */
export function asPinnedPoints<T>(x: T): T {
  return JSON.parse(JSON.stringify(x, pinnedPoint)) as T;
}

/** The JSON replacer of `asPinnedPoints` (for a hash that stringifies the result itself). */
export function pinnedPoint(_key: string, value: unknown): unknown {
  if ((value as { unobserved?: unknown } | null)?.unobserved !== true) return value;
  const { unobserved: _u, ...e } = value as { unobserved: true; mean: number };
  return { ...e, ci95: [e.mean, e.mean], halfWidth: 0 };
}
