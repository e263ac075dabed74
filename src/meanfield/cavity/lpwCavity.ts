/**
 * Cavity fixed point for LPW(d) under any priority discipline (theory.md §5 [A]): the tagged server's state for
 * selection is its predicted work P = Σ v(Y_j, a_j) under the model's `lpwWork` convention ('clip' (Y − a)^+,
 * 'signed' Y − a, 'static' Y; 0 when idle — the simulator's lpwWork, sim/selection/leastWork.ts). A potential arrival
 * (rate λd) joins it with the probability that it holds the least predicted work among d servers drawn from the
 * equilibrium law of P: P̄(p)^{d−1} at a value p without an atom, and (P(P ≥ 0)^d − P(P > 0)^d)/(dπ₀) on the atom
 * P = 0 of mass π₀ (idle servers, and under 'clip' busy servers whose jobs have all overrun their predictions) — ties
 * split uniformly, as the simulator splits them. With exact predictions under 'clip' or 'signed', P is the workload
 * and this is the LWL(d) cavity of lwlCavity.ts.
 *
 * The law of P is unknown, so it is iterated: run the cavity queue with the acceptance of the current law, sample P
 * at the potential arrivals (Poisson, so time-stationary by PASTA), and replace or mix the law with the sampled one;
 * the idle mass of every iterate is held at 1 − ρ (work conservation, as in jsqCavity). One server per restart is
 * carried from run to run (a warm start: an empty start in every run biased each sampled law light). The slow
 * direction of this map is the tail of the law, which grows by about a job per iteration (a server is seldom sent
 * work beyond its competitors' tail), so a restart first runs a transport phase — short undamped runs
 * (initialHorizon) until the law's mean shows no trend over TREND_WINDOW runs — then doubles its horizon to
 * `iterationHorizon` and mixes by θ; it has converged when, after at least MIN_AT_CAP runs at the cap, the sampled law
 * lies within noiseFactor·√2·SE + 2·10⁻³ of the current one at every grid value and the atom, and the busy fraction
 * of the last MIN_AT_CAP runs is ρ within 2 SE + 5·10⁻⁴ (it is monotone along the slow direction). The final runs use
 * the mean of those runs' sampled laws (Polyak averaging); `averagingIterations` further runs are pooled for E[T];
 * independent restarts give the CI, widened at ρ > 0.95 by `highLoadAllowance`. Checks before returning: the runs'
 * throughput is λ (E[acceptance] = 1/d), their busy fraction is ρ (within noise + 0.5 %), and Little's law holds in
 * the cavity queue at its own throughput. E[Q] is reported as λE[T], Little's law of the limit (the queue's own time
 * average misses it by the throughput's residual noise, 0.2 % at λ = 0.9).
 * An ansatz (asymptotic independence is not proved for LPW): method 'cavity', kind 'estimate'.
 * Measured (scripts/lpw-cavity-check.ts, d = 2): exact predictions reproduce LWL(2) within the CI at λ = 0.9, 0.95,
 * 0.99 under FIFO and SRPT (gaps 0.2–1.2 %); with noisy predictions under SPRPT the gap to n = 1000 simulation is
 * −0.7 to +0.6 % at λ = 0.9 and −2 to +0.4 % at 0.95 (inside the CIs; before the warm start and transport phase it
 * was −3.3 % and −5.6 % with the busy fraction 0.4–0.8 % below ρ), and −2 to −7 % at 0.99 (hence the allowance).
 */
import { ConvergenceError, InvalidModelError } from '../../errors.ts';
import type { Conventions, SupermarketModel } from '../../model/model.ts';
import { predictionModel } from '../../model/prediction/index.ts';
import { serviceDistribution } from '../../model/service/index.ts';
import { feasible, tInterval, type Estimate } from '../../stats/tInterval.ts';
import { Rng, streamSeed } from '../../stats/rng.ts';
import { VERSION, codeId } from '../../version.ts';
import { checkRhoD, requireBaseModel } from '../support.ts';
import { memoryNotHere, modelHasMemory } from '../../model/memory.ts';
import { requirePoissonLimit } from '../../model/arrivals.ts';
import { runCavityQueue, type AcceptanceRule } from './cavityQueue.ts';
import type { ResponseTimeSample } from './responseSample.ts';
import { cavityFraction, leastLeft, type CavityCheck } from './jsqCavity.ts';
import { CavityScheduler } from './scheduler.ts';
import type { CavityServer } from './cavityQueue.ts';

