/**
 * The cavity with a speed per server class (theory.md §5, §13): heterogeneous servers under any discipline and, for
 * count-based rules, any size law. A class-c cavity queue serves at speed v_c (a job of size S takes S/v_c) and
 * receives the jobs the rule sends to one class-c server in the mean field; the d sampled servers are drawn by the
 * model's sampling law, uniform over servers (p_c = f_c) or speed-weighted (p_c ∝ f_c v_c), as Gardner et al. 2021.
 *
 * A server of speed v in real time is a speed-1 server in work time τ = v·t, so each class runs the identical-server
 * cavity queue (cavityQueue.ts) with its potential rate divided by v_c, and its clocks are divided by v_c after.
 *
 * JSQ(d) (fewest jobs), SED(d) (least (jobs + 1)/speed) and random (d = 1): the per-class occupancy ODE of
 * occupancy.ts with the departure rate μ_c replaced by the measured level completion rates μ_{c,k} (completions
 * leaving k − 1 jobs per unit time at k jobs): the level-crossing balance
 *   a_{c,k−1}(s_{c,k−1} − s_{c,k}) = μ_{c,k}(s_{c,k} − s_{c,k+1})
 * is exact for every discipline and size law; only μ depends on them. Each step solves the ODE's fixed point for μ
 * (so Σ_c f_c·throughput_c = λ holds at every step), simulates each class's cavity queue with arrival rate a_{c,k}
 * at k jobs, and re-estimates μ — the level-balance iteration of jsqCavity (levelBalance.ts) with a class index. FIFO
 * with exponential sizes has μ_{c,k} = μ_c, the ODE's own answer (checked against it to 1 %).
 *
 * LWL(d) (least drain time, work/speed), exponential sizes: the drain-time law of hetero/lwl.ts is discipline-free, so
 * its G(w) = Σ_c p_c P(U_c > w) is exact for every discipline; a class-c cavity queue at drain time u > 0 accepts
 * the potential arrivals (rate λd·p_c/f_c) with probability G(u)^{d−1}, idle with (1 − G(0)^d)/(d(1 − G(0))).
 *
 * Both are simulation estimates under the ansatz of asymptotic independence (method 'cavity', kind 'estimate'), with a
 * CI from independent restarts (JSQ/SED) or batch means (LWL), checked before they are returned.
 * Source: theory.md §5 [A], [D], §13; Bramson, Lu & Prabhakar 2012 (cavity); Hellemans & Van Houdt 2018 (LWL);
 * Mukhopadhyay & Mazumdar 2015 (per-class ODE); Gardner et al., Perf. Eval. 2021 (heterogeneous sampling).
 */
import { ConvergenceError, InvalidModelError } from '../../errors.ts';
import { requireStable, type SupermarketModel } from '../../model/model.ts';
import { predictionModel, type PredictionModel } from '../../model/prediction/index.ts';
import { classSamplingProbabilities } from '../../model/servers.ts';
import { serviceDistribution, type ServiceDistribution } from '../../model/service/index.ts';
import { Rng, streamSeed } from '../../stats/rng.ts';
import { feasible, tInterval, type Estimate } from '../../stats/tInterval.ts';
import { VERSION, codeId } from '../../version.ts';
import { batchRatioEstimate } from '../cavity/cavityEstimate.ts';
import { runCavityQueue, type AcceptanceRule, type CavityRunResult } from '../cavity/cavityQueue.ts';
import { binnedCompletionRates } from '../cavity/levelBalance.ts';
import { checkRunOptions } from '../cavity/options.ts';
import { cavityFraction, leastLeft } from '../cavity/jsqCavity.ts';
import { ResponseTimeSample } from '../cavity/responseSample.ts';
import { heteroLwlFixedPoint, type HeteroLwlClass } from './lwl.ts';
import {
  heteroArrivalRates,
  heteroFixedPoint,
  heteroFixedPointOf,
  heteroProblem,
  type HeteroClassResult,
  type HeteroFixedPoint,
} from './occupancy.ts';

/** Completions per bin of levels for μ_{c,k} (as jsqCavity). */
const BALANCE_MIN_COUNT = 200;

/** A check made before the result is returned; a failed check throws instead. */
export interface HeteroCavityCheck {
  readonly value: number;
  readonly bound: number;
  readonly passed: boolean;
}

const check = (value: number, bound: number): HeteroCavityCheck => ({ value, bound, passed: value <= bound });

