/**
 * The comparison: runs the finite-n simulator over a list of n for a grid of (λ, d) and sets each result beside the
 * mean-field limit from `solveMeanField` (theory.md §2–§7), with the refined 1/n term where it exists (JSQ(d), FIFO,
 * exponential sizes: theory.md §6) and the fitted finite-n bias elsewhere ("Without V", §8). Optional extras: tail
 * fractions where the solver has them, the LWL(d) workload ccdf, and the transient from empty (SQ(d) ODE, LWL(d) PIDE).
 * Pure: progress and the cache of finished cells are hooks given by the caller, so an interrupted sweep can resume
 * from whatever the caller stored.
 */
import { formatMemory } from '../model/memory.ts';
import { formatArrivals } from '../model/arrivals.ts';
import { parseModel, unknownPolicy, type ModelInput, type Sampling, type SupermarketModel } from '../model/index.ts';
import { InvalidModelError } from '../errors.ts';
import {
  refine,
  refinedEstimate,
  solveSqdFixedPoint,
  simulationWarmup,
  refinedTransient,
  refinedTransientAt,
  type RefinedCorrection,
  type RefinedTransientResult,
} from '../meanfield/index.ts';
import { solveMeanField, solveMeanFieldTransient, type SolutionConvergence, type SolutionKind } from '../meanfield/solve.ts';
import { isClassicModel, meanFieldCapabilities, type MeanFieldCapabilities } from '../meanfield/capabilities.ts';
import {
  defaultWorkloadGrid,
  simulate,
  simulateTrajectory,
  type SimulateOptions,
  type SimulationResult,
  type TrajectoryOptions,
  type TrajectoryResult,
  type Percentiles,
} from '../sim/index.ts';
import { cellSeed, standardErrorOfMean, type Estimate } from '../stats/index.ts';
import { fitInverseN, logLogSlope, type FitPoint, type InverseNFit, type SlopeFit, type SweepPoint } from './fit.ts';
import {
  c1Check,
  cellVerdict,
  judgeC1Family,
  judgeFamily,
  limitCheck,
  FAMILY_RULE,
  MAX_RELATIVE_CORRECTION,
  SIGNIFICANCE_LEVEL,
  type C1Check,
  type CellVerdict,
  type FiniteNTerm,
  type LimitCheck,
  type ReferenceValue,
} from './verdict.ts';
import { lwlTransientReference, lwlWorkloadReference, workloadSupDistance, type WorkloadReference } from './lwlReference.ts';
import { VERSION } from '../version.ts';
import { loadCurves, responseTimeCurve, type LoadCurve, type ResponseTimeCurve } from './meanFieldCurves.ts';
import { exactPoints, exactVerdict, hasExactSolver, type ExactPoint, type ExactPointsConfig } from './exactPoints.ts';
import {
  judgeC2,
  judgeC2Family,
  secondOrderAllowance,
  secondOrderTerm,
  secondOrderValue,
  type C2Check,
  type SecondOrderValue,
} from './secondOrder.ts';
import type { SecondOrderCorrection } from '../meanfield/index.ts';
import { holmAdjust, studentTwoSidedPValue } from '../stats/hypothesis.ts';

/** The model fields besides λ, d and sampling, as `parseModel` takes them (short service strings such as "weibull:0.5" included). */
export type ModelFields = Pick<ModelInput, 'selection' | 'discipline' | 'service' | 'prediction' | 'memory' | 'arrivals'>;

export interface ComparisonConfig {
  /** Arrival rates per server λ; each model must be stable (ρ < 1). */
  readonly lambdas: readonly number[];
  /** Choices d, each an integer ≥ 1 and ≤ min(ns). */
  readonly ds: readonly number[];
  /** Numbers of servers to simulate. */
  readonly ns: readonly number[];
  readonly sampling: Sampling;
  /** Model fields shared by every (λ, d); default JSQ(d), FIFO, exponential sizes of mean 1 (the classic model). */
  readonly model?: ModelFields;
  /** Measured arrivals per replication (the fixed budget per n, theory.md §8 n-sweeps). */
  readonly jobs: number;
  readonly replications: number;
  /** Master seed; each cell's seed is derived from it and the cell's key, independent of run order. */
  readonly seed: number;
  /** Sup-norm distance to the fixed point that defines the warm-up (mean-field transient from empty). */
  readonly warmupTolerance: number;
  /** Warm-up = safetyFactor × time to reach warmupTolerance (models with the refined term; see `sweepWarmup`). */
  readonly warmupSafetyFactor: number;
  /** Highest level i of s_i recorded by the simulator. */
  readonly maxLevel: number;
  /** Transient comparison from empty: simulated s_i(t) for these n against the mean-field transient, or null to skip;
   *  tEnd ≤ 0 or dt ≤ 0 mean automatic (see `trajectoryGrid`). */
  readonly trajectory: { readonly ns: readonly number[]; readonly tEnd: number; readonly dt: number; readonly replications: number } | null;
  /** Workload levels w (time units) of the LWL ccdf comparison; default 0, 0.25, …, 10 (× E[S]). */
  readonly workloadGrid?: readonly number[];
  /** Fit c₂/n² in x̂_n = a + c₁/n (+ c₂/n²): true, false, or 'auto' (default: with ≥ 4 values of n). */
  readonly inverseSquare?: boolean | 'auto';
  /** Seed of cavity solvers (default: `seed`). */
  readonly cavitySeed?: number;
  /** Exact small-n points (models with `hasExactSolver`), or null/absent for none (see `ExactPointsConfig`). */
  readonly exact?: ExactPointsConfig | null;
  /** Replications of a confirmatory rerun = this × `replications` (default `CONFIRM_FACTOR`, 4: half the CI). */
  readonly confirmFactor?: number;
  /**
   * Cells sized to what they test (models with the refined term): the CI half-width should be at most `fraction` ×
   * ΣV/(λn), the 1/n term of the cell; a cell whose pilot (`jobs`) misses it is rerun with the jobs the pilot's
   * variance asks for, up to `maxJobs` per replication, else it is 'not-resolvable' (no verdict). Null: off.
   */
  readonly resolve?: { readonly fraction: number; readonly maxJobs: number } | null;
  /**
   * Cells sized to their horizon (models with τ, the SQ(d) ODE's relaxation time): jobs per replication raised to
   * ⌈relaxations·τ·λn⌉ so that jobs/(λn) ≥ relaxations·τ (theory.md §8: 20), at most `maxJobs`. Null: off (short
   * cells are flagged in `CellResult.horizon`).
   */
  readonly horizon?: { readonly relaxations: number; readonly maxJobs: number } | null;
}

/** Default factor on the replications of a confirmatory rerun. */
export const CONFIRM_FACTOR = 4;
/** theory.md §8: a cell's measured horizon jobs/(λn) should be ≥ this many relaxation times τ; shorter cells are flagged. */
export const HORIZON_RELAXATIONS = 20;

/** The n → ∞ limit of one model, from `solveMeanField`. */
export interface MeanFieldReference {
  /** E[T]∞ (time units); for cavity solvers the point estimate. */
  readonly meanResponseTime: number;
  /** E[Q]∞ per server where the solver gives it, else null. */
  readonly meanQueueLength: number | null;
  /** 95% CI half-width of a cavity result (0 for deterministic solvers). */
  readonly halfWidth: number;
  /** Stated numerical error of a deterministic solver (0 when exact or not stated). */
  readonly numericalError: number;
  readonly solver: string;
  readonly kind: SolutionKind;
  readonly source: string;
  /** Tail fractions s_0..s_K where the solver gives them (JSQ solvers). */
  readonly tail?: number[];
  /** The solver's convergence status (converged, iterations, residual where it iterates). */
  readonly convergence: SolutionConvergence;
}