/** Iterations at iterationHorizon before a restart may stop: the mass direction is slow (module comment). */
const MIN_AT_CAP = 4;
/** Grid intervals of the predicted-work ccdf. */
const GRID = 1000;
/** Transport phase: iterations over which the law's mean must show no trend before the horizon grows. */
const TREND_WINDOW = 10;

/**
 * Relative allowance added to the restarts' half-width at high load: 0 up to ρ = 0.95, rising linearly to 0.08 at
 * ρ = 0.99 and on beyond (unmeasured above 0.99). Measured (scripts/lpw-cavity-check.ts, d = 2, SPRPT, n = 1000,
 * exp/uniform/lognormal predictions, exponential and Weibull ½ sizes): gaps to simulation −0.7 to +0.6 % at λ = 0.9,
 * −2 to +0.4 % at 0.95 (inside the restarts' CI), −2 to −7.2 % at 0.99 (inside the simulations' ±2–8 % CIs), where the law of predicted work travels 50–150 iterations from its start and
 * the restarts' spread (±0.5–1.3 %) did not cover the gap.
 */
export function highLoadAllowance(rho: number): number {
  return rho <= 0.95 ? 0 : (0.08 * (rho - 0.95)) / 0.04;
}

/** Whether the least-squares slope of `ys` against their index is nonzero by more than one standard error. */
function trending(ys: number[]): boolean {
  const n = ys.length;
  const xm = (n - 1) / 2;
  const ym = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (i - xm) ** 2;
    sxy += (i - xm) * (ys[i] - ym);
  }
  const slope = sxy / sxx;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (ys[i] - ym - slope * (i - xm)) ** 2;
  const se = Math.sqrt(sse / (n - 2) / sxx);
  return Math.abs(slope) > se;
}

export interface LpwCavityOptions {
  /** Master seed (default 1); restart r, run m uses streamSeed(seed, 10⁴·r + m). */
  seed?: number;
  /** Independent restarts, integer in [2, 100] (default 6); their spread is the CI. */
  restarts?: number;
  /** Cap on the iterations of one restart (transport phase included) before its averaging runs (default 150). */
  maxIterations?: number;
  /** Measured time of a restart's first run, model time units (default 2,000); doubled each run up to iterationHorizon. */
  initialHorizon?: number;
  /** Cap on the run horizon, and horizon of the averaging runs (default 2·10⁴). */
  iterationHorizon?: number;
  /** Runs at iterationHorizon after convergence, on the converged law held fixed, pooled into E[T] (default 4, ≥ 1). */
  averagingIterations?: number;
  /** Damping θ ∈ (0, 1] of law ← (1 − θ)law + θ·sampled (default 0.5). */
  theta?: number;
  /** Batches per run for the standard errors (default 10). */
  batches?: number;
  /** Converged when |sampled − law| ≤ noiseFactor·√2·SE + 2e−3 at every grid point and on the atom (default 3; √2 as the law is itself a noisy sample). */
  noiseFactor?: number;
  /** Called after every cavity run with the fraction of the solve done (`cavityFraction`: an estimate, for progress). */
  onProgress?: (fraction: number) => void;
}

