/**
 * Cavity fixed point for JSQ(d) with general sizes or any discipline (theory.md §5 [A]): a server with k jobs
 * receives arrivals at rate λa_k, a_k = (s_k^d − s_{k+1}^d)/(s_k − s_{k+1}), where s is the tail of its own
 * stationary queue length.
 *
 * Why the former plain iteration s ← (1 − θ)s + θŝ (ŝ the time averages of a simulated cavity queue) missed:
 * nothing in it tied s₁ to ρ. Only its fixed points with throughput λ have s₁ = ρ; its iterates do not conserve work,
 * the mass direction is nearly neutral at high load (slowest eigenvalue of the exact map 0.98 at d = 2, λ = 0.99,
 * exponential sizes, so 0.99 per damped step), and once the cavity queue sits above the levels where λa_k exceeds
 * its completion rate (SRPT started from the FIFO tail at λ = 0.99: ŝ₁ = 1.00000 from the first run) it never idles
 * again, while the truncated table (a_k = 0 past the last level) makes the overloaded queue look stationary. The
 * iteration settled on s₁ = s₂ = s₃ = 1, a spurious fixed point of the truncated map, and its stop rule ("the change
 * is within noise") was met by the slow mode far from the fixed point.
 *
 * Here every iterate has s₁ = ρ: the busy-period tail ŝ_k = ρ·(time with ≥ k jobs)/(busy time) replaces the time
 * averages (the idle periods, the only place a_0 acts, are exponential and carry no other information). Its fixed
 * points are the cavity fixed points (at ŝ = s the throughput is λ(s_0^d − s_∞^d) = λ, so the busy fraction is ρ).
 * With the table truncated and noisy, the iteration can still settle on a spurious point at high load (FIFO erlang:2,
 * λ = 0.99: runs busy 0.996 of the time, E[T] 5.20 against 4.225): the busyFraction check catches it and refuses.
 * The iteration is damped and Anderson-accelerated (the slowest mode is 0.73 at λ = 0.9, 0.96 at λ = 0.99 for
 * exponential sizes), independent restarts give the CI, and the answer is checked before it is returned.
 * An ansatz (asymptotic independence is proved only for FIFO with decreasing-hazard sizes): method 'cavity'.
 *
 * By default each restart first iterates on the level completion rates instead (levelBalance.ts): a run at s gives
 * μ_k, the exact level-crossing balance gives the next s (s₁ = ρ, μ scaled by c*). That map has no slow mode (FIFO
 * erlang:2 and SRPT exponential at λ = 0.99 settle in about 8 runs), but is unstable for high-variability FIFO
 * (hyperexp:4, weibull:0.5); when c* stays more than 20 % from 1 at the full horizon the restart falls back to the
 * busy-tail iteration above. `convergence.iterationKind` says which one each restart finished with.
 */
import { ConvergenceError, InvalidModelError } from '../../errors.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { predictionModel } from '../../model/prediction/index.ts';
import { serviceDistribution } from '../../model/service/index.ts';
import { AndersonMixer } from '../../numerics/anderson.ts';
import { feasible, tInterval, type Estimate } from '../../stats/tInterval.ts';
import { Rng, streamSeed } from '../../stats/rng.ts';
import { VERSION, codeId } from '../../version.ts';
import { arrivalFactor } from '../phaseType/drift.ts';
import { phaseTypeJsqFixedPoint } from '../phaseType/fixedPoint.ts';
import { sqdClosedFormTail, sqdTruncationLevel } from '../sqd.ts';
import { checkRhoD, requireBaseModel } from '../support.ts';
import { memoryNotHere, modelHasMemory } from '../../model/memory.ts';
import { requirePoissonLimit } from '../../model/arrivals.ts';
import { runCavityQueue, type AcceptanceRule } from './cavityQueue.ts';
import { binnedCompletionRates, shootLevelBalance } from './levelBalance.ts';
import { checkRunOptions } from './options.ts';
import type { ResponseTimeSample } from './responseSample.ts';