export interface ModelSummary {
  /** E.g. "LWL(2) FIFO, exponential (mean 1), prediction exact, λ = 0.9". */
  readonly label: string;
  readonly lambda: number;
  readonly d: number;
  readonly model: SupermarketModel;
  readonly reference: MeanFieldReference;
  /** The refined 1/n term (theory.md §6): ΣV, the 1/n coefficient of E[Q] (jobs per server), and V per level; null where it does not exist. */
  readonly refined: { readonly sumV: number; readonly V: number[] } | null;
  readonly warmupTime: number;
  readonly warmupRule: string;
  /** τ of the SQ(d) ODE (models with the refined term), else null. */
  readonly relaxationTime: number | null;
  /** x̂_n = a + c₁/n (+ c₂/n²), weighted, a fitted (null with fewer n than parameters). */
  readonly fit: InverseNFit | null;
  /** x̂_n − x_∞ = c₁/n + c₂/n², weighted, the reference held as the limit (null below three n); with V, c₁ should be near ΣV/λ. */
  readonly fitThroughReference: InverseNFit | null;
  /** â against the reference with the combined CI. */
  readonly limit: LimitCheck;
  /** ĉ₁ over the trusted n against ΣV/λ (models with the refined term), Holm over the report's models; else null. */
  readonly c1Check: C1Check | null;
  /** log–log slope of |x̂_n − x_∞| over the resolved n (> 3 h_n). */
  readonly slope: SlopeFit | null;
  /** log–log slope of the tail sup-norm error (solvers with tails). */
  readonly tailSlope: SlopeFit | null;
  /** LWL(d): the mean-field workload ccdf at the simulated levels. */
  readonly workload: WorkloadReference | null;
  /** log–log slope of the workload-ccdf sup-norm error. */
  readonly workloadSlope: SlopeFit | null;
  /** The 1/n² term where it exists (SQ(d) with replacement): computed c₂ = ΣA/λ against the fitted ĉ₂; else null. */
  readonly secondOrder?: C2Check | null;
  /** Exact small-n values (`config.exact`) and the n skipped (below d, or over the state budget); null without. */
  readonly exact?: { readonly points: ExactPoint[]; readonly skipped: { readonly n: number; readonly reason: string }[] } | null;
  /** The mean-field response-time ccdf (SQ(d) FIFO exponential only; `responseTimeCurve`). */
  readonly responseTime?: ResponseTimeCurve | null;
}

export interface CellSimulation {
  readonly meanResponseTime: Estimate;
  readonly meanQueueLength: Estimate;
  readonly tail: Estimate[];
  readonly meanWorkload?: Estimate;
  readonly workloadCcdf?: { readonly grid: number[]; readonly ccdf: Estimate[] };
  /** p50, p95, p99 of the response time, pooled over the measured jobs with sectioning CIs (absent in cells stored before). */
  readonly responseTimePercentiles?: Percentiles<Estimate>;
  readonly events: number;
  readonly eventsPerSecond: number;
  readonly wallSeconds: number;
  readonly warmupTime: number;
  readonly jobs: number;
  readonly replications: number;
  readonly engine: string;
  readonly seeds: unknown;
}

export interface CellResult {
  /** Stable identifier of the cell (see `cellKey`), e.g. "d2-lambda0.9-n100", "lwl-fifo-d2-lambda0.9-n100". */
  readonly key: string;
  readonly lambda: number;
  readonly d: number;
  readonly n: number;
  readonly seed: number;
  readonly simulation: CellSimulation;
  /** Refined mean field at this n, π + V/n, where V exists; else null. */
  readonly refined: { readonly meanResponseTime: number; readonly meanQueueLength: number; readonly tail: number[] } | null;
  /** Second-order refined value π + V/n + A/n² where the 1/n² term exists, else null. */
  readonly secondOrder?: SecondOrderValue | null;
  /** Exact E[T]_n at this n (`config.exact`); then `verdict` is judged against it (`judgedAgainst: 'exact'`). */
  readonly exact?: ExactPoint | null;
  readonly errors: {
    /** x̂_n − x_∞ for E[T] (time units). */
    readonly meanResponseTime: number;
    /** Simulated minus refined E[T] (null without V). */
    readonly meanResponseTimeVsRefined: number | null;
    /** max_i |ŝ_i − s_i| over all recorded levels (s_i = 0 past the solver's truncation) where the reference has tails, else null. */
    readonly tailSup: number | null;
    readonly tailSupVsRefined: number | null;
    /** max_k |F̂(w_k) − F̄(w_k)| (LWL), with the largest CI half-width among the levels; else null. */
    readonly workloadSup: number | null;
    readonly workloadHalfWidth: number | null;
  };
  /** The report's verdict of the first run: single-run test, Holm-adjusted p and status (see `judgeFamily`). */
  readonly verdict: CellVerdict;
  /** The confirmatory rerun of a cell rejected after Holm (fresh seed `cellSeed(master, key + '/confirm')`), else null. */
  readonly confirmation: { readonly seed: number; readonly simulation: CellSimulation; readonly verdict: CellVerdict } | null;
  /**
   * Measured horizon per replication, jobs/(λn) time units, in relaxation times τ (null where τ is not known: models
   * without the SQ(d) ODE); short when < `HORIZON_RELAXATIONS`.
   */
  readonly horizon: { readonly time: number; readonly relaxations: number | null; readonly short: boolean };
  /** With `config.resolve`: the target half-width, the achieved ratio h/target and the outcome; else null. */
  readonly resolution: CellResolution | null;
}

export interface CellResolution {
  /** fraction × ΣV/(λn), time units. */
  readonly target: number;
  /** h_n / target (≤ 1 when resolved). */
  readonly ratio: number;
  /** Jobs per replication of the run shown. */
  readonly jobs: number;
  /** 'resolved'; 'short-of-target' (sized run, h still above target: judged, ratio shown); 'not-resolvable' (no verdict). */
  readonly status: 'resolved' | 'short-of-target' | 'not-resolvable';
}

/** Levels s_0..s_L kept in the ODE transient comparisons. */
export const TRAJECTORY_LEVELS = 8;

export interface TrajectoryComparison {
  readonly lambda: number;
  readonly d: number;
  readonly times: number[];
  /** 'ODE': SQ(d) ODE, levels s_0..s_L; 'PIDE': LWL(d) PIDE, s_0 = 1 and s_1 = the busy fraction P(U(t) > 0). */
  readonly solver: 'ODE' | 'PIDE';
  /** Mean field from empty: tail[j][i] = s_i(times[j]); the PIDE adds E[U(t)] (time units). */
  readonly meanField: { readonly tail: number[][]; readonly meanWorkload?: number[] };
  /** One entry per simulated n: s_i(t) from empty, mean and CI over replications, same levels. */
  readonly simulated: {
    readonly n: number;
    readonly tail: Estimate[][];
    readonly seed: number;
    readonly events: number;
    /** Refined mean field at this n, s_i(t) + V_i(t)/n (theory.md §6, refined transients), where the refined term exists. */
    readonly refined?: number[][];
  }[];
  /** How the mean-field transient was computed. */
  readonly note: string;
}

