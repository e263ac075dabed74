/**
 * The one warm-up rule of every finite-n simulation (theory.md §8 "Warm-up"): `simulationWarmup(model)`.
 * Its building block is `warmupTime`, the SQ(d) rule: twice the time the mean-field trajectory from empty needs to
 * come within a tolerance of its fixed point, and at least a few relaxation times. Other supermarket models take the
 * SQ(d) warm-up at the same ρ and d, scaled for variable sizes; population models (a different model type) take
 * twice their own ODE's time to the fixed point. The same rule from the other start, the mean-field fixed point
 * (`start: 'fixed-point'`, SQ(d) models only): twice the time the refined transient s* + V(t)/n needs to come within
 * the tolerance of s* + V/n, at least a few relaxation times.
 * Source: theory.md §8 ("Warm-up", "Start") and §2 ("Relaxation"), §6 (refined transient).
 */
import { identicalRedundancy, identicalRedundancyLambdaMax } from './redundancy.ts';
import { ConvergenceError, InvalidModelError, SolverError } from '../errors.ts';
import { parseModel, randomRoutingTwin, refuseUnknownOptions, type SupermarketModel } from '../model/model.ts';
import type { PopulationModel } from '../model/population/parse.ts';
import { arrivalScv, isRenewalArrivals, POISSON_ARRIVALS } from '../model/arrivals.ts';
import { batchDispersion } from '../model/batchLaw.ts';
import { serviceDistribution } from '../model/service/index.ts';
import { capacity } from '../model/servers.ts';
import { populationFixedPoint, type PopulationFixedPointResult } from './population/fixedPoint.ts';
import { populationTransient } from './population/transient.ts';
import { integrateSqd } from './ode.ts';
import { relaxationTime } from './relaxation.ts';
import { sqdClosedFormTail, sqdTruncationLevel } from './sqd.ts';
import { sqdParameters } from './support.ts';
import { refinedTransient } from './transient.ts';
import { refine } from './refined.ts';
import { isSqdModel } from './capabilities.ts';
import { effectiveMemory, isJiq, modelHasMemory } from '../model/memory.ts';
import { memoryFixedPointTail, solveMemoryTransient } from './memory/transient.ts';
import { batchTransient, bsqFixedPoint, sqdkFixedPoint } from './batch.ts';
import { lwlTransient } from './lwl/transient.ts';

export interface WarmupOptions {
  /** Sup-norm distance max_i |s_i(t) − s_i*| counted as "at the fixed point" (default 1e−3). */
  tolerance?: number;
  /** Multiplier on the time to tolerance (default 2). */
  safetyFactor?: number;
  /** Lower bound on the warm-up, in relaxation times τ (default 3). */
  minRelaxationTimes?: number;
}

export interface WarmupResult {
  /** max(safetyFactor · timeToTolerance, minRelaxationTimes · τ), model time units. */
  warmupTime: number;
  /** First t with max_i |s_i(t) − s_i*| ≤ tolerance from empty (d = 1: an upper bound), model time units. */
  timeToTolerance: number;
  /** τ of `relaxationTime`, model time units. */
  relaxationTime: number;
  /** 'ode' (odex trajectory, d ≥ 2) or 'coupling-bound' (d = 1). */
  method: 'ode' | 'coupling-bound';
}

/**
 * Suggested warm-up for a simulation started empty (theory.md §8).
 *
 * d ≥ 2: integrates the ODE from empty with odex (tolerance 1e−9, K where s_K* < 1e−12) and stops at the first
 * accepted step within `tolerance` of the closed-form fixed point; the crossing is located by bisection on the
 * dense output. From empty the ODE is cooperative and starts with f ≥ 0, so s(t) rises monotonically to s*
 * and the distance is non-increasing: first crossing = last.
 * d = 1: the ODE is stiff for odex (τ ≈ 4·10⁴ at ρ = 0.99), so a bound is used instead. Couple an M/M/1 from
 * empty with a stationary one (same arrivals and potential services); they coalesce when the stationary copy
 * hits 0, so sup_i |s_i(t) − ρ^i| ≤ P_π(T_0 > t) ≤ E_π[e^{θT_0}] e^{−θt} with θ = (1 − √ρ)² = 1/τ, where
 * E_k[e^{θT_0}] = ρ^{−k/2} and hence E_π[e^{θT_0}] = 1 + √ρ. So timeToTolerance = τ·ln((1 + √ρ)/tolerance).
 * @param model supported SQ(d) model. @param options `tolerance`, `safetyFactor`, `minRelaxationTimes`.
 * @returns `{ warmupTime, timeToTolerance, relaxationTime, method }`, times in model time units.
 * @throws {InvalidModelError} on unsupported models or options outside their ranges.
 * @throws {SolverError} if odex fails.
 * @throws {ConvergenceError} if the trajectory is not within tolerance by 200τ + 1000 service times.
 * @example warmupTime(parseModel({ lambda: 0.9, d: 2 })).warmupTime // ≈ 2 × (time to 1e−3) ≈ 80
 */