/** Completions per bin of levels for the level-balance rates (relative SE ≤ 1/√200 ≈ 7 % per bin). */
const BALANCE_MIN_COUNT = 200;
/** |c* − 1| beyond which a balance step at the full horizon counts as unsettled; two such steps switch to the busy tail. */
const BALANCE_SCALE_LIMIT = 0.2;
const BALANCE_SETTLE = 3;

export interface JsqCavityOptions {
  /** Master seed (default 1); restart r, run m uses streamSeed(seed, 10⁴·r + m). */
  seed?: number;
  /** Independent restarts (different streams), integer ≥ 2 (default 4); their spread is the CI. */
  restarts?: number;
  /** Cap on the iterations of one restart before its averaging runs (default 40; 100 for FIFO with SCV > 1). */
  maxIterations?: number;
  /** T_1, measured time of the first run of a restart, model time units (default 2,000). */
  initialHorizon?: number;
  /** T_{m+1} = growth·T_m, capped at iterationHorizon (default 2). */
  growth?: number;
  /** Cap on T_m and horizon of the averaging runs (default 10⁵; 5·10⁴(1 + SCV) for FIFO with SCV > 1). */
  iterationHorizon?: number;
  /** Runs at iterationHorizon after convergence whose time averages are pooled into the tail (default 4, ≥ 1). */
  averagingIterations?: number;
  /** Damping θ of the step s ← s + θ(ŝ − s) before Anderson mixing (default 0.5). */
  theta?: number;
  /** Batches per run for the standard errors of ŝ_k (default 10). */
  batches?: number;
  /** The fixed point is reached when |ŝ_k − s_k| ≤ noiseFactor·SE_k + 1e−5 for every k (default 3). */
  noiseFactor?: number;
  /** Iterate on the level completion rates (levelBalance.ts) first, falling back per restart to the busy-tail iteration
   * when they do not settle (default true); false: busy-tail iteration only. */
  levelBalance?: boolean;
  /** Relative tolerance of the FIFO self-check against the phase-type ODE (default 0.005). */
  phaseTypeTolerance?: number;
  /** Called after every cavity run with the fraction of the solve done (`cavityFraction`: an estimate, for progress). */
  onProgress?: (fraction: number) => void;
}

/** One check made before the result is returned; a failed check throws instead. */
export interface CavityCheck {
  value: number;
  bound: number;
  passed: boolean;
}

export interface JsqCavityConvergence {
  /** Every restart reached the fixed point within noise and every check passed (else jsqCavity throws). */
  converged: boolean;
  /** Cavity runs over all restarts (iterations and averaging runs). */
  iterations: number;
  /** Iterations of each restart before its averaging runs (a fallback's count includes the balance steps before it). */
  iterationsPerRestart: number[];
  /** Iteration each restart finished with: on the level completion rates, or on the busy-period tail. */
  iterationKind: ('level balance' | 'busy tail')[];
  /** max over restarts of max_k |ŝ_k − s_k| at the iteration that met the stop rule. */
  residual: number;
  restarts: number;
  /** E[T] = Σs_k/λ of each restart (model time units); their t-interval is the reported CI. */
  restartValues: number[];
  checks: {
    /** |s₁ − ρ| ≤ 1e−6 for the reported tail (work conservation). */
    workConservation: CavityCheck;
    /** |busy fraction of the final cavity runs − ρ| within 4 SE + 1e−4: the runs' throughput is λ (mass direction). */
    busyFraction: CavityCheck & { busy: number };
    /** |E[Q] − λE[T]|/E[Q] ≤ 1e−4 for the reported values (Little's law). */
    littleLaw: CavityCheck;
    /** |job-averaged E[T] of the final cavity runs − Σs_k/λ| within 1.5× the combined 95 % half-widths + 1e−3·E[T]. */
    jobResponseTime: CavityCheck & { jobMean: number };
    /** Σ_k s_k over the levels past the highest visited one (extrapolated by s_{k+1} = c·s_k^d), relative to E[Q], ≤ 1e−3. */
    truncation: CavityCheck;
    /** FIFO with phase-type sizes only: |E[T] − ODE|/ODE ≤ phaseTypeTolerance (theory.md §3). */
    phaseType?: CavityCheck & { ode: number };
  };
}