export interface ComparisonResult {
  /** 'refined-mean-field' when every model has the refined term (cells judged against π + V/n), else 'without-v'. */
  readonly judgedBy: 'refined-mean-field' | 'without-v';
  readonly config: ComparisonConfig;
  readonly models: ModelSummary[];
  readonly cells: CellResult[];
  readonly trajectories: TrajectoryComparison[];
  /** E[T] of the mean field against λ for several d (when every model is SQ(d) FIFO exponential; `loadCurves`). */
  readonly loadCurves?: LoadCurve[];
  /** What was skipped and why (e.g. no transient solver for a model). */
  readonly notes: string[];
  /** The multiplicity control across the report's judged cells and its outcome (theory.md §8 "Judging agreement"). */
  readonly family: {
    readonly rule: string;
    readonly alpha: number;
    readonly judged: number;
    /** First runs rejected after Holm (each rerun). */
    readonly firstRunRejections: number;
    /** Of those, confirmed by the rerun: the cells that disagree. */
    readonly confirmed: number;
  };
  /**
   * Built-in calibration check: the busy fraction ŝ₁ must equal ρ = λE[S] at every n. Per cell t = (ŝ₁ − ρ)/σ̂, and
   * their SD across cells, to compare with √(ν/(ν − 2)) of Student t with ν = R − 1 (well-calibrated intervals).
   */
  readonly busyCheck: {
    readonly tStatistics: number[];
    readonly sd: number;
    readonly expectedSd: number;
    /** Smallest Holm-adjusted p-value of the cells' two-sided t tests (Student t, ν = R − 1); NaN with no cell. */
    readonly minAdjustedPValue: number;
    /** 'disagrees' when some cell's ŝ₁ is rejected after Holm over the cells at α; 'not-judged' with no cell. */
    readonly status: 'agrees' | 'disagrees' | 'not-judged';
  };
  readonly provenance: { readonly version: string; readonly method: string };
}

/** Store of finished cells, so that a rerun of the same sweep skips them (the CLI backs it by files). */
export interface CellCache<C extends { readonly key: string } = CellResult> {
  get(key: string): C | undefined;
  put(cell: C): void;
}

export interface ComparisonHooks {
  /** Progress in simulated events (estimated total), with a label of the running cell. */
  onProgress?: (doneEvents: number, totalEvents: number, label: string) => void;
  /** Finished cells: a stored cell's seed and simulation are reused, its comparison and verdict recomputed. */
  cache?: CellCache<Pick<CellResult, 'key' | 'seed' | 'simulation'>>;
  /** Finished transient simulations by task key (`planComparison`), e.g. run beforehand on a worker pool. */
  trajectories?: { get(key: string): Pick<TrajectoryResult, 'tail' | 'events'> | undefined };
  /** The plan of this config from `planComparison`, so its mean-field solves are not repeated. */
  plan?: ComparisonPlan;
  /**
   * Confirmatory reruns missing from `cache`: when given, each is handed here as a task (key "<cell key>/confirm")
   * instead of simulated, and the result is provisional; run them (e.g. on a worker pool), store them in `cache`
   * and call `runComparison` again. Which cells are rerun depends on the first runs only.
   */
  deferRerun?: (task: ComparisonTask) => void;
}

/** One simulation of a sweep, as `planComparison` lists it: run it with `simulate` or `simulateTrajectory`. */
export type ComparisonTask =
  | {
      readonly kind: 'simulate';
      readonly key: string;
      readonly model: SupermarketModel;
      readonly options: Omit<SimulateOptions, 'onProgress'>;
      readonly cost: number;
    }
  | {
      readonly kind: 'trajectory';
      readonly key: string;
      readonly model: SupermarketModel;
      readonly options: TrajectoryOptions;
      readonly cost: number;
    };

/** The simulations of a sweep (cells, then trajectories) with the solved models; see `planComparison`. */
export interface ComparisonPlan {
  readonly config: ComparisonConfig;
  readonly tasks: readonly ComparisonTask[];
  readonly prepared: readonly unknown[];
  /** The exact small-n points of each prepared model (or null), solved once here. */
  readonly exact: readonly unknown[];
  /** What solving the models noted (e.g. a second-order term that does not apply). */
  readonly notes: readonly string[];
}

/**
 * Every simulation `runComparison(config)` would run, with its seed (derived from the cell key), options and
 * estimated events, so a caller can run them elsewhere (worker threads, other machines) and hand the results back
 * through `hooks.cache` (key = the cell key; value `{ key, seed, simulation: cellSimulation(result, replications) }`)
 * and `hooks.trajectories` (key = the task key "trajectory-<cell key>"). Solves the mean field of every model.
 * @throws see `runComparison`.
 */
export function planComparison(config: ComparisonConfig): ComparisonPlan {
  return planFromPrepared(
    config,
    sweepModels(config).map((_, i) => prepareComparisonModel(config, i)),
  );
}

/** One model of a sweep solved by `prepareComparisonModel`: plain data, so a worker thread can hand it back. */
export interface PreparedComparisonModel {
  readonly prepared: unknown;
  readonly exact: ModelSummary['exact'];
  /** What solving noted: the second-order term's, then the exact points'. */
  readonly notes: { readonly secondOrder: readonly string[]; readonly exact: readonly string[] };
}

/**
 * Solves model `index` of the sweep (in `sweepModels` order): its mean-field limit, refined and second-order terms,
 * warm-up, exact small-n points and mean-field transients. Independent of the other models, so the models of a sweep
 * can be solved in parallel; `planFromPrepared` joins them. @throws see `runComparison`.
 */
export function prepareComparisonModel(config: ComparisonConfig, index: number): PreparedComparisonModel {
  const model = sweepModels(config)[index];
  if (!model) throw new InvalidModelError(`no model ${index} in the sweep`);
  const secondOrder: string[] = [];
  const exactNotes: string[] = [];
  const prepared = prepareModel(model, config, secondOrder);
  return { prepared, exact: modelExactPoints(model, config, exactNotes), notes: { secondOrder, exact: exactNotes } };
}

/** The plan of a sweep from its solved models (every model of `sweepModels`, in order); see `planComparison`. */
export function planFromPrepared(config: ComparisonConfig, models: readonly PreparedComparisonModel[]): ComparisonPlan {
  const prepared = models.map((m) => m.prepared as PreparedModel);
  const exactByModel = models.map((m) => m.exact);
  const notes = [...models.flatMap((m) => m.notes.secondOrder), ...models.flatMap((m) => m.notes.exact)];
  const tasks: ComparisonTask[] = [];
  for (const [index, p] of prepared.entries()) {
    const grid = p.model.selection === 'lwl' ? [...(config.workloadGrid ?? defaultWorkloadGrid(p.model.service.mean))] : undefined;
    // the small-n cells of exact points outside the sweep, with their own budget (see simulateExactCell)
    for (const x of exactCellsToSimulate(exactByModel[index], config)) {
      const e = config.exact!;
      const key = `exact-${cellKey(p.model, x.n)}`;
      tasks.push({
        kind: 'simulate',
        key,
        model: p.model,
        cost: exactCellBudget(p, x.n, e),
        options: {
          n: x.n,
          jobs: e.jobs,
          replications: e.replications,
          seed: cellSeed(config.seed, key),
          warmupTime: p.warm.time,
          maxLevel: config.maxLevel,
          ...(grid ? { workloadGrid: grid } : {}),
        },
      });
    }
    for (const n of config.ns) {
      const key = cellKey(p.model, n);
      const jobs = baseJobs(p, n, config); // the horizon rule may raise it, as in runComparison
      tasks.push({
        kind: 'simulate',
        key,
        model: p.model,
        cost: config.replications * (2 * jobs + 2 * p.model.lambda * n * p.warm.time),
        options: {
          n,
          jobs,
          replications: config.replications,
          seed: cellSeed(config.seed, key),
          warmupTime: p.warm.time,
          maxLevel: config.maxLevel,
          ...(grid ? { workloadGrid: grid } : {}),
        },
      });
    }
  }
  for (const p of prepared) {
    if (!config.trajectory || !p.transient) continue;
    const { times, solver, tEnd } = p.transient;
    for (const n of config.trajectory.ns) {
      const key = `trajectory-${cellKey(p.model, n)}`;
      tasks.push({
        kind: 'trajectory',
        key,
        model: p.model,
        cost: config.trajectory.replications * 2 * p.model.lambda * n * tEnd,
        options: {
          n,
          times,
          replications: config.trajectory.replications,
          seed: cellSeed(config.seed, key),
          maxLevel: solver === 'ODE' ? config.maxLevel : 1,
        },
      });
    }
  }
  return { config, tasks, prepared, exact: exactByModel, notes };
}