export function warmupTime(model: SupermarketModel, options: WarmupOptions = {}): WarmupResult {
  const { rho, d, meanService } = sqdParameters(model);
  const tolerance = options.tolerance ?? 1e-3;
  const safetyFactor = options.safetyFactor ?? 2;
  const minRelaxationTimes = options.minRelaxationTimes ?? 3;
  if (!(tolerance > 0 && tolerance < 1)) throw new InvalidModelError(`tolerance must lie in (0, 1), got ${tolerance}`);
  if (!(safetyFactor >= 1 && Number.isFinite(safetyFactor))) {
    throw new InvalidModelError(`safetyFactor must be a finite number ≥ 1, got ${safetyFactor}`);
  }
  if (!(minRelaxationTimes >= 0 && Number.isFinite(minRelaxationTimes))) {
    throw new InvalidModelError(`minRelaxationTimes must be a finite number ≥ 0, got ${minRelaxationTimes}`);
  }
  const tau = relaxationTime(model);
  let timeToTolerance: number;
  let method: WarmupResult['method'];
  if (d === 1) {
    timeToTolerance = Math.max(0, tau * Math.log((1 + Math.sqrt(rho)) / tolerance));
    method = 'coupling-bound';
  } else {
    const K = sqdTruncationLevel(rho, d, 1e-12);
    const star = sqdClosedFormTail(rho, d, K).slice(1);
    const distance = (value: (i: number) => number): number => {
      let m = 0;
      for (let i = 0; i < K; i++) m = Math.max(m, Math.abs(value(i) - star[i]));
      return m;
    };
    const tauEnd = (200 * tau) / meanService + 1000;
    let hit = NaN;
    let lastDistance = distance(() => 0);
    integrateSqd(rho, d, new Array<number>(K).fill(0), 0, tauEnd, 1e-9, Math.ceil(50 * tauEnd), (xOld, x, y, dense) => {
      lastDistance = distance((i) => y[i]);
      if (lastDistance > tolerance) return true;
      let lo = xOld;
      let hi = x;
      while (hi - lo > 1e-9 * Math.max(1, hi)) {
        const mid = 0.5 * (lo + hi);
        if (distance((i) => dense(i, mid)) <= tolerance) hi = mid;
        else lo = mid;
      }
      hit = hi;
      return false;
    });
    if (Number.isNaN(hit)) {
      throw new ConvergenceError(
        `mean-field trajectory not within tolerance ${tolerance} of the fixed point by t = ${tauEnd * meanService}`,
        lastDistance,
        0,
      );
    }
    timeToTolerance = hit * meanService;
    method = 'ode';
  }
  return {
    warmupTime: Math.max(safetyFactor * timeToTolerance, minRelaxationTimes * tau),
    timeToTolerance,
    relaxationTime: tau,
    method,
  };
}

/**
 * SQ(d) warm-ups already integrated, by (ρ, d, tolerance, safety factor): a grid of policies, laws and n shares a few
 * (ρ, d), and each `warmupTime` integrates the ODE (~30 ms), so an experiment of 480 cells would spend seconds on it.
 * `warmupTime` is a pure function of that key, so the cache changes no number.
 */
const sqdWarmups = new Map<string, WarmupResult>();

/** Cap on the heavy-tail factor (1 + SCV)/2 of `simulationWarmup`. */
export const MAX_SCV_FACTOR = 10;

/**
 * Floor of the fixed-point start's warm-up, in relaxation times τ (theory.md §8 "Start"). 1τ since the floor study
 * (scripts/warm-start-coverage.ts --floors): from n ≈ 1000 on the first term is shorter than the floor, and there 3τ, 1τ
 * and no warm-up at all all covered in band without resolvable bias; the 1τ kept covers what the study did not reach
 * (d = 1, where V ≡ 0 makes the first term 0 at every n, and the rounding of n·s_i* at small n).
 */
export const FIXED_POINT_FLOOR_TAUS = 1;

/** Where every replication starts: empty, or at the mean-field fixed point (theory.md §8 "Start"). */
export type SimulationStart = 'empty' | 'fixed-point';

/**
 * The start asked for: one of `SimulationStart`, or 'auto' — the fixed point where the model has one as a start state
 * (SQ(d) models) and the rule reads a warm-up from it at this n, else empty (theory.md §8 "Start"). `simulationWarmup`
 * resolves it and names the start it took in `start`.
 */
export type StartChoice = 'auto' | SimulationStart;

/** The choices of `StartChoice`, for option parsers and messages ('auto' first: the default of every command). */
export const START_CHOICES: readonly StartChoice[] = ['auto', 'empty', 'fixed-point'];

