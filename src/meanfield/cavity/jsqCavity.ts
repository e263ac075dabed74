/**
 * Cavity fixed point for JSQ(d) with general sizes or any discipline (theory.md §5 [A]): a server with k jobs
 * receives arrivals at rate λa_k, a_k = (s_k^d − s_{k+1}^d)/(s_k − s_{k+1}), where s is the tail of its own
 * stationary queue length. Iterate s ← (1 − θ)s + θŝ with ŝ the time averages of a simulated cavity queue, then
 * estimate E[T] from one long run. An ansatz (asymptotic independence is proved only for FIFO with decreasing-hazard
 * sizes): results are labelled method 'cavity' with CIs.
 */
import { InvalidModelError } from '../../errors.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { predictionModel } from '../../model/prediction/index.ts';
import { serviceDistribution } from '../../model/service/index.ts';
import type { Estimate } from '../../stats/tInterval.ts';
import { Rng, streamSeed } from '../../stats/rng.ts';
import { VERSION } from '../../version.ts';
import { sqdClosedFormTail, sqdTruncationLevel } from '../sqd.ts';
import { checkLambdaD } from '../support.ts';
import { batchRatioEstimate } from './cavityEstimate.ts';
import { runCavityQueue, type AcceptanceRule } from './cavityQueue.ts';
import { checkRunOptions } from './options.ts';

export interface JsqCavityOptions {
  /** Master seed (default 1); iteration i uses streamSeed(seed, i), the final run streamSeed(seed, 0). */
  seed?: number;
  /** Cap on fixed-point iterations (default 30). */
  maxIterations?: number;
  /** Damping θ in (0, 1] (default 0.5). */
  theta?: number;
  /** T_1, measured time of the first iteration, model time units (default 2,000). */
  initialHorizon?: number;
  /** T_{m+1} = growth·T_m, capped at finalHorizon (default 2). */
  growth?: number;
  /** Cap on T_m and horizon of the averaging runs (default finalHorizon). */
  iterationHorizon?: number;
  /**
   * Runs at iterationHorizon after phase 1 whose pooled time averages give the final s (Polyak–Ruppert averaging;
   * default 8, 0 to use the last iterate).
   */
  averagingIterations?: number;
  /** Measured time of the final run (default 2·10⁵). */
  finalHorizon?: number;
  /** Batches of the final run (default 25). */
  batches?: number;
  /** A change is "within noise" when |ŝ_k − s_k| ≤ noiseFactor·SE_k + 1e−5 for every k (default 3). */
  noiseFactor?: number;
}

export interface JsqCavityResult {
  /** ŝ_0..ŝ_K of the final run: time fraction with at least k jobs (ŝ_0 = 1); K = highest level visited. */
  tail: number[];
  /** E[T] from the final run's jobs, model time units; batch-means CI (`replications` = batches). */
  meanResponseTime: Estimate;
  meanSlowdown: Estimate;
  /** Σ_{k≥1} ŝ_k of the final run (Little: ≈ λ·E[T]). */
  meanQueueLength: number;
  method: 'cavity';
  diagnostics: {
    /** Phase-1 iterations (growing T_m). */
    iterations: number;
    /** Phase-2 runs pooled into the final s. */
    averagingIterations: number;
    /**
     * max_k standard error of the pooled ŝ_k, from the spread of the averaging runs (ignores their correlation
     * through s, so a lower bound; NaN with < 2 averaging runs). The E[T] CI covers the final run's noise only:
     * an error δ in s moves E[T] by about Σ_k (J(I − J)^{−1}δ)_k/λ, J the map's derivative (slowest eigenvalue
     * ≈ 0.61, 0.84 at d = 2, λ = 0.7, 0.9 for exponential sizes).
     */
    tailStandardError: number;
    /** max_k |ŝ_k − s_k| of the last iteration. */
    lastChange: number;
    /** True if the last iteration's change was within noise (else maxIterations ran out). */
    converged: boolean;
    /** Measured time of every run before the final one (phase 1, then phase 2). */
    horizons: number[];
    finalHorizon: number;
    batches: number;
    lag1: number;
    acceptedJobs: number;
  };
  provenance: { model: SupermarketModel; equation: string; source: string; version: string; seed: number; options: Required<Omit<JsqCavityOptions, 'seed'>> };
}