/** Throws a one-line ConvergenceError naming the first failed check. */
function requireChecks(what: string, checks: Record<string, HeteroCavityCheck | undefined>, meanT: number, iterations: number): void {
  const bad = Object.entries(checks).find(([, c]) => c !== undefined && !c.passed);
  if (bad)
    throw new ConvergenceError(
      `${what}: check ${bad[0]} failed (${bad[1]!.value.toPrecision(4)} > bound ${bad[1]!.bound.toPrecision(4)}); E[T] = ${meanT.toPrecision(6)} is not reported`,
      bad[1]!.value,
      iterations,
    );
}

/** Thinning by a_{c,k}/(potential rate) at k jobs; past the table `beyond`. */
class LevelTableAcceptance implements AcceptanceRule {
  constructor(
    private readonly table: Float64Array,
    private readonly beyond: number,
  ) {}
  probability(_workload: number, jobs: number): number {
    return jobs < this.table.length ? this.table[jobs] : this.beyond;
  }
}

interface ClassRunSpec {
  readonly speed: number;
  /** Potential arrival rate per class-c server, per real time unit. */
  readonly potentialRate: number;
  readonly acceptance: AcceptanceRule;
}

/**
 * One cavity run of a class, `horizon` real time units after `warmup`: simulated in work time (rate/v, horizon·v),
 * returned in real time (level times, response and slowdown sums divided by v; the slowdown divides by the size S).
 */
function runClass(
  model: SupermarketModel,
  service: ServiceDistribution,
  prediction: PredictionModel,
  spec: ClassRunSpec,
  horizon: number,
  warmup: number,
  batches: number,
  rng: Rng,
  onResponse?: (T: number, batch: number) => void,
  onProgress?: (fraction: number) => void,
): CavityRunResult {
  const v = spec.speed;
  const out = runCavityQueue({
    discipline: model.discipline,
    conventions: model.conventions,
    service,
    prediction,
    potentialRate: spec.potentialRate / v,
    acceptance: spec.acceptance,
    warmup: warmup * v,
    horizon: horizon * v,
    batches,
    rng,
    levels: true,
    onResponse: onResponse && ((T, b) => onResponse(T / v, b)),
    ...(onProgress ? { onProgress } : {}),
  });
  const scale = (a: Float64Array) => a.map((x) => x / v);
  return {
    ...out,
    responseSum: scale(out.responseSum),
    slowdownSum: scale(out.slowdownSum),
    levelTime: out.levelTime.map(scale),
  };
}

/**
 * Pools the classes' response times into `responses` unit by unit so each class weighs its share of the jobs: unit u
 * keeps a class-c time with probability q_c = (share_c/n_{c,u}) / max_c'(share_c'/n_{c',u}) (n_{c,u} its count), an
 * unbiased thinning of the over-represented classes (equal horizons give counts ∝ a class's jobs per server, not f_c
 * times that).
 */
function poolByShare(perClass: ResponseTimeSample[], shares: readonly number[], rng: Rng, responses: ResponseTimeSample): void {
  const sorted = perClass.map((s) => s.sortedUnits());
  for (let u = 0; u < sorted[0].length; u++) {
    const weight = sorted.map((units, c) => (units[u].length > 0 ? shares[c] / units[u].length : 0));
    const top = Math.max(...weight);
    if (!(top > 0)) continue;
    sorted.forEach((units, c) => {
      const q = weight[c] / top;
      for (const T of units[u]) if (q >= 1 || rng.nextDouble() < q) responses.push(u, T);
    });
  }
}

/** Σ over the batches of the per-level times. */
function pooledLevelTime(rows: Float64Array[]): Float64Array {
  const out = new Float64Array(Math.max(0, ...rows.map((r) => r.length)));
  for (const r of rows) for (let k = 0; k < r.length; k++) out[k] += r[k];
  return out;
}

function addInto(a: Float64Array, b: ArrayLike<number>): Float64Array {
  const out = a.length >= b.length ? a : Float64Array.from({ length: b.length }, (_, i) => a[i] ?? 0);
  for (let i = 0; i < b.length; i++) out[i] += b[i];
  return out;
}

const sum = (a: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
};

function positive(name: string, v: number): number {
  if (!(v > 0 && Number.isFinite(v))) throw new InvalidModelError(`heteroCavity ${name} must be a finite number > 0, got ${v}`);
  return v;
}
function integer(name: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max)
    throw new InvalidModelError(`heteroCavity ${name} must be an integer in [${min}, ${max}], got ${v}`);
  return v;
}