/** The start of every command that simulates when --start is not given. */
export const DEFAULT_START: StartChoice = 'auto';

/** A warm-up and the rule that gave it (recorded in results). */
export interface SimulationWarmup {
  /** Time discarded before measuring, model time units. */
  readonly time: number;
  /**
   * The start the warm-up is for, 'auto' resolved (supermarket models): every result that used it names it. Absent for
   * population models, which start at their own initial state (or `from`).
   */
  readonly start?: SimulationStart;
  /** How `time` was obtained, in words. */
  readonly rule: string;
  /** τ of the SQ(d) model at the same ρ and d (supermarket models), model time units. */
  readonly relaxationTime?: number;
  /**
   * The rule's own warm-up (model time units) when a cap the caller gave (`SimulationWarmupOptions.cap`) cut it to
   * `time`; absent when no cap bound. Every result that used a capped warm-up says so (`cappedWarmupWarning`).
   */
  readonly uncappedTime?: number;
  /**
   * The start the warm-up is for, with its tail s_0..s_K (`from` of `simulate`: round(n·s_i) servers hold ≥ i jobs);
   * absent for the empty start.
   */
  readonly from?: number[];
}

export interface SimulationWarmupOptions {
  /** Sup-norm distance to the fixed point counted as reached (default 1e−3); see `warmupTime`. */
  readonly tolerance?: number;
  /** Multiplier on the time to tolerance (default 2); see `warmupTime`. */
  readonly safetyFactor?: number;
  /**
   * Upper bound on the result, time units (default Infinity: none, the one rule as it is). A cap that binds shortens the
   * warm-up below the rule's, so the result names the rule's time in `uncappedTime` and its caller must say so.
   */
  readonly cap?: number;
  /**
   * Floor of the fixed-point start's warm-up in relaxation times τ (default `FIXED_POINT_FLOOR_TAUS`; ≥ 0, finite).
   * The empty start keeps `warmupTime`'s floor.
   */
  readonly minRelaxationTimes?: number;
  /**
   * Start of the replications (default 'empty'); 'fixed-point' needs an SQ(d) model and `n`; 'auto' takes the fixed point
   * where that start applies at `n` (SQ(d) model, the refined transient reaching the tolerance), else empty.
   */
  readonly start?: StartChoice;
  /** Servers of the run (the fixed-point start's warm-up depends on n through V(t)/n). */
  readonly n?: number;
}

export interface PopulationWarmupOptions {
  /** Fixed point to reach (default `populationFixedPoint(model)`). */
  readonly fixedPoint?: PopulationFixedPointResult;
  /** Start state of the simulation (default the model's `initial`). */
  readonly from?: ArrayLike<number>;
  /** Sup-norm distance to the fixed point counted as reached (default 1e−3). */
  readonly tolerance?: number;
  /** Latest time searched (default 5000 time units). */
  readonly tMax?: number;
}

/**
 * The warm-up of a finite-n simulation started empty (theory.md §8) — the one rule every simulation path uses.
 *
 * Supermarket models: the SQ(d) mean-field warm-up `warmupTime` (2 × the ODE's time from empty to within
 * `tolerance` of its fixed point, ≥ 3τ) of the exponential JSQ(d) model at the same ρ and d (d = 1 for random
 * selection) — for exponential JSQ(d) FIFO the model itself, for the others the nearest model with an ODE — in
 * the model's time units, × min(MAX_SCV_FACTOR, max(1, (1 + SCV)/2)) for variable sizes (theory.md §8 heavy
 * tails), capped at `cap`. Models with a mean-field ODE of their own read it the same way (2 × the time from which on
 * it stays within `tolerance` of its fixed point, ≥ 10, × the size factor): dispatcher memory (the memory cavity ODE,
 * theory.md §12), batches SQ(d,K)/BSQ (the batch tail ODE, §15) and LL(d,K) (the batch workload PIDE, §15; read
 * against its own settled end, see `lldkWarmup`); where d = K at high load keeps them from settling, SQ(⌊d/K⌋).
 *
 * Population models (the Gillespie simulator): 2 × the first time t ∈ {0, ½, 1, …, tMax} at which the model's own
 * mean-field ODE from the start state is within `tolerance` (sup norm) of the fixed point, and at least 10 time
 * units.
 * @returns `{ time, rule, relaxationTime? }`, model time units.
 * @throws {InvalidModelError} for options out of range. @throws {ConvergenceError} / {SolverError} if the ODE does
 *   not come within tolerance (by 200τ + 1000 service times, resp. by tMax; give the warm-up explicitly then).
 * @example simulationWarmup(parseModel({ lambda: 0.9, d: 2 })).time // = warmupTime(model).warmupTime ≈ 80
 */
