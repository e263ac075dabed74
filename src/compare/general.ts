/**
 * The comparator for every model with a mean-field solver (theory.md §2–§7 via `solveMeanField`): an n-sweep of the
 * simulator set beside the limit, judged "Without V" (theory.md §8) since the refined 1/n term exists only for JSQ(d),
 * FIFO, exponential sizes (§6; that case stays with `runComparison`). For LWL(d) it also compares the workload ccdf
 * and the transient from empty with the PIDE. Pure: progress and the cell cache are hooks, as in `runComparison`.
 */
import { parseModel, type ModelInput, type SupermarketModel } from '../model/index.ts';
import { InvalidModelError } from '../errors.ts';
import { solveMeanField, type SolutionKind } from '../meanfield/solve.ts';
import { simulationWarmup } from '../meanfield/warmup.ts';
import { simulate, simulateTrajectory, defaultWorkloadGrid } from '../sim/index.ts';
import type { Estimate } from '../stats/index.ts';
import { cellSeed, trajectoryGrid, type ComparisonConfig, type ComparisonHooks } from './sweep.ts';
import { fitInverseN, logLogSlope, type InverseNFit, type SlopeFit, type SweepPoint } from './fit.ts';
import { fitLimit, type LimitFit } from './limitFit.ts';
import { limitCheck, withoutVVerdict, type LimitCheck, type ReferenceValue, type WithoutVVerdict } from './withoutV.ts';
import { lwlTransientReference, lwlWorkloadReference, workloadSupDistance, type WorkloadReference } from './lwlReference.ts';
import { VERSION } from '../version.ts';

/** The model fields besides λ, d and sampling, as `parseModel` takes them (short service strings such as "weibull:0.5" included). */
export type ModelFields = Pick<ModelInput, 'selection' | 'discipline' | 'service' | 'prediction'>;

export interface GeneralComparisonConfig extends ComparisonConfig {
  readonly model: ModelFields;
  /** Workload levels w (time units) of the LWL ccdf comparison; default 0, 0.25, …, 10 (× E[S]). */
  readonly workloadGrid?: readonly number[];
  /** Fit c₂/n² too: true, false, or 'auto' (default: with ≥ 4 values of n). */
  readonly inverseSquare?: boolean | 'auto';
  /** Seed of cavity solvers (default: `seed`). */
  readonly cavitySeed?: number;
}

export interface GeneralReference {
  /** E[T]∞ (time units); for cavity solvers the point estimate. */
  readonly meanResponseTime: number;
  /** 95% CI half-width of a cavity result (0 for deterministic solvers). */
  readonly halfWidth: number;
  /** Stated numerical error of a deterministic solver (0 when exact or not stated). */
  readonly numericalError: number;
  readonly solver: string;
  readonly kind: SolutionKind;
  readonly source: string;
  /** Tail fractions s_0..s_K where the solver gives them (JSQ solvers). */
  readonly tail?: number[];
}

export interface GeneralModelSummary {
  /** E.g. "LWL(2) FIFO, exponential (mean 1), λ = 0.9". */
  readonly label: string;
  readonly lambda: number;
  readonly d: number;
  readonly model: SupermarketModel;
  readonly reference: GeneralReference;
  readonly warmupTime: number;
  readonly warmupRule: string;
  /** x̂_n = a + c₁/n (+ c₂/n²), weighted (null with fewer n than parameters). */
  readonly fit: LimitFit | null;
  /** x̂_n − x_∞ = c₁/n + c₂/n², weighted: c₁ when the reference is taken as the limit. */
  readonly fitThroughReference: InverseNFit | null;
  /** â against the reference with the combined CI. */
  readonly limit: LimitCheck;
  /** log–log slope of |x̂_n − x_∞| over the resolved n (> 3 h_n). */
  readonly slope: SlopeFit | null;
  /** log–log slope of the tail sup-norm error (JSQ solvers with tails). */
  readonly tailSlope: SlopeFit | null;
  /** LWL(d): the mean-field workload ccdf at the simulated levels. */
  readonly workload: WorkloadReference | null;
  /** log–log slope of the workload-ccdf sup-norm error. */
  readonly workloadSlope: SlopeFit | null;
}

export interface GeneralSimulation {
  readonly meanResponseTime: Estimate;
  readonly meanQueueLength: Estimate;
  readonly tail: Estimate[];
  readonly meanWorkload?: Estimate;
  readonly workloadCcdf?: { readonly grid: number[]; readonly ccdf: Estimate[] };
  readonly events: number;
  readonly eventsPerSecond: number;
  readonly wallSeconds: number;
  readonly warmupTime: number;
  readonly jobs: number;
  readonly replications: number;
  readonly engine: string;
  readonly seeds: unknown;
}