export interface JsqCavityResult {
  /** s_0..s_K of the fixed point (s_0 = 1, s_1 = ρ): busy-period tail of the final runs pooled over all restarts. */
  tail: number[];
  /** E[T] = Σ_{k≥1} s_k/λ (Little's law for the cavity queue), model time units; CI from the restarts. */
  meanResponseTime: Estimate;
  /** E[T/S] of the jobs of the final cavity runs; CI from the restarts. */
  meanSlowdown: Estimate;
  /** Σ_{k≥1} s_k = λ·E[T]. */
  meanQueueLength: number;
  /** μ_k: completions per unit time while k jobs are present in the final runs (index 0 NaN); 1/E[S] for exponential sizes. */
  levelCompletionRates: number[];
  method: 'cavity';
  convergence: JsqCavityConvergence;
  diagnostics: { horizons: number[]; acceptedJobs: number };
  provenance: {
    model: SupermarketModel;
    equation: string;
    source: string;
    version: string;
    /** The code identity (version.ts `codeIdentity`). */
    code: string;
    seed: number;
    options: Required<Omit<JsqCavityOptions, 'seed' | 'onProgress'>>;
  };
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
function integer(name: string, v: number, min: number): number {
  if (!Number.isInteger(v) || v < min || v > 5000)
    throw new InvalidModelError(`jsqCavity ${name} must be an integer in [${min}, 5000], got ${v}`);
  return v;
}

/** Busy-period tail: s_0 = 1, s_k = ρ·(time with ≥ k jobs)/(busy time) for k ≥ 1, so s_1 = ρ exactly (work conservation). */
function busyTail(times: ArrayLike<number>, rho: number): Float64Array {
  let top = times.length - 1;
  while (top > 1 && times[top] === 0) top--;
  const s = new Float64Array(top + 1);
  let acc = 0;
  for (let k = top; k >= 1; k--) {
    acc += times[k];
    s[k] = acc;
  }
  for (let k = 1; k <= top; k++) s[k] = acc > 0 ? (rho * s[k]) / acc : 0;
  s[0] = 1;
  return s;
}

/**
 * Extends a tail past its last well-sampled level (the highest k with s_k ≥ 10⁻³) by s_{k+1} = c·s_k^d, c fitted at
 * that level (the SQ(d) form s_{k+1} = λs_k^d with λ replaced), down to 10⁻¹⁵. Without it a_k = 0 one level above the
 * table caps the cavity queue and the support can grow by only one level per iteration. d = 1: unchanged (a_k ≡ 1).
 */
function extendTail(s: Float64Array, d: number): Float64Array {
  if (d === 1) return s;
  let k0 = s.length - 1;
  while (k0 > 2 && !(s[k0] >= 1e-3)) k0--;
  if (!(s[k0] > 0 && s[k0 - 1] > 0)) return s;
  const c = s[k0] / s[k0 - 1] ** d;
  const out = Array.from(s.subarray(0, k0 + 1));
  for (let k = k0 + 1; k < 10_000; k++) {
    const v = Math.min(out[k - 1], c * out[k - 1] ** d);
    if (!(v >= 1e-15)) break;
    out.push(v);
  }
  return Float64Array.from(out);
}

/**
 * One damped Anderson step (depth 5) on s_2..s_{L+1} (s_0 = 1, s_1 = ρ held): residual θ(ŝ − s), then projected onto
 * 0 ≤ s_{k+1} ≤ s_k (a projected step resets the mixer's history). Source: Walker & Ni, SIAM J. Numer. Anal. 49(4), 2011.
 */
function andersonStep(mixer: AndersonMixer, s: Float64Array, hat: Float64Array, theta: number, rho: number): Float64Array {
  const L = mixer.length;
  const x = new Float64Array(L);
  const g = new Float64Array(L);
  for (let i = 0; i < L; i++) {
    x[i] = s[i + 2] ?? 0;
    g[i] = theta * ((hat[i + 2] ?? 0) - x[i]);
  }
  const next = new Float64Array(L);
  mixer.next(x, g, next);
  const out = new Float64Array(L + 2);
  out[0] = 1;
  out[1] = rho;
  let projected = false;
  for (let i = 0; i < L; i++) {
    let v = next[i];
    if (!(v >= 0)) {
      v = 0;
      projected = true;
    }
    if (v > out[i + 1]) {
      v = out[i + 1];
      projected = true;
    }
    out[i + 2] = v;
  }
  if (projected) mixer.reset();
  return out;
}

const addInto = (acc: Float64Array, v: ArrayLike<number>): Float64Array => {
  const out =
    acc.length >= v.length
      ? acc
      : (() => {
          const g = new Float64Array(v.length);
          g.set(acc);
          return g;
        })();
  for (let k = 0; k < v.length; k++) out[k] += v[k];
  return out;
};

/** Element-wise mean of tails of different lengths (missing levels count 0): again a non-increasing tail with s_1 = ρ. */
function meanTail(tails: Float64Array[]): Float64Array {
  let sum: Float64Array = new Float64Array(0);
  for (const t of tails) sum = addInto(sum, t);
  return sum.map((v) => v / tails.length);
}

/** max_k |ŝ_k − s_k| and whether every difference is within noiseFactor·SE_k + 1e−5 (SE from the batches' tails). */
function fixedPointResidual(hat: Float64Array, s: Float64Array, samples: Float64Array[], noiseFactor: number) {
  const K = Math.max(hat.length, s.length);
  const B = samples.length;
  let residual = 0;
  let within = true;
  for (let k = 1; k < K; k++) {
    const h = k < hat.length ? hat[k] : 0;
    const sk = k < s.length ? s[k] : 0;
    let mean = 0;
    for (const b of samples) mean += (k < b.length ? b[k] : 0) / B;
    let ss = 0;
    for (const b of samples) ss += ((k < b.length ? b[k] : 0) - mean) ** 2;
    const se = Math.sqrt(ss / (B - 1) / B);
    const diff = Math.abs(h - sk);
    residual = Math.max(residual, diff);
    if (diff > noiseFactor * se + 1e-5) within = false;
  }
  return { residual, within };
}

/**
 * Fraction of a cavity solve done, for progress, in simulated time (the runs' cost): the finished restarts, `done` of
 * the current one, against an estimate of the whole. The current restart needs at least `least` more; each later one
 * is taken to cost what the finished ones did on average (before the first finishes: what the current one needs at
 * least), so the estimate is a lower bound until a restart has finished and close to the truth after.
 * @param finished cost of each finished restart. @param restarts all restarts. @returns a number in [0, 1].
 */
export function cavityFraction(finished: readonly number[], done: number, least: number, restarts: number): number {
  if (finished.length >= restarts) return 1;
  const spent = finished.reduce((a, c) => a + c, 0);
  const current = finished.length > 0 ? Math.max(spent / finished.length, done + least) : done + least;
  const later = Math.max(0, restarts - finished.length - 1);
  const total = spent + current + later * (finished.length > 0 ? spent / finished.length : current);
  return total > 0 ? Math.min(1, (spent + done) / total) : 1;
}

/**
 * The least simulated time a cavity restart still needs from a next run of horizon T: its ramp T, growth·T, … below the
 * cap H, `atCap` runs at H to meet the stop rule, then the averaging runs; each run adds its warm-up (a tenth of its
 * horizon). For progress (`cavityFraction`; jsqCavity, lpwCavity).
 */
export function leastLeft(T: number, growth: number, H: number, atCap: number, averaging: number): number {
  let ramp = 0;
  for (let t = T; t < H && growth > 1; t = Math.min(H, t * growth)) ramp += t;
  return 1.1 * (ramp + (atCap + averaging) * H);
}

const PHASE_TYPE = new Set(['exponential', 'erlang', 'hyperexponential']);

/**
 * JSQ(d) mean-field tail and response time for any service law and discipline: the cavity fixed point of
 * theory.md §5 [A] with s₁ = ρ held at every step (module comment).
 * Each of `restarts` independent restarts starts from the SQ(d) closed form; run m simulates the cavity queue
 * (potential rate λd thinned by a_k(s)/d) for T_m (warm-up T_m/10, `batches` batches), forms the busy-period tail ŝ,
 * and steps s by damped Anderson mixing; it stops once T_m = iterationHorizon and |ŝ_k − s_k| ≤ noiseFactor·SE_k + 1e−5
 * for all k (SE from the batches). Then `averagingIterations` runs at iterationHorizon are pooled (Polyak–Ruppert).
 * The reported tail pools all restarts' final runs; E[T] = Σs_k/λ, its CI the Student-t interval of the restarts'
 * values (their spread covers the fixed point's and the simulation's noise). Checks before returning: s₁ = ρ (1e−6),
 * the runs' busy fraction = ρ (within noise), Little's law (1e−4), the job-averaged E[T] of the runs against Σs_k/λ,
 * no mass at the top level, and, for FIFO with phase-type sizes, the phase-type ODE of theory.md §3
 * (phaseTypeTolerance). Cost: restarts·(Σ_m T_m + averagingIterations·iterationHorizon) simulated time units.
 * Same seed and options → same numbers.
 * @param model `selection` 'jsq' (or 'random' with d = 1), any discipline, service law and prediction law but 'trace'.
 * @param options see JsqCavityOptions.
 * @param responses when given (one unit per restart), receives the response time of every job of each restart's
 *   averaging runs (the response-time law of meanfield/responseTime.ts).
 * @returns `tail`, `meanResponseTime`, `meanSlowdown` (Estimates, time units), `meanQueueLength`,
 *   `levelCompletionRates`, `convergence` (converged, iterations, residual, restarts, checks), `provenance`.
 * @throws {InvalidModelError} on another selection, 'trace' predictions or bad options.
 * @throws {UnstableModelError} if ρ ∉ (0, 1).
 * @throws {ConvergenceError} (one line) if a restart does not reach the fixed point within maxIterations or a check fails.
 * @example jsqCavity(parseModel({ lambda: 0.9, d: 2 })).meanResponseTime.mean // ≈ 2.6141 (closed form, theory.md §10)
 */
export function jsqCavity(model: SupermarketModel, options: JsqCavityOptions = {}, responses?: ResponseTimeSample): JsqCavityResult {
  if (model.selection !== 'jsq' && !(model.selection === 'random' && model.d === 1)) {
    throw new InvalidModelError(`jsqCavity needs selection "jsq", got ${JSON.stringify(model.selection)} (use lwlCavity for "lwl")`);
  }
  if (modelHasMemory(model)) throw memoryNotHere(model);
  requirePoissonLimit(model);
  requireBaseModel(model, 'jsqCavity');
  if (model.prediction.kind === 'trace') {
    throw new InvalidModelError('jsqCavity needs a prediction law given the size; "trace" predictions are per-job columns');
  }
  const service = serviceDistribution(model.service);
  const prediction = predictionModel(model.prediction);
  const lambda = model.lambda;
  const rho = lambda * service.mean;
  const d = model.d;
  checkRhoD(rho, d);
  const seed = options.seed ?? 1;
  const restarts = integer('restarts', options.restarts ?? 4, 2);
  // FIFO with sizes more variable than exponential mixes slowly: the horizon follows theory.md §8's job rule
  // (10⁵(1 + SCV) jobs, halved) and the busy-tail fallback gets more steps. Without it Weibull ½ (SCV 5) at λ = 0.95
  // did not settle in 40 steps and log-normal σ = 1.5 (SCV 8.5) at λ = 0.9 ran 0.4 % under ρ busy (E[T] 5.05; with
  // the longer horizon 5.19 ± 0.05 against 5.15 ± 0.20 at n = 1000).
  const variable = model.discipline === 'fifo' && service.scv > 1;
  const maxIterations = integer('maxIterations', options.maxIterations ?? (variable ? 100 : 40), 1);
  const averagingIterations = integer('averagingIterations', options.averagingIterations ?? 4, 1);
  const initialHorizon = positive('initialHorizon', options.initialHorizon ?? 2000);
  const growth = options.growth ?? 2;
  if (!(growth >= 1 && Number.isFinite(growth))) throw new InvalidModelError(`jsqCavity growth must be a finite number ≥ 1, got ${growth}`);
  // infinite variance (E[T] = ∞ in the limit, only the law is asked for): the job rule has no finite value; the horizon
  // of SCV 9, where the body of the law the quantiles read has settled
  const iterationHorizon = positive(
    'iterationHorizon',
    options.iterationHorizon ?? (variable ? 5e4 * (1 + Math.min(service.scv, 9)) : 1e5),
  );
  const theta = positive('theta', options.theta ?? 0.5, 1);
  const noiseFactor = positive('noiseFactor', options.noiseFactor ?? 3);
  const levelBalance = options.levelBalance ?? true;
  const phaseTypeTolerance = positive('phaseTypeTolerance', options.phaseTypeTolerance ?? 0.005);
  const batches = checkRunOptions(iterationHorizon, 0, options.batches ?? 10, seed).batches;

  const common = {
    discipline: model.discipline,
    conventions: model.conventions,
    service,
    prediction,
    potentialRate: lambda * d,
    levels: true,
    batches,
  };
  const horizons: number[] = [];
  let acceptedJobs = 0;
  /** One cavity run of measured time `horizon` (warm-up horizon/10) with acceptance a_k(s)/d. */
  const run = (s: Float64Array, horizon: number, stream: number, onResponse?: (T: number) => void) => {
    const out = runCavityQueue({
      ...common,
      acceptance: new LevelAcceptance(s, d),
      warmup: horizon / 10,
      horizon,
      rng: new Rng(streamSeed(seed, stream)),
      onResponse,
    });
    horizons.push(horizon);
    acceptedJobs += out.acceptedJobs;
    let levelTime: Float64Array = new Float64Array(0);
    for (const row of out.levelTime) levelTime = addInto(levelTime, row);
    const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0);
    return {
      levelTime,
      batchTails: out.levelTime.map((row) => busyTail(row, rho)),
      completions: out.levelCompletions,
      responseSum: sum(out.responseSum),
      slowdownSum: sum(out.slowdownSum),
      completed: sum(out.completed),
    };
  };