export function simulationWarmup(model: SupermarketModel, options?: SimulationWarmupOptions): SimulationWarmup;
export function simulationWarmup(model: PopulationModel, options?: PopulationWarmupOptions): SimulationWarmup;
export function simulationWarmup(
  model: SupermarketModel | PopulationModel,
  options: SimulationWarmupOptions | PopulationWarmupOptions = {},
): SimulationWarmup {
  if ('transitions' in model) return populationWarmup(model, options as PopulationWarmupOptions);
  // random routing however spelt is JSQ(1) (`randomRoutingTwin`): the simulator runs it so, and its warm-up is JSQ(1)'s
  const twin = randomRoutingTwin(model);
  if (twin !== undefined) return simulationWarmup(twin, options as SimulationWarmupOptions);
  refuseUnknownOptions('simulationWarmup', options, {
    tolerance: true,
    safetyFactor: true,
    cap: true,
    minRelaxationTimes: true,
    start: true,
    n: true,
  } satisfies Record<keyof SimulationWarmupOptions, true>);
  const {
    tolerance = 1e-3,
    safetyFactor,
    cap = Number.POSITIVE_INFINITY,
    start = 'empty',
    n,
    minRelaxationTimes = FIXED_POINT_FLOOR_TAUS,
  } = options as SimulationWarmupOptions;
  if (!(cap > 0)) throw new InvalidModelError(`the warm-up cap must be > 0, got ${cap}`);
  if (!(minRelaxationTimes >= 0 && Number.isFinite(minRelaxationTimes)))
    throw new InvalidModelError(`minRelaxationTimes must be a finite number ≥ 0, got ${minRelaxationTimes}`);
  switch (start) {
    case 'empty':
      break;
    case 'fixed-point':
      return fixedPointWarmup(model, n, tolerance, safetyFactor ?? 2, cap, minRelaxationTimes);
    case 'auto':
      if (fixedPointApplies(model, n, tolerance)) return fixedPointWarmup(model, n, tolerance, safetyFactor ?? 2, cap, minRelaxationTimes);
      break;
    default:
      return unknownStart(start);
  }
  const mean = model.service.mean;
  // models with a mean-field ODE of their own from empty, read by the same rule (memory: theory.md §12; batches: §15)
  const sf = safetyFactor ?? 2;
  const memory = modelHasMemory(model) ? memoryWarmup(model, tolerance, sf) : undefined;
  const own = memory ?? batchWarmup(model, tolerance, sf);
  if (own !== undefined) {
    const what =
      memory !== undefined
        ? 'memory cavity ODE'
        : model.selection === 'lwl'
          ? 'LL(d,K) batch workload PIDE'
          : `${model.batchDispatch === 'spread' ? 'SQ(d,K)' : 'BSQ'} batch tail ODE`;
    const factor = Math.min(MAX_SCV_FACTOR, Math.max(1, (1 + serviceDistribution(model.service).scv) / 2));
    const raw = own * mean * factor;
    return {
      ...capped(raw, cap),
      start: 'empty',
      rule: `auto: ${what} warm-up ${(own * mean).toFixed(1)} × size factor ${factor.toFixed(2)} (min(10, max(1, (1+SCV)/2))) = ${cappedText(raw, cap)}`,
    };
  }
  // server classes (theory.md §13): the load is λE[S]/Σ f·speed, which may pass 1 in λE[S] alone (speeds 1,2 at λ = 1.2
  // is ρ = 0.8); the SQ(d) rule runs at that load, its time stretched to the slowest class's (1/min speed)
  const servers = model.servers;
  const slowest = servers === undefined ? 1 : 1 / Math.min(...servers.speeds);
  // identical replicas (theory.md §16) keep servers busier than λE[S]: the rule runs at the busy fraction F̄(0)
  const blindLoad =
    servers !== undefined
      ? (model.lambda * mean) / capacity(servers)
      : model.redundancy?.replicas === 'identical'
        ? redundancyBusyLoad(model.lambda * mean, model.d)
        : model.lambda * mean;
  // batches of K (theory.md §15): spread over the K best of d a server sees about d/K choices (d = K: none, each server an
  // M/M/1 queue, which relaxes far slower than SQ(d) — simulate --batch 2 --d 2 at λ = 0.9 sat 7 % low with the SQ(2)
  // warm-up); the whole batch to one queue keeps d. The batch's burst counts as arrival variability c_a² = K below.
  const batch = model.batch ?? 1;
  const choices =
    model.selection === 'random' ? 1 : batch > 1 && model.batchDispatch === 'spread' ? Math.max(1, Math.floor(model.d / batch)) : model.d;
  const blind = parseModel({ lambda: blindLoad, d: choices });
  const key = `${blind.lambda}|${blind.d}|${tolerance}|${safetyFactor}`;
  let sqd = sqdWarmups.get(key);
  if (!sqd) {
    if (sqdWarmups.size >= 4096) sqdWarmups.clear();
    sqd = warmupTime(blind, { tolerance, safetyFactor });
    sqdWarmups.set(key, sqd);
  }
  const base = sqd.warmupTime * mean * slowest;
  // heavy tails need longer warm-ups, but an SCV of 10⁶ (bounded Pareto) must not ask for 10⁶ × the exponential one;
  // variable arrivals count like variable sizes ((c_a² + c_s²)/2, the heavy-traffic variability; c_a² = 1 for Poisson)
  const arrivals = model.arrivals ?? POISSON_ARRIVALS;
  // a batch size law: the epochs' job count has index of dispersion E[X²]/E[X] (K for a fixed K)
  const ca2 =
    (isRenewalArrivals(arrivals) ? arrivalScv(arrivals) : 1) * (model.batchLaw === undefined ? batch : batchDispersion(model.batchLaw));
  const factor = Math.min(MAX_SCV_FACTOR, Math.max(1, (ca2 + serviceDistribution(model.service).scv) / 2));
  // an MMPP's phases switch on the O(1) time scale: ten mean phase cycles more (theory.md §14)
  const cycles = arrivals.kind === 'mmpp' ? 10 * (1 / arrivals.switching[0] + 1 / arrivals.switching[1]) : 0;
  const raw = base * factor + cycles;
  return {
    ...capped(raw, cap),
    start: 'empty',
    rule: `auto: SQ(${blind.d}) mean-field warm-up ${base.toFixed(1)} × size factor ${factor.toFixed(2)} (min(10, max(1, (${ca2 === 1 ? '1' : 'c_a²'}+SCV)/2)))${cycles > 0 ? ` + 10 MMPP phase cycles ${cycles.toFixed(1)}` : ''} = ${cappedText(raw, cap)}`,
    relaxationTime: sqd.relaxationTime * mean * slowest,
  };
}

