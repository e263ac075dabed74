/**
 * The shapes of a comparison (theory.md §8 "n-sweeps"): its configuration, its plan (solved models and the tasks to
 * run), its cells and model summaries, and the result `runComparison` returns. Plain data throughout.
 */
import type { ModelInput, Sampling, SupermarketModel } from '../model/index.ts';
import type {
  RefinedCorrection,
  RefinedTransientResult,
  SecondOrderCorrection,
  SolutionConvergence,
  SolutionKind,
} from '../meanfield/index.ts';
import type { PhaseTypeFitError } from '../meanfield/phaseType/fitError.ts';
import type { SimulationStart, StartChoice } from '../meanfield/index.ts';
import type { ClassEstimate, Percentiles } from '../sim/index.ts';
import type { Estimate } from '../stats/index.ts';
import type { SimulationTask, StoredTrajectory, TrajectoryTask } from '../runs/task.ts';
import type { InverseNFit, SlopeFit } from './fit.ts';
import type { C1Check, CellVerdict, LimitCheck } from './verdict.ts';
import type { WorkloadReference } from './lwlReference.ts';
import type { LoadCurve, ResponseTimeCurve } from './meanFieldCurves.ts';
import type { QuantileCheck } from './quantileCells.ts';
import type { ExactPoint, ExactPointsConfig } from './exactPoints.ts';
import type { C2Check, SecondOrderValue } from './secondOrder.ts';

/** The model fields besides λ, d and sampling, as `parseModel` takes them (short service strings such as "weibull:0.5" included). */
export type ModelFields = Pick<
  ModelInput,
  | 'selection'
  | 'discipline'
  | 'service'
  | 'prediction'
  | 'memory'
  | 'servers'
  | 'arrivals'
  | 'batch'
  | 'batchDispatch'
  | 'redundancy'
  | 'replicas'