  /** Length of the mixed vector s_2..s_{L+1}; grows (with a fresh mixer) when a run visits higher levels. */
  let L = Math.max(32, sqdTruncationLevel(rho, d, 1e-15) + 8);
  const modes: ('level balance' | 'busy tail')[] = [];
  const perRestart: {
    tail: Float64Array;
    iterations: number;
    converged: boolean;
    residual: number;
    times: Float64Array;
    completions: Float64Array;
    runBusy: number[];
    responseSum: number;
    slowdownSum: number;
    completed: number;
    value: number;
  }[] = [];
  /** Tail from the level balance of a run's time and completions per level (null if the rates are unusable). */
  const balanceTarget = (times: ArrayLike<number>, completions: ArrayLike<number>) => {
    const mu = binnedCompletionRates(times, completions, BALANCE_MIN_COUNT);
    return mu ? shootLevelBalance(lambda, rho, d, mu) : null;
  };
  // progress: simulated time (with warm-ups) of the finished restarts and of the current one
  const onProgress = options.onProgress;
  const finishedCost: number[] = [];
  let restartCost = 0;
  const progress = (least: number) => onProgress?.(cavityFraction(finishedCost, restartCost, least, restarts));
  for (let r = 0; r < restarts; r++) {
    let stream = 10_000 * r;
    restartCost = 0;
    let s: Float64Array = Float64Array.from(sqdClosedFormTail(rho, d, L + 1));
    let mixer = new AndersonMixer(L, 5);
    let T = Math.min(initialHorizon, iterationHorizon);
    let iterations = 0;
    let converged = false;
    let residual = NaN;
    let mode: 'level balance' | 'busy tail' = levelBalance ? 'level balance' : 'busy tail';
    let unstable = 0;
    let settled = 0;
    while (iterations < maxIterations) {
      iterations++;
      const c = run(s, T, ++stream);
      restartCost += 1.1 * T;
      const hat = busyTail(c.levelTime, rho);
      // The balance step carries its own run's noise into s, so ŝ − s has about twice the variance of ŝ.
      const check = fixedPointResidual(hat, s, c.batchTails, mode === 'level balance' ? noiseFactor * Math.SQRT2 : noiseFactor);
      residual = check.residual;
      if (check.within && T >= iterationHorizon) {
        converged = true;
        break;
      }
      if (mode === 'level balance') {
        const b = balanceTarget(c.levelTime, c.completions);
        // The balance step has no slow mode: after BALANCE_SETTLE steps at the full horizon with c* within 5 % of 1 the
        // iterate is at the fixed point up to the runs' noise (the batch SEs understate it at λ → 1); the averaging runs
        // and the checks below then judge it.
        settled = T >= iterationHorizon && b !== null && Math.abs(b.scale - 1) <= 0.05 ? settled + 1 : 0;
        if (settled >= BALANCE_SETTLE) {
          converged = true;
          break;
        }
        if (T >= iterationHorizon && !(b && Math.abs(b.scale - 1) <= BALANCE_SCALE_LIMIT)) unstable++;
        if (b && unstable < 2) {
          s = b.tail;
          T = Math.min(iterationHorizon, T * growth);
          progress(leastLeft(T, growth, iterationHorizon, BALANCE_SETTLE - settled, averagingIterations));
          continue;
        }
        // The rates do not settle (c* far from 1 twice): restart this restart with the busy-tail iteration.
        mode = 'busy tail';
        s = Float64Array.from(sqdClosedFormTail(rho, d, L + 1));
        mixer = new AndersonMixer(L, 5);
        T = Math.min(initialHorizon, iterationHorizon);
        progress(leastLeft(T, growth, iterationHorizon, 1, averagingIterations));
        continue;
      }
      const target = extendTail(hat, d);
      if (target.length > L) {
        L = 2 * target.length;
        mixer = new AndersonMixer(L, 5);
      }
      s = andersonStep(mixer, s, target, theta, rho);
      T = Math.min(iterationHorizon, T * growth);
      progress(leastLeft(T, growth, iterationHorizon, 1, averagingIterations));
    }
    // Averaging (Polyak–Ruppert): pool the time averages (and level completions) of further runs at the iteration horizon.
    let times: Float64Array = new Float64Array(0);
    let completions: Float64Array = new Float64Array(0);
    const runBusy: number[] = [];
    let responseSum = 0,
      slowdownSum = 0,
      completed = 0;
    for (let a = 0; a < averagingIterations && converged; a++) {
      const c = run(s, iterationHorizon, ++stream, responses && ((T) => responses.push(r, T)));
      restartCost += 1.1 * iterationHorizon;
      progress(1.1 * (averagingIterations - a - 1) * iterationHorizon);
      times = addInto(times, c.levelTime);
      completions = addInto(completions, c.completions);
      runBusy.push(1 - c.levelTime[0] / c.levelTime.reduce((x, y) => x + y, 0));
      responseSum += c.responseSum;
      slowdownSum += c.slowdownSum;
      completed += c.completed;
      s = (mode === 'level balance' ? balanceTarget(times, completions)?.tail : undefined) ?? extendTail(busyTail(times, rho), d);
    }
    modes.push(mode);
    finishedCost.push(restartCost);
    restartCost = 0;
    let q = 0;
    for (let k = 1; k < s.length; k++) q += s[k];
    perRestart.push({
      tail: s,
      iterations,
      converged,
      residual,
      times,
      completions,
      runBusy,
      responseSum,
      slowdownSum,
      completed,
      value: q / lambda,
    });
    if (!converged) {
      throw new ConvergenceError(
        `jsqCavity: restart ${r + 1} of ${restarts} did not reach the cavity fixed point within ${maxIterations} iterations: no estimate; simulate the model instead (library callers can raise jsqCavity's options maxIterations, iterationHorizon)`,
        residual,
        iterations,
      );
    }
  }
  onProgress?.(1);
  const totalIterations = perRestart.reduce((a, p) => a + p.iterations + averagingIterations, 0);