export interface LpwCavityConvergence {
  /** Every restart reached the fixed point within noise and every check passed (else lpwCavity throws). */
  converged: boolean;
  /** Cavity runs over all restarts (iterations and averaging runs). */
  iterations: number;
  iterationsPerRestart: number[];
  /** max over restarts of max |sampled ccdf − law| (grid and atom) at the iteration that met the stop rule. */
  residual: number;
  restarts: number;
  /** E[T] of each restart (model time units); their t-interval, widened by `allowance`·E[T], is the reported CI. */
  restartValues: number[];
  /** Relative allowance added to the half-width at high load (`highLoadAllowance(ρ)`; 0 up to ρ = 0.95). */
  allowance: number;
  checks: {
    /** |throughput of the final runs − λ|/λ within max(4 SE of the batches, 2 × the restarts' 95 % half-width)/λ + 5e−3 (the law's residual noise): the law is a fixed point (E[acceptance] = 1/d). */
    throughput: CavityCheck & { throughput: number };
    /** |busy fraction of the final runs − ρ| within max(4 SE of the batches, 2 × the restarts' 95 % half-width) + 5e−3. */
    busyFraction: CavityCheck & { busy: number };
    /** |E[Q] − throughput·E[T]|/E[Q] ≤ 0.01 for the final runs (Little's law in the cavity queue, at its own throughput). */
    littleLaw: CavityCheck;
  };
  /**
   * The final runs' time-average jobs per server: the cavity queue's own E[Q], at its sampled throughput (within the
   * throughput check of λ, not λ itself: λ = 0.9, d = 2, uniform:0 predictions, seed 1: throughput 0.89805, 1.836702
   * against λE[T] = 1.840811). Diagnostic only; `meanQueueLength` is λE[T].
   */
  cavityQueueLength: number;
}

export interface LpwCavityResult {
  /** E[T], model time units; CI from the restarts. */
  meanResponseTime: Estimate;
  /** E[T/S]; CI from the restarts. */
  meanSlowdown: Estimate;
  /**
   * E[Q] = λE[T], jobs per server: Little's law of the limit at the model's rate λ. (The cavity queue's own time
   * average runs at its sampled throughput, which misses λ by the law's residual noise: `convergence.cavityQueueLength`.)
   */
  meanQueueLength: number;
  /** The fixed point's law of predicted work: atom π₀ = P(P = 0) and P(P > p) on a grid (time units). */
  predictedWork: { atom: number; points: number[]; ccdf: number[]; mean: number };
  method: 'cavity';
  convergence: LpwCavityConvergence;
  provenance: {
    model: SupermarketModel;
    equation: string;
    source: string;
    version: string;
    /** The code identity (version.ts `codeIdentity`). */
    code: string;
    seed: number;
    options: Required<Omit<LpwCavityOptions, 'seed' | 'onProgress'>>;
  };
}

/**
 * A law of predicted work: atom π₀ at P = 0, and the continuous part C(p) = P(P > p, P ≠ 0) tabulated on a uniform
 * grid lo..hi (linear between points, C(lo) below lo, 0 above hi). P(P > p) = C(p) + π₀·1(p < 0).
 */
class PredictedWorkLaw {
  constructor(
    readonly lo: number,
    readonly hi: number,
    readonly atom: number,
    readonly cont: Float64Array,
  ) {}

  get step(): number {
    return (this.hi - this.lo) / GRID;
  }

  /** C(p). */
  continuous(p: number): number {
    if (p <= this.lo) return this.cont[0];
    if (p >= this.hi) return 0;
    const x = (p - this.lo) / this.step;
    const i = Math.min(GRID - 1, Math.floor(x));
    const f = x - i;
    return this.cont[i] * (1 - f) + this.cont[i + 1] * f;
  }

  /** P(P > p). */
  ccdf(p: number): number {
    return this.continuous(p) + (p < 0 ? this.atom : 0);
  }

  /** (1 − θ)·this + θ·other on the union of the ranges. */
  mix(other: PredictedWorkLaw, theta: number): PredictedWorkLaw {
    const lo = Math.min(this.lo, other.lo);
    const hi = Math.max(this.hi, other.hi);
    const cont = new Float64Array(GRID + 1);
    for (let i = 0; i <= GRID; i++) {
      const p = lo + ((hi - lo) * i) / GRID;
      cont[i] = (1 - theta) * this.continuous(p) + theta * other.continuous(p);
    }
    return new PredictedWorkLaw(lo, hi, (1 - theta) * this.atom + theta * other.atom, cont);
  }

  mean(): number {
    // E[P] = ∫_0^∞ P(P > p) dp − ∫_{−∞}^0 P(P ≤ p) dp, trapezoid on the grid
    let m = 0;
    const h = this.step;
    const total = this.cont[0] + this.atom;
    for (let i = 0; i < GRID; i++) {
      const a = this.lo + i * h;
      const b = a + h;
      const fa = this.ccdf(a);
      const fb = this.ccdf(b);
      if (a >= 0) m += ((fa + fb) / 2) * h;
      else if (b <= 0) m -= ((total - fa + total - fb) / 2) * h;
      else {
        m -= (total - fa) * (0 - a);
        m += this.continuous(0) * b;
      }
    }
    return m;
  }
}