>;

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
  /**
   * Start of the sweep's and exact points' replications (default 'empty'): 'fixed-point' starts each at the mean-field
   * fixed point with the one rule's warm-up for that start and n (`simulationWarmup`, SQ(d) models only; theory.md §8
   * "Start"); 'auto' (the CLI's default) the fixed point where the rule takes it at n, else empty. Each cell names the
   * start it took (`CellSimulation.start`). The transient figure starts empty whatever this says.
   */
  readonly start?: StartChoice;
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
  /** The solver's name; where there is no reference value, 'no reference: ' and why (e.g. 'no reference: E[T]∞ not settled'). */
  readonly solver: string;
  /** The solver's kind; 'none' where no solver ran (E[T]∞ ∞, not settled or not computed: no reference value). */
  readonly kind: SolutionKind | 'none';
  readonly source: string;
  /** Tail fractions s_0..s_K where the solver gives them (JSQ solvers). */
  readonly tail?: number[];
  /** Heterogeneous servers (theory.md §13): each class's limit busy fraction and E[T] of the jobs it serves. */
  readonly classes?: readonly { readonly speed: number; readonly busyFraction: number; readonly meanResponseTime: number }[];
  /** The solver's convergence status (converged, iterations, residual where it iterates); null where no solver ran. */
  readonly convergence: SolutionConvergence | null;
  /** Approximation kind (the two-moment PH fit): the measured error of its E[T] for the law family (fitError.ts). */
  readonly measuredError?: PhaseTypeFitError;
  /**
   * Why E[T] is infinite in theory (model/moments.ts `estimandFiniteness`), when it is: then meanResponseTime and
   * meanQueueLength are +∞ (null in JSON, this reason beside them), no solver ran, and every check of the model is
   * "undefined (infinite)".
   */
  readonly infinite?: string;
  /**
   * Why E[T]∞ is not settled (model/moments.ts `meanFieldUnsettled`), when it is: then meanResponseTime and
   * meanQueueLength are NaN (null in JSON, this reason beside them), no solver ran, the cells are simulated and shown,
   * and every check of the model is "not settled" (status 'not-settled').
   */
  readonly unsettled?: string;
  /**
   * Why E[T]∞, proven finite (model/moments.ts `meanFieldLimit`), has no number: no solver here computes it (the
   * capability query's refusal, meanfield/capabilities.ts), when so: then meanResponseTime and meanQueueLength are NaN
   * (null in JSON, this reason beside them), the cells are simulated and shown, and every check of the model is
   * "finite, not computed" (status 'not-computed').
   */
  readonly notComputed?: string;
  /**
   * Why E[T]_n = ∞ at every finite n (model/moments.ts `estimandFiniteness`, e.g. with replacement: all d draws on one
   * server) while the limit is not proven ∞, when so: set beside `unsettled` or `notComputed`, which say the limit's
   * own status from the start (compare/plan.ts), so no output calls the limit ∞. The cells' means are ∞ and read
   * "undefined (infinite)"; E[T]_n does not converge to the limit.
   */
  readonly infiniteAtEveryN?: string;
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
  /** The one rule's warm-up from empty and its rule in words: the transient figure's horizon, and the cells' with the empty start. */
  readonly warmupTime: number;
  readonly warmupRule: string;
  /**
   * What the model's cells used (its sweep cells and the exact-point cells outside the sweep): the smallest and largest warm-up (time units; they differ
   * by n with the fixed-point start, whose rule reads n) and the starts taken, with their cell counts.
   */
  readonly cellWarmups: { readonly min: number; readonly max: number; readonly starts: Partial<Record<SimulationStart, number>> };
  /** τ of the SQ(d) ODE (models with the refined term), else null. */
  readonly relaxationTime: number | null;
  /** x̂_n = a + c₁/n (+ c₂/n²), weighted, a fitted (null with fewer n than parameters). */
  readonly fit: InverseNFit | null;
  /** x̂_n − x_∞ = c₁/n + c₂/n², weighted, the reference held as the limit (null below three n); with V, c₁ should be near ΣV/λ. */
  readonly fitThroughReference: InverseNFit | null;
  /**
   * â against the reference with the combined CI; the report's status by the family rule over the models (Holm, then a
   * confirmatory rerun of a rejected model's sweep: `limitConfirmation`).
   */
  readonly limit: LimitCheck;
  /**
   * The limit check refitted from the reruns ("<cell key>/confirm": fresh seeds, `confirmFactor` × the replications)
   * of the model's sweep cells, when its first run was rejected after Holm over the models (its `adjustedPValue` Holm
   * over the reruns); else null. Absent before the family is judged.
   */
  readonly limitConfirmation?: {
    readonly check: LimitCheck;
    readonly cells: readonly { readonly n: number; readonly seed: number }[];
  } | null;
  /** ĉ₁ over the trusted n against ΣV/λ (models with the refined term), Holm over the report's models; else null. */
  readonly c1Check: C1Check | null;
  /**
   * The c₁ check (`c1Confirmation`) and c₂ check (`c2Confirmation`) recomputed from the reruns ("<cell key>/confirm")
   * of the model's sweep cells, when the first run's check was rejected after Holm over the models (their
   * `adjustedPValue` Holm over the reruns); else null. Absent before the family is judged.
   */
  readonly c1Confirmation?: C1Check | null;
  readonly c2Confirmation?: C2Check | null;
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
  /** The mean-field response-time ccdf (every model with an exact or approximate law; quantileCells.ts). */
  readonly responseTime?: ResponseTimeCurve | null;
  /** The simulated p50/p95/p99 of each cell judged against the mean field's quantiles (quantileCells.ts); null without a law. */
  readonly quantiles?: QuantileCheck | null;
}

