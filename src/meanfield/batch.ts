/**
 * Batch arrivals in the mean-field limit (theory.md §15): Poisson batches of K jobs at rate λn/K, exponential sizes,
 * FIFO servers. Time in mean service times (E[S] = m rescales: the equations are solved at ρ = λm and times × m).
 * - SQ(d,K) (`jsq`, dispatch `spread`): the K jobs go to the K shortest of d sampled queues, one each. The tail
 *   fractions satisfy u₀ = 1, u_{k+1} = T_ρ(u_k) with T_ρ(u) = (ρ/K)·Σ_{j<K} (K − j)·C(d, j)·u^{d−j}(1 − u)^j
 *   (Ying, Srikant & Kang, INFOCOM 2015; Hellemans' thesis §8): flow balance across level k, since a server at
 *   level ≥ k gets a job when fewer than K of the d sampled are below k. E[T] = Σ_{k≥1} u_k/ρ (Little).
 * - LL(d,K) (`lwl`, `spread`): the workload ccdf F̄ solves F̄′ = T_ρ(F̄) − F̄, F̄(0) = ρ; a job waits the i-th
 *   smallest of d workloads for a uniform i ≤ K, so P(W > w) = T_ρ(F̄(w))/ρ. F̄ decreases from ρ to 0, so with
 *   u = F̄(w): E[W] = (1/ρ)∫₀^ρ T(u)/(u − T(u)) du, E[U] = ∫₀^ρ u/(u − T(u)) du = ρ(E[W] + 1) (a check).
 * - BSQ (`jsq`, dispatch `whole`): the batch joins the shortest of d queues; across the cut between levels k − 1
 *   and k, u_k − u_{k+1} = (ρ/K)(u_{k−K}^d − u_k^d) (u_i = 1 for i ≤ 0), which sums over levels ≥ k to the forward
 *   recursion u_k = (ρ/K)·Σ_{i=k−K}^{k−1} u_i^d. E[T] = Σ_{k≥1} u_k/ρ.
 * K = 1 gives SQ(d) (u_{k+1} = ρu_k^d) and LL(d) (F̄′ = ρF̄^d − F̄) back.
 */
import { InvalidModelError } from '../errors.ts';
import { integrate } from '../numerics/quadrature.ts';
import { odexIntegration, sampleTrajectory } from '../numerics/odex.ts';
import { checkTimeGrid } from '../model/timeGrid.ts';
import type { SupermarketModel } from '../model/model.ts';
import { truncatedTransient, type TruncatedTransient } from './support.ts';
import { batchDispersion, batchSizeTable, formatBatch, type BatchSizeLaw } from '../model/batchLaw.ts';

/** C(d, j) as a double. */
function binomial(d: number, j: number): number {
  let c = 1;
  for (let i = 1; i <= j; i++) c = (c * (d - j + i)) / i;
  return c;
}

/**
 * The batch-sampling map T_ρ(u) = (ρ/K)·Σ_{j<K} (K − j)·C(d, j)·u^{d−j}(1 − u)^j: the rate (per server, per ρ/K
 * batch) at which jobs join servers whose level (or workload) is at least the one with tail fraction u.
 */
export function batchSamplingMap(rho: number, d: number, K: number): (u: number) => number {
  const coef = Array.from({ length: K }, (_, j) => ((K - j) * binomial(d, j) * rho) / K);
  return (u) => {
    let s = 0;
    const v = 1 - u;
    for (let j = 0; j < K; j++) s += coef[j] * u ** (d - j) * v ** j;
    return s;
  };
}

/** A batch fixed point: E[T] (time units), E[Q] per server and, for queue-length rules, the tails u₀, u₁, …. */
export interface BatchFixedPoint {
  readonly meanResponseTime: number;
  readonly meanQueueLength: number;
  readonly tail?: number[];
  /** E[W] (time units) for LL(d,K); the quadrature error bound of E[T] where one applies. */
  readonly meanWait?: number;
  readonly numericalError: number;
}

