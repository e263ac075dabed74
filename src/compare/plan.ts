/**
 * The plan of a comparison: the models of the sweep, each solved once (limit, refined and second-order terms, warm-up,
 * exact small-n points, mean-field transients), and every simulation the sweep runs as a `SimulationTask` (key, model,
 * options, seed `cellSeed(master, key)`, cost `taskCost`): the first runs (`planFromPrepared`), the sized runs of
 * `config.resolve` (`sizingTasks`) and the confirmatory reruns (`confirmationTask`), each a plan from what came before.
 */
import { formatMemory } from '../model/memory.ts';
import { estimandFiniteness, infiniteMeanWords, meanFieldFiniteness, meanFieldUnsettled, precisionRefusal } from '../model/moments.ts';
import { formatArrivals } from '../model/arrivals.ts';
import { formatBatch } from '../model/batchLaw.ts';
import { parseModel, randomRoutingTwin, selectionName, unknownPolicy, type SupermarketModel } from '../model/index.ts';
import { InvalidModelError } from '../errors.ts';
import { refine, simulationWarmup, refinedTransient, type TransientResult } from '../meanfield/index.ts';
import { solveMeanField, solveMeanFieldTransient } from '../meanfield/solve.ts';
import { isClassicModel, meanFieldCapabilities, type MeanFieldCapabilities } from '../meanfield/capabilities.ts';
import { defaultWorkloadGrid } from '../sim/index.ts';
import { simulationTask, trajectoryTask, type SimulationTask } from '../runs/task.ts';
import { lwlTransientReference } from './lwlReference.ts';
import { EXACT_DEFAULTS, exactPoints, hasExactSolver, type ExactPoint } from './exactPoints.ts';
import { secondOrderTerm } from './secondOrder.ts';
import { heteroRefined, heteroRefinedRefusal } from '../meanfield/hetero/refined.ts';
import { heteroFixedPoint } from '../meanfield/hetero/occupancy.ts';
import { UNDEFINED_INFINITE, UNVALUED, type UnvaluedStatus } from './verdict.ts';
import {
  CONFIRM_FACTOR,
  TRAJECTORY_LEVELS,
  TRANSIENT_DRAWN,
  type CellSimulation,
  type FirstOrderTerm,
  type ComparisonConfig,
  type ComparisonPlan,
  type CellWarmup,
  type ComparisonTask,
  type MeanFieldReference,
  type ModelSummary,
  type ModelTransient,
  type PreparedComparisonModel,
  type PreparedModel,
  type TaskValue,
  type TrajectoryComparison,
} from './types.ts';

/**
 * Every simulation `runComparison(config)` runs first, with its seed (derived from the task key), options and
 * estimated events, so a caller can run them elsewhere (worker threads, other machines) and hand the values back by
 * key (`runComparisonWith`). Solves the mean field of every model. @throws see `runComparison`.
 */
export function planComparison(config: ComparisonConfig): ComparisonPlan {
  return planFromPrepared(
    config,
    sweepModels(config).map((_, i) => prepareComparisonModel(config, i)),
  );
}

/**
 * Solves model `index` of the sweep (in `sweepModels` order): its mean-field limit, refined and second-order terms,
 * warm-up, exact small-n points and mean-field transients. Independent of the other models, so the models of a sweep
 * can be solved in parallel; `planFromPrepared` joins them. @throws see `runComparison`.
 * @param onFirstTasks called before the costlier solves (refined and second-order terms, exact chains) with the
 *   model's tasks of `planFromPrepared` but the exact-point cells, so a caller can start simulating while the rest is
 *   solved: first its trajectories, once the mean-field transient has fixed their horizon (the longest single runs
 *   start first), then its sweep cells, once their warm-ups are known.
 */
export function prepareComparisonModel(
  config: ComparisonConfig,
  index: number,
  onFirstTasks?: (tasks: ComparisonTask[]) => void,
): PreparedComparisonModel {
  const model = sweepModels(config)[index];
  if (!model) throw new InvalidModelError(`no model ${index} in the sweep`);
  const secondOrder: string[] = [];
  const exactNotes: string[] = [];
  const early = onFirstTasks && {
    trajectories: (s: ModelSchedule) => onFirstTasks(trajectoryTasks(config, s)),
    cells: (s: ModelSchedule) => onFirstTasks(sweepCellTasks(config, s)),
  };
  const prepared = prepareModel(model, config, secondOrder, early);
  return { prepared, exact: modelExactPoints(model, config, exactNotes), notes: { secondOrder, exact: exactNotes } };
}

/** What a model's simulations depend on: the model, its warm-up and the grid of its transient. */
type ModelSchedule = Pick<PreparedModel, 'model' | 'warm'> & {
  readonly transient: Pick<ModelTransient, 'solver' | 'tEnd' | 'times'> | null;
};

/** Hooks of `prepareModel` that send a model's first simulations ahead: its trajectories, then its sweep cells. */
type EarlyTasks = Record<'trajectories' | 'cells', (schedule: ModelSchedule) => void>;