/**
 * The part of a `simulate` result every stored cell keeps (comparison cells here, experiment cells in `supermarket
 * run`): E[T] and E[Q] with their CIs, the event count and rate, the wall time (s), the warm-up time and the seeds.
 */
export function storedSimulation(sim: SimulationResult) {
  return {
    meanResponseTime: sim.meanResponseTime,
    meanQueueLength: sim.meanQueueLength,
    events: sim.events,
    eventsPerSecond: sim.eventsPerSecond,
    wallSeconds: sim.wallSeconds,
    warmupTime: sim.warmupTime,
    seeds: sim.seeds,
  };
}

/** The part of a `simulate` result a comparison cell keeps (see `CellSimulation`). */
export function cellSimulation(sim: SimulationResult, replications: number): CellSimulation {
  return {
    ...storedSimulation(sim),
    tail: sim.tail,
    ...(sim.meanWorkload ? { meanWorkload: sim.meanWorkload } : {}),
    ...(sim.workloadCcdf ? { workloadCcdf: sim.workloadCcdf } : {}),
    responseTimePercentiles: sim.responseTimePercentiles,
    jobs: sim.jobs,
    replications,
    engine: sim.engine,
  };
}

/** The seed of a cell (stats/rng.ts `cellSeed`, the one seed derivation), re-exported where compare's users import it. */
export { cellSeed };

/**
 * Key of a cell: "d2-lambda0.9-n100" for the classic model (the key its seeds and stored cells have always had),
 * "lwl-fifo-d2-lambda0.9-n100" (selection and discipline first) for every other model.
 */
export function cellKey(model: SupermarketModel, n: number): string {
  const short = `d${model.d}-lambda${model.lambda}-n${n}`;
  const memory = model.memory.kind === 'none' ? '' : `-memory-${formatMemory(model.memory).replace(':', '')}`;
  const arrivals = model.arrivals.kind === 'exponential' ? '' : `-arrivals-${formatArrivals(model.arrivals).replace(/[:,]/g, '_')}`;
  return isClassicModel(model) ? short : `${model.selection}-${model.discipline}${memory}${arrivals}-${short}`;
}

/** Short human label of a service law, e.g. "weibull (shape 0.5, mean 1)". */
export function serviceLabel(s: SupermarketModel['service']): string {
  const { kind, mean, ...rest } = s as Record<string, unknown> & { kind: string; mean: number };
  const params = Object.entries(rest)
    .filter(([k]) => k !== 'values' && k !== 'source')
    .map(([k, v]) => `${k} ${String(v)}`);
  return `${kind} (${[...params, `mean ${mean}`].join(', ')})`;
}

/** E.g. "LWL(2) FIFO, exponential (mean 1), prediction exact". */
export function modelLabel(m: SupermarketModel): string {
  const memory = m.memory.kind === 'none' ? '' : `, memory ${formatMemory(m.memory)}`;
  const arrivals = m.arrivals.kind === 'exponential' ? '' : `, arrivals ${formatArrivals(m.arrivals)}`;
  return `${m.selection.toUpperCase()}(${m.d}) ${m.discipline.toUpperCase()}, ${serviceLabel(m.service)}, prediction ${m.prediction.kind}${memory}${arrivals}`;
}

/** A model of the sweep with its limit, refined term (or null) and warm-up. */
interface PreparedModel {
  readonly model: SupermarketModel;
  readonly reference: MeanFieldReference;
  readonly correction: RefinedCorrection | null;
  /** The 1/n² term (`refineSecondOrder`), null where it does not exist or was refused. */
  readonly secondOrder: SecondOrderCorrection | null;
  readonly warm: { readonly time: number; readonly rule: string; readonly relaxationTime: number | null };
  /** The mean-field transient from empty at the comparison's times (with `config.trajectory` and a transient solver). */
  readonly transient: ModelTransient | null;
}

interface ModelTransient {
  readonly solver: TrajectoryComparison['solver'];
  readonly tEnd: number;
  readonly times: number[];
  readonly meanField: { readonly values: TrajectoryComparison['meanField']; readonly note: string };
  /** E[s(t)] ≈ s(t) + V(t)/n: the linearised V, W system integrated beside the ODE (exponential JSQ(d) only). */
  readonly refinedPath: RefinedTransientResult | null;
}

/**
 * Builds and checks the models of a sweep, d outer, λ inner (the order of `ComparisonResult.models`); `prepareModel`
 * solves each. @throws {InvalidModelError} bad grids, budgets or d > n. @throws {UnstableModelError} for ρ ≥ 1.
 */
export function sweepModels(config: ComparisonConfig): SupermarketModel[] {
  if (config.lambdas.length === 0 || config.ds.length === 0 || config.ns.length === 0) {
    throw new InvalidModelError('compare needs at least one lambda, one d and one n');
  }
  for (const n of config.ns) if (!Number.isInteger(n) || n < 1) throw new InvalidModelError(`n must be an integer ≥ 1, got ${n}`);
  if (!Number.isInteger(config.jobs) || config.jobs < 1) throw new InvalidModelError(`jobs must be an integer ≥ 1, got ${config.jobs}`);
  if (!Number.isInteger(config.replications) || config.replications < 2) {
    throw new InvalidModelError(`replications must be an integer ≥ 2 (a CI needs two), got ${config.replications}`);
  }
  const factor = config.confirmFactor ?? CONFIRM_FACTOR;
  if (!Number.isInteger(factor) || factor < 1) throw new InvalidModelError(`confirmFactor must be an integer ≥ 1, got ${factor}`);
  if (config.resolve) {
    const { fraction, maxJobs } = config.resolve;
    if (!(fraction > 0)) throw new InvalidModelError(`resolve fraction must be > 0, got ${fraction}`);
    if (!(maxJobs >= config.jobs)) throw new InvalidModelError(`max jobs ${maxJobs} must be ≥ jobs ${config.jobs}`);
  }
  if (config.horizon) {
    const { relaxations, maxJobs } = config.horizon;
    if (!(relaxations > 0)) throw new InvalidModelError(`horizon must be > 0 relaxation times, got ${relaxations}`);
    if (!(maxJobs >= config.jobs)) throw new InvalidModelError(`max jobs ${maxJobs} must be ≥ jobs ${config.jobs}`);
  }
  const nMin = Math.min(...config.ns, ...(config.trajectory?.ns ?? []));
  const models: SupermarketModel[] = [];
  for (const d of config.ds) {
    for (const lambda of config.lambdas) {
      const model = parseModel({ ...config.model, lambda, d, sampling: config.sampling });
      if (model.d > nMin) throw new InvalidModelError(`d = ${d} exceeds n = ${nMin}: cannot sample more servers than exist`);
      models.push(model);
    }
  }
  return models;
}

/**
 * A model's limit, refined and second-order terms (a note where the latter does not apply), warm-up and transient.
 * @throws {InvalidModelError} "no mean-field reference for …" when `solveMeanField` has no solver. Solver
 *   failures pass through.
 */