/** What a cavity answer with speeds was computed from. */
export interface HeteroCavityProvenance {
  readonly model: SupermarketModel;
  readonly equation: string;
  readonly source: string;
  readonly version: string;
  readonly code: string;
  readonly seed: number;
}

export interface HeteroCavityOptions {
  /** Master seed (default 1); restart r, run m, class c uses streamSeed(seed, 10⁴·r + 100·m + c). */
  seed?: number;
  /** Independent restarts, integer ≥ 2 (default 4); their spread is the CI. */
  restarts?: number;
  /** Measured real time of a class's first run (default 2,000), growing by 2 per step up to iterationHorizon. */
  initialHorizon?: number;
  /** Measured real time of a class's runs once grown, and of the averaging runs (default 10⁵). */
  iterationHorizon?: number;
  /** Cap on the steps of one restart (default 30). */
  maxIterations?: number;
  /** Runs at iterationHorizon after the steps settle, pooled into μ (default 3). */
  averagingIterations?: number;
  /** The steps have settled when the last 3 E[T] at the full horizon lie within this relative range (default 0.02). */
  settleTolerance?: number;
  /** Relative tolerance of the check against the per-class occupancy ODE, FIFO/PS/LAS with exponential sizes (default 0.01). */
  odeTolerance?: number;
  /**
   * Sees the fraction of the solve done after every step and averaging run, in simulated time (jsqCavity's
   * `cavityFraction`: a lower bound until the first restart ends); for progress output. Changes no number.
   */
  onProgress?: (fraction: number) => void;
}

/** One class of the cavity fixed point (means over the restarts). */
export type HeteroCavityClass = HeteroClassResult;

export interface HeteroCavityResult {
  /**
   * E[T] over all jobs (time units): mean of the restarts' Σ_c f_c Σ_k s_{c,k}/λ, CI from their spread, its half-width
   * at least half the relative range `convergence.residual` × E[T] (the iteration's last movement).
   */
  readonly meanResponseTime: Estimate;
  /** E[T/S] of the jobs of the averaging runs, classes weighted by their job share; CI from the restarts. */
  readonly meanSlowdown: Estimate;
  /** Jobs per server, Σ_c f_c Σ_k s_{c,k} = λE[T]. */
  readonly meanQueueLength: number;
  /** The mixture tail Σ_c f_c s_{c,k}. */
  readonly tail: number[];
  readonly classes: HeteroCavityClass[];
  readonly method: 'cavity';
  readonly convergence: {
    readonly converged: true;
    /** Cavity steps over all restarts (each simulates every class once), averaging runs included. */
    readonly iterations: number;
    readonly iterationsPerRestart: number[];
    readonly restarts: number;
    readonly restartValues: number[];
    /** Relative range of the last 3 E[T] of the steps, worst restart (≤ settleTolerance); E[T]'s CI covers half of it. */
    readonly residual: number;
    readonly checks: {
      /** |Σ_c f_c v_c busy_c − λE[S]| / λE[S], busy_c measured in the averaging runs; bound 2 half-widths + 10⁻³. */
      readonly workRate: HeteroCavityCheck & { readonly workRate: number };
      /** |job-averaged E[T] of the averaging runs − E[T]|, bound 1.5× the combined half-widths + 10⁻³·E[T]. */
      readonly jobResponseTime: HeteroCavityCheck & { readonly jobMean: number };
      /** FIFO (PS, LAS) with exponential sizes: |E[T] − ODE|/ODE ≤ odeTolerance. */
      readonly occupancyOde?: HeteroCavityCheck & { readonly ode: number };
    };
  };
  readonly provenance: HeteroCavityProvenance & { readonly options: Required<Omit<HeteroCavityOptions, 'seed' | 'onProgress'>> };
}