export interface CellSimulation {
  readonly meanResponseTime: Estimate;
  readonly meanQueueLength: Estimate;
  readonly tail: Estimate[];
  readonly meanWorkload?: Estimate;
  readonly workloadCcdf?: { readonly grid: number[]; readonly ccdf: Estimate[] };
  /** p50, p95, p99 of the response time, pooled over the measured jobs with sectioning CIs (absent in cells stored before). */
  readonly responseTimePercentiles?: Percentiles<Estimate>;
  /** The pooled empirical ccdf as quantiles t[k] at probabilities p[k] (sim/simulate.ts; absent in cells stored before). */
  readonly responseTimeCcdf?: { readonly p: readonly number[]; readonly t: readonly number[] };
  /** Heterogeneous servers (theory.md §13): per class busy fraction, E[T] and jobs served, and Σ f·speed·busy. */
  readonly classes?: ClassEstimate[];
  readonly workRate?: Estimate;
  readonly events: number;
  readonly eventsPerSecond: number;
  readonly wallSeconds: number;
  readonly warmupTime: number;
  /** The start of every replication ('auto' resolved, `cellWarmup`); absent in cells stored before starts were named: empty. */
  readonly start?: SimulationStart;
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
  /**
   * Refined mean field at this n, π + V/n, where V exists; else null. `trusted`: n is in the 1/n expansion's trusted
   * range, |ΣV|/(nΣπ) ≤ 5 % (`firstOrderTrust`, the range the verdict judges in); outside it the value is shown marked.
   */
  readonly refined: {
    readonly meanResponseTime: number;
    readonly meanQueueLength: number;
    readonly tail: number[];
    readonly trusted: boolean;
  } | null;
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

/**
 * What the transient figure draws of a trajectory from empty, and so, with the automatic horizon, how far `compare`
 * simulates it (`transientRange`, compare/plan.ts; the figure, report/comparisonFigures.ts, reads the same): per
 * mean-field solver the levels s_i drawn (whose settling ends the range), the reach in relaxation times τ, the margin
 * past the time the drawn levels settle within `settleTolerance` (relative) of their last value, and the rounding
 * step of the range's end (time units).
 */
export const TRANSIENT_DRAWN = {
  levels: { ODE: [1, 2, 3], PIDE: [1] },
  relaxations: 3,
  settleMargin: 1.2,
  settleTolerance: 0.01,
  step: 5,
} as const;

export interface TrajectoryComparison {
  readonly lambda: number;
  readonly d: number;
  readonly times: number[];
  /** 'ODE': SQ(d) ODE, levels s_0..s_L; 'PIDE': LWL(d) PIDE, s_0 = 1 and s_1 = the busy fraction P(U(t) > 0). */
  readonly solver: 'ODE' | 'PIDE';
  /** Mean field from empty: tail[j][i] = s_i(times[j]); the PIDE adds E[U(t)] (time units). */
  readonly meanField: { readonly tail: number[][]; readonly meanWorkload?: number[] };
  /**
   * End of the drawn time range (`transientRange`, time units): the figure draws the times up to it. With the automatic
   * horizon the trajectory was simulated only that far (its last time ≤ `drawnTo`).
   */
  readonly drawnTo: number;
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
   * Built-in calibration check: the busy fraction ŝ₁ must equal ρ = λE[S] at every n (with server speeds: the work rate
   * Σ f·speed·busy must equal λE[S], `CellSimulation.workRate`). Per cell t = (ŝ₁ − ρ)/σ̂, and
   * their SD across cells, to compare with √(ν/(ν − 2)) of Student t with ν = R − 1 (well-calibrated intervals).
   */
  readonly busyCheck: {
    readonly tStatistics: number[];
    readonly sd: number;
    readonly expectedSd: number;
    /** Smallest Holm-adjusted p-value of the cells' two-sided t tests (Student t, ν = R − 1); NaN with no cell. */
    readonly minAdjustedPValue: number;
    /**
     * The family rule (compare/verdict.ts `confirmFamily`): 'disagrees' only when some cell's ŝ₁ is rejected after Holm
     * over the cells at α and its confirmatory rerun (fresh seed, more replications) is rejected too, Holm over the
     * reruns; 'not-judged' with no cell.
     */
    readonly status: 'agrees' | 'disagrees' | 'not-judged';
    /** Cells rejected after Holm on their first run (each rerun). */
    readonly firstRunRejections?: number;
    /** Of those, confirmed by the rerun. */
    readonly confirmed?: number;
    /** The reruns: cell key, seed, t of the rerun and its Holm-adjusted p over the reruns. */
    readonly reruns?: readonly {
      readonly key: string;
      readonly seed: number;
      readonly tStatistic: number;
      readonly adjustedPValue: number | null;
    }[];
  };
  readonly provenance: { readonly version: string; readonly method: string };
}

/** Store of finished cells, so that a rerun of the same sweep skips them (the CLI backs it by files). */
export interface CellCache<C extends { readonly key: string } = CellResult> {
  get(key: string): C | undefined;
  put(cell: C): void;
}

/** One simulation of a sweep, as `planComparison` lists it: run it with `simulate` or `simulateTrajectory`. */
export type ComparisonTask = SimulationTask | TrajectoryTask;

/** What a task gives back to the assembly: a cell's simulation, or a trajectory's tail fractions and events. */
export type TaskValue = CellSimulation | StoredTrajectory;

/**
 * Runs a batch of tasks (or takes their stored values) and gives their values back in task order: in this thread
 * (`runComparison`) or on worker threads (the CLI's pool, `runComparisonWith`). A stored value is usable for a task
 * when `usableValue` says so.
 */
export type Execute<R> = (tasks: readonly ComparisonTask[]) => R;

export interface ComparisonHooks {
  /** Progress in simulated events (estimated total), with a label of the running cell. */
  onProgress?: (doneEvents: number, totalEvents: number, label: string) => void;
  /** Finished cells: a stored cell's seed and simulation are reused, its comparison and verdict recomputed. */
  cache?: CellCache<Pick<CellResult, 'key' | 'seed' | 'simulation'>>;
  /** The plan of this config from `planComparison`, so its mean-field solves are not repeated. */
  plan?: ComparisonPlan;
}

/** The simulations of a sweep (cells, then trajectories) with the solved models; see `planComparison`. */
export interface ComparisonPlan {
  readonly config: ComparisonConfig;
  readonly tasks: readonly ComparisonTask[];
  readonly prepared: readonly PreparedModel[];
  /** The exact small-n points of each prepared model (or null), solved once here. */
  readonly exact: readonly ModelSummary['exact'][];
  /** What solving the models noted (e.g. a second-order term that does not apply). */
  readonly notes: readonly string[];
}

/** One model of a sweep solved by `prepareComparisonModel`: plain data, so a worker thread can hand it back. */
export interface PreparedComparisonModel {
  readonly prepared: PreparedModel;
  readonly exact: ModelSummary['exact'];
  /** What solving noted: the second-order term's, then the exact points'. */
  readonly notes: { readonly secondOrder: readonly string[]; readonly exact: readonly string[] };
}

/**
 * The 1/n term of E[Q] and of the tail a comparison judges by (theory.md §6, §8): SQ(d)'s RefinedCorrection, or with
 * server speeds the per-class ODE's term through the population model (heteroRefined, theory.md §13): `V[k]` the 1/n
 * coefficient of the mixture tail Σ_c f_c s_{c,k}, `sumV` that of E[Q] per server, `fixedPoint` the per-class fixed
 * point's mixture tail and E[Q].
 */
export type FirstOrderTerm = Pick<RefinedCorrection, 'V' | 'sumV'> & {
  readonly fixedPoint: Pick<RefinedCorrection['fixedPoint'], 'tail' | 'meanQueueLength'> & {
    readonly provenance: { readonly model: SupermarketModel };
  };
  /** Which expansion: SQ(d)'s (theory.md §6) or the per-class population model's (§13). */
  readonly origin: 'sqd' | 'server speeds';
};

/** A model of the sweep with its limit, refined term (or null) and warm-up. */
export interface PreparedModel {
  readonly model: SupermarketModel;
  readonly reference: MeanFieldReference;
  /** The 1/n term the cells are judged by: SQ(d)'s `refine`, or with server speeds heteroRefined's (`FirstOrderTerm`). */
  readonly correction: FirstOrderTerm | null;
  /** The 1/n² term (`refineSecondOrder`), null where it does not exist or was refused. */
  readonly secondOrder: SecondOrderCorrection | null;
  readonly warm: {
    readonly time: number;
    readonly rule: string;
    readonly relaxationTime: number | null;
    /** The cells' starts and warm-ups by n (`cellWarmup`), where the start is not empty; computed where the model is prepared. */
    readonly cells?: Readonly<Record<number, CellWarmup>>;
  };
  /** The mean-field transient from empty at the comparison's times (with `config.trajectory` and a transient solver). */
  readonly transient: ModelTransient | null;
}

/** Where a cell's replications start and their warm-up (`cellWarmup`): time units, the start taken, its tail s_0..s_K. */
export interface CellWarmup {
  readonly time: number;
  readonly start: SimulationStart;
  readonly from?: number[];
}

export interface ModelTransient {
  readonly solver: TrajectoryComparison['solver'];
  /** The simulated horizon (the last of `times`, or the configured --t-end) and its instants. */
  readonly tEnd: number;
  readonly times: number[];
  /** End of the drawn range (`transientRange`); with the automatic horizon `times` end there. */
  readonly drawnTo: number;
  readonly meanField: { readonly values: TrajectoryComparison['meanField']; readonly note: string };
  /**
   * E[s(t)] ≈ s(t) + V(t)/n: the linearised V, W system integrated beside the ODE (exponential JSQ(d) only), over the
   * whole automatic grid (`times` is a prefix of its instants: an odex run to an earlier end takes other steps).
   */
  readonly refinedPath: RefinedTransientResult | null;
}