export interface GeneralCellResult {
  /** E.g. "lwl-fifo-d2-lambda0.9-n100". */
  readonly key: string;
  readonly lambda: number;
  readonly d: number;
  readonly n: number;
  readonly seed: number;
  readonly simulation: GeneralSimulation;
  readonly errors: {
    /** x̂_n − x_∞ for E[T] (time units). */
    readonly meanResponseTime: number;
    /** max_i |ŝ_i − s_i| where the reference has tails, else null. */
    readonly tailSup: number | null;
    /** max_k |F̂(w_k) − F̄(w_k)| (LWL), with the largest CI half-width among the levels; else null. */
    readonly workloadSup: number | null;
    readonly workloadHalfWidth: number | null;
  };
  readonly verdict: WithoutVVerdict;
}

export interface GeneralTrajectory {
  readonly lambda: number;
  readonly d: number;
  readonly times: number[];
  /** PIDE from empty: busy fraction P(U(t) > 0) and E[U(t)]. */
  readonly meanField: { readonly busyFraction: number[]; readonly meanWorkload: number[] };
  /** Simulated busy fraction s_1(t) from empty, per n (mean and CI over replications). */
  readonly simulated: { readonly n: number; readonly busyFraction: Estimate[]; readonly seed: number; readonly events: number }[];
  readonly note: string;
}

export interface GeneralComparisonResult {
  readonly kind: 'without-v';
  readonly config: GeneralComparisonConfig;
  readonly models: GeneralModelSummary[];
  readonly cells: GeneralCellResult[];
  readonly trajectories: GeneralTrajectory[];
  /** What was skipped and why (e.g. no transient solver for a model). */
  readonly notes: string[];
  readonly provenance: { readonly version: string; readonly method: string };
}

/** True when the refined 1/n term V exists (theory.md §6): JSQ(d), FIFO, exponential sizes of mean 1. */
export function hasRefinedTerm(model: SupermarketModel): boolean {
  return model.selection === 'jsq' && model.discipline === 'fifo' && model.service.kind === 'exponential' && model.service.mean === 1;
}

/** Short human label of a service law, e.g. "weibull(shape 0.5, mean 1)". */
export function serviceLabel(s: SupermarketModel['service']): string {
  const { kind, mean, ...rest } = s as Record<string, unknown> & { kind: string; mean: number };
  const params = Object.entries(rest).filter(([k]) => k !== 'values' && k !== 'source').map(([k, v]) => `${k} ${String(v)}`);
  return `${kind} (${[...params, `mean ${mean}`].join(', ')})`;
}

/** E.g. "LWL(2) FIFO, exponential (mean 1), prediction exact". */
export function modelLabel(m: SupermarketModel): string {
  return `${m.selection.toUpperCase()}(${m.d}) ${m.discipline.toUpperCase()}, ${serviceLabel(m.service)}, prediction ${m.prediction.kind}`;
}

export function generalCellKey(m: SupermarketModel, n: number): string {
  return `${m.selection}-${m.discipline}-d${m.d}-lambda${m.lambda}-n${n}`;
}

/**
 * Builds and checks the models of a general sweep, and solves each one's mean-field reference.
 * @throws {InvalidModelError} "no mean-field reference for …" when `solveMeanField` has no solver (LPW(d)); bad grids,
 *   budgets or d > n. @throws {UnstableModelError} for ρ ≥ 1. Solver failures pass through.
 */