/** φ(u, v) = Σ_{i<d} u^i v^{d−1−i} = (u^d − v^d)/(u − v). */
function arrivalFactor(d: number, u: number, v: number): number {
  let sum = 0;
  for (let i = 0; i < d; i++) sum += u ** i * v ** (d - 1 - i);
  return sum;
}

/** Acceptance a_k/d at k jobs from a tail s (past the table: φ(0, 0)/d, i.e. 1 for d = 1, else 0). */
class LevelAcceptance implements AcceptanceRule {
  private readonly table: Float64Array;
  private readonly beyond: number;
  constructor(s: Float64Array, d: number) {
    const L = s.length;
    this.table = new Float64Array(L);
    for (let k = 0; k < L; k++) this.table[k] = arrivalFactor(d, s[k], k + 1 < L ? s[k + 1] : 0) / d;
    this.beyond = d === 1 ? 1 : 0;
  }
  probability(_workload: number, jobs: number): number {
    return jobs < this.table.length ? this.table[jobs] : this.beyond;
  }
}

function positive(name: string, v: number, max = Infinity): number {
  if (!(v > 0 && v <= max && Number.isFinite(v))) throw new InvalidModelError(`jsqCavity ${name} must lie in (0, ${max}], got ${v}`);
  return v;
}

/** Tail from per-level times: ŝ_k = Σ_{l≥k} time_l / Σ time, length = highest visited level + 1. */
function tailFromTimes(times: Float64Array): Float64Array {
  let top = times.length - 1;
  while (top > 0 && times[top] === 0) top--;
  const s = new Float64Array(top + 1);
  let acc = 0;
  for (let k = top; k >= 0; k--) { acc += times[k]; s[k] = acc; }
  for (let k = top; k >= 0; k--) s[k] /= acc;
  return s;
}

/**
 * JSQ(d) mean-field tail and response time for any service law and discipline by the cavity iteration of theory.md §5.
 * Start from the exponential closed form s_k = ρ^((d^k−1)/(d−1)); per iteration m simulate the cavity queue (thinning
 * rate λd by a_k/d) for T_m (warm-up T_m/10, 10 batches), estimate ŝ_k as time averages with batch standard errors
 * SE_k, set s ← (1 − θ)s + θŝ and then s_k ← min(s_k, s_{k−1}) (non-increasing); T_{m+1} = growth·T_m up to
 * iterationHorizon; phase 1 stops once T_m = iterationHorizon and every |ŝ_k − s_k| ≤ noiseFactor·SE_k + 1e−5 (or at
 * maxIterations, with `converged: false`). Phase 2 runs `averagingIterations` more at iterationHorizon and pools their
 * time averages into the final s (Polyak–Ruppert): the fixed point amplifies noise by (I − J)^{−1}, J the map's
 * derivative, so the last iterate alone carries about as much error as the final run. Finish with one run of
 * finalHorizon (warm-up finalHorizon/50) for E[T], E[T/S] with batch-means CIs (final-run noise only; see
 * `diagnostics.tailStandardError`). Iterations multiply as ρ → 1. Same seed and options → same numbers.
 * @param model `selection` 'jsq' (or 'random' with d = 1), any discipline, service law and prediction law but 'trace'.
 * @param options see JsqCavityOptions.
 * @returns `tail`, `meanResponseTime`, `meanSlowdown` (Estimates, model time units), `meanQueueLength`,
 *   `method: 'cavity'`, `diagnostics` (iterations, lastChange, converged, horizons, ...), `provenance`.
 * @throws {InvalidModelError} on another selection, 'trace' predictions or bad options.
 * @throws {UnstableModelError} if ρ ∉ (0, 1). @throws {ConvergenceError} if a batch completes no job.
 * @example jsqCavity(parseModel({ lambda: 0.9, d: 2 })).meanResponseTime.mean // ≈ 2.6141 (closed form, theory.md §10)
 */