function check(rho: number, d: number, K: number, needsDAtLeastK: boolean): void {
  if (!(rho > 0 && rho < 1)) throw new InvalidModelError(`the load ρ = ${rho} must lie in (0, 1)`);
  if (!Number.isInteger(K) || K < 1) throw new InvalidModelError(`batch size K must be an integer ≥ 1, got ${K}`);
  if (needsDAtLeastK && d < K) throw new InvalidModelError(`batch sampling needs d ≥ K, got d = ${d}, K = ${K}`);
}

/** Sums tails produced by `next` from u₀ = 1 until below 1e−16; E[T] = Σ_{k≥1} u_k/ρ · m. */
function tailSum(rho: number, mean: number, next: (u: number[]) => number): BatchFixedPoint {
  const tail = [1];
  let q = 0;
  for (let k = 1; k < 1_000_000; k++) {
    const u = next(tail);
    tail.push(u);
    q += u;
    if (u < 1e-16) break;
  }
  return { meanResponseTime: (q / rho) * mean, meanQueueLength: q, tail, numericalError: 1e-15 * tail.length * mean };
}

/**
 * SQ(d,K) fixed point (module docstring). @param rho load λ·E[S] in (0, 1). @param d ≥ K. @param K batch size.
 * @param mean E[S] (default 1). @throws {InvalidModelError} out of range.
 */
export function sqdkFixedPoint(rho: number, d: number, K: number, mean = 1): BatchFixedPoint {
  check(rho, d, K, true);
  const T = batchSamplingMap(rho, d, K);
  return tailSum(rho, mean, (tail) => T(tail[tail.length - 1]));
}

/**
 * BSQ fixed point (module docstring): the whole batch to the shortest of d, a fixed K or a size law X (theory.md §15):
 * u_k = (ρ/E[X])·Σ_{i<k} u_i^d·P(X ≥ k − i) with u_i = 1 for i ≤ 0, i.e. (ρ/E[X])·[Σ_{l≥k} P(X ≥ l) + Σ_{i=1}^{k−1}
 * u_i^d·P(X ≥ k − i)]; a fixed K is the point mass, the same arithmetic as (ρ/K)·Σ_{i=k−K}^{k−1} u_i^d to the bit.
 * @param batch K (integer ≥ 1) or a `BatchSizeLaw`. @throws {InvalidModelError} out of range.
 */
export function bsqFixedPoint(rho: number, d: number, batch: number | BatchSizeLaw, mean = 1): BatchFixedPoint {
  check(rho, d, typeof batch === 'number' ? batch : 1, false);
  const { mean: m, maxSize: L, ccdf } = batchSizeTable(batch);
  // beyond[k] = Σ_{l≥k} P(X ≥ l) (the terms i ≤ 0): exact integers for a fixed K, m·q^{k−1} for a geometric law
  const beyond = beyondSums(batch, ccdf, L);
  return tailSum(rho, mean, (tail) => {
    const k = tail.length;
    let s = k <= L ? beyond[k] : 0;
    for (let i = Math.max(1, k - L); i < k; i++) s += tail[i] ** d * ccdf[k - i];
    return (rho / m) * s;
  });
}

/** Σ_{l≥k} P(X ≥ l) for k = 1 … L (index 0 unused): suffix sums, or m·q^{k−1} for a geometric law. */
function beyondSums(batch: number | BatchSizeLaw, ccdf: Float64Array, L: number): Float64Array {
  const beyond = new Float64Array(L + 1);
  if (typeof batch !== 'number' && batch.kind === 'geometric') {
    for (let k = 1; k <= L; k++) beyond[k] = batch.mean * ccdf[k];
    return beyond;
  }
  let s = 0;
  for (let k = L; k >= 1; k--) beyond[k] = s += ccdf[k];
  return beyond;
}

/**
 * LL(d,K) fixed point (module docstring): E[W] = (1/ρ)∫₀^ρ T(u)/(u − T(u)) du by adaptive Gauss–Kronrod, E[T] = E[W] + 1
 * (× m). @throws {InvalidModelError} out of range.
 */