export function prepareGeneral(config: GeneralComparisonConfig): { model: SupermarketModel; reference: GeneralReference }[] {
  if (config.lambdas.length === 0 || config.ds.length === 0 || config.ns.length === 0) {
    throw new InvalidModelError('compare needs at least one lambda, one d and one n');
  }
  for (const n of config.ns) if (!Number.isInteger(n) || n < 1) throw new InvalidModelError(`n must be an integer ≥ 1, got ${n}`);
  if (!Number.isInteger(config.jobs) || config.jobs < 1) throw new InvalidModelError(`jobs must be an integer ≥ 1, got ${config.jobs}`);
  if (!Number.isInteger(config.replications) || config.replications < 2) {
    throw new InvalidModelError(`replications must be an integer ≥ 2 (a CI needs two), got ${config.replications}`);
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
  return models.map((model) => {
    let sol;
    try {
      sol = solveMeanField(model, { seed: config.cavitySeed ?? config.seed });
    } catch (e) {
      if (e instanceof InvalidModelError) {
        throw new InvalidModelError(`no mean-field reference for ${modelLabel(model)} (${e.message}); ` +
          'compare sets simulations beside an n → ∞ limit and cannot run without one');
      }
      throw e;
    }
    return { model, reference: { meanResponseTime: sol.meanResponseTime, halfWidth: sol.estimate?.halfWidth ?? 0,
      numericalError: sol.numericalError ?? 0, solver: sol.solver, kind: sol.kind, source: sol.source, ...(sol.tail ? { tail: sol.tail } : {}) } };
  });
}

function tailSup(estimates: readonly Estimate[], reference: readonly number[]): number {
  let sup = 0;
  for (let i = 1; i < Math.max(estimates.length, reference.length); i++) {
    sup = Math.max(sup, Math.abs((estimates[i]?.mean ?? 0) - (reference[i] ?? 0)));
  }
  return sup;
}

/**
 * Runs the general comparison sweep (theory.md §8 "n-sweeps", "Without V").
 * Per (λ, d): the reference from `solveMeanField` (solver, kind, CI or numerical error), the warm-up from `simulationWarmup`
 * (config.warmupTolerance; `warmupSafetyFactor` is not used: its default factor 2 is used), one simulation per n
 * with the model as given, then the fit x̂_n = a + c₁/n (+ c₂/n²), the limit check of â and the per-n verdicts with the
 * allowance |ĉ₁|/n + |ĉ₂|/n². For LWL(d): workload ccdf at `workloadGrid` and, with `config.trajectory`, the busy fraction from
 * empty by the PIDE against simulated trajectories.
 * @throws see `prepareGeneral`; simulator errors pass through.
 */
export function runGeneralComparison(config: GeneralComparisonConfig, hooks: ComparisonHooks<GeneralCellResult> = {}): GeneralComparisonResult {
  const prepared = prepareGeneral(config).map((p) => ({ ...p, warm: simulationWarmup(p.model, { tolerance: config.warmupTolerance }) }));
  const budget = (m: SupermarketModel, n: number, warm: number) => config.replications * (2 * config.jobs + 2 * m.lambda * n * warm);
  let totalEvents = 0;
  for (const p of prepared) {
    for (const n of config.ns) totalEvents += budget(p.model, n, p.warm.time);
    if (config.trajectory && p.model.selection === 'lwl') {
      const { tEnd } = trajectoryGrid(config.trajectory, p.warm.time);
      for (const n of config.trajectory.ns) totalEvents += config.trajectory.replications * 2 * p.model.lambda * n * tEnd;
    }
  }
  let done = 0;
  const models: GeneralModelSummary[] = [];
  const cells: GeneralCellResult[] = [];
  const trajectories: GeneralTrajectory[] = [];
  const notes: string[] = [];
  for (const { model, reference, warm } of prepared) {
    const isLwl = model.selection === 'lwl';
    const grid = isLwl ? [...(config.workloadGrid ?? defaultWorkloadGrid(model.service.mean))] : undefined;
    const workload = isLwl ? lwlWorkloadReference(model, grid!) : null;
    const sims: { n: number; seed: number; simulation: GeneralSimulation }[] = [];
    for (const n of config.ns) {
      const key = generalCellKey(model, n);
      const cost = budget(model, n, warm.time);
      const cached = hooks.cache?.get(key);
      if (cached) {
        sims.push({ n, seed: cached.seed, simulation: cached.simulation });
        done += cost;
        hooks.onProgress?.(done, totalEvents, `${key} (resumed)`);
        continue;
      }
      const seed = cellSeed(config.seed, key);
      const before = done;
      const sim = simulate(model, {
        n, jobs: config.jobs, replications: config.replications, seed, warmupTime: warm.time, maxLevel: config.maxLevel,
        ...(grid ? { workloadGrid: grid } : {}),
        onProgress: (x, total) => hooks.onProgress?.(before + (x / Math.max(total, 1)) * cost, totalEvents, key),
      });
      done += cost;
      const simulation: GeneralSimulation = {
        meanResponseTime: sim.meanResponseTime, meanQueueLength: sim.meanQueueLength, tail: sim.tail,
        ...(sim.meanWorkload ? { meanWorkload: sim.meanWorkload } : {}), ...(sim.workloadCcdf ? { workloadCcdf: sim.workloadCcdf } : {}),
        events: sim.events, eventsPerSecond: sim.eventsPerSecond, wallSeconds: sim.wallSeconds, warmupTime: sim.warmupTime,
        jobs: sim.jobs, replications: config.replications, engine: sim.engine, seeds: sim.seeds,
      };
      sims.push({ n, seed, simulation });
      // stored before judging: verdicts depend on the whole sweep and are recomputed on resume
      hooks.cache?.put(provisionalCell(model, n, seed, simulation, reference));
      hooks.onProgress?.(done, totalEvents, key);
    }
    const ref: ReferenceValue = { value: reference.meanResponseTime, halfWidth: reference.halfWidth, numericalError: reference.numericalError };
    const fit = fitLimit(sims.map((s) => ({ n: s.n, estimate: s.simulation.meanResponseTime })), config.inverseSquare ?? 'auto');
    const modelCells = sims.map((s) => assembleGeneralCell(model, s.n, s.seed, s.simulation, reference, workload, fit?.c1 ?? null, fit?.c2 ?? 0));
    cells.push(...modelCells);
    const points = (pick: (c: GeneralCellResult) => [number, number]): SweepPoint[] =>
      modelCells.map((c) => { const [error, halfWidth] = pick(c); return { n: c.n, error, halfWidth }; });
    const mrt = points((c) => [c.errors.meanResponseTime, Math.hypot(c.simulation.meanResponseTime.halfWidth, ref.halfWidth)]);
    models.push({
      label: `${modelLabel(model)}, λ = ${model.lambda}`, lambda: model.lambda, d: model.d, model, reference,
      warmupTime: warm.time, warmupRule: warm.rule, fit, fitThroughReference: fitInverseN(mrt), limit: limitCheck(fit, ref),
      slope: logLogSlope(mrt),
      tailSlope: reference.tail ? logLogSlope(points((c) => [c.errors.tailSup ?? 0, maxHalfWidth(c.simulation.tail)])) : null,
      workload,
      workloadSlope: workload ? logLogSlope(points((c) => [c.errors.workloadSup ?? 0, c.errors.workloadHalfWidth ?? 0])) : null,
    });

    if (config.trajectory) {
      if (!isLwl) {
        notes.push(`Transient from empty skipped for ${modelLabel(model)}, λ = ${model.lambda}: compare has a transient mean field ` +
          'only for LWL(d) (PIDE) and, through runComparison, JSQ(d) FIFO exponential (ODE).');
        continue;
      }
      const { tEnd, dt } = trajectoryGrid(config.trajectory, warm.time);
      const times = Array.from({ length: Math.round(tEnd / dt) + 1 }, (_, j) => j * dt);
      const pide = lwlTransientReference(model, times);
      const simulated: GeneralTrajectory['simulated'] = [];
      for (const n of config.trajectory.ns) {
        const seed = cellSeed(config.seed, `trajectory-${generalCellKey(model, n)}`);
        const traj = simulateTrajectory(model, { n, times, replications: config.trajectory.replications, seed, maxLevel: 1 });
        done += config.trajectory.replications * 2 * model.lambda * n * tEnd;
        hooks.onProgress?.(done, totalEvents, `trajectory ${generalCellKey(model, n)}`);
        simulated.push({ n, busyFraction: traj.tail.map((row) => row[1]), seed, events: traj.events });
      }
      trajectories.push({ lambda: model.lambda, d: model.d, times, meanField: { busyFraction: pide.busyFraction, meanWorkload: pide.meanWorkload },
        simulated, note: pide.note });
    }
  }
  return {
    kind: 'without-v', config, models, cells, trajectories, notes,
    provenance: { version: VERSION, method: 'mean field by solveMeanField (theory.md §2–§7), simulation (§8), verdict "Without V" (§8)' },
  };
}

function provisionalCell(model: SupermarketModel, n: number, seed: number, simulation: GeneralSimulation, reference: GeneralReference): GeneralCellResult {
  return assembleGeneralCell(model, n, seed, simulation, reference, null, null, 0);
}

/**
 * Sets one simulated cell beside the reference: errors (E[T], tails, workload ccdf) and the "Without V" verdict.
 * @param c1 the sweep's fitted 1/n coefficient, or null (then the verdict is 'not-judged'); @param c2 its 1/n² coefficient (0 if not fitted).
 */
export function assembleGeneralCell(
  model: SupermarketModel, n: number, seed: number, simulation: GeneralSimulation, reference: GeneralReference,
  workload: WorkloadReference | null, c1: number | null, c2: number,
): GeneralCellResult {
  const ref: ReferenceValue = { value: reference.meanResponseTime, halfWidth: reference.halfWidth, numericalError: reference.numericalError };
  const w = workload && simulation.workloadCcdf ? workloadSupDistance(simulation.workloadCcdf.ccdf, workload.ccdf) : null;
  return {
    key: generalCellKey(model, n), lambda: model.lambda, d: model.d, n, seed, simulation,
    errors: {
      meanResponseTime: simulation.meanResponseTime.mean - reference.meanResponseTime,
      tailSup: reference.tail ? tailSup(simulation.tail, reference.tail) : null,
      workloadSup: w ? w.sup : null,
      workloadHalfWidth: w ? w.halfWidth : null,
    },
    verdict: withoutVVerdict(simulation.meanResponseTime, ref, c1, n, c2),
  };
}

function maxHalfWidth(tail: readonly Estimate[]): number {
  let h = 0;
  for (let i = 1; i < tail.length; i++) h = Math.max(h, tail[i].halfWidth);
  return h;
}