  // Pool all restarts' final runs into one tail.
  let times: Float64Array = new Float64Array(0);
  let completions: Float64Array = new Float64Array(0);
  for (const p of perRestart) {
    times = addInto(times, p.times);
    completions = addInto(completions, p.completions);
  }
  const visited = busyTail(times, rho);
  // The pooled tail is the mean of the restarts' final tails, so E[T] is the mean of restartValues and the CI is
  // centred on it. A level balance on the pooled rates is not: with 4× the completions its bins resolve the top
  // levels, where high-variability FIFO (log-normal σ = 1, λ = 0.9) completes slowly while a long job blocks; that
  // rate, continued past the visited levels, drives c* far from 1 and tripled E[T] (8.46 against restarts of 2.82).
  const s = meanTail(perRestart.map((p) => p.tail));
  const tail = Array.from(s);
  let extrapolated = 0;
  for (let k = visited.length; k < s.length; k++) extrapolated += s[k];
  const levelCompletionRates = Array.from(visited, (_, k) => (k === 0 ? NaN : completions[k] / times[k]));
  let meanQueueLength = 0;
  for (let k = tail.length - 1; k >= 1; k--) meanQueueLength += tail[k];
  const meanT = meanQueueLength / lambda;
  const spread = tInterval(perRestart.map((p) => p.value));
  const meanResponseTime: Estimate = {
    mean: meanT,
    ci95: [Math.max(0, meanT - spread.halfWidth), meanT + spread.halfWidth], // E[T] ≥ 0: the interval stays feasible
    halfWidth: spread.halfWidth,
    replications: restarts,
  };
  const meanSlowdown = feasible(tInterval(perRestart.map((p) => p.slowdownSum / p.completed)), 1);
  const jobs = tInterval(perRestart.map((p) => p.responseSum / p.completed));
  const busy = tInterval(perRestart.flatMap((p) => p.runBusy));