/** A model's cells of the sweep, one per n (`baseJobs`, `config.replications`). */
function sweepCellTasks(config: ComparisonConfig, p: ModelSchedule): SimulationTask[] {
  return config.ns.map((n) => cellTask(config, p, cellKey(p.model, n), n, baseJobs(p, n, config), config.replications));
}

/** A model's transients from empty (key "trajectory-" + `cellKey`), one per n of `config.trajectory`. */
function trajectoryTasks(config: ComparisonConfig, p: ModelSchedule): ComparisonTask[] {
  if (!config.trajectory || !p.transient) return [];
  const { times, solver, tEnd } = p.transient;
  return config.trajectory.ns.map((n) => {
    const options = { n, times, replications: config.trajectory!.replications, maxLevel: solver === 'ODE' ? config.maxLevel : 1 };
    return trajectoryTask(config.seed, `trajectory-${cellKey(p.model, n)}`, p.model, options, tEnd);
  });
}

/**
 * The plan of a sweep from its solved models (every model of `sweepModels`, in order): per model the small-n cells of
 * exact points outside the sweep (key "exact-" + `cellKey`, their own budget, kept out of the fits), then one cell per
 * n (`baseJobs`); then the transients from empty (key "trajectory-" + `cellKey`).
 */
export function planFromPrepared(config: ComparisonConfig, models: readonly PreparedComparisonModel[]): ComparisonPlan {
  const prepared = models.map((m) => m.prepared);
  const exactByModel = models.map((m) => m.exact);
  const notes = [...models.flatMap((m) => m.notes.secondOrder), ...models.flatMap((m) => m.notes.exact)];
  const tasks: ComparisonTask[] = [];
  for (const [index, p] of prepared.entries()) {
    const e = config.exact;
    for (const x of exactCellsToSimulate(exactByModel[index], config)) {
      tasks.push(cellTask(config, p, `exact-${cellKey(p.model, x.n)}`, x.n, e!.jobs, e!.replications));
    }
    tasks.push(...sweepCellTasks(config, p));
  }
  for (const p of prepared) tasks.push(...trajectoryTasks(config, p));
  return { config, tasks, prepared, exact: exactByModel, notes };
}

/** The simulation of one cell of a model: `jobs` per replication, `replications`, the model's warm-up, seed from `key`. */
export function cellTask(
  config: ComparisonConfig,
  p: Pick<PreparedModel, 'model' | 'warm'>,
  key: string,
  n: number,
  jobs: number,
  replications: number,
): SimulationTask {
  const grid = workloadGrid(config, p.model);
  const warm = cellWarmup(config, p, n);
  return simulationTask(config.seed, key, p.model, {
    n,
    jobs,
    replications,
    warmupTime: warm.time,
    ...(warm.from ? { start: { name: warm.start, from: warm.from } } : {}),
    maxLevel: config.maxLevel,
    ...(grid ? { workloadGrid: grid } : {}),
  });
}

/**
 * The start and warm-up of a cell at n, by the one rule (`simulationWarmup`) with the same tolerance, factor and cap as the
 * model's: `config.start` 'empty' (the default) takes the model's (`sweepWarmup`); 'fixed-point' the rule's for that start
 * at n, with its start tail in `from`; 'auto' the fixed point where the rule takes it at n (SQ(d) models), else the
 * model's empty-start warm-up. `start` names the start taken ('auto' resolved).
 * @throws {InvalidModelError} for the fixed-point start of a model other than SQ(d) (`simulationWarmup`).
 */
export function cellWarmup(config: ComparisonConfig, p: Pick<PreparedModel, 'model' | 'warm'>, n: number): CellWarmup {
  return p.warm.cells?.[n] ?? startWarmup(config, p.model, p.warm, n);
}

/** `cellWarmup` computed (the fixed-point start's refined transient, ~0.2 s per (λ, d) on first use in a thread). */
function startWarmup(config: ComparisonConfig, model: SupermarketModel, warm: PreparedModel['warm'], n: number): CellWarmup {
  const start = config.start ?? 'empty';
  switch (start) {
    case 'empty':
      return { time: warm.time, start };
    case 'fixed-point':
    case 'auto': {
      const refined = warm.relaxationTime !== null;
      const w = refined
        ? simulationWarmup(model, { tolerance: config.warmupTolerance, safetyFactor: config.warmupSafetyFactor, start, n })
        : simulationWarmup(model, { tolerance: config.warmupTolerance, start, n });
      return w.from === undefined ? { time: warm.time, start: 'empty' } : { time: w.time, start: 'fixed-point', from: w.from };
    }
    default:
      return unknownPolicy(start, 'start');
  }
}

/**
 * The sweep's warm-up with its cells' (`cellWarmup`) at the sweep's and exact points' n, computed where the model is
 * prepared (a worker), so the thread that plans the tasks reads them instead of integrating the refined transient again.
 */
function withCellWarmups(config: ComparisonConfig, model: SupermarketModel, warm: PreparedModel['warm']): PreparedModel['warm'] {
  if ((config.start ?? 'empty') === 'empty') return warm;
  const ns = [...new Set([...config.ns, ...(config.exact?.ns ?? [])])].filter((n) => n >= model.d);
  return { ...warm, cells: Object.fromEntries(ns.map((n) => [n, startWarmup(config, model, warm, n)])) };
}