export function lldkFixedPoint(rho: number, d: number, K: number, mean = 1): BatchFixedPoint {
  check(rho, d, K, true);
  const T = batchSamplingMap(rho, d, K);
  // u − T(u) > 0 on (0, ρ]; near ρ → 1 the integrand grows like 1/(1 − ρ): breakpoints toward the top
  const breaks = [0.5, 0.9, 0.99, 0.999, 0.9999].map((f) => f * rho);
  const w = integrate((u) => T(u) / (u - T(u)), 0, rho, { breakpoints: breaks, relTolerance: 1e-11, absTolerance: 1e-13 });
  const wait = w.value / rho;
  return {
    meanResponseTime: (wait + 1) * mean,
    meanQueueLength: rho * (wait + 1),
    meanWait: wait * mean,
    numericalError: (w.error / rho) * mean,
  };
}

/**
 * The batch transients from an empty system (theory.md §15), the tail ODE behind each fixed point, in model time units
 * (job rate λ per server, service rate μ = 1/E[S]), with u₀ = 1 and u_i = 1 for i ≤ 0:
 * - SQ(d,K): du_k/dt = λ[T₁(u_{k−1}) − T₁(u_k)] − μ(u_k − u_{k+1}), T₁ the batch-sampling map at ρ = 1 (jobs
 *   joining servers at level exactly k − 1);
 * - BSQ: du_k/dt = (λ/K)·Σ_{i=k−K}^{k−1}(u_i^d − u_{i+1}^d) − μ(u_k − u_{k+1}) (a batch lifts the shortest of d from
 *   level i to i + K).
 * Summed over the levels ≥ k, a rest point is the fixed point's recursion (u_{k+1} = T_ρ(u_k), resp. the BSQ sum).
 * Truncated at level L sized from the horizon H: a server gains at most λd jobs per time unit (d/K batches per
 * batch epoch, K jobs at most each), so L is that Poisson count's 1e−14 reach plus K (capped at 2048).
 * @param dispatch 'spread' (SQ(d,K), needs d ≥ K) or 'whole' (BSQ). @param times increasing instants ≥ 0.
 * @returns the tails u_0..u_L per instant with odex diagnostics (a TruncatedTransient).
 * @throws {InvalidModelError} for a bad time grid or d < K with spread.
 */