/**
 * The end of a warm-up rule's text: the time the rule computed (time units), and the cap when it bites, e.g.
 * "57529.3, capped at 5000" (the rule read "= 5000.0, capped at 5000" after 5752.9 × 10.00: a product it did not equal).
 */
function cappedText(raw: number, cap: number): string {
  return raw > cap ? `${raw.toFixed(1)}, capped at ${cap}` : raw.toFixed(1);
}

/** The warm-up of a rule's time `raw` under `cap`: `time`, and `uncappedTime` when the cap binds. */
function capped(raw: number, cap: number): { time: number; uncappedTime?: number } {
  return raw > cap ? { time: cap, uncappedTime: raw } : { time: raw };
}

/**
 * What a result run with a capped warm-up says of it (the report, --json, results.json and CSVs of `run` and
 * `conjecture`), or undefined when the cap did not bind (`uncappedTime` absent).
 * @param warmup the rule's answer. @param setting the setting that gave the cap, e.g. 'maxWarmup'.
 * @example cappedWarmupWarning(simulationWarmup(parseModel({ lambda: 0.99, d: 1 }), { cap: 5000 }), 'maxWarmup')
 *   // "warm-up capped by maxWarmup = 5000: the one warm-up rule asks 603880.4 time units, …"
 */
export function cappedWarmupWarning(warmup: Pick<SimulationWarmup, 'time' | 'uncappedTime'>, setting: string): string | undefined {
  const rule = warmup.uncappedTime;
  if (rule === undefined) return undefined;
  return (
    `warm-up capped by ${setting} = ${warmup.time}: the one warm-up rule asks ${rule.toFixed(1)} time units (theory.md §8), so the ` +
    `replications warmed up ${((100 * warmup.time) / rule).toPrecision(3)} % of it and the estimates may carry start bias; drop ${setting} to follow the rule`
  );
}

function unknownStart(start: never): never {
  throw new InvalidModelError(`unknown start ${JSON.stringify(start)}; expected ${START_CHOICES.join(', ')}`);
}

/**
 * Whether the 'auto' start takes the fixed point at n: an SQ(d) model (there the fixed point is the tail of a Markov state
 * and the residual sizes are exponential) whose refined transient from it comes within `tolerance` by 40τ at n (at
 * very small n it may not; the start is then empty). Without n an SQ(d) model cannot be resolved.
 * @throws {InvalidModelError} for an SQ(d) model without n (an integer ≥ 1), or a tolerance outside (0, 1).
 */
function fixedPointApplies(model: SupermarketModel, n: number | undefined, tolerance: number): boolean {
  if (!isSqdModel(model)) return false;
  if (n === undefined || !Number.isInteger(n) || n < 1)
    throw new InvalidModelError(`the auto start of an SQ(d) model needs n, an integer ≥ 1, got ${n}`);
  if (!(tolerance > 0 && tolerance < 1)) throw new InvalidModelError(`tolerance must lie in (0, 1), got ${tolerance}`);
  // a fixed point whose tail needs more levels than a state holds (d = 1 at ρ = 0.9999: K = 276297) is no start state:
  // auto starts empty there (simulate --lambda 0.9999 --d 1 refused with the truncation level, not the run's size)
  if (!fixedPointRepresentable(model)) return false;
  return refinedDecayOf(model).decay.some((v) => v <= n * tolerance);
}