/** The workload levels of the LWL(d) ccdf comparison (`config.workloadGrid` or the default), undefined for other rules. */
export function workloadGrid(config: ComparisonConfig, model: SupermarketModel): number[] | undefined {
  return model.selection === 'lwl' ? [...(config.workloadGrid ?? defaultWorkloadGrid(model.service.mean))] : undefined;
}

/**
 * Whether a stored value can stand for a task's run: a trajectory always (its store is keyed by its options); a cell
 * when it has the task's replications and at least its jobs (a cell sized by `config.resolve` stands for its pilot).
 */
export function usableValue(task: ComparisonTask, value: TaskValue | undefined): boolean {
  if (value === undefined) return false;
  if (task.kind === 'trajectory') return true;
  const s = value as CellSimulation;
  return s.replications === task.options.replications && s.jobs >= (task.options.jobs ?? 0);
}

/**
 * The sized runs of `config.resolve` (models with the refined term), a plan from the first runs: a sweep cell whose
 * pilot (`baseJobs`) misses the target half-width fraction × ΣV/(λn) is rerun with the jobs its variance asks for
 * (`jobsFor`), same key and seed, when that is within `resolve.maxJobs`. A cell already sized is left as it is.
 */
export function sizingTasks(plan: ComparisonPlan, values: ReadonlyMap<string, TaskValue>): SimulationTask[] {
  const { config } = plan;
  if (!config.resolve) return [];
  const tasks: SimulationTask[] = [];
  for (const p of plan.prepared) {
    for (const n of config.ns) {
      const target = resolveTarget(p, n, config);
      const key = cellKey(p.model, n);
      const pilot = values.get(key) as CellSimulation;
      const jobs = baseJobs(p, n, config);
      if (target === null || pilot.jobs !== jobs) continue;
      const needed = jobsFor(pilot, target);
      if (needed > jobs && needed <= config.resolve.maxJobs) tasks.push(cellTask(config, p, key, n, needed, config.replications));
    }
  }
  return tasks;
}

/**
 * The confirmatory rerun of a cell rejected after Holm: key "<cell key>/confirm" (a fresh seed), the cell's jobs and
 * `confirmFactor` × the replications.
 */
export function confirmationTask(config: ComparisonConfig, p: PreparedModel, cell: { key: string; n: number; simulation: CellSimulation }) {
  const replications = (config.confirmFactor ?? CONFIRM_FACTOR) * config.replications;
  return cellTask(config, p, `${cell.key}/confirm`, cell.n, cell.simulation.jobs, replications);
}

/** The target half-width fraction × ΣV/(λn) of a cell under `config.resolve` (models with the refined term), else null. */
export function resolveTarget(p: PreparedModel, n: number, config: ComparisonConfig): number | null {
  if (!config.resolve || !p.correction) return null;
  return (config.resolve.fraction * Math.abs(p.correction.sumV)) / (p.model.lambda * n);
}

/** Jobs per replication that bring the half-width to `target`, from the run's own variance (h ∝ 1/√jobs), 20% margin. */
export function jobsFor(simulation: CellSimulation, target: number): number {
  const h = simulation.meanResponseTime.halfWidth;
  return h <= target ? simulation.jobs : Math.ceil(simulation.jobs * (h / target) ** 2 * 1.2);
}

/** Jobs per replication of a cell's first run: `config.jobs`, raised to the horizon rule when `config.horizon` is set. */
export function baseJobs(p: Pick<PreparedModel, 'model' | 'warm'>, n: number, config: ComparisonConfig): number {
  const tau = p.warm.relaxationTime;
  if (!config.horizon || !tau) return config.jobs;
  return Math.min(config.horizon.maxJobs, Math.max(config.jobs, Math.ceil(config.horizon.relaxations * tau * p.model.lambda * n)));
}

/** The exact points whose n is not in the sweep: they get their own small-budget simulation. */
export function exactCellsToSimulate(exact: ModelSummary['exact'], config: ComparisonConfig): ExactPoint[] {
  return (exact?.points ?? []).filter((x) => !config.ns.includes(x.n));
}

/**
 * Key of a cell: "d2-lambda0.9-n100" for the classic model (the key its seeds and stored cells have always had),
 * "lwl-fifo-d2-lambda0.9-n100" (selection and discipline first) for every other model.
 */
export function cellKey(model: SupermarketModel, n: number): string {
  const short = `d${model.d}-lambda${model.lambda}-n${n}`;
  const memory = model.memory.kind === 'none' ? '' : `-memory-${formatMemory(model.memory).replace(':', '')}`;
  const arrivals = model.arrivals.kind === 'exponential' ? '' : `-arrivals-${formatArrivals(model.arrivals).replace(/[:,]/g, '_')}`;
  // a size law names itself (a pmf of mean 2 is not the fixed K = 2: distinct cells)
  const size = model.batchLaw === undefined ? String(model.batch) : formatBatch(model.batchLaw).replace(/[:,]/g, '_');
  const batch = model.batch > 1 ? `-batch${size}${model.batchDispatch === 'whole' ? 'whole' : ''}` : '';
  const red = model.redundancy === undefined ? '' : `-red-${model.redundancy.replicas}`;
  return isClassicModel(model) ? short : `${model.selection}-${model.discipline}${memory}${arrivals}${batch}${red}-${short}`;
}

