/**
 * A trace turned into a replay workload for the simulator (`simulateReplay(model, workload, { n })`), in the
 * project's units: time in mean service times of the replayed jobs, so sizes have mean 1, and arrivals at total
 * rate ρ·n, i.e. λ = ρ per server (theory.md §1: time in mean service times, ρ = λ).
 */
import { InvalidModelError } from '../errors.ts';
import type { TraceJob } from './job.ts';

export interface TraceWorkloadOptions {
  /** Target load ρ = λ·E[S] per server, in (0, 1) for a stable system (values ≥ 1 are allowed for overload studies). */
  targetLoad: number;
  /** Number of servers n the trace is dispatched over. */
  servers: number;
  /**
   * Which physical quantity is stretched to reach ρ: 'sizes' (keep the trace's clock, scale the sizes) or
   * 'arrivals' (keep the sizes, scale the clock). In the normalised units returned here (E[S] = 1, λ = ρ) both
   * give the same arrays: replay is invariant under a change of time unit. The choice and its factor are stated
   * in `meta`, so a result can be read back in seconds.
   */
  rescale: 'sizes' | 'arrivals';
  /**
   * Optional per-job predictions in the unit of `size` (length jobs.length, index i for jobs[i]), or
   * 'user-estimate' for the trace's own estimate (every job must have one). Scaled like the sizes.
   */
  predictions?: ArrayLike<number> | 'user-estimate';
}

export interface TraceWorkload {
  /** Arrival times, length m, non-decreasing, arrivals[0] = 0; index i = i-th job by submit time. */
  arrivals: Float64Array;
  /** Sizes, length m, mean exactly 1 (up to rounding). */
  sizes: Float64Array;
  /** Predictions, length m, same scale as `sizes`; present when asked for. */
  predictions?: Float64Array;
  meta: {
    jobs: number;
    targetLoad: number;
    servers: number;
    rescale: 'sizes' | 'arrivals';
    /** Mean size of the replayed jobs in the trace's unit (s or bytes): one time unit of the replay. */
    meanSize: number;
    /** Mean gap of the trace's submit times (s), (last − first)/(m − 1). */
    meanInterArrival: number;
    /** Load the replay would have on n servers with the trace's own clock and sizes in seconds: meanSize/(n·meanGap). */
    originalLoad: number;
    /**
     * rescale 'sizes': each size (s) is multiplied by this to reach ρ on the trace's clock (= ρ/originalLoad).
     * rescale 'arrivals': each gap (s) is multiplied by it (= originalLoad/ρ).
     */
    factor: number;
    /** Whether the jobs had to be sorted by submit time (stable). */
    sorted: boolean;
    predictionSource?: 'given' | 'user-estimate';
  };
}

/**
 * Builds a replay workload from parsed jobs: sizes divided by their mean (so E[S] = 1), arrival times shifted to
 * start at 0 and scaled so that the mean gap is 1/(ρn) (total rate ρn, λ = ρ per server). For SWIM byte sizes
 * `originalLoad` treats one byte as one second (only `factor` depends on it).
 * @param jobs at least 2 jobs with sizes ≥ 0, positive total size and a positive submit span.
 * @param options see `TraceWorkloadOptions`.
 * @returns typed arrays of length jobs.length in submit order, and `meta`.
 * @throws {InvalidModelError} if ρ ≤ 0 or non-finite, n is not an integer ≥ 1, fewer than 2 jobs, all submit
 *   times equal, total size 0, a negative size, predictions of the wrong length or missing user estimates.
 */
export function traceWorkload(jobs: readonly TraceJob[], options: TraceWorkloadOptions): TraceWorkload {
  const { targetLoad: rho, servers: n, rescale } = options;
  if (!(rho > 0) || !Number.isFinite(rho)) throw new InvalidModelError(`targetLoad must be a finite number > 0, got ${rho}`);
  if (!Number.isInteger(n) || n < 1) throw new InvalidModelError(`servers must be an integer ≥ 1, got ${n}`);
  if (rescale !== 'sizes' && rescale !== 'arrivals')
    throw new InvalidModelError(`rescale must be 'sizes' or 'arrivals', got ${JSON.stringify(rescale)}`);
  const m = jobs.length;
  if (m < 2) throw new InvalidModelError(`a replay needs at least 2 jobs, got ${m}`);
  let sorted = false;
  for (let i = 1; i < m; i++)
    if (jobs[i].submitTime < jobs[i - 1].submitTime) {
      sorted = true;
      break;
    }
  const order = Array.from({ length: m }, (_, i) => i);
  if (sorted) order.sort((a, b) => jobs[a].submitTime - jobs[b].submitTime || a - b);

  let raw: ArrayLike<number> | undefined;
  let predictionSource: 'given' | 'user-estimate' | undefined;
  if (options.predictions === 'user-estimate') {
    const est = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      const p = jobs[i].userEstimate;
      if (p === undefined) throw new InvalidModelError(`predictions 'user-estimate': job ${i} (line ${jobs[i].line}) has no user estimate`);
      est[i] = p;
    }
    raw = est;
    predictionSource = 'user-estimate';
  } else if (options.predictions !== undefined) {
    if (options.predictions.length !== m)
      throw new InvalidModelError(`predictions must have one value per job (${m}), got ${options.predictions.length}`);
    raw = options.predictions;
    predictionSource = 'given';
  }

  let total = 0;
  for (let i = 0; i < m; i++) {
    const s = jobs[i].size;
    if (!(s >= 0)) throw new InvalidModelError(`job ${i} (line ${jobs[i].line}) has size ${s}; sizes must be ≥ 0`);
    total += s;
  }
  if (!(total > 0)) throw new InvalidModelError('the total size of the jobs is 0; cannot rescale to mean 1');
  const meanSize = total / m;
  const t0 = jobs[order[0]].submitTime;
  const span = jobs[order[m - 1]].submitTime - t0;
  if (!(span > 0)) throw new InvalidModelError('all jobs have the same submit time; cannot scale arrivals to a rate');
  const meanGap = span / (m - 1);
  // In replay units the mean gap must be 1/(ρn): time scale = (1/(ρn))/meanGap per second.
  const timeScale = 1 / (rho * n * meanGap);
  const arrivals = new Float64Array(m);
  const sizes = new Float64Array(m);
  const predictions = raw ? new Float64Array(m) : undefined;
  for (let k = 0; k < m; k++) {
    const i = order[k];
    arrivals[k] = (jobs[i].submitTime - t0) * timeScale;
    sizes[k] = jobs[i].size / meanSize;
    if (predictions && raw) predictions[k] = raw[i] / meanSize;
  }
  const originalLoad = meanSize / (n * meanGap);
  return {
    arrivals,
    sizes,
    ...(predictions ? { predictions } : {}),
    meta: {
      jobs: m,
      targetLoad: rho,
      servers: n,
      rescale,
      meanSize,
      meanInterArrival: meanGap,
      originalLoad,
      factor: rescale === 'sizes' ? rho / originalLoad : originalLoad / rho,
      sorted,
      ...(predictionSource ? { predictionSource } : {}),
    },
  };
}