export function jsqCavity(model: SupermarketModel, options: JsqCavityOptions = {}): JsqCavityResult {
  if (model.selection !== 'jsq' && !(model.selection === 'random' && model.d === 1)) {
    throw new InvalidModelError(`jsqCavity needs selection "jsq", got ${JSON.stringify(model.selection)} (use lwlCavity for "lwl")`);
  }
  if (model.prediction.kind === 'trace') {
    throw new InvalidModelError('jsqCavity needs a prediction law given the size; "trace" predictions are per-job columns');
  }
  const service = serviceDistribution(model.service);
  const prediction = predictionModel(model.prediction);
  const rho = model.lambda * service.mean;
  const d = model.d;
  checkLambdaD(rho, d);
  const maxIterations = options.maxIterations ?? 30;
  if (!Number.isInteger(maxIterations) || maxIterations < 0) throw new InvalidModelError(`jsqCavity maxIterations must be an integer ≥ 0, got ${maxIterations}`);
  const theta = positive('theta', options.theta ?? 0.5, 1);
  const initialHorizon = positive('initialHorizon', options.initialHorizon ?? 2000);
  const growth = options.growth ?? 2;
  if (!(growth >= 1 && Number.isFinite(growth))) throw new InvalidModelError(`jsqCavity growth must be a finite number ≥ 1, got ${growth}`);
  const noiseFactor = positive('noiseFactor', options.noiseFactor ?? 3);
  const finalHorizon = options.finalHorizon ?? 2e5;
  const iterationHorizon = positive('iterationHorizon', options.iterationHorizon ?? finalHorizon);
  const averagingIterations = options.averagingIterations ?? 8;
  if (!Number.isInteger(averagingIterations) || averagingIterations < 0) {
    throw new InvalidModelError(`jsqCavity averagingIterations must be an integer ≥ 0, got ${averagingIterations}`);
  }
  let tailStandardError = NaN;
  const seed = options.seed ?? 1;
  const final = checkRunOptions(finalHorizon, finalHorizon / 50, options.batches ?? 25, seed);
  checkRunOptions(initialHorizon, 0, 10, seed);

  const common = {
    discipline: model.discipline, conventions: model.conventions, service, prediction, potentialRate: model.lambda * d, levels: true,
  };
  let s: Float64Array = Float64Array.from(sqdClosedFormTail(rho, d, d === 1 ? Math.min(20_000, sqdTruncationLevel(rho, 1, 1e-12, 1e7)) : sqdTruncationLevel(rho, d, 1e-15)));
  let T = Math.min(initialHorizon, iterationHorizon);
  let iterations = 0;
  let lastChange = NaN;
  let converged = false;
  let stream = 0;
  const horizons: number[] = [];
  /** One cavity run of measured time `horizon` (warm-up horizon/10, 10 batches) with the current s; updates s. */
  const step = (horizon: number) => {
    const B = 10;
    const out = runCavityQueue({ ...common, acceptance: new LevelAcceptance(s, d), warmup: horizon / 10, horizon, batches: B, rng: new Rng(streamSeed(seed, ++stream)) });
    const L = Math.max(s.length, ...out.levelTime.map((row) => row.length));
    const total = new Float64Array(L);
    out.levelTime.forEach((row) => row.forEach((v, k) => { total[k] += v; }));
    const hat = tailFromTimes(total);
    const perBatch = out.levelTime.map(tailFromTimes);
    const K = Math.max(s.length, hat.length);
    let withinNoise = true;
    let change = 0;
    const next = new Float64Array(K);
    for (let k = 0; k < K; k++) {
      const sk = k < s.length ? s[k] : 0;
      const hk = k < hat.length ? hat[k] : 0;
      let mean = 0;
      let ss = 0;
      for (const b of perBatch) mean += (k < b.length ? b[k] : 0) / B;
      for (const b of perBatch) ss += ((k < b.length ? b[k] : 0) - mean) ** 2;
      const se = Math.sqrt(ss / (B - 1) / B);
      const diff = Math.abs(hk - sk);
      change = Math.max(change, diff);
      if (diff > noiseFactor * se + 1e-5) withinNoise = false;
      next[k] = (1 - theta) * sk + theta * hk;
      if (k > 0 && next[k] > next[k - 1]) next[k] = next[k - 1];
    }
    next[0] = 1;
    let top = K - 1;
    while (top > 1 && next[top] === 0) top--;
    s = next.slice(0, top + 1);
    lastChange = change;
    horizons.push(horizon);
    return { withinNoise, levelTime: total };
  };
  // Phase 1: damped iteration, T_m growing to the iteration horizon, until the change is within noise there.
  while (iterations < maxIterations) {
    iterations++;
    const { withinNoise } = step(T);
    if (withinNoise && T >= iterationHorizon) {
      converged = true;
      break;
    }
    T = Math.min(iterationHorizon, T * growth);
  }
  // Phase 2 (Polyak–Ruppert): keep iterating at the iteration horizon and pool the time averages of these runs.
  if (averagingIterations > 0) {
    let pooled = new Float64Array(0);
    const tails: Float64Array[] = [];
    for (let a = 0; a < averagingIterations; a++) {
      const { levelTime } = step(iterationHorizon);
      tails.push(tailFromTimes(levelTime));
      if (levelTime.length > pooled.length) { const g = new Float64Array(levelTime.length); g.set(pooled); pooled = g; }
      levelTime.forEach((v, k) => { pooled[k] += v; });
    }
    s = tailFromTimes(pooled);
    if (averagingIterations > 1) tailStandardError = 0;
    for (let k = 0; k < s.length && averagingIterations > 1; k++) {
      const n = averagingIterations;
      const mean = tails.reduce((acc, t) => acc + (k < t.length ? t[k] : 0), 0) / n;
      const ss = tails.reduce((acc, t) => acc + ((k < t.length ? t[k] : 0) - mean) ** 2, 0);
      tailStandardError = Math.max(tailStandardError, Math.sqrt(ss / (n - 1) / n));
    }
  }
  const out = runCavityQueue({ ...common, acceptance: new LevelAcceptance(s, d), warmup: final.warmup, horizon: final.horizon, batches: final.batches, rng: new Rng(streamSeed(seed, 0)) });
  const L = Math.max(...out.levelTime.map((row) => row.length));
  const total = new Float64Array(L);
  out.levelTime.forEach((row) => row.forEach((v, k) => { total[k] += v; }));
  const tail = Array.from(tailFromTimes(total));
  let meanQueueLength = 0;
  for (let k = tail.length - 1; k >= 1; k--) meanQueueLength += tail[k];
  const Tm = batchRatioEstimate(out.responseSum, out.completed);
  const slowdown = batchRatioEstimate(out.slowdownSum, out.completed);
  return {
    tail,
    meanResponseTime: Tm.estimate,
    meanSlowdown: slowdown.estimate,
    meanQueueLength,
    method: 'cavity',
    diagnostics: {
      iterations, averagingIterations, lastChange, converged, horizons, tailStandardError, finalHorizon: final.horizon, batches: final.batches, lag1: Tm.lag1, acceptedJobs: out.acceptedJobs,
    },
    provenance: {
      model,
      equation: 'cavity queue with arrival rate lambda*a_k at k jobs, a_k = (s_k^d - s_{k+1}^d)/(s_k - s_{k+1}); s <- (1 - theta)s + theta*s_hat',
      source: 'theory.md §5 [A] (JSQ(d) cavity iteration), §3 (a_k); Bramson, Lu, Prabhakar, Queueing Systems 71(3), 2012',
      version: VERSION,
      seed,
      options: { maxIterations, theta, initialHorizon, growth, iterationHorizon, averagingIterations, finalHorizon: final.horizon, batches: final.batches, noiseFactor },
    },
  };
}