/**
 * Why a comparison has no refined term, and what it judges instead (theory.md §6, §8, §14): for a renewal stream
 * other than Poisson the limit is the Poisson one but no 1/n coefficient is known, so the report tests the limit and
 * the slope, not a value of c₁. @param arrivals the model's arrival process (absent: Poisson).
 */
export function withoutVReason(arrivals: SupermarketModel['arrivals'] | undefined): string {
  if (arrivals === undefined || arrivals.kind === 'exponential')
    return 'the 1/n term V is known only for JSQ(d), FIFO, exponential sizes (theory.md §6); this model is judged "Without V" (theory.md §8).';
  return (
    `the 1/n term V is derived for Poisson arrivals (theory.md §6). With arrivals ${formatArrivals(arrivals)} the n → ∞ limit is still the Poisson ` +
    `one (theory.md §14), but the 1/n coefficient of the gap E[T]_n − E[T]∞ is not known: this report tests the limit (the fitted â against ` +
    `the Poisson E[T]∞), shows each cell beside the allowance |ĉ₁|/n with ĉ₁ fitted from the same sweep (not judged), and shows the slope of ` +
    `log|gap| against log n (about −1 if the gap is O(1/n)); it makes no claim on the value of c₁, which is measured, not predicted.`
  );
}

/** Short human label of a service law, e.g. "weibull (shape 0.5, mean 1)". */
export function serviceLabel(s: SupermarketModel['service']): string {
  const { kind, mean, ...rest } = s as Record<string, unknown> & { kind: string; mean: number };
  const params = Object.entries(rest)
    .filter(([k]) => k !== 'values' && k !== 'source')
    .map(([k, v]) => `${k} ${String(v)}`);
  return `${kind} (${[...params, `mean ${mean}`].join(', ')})`;
}

/**
 * The settings beyond selection, discipline, service and prediction, each as ", name value" (empty when all are at their
 * defaults), e.g. ", speeds 1,2 fractions 0.5,0.5 (uniform sampling), batches of 2 (whole)".
 */
export function modelExtrasLabel(m: SupermarketModel): string {
  const memory = m.memory.kind === 'none' ? '' : `, memory ${formatMemory(m.memory)}`;
  const s = m.servers;
  const servers = s ? `, speeds ${s.speeds.join(',')} fractions ${s.fractions.join(',')} (${s.sampling} sampling)` : '';
  const arrivals = m.arrivals.kind === 'exponential' ? '' : `, arrivals ${formatArrivals(m.arrivals)}`;
  const batch =
    m.batch > 1 ? `, batches of ${m.batchLaw === undefined ? m.batch : `X ~ ${formatBatch(m.batchLaw)}`} (${m.batchDispatch})` : '';
  const red = m.redundancy === undefined ? '' : `, ${m.redundancy.kind} (${m.redundancy.replicas} replicas)`;
  return `${memory}${servers}${arrivals}${batch}${red}`;
}

/**
 * The policy's name with d given as `d`, e.g. "LWL(2)", or "RED(2)" for redundancy-d (which replaces the selection);
 * "RANDOM (d = 1)" for a sampling rule at d = 1 (`selectionName`, the model's one name function).
 */
export function selectionLabel(m: SupermarketModel, d: number | 'd' = m.d): string {
  return selectionName(m, d);
}

/** E.g. "LWL(2) FIFO, exponential (mean 1), prediction exact". */
export function modelLabel(m: SupermarketModel): string {
  return `${selectionLabel(m)} ${m.discipline.toUpperCase()}, ${serviceLabel(m.service)}, prediction ${m.prediction.kind}${modelExtrasLabel(m)}`;
}

/**
 * Builds and checks the models of a sweep, d outer, λ inner (the order of `ComparisonResult.models`); `prepareModel`
 * solves each. @throws {InvalidModelError} bad grids, budgets, d > n, or `resolve` on an E[T] infinite or unsettled
 *   (`precisionRefusal`). @throws {UnstableModelError} for ρ ≥ 1.
 */
export function sweepModels(config: ComparisonConfig): SupermarketModel[] {
  if (config.lambdas.length === 0 || config.ds.length === 0 || config.ns.length === 0) {
    throw new InvalidModelError('compare needs at least one λ, one d and one n');
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
      // random routing however spelt (LWL, LPW, random at d = 1) is compared as JSQ(1): one policy, its refined term
      // V = 0, its ODE transient and its cells (`randomRoutingTwin`)
      const asked = parseModel({ ...config.model, lambda, d, sampling: config.sampling });
      const model = randomRoutingTwin(asked) ?? asked;
      if (model.d > nMin) throw new InvalidModelError(`d = ${d} exceeds n = ${nMin}: cannot sample more servers than exist`);
      // resolve sizes a cell to a precision of E[T]: none exists for an E[T] infinite or unsettled (the one rule of simulate's)
      const refusal = config.resolve ? precisionRefusal(model) : null;
      if (refusal !== null) throw new InvalidModelError(`resolve (d = ${d}, λ = ${lambda}): ${refusal}`);
      models.push(model);
    }
  }
  return models;
}