/**
 * The JSQ(d), SED(d) or random (d = 1) mean field of a heterogeneous model under any discipline and size law, by the
 * per-class level-balance cavity iteration (module comment). Each restart starts from μ_{c,k} = v_c/E[S]; step m
 * solves the per-class ODE's fixed point for μ, runs every class's cavity queue for T_m (warm-up T_m/10) with arrival
 * rate a_{c,k} at k jobs, and takes μ from the run (levels binned to ≥ 200 completions). Once T_m = iterationHorizon and
 * the last 3 E[T] lie within settleTolerance, `averagingIterations` runs are pooled into μ and the fixed point solved
 * once more. Checks before returning: the work rate Σ f_c v_c busy_c = λE[S] (busy from the runs), the job-averaged
 * E[T] of the runs, and for FIFO, PS and LAS with exponential sizes the per-class occupancy ODE itself.
 * Same seed and options → same numbers. Cost: restarts·C·(Σ_m T_m + averaging·iterationHorizon) simulated time units.
 * @param model server classes, selection jsq, sed or random (d = 1), any discipline, service and prediction law but 'trace'.
 * @param responses when given (one unit per restart), receives the response times (time units) of the averaging runs'
 *   jobs, the classes pooled by their share of the jobs (`poolByShare`): the response-time law of responseTime.ts.
 * @throws {InvalidModelError} without classes, for another selection, 'trace' predictions or bad options.
 * @throws {UnstableModelError} for an overloaded class. @throws {ConvergenceError} (one line) if a restart does not
 *   settle within maxIterations or a check fails.
 */