/** Start: atom 1 − ρ, continuous part the LWL(d) exponential-size workload tail with the same ρ and E[S]. */
function initialLaw(rho: number, d: number, meanService: number): PredictedWorkLaw {
  const tail = (w: number) =>
    d === 1
      ? rho * Math.exp((-(1 - rho) * w) / meanService)
      : (1 / (rho + (rho ** (1 - d) - rho) * Math.exp(((d - 1) * w) / meanService))) ** (1 / (d - 1));
  let hi = meanService;
  while (tail(hi) > 1e-7 && hi < 1e6) hi *= 1.5;
  const cont = new Float64Array(GRID + 1);
  for (let i = 0; i <= GRID; i++) cont[i] = tail((hi * i) / GRID);
  return new PredictedWorkLaw(0, hi, 1 - rho, cont);
}

/** The acceptance of a law (module comment), and the PASTA sampler of P. */
class LpwAcceptance implements AcceptanceRule {
  private readonly atomAcceptance: number;
  private last = 0;
  values = new Float64Array(1 << 16);
  batchOf = new Uint16Array(1 << 16);
  idle = new Uint8Array(1 << 16);
  count = 0;
  private lastIdle = 0;
  constructor(
    private readonly law: PredictedWorkLaw,
    private readonly d: number,
    private readonly mode: Conventions['lpwWork'],
  ) {
    const c0 = law.continuous(0);
    const pi0 = law.atom;
    this.atomAcceptance = pi0 > 1e-12 ? ((c0 + pi0) ** d - c0 ** d) / (d * pi0) : c0 ** (d - 1);
  }
  probability(_workload: number, _jobs: number, queue: CavityServer): number {
    // LPW with a sharing discipline is refused by validateModel (policy/combination.ts): the server serves one job
    if (!(queue instanceof CavityScheduler)) throw new InvalidModelError('the LPW cavity needs a priority server (one job in service)');
    const p = queue.predictedWork(this.mode);
    this.last = p;
    this.lastIdle = queue.jobs === 0 ? 1 : 0;
    if (p === 0) return this.atomAcceptance;
    return this.d === 1 ? 1 : this.law.ccdf(p) ** (this.d - 1);
  }
  observe(batch: number): void {
    if (this.count === this.values.length) {
      const v = new Float64Array(2 * this.count);
      v.set(this.values);
      this.values = v;
      const b = new Uint16Array(2 * this.count);
      b.set(this.batchOf);
      this.batchOf = b;
      const idle = new Uint8Array(2 * this.count);
      idle.set(this.idle);
      this.idle = idle;
    }
    this.idle[this.count] = this.lastIdle;
    this.values[this.count] = this.last;
    this.batchOf[this.count++] = batch;
  }
}

/**
 * The sampled law of P (pooled) and the largest deviation from `law` measured in SEs of the batch laws:
 * `within` iff every grid value and the atom differ by ≤ noiseFactor·SE + 2e−3.
 * Work conservation is held as in jsqCavity's busy-period tail: the idle mass is set to 1 − ρ and the law of P on
 * busy servers (sampled) carries mass ρ, so every iterate has P(idle) = 1 − ρ (otherwise the mass direction drifts).
 */