/**
 * A model's limit, refined and second-order terms (a note where the latter does not apply), warm-up and transient.
 * A model with no solver is shown, not judged ('not-computed', `prepareUnvalued`). Solver failures pass through.
 */
function prepareModel(model: SupermarketModel, config: ComparisonConfig, notes: string[], early?: EarlyTasks): PreparedModel {
  // the reference carries the limit's own status from here on (`meanFieldLimit`: ∞ proven, not settled, finite), so no
  // output has to translate it back: ∞ only where proven (theory.md §8 "in the limit")
  const atN = estimandFiniteness(model).meanResponseTime;
  const limit = meanFieldFiniteness(model);
  // finite n may be unsettled (d ≥ 2 without replacement) while the limit is ∞; with E[T]_n = ∞ too, the finite-n reason
  if (!limit.finite) return prepareInfinite(model, config, notes, atN.finite ? `in the limit: ${limit.reason}` : atN.reason);
  // E[T]_n = ∞ at every n (with replacement the ∞ may come from a path of probability n^{1−d}, all d draws on one
  // server) beside a limit that is finite or not settled: the cells are ∞ ("undefined (infinite)"), the limit is not
  // ∞ and keeps its status; nothing is judged either way, a sweep of ∞ cannot converge to it
  const atEveryN = atN.finite ? undefined : atN.reason;
  // neither proven finite nor ∞ (theory.md §8): simulated and shown, judged against nothing; the rest of the grid as usual
  const unsettled = meanFieldUnsettled(model);
  if (unsettled !== undefined) return prepareUnvalued(model, config, notes, { status: 'not-settled', reason: unsettled }, atEveryN);
  // which solver, refined terms and transient the model has: the capability query's answer (meanfield/capabilities.ts)
  const capabilities = meanFieldCapabilities(model);
  // proven finite, but E[T]_n = ∞ does not converge to it: no number asked of a solver, none compared
  if (atEveryN !== undefined) {
    const why = capabilities.fixedPoint.available ? 'fixed-point gives it' : 'no solver here gives it either';
    const reason = `E[T]∞ is finite, not computed here: E[T]_n = ∞ at every n does not converge to it (${why})`;
    return prepareUnvalued(model, config, notes, { status: 'not-computed', reason }, atEveryN);
  }
  // proven finite (`meanFieldLimit` 'finite': neither ∞ nor unsettled here) with no solver, e.g. JSQ(d) FIFO with
  // E[S²] = ∞ and pareto α ≥ d/(d − 1): shown, not judged, as a limit not settled is; the grid runs on
  if (!capabilities.fixedPoint.available)
    return prepareUnvalued(model, config, notes, { status: 'not-computed', reason: capabilities.fixedPoint.reason });
  const sol = solveMeanField(model, { seed: config.cavitySeed ?? config.seed });
  if (!Number.isFinite(sol.meanResponseTime)) return prepareInfinite(model, config, notes, `the mean field's E[T] is ∞ (${sol.solver})`);
  if (sol.note) notes.push(`${modelLabel(model)}: ${sol.note}`);
  // what simulate warns of this model's intervals (Var[T] = ∞ under a heavy tail, a slowly converging mean): the cells'
  // verdicts and fits read the same intervals as 95 % intervals, so the report says so too (model/moments.ts)
  for (const warning of estimandFiniteness(model).warnings)
    notes.push(`${modelLabel(model)}, λ = ${model.lambda}: ${warning}; the verdicts of its cells and fits rest on these intervals`);
  const reference: MeanFieldReference = {
    meanResponseTime: sol.meanResponseTime,
    meanQueueLength: sol.meanQueueLength ?? null,
    halfWidth: sol.estimate?.halfWidth ?? 0,
    numericalError: sol.numericalError ?? 0,
    solver: sol.solver,
    kind: sol.kind,
    source: sol.source,
    ...(sol.tail ? { tail: sol.tail } : {}),
    ...(sol.classes
      ? { classes: sol.classes.map((c) => ({ speed: c.speed, busyFraction: c.busyFraction, meanResponseTime: c.meanResponseTime })) }
      : {}),
    convergence: sol.convergence,
    ...(sol.measuredError ? { measuredError: sol.measuredError } : {}),
  };
  // the warm-up and the mean-field transient first (`refine` returns a correction or throws): the trajectories can
  // start once their drawn range is known, the cells once their warm-ups are
  const refined = capabilities.refined.firstOrder.available;
  const sweep = sweepWarmup(model, config, refined);
  const transientGrid = transientSchedule(sweep.time, config, capabilities);
  const meanFieldPath = transientGrid && meanFieldTransient(model, transientGrid);
  const drawn = transientGrid && meanFieldPath && drawnTransient(config, transientGrid, meanFieldPath.values, sweep.relaxationTime);
  early?.trajectories({ model, warm: sweep, transient: drawn });
  const warm = withCellWarmups(config, model, sweep);
  early?.cells({ model, warm, transient: drawn });
  // SQ(d), or PS/LAS with exponential sizes through FIFO's queue lengths (`refine` runs on the FIFO twin)
  const sqd = refined ? refine(model) : null;
  const correction: FirstOrderTerm | null = sqd ? { ...sqd, origin: 'sqd' } : heteroFirstOrder(model, capabilities, notes);
  const second = !sqd
    ? { correction: null, note: null }
    : capabilities.refined.secondOrder.available
      ? secondOrderTerm(model, sqd.fixedPoint)
      : { correction: null, note: `no 1/n² term for d = ${model.d}, λ = ${model.lambda}: ${capabilities.refined.secondOrder.reason}` };
  if (second.note && model.sampling === 'with-replacement') notes.push(second.note);
  const p = { model, reference, correction, secondOrder: second.correction, warm, transient: null };
  return { ...p, transient: transientGrid && drawn && modelTransient(p, transientGrid, drawn, meanFieldPath) };
}