function prepareModel(model: SupermarketModel, config: ComparisonConfig, notes: string[]): PreparedModel {
  // which solver, refined terms and transient the model has: the capability query's answer (meanfield/capabilities.ts)
  const capabilities = meanFieldCapabilities(model);
  if (!capabilities.fixedPoint.available)
    throw new InvalidModelError(
      `no mean-field reference for ${modelLabel(model)} (${capabilities.fixedPoint.reason}); ` +
        'compare sets simulations beside an n → ∞ limit and cannot run without one',
    );
  const sol = solveMeanField(model, { seed: config.cavitySeed ?? config.seed });
  const reference: MeanFieldReference = {
    meanResponseTime: sol.meanResponseTime,
    meanQueueLength: sol.meanQueueLength ?? null,
    halfWidth: sol.estimate?.halfWidth ?? 0,
    numericalError: sol.numericalError ?? 0,
    solver: sol.solver,
    kind: sol.kind,
    source: sol.source,
    ...(sol.tail ? { tail: sol.tail } : {}),
    convergence: sol.convergence,
  };
  const correction = capabilities.refined.firstOrder.available ? refine(model, { fixedPoint: solveSqdFixedPoint(model) }) : null;
  const second = !correction
    ? { correction: null, note: null }
    : capabilities.refined.secondOrder.available
      ? secondOrderTerm(model, correction.fixedPoint)
      : { correction: null, note: `no 1/n² term for d = ${model.d}, λ = ${model.lambda}: ${capabilities.refined.secondOrder.reason}` };
  if (second.note && model.sampling === 'with-replacement') notes.push(second.note);
  const warm = sweepWarmup(model, config, correction !== null);
  const p = { model, reference, correction, secondOrder: second.correction, warm, transient: null };
  return { ...p, transient: modelTransient(p, config, capabilities) };
}

/** The mean-field transient of a prepared model (`ModelTransient`), or null without `config.trajectory` or a solver. */
function modelTransient(p: PreparedModel, config: ComparisonConfig, capabilities: MeanFieldCapabilities): ModelTransient | null {
  const solver = config.trajectory ? transientSolver(capabilities) : null;
  if (!config.trajectory || !solver) return null;
  const { tEnd, dt } = trajectoryGrid(config.trajectory, p.warm.time);
  const times = Array.from({ length: Math.round(tEnd / dt) + 1 }, (_, j) => j * dt);
  const meanField = solver === 'ODE' ? odeTransient(p.model, times) : pideTransient(p.model, times);
  const refinedPath = solver === 'ODE' && p.correction ? refinedTransient(p.model, { times }) : null;
  return { solver, tEnd, times, meanField, refinedPath };
}

/**
 * Warm-up of a sweep's simulations by the one rule (`simulationWarmup`, theory.md §8). With the refined term (the
 * classic model) it is safetyFactor × the time for the SQ(d) ODE from empty to come within the tolerance of the fixed
 * point, at least 3τ, uncapped; otherwise the rule's default cap applies and its factor 2 is built in.
 */
function sweepWarmup(model: SupermarketModel, config: ComparisonConfig, refined: boolean): PreparedModel['warm'] {
  const w = refined
    ? simulationWarmup(model, { tolerance: config.warmupTolerance, safetyFactor: config.warmupSafetyFactor, cap: Infinity })
    : simulationWarmup(model, { tolerance: config.warmupTolerance });
  return { time: w.time, rule: w.rule, relaxationTime: refined ? (w.relaxationTime ?? null) : null };
}

/**
 * The trajectory figure's mean-field transient, by the capability query: the SQ(d) ODE (with its refined path) or the
 * LWL(d) workload PIDE; none for the phase-type ODE (the figure compares queue lengths of the SQ(d) ODE only).
 */
function transientSolver(capabilities: MeanFieldCapabilities): TrajectoryComparison['solver'] | null {
  const transient = capabilities.transient;
  if (!transient.available) return null;
  const id = transient.id;
  switch (id) {
    case 'sqd-ode':
      return capabilities.refined.firstOrder.available ? 'ODE' : null;
    case 'lwl-pide':
      return 'PIDE';
    case 'phase-type-ode':
      return null;
    case 'memory-cavity-ode':
      // with a dispatcher memory: the SQ(d) cavity ODE (theory.md §12), queue lengths as the SQ(d) ODE's
      return 'ODE';
    default:
      return unknownPolicy(id, 'transient solver');
  }
}

/**
 * Horizon and step of the transient comparison: as configured, or (tEnd ≤ 0) 1.2 × the model's warm-up capped
 * at 400 time units, with dt = tEnd/100 when dt ≤ 0.
 */
export function trajectoryGrid(t: NonNullable<ComparisonConfig['trajectory']>, warmup: number): { tEnd: number; dt: number } {
  const tEnd = t.tEnd > 0 ? t.tEnd : Math.min(400, Math.max(10, 1.2 * warmup));
  const dt = t.dt > 0 ? t.dt : tEnd / 100;
  return { tEnd, dt };
}

/**
 * Runs the comparison sweep (theory.md §8 "n-sweeps").
 * Per (λ, d): the limit from `solveMeanField` (solver, kind, CI or numerical error) and, for JSQ(d) FIFO exponential,
 * the refined term ΣV, V (theory.md §6); the warm-up (`sweepWarmup`); one simulation per n with the model as given;
 * then the fits x̂_n = a + c₁/n (+ c₂/n²) (limit fitted, and held at the reference), the limit check of â, the slopes,
 * and per cell the verdict (`cellVerdict`: against π + V/n with V, else with the allowance |ĉ₁|/n + |ĉ₂|/n²).
 * The report's verdicts (`judgeFamily`): Holm over all judged cells; each rejected cell is rerun with the fresh seed
 * `cellSeed(master, key + '/confirm')` and `confirmFactor` × the replications (stored in the cache under that key),
 * and "disagrees" only when the rerun rejects too. With V, ĉ₁ over the trusted n is judged against ΣV/λ
 * (`c1Check`, Holm over the models); with `config.resolve` cells are sized to the 1/n term they test.
 * LWL(d) adds the workload ccdf at `workloadGrid`. With `config.trajectory`, the transient from empty against the
 * SQ(d) ODE or the LWL(d) PIDE (other models: skipped, with a note). Every simulation seed is recorded in its cell.
 * @throws see `prepareModels`; simulator errors pass through.
 */