export function heteroCavity(
  model: SupermarketModel,
  options: HeteroCavityOptions = {},
  responses?: ResponseTimeSample,
): HeteroCavityResult {
  if (model.servers === undefined) throw new InvalidModelError('heteroCavity needs server classes (--speeds)');
  if (model.selection === 'lwl') throw new InvalidModelError('heteroCavity covers jsq, sed and random; LWL(d) is heteroLwlCavity');
  if (model.prediction.kind === 'trace')
    throw new InvalidModelError('heteroCavity needs a prediction law given the size; "trace" predictions are per-job columns');
  requireStable(model);
  const p = heteroProblem(model);
  const service = serviceDistribution(model.service);
  const prediction = predictionModel(model.prediction);
  const speeds = model.servers.speeds;
  const C = speeds.length;
  const seed = options.seed ?? 1;
  const restarts = integer('restarts', options.restarts ?? 4, 2, 1000);
  const initialHorizon = positive('initialHorizon', options.initialHorizon ?? 2000);
  const iterationHorizon = positive('iterationHorizon', options.iterationHorizon ?? 1e5);
  const maxIterations = integer('maxIterations', options.maxIterations ?? 30, 3, 5000);
  const averagingIterations = integer('averagingIterations', options.averagingIterations ?? 3, 1, 1000);
  const settleTolerance = positive('settleTolerance', options.settleTolerance ?? 0.02);
  const odeTolerance = positive('odeTolerance', options.odeTolerance ?? 0.01);
  const batches = checkRunOptions(iterationHorizon, 0, 10, seed).batches;
  const lambda = model.lambda;
  const d = p.d;
  /** Potential rate per class-c server: λd·p_c/f_c bounds a_{c,k} (R ≤ d). */
  const potential = p.fractions.map((f, c) => (lambda * d * p.sampling[c]) / f);

  /** The fixed point for μ, and each class's acceptance table a_{c,k}/potential_c. */
  const solve = (mu: Float64Array[], start?: HeteroFixedPoint) => {
    const fp = heteroFixedPointOf({ ...p, levelRates: mu }, start);
    const K = fp.truncationLevel;
    const x = new Float64Array(C * K);
    for (let c = 0; c < C; c++) for (let k = 1; k <= K; k++) x[c * K + k - 1] = fp.classes[c].tail[k];
    const a = heteroArrivalRates(p, K)(x);
    const specs: ClassRunSpec[] = speeds.map((speed, c) => ({
      speed,
      potentialRate: potential[c],
      acceptance: new LevelTableAcceptance(
        Float64Array.from({ length: K + 1 }, (_, k) => Math.min(1, a[c * (K + 1) + k] / potential[c])),
        d === 1 ? 1 : 0,
      ),
    }));
    return { fp, specs };
  };
  /**
   * μ_{c,k} from a class's pooled level times and down-crossings (null: keep the previous), and past the levels the
   * run measured the class's completion rate while busy, v_c/E[S] (work conservation), not the last bin repeated: a
   * short run's last bin (LAS, erlang:2, speeds 1,2 at ρ = 0.97: 0.91 for v = 1) left Σ_c f_c μ_{c,∞} < λ, a per-class
   * ODE without a fixed point, whose truncation doubled to K = 4096 over hours (heteroFixedPointOf now refuses it).
   */
  const rates = (c: number, times: Float64Array, completions: ArrayLike<number>) => {
    const measured = binnedCompletionRates(times, completions, BALANCE_MIN_COUNT);
    if (measured === null) return null;
    const mu = new Float64Array(measured.length + 1);
    mu.set(measured);
    mu[measured.length] = p.rates[c];
    return mu;
  };

  const perRestart: {
    fp: HeteroFixedPoint;
    iterations: number;
    residual: number;
    busy: number[];
    jobT: number[];
    jobSlowdown: number[];
  }[] = [];
  // progress in simulated time (every class's runs, warm-ups included), as jsqCavity counts it
  const onProgress = options.onProgress;
  const finishedCost: number[] = [];
  let restartCost = 0;
  const progress = (least: number) => onProgress?.(cavityFraction(finishedCost, restartCost, least, restarts));
  for (let r = 0; r < restarts; r++) {
    restartCost = 0;
    let mu: Float64Array[] = p.rates.map((m) => Float64Array.of(NaN, m));
    let T = Math.min(initialHorizon, iterationHorizon);
    const values: number[] = [];
    let iterations = 0;
    let residual = Infinity;
    let settled = false;
    let current = solve(mu);
    while (iterations < maxIterations) {
      iterations++;
      const next = current.specs.map((spec, c) => {
        const out = runClass(
          model,
          service,
          prediction,
          spec,
          T,
          T / 10,
          batches,
          new Rng(streamSeed(seed, 10_000 * r + 100 * iterations + c)),
        );
        return rates(c, pooledLevelTime(out.levelTime), out.levelCompletions) ?? mu[c];
      });
      mu = next;
      restartCost += 1.1 * T * C;
      current = solve(mu, current.fp);
      if (T >= iterationHorizon) values.push(current.fp.meanResponseTime);
      if (values.length >= 3) {
        const last = values.slice(-3);
        residual = (Math.max(...last) - Math.min(...last)) / Math.min(...last);
        if (residual <= settleTolerance) {
          settled = true;
          break;
        }
      }
      T = Math.min(iterationHorizon, 2 * T);
      // at least: the ramp to the cap, the steps a settle needs there (3 values), the averaging runs
      progress(C * leastLeft(T, 2, iterationHorizon, Math.max(0, 3 - values.length), averagingIterations));
    }
    if (!settled)
      throw new ConvergenceError(
        `heteroCavity: restart ${r + 1} of ${restarts} did not settle within ${maxIterations} steps (E[T] moved ${(100 * residual).toFixed(1)} % over its last 3 steps): no estimate; simulate the model instead (library callers can raise heteroCavity's options maxIterations, iterationHorizon)`,
        residual,
        iterations,
      );
    // averaging: pool further runs at the fixed point's arrival rates into μ
    const times: Float64Array[] = speeds.map(() => new Float64Array(0));
    const completions: Float64Array[] = speeds.map(() => new Float64Array(0));
    const busyTime = new Array<number>(C).fill(0);
    const totalTime = new Array<number>(C).fill(0);
    const jobT = new Array<number>(C).fill(0);
    const jobS = new Array<number>(C).fill(0);
    const jobs = new Array<number>(C).fill(0);
    const classResponses = responses && speeds.map(() => new ResponseTimeSample(1));
    for (let a = 0; a < averagingIterations; a++) {
      current.specs.forEach((spec, c) => {
        const out = runClass(
          model,
          service,
          prediction,
          spec,
          iterationHorizon,
          iterationHorizon / 10,
          batches,
          new Rng(streamSeed(seed, 10_000 * r + 100 * (maxIterations + 1 + a) + c)),
          classResponses && ((t) => classResponses[c].push(0, t)),
        );
        const lt = pooledLevelTime(out.levelTime);
        times[c] = addInto(times[c], lt);
        completions[c] = addInto(completions[c], out.levelCompletions);
        const total = sum(lt);
        totalTime[c] += total;
        busyTime[c] += total - lt[0];
        jobT[c] += sum(out.responseSum);
        jobS[c] += sum(out.slowdownSum);
        jobs[c] += sum(out.completed);
      });
      restartCost += 1.1 * iterationHorizon * C;
      progress(1.1 * C * (averagingIterations - a - 1) * iterationHorizon);
    }
    finishedCost.push(restartCost);
    mu = times.map((t, c) => rates(c, t, completions[c]) ?? mu[c]);
    current = solve(mu, current.fp);
    const fp = current.fp;
    if (responses && classResponses) {
      const one = new ResponseTimeSample(1);
      poolByShare(
        classResponses,
        fp.classes.map((cl) => cl.jobShare),
        new Rng(streamSeed(seed, 10_000 * r + 9_999)),
        one,
      );
      for (const T of one.sortedUnits()[0]) responses.push(r, T);
    }
    perRestart.push({
      fp,
      iterations: iterations + averagingIterations,
      residual,
      busy: busyTime.map((b, c) => b / totalTime[c]),
      // classes weighted by their share of the jobs at the fixed point
      jobT: [fp.classes.reduce((acc, cl, c) => acc + cl.jobShare * (jobT[c] / jobs[c]), 0)],
      jobSlowdown: [fp.classes.reduce((acc, cl, c) => acc + cl.jobShare * (jobS[c] / jobs[c]), 0)],
    });
  }

  onProgress?.(1);
  const values = perRestart.map((q) => q.fp.meanResponseTime);
  const spread = tInterval(values);
  const meanT = spread.mean;
  // a restart stops when its last 3 E[T] lie within settleTolerance (relative range `residual`), a movement the
  // restarts' spread need not show (speeds 1,2, SED + SRPT, λ = 0.9: a 1.05 % range beside a ±0.06 % t interval,
  // [0.8180, 0.8190], that missed the 4× longer runs' 0.8195): the half-width is at least half the worst restart's
  // range, so "converged" claims no more than the steps showed
  const settle = 0.5 * Math.max(...perRestart.map((q) => q.residual)) * meanT;
  const covered: Estimate = spread.halfWidth >= settle ? spread : { ...spread, halfWidth: settle, ci95: [meanT - settle, meanT + settle] };
  const meanResponseTime: Estimate = feasible(covered, 0);
  const meanSlowdown = feasible(tInterval(perRestart.map((q) => q.jobSlowdown[0])), 1);
  const mean = (f: (q: (typeof perRestart)[number]) => number) => perRestart.reduce((a, q) => a + f(q), 0) / restarts;
  const K = Math.max(...perRestart.map((q) => q.fp.tail.length));
  const tailMean = (get: (q: (typeof perRestart)[number]) => number[]) => Array.from({ length: K }, (_, k) => mean((q) => get(q)[k] ?? 0));
  const classes: HeteroCavityClass[] = speeds.map((speed, c) => ({
    speed,
    fraction: p.fractions[c],
    tail: tailMean((q) => q.fp.classes[c].tail),
    busyFraction: mean((q) => q.fp.classes[c].busyFraction),
    meanQueueLength: mean((q) => q.fp.classes[c].meanQueueLength),
    meanResponseTime: mean((q) => q.fp.classes[c].meanResponseTime),
    jobShare: mean((q) => q.fp.classes[c].jobShare),
  }));
  const meanQueueLength = mean((q) => q.fp.meanQueueLength);

  const load = lambda * service.mean;
  const work = tInterval(perRestart.map((q) => q.busy.reduce((a, b, c) => a + p.fractions[c] * speeds[c] * b, 0)));
  const jobsT = tInterval(perRestart.map((q) => q.jobT[0]));
  const sizeBlind = model.discipline === 'fifo' || model.discipline === 'ps' || model.discipline === 'las';
  const ode =
    sizeBlind && model.service.kind === 'exponential' ? heteroFixedPoint({ ...model, discipline: 'fifo' }).meanResponseTime : undefined;
  const checks: HeteroCavityResult['convergence']['checks'] = {
    ...(ode === undefined ? {} : { occupancyOde: { ...check(Math.abs(meanT - ode) / ode, odeTolerance), ode } }),
    workRate: { ...check(Math.abs(work.mean - load) / load, (2 * work.halfWidth) / load + 1e-3), workRate: work.mean },
    jobResponseTime: {
      ...check(Math.abs(jobsT.mean - meanT), 1.5 * Math.hypot(jobsT.halfWidth, spread.halfWidth) + 1e-3 * meanT),
      jobMean: jobsT.mean,
    },
  };
  const totalIterations = perRestart.reduce((a, q) => a + q.iterations, 0);
  requireChecks('heteroCavity', checks, meanT, totalIterations);
  return {
    meanResponseTime,
    meanSlowdown,
    meanQueueLength,
    tail: tailMean((q) => q.fp.tail),
    classes,
    method: 'cavity',
    convergence: {
      converged: true,
      iterations: totalIterations,
      iterationsPerRestart: perRestart.map((q) => q.iterations),
      restarts,
      restartValues: values,
      residual: Math.max(...perRestart.map((q) => q.residual)),
      checks,
    },
    provenance: {
      model,
      equation:
        'per-class occupancy fixed point a_{c,k-1}(s_{c,k-1} - s_{c,k}) = mu_{c,k}(s_{c,k} - s_{c,k+1}), mu_{c,k} measured on a class-c cavity queue of speed v_c with arrival rate a_{c,k} at k jobs',
      source: HETERO_CAVITY_SOURCE,
      version: VERSION,
      code: codeId(),
      seed,
      options: {
        restarts,
        initialHorizon,
        iterationHorizon,
        maxIterations,
        averagingIterations,
        settleTolerance,
        odeTolerance,
      },
    },
  };
}