/**
 * With server speeds, the per-class occupancy ODE's 1/n term through the population model (heteroRefined, theory.md
 * §13) where the ODE is the model's solver (FIFO, or PS/LAS with exponential sizes; JSQ, SED, random), else null: the
 * mixture tail's V_k = Σ_c V(y_{c,k}) (y_{c,k} = f_c s_{c,k}, the population variables, class-major), ΣV that of E[Q].
 */
function heteroFirstOrder(model: SupermarketModel, capabilities: MeanFieldCapabilities, notes: string[]): FirstOrderTerm | null {
  if (model.servers === undefined || !capabilities.fixedPoint.available || capabilities.fixedPoint.id !== 'hetero-occupancy') return null;
  // d draws without replacement: the term is derived with replacement; judged without it (it was the term of the other
  // sampling: c₁ 4.41 where the model's is ≈ 3.08 at λ = 0.9, d = 2, speeds ≈ 1)
  const refusal = heteroRefinedRefusal(model);
  if (refusal !== undefined) {
    notes.push(`${modelLabel(model)}: no refined 1/n term: ${refusal}; its cells are judged without one`);
    return null;
  }
  const r = heteroRefined(model);
  const fp = heteroFixedPoint(model);
  const K = r.truncationLevel;
  const V = Array.from({ length: K + 1 }, (_, k) =>
    k === 0 ? 0 : model.servers!.speeds.reduce((a, _s, c) => a + r.population.V[c * K + k - 1], 0),
  );
  return {
    V,
    sumV: r.meanQueueLengthCoefficient,
    fixedPoint: { tail: fp.tail, meanQueueLength: fp.meanQueueLength, provenance: { model } },
    origin: 'server speeds',
  };
}

/**
 * A model whose E[T]∞ is infinite in theory (`meanFieldFiniteness`, or a solver's E[T]∞ = ∞): reference +∞ with the
 * reason, no refined terms, no transient, and a note saying its checks are "undefined (infinite)". Not for a limit
 * that is finite or not settled beside E[T]_n = ∞ (`prepareUnvalued` with `atEveryN`).
 */
function prepareInfinite(model: SupermarketModel, config: ComparisonConfig, notes: string[], reason: string): PreparedModel {
  notes.push(
    `${modelLabel(model)}, λ = ${model.lambda}: E[T] is infinite in theory (${reason}); its cells, limit check and fits are ` +
      `"${UNDEFINED_INFINITE}" (model/moments.ts): a mean of ∞ is neither agreed nor disagreed with`,
  );
  const reference: MeanFieldReference = {
    meanResponseTime: Infinity,
    meanQueueLength: Infinity,
    halfWidth: 0,
    numericalError: 0,
    solver: `no reference: ${infiniteMeanWords(model)}`,
    kind: 'none',
    source: 'model/moments.ts (estimandFiniteness, meanFieldFiniteness)',
    convergence: null,
    infinite: reason,
  };
  return { model, reference, correction: null, secondOrder: null, warm: sweepWarmup(model, config, false), transient: null };
}

/**
 * A model whose mean-field E[T]∞ has no value (`UnvaluedStatus`): not settled (model/moments.ts `meanFieldUnsettled`),
 * or proven finite with no number (status 'not-computed': the capability query's refusal, or E[T]_n = ∞ at every n,
 * which does not converge to it). No solver runs: reference NaN with the reason, kind 'none', no refined terms, no
 * transient; its cells are simulated and shown, and its cells and checks carry the status ("not settled", "finite,
 * not computed"), or "undefined (infinite)" where E[T]_n = ∞ at every n (`atEveryN`, its reason, kept in the
 * reference's `infiniteAtEveryN`), so the other models of the grid are judged as usual.
 */
