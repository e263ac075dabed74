/**
 * The summary statistics of data/README.md "Statistics at a glance", computed from parsed jobs.
 */
import { mean, median, pearson, scv, spearman } from './correlation.ts';
import type { TraceJob } from './job.ts';

/** Agreement of a positive predictor P with sizes S, over the jobs where both are > 0. */
export interface PairStatistics {
  /** Jobs with S > 0 and P > 0 (the rest are left out of every figure below). */
  count: number;
  /** Pearson correlation of ln S and ln P. */
  logCorrelation: number;
  /** Spearman rank correlation of S and P. */
  spearman: number;
  /** Shares of the counted jobs with P > S, P = S, P < S (sum 1). */
  over: number;
  equal: number;
  under: number;
  /** Median of P/S. */
  medianRatio: number;
  /** Median of |ln P − ln S|. */
  medianAbsLogError: number;
}

export interface TraceStatistics {
  /** Jobs summarised. */
  count: number;
  /** Mean, SCV (population variance / mean²) and median of the sizes S (all jobs with S ≥ 0). */
  meanSize: number;
  scvSize: number;
  medianSize: number;
  /** Jobs with S = 0 (counted in the size statistics; left out of predictor agreement and of any mean slowdown T/S). */
  zeroSizeJobs: number;
  /** Mean gap between consecutive submit times in file order, = (last − first)/(n − 1), and the SCV of the gaps. */
  meanInterArrival: number;
  scvInterArrival: number;
  /** Span last − first submit time (s). */
  span: number;
  /** The trace's own estimate P against S (SWF requested time); undefined when no job has one. */
  userEstimate: PairStatistics | undefined;
}

/**
 * Agreement of predictions with sizes over the pairs with S > 0 and P > 0 (data/README.md definitions).
 * @param sizes S, length m; `predicted` P, length m, index i for the same job. Non-finite P counts as missing.
 * @returns counts and shares as in `PairStatistics`; correlations are NaN when fewer than 2 pairs remain.
 */
export function pairStatistics(sizes: ArrayLike<number>, predicted: ArrayLike<number>): PairStatistics {
  const ls: number[] = [];
  const lp: number[] = [];
  let over = 0;
  let equal = 0;
  for (let i = 0; i < sizes.length; i++) {
    const s = sizes[i];
    const p = predicted[i];
    if (!(s > 0 && p > 0 && Number.isFinite(p))) continue;
    ls.push(Math.log(s));
    lp.push(Math.log(p));
    if (p > s) over++;
    else if (p === s) equal++;
  }
  const count = ls.length;
  const ratio = new Float64Array(count);
  const absErr = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    ratio[i] = Math.exp(lp[i] - ls[i]);
    absErr[i] = Math.abs(lp[i] - ls[i]);
  }
  return {
    count,
    logCorrelation: pearson(ls, lp),
    spearman: spearman(ls, lp),
    over: over / count,
    equal: equal / count,
    under: (count - over - equal) / count,
    medianRatio: median(ratio),
    medianAbsLogError: median(absErr),
  };
}

/**
 * Statistics of a parsed trace, as defined in data/README.md: size mean/SCV/median, inter-arrival mean/SCV,
 * and the user estimate's agreement with the size (SWF requested time vs run time) where present.
 * @param jobs parsed jobs in file order (length ≥ 1).
 * @returns a `TraceStatistics`; inter-arrival figures are NaN for fewer than two jobs.
 */
export function traceStatistics(jobs: readonly TraceJob[]): TraceStatistics {
  const n = jobs.length;
  const sizes = new Float64Array(n);
  const estimates = new Float64Array(n);
  let hasEstimate = false;
  for (let i = 0; i < n; i++) {
    sizes[i] = jobs[i].size;
    const p = jobs[i].userEstimate;
    estimates[i] = p ?? NaN;
    if (p !== undefined) hasEstimate = true;
  }
  const gaps = new Float64Array(Math.max(0, n - 1));
  for (let i = 1; i < n; i++) gaps[i - 1] = jobs[i].submitTime - jobs[i - 1].submitTime;
  return {
    count: n,
    meanSize: mean(sizes),
    scvSize: scv(sizes),
    medianSize: median(sizes),
    zeroSizeJobs: sizes.filter((x) => x === 0).length,
    meanInterArrival: mean(gaps),
    scvInterArrival: scv(gaps),
    span: n ? jobs[n - 1].submitTime - jobs[0].submitTime : NaN,
    userEstimate: hasEstimate ? pairStatistics(sizes, estimates) : undefined,
  };
}