/** Tail tolerance of the fixed-point start's tail (`refinedDecay`): the levels beyond carry less than this. */
const START_TAIL_TOLERANCE = 1e-12;

/** Whether the fixed point's tail fits the largest truncation level (`sqdTruncationLevel` at `START_TAIL_TOLERANCE`). */
function fixedPointRepresentable(model: SupermarketModel): boolean {
  try {
    sqdTruncationLevel(model.lambda * model.service.mean, model.d, START_TAIL_TOLERANCE);
    return true;
  } catch (error) {
    if (error instanceof InvalidModelError) return false; // the level exceeds the maximum (ρ and d are valid here)
    throw error;
  }
}

/**
 * Per (ρ, d, sampling, tolerance) of an SQ(d) model with mean 1: the time grid (τ/20 apart, to 40τ) and, at each grid
 * time t, sup_{t' ≥ t} max_i |V_i(t') − V_i| of the refined transient from the fixed point — what `fixedPointWarmup`
 * reads for any n. A pure function of its key, so the cache changes no number.
 */
const refinedDecays = new Map<string, { times: number[]; decay: number[]; tau: number; tail: number[] }>();

/** Relaxation times τ the refined transient of `fixedPointWarmup` is followed for. */
const REFINED_HORIZON_TAUS = 40;

/**
 * Warm-up of a run of `n` servers started at the mean-field fixed point (theory.md §8 "Start"), SQ(d) models only:
 * the start is round(n·s_i*) servers with ≥ i jobs, whose expected tail follows s* + V(t)/n + O(1/n²) (refined
 * transient, V(0) = 0), so the rule of the empty start, read on that path, is safetyFactor × the first t after which
 * max_i |V_i(t) − V_i|/n ≤ tolerance, at least `floorTaus`·τ (`FIXED_POINT_FLOOR_TAUS` = 1 by default; the empty rule
 * keeps 3τ), in the model's time units, capped at `cap`. At d = 1 the drift is linear, V(t) = V = 0 and the floor applies. The sizes of the initial jobs are drawn from the
 * service law: for exponential sizes (the only law here) the residual size of a job in service is that law again.
 */
function fixedPointWarmup(
  model: SupermarketModel,
  n: number | undefined,
  tolerance: number,
  safetyFactor: number,
  cap: number,
  floorTaus: number,
): SimulationWarmup {
  if (!isSqdModel(model))
    throw new InvalidModelError(
      'the fixed-point start needs the SQ(d) model (JSQ(d), FIFO, exponential sizes, Poisson arrivals, one server class, ' +
        'no memory, batches or redundancy): there the fixed point is the tail of a Markov state and the residual sizes are exponential; start empty',
    );
  if (n === undefined || !Number.isInteger(n) || n < 1)
    throw new InvalidModelError(`the fixed-point start's warm-up needs n, an integer ≥ 1, got ${n}`);
  if (!(tolerance > 0 && tolerance < 1)) throw new InvalidModelError(`tolerance must lie in (0, 1), got ${tolerance}`);
  if (!(safetyFactor >= 1 && Number.isFinite(safetyFactor))) {
    throw new InvalidModelError(`safetyFactor must be a finite number ≥ 1, got ${safetyFactor}`);
  }
  const mean = model.service.mean;
  const path = refinedDecayOf(model);
  const j = path.decay.findIndex((v) => v <= n * tolerance);
  if (j < 0)
    throw new ConvergenceError(
      `the refined transient from the fixed point is not within ${tolerance} of its limit by ${REFINED_HORIZON_TAUS}τ at n = ${n}; start empty`,
      path.decay[path.decay.length - 1] / n,
      0,
    );
  const reach = path.times[j];
  const floor = floorTaus * path.tau;
  const base = Math.max(safetyFactor * reach, floor) * mean;
  return {
    ...capped(base, cap),
    start: 'fixed-point',
    rule:
      `auto, from the fixed point: max(${safetyFactor} × ${(reach * mean).toFixed(1)} (refined transient V(t)/n within ${tolerance} of V/n at n = ${n}), ` +
      `${floorTaus}τ = ${(floor * mean).toFixed(1)}) = ${cappedText(base, cap)}`,
    relaxationTime: path.tau * mean,
    from: path.tail,
  };
}

/** The cached path of `fixedPointWarmup` for an SQ(d) model, read at mean 1 (see `refinedDecays`). */
function refinedDecayOf(model: SupermarketModel): { times: number[]; decay: number[]; tau: number; tail: number[] } {
  const blind = parseModel({ lambda: model.lambda * model.service.mean, d: model.d, sampling: model.sampling });
  const key = `${blind.lambda}|${blind.d}|${blind.sampling}`;
  let path = refinedDecays.get(key);
  if (path === undefined) {
    if (refinedDecays.size >= 4096) refinedDecays.clear();
    path = refinedDecay(blind);
    refinedDecays.set(key, path);
  }
  return path;
}