export function runComparison(config: ComparisonConfig, hooks: ComparisonHooks = {}): ComparisonResult {
  const plan = hooks.plan?.config === config ? hooks.plan : planComparison(config);
  const notes: string[] = [...plan.notes];
  const prepared = plan.prepared as PreparedModel[];
  const budget = (p: PreparedModel, n: number) => config.replications * (2 * baseJobs(p, n, config) + 2 * p.model.lambda * n * p.warm.time);
  const exactByModel = plan.exact as ModelSummary['exact'][];
  let totalEvents = 0; // grows when a cell is sized up or rerun
  for (const [i, p] of prepared.entries()) {
    for (const n of config.ns) totalEvents += budget(p, n);
    for (const x of exactCellsToSimulate(exactByModel[i], config)) totalEvents += exactCellBudget(p, x.n, config.exact!);
    if (config.trajectory && p.transient) {
      for (const n of config.trajectory.ns) totalEvents += config.trajectory.replications * 2 * p.model.lambda * n * p.transient.tEnd;
    }
  }
  let done = 0;
  /** One cell's simulation (or the stored one): `jobs` per replication, `replications`, with progress in events. */
  const runCell = (
    p: PreparedModel,
    n: number,
    key: string,
    seed: number,
    jobs: number,
    replications: number,
    grid: number[] | undefined,
    sized = false,
  ): { simulation: CellSimulation; resumed: boolean } => {
    const cost = replications * (2 * jobs + 2 * p.model.lambda * n * p.warm.time);
    const cached = sized ? undefined : hooks.cache?.get(key);
    if (cached) {
      done += cost;
      hooks.onProgress?.(done, totalEvents, `${key} (resumed)`);
      return { simulation: cached.simulation, resumed: true };
    }
    if (sized || replications !== config.replications) totalEvents += cost;
    const before = done;
    const sim = simulate(p.model, {
      n,
      jobs,
      replications,
      seed,
      warmupTime: p.warm.time,
      maxLevel: config.maxLevel,
      ...(grid ? { workloadGrid: grid } : {}),
      onProgress: (x, total) => hooks.onProgress?.(before + (x / Math.max(total, 1)) * cost, totalEvents, key),
    });
    done += cost;
    hooks.onProgress?.(done, totalEvents, key);
    return { resumed: false, simulation: cellSimulation(sim, replications) };
  };
  const pending: {
    p: PreparedModel;
    workload: WorkloadReference | null;
    fit: InverseNFit | null;
    grid: number[] | undefined;
    cell: CellResult;
    exact?: ExactPoint;
  }[] = [];
  const models: ModelSummary[] = [];
  const cells: CellResult[] = [];
  const trajectories: TrajectoryComparison[] = [];
  for (const [index, p] of prepared.entries()) {
    const { model, reference, correction, warm } = p;
    const grid = model.selection === 'lwl' ? [...(config.workloadGrid ?? defaultWorkloadGrid(model.service.mean))] : undefined;
    const workload = grid ? lwlWorkloadReference(model, grid) : null;
    const sims: { n: number; seed: number; simulation: CellSimulation }[] = [];
    for (const n of config.ns) {
      const key = cellKey(model, n);
      const seed = cellSeed(config.seed, key);
      const target = resolveTarget(p, n, config);
      const jobs = baseJobs(p, n, config);
      let simulation = runCell(p, n, key, seed, jobs, config.replications, grid);
      if (target !== null && simulation.simulation.jobs === jobs && !simulation.resumed) {
        const needed = jobsFor(simulation.simulation, target);
        if (needed > jobs && needed <= config.resolve!.maxJobs) {
          simulation = runCell(p, n, key, seed, needed, config.replications, grid, true);
        }
      }
      sims.push({ n, seed, simulation: simulation.simulation });
      // stored before the sweep's fit exists: the comparison and verdict are recomputed on resume
      if (!simulation.resumed) hooks.cache?.put({ key, seed, simulation: simulation.simulation });
    }
    const meanResponseTimes: FitPoint[] = sims.map(({ n, simulation: { meanResponseTime: e } }) => ({
      n,
      value: e.mean,
      halfWidth: e.halfWidth,
      replications: e.replications,
    }));
    const fit = fitInverseN(meanResponseTimes, { inverseSquare: config.inverseSquare ?? 'auto' });
    const exact = exactByModel[index];
    const exactAt = new Map(exact?.points.map((x) => [x.n, x]));
    const modelCells = sims.map((s) => withExact(assembleCell(p, s.n, s.seed, s.simulation, workload, fit, config), exactAt.get(s.n)));
    // small n with an exact value but outside the sweep: simulated on their own budget, kept out of the fits and slopes
    for (const x of exactCellsToSimulate(exact, config)) {
      const { key, seed, simulation } = simulateExactCell(p, x.n, config, hooks, grid, (events, label) => {
        done += events;
        hooks.onProgress?.(done, totalEvents, label);
      });
      const cell = { ...withExact(assembleCell(p, x.n, seed, simulation, workload, fit, config), x), key };
      cells.push(cell);
      pending.push({ p, workload, fit, grid, cell, exact: x });
    }
    cells.push(...modelCells);
    for (const cell of modelCells) pending.push({ p, workload, fit, grid, cell, exact: exactAt.get(cell.n) });
    const points = (pick: (c: CellResult) => [number, number]): SweepPoint[] =>
      modelCells.map((c) => {
        const [error, halfWidth] = pick(c);
        return { n: c.n, error, halfWidth };
      });
    const ref = referenceValue(reference);
    // two parameters need a third n to leave a degree of freedom; with two the fit passes through both points
    const throughReference =
      new Set(config.ns).size >= 3
        ? fitInverseN(
            meanResponseTimes.map((e) => ({ ...e, halfWidth: Math.hypot(e.halfWidth, ref.halfWidth) })),
            { limit: ref.value, inverseSquare: true },
          )
        : null;
    models.push({
      label: `${modelLabel(model)}, λ = ${model.lambda}`,
      lambda: model.lambda,
      d: model.d,
      model,
      reference,
      refined: correction ? { sumV: correction.sumV, V: correction.V } : null,
      warmupTime: warm.time,
      warmupRule: warm.rule,
      relaxationTime: warm.relaxationTime,
      fit,
      fitThroughReference: throughReference,
      limit: limitCheck(fit, ref),
      c1Check: correction ? trustedC1Check(p, modelCells, config) : null,
      slope: logLogSlope(points((c) => [c.errors.meanResponseTime, Math.hypot(c.simulation.meanResponseTime.halfWidth, ref.halfWidth)])),
      tailSlope: reference.tail ? logLogSlope(points((c) => [c.errors.tailSup ?? 0, maxHalfWidth(c.simulation.tail)])) : null,
      workload,
      workloadSlope: workload ? logLogSlope(points((c) => [c.errors.workloadSup ?? 0, c.errors.workloadHalfWidth ?? 0])) : null,
      secondOrder: p.secondOrder
        ? judgeC2(
            { sumA: p.secondOrder.sumA, sumV: p.secondOrder.sumV, sumPi: p.secondOrder.fixedPoint.meanQueueLength },
            model.lambda,
            ref.value,
            meanResponseTimes,
          )
        : null,
      exact,
      responseTime: correction ? responseTimeCurve(correction.fixedPoint) : null,
    });

    if (!config.trajectory) continue;
    if (!p.transient) {
      notes.push(
        `Transient from empty skipped for ${modelLabel(model)}, λ = ${model.lambda}: compare has a transient mean field ` +
          'only for JSQ(d) FIFO exponential (ODE) and LWL(d) (PIDE).',
      );
      continue;
    }
    const { solver, tEnd, times, meanField, refinedPath } = p.transient;
    // the levels a reader can see on a linear axis (the full tail is in the cells); the PIDE gives the busy fraction s_1
    const levels = solver === 'ODE' ? TRAJECTORY_LEVELS : 1;
    const simulated: TrajectoryComparison['simulated'] = [];
    for (const n of config.trajectory.ns) {
      const seed = cellSeed(config.seed, `trajectory-${cellKey(model, n)}`);
      const traj =
        hooks.trajectories?.get(`trajectory-${cellKey(model, n)}`) ??
        simulateTrajectory(model, {
          n,
          times,
          replications: config.trajectory.replications,
          seed,
          maxLevel: solver === 'ODE' ? config.maxLevel : 1,
        });
      done += config.trajectory.replications * 2 * model.lambda * n * tEnd;
      hooks.onProgress?.(done, totalEvents, `trajectory ${cellKey(model, n)}`);
      const refined = refinedPath ? refinedTransientAt(refinedPath, n).tail.map((row) => row.slice(0, levels + 1)) : undefined;
      simulated.push({
        n,
        tail: traj.tail.map((row) => row.slice(0, levels + 1)),
        seed,
        events: traj.events,
        ...(refined ? { refined } : {}),
      });
    }
    trajectories.push({ lambda: model.lambda, d: model.d, times, solver, meanField: meanField.values, simulated, note: meanField.note });
  }
  const rerunCells = new Map<number, { seed: number; simulation: CellSimulation }>();
  const judgement = judgeFamily(
    cells.map((c) => c.verdict),
    (i) => {
      const { p, workload, fit, grid, cell, exact } = pending[i];
      const key = `${cell.key}/confirm`;
      const seed = cellSeed(config.seed, key);
      const replications = (config.confirmFactor ?? CONFIRM_FACTOR) * config.replications;
      const cached = hooks.cache?.get(key);
      if (!(cached && cached.simulation.replications === replications) && hooks.deferRerun) {
        const options = { n: cell.n, jobs: cell.simulation.jobs, replications, seed, warmupTime: p.warm.time, maxLevel: config.maxLevel };
        const cost = replications * (2 * cell.simulation.jobs + 2 * p.model.lambda * cell.n * p.warm.time);
        hooks.deferRerun({ kind: 'simulate', key, model: p.model, cost, options: { ...options, ...(grid ? { workloadGrid: grid } : {}) } });
        return cell.verdict; // provisional: the caller reruns and calls again
      }
      const run =
        cached && cached.simulation.replications === replications
          ? { simulation: cached.simulation, resumed: true }
          : runCell(p, cell.n, key, seed, cell.simulation.jobs, replications, grid, true);
      if (!run.resumed) hooks.cache?.put({ key, seed, simulation: run.simulation });
      const again = withExact(assembleCell(p, cell.n, seed, run.simulation, workload, fit, config), exact);
      rerunCells.set(i, { seed, simulation: run.simulation });
      return again.verdict;
    },
  );
  const judgedCells = cells.map((c, i) => {
    const { verdict, confirmation } = judgement[i];
    const rerun = rerunCells.get(i);
    return { ...c, verdict, confirmation: confirmation && rerun ? { ...rerun, verdict: confirmation } : null };
  });
  const c1Checks = judgeC1Family(models.map((m) => m.c1Check));
  const c2Checks = judgeC2Family(models.map((m) => m.secondOrder));
  const judgedModels = models.map((m, i) => ({
    ...m,
    c1Check: c1Checks[i],
    ...(m.secondOrder !== undefined ? { secondOrder: c2Checks[i] } : {}),
  }));
  const judgedBy = prepared.every((p) => p.correction) ? 'refined-mean-field' : 'without-v';
  const family = {
    rule: FAMILY_RULE,
    alpha: SIGNIFICANCE_LEVEL,
    judged: judgement.filter((j) => j.verdict.adjustedPValue !== null).length,
    firstRunRejections: judgement.filter((j) => j.confirmation !== null).length,
    confirmed: judgement.filter((j) => j.verdict.status === 'disagrees').length,
  };
  return {
    judgedBy,
    config,
    models: judgedModels,
    cells: judgedCells,
    trajectories,
    ...(judgedBy === 'refined-mean-field' && models.length > 0
      ? {
          loadCurves: loadCurves(
            models[0].model,
            [...new Set([...config.ds, 2, 3, 5])].filter((d) => d >= 2).sort((a, b) => a - b),
          ),
        }
      : {}),
    notes,
    family,
    busyCheck: busyCheck(judgedCells, prepared),
    provenance: {
      version: VERSION,
      method:
        judgedBy === 'refined-mean-field'
          ? 'SQ(d) mean field (theory.md §2), refined 1/n term (§6), simulation (§8)'
          : 'mean field by solveMeanField (theory.md §2–§7), simulation (§8), verdict "Without V" (§8)',
    },
  };
}