function prepareUnvalued(
  model: SupermarketModel,
  config: ComparisonConfig,
  notes: string[],
  unvalued: { readonly status: UnvaluedStatus; readonly reason: string },
  atEveryN?: string,
): PreparedModel {
  const { text, source } = UNVALUED[unvalued.status];
  notes.push(
    atEveryN === undefined
      ? `${modelLabel(model)}, λ = ${model.lambda}: ${unvalued.reason}; its cells are simulated and shown but "${text}": no limit ` +
          `value to judge them against and no limit check (${source})`
      : `${modelLabel(model)}, λ = ${model.lambda}: E[T] is infinite in theory at every n (${atEveryN}); its cells, limit check and ` +
          `fits are "${UNDEFINED_INFINITE}" (model/moments.ts): a mean of ∞ is neither agreed nor disagreed with; the limit E[T]∞ is ` +
          `not ∞ but "${text}" (${unvalued.reason})`,
  );
  const reference: MeanFieldReference = {
    meanResponseTime: Number.NaN,
    meanQueueLength: Number.NaN,
    halfWidth: 0,
    numericalError: 0,
    solver: `no reference: ${atEveryN === undefined ? `E[T]∞ ${text}` : `${infiniteMeanWords(model)}, E[T]∞ ${text}`}`,
    kind: 'none',
    source,
    convergence: null,
    ...(unvalued.status === 'not-settled' ? { unsettled: unvalued.reason } : { notComputed: unvalued.reason }),
    ...(atEveryN === undefined ? {} : { infiniteAtEveryN: atEveryN }),
  };
  return { model, reference, correction: null, secondOrder: null, warm: sweepWarmup(model, config, false), transient: null };
}

/**
 * Solver, horizon and times of a model's transient comparison (`trajectoryGrid` from its warm-up), or null without
 * `config.trajectory` or a transient solver.
 */
function transientSchedule(
  warmup: number,
  config: ComparisonConfig,
  capabilities: MeanFieldCapabilities,
): Pick<ModelTransient, 'solver' | 'tEnd' | 'times'> | null {
  const solver = config.trajectory ? transientSolver(capabilities) : null;
  if (!config.trajectory || !solver) return null;
  const { tEnd, dt } = trajectoryGrid(config.trajectory, warmup);
  return { solver, tEnd, times: Array.from({ length: Math.round(tEnd / dt) + 1 }, (_, j) => j * dt) };
}

/** A model's mean-field transient from empty on its whole grid (`transientSchedule`): the SQ(d) ODE's or the LWL(d) PIDE's. */
function meanFieldTransient(
  model: SupermarketModel,
  grid: Pick<ModelTransient, 'solver' | 'times'>,
): ReturnType<typeof odeTransient> | ReturnType<typeof pideTransient> {
  return grid.solver === 'ODE' ? odeTransient(model, grid.times) : pideTransient(model, grid.times);
}

/**
 * The part of a transient the figure draws (`transientRange` of the mean field on the whole grid): with the automatic
 * horizon (`config.trajectory.tEnd` ≤ 0) its instants up to the range's end, so the trajectories are simulated no
 * further (the same instants, so the same numbers at each); with a --t-end given, the whole grid.
 */
function drawnTransient(
  config: ComparisonConfig,
  grid: Pick<ModelTransient, 'solver' | 'tEnd' | 'times'>,
  meanField: TrajectoryComparison['meanField'],
  tau: number | null,
): Pick<ModelTransient, 'solver' | 'tEnd' | 'times' | 'drawnTo'> {
  const drawnTo = transientRange(grid.solver, grid.times, meanField.tail, tau);
  if (config.trajectory!.tEnd > 0) return { ...grid, drawnTo };
  const times = grid.times.filter((t) => t <= drawnTo);
  return { solver: grid.solver, tEnd: times[times.length - 1], times, drawnTo };
}

/**
 * The end of a transient's drawn time range (`TRANSIENT_DRAWN`): `relaxations` relaxation times τ (where the model has
 * it) or `settleMargin` × the time the levels drawn for `solver` come within `settleTolerance` of their last value on
 * the grid, whichever is later, rounded up to a multiple of `step` and at most the grid's end. A rise over t < 20 is then
 * not squeezed into the left of a t = 400 axis, and no time is simulated past what is drawn.
 * @param times the grid (time units, increasing). @param tail tail[j][i] = s_i(times[j]) of the mean field.
 * @param tau the relaxation time (time units), or null.
 */
export function transientRange(
  solver: TrajectoryComparison['solver'],
  times: readonly number[],
  tail: readonly (readonly number[])[],
  tau: number | null,
): number {
  const { relaxations, settleMargin, settleTolerance, step } = TRANSIENT_DRAWN;
  const levels = TRANSIENT_DRAWN.levels[solver].map((i) => tail.map((row) => row[i] ?? 0));
  const end = times[times.length - 1];
  const last = levels.map((l) => l[l.length - 1]);
  let settle = end;
  for (let j = times.length - 1; j >= 0; j--) {
    if (levels.some((l, k) => Math.abs(l[j] - last[k]) > settleTolerance * Math.max(Math.abs(last[k]), 1e-9))) break;
    settle = times[j];
  }
  const want = Math.max(tau !== null ? relaxations * tau : 0, settleMargin * settle);
  return Math.min(end, Math.max(step, Math.ceil(want / step) * step));
}

/**
 * The mean-field transient of a prepared model (`ModelTransient`) on its drawn grid (`drawnTransient`), from its
 * mean-field path on the whole grid (`grid`), with the refined path (on the whole grid) where the model has it.
 */