  const check = (value: number, bound: number): CavityCheck => ({ value, bound, passed: value <= bound });
  const checks: JsqCavityConvergence['checks'] = {
    workConservation: check(Math.abs(s[1] - rho), 1e-6),
    busyFraction: { ...check(Math.abs(busy.mean - rho), 2 * busy.halfWidth + 1e-4), busy: busy.mean },
    littleLaw: check(Math.abs(meanQueueLength - lambda * meanT) / meanQueueLength, 1e-4),
    jobResponseTime: {
      ...check(Math.abs(jobs.mean - meanT), 1.5 * Math.hypot(jobs.halfWidth, spread.halfWidth) + 1e-3 * meanT),
      jobMean: jobs.mean,
    },
    truncation: check(extrapolated / meanQueueLength, 1e-3),
  };
  if (model.discipline === 'fifo' && PHASE_TYPE.has(model.service.kind) && d >= 2) {
    const ode = phaseTypeJsqFixedPoint(model).meanResponseTime;
    checks.phaseType = { ...check(Math.abs(meanT - ode) / ode, phaseTypeTolerance), ode };
  }
  const residual = Math.max(...perRestart.map((p) => p.residual));
  const bad = Object.entries(checks).find(([, c]) => !c.passed);
  if (bad) {
    throw new ConvergenceError(
      `jsqCavity: check ${bad[0]} failed (${bad[1].value.toPrecision(4)} > bound ${bad[1].bound.toPrecision(4)}); E[T] = ${meanT.toPrecision(6)} is not reported`,
      residual,
      totalIterations,
    );
  }
  return {
    tail,
    meanResponseTime,
    meanSlowdown,
    meanQueueLength,
    levelCompletionRates,
    method: 'cavity',
    convergence: {
      converged: true,
      iterations: totalIterations,
      iterationsPerRestart: perRestart.map((p) => p.iterations),
      iterationKind: modes,
      residual,
      restarts,
      restartValues: perRestart.map((p) => p.value),
      checks,
    },
    diagnostics: { horizons, acceptedJobs },
    provenance: {
      model,
      equation:
        'cavity queue with arrival rate λ*a_k at k jobs, a_k = (s_k^d - s_{k+1}^d)/(s_k - s_{k+1}); ŝ_k = ρ*(time with >= k jobs)/(busy time); s <- Anderson(s + theta*(ŝ - s))',
      source:
        'theory.md §5 [A] (JSQ(d) cavity), §3 (a_k); Bramson, Lu, Prabhakar, Queueing Systems 71(3), 2012; Walker & Ni 2011 (Anderson)',
      version: VERSION,
      code: codeId(),
      seed,
      options: {
        restarts,
        maxIterations,
        initialHorizon,
        growth,
        iterationHorizon,
        averagingIterations,
        theta,
        batches,
        noiseFactor,
        levelBalance,
        phaseTypeTolerance,
      },
    },
  };
}