function odeTransient(model: SupermarketModel, times: number[]): { values: TrajectoryComparison['meanField']; note: string } {
  const transient = solveMeanFieldTransient(model, times);
  if (transient.solver === 'memory-cavity-ode') {
    const tr = transient.result;
    return {
      values: { tail: tr.tail.map((row) => row.slice(0, TRAJECTORY_LEVELS + 1)) },
      note: 'SQ(d) cavity ODE with memory from empty (theory.md §12; Hellemans 2021, Prop. trans), odex, tolerance 1e-10',
    };
  }
  if (transient.solver !== 'sqd-ode')
    throw new InvalidModelError(`the trajectory figure compares queue lengths of an ODE, not ${transient.capability.name}`);
  const ode = transient.result;
  return {
    values: { tail: ode.tail.map((row) => row.slice(0, TRAJECTORY_LEVELS + 1)) },
    note: 'SQ(d) ODE from empty (theory.md §2), odex, tolerance 1e-10',
  };
}

function pideTransient(model: SupermarketModel, times: number[]): { values: TrajectoryComparison['meanField']; note: string } {
  const pide = lwlTransientReference(model, times);
  return { values: { tail: pide.busyFraction.map((b) => [1, b]), meanWorkload: pide.meanWorkload }, note: pide.note };
}

function referenceValue(r: MeanFieldReference): ReferenceValue {
  return { value: r.meanResponseTime, halfWidth: r.halfWidth, numericalError: r.numericalError };
}

/**
 * Sets one simulated cell beside the limit (and the refined mean field where V exists): errors (E[T], tails,
 * workload ccdf) and the verdict. @param fit the sweep's fit x̂_n = a + c₁/n (+ c₂/n²), or null (then a cell of a
 * model without V is 'not-judged').
 */
function assembleCell(
  p: PreparedModel,
  n: number,
  seed: number,
  simulation: CellSimulation,
  workload: WorkloadReference | null,
  fit: InverseNFit | null,
  config: ComparisonConfig,
): CellResult {
  const { model, reference, correction, secondOrder } = p;
  const refined = correction ? refinedEstimate(correction, n) : null;
  const w = workload && simulation.workloadCcdf ? workloadSupDistance(simulation.workloadCcdf.ccdf, workload.ccdf) : null;
  const term: FiniteNTerm =
    correction && refined
      ? {
          kind: 'refined',
          meanResponseTime: refined.meanResponseTime,
          sumV: correction.sumV,
          sumPi: correction.fixedPoint.meanQueueLength,
          lambda: model.lambda,
          ...(secondOrder ? { secondOrderAllowance: secondOrderAllowance(secondOrder, n, model.lambda) } : {}),
        }
      : { kind: 'fitted', c1: fit?.c1 ?? null, c2: fit?.c2 ?? 0 };
  const target = resolveTarget(p, n, config);
  const resolution = target === null ? null : cellResolution(simulation, target, baseJobs(p, n, config), config);
  const verdict = cellVerdict(simulation.meanResponseTime, referenceValue(reference), term, n);
  const time = simulation.jobs / (model.lambda * n);
  const tau = p.warm.relaxationTime;
  return {
    key: cellKey(model, n),
    lambda: model.lambda,
    d: model.d,
    n,
    seed,
    simulation,
    refined,
    ...(secondOrder ? { secondOrder: secondOrderValue(secondOrder, n) } : {}),
    errors: {
      meanResponseTime: simulation.meanResponseTime.mean - reference.meanResponseTime,
      meanResponseTimeVsRefined: refined ? simulation.meanResponseTime.mean - refined.meanResponseTime : null,
      tailSup: reference.tail ? supDistance(simulation.tail, reference.tail) : null,
      tailSupVsRefined: refined ? supDistance(simulation.tail, refined.tail) : null,
      workloadSup: w ? w.sup : null,
      workloadHalfWidth: w ? w.halfWidth : null,
    },
    verdict:
      resolution?.status === 'not-resolvable' && (verdict.status === 'agrees' || verdict.status === 'disagrees')
        ? { ...verdict, status: 'not-resolvable', pValue: Number.NaN }
        : verdict,
    confirmation: null,
    horizon: { time, relaxations: tau ? time / tau : null, short: tau ? time < HORIZON_RELAXATIONS * tau : false },
    resolution,
  };
}

/** The target half-width fraction × ΣV/(λn) of a cell under `config.resolve` (models with the refined term), else null. */
function resolveTarget(p: PreparedModel, n: number, config: ComparisonConfig): number | null {
  if (!config.resolve || !p.correction) return null;
  return (config.resolve.fraction * Math.abs(p.correction.sumV)) / (p.model.lambda * n);
}