/** The source line of the cavity with speeds. */
export const HETERO_CAVITY_SOURCE =
  'theory.md §5, §13 (cavity queue per class at speed v_c; Bramson, Lu & Prabhakar 2012; Hellemans & Van Houdt 2018; Mukhopadhyay & Mazumdar 2015; Gardner et al. 2021)';

/** LWL acceptance of a class-c queue in work time: drain time u = w/v_c, G(u)^{d−1} busy, the idle share when idle. */
class DrainTimeAcceptance implements AcceptanceRule {
  private readonly idle: number;
  constructor(
    private readonly G: Float64Array,
    private readonly step: number,
    private readonly speed: number,
    private readonly d: number,
  ) {
    const G0 = G[0];
    this.idle = d === 1 || !(G0 < 1) ? 1 : (1 - G0 ** d) / (d * (1 - G0));
  }
  probability(workload: number): number {
    if (!(workload > 0)) return this.idle;
    if (this.d === 1) return 1;
    const x = workload / this.speed / this.step;
    const n = this.G.length - 1;
    let g: number;
    if (x >= n) g = this.G[n];
    else {
      const i = Math.floor(x);
      g = this.G[i] + (x - i) * (this.G[i + 1] - this.G[i]);
    }
    return g ** (this.d - 1);
  }
}