function sampledLaw(a: LpwAcceptance, batches: number, law: PredictedWorkLaw, noiseFactor: number, rho: number) {
  const N = a.count;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < N; i++) {
    const v = a.values[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  lo = Math.min(lo, law.lo);
  hi = Math.max(hi, law.hi, 1e-9);
  const h = (hi - lo) / GRID;
  const bins = Array.from({ length: batches }, () => new Float64Array(GRID + 1));
  const atoms = new Float64Array(batches);
  const perBatch = new Float64Array(batches);
  for (let i = 0; i < N; i++) {
    if (a.idle[i]) continue;
    const v = a.values[i];
    const b = a.batchOf[i];
    perBatch[b]++;
    if (v === 0) atoms[b]++;
    else bins[b][Math.min(GRID, Math.max(0, Math.floor((v - lo) / h)))]++;
  }
  // C at grid point j = #(v > g_j, v ≠ 0) ≈ count in bins ≥ j (a value in bin j lies in [g_j, g_{j+1}))
  const ccdfB = bins.map((row, b) => {
    const c = new Float64Array(GRID + 1);
    let acc = 0;
    for (let j = GRID; j >= 0; j--) {
      acc += row[j];
      c[j] = perBatch[b] > 0 ? (rho * acc) / perBatch[b] : 0;
    }
    return c;
  });
  const pooled = new Float64Array(GRID + 1);
  let residual = 0;
  let within = true;
  const compare = (sample: (b: number) => number, pooledValue: number, current: number) => {
    let ss = 0;
    for (let b = 0; b < batches; b++) ss += (sample(b) - pooledValue) ** 2;
    const se = Math.sqrt(ss / (batches - 1) / batches);
    const diff = Math.abs(pooledValue - current);
    residual = Math.max(residual, diff);
    if (diff > noiseFactor * Math.SQRT2 * se + 2e-3) within = false; // √2: the law is itself a noisy sample
  };
  let atomTotal = 0;
  let busyTotal = 0;
  for (let b = 0; b < batches; b++) {
    atomTotal += atoms[b];
    busyTotal += perBatch[b];
  }
  if (!(busyTotal > 0) || perBatch.some((c) => !(c > 0))) {
    throw new ConvergenceError('lpwCavity: a batch saw no busy server at a potential arrival: raise the horizon', NaN, 0);
  }
  const atom = 1 - rho + (rho * atomTotal) / busyTotal;
  compare((b) => 1 - rho + (rho * atoms[b]) / perBatch[b], atom, law.atom);
  for (let j = 0; j <= GRID; j++) {
    let acc = 0;
    for (let b = 0; b < batches; b++) acc += ccdfB[b][j] * perBatch[b];
    pooled[j] = acc / busyTotal;
    compare((b) => ccdfB[b][j], pooled[j], law.continuous(lo + j * h));
  }
  return { law: new PredictedWorkLaw(lo, hi, atom, pooled), residual, within };
}

function checkOption(name: string, v: number, ok: boolean, range: string): number {
  if (!ok) throw new InvalidModelError(`lpwCavity ${name} must be ${range}, got ${v}`);
  return v;
}

/**
 * LPW(d) mean-field response time and slowdown under any priority discipline, service law and prediction law but
 * 'trace', by the cavity fixed point on the law of predicted work (module comment; theory.md §5 [A]).
 * Cost: restarts·(Σ_m T_m + averagingIterations·iterationHorizon) simulated time units. Same seed, same numbers.
 * @param model `selection` 'lpw'. @param options see LpwCavityOptions.
 * @param responses when given (one unit per restart), receives the response time of every job of each restart's
 *   averaging runs (the response-time law of meanfield/responseTime.ts).
 * @returns `meanResponseTime`, `meanSlowdown` (Estimates, time units), `meanQueueLength`, `predictedWork` (the law
 *   at the fixed point), `convergence` (converged, iterations, residual, restart values, checks), `provenance`.
 * @throws {InvalidModelError} on another selection, 'trace' predictions, a non-priority discipline or bad options.
 * @throws {UnstableModelError} if ρ ∉ (0, 1).
 * @throws {ConvergenceError} (one line) if a restart does not converge within maxIterations or a check fails.
 */
export function lpwCavity(model: SupermarketModel, options: LpwCavityOptions = {}, responses?: ResponseTimeSample): LpwCavityResult {
  if (model.selection !== 'lpw') throw new InvalidModelError(`lpwCavity needs selection "lpw", got ${JSON.stringify(model.selection)}`);
  if (modelHasMemory(model)) throw memoryNotHere(model);
  requirePoissonLimit(model);
  requireBaseModel(model, 'lpwCavity');
  if (model.prediction.kind === 'trace') {
    throw new InvalidModelError('lpwCavity needs a prediction law given the size; "trace" predictions are per-job columns');
  }
  const service = serviceDistribution(model.service);
  const rho = model.lambda * service.mean;
  checkRhoD(rho, model.d);
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new InvalidModelError(`lpwCavity seed must be a safe integer, got ${seed}`);
  const restarts = options.restarts ?? 6;
  checkOption('restarts', restarts, Number.isInteger(restarts) && restarts >= 2 && restarts <= 100, 'an integer in [2, 100]');
  const maxIterations = options.maxIterations ?? 150;
  checkOption(
    'maxIterations',
    maxIterations,
    Number.isInteger(maxIterations) && maxIterations >= 1 && maxIterations <= 1000,
    'an integer in [1, 1000]',
  );
  const initialHorizon = options.initialHorizon ?? 2000;
  checkOption('initialHorizon', initialHorizon, initialHorizon > 0 && Number.isFinite(initialHorizon), 'a finite number > 0');
  const iterationHorizon = options.iterationHorizon ?? 2e4;
  checkOption(
    'iterationHorizon',
    iterationHorizon,
    iterationHorizon >= initialHorizon && Number.isFinite(iterationHorizon),
    '≥ initialHorizon and finite',
  );
  const averagingIterations = options.averagingIterations ?? 4;
  checkOption(
    'averagingIterations',
    averagingIterations,
    Number.isInteger(averagingIterations) && averagingIterations >= 1 && averagingIterations <= 100,
    'an integer in [1, 100]',
  );
  const theta = options.theta ?? 0.5;
  checkOption('theta', theta, theta > 0 && theta <= 1, 'in (0, 1]');
  const batches = options.batches ?? 10;
  checkOption('batches', batches, Number.isInteger(batches) && batches >= 2 && batches <= 1000, 'an integer in [2, 1000]');
  const noiseFactor = options.noiseFactor ?? 3;
  checkOption('noiseFactor', noiseFactor, noiseFactor > 0 && Number.isFinite(noiseFactor), 'a finite number > 0');

  const { lambda, d } = model;
  const prediction = predictionModel(model.prediction);
  const mode = model.conventions.lpwWork;
  // one server per restart, carried from run to run (a warm start: no run pays an empty-start transient, which
  // biased every sampled law light — the busy fraction came out below ρ)
  let queue: CavityServer | undefined;
  let clock = 0;
  const run = (law: PredictedWorkLaw, horizon: number, stream: number, onResponse?: (T: number) => void) => {
    const acceptance = new LpwAcceptance(law, d, mode);
    const out = runCavityQueue({
      discipline: model.discipline,
      conventions: model.conventions,
      service,
      prediction,
      potentialRate: lambda * d,
      acceptance,
      warmup: horizon / 10,
      horizon,
      batches,
      rng: new Rng(streamSeed(seed, stream)),
      levels: true,
      queue,
      startTime: clock,
      onResponse,
    });
    queue = out.queue;
    clock = out.endTime;
    restartCost += 1.1 * horizon;
    return { acceptance, out, horizon };
  };
  // progress: simulated time (with warm-ups) of the finished restarts and of the current one (jsqCavity's estimate)
  const onProgress = options.onProgress;
  const finishedCost: number[] = [];
  let restartCost = 0;
  const progress = (least: number) => onProgress?.(cavityFraction(finishedCost, restartCost, least, restarts));

  interface Final {
    responseSum: number;
    slowdownSum: number;
    completed: number[];
    busy: number[];
    jobs: number;
    horizon: number;
  }
  const perRestart: { value: number; slowdown: number; iterations: number; residual: number; law: PredictedWorkLaw; final: Final }[] = [];
  let iterationsTotal = 0;
  for (let r = 0; r < restarts; r++) {
    restartCost = 0;
    let law = initialLaw(rho, d, service.mean);
    queue = undefined;
    clock = 0;
    let horizon = initialHorizon;
    let converged = false;
    let residual = Infinity;
    let m = 0;
    let atCap = 0;
    // phase 1 (transport): short undamped runs while the law's mean still trends. The slow direction of the map is
    // the tail of the law, which grows by about one job per iteration (a server is rarely sent work beyond the
    // competitors' tail); from the LWL start it took ≈ 25 iterations at λ = 0.95 and ≈ 40 at 0.99 (SPRPT, exp
    // predictions), and stopping earlier left E[T] 2–6 % low.
    const means: number[] = [];
    let transport = true;
    const window: { law: PredictedWorkLaw; busy: number[] }[] = [];
    for (; m < maxIterations; m++) {
      const { acceptance, out } = run(law, horizon, 1e4 * r + m);
      const s = sampledLaw(acceptance, batches, law, noiseFactor, rho);
      residual = s.residual;
      if (transport) {
        law = s.law;
        means.push(law.mean());
        if (means.length >= TREND_WINDOW && !trending(means.slice(-TREND_WINDOW))) transport = false;
        progress(leastLeft(horizon, 2, iterationHorizon, MIN_AT_CAP, averagingIterations));
        continue;
      }
      // the slow direction shows in the busy fraction (it is monotone along it, and ρ at the fixed point): over the
      // last MIN_AT_CAP runs at the cap it must be ρ within 2 SE + 5·10⁻⁴ (the exact-prediction case measured E[T]
      // 1.5 % high at λ = 0.95 with a busy fraction 0.952 under the older single-run rule)
      const busyBatches = Array.from({ length: batches }, (_, b) => 1 - (out.levelTime[b][0] * batches) / horizon);
      if (horizon >= iterationHorizon) {
        atCap++;
        window.push({ law: s.law, busy: busyBatches });
        if (window.length > MIN_AT_CAP) window.shift();
      }
      if (atCap >= MIN_AT_CAP && s.within) {
        const busyWindow = tInterval(window.flatMap((w) => w.busy));
        if (Math.abs(busyWindow.mean - rho) <= (2 * busyWindow.halfWidth) / 1.96 + 5e-4) {
          converged = true;
          // Polyak averaging: the final runs use the mean of the window's sampled laws, not the last (noisier) iterate
          law = window[0].law;
          for (let k = 1; k < window.length; k++) law = law.mix(window[k].law, 1 / (k + 1));
          break;
        }
      }
      // undamped below the cap, damped by θ at the cap
      law = law.mix(s.law, horizon >= iterationHorizon ? theta : 1);
      horizon = Math.min(iterationHorizon, 2 * horizon);
      progress(leastLeft(horizon, 2, iterationHorizon, Math.max(1, MIN_AT_CAP - atCap), averagingIterations));
    }
    iterationsTotal += m + 1;
    if (!converged) {
      throw new ConvergenceError(
        `lpwCavity: restart ${r + 1} of ${restarts} did not reach the fixed point of the predicted-work law within ${maxIterations} iterations (residual ${residual.toPrecision(3)}); no E[T] reported`,
        residual,
        iterationsTotal,
      );
    }
    const final: Final = { responseSum: 0, slowdownSum: 0, completed: [], busy: [], jobs: 0, horizon: 0 };
    for (let a = 0; a < averagingIterations; a++) {
      const { out } = run(law, iterationHorizon, 1e4 * r + maxIterations + 1 + a, responses && ((T) => responses.push(r, T)));
      iterationsTotal++;
      const sub = (iterationHorizon / batches) as number;
      for (let b = 0; b < batches; b++) {
        final.responseSum += out.responseSum[b];
        final.slowdownSum += out.slowdownSum[b];
        final.completed.push(out.completed[b]);
        final.busy.push(1 - out.levelTime[b][0] / sub);
        for (let k = 1; k < out.levelTime[b].length; k++) final.jobs += k * out.levelTime[b][k];
      }
      final.horizon += iterationHorizon;
      progress(1.1 * (averagingIterations - a - 1) * iterationHorizon);
    }
    finishedCost.push(restartCost);
    const n = final.completed.reduce((x, y) => x + y, 0);
    if (!(n > 0))
      throw new ConvergenceError('lpwCavity: the final runs completed no jobs: raise iterationHorizon', residual, iterationsTotal);
    perRestart.push({ value: final.responseSum / n, slowdown: final.slowdownSum / n, iterations: m + 1, residual, law, final });
  }
  onProgress?.(1);

  const restartSpread = tInterval(perRestart.map((p) => p.value));
  // at high load the restarts' spread does not hold the remaining transport bias: widen by the measured allowance
  const allowance = highLoadAllowance(rho);
  const widened = restartSpread.halfWidth + allowance * restartSpread.mean;
  const spread = feasible({ ...restartSpread, halfWidth: widened, ci95: [restartSpread.mean - widened, restartSpread.mean + widened] });
  const meanSlowdown = feasible(tInterval(perRestart.map((p) => p.slowdown)), 1);
  const sub = iterationHorizon / batches;
  const thr = tInterval(perRestart.flatMap((p) => p.final.completed.map((c) => c / sub)));
  const busy = tInterval(perRestart.flatMap((p) => p.final.busy));
  const totalTime = perRestart.reduce((a, p) => a + p.final.horizon, 0);
  const cavityQueueLength = perRestart.reduce((a, p) => a + p.final.jobs, 0) / totalTime;
  const completedAll = perRestart.reduce((a, p) => a + p.final.completed.reduce((x, y) => x + y, 0), 0);
  const responseAll = perRestart.reduce((a, p) => a + p.final.responseSum, 0);
  const littleRhs = (completedAll / totalTime) * (responseAll / completedAll);
  // the restarts' spread carries the noise of each restart's law (the batches within a run do not)
  const restartThr = tInterval(perRestart.map((p) => p.final.completed.reduce((x, y) => x + y, 0) / p.final.horizon));
  const restartBusy = tInterval(perRestart.map((p) => p.final.busy.reduce((x, y) => x + y, 0) / p.final.busy.length));
  const check = (value: number, bound: number): CavityCheck => ({ value, bound, passed: value <= bound });
  const checks: LpwCavityConvergence['checks'] = {
    throughput: {
      ...check(Math.abs(thr.mean - lambda) / lambda, Math.max((4 * thr.halfWidth) / 1.96, 2 * restartThr.halfWidth) / lambda + 5e-3),
      throughput: thr.mean,
    },
    busyFraction: {
      ...check(Math.abs(busy.mean - rho), Math.max((4 * busy.halfWidth) / 1.96, 2 * restartBusy.halfWidth) + 5e-3),
      busy: busy.mean,
    },
    littleLaw: check(Math.abs(cavityQueueLength - littleRhs) / cavityQueueLength, 0.01),
  };
  const residual = Math.max(...perRestart.map((p) => p.residual));
  const bad = Object.entries(checks).find(([, c]) => !c.passed);
  if (bad) {
    throw new ConvergenceError(
      `lpwCavity: check ${bad[0]} failed (${bad[1].value.toPrecision(4)} > bound ${bad[1].bound.toPrecision(4)}); E[T] = ${spread.mean.toPrecision(6)} (restarts ${perRestart.map((p) => p.value.toPrecision(4)).join(', ')}) is not reported`,
      residual,
      iterationsTotal,
    );
  }
  // the reported law: the restarts' laws averaged
  let law = perRestart[0].law;
  for (let r = 1; r < perRestart.length; r++) law = law.mix(perRestart[r].law, 1 / (r + 1));
  const points: number[] = [];
  const ccdf: number[] = [];
  for (let i = 0; i <= GRID; i += 10) {
    const p = law.lo + i * law.step;
    points.push(p);
    ccdf.push(law.ccdf(p));
  }
  return {
    meanResponseTime: { ...spread, replications: restarts },
    meanSlowdown,
    // Little's law of the limit: E[Q] and E[T] from one quantity. The cavity queue's time average was the other quantity:
    // it runs at the final runs' throughput (0.2 % below λ at λ = 0.9), so E[Q] ≠ λE[T] by that much
    meanQueueLength: lambda * spread.mean,
    predictedWork: { atom: law.atom, points, ccdf, mean: law.mean() },
    method: 'cavity',
    convergence: {
      converged: true,
      iterations: iterationsTotal,
      iterationsPerRestart: perRestart.map((p) => p.iterations),
      residual,
      restarts,
      restartValues: perRestart.map((p) => p.value),
      allowance,
      checks,
      cavityQueueLength,
    },
    provenance: {
      model,
      equation:
        'cavity queue, potential rate λ*d thinned by P̄(p)^(d-1) at predicted work p != 0 and ((C0+π₀)^d - C0^d)/(d*π₀) on the atom P = 0; law of P <- (1-theta)law + theta*sampled (PASTA)',
      source: 'theory.md §5 [A] (LPW(d) cavity); Bramson, Lu, Prabhakar, Queueing Systems 71(3), 2012',
      version: VERSION,
      code: codeId(),
      seed,
      options: { restarts, maxIterations, initialHorizon, iterationHorizon, averagingIterations, theta, batches, noiseFactor },
    },
  };
}