/** Jobs per replication that bring the half-width to `target`, from the run's own variance (h ∝ 1/√jobs), 20% margin. */
function jobsFor(simulation: CellSimulation, target: number): number {
  const h = simulation.meanResponseTime.halfWidth;
  return h <= target ? simulation.jobs : Math.ceil(simulation.jobs * (h / target) ** 2 * 1.2);
}

/** Jobs per replication of a cell's first run: `config.jobs`, raised to the horizon rule when `config.horizon` is set. */
function baseJobs(p: PreparedModel, n: number, config: ComparisonConfig): number {
  const tau = p.warm.relaxationTime;
  if (!config.horizon || !tau) return config.jobs;
  return Math.min(config.horizon.maxJobs, Math.max(config.jobs, Math.ceil(config.horizon.relaxations * tau * p.model.lambda * n)));
}

function cellResolution(simulation: CellSimulation, target: number, pilotJobs: number, config: ComparisonConfig): CellResolution {
  const h = simulation.meanResponseTime.halfWidth;
  const base = { target, ratio: h / target, jobs: simulation.jobs };
  if (h <= target) return { ...base, status: 'resolved' };
  if (simulation.jobs > pilotJobs) return { ...base, status: 'short-of-target' };
  return { ...base, status: jobsFor(simulation, target) > config.resolve!.maxJobs ? 'not-resolvable' : 'short-of-target' };
}

/**
 * ĉ₁ against ΣV/λ (theory.md §8 "Sweep") from the cells inside the trusted range (ΣV/(nΣπ) ≤ `MAX_RELATIVE_CORRECTION`,
 * the range of the cell verdicts), the reference held as the limit; c₂/n² fitted when ≥ 3 n remain.
 */
function trustedC1Check(p: PreparedModel, modelCells: readonly CellResult[], config: ComparisonConfig): C1Check {
  const sumV = p.correction!.sumV;
  const sumPi = p.correction!.fixedPoint.meanQueueLength;
  const points: FitPoint[] = modelCells
    .filter((c) => Math.abs(sumV) / (c.n * sumPi) <= MAX_RELATIVE_CORRECTION)
    .map((c) => ({
      n: c.n,
      value: c.simulation.meanResponseTime.mean,
      halfWidth: c.simulation.meanResponseTime.halfWidth,
      replications: c.simulation.replications,
    }));
  const fit =
    new Set(points.map((q) => q.n)).size >= 2 ? fitInverseN(points, { limit: p.reference.meanResponseTime, inverseSquare: 'auto' }) : null;
  return c1Check(fit, sumV / p.model.lambda, config.replications);
}

/** The busy-fraction check ŝ₁ = ρ over all cells (see `ComparisonResult.busyCheck`). */
function busyCheck(cells: readonly CellResult[], prepared: readonly PreparedModel[]): ComparisonResult['busyCheck'] {
  const rho = (c: CellResult) => {
    const m = prepared.find((q) => q.model.d === c.d && q.model.lambda === c.lambda)!.model;
    return m.lambda * m.service.mean;
  };
  const used = cells.filter((c) => c.simulation.tail.length > 1 && standardErrorOfMean(c.simulation.tail[1]) > 0);
  const tStatistics = used.map((c) => (c.simulation.tail[1].mean - rho(c)) / standardErrorOfMean(c.simulation.tail[1]));
  const adjusted = holmAdjust(tStatistics.map((t, i) => studentTwoSidedPValue(t, used[i].simulation.tail[1].replications - 1)));
  const minAdjustedPValue = adjusted.length ? Math.min(...adjusted) : Number.NaN;
  const status = adjusted.length === 0 ? 'not-judged' : minAdjustedPValue < SIGNIFICANCE_LEVEL ? 'disagrees' : 'agrees';
  const mean = tStatistics.reduce((a, b) => a + b, 0) / Math.max(tStatistics.length, 1);
  const sd =
    tStatistics.length > 1 ? Math.sqrt(tStatistics.reduce((a, t) => a + (t - mean) ** 2, 0) / (tStatistics.length - 1)) : Number.NaN;
  const nu = Math.min(...cells.map((c) => c.simulation.replications)) - 1;
  return { tStatistics, sd, expectedSd: nu > 2 ? Math.sqrt(nu / (nu - 2)) : Number.NaN, minAdjustedPValue, status };
}

function supDistance(estimates: readonly Estimate[], reference: readonly number[]): number {
  let sup = 0;
  // levels past the solver's truncation K count with s_i = 0 (s_K* < 1e-15 there)
  for (let i = 1; i < Math.max(estimates.length, reference.length); i++) {
    sup = Math.max(sup, Math.abs((estimates[i]?.mean ?? 0) - (reference[i] ?? 0)));
  }
  return sup;
}

function maxHalfWidth(tail: readonly Estimate[]): number {
  let h = 0;
  for (let i = 1; i < tail.length; i++) h = Math.max(h, tail[i].halfWidth);
  return h;
}

/** Exact points of a model per `config.exact` (null without it; a note where the model has no exact solver or an n was skipped). */
function modelExactPoints(model: SupermarketModel, config: ComparisonConfig, notes: string[]): ModelSummary['exact'] {
  if (!config.exact || config.exact.ns.length === 0) return null;
  if (!hasExactSolver(model)) {
    notes.push(`No exact points for ${modelLabel(model)}: the exact solver has JSQ(d) and random selection, FIFO, exponential sizes.`);
    return null;
  }
  const exact = exactPoints(model, config.exact.ns, config.exact);
  for (const s of exact.skipped) notes.push(`No exact point at d = ${model.d}, λ = ${model.lambda}, n = ${s.n}: ${s.reason}.`);
  return exact;
}

/** The exact points whose n is not in the sweep: they get their own small-budget simulation. */
function exactCellsToSimulate(exact: ModelSummary['exact'], config: ComparisonConfig): ExactPoint[] {
  return (exact?.points ?? []).filter((x) => !config.ns.includes(x.n));
}

function exactCellBudget(p: PreparedModel, n: number, e: ExactPointsConfig): number {
  return e.replications * (2 * e.jobs + 2 * p.model.lambda * n * p.warm.time);
}

/** A cell with its exact value: the verdict is then the one against the exact value (`exactVerdict`). */
function withExact(cell: CellResult, exact: ExactPoint | undefined): CellResult {
  return exact ? { ...cell, exact, verdict: exactVerdict(cell.simulation.meanResponseTime, exact) } : cell;
}

/**
 * Simulates (or takes from the cache) the small-n cell of an exact point with the budget of `config.exact`; key
 * "exact-" + `cellKey`, so it never shares a seed or a stored cell with a sweep cell of the same n.
 */
function simulateExactCell(
  p: PreparedModel,
  n: number,
  config: ComparisonConfig,
  hooks: ComparisonHooks,
  grid: number[] | undefined,
  progress: (events: number, label: string) => void,
): { key: string; seed: number; simulation: CellSimulation } {
  const e = config.exact!;
  const key = `exact-${cellKey(p.model, n)}`;
  const cost = exactCellBudget(p, n, e);
  const cached = hooks.cache?.get(key);
  if (cached && cached.simulation.jobs === e.jobs && cached.simulation.replications === e.replications) {
    progress(cost, `${key} (resumed)`);
    return { key, seed: cached.seed, simulation: cached.simulation };
  }
  const seed = cellSeed(config.seed, key);
  const sim = simulate(p.model, {
    n,
    jobs: e.jobs,
    replications: e.replications,
    seed,
    warmupTime: p.warm.time,
    maxLevel: config.maxLevel,
    ...(grid ? { workloadGrid: grid } : {}),
  });
  const simulation = cellSimulation(sim, e.replications);
  hooks.cache?.put({ key, seed, simulation });
  progress(cost, key);
  return { key, seed, simulation };
}