export interface HeteroLwlCavityOptions {
  /** Measured real time of each class's run (default 2·10⁵), after a warm-up of horizon/50. */
  horizon?: number;
  /** Batches for the batch-means interval (default 25). */
  batches?: number;
  /** Master seed (default 1); class c uses stream streamSeed(seed, c). */
  seed?: number;
  /** Called during the runs with the fraction done (classes in turn, simulated time); for progress. Changes no number. */
  onProgress?: (fraction: number) => void;
}

export interface HeteroLwlCavityResult {
  /** E[T] = Σ_c share_c E[T_c] (time units), shares from the drain-time fixed point; CI √Σ(share_c h_c)². */
  readonly meanResponseTime: Estimate;
  readonly meanSlowdown: Estimate;
  /** Per class: the fixed point's busy fraction and job share, the cavity's E[T_c]. */
  readonly classes: HeteroLwlClass[];
  /** Per class, the batch-means estimate of E[T_c]. */
  readonly classEstimates: Estimate[];
  readonly method: 'cavity';
  readonly checks: {
    /** |Σ_c f_c v_c busy_c − λE[S]| / λE[S] with busy_c measured in the runs; bound 0.01. */
    readonly workRate: HeteroCavityCheck & { readonly workRate: number };
    /** max_c |busy_c(run) − busy_c(fixed point)|; bound 0.01. */
    readonly busyFraction: HeteroCavityCheck;
  };
  readonly diagnostics: { readonly horizon: number; readonly batches: number; readonly lag1: number[]; readonly completedJobs: number[] };
  readonly provenance: HeteroCavityProvenance;
}

/**
 * LWL(d) with server speeds under any discipline, exponential sizes (module comment): one cavity run per class on
 * the drain-time law G of heteroLwlFixedPoint. Same seed and options → same numbers.
 * @param responses when given (one unit per batch), receives the measured jobs' response times, the classes pooled by
 *   their share of the jobs (`poolByShare`).
 * @throws {InvalidModelError} without classes, for another selection, non-exponential sizes, 'trace' predictions or bad options.
 * @throws {UnstableModelError} for an overloaded class. @throws {ConvergenceError} if a batch is empty or a check fails.
 */