function modelTransient(
  p: PreparedModel,
  grid: Pick<ModelTransient, 'times'>,
  drawn: Pick<ModelTransient, 'solver' | 'tEnd' | 'times' | 'drawnTo'>,
  path: ReturnType<typeof meanFieldTransient>,
): ModelTransient {
  const { values, note } = path;
  const J = drawn.times.length;
  const meanField = {
    values: {
      tail: values.tail.slice(0, J),
      ...(values.meanWorkload ? { meanWorkload: values.meanWorkload.slice(0, J) } : {}),
    },
    note,
  };
  // the refined transient is SQ(d)'s; with server speeds only the fixed point's 1/n term exists. Its mean-field part is
  // the SQ(d) ODE the figure has just solved: passed on, not integrated again (issue 23: each odex run in a worker
  // also recompiles odex's per-run closures). On the whole grid: odex to an earlier end takes other steps
  const solved = 'solved' in path ? path.solved : undefined;
  const refinedPath =
    drawn.solver === 'ODE' && p.correction?.origin === 'sqd' ? refinedTransient(p.model, { times: grid.times }, solved) : null;
  return { ...drawn, meanField, refinedPath };
}

/**
 * Warm-up of a sweep's simulations by the one rule (`simulationWarmup`, theory.md §8), uncapped. With the refined term
 * (the classic model) it is safetyFactor × the time for the SQ(d) ODE from empty to come within the tolerance of the
 * fixed point, at least 3τ; otherwise the rule's factor 2 is built in. (The other models took the rule's old default
 * cap, 5000, silently: random d = 1 at λ = 0.9 warmed 5000 of the rule's 5752.9.)
 */
function sweepWarmup(model: SupermarketModel, config: ComparisonConfig, refined: boolean): PreparedModel['warm'] {
  const w = refined
    ? simulationWarmup(model, { tolerance: config.warmupTolerance, safetyFactor: config.warmupSafetyFactor })
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
    case 'hetero-occupancy-ode': // server classes: no trajectory figure yet
    case 'batch-ode': // batches: no trajectory task yet
      return null;
    case 'memory-cavity-ode':
    case 'memory-phase-type-ode':
      // with a dispatcher memory: the SQ(d) cavity ODE or phase-type ODE (theory.md §12), queue lengths as the SQ(d) ODE's
      return 'ODE';
    case 'memory-lwl-pide':
      return 'PIDE';
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
 * The SQ(d) ODE (or, with a memory, the cavity ODE) from empty at `times`, levels s_0..s_L (`TRAJECTORY_LEVELS`), and
 * for the SQ(d) ODE its whole solve (`solved`, for the refined transient's mean-field part).
 */
function odeTransient(
  model: SupermarketModel,
  times: number[],
): { values: TrajectoryComparison['meanField']; note: string; solved?: TransientResult } {
  const transient = solveMeanFieldTransient(model, times);
  if (transient.solver === 'memory-cavity-ode' || transient.solver === 'memory-phase-type-ode') {
    const tr = transient.result;
    return {
      values: { tail: tr.tail.map((row) => row.slice(0, TRAJECTORY_LEVELS + 1)) },
      note: `${transient.capability.name} from empty (theory.md §12; Hellemans 2021, Prop. trans), odex, tolerance 1e-10`,
    };
  }
  if (transient.solver !== 'sqd-ode')
    throw new InvalidModelError(`the trajectory figure compares queue lengths of an ODE, not ${transient.capability.name}`);
  const ode = transient.result;
  return {
    values: { tail: ode.tail.map((row) => row.slice(0, TRAJECTORY_LEVELS + 1)) },
    note: 'SQ(d) ODE from empty (theory.md §2), odex, tolerance 1e-10',
    solved: ode,
  };
}

/** The LWL(d) PIDE from empty at `times`: s_0 = 1, s_1 = the busy fraction, and E[U(t)]. */
function pideTransient(model: SupermarketModel, times: number[]): { values: TrajectoryComparison['meanField']; note: string } {
  const pide = lwlTransientReference(model, times);
  return { values: { tail: pide.busyFraction.map((b) => [1, b]), meanWorkload: pide.meanWorkload }, note: pide.note };
}

/**
 * Exact points of a model per `config.exact` (null without it; a note where the model has no exact solver or an n was
 * skipped). Under random routing (d = 1, random selection: `exactChain.id` 'mg1') the M/G/1 value at every n of the
 * sweep and of `config.exact`, with or without `config.exact`.
 */
function modelExactPoints(model: SupermarketModel, config: ComparisonConfig, notes: string[]): ModelSummary['exact'] {
  const chain = meanFieldCapabilities(model).exactChain;
  if (chain.available && chain.id === 'mg1')
    return exactPoints(model, [...new Set([...(config.exact?.ns ?? []), ...config.ns])], config.exact ?? EXACT_DEFAULTS);
  if (!config.exact || config.exact.ns.length === 0) return null;
  if (!hasExactSolver(model)) {
    notes.push(
      `No exact points for ${modelLabel(model)}: the exact solvers have JSQ(d) and random selection with FIFO and exponential sizes, and M/G/1 under random routing.`,
    );
    return null;
  }
  const exact = exactPoints(model, config.exact.ns, config.exact);
  for (const s of exact.skipped) notes.push(`No exact point at d = ${model.d}, λ = ${model.lambda}, n = ${s.n}: ${s.reason}.`);
  return exact;
}