/** The path of `fixedPointWarmup` for an SQ(d) model of mean 1, computed (see `refinedDecays`). */
function refinedDecay(blind: SupermarketModel): { times: number[]; decay: number[]; tau: number; tail: number[] } {
  const tau = relaxationTime(blind);
  const K = sqdTruncationLevel(blind.lambda, blind.d, START_TAIL_TOLERANCE);
  const tail = sqdClosedFormTail(blind.lambda, blind.d, K);
  const steps = 20 * REFINED_HORIZON_TAUS;
  const times = Array.from({ length: steps + 1 }, (_, j) => (j * REFINED_HORIZON_TAUS * tau) / steps);
  if (blind.d === 1) return { times, decay: times.map(() => 0), tau, tail }; // linear drift: E[s(t)] = s* exactly
  const path = refinedTransient(blind, { times, from: tail });
  const V = refine(blind, { truncationLevel: path.diagnostics.truncationLevel }).V;
  const decay = path.V.map((row) => row.reduce((m, v, i) => Math.max(m, Math.abs(v - (V[i] ?? 0))), 0));
  for (let j = decay.length - 2; j >= 0; j--) decay[j] = Math.max(decay[j], decay[j + 1]);
  return { times, decay, tau, tail };
}

/**
 * Warm-up of a model with dispatcher memory (theory.md §12): safetyFactor × the whole time (service-time units)
 * from which on the SQ(d) cavity ODE with the model's memory, at the same ρ and d, from empty is within `tolerance` (sup
 * norm) of its fixed point, at least 10; undefined when not within tolerance by 1000 (then the SQ(d) rule applies).
 * Memory shortens the warm-up a lot: classic JIQ at ρ = 0.9 relaxes like a server, M/M/1 at 0.9 does not.
 */
function memoryWarmup(model: SupermarketModel, tolerance: number, safetyFactor: number): number | undefined {
  const jiq = isJiq(model.selection);
  const d = jiq ? 1 : model.d;
  const rho = model.lambda * model.service.mean;
  const blind = parseModel({ lambda: rho, d, selection: jiq ? 'jiq' : 'jsq', memory: model.memory });
  const star = memoryFixedPointTail(effectiveMemory(blind.selection, d, blind.memory), rho, d);
  for (const horizon of [100, 1000]) {
    const times = Array.from({ length: horizon + 1 }, (_, j) => j);
    const tr = solveMemoryTransient(blind, { times, tolerance: 1e-8 });
    // the last time outside the tolerance, not the first inside: with memory the path from empty can overshoot
    // (π₀ stays low while many servers are idle, then the load lands on busy ones), and leave the band again
    const outside = tr.tail.map((row) => !row.every((v, k) => Math.abs(v - (star[k] ?? 0)) <= tolerance));
    const last = outside.lastIndexOf(true);
    if (last < times.length - 1) return Math.max(10, safetyFactor * times[last + 1]);
  }
  return undefined;
}

/**
 * Warm-up of a batch model with a tail ODE (theory.md §15: SQ(d,K), batches spread over the K shortest of d, and BSQ,
 * the whole batch to the shortest; jsq, Poisson batch epochs, identical servers, no memory or replicas):
 * safetyFactor × the whole time (service-time units) from which on that ODE with exponential sizes at the same ρ, d and
 * batch law, from empty, is within `tolerance` (sup norm) of its fixed point, at least 10; undefined for other models,
 * or when not within tolerance by 250 (d = K at high load: then the SQ(d) rule, with the burst as c_a² = K, applies).
 * LL(d,K) (lwl, spread) reads its workload PIDE instead (`lldkWarmup`).
 */