export function batchTransient(
  model: SupermarketModel,
  options: { times: number[]; tolerance?: number; onProgress?: (fraction: number) => void },
): TruncatedTransient {
  const { d, batch: K, lambda } = model;
  const spread = model.batchDispatch === 'spread';
  const law = model.batchLaw;
  if (spread && law !== undefined)
    throw new InvalidModelError(`batch size law ${formatBatch(law)} needs batch dispatch whole (SQ(d,K) needs a fixed K)`);
  if (spread && d < K) throw new InvalidModelError(`batch sampling needs d ≥ K, got d = ${d}, K = ${K}`);
  const mu = 1 / model.service.mean;
  const times = checkTimeGrid(options.times);
  const tolerance = options.tolerance ?? 1e-10;
  const horizon = times[times.length - 1] - times[0];
  const reach = lambda * d * horizon;
  // the batch sizes (whole): a fixed K is the point mass; a law's largest batch that matters is its 1e−14 quantile
  const sizes = batchSizeTable(law ?? K);
  let top = sizes.maxSize;
  while (law !== undefined && top > 1 && sizes.ccdf[top] < 1e-14) top--;
  // the job count a server gains has variance reach·E[X²]/E[X] for a law; a fixed K (or a law with one atom, the
  // same model) keeps the sizing it always had, +K on top
  const dispersion = law === undefined || sizes.atoms.length === 1 ? 1 : batchDispersion(law);
  const L = Math.max(8, Math.min(2048, Math.ceil(reach + 8 * Math.sqrt(reach * dispersion) + 30 + top)));
  const T1 = batchSamplingMap(1, d, K);
  const m = sizes.mean;
  const { pmf, ccdf, atoms, maxSize } = sizes;
  const q = law?.kind === 'geometric' ? 1 - 1 / law.mean : 0;
  // y[k − 1] = u_k, k = 1..L; u_{L+1} = 0
  const u = (y: readonly number[], i: number) => (i <= 0 ? 1 : i > L ? 0 : y[i - 1]);
  const drift = (_t: number, y: number[]): number[] => {
    const out = new Array<number>(L);
    if (spread) {
      let prev = T1(1);
      for (let k = 1; k <= L; k++) {
        const cur = T1(u(y, k));
        out[k - 1] = lambda * (prev - cur) - mu * (u(y, k) - u(y, k + 1));
        prev = cur;
      }
    } else if (q > 0) {
      // geometric X: Σ_{i=1}^{k−1} u_i^d·P(X = k − i) = (1 − q)·C_k with C_{k+1} = q·C_k + u_k^d, C_1 = 0; P(X ≥ k) = q^{k−1}
      let c = 0;
      let qk = 1;
      for (let k = 1; k <= L; k++) {
        const uk = u(y, k) ** d;
        out[k - 1] = (lambda / m) * (qk + (1 - q) * c - uk) - mu * (u(y, k) - u(y, k + 1));
        c = q * c + uk;
        qk *= q;
      }
    } else {
      for (let k = 1; k <= L; k++) {
        // Σ_{i=0}^{k−1} (u_i^d − u_{i+1}^d)·P(X ≥ k − i) = P(X ≥ k) + Σ_{i=1}^{k−1} u_i^d·P(X = k − i) − u_k^d
        // (a fixed K: u_{k−K}^d − u_k^d, the same arithmetic)
        let s = k <= maxSize ? ccdf[k] : 0;
        for (let a = 0; a < atoms.length; a++) {
          const i = k - atoms[a];
          if (i >= 1) s += u(y, i) ** d * pmf[atoms[a]];
        }
        out[k - 1] = (lambda / m) * (s - u(y, k) ** d) - mu * (u(y, k) - u(y, k + 1));
      }
    }
    return out;
  };
  const maxSteps = Math.max(10_000, Math.ceil(50 * horizon * Math.max(1, lambda * d)));
  const tail: number[][] = [];
  let topLevelMass = 0;
  const take = (at: (i: number) => number) => {
    const row = [1];
    for (let k = 1; k <= L; k++) row.push(at(k - 1));
    topLevelMass = Math.max(topLevelMass, row[L]);
    tail.push(row);
  };
  const y0 = new Array<number>(L).fill(0);
  take((i) => y0[i]);
  const stats = sampleTrajectory(
    times,
    y0,
    odexIntegration(drift, y0, { tolerance, maxSteps, label: `the ${spread ? 'SQ(d,K)' : 'BSQ'} batch ODE` }),
    take,
    (_y, x) => options.onProgress?.(horizon > 0 ? (x - times[0]) / horizon : 1),
  );
  return truncatedTransient(model, times, tail, stats, {
    truncationLevel: L,
    topLevelMass,
    tolerance,
    maxSteps,
    equation: spread
      ? 'du_k/dt = λ[T₁(u_{k−1}) − T₁(u_k)] − μ(u_k − u_{k+1}) (theory.md §15)'
      : law === undefined
        ? 'du_k/dt = (λ/K)(u_{k−K}^d − u_k^d) − μ(u_k − u_{k+1}) (theory.md §15)'
        : `du_k/dt = (λ/E[X])(P(X ≥ k) + Σ_{i=1}^{k−1} u_i^d P(X = k − i) − u_k^d) − μ(u_k − u_{k+1}), X ~ ${formatBatch(law)} (theory.md §15)`,
    source: 'theory.md §15 (Ying, Srikant & Kang, INFOCOM 2015; Hellemans, PhD thesis 2021, §8): batch sampling, flow across levels',
  });
}