export function heteroLwlCavity(
  model: SupermarketModel,
  options: HeteroLwlCavityOptions = {},
  responses?: ResponseTimeSample,
): HeteroLwlCavityResult {
  if (model.servers === undefined || model.selection !== 'lwl')
    throw new InvalidModelError('heteroLwlCavity needs LWL(d) with server classes');
  if (model.service.kind !== 'exponential')
    throw new InvalidModelError(
      `heteroLwlCavity needs exponential sizes (the drain-time law with speeds is solved for them), got ${model.service.kind}`,
    );
  if (model.prediction.kind === 'trace')
    throw new InvalidModelError('heteroLwlCavity needs a prediction law given the size; "trace" predictions are per-job columns');
  const fp = heteroLwlFixedPoint(model);
  const service = serviceDistribution(model.service);
  const prediction = predictionModel(model.prediction);
  const horizon = options.horizon ?? 2e5;
  const run = checkRunOptions(horizon, horizon / 50, options.batches ?? 25, options.seed ?? 1);
  const speeds = model.servers.speeds;
  const fractions = model.servers.fractions;
  const sampling = classSamplingProbabilities(model.servers);
  const d = model.d;
  const G = fp.drainTimeCcdf;
  const estimates: Estimate[] = [];
  const slowdowns: Estimate[] = [];
  const lag1: number[] = [];
  const completedJobs: number[] = [];
  const busy: number[] = [];
  const classResponses = responses && speeds.map(() => new ResponseTimeSample(run.batches));
  speeds.forEach((speed, c) => {
    const out = runClass(
      model,
      service,
      prediction,
      {
        speed,
        potentialRate: (model.lambda * d * sampling[c]) / fractions[c],
        acceptance: new DrainTimeAcceptance(G.ccdf, G.step, speed, d),
      },
      run.horizon,
      run.warmup,
      run.batches,
      new Rng(streamSeed(run.seed, c)),
      classResponses && ((T, b) => classResponses[c].push(b, T)),
      options.onProgress && ((f) => options.onProgress!((c + f) / speeds.length)),
    );
    const T = batchRatioEstimate(out.responseSum, out.completed);
    estimates.push(T.estimate);
    slowdowns.push(batchRatioEstimate(out.slowdownSum, out.completed).estimate);
    lag1.push(T.lag1);
    completedJobs.push(sum(out.completed));
    const lt = pooledLevelTime(out.levelTime);
    busy.push(1 - lt[0] / sum(lt));
  });
  const shares = fp.classes.map((c) => c.jobShare);
  if (responses && classResponses) poolByShare(classResponses, shares, new Rng(streamSeed(run.seed, 9_999)), responses);
  const pool = (es: Estimate[], lower: number): Estimate => {
    const mean = es.reduce((a, e, c) => a + shares[c] * e.mean, 0);
    const halfWidth = Math.sqrt(es.reduce((a, e, c) => a + (shares[c] * e.halfWidth) ** 2, 0));
    return { mean, halfWidth, ci95: [Math.max(lower, mean - halfWidth), mean + halfWidth], replications: run.batches };
  };
  const meanResponseTime = pool(estimates, 0);
  const load = model.lambda * service.mean;
  const workRate = busy.reduce((a, b, c) => a + fractions[c] * speeds[c] * b, 0);
  const checks = {
    workRate: { ...check(Math.abs(workRate - load) / load, 0.01), workRate },
    busyFraction: check(Math.max(...busy.map((b, c) => Math.abs(b - fp.classes[c].busyFraction))), 0.01),
  };
  options.onProgress?.(1);
  requireChecks('heteroLwlCavity', checks, meanResponseTime.mean, 1);
  return {
    meanResponseTime,
    meanSlowdown: pool(slowdowns, 1),
    classes: fp.classes.map((cl, c) => ({ ...cl, meanResponseTime: estimates[c].mean })),
    classEstimates: estimates,
    method: 'cavity',
    checks,
    diagnostics: { horizon: run.horizon, batches: run.batches, lag1, completedJobs },
    provenance: {
      model,
      equation:
        'class-c queue of speed v_c, potential rate λ*d*p_c/f_c thinned by G(u)^(d-1) at drain time u > 0, (1 - G(0)^d)/(d(1 - G(0))) idle; G from the drain-time fixed point',
      source: HETERO_CAVITY_SOURCE,
      version: VERSION,
      code: codeId(),
      seed: run.seed,
    },
  };
}