function batchWarmup(model: SupermarketModel, tolerance: number, safetyFactor: number): number | undefined {
  if (model.batch === 1 && model.batchLaw === undefined) return undefined;
  const lwl = model.selection === 'lwl';
  if ((model.selection !== 'jsq' && !lwl) || model.servers !== undefined || model.redundancy !== undefined || modelHasMemory(model))
    return undefined;
  if ((model.arrivals ?? POISSON_ARRIVALS).kind !== 'exponential') return undefined;
  const spread = model.batchDispatch === 'spread';
  if (spread && (model.batchLaw !== undefined || model.d < model.batch)) return undefined;
  // LL(d,K): spread only (no whole-batch equation for lwl, capabilities.ts)
  if (lwl && !spread) return undefined;
  const rho = model.lambda * model.service.mean;
  const key = `${model.selection}|${rho}|${model.d}|${model.batch}|${model.batchDispatch}|${JSON.stringify(model.batchLaw ?? null)}|${tolerance}|${safetyFactor}`;
  if (batchWarmups.has(key)) return batchWarmups.get(key);
  if (batchWarmups.size >= 4096) batchWarmups.clear();
  const blind: SupermarketModel = { ...model, lambda: rho, service: { kind: 'exponential', mean: 1 }, discipline: 'fifo' };
  if (lwl) {
    const time = lldkWarmup(blind, tolerance, safetyFactor);
    batchWarmups.set(key, time);
    return time;
  }
  const star = (spread ? sqdkFixedPoint(rho, model.d, model.batch) : bsqFixedPoint(rho, model.d, model.batchLaw ?? model.batch)).tail;
  if (star === undefined) return undefined;
  // the ODE's truncation grows with the horizon (a server gains at most λd jobs per time unit): 250 keeps it to ~0.3 s
  for (const horizon of [100, 250]) {
    const times = Array.from({ length: horizon + 1 }, (_, j) => j);
    const tr = batchTransient(blind, { times, tolerance: 1e-8 });
    const outside = tr.tail.map((row) => !row.every((v, k) => Math.abs(v - (star[k] ?? 0)) <= tolerance));
    const last = outside.lastIndexOf(true);
    if (last < times.length - 1) {
      const time = Math.max(10, safetyFactor * times[last + 1]);
      batchWarmups.set(key, time);
      return time;
    }
  }
  batchWarmups.set(key, undefined);
  return undefined;
}

/** The LL(d,K) PIDE's horizon (time units) and workload step for the warm-up (`lldkWarmup`). */
const LLDK_HORIZON = 250;
const LLDK_STEP = 0.05;

/**
 * LL(d,K) warm-up (theory.md §15): safetyFactor × the time from which on the batch workload PIDE (`lwlTransient` with
 * the batch-sampling map; exponential sizes, mean 1, at ρ) from empty stays within `tolerance` (sup norm over the
 * workload grid) of its state at t = 250, at least 10; undefined when that state has not settled (the PIDE leaves the
 * tolerance later than t = 200: d = K at high load, which then takes the SQ(⌊d/K⌋) rule like SQ(d,K)).
 * Against its own end, not the exact ccdf F̄′ = T_ρ(F̄) − F̄: the first-order scheme's stationary point is off it by
 * O(Δ) (d = 3, K = 2, ρ = 0.9: 0.0034 at Δ = 0.01, 0.017 at Δ = 0.05), more than the tolerance, while the time it takes
 * to settle barely depends on Δ there (74 at Δ = 0.01, 72 at Δ = 0.05), so Δ = 0.05 keeps this to a few CPU seconds.
 */
function lldkWarmup(blind: SupermarketModel, tolerance: number, safetyFactor: number): number | undefined {
  const times = Array.from({ length: LLDK_HORIZON + 1 }, (_, j) => j);
  const tr = lwlTransient(blind, { times, step: LLDK_STEP, quantileLevels: [0.5] });
  const end = tr.workloadCcdf[tr.workloadCcdf.length - 1];
  const outside = tr.workloadCcdf.map((row) => !row.every((v, k) => Math.abs(v - end[k]) <= tolerance));
  const last = outside.lastIndexOf(true);
  if (times[last + 1] > 0.8 * LLDK_HORIZON) return undefined;
  return Math.max(10, safetyFactor * times[last + 1]);
}

/** Batch warm-ups already integrated (`batchWarmup`, ~1 s each): a pure function of the key, so no number changes. */
const batchWarmups = new Map<string, number | undefined>();

function populationWarmup(model: PopulationModel, options: PopulationWarmupOptions): SimulationWarmup {
  const tolerance = options.tolerance ?? 1e-3;
  const tMax = options.tMax ?? 5000;
  const fixedPoint = options.fixedPoint ?? populationFixedPoint(model);
  const times = Array.from({ length: Math.round(2 * tMax) + 1 }, (_, j) => j / 2);
  const tr = populationTransient(model, { times, from: options.from, tolerance: 1e-8 });
  const j = tr.x.findIndex((x) => x.every((v, i) => Math.abs(v - fixedPoint.x[i]) <= tolerance));
  if (j < 0)
    throw new SolverError(
      `the mean-field ODE from the start state is not within ${tolerance} of the fixed point by t = ${tMax}; give the warm-up explicitly`,
    );
  const time = Math.max(10, 2 * times[j]);
  return { time, rule: `population ODE: max(10, 2 × ${times[j]} (time to within ${tolerance} of the fixed point))` };
}

/** The busy fraction of identical exponential replicas at load ρ (theory.md §16), capped at 0.999; ρ where unstable. */
function redundancyBusyLoad(rho: number, d: number): number {
  if (!(rho < identicalRedundancyLambdaMax(d))) return rho;
  return Math.min(0.999, identicalRedundancy(rho, d).busyFraction);
}
