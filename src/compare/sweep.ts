/**
 * The comparator: runs the finite-n simulator over a list of n for a grid of (λ, d), and sets each result beside
 * the mean field and the refined mean field (theory.md §6, §8). Pure: progress and the cache of finished cells
 * are hooks given by the caller, so an interrupted sweep can resume from whatever the caller stored.
 */
import { parseModel, type Sampling, type SupermarketModel } from '../model/index.ts';
import { InvalidModelError } from '../errors.ts';
import {
  refine, refinedEstimate, solveSqdFixedPoint, solveTransient, simulationWarmup,
  type FixedPointResult, type RefinedCorrection,
} from '../meanfield/index.ts';
import { simulate, simulateTrajectory } from '../sim/index.ts';
import { seedFromKey, type Estimate } from '../stats/index.ts';
import { fitInverseN, logLogSlope, type InverseNFit, type SlopeFit, type SweepPoint } from './fit.ts';
import { refinedVerdict, type Verdict } from './verdict.ts';
import { VERSION } from '../version.ts';

export interface ComparisonConfig {
  /** Arrival rates per server λ, each in (0, 1). */
  readonly lambdas: readonly number[];
  /** Choices d, each an integer ≥ 1 and ≤ min(ns). */
  readonly ds: readonly number[];
  /** Numbers of servers to simulate. */
  readonly ns: readonly number[];
  readonly sampling: Sampling;
  /** Measured arrivals per replication (the fixed budget per n, theory.md §8 n-sweeps). */
  readonly jobs: number;
  readonly replications: number;
  /** Master seed; each cell's seed is derived from it and the cell's (d, λ, n), independent of run order. */
  readonly seed: number;
  /** Sup-norm distance to the fixed point that defines the warm-up (mean-field transient from empty). */
  readonly warmupTolerance: number;
  /** Warm-up = safetyFactor × time to reach warmupTolerance. */
  readonly warmupSafetyFactor: number;
  /** Highest level i of s_i recorded by the simulator. */
  readonly maxLevel: number;
  /** Transient comparison from empty: simulated s_i(t) for these n against the ODE, or null to skip;
   *  tEnd ≤ 0 or dt ≤ 0 mean automatic (see `trajectoryGrid`). */
  readonly trajectory: { readonly ns: readonly number[]; readonly tEnd: number; readonly dt: number; readonly replications: number } | null;
}

export interface CellResult {
  /** Stable identifier of the cell, e.g. "d2-lambda0.9-n100". */
  readonly key: string;
  readonly lambda: number;
  readonly d: number;
  readonly n: number;
  readonly seed: number;
  readonly simulation: {
    readonly meanResponseTime: Estimate;
    readonly meanQueueLength: Estimate;
    readonly tail: Estimate[];
    readonly events: number;
    readonly eventsPerSecond: number;
    readonly wallSeconds: number;
    readonly warmupTime: number;
    readonly jobs: number;
    readonly replications: number;
    readonly engine: string;
    readonly seeds: unknown;
  };
  /** Refined mean field at this n: π + V/n. */
  readonly refined: { readonly meanResponseTime: number; readonly meanQueueLength: number; readonly tail: number[] };
  readonly errors: {
    /** Simulated minus mean-field E[T] (time units). */
    readonly meanResponseTimeVsMeanField: number;
    /** Simulated minus refined E[T]. */
    readonly meanResponseTimeVsRefined: number;
    /** max_i |ŝ_i − s_i| over all recorded levels (s_i = 0 past the mean field's truncation). */
    readonly tailSupVsMeanField: number;
    readonly tailSupVsRefined: number;
  };
  readonly verdict: Verdict;
}

export interface ModelSummary {
  readonly lambda: number;
  readonly d: number;
  readonly meanField: { readonly meanResponseTime: number; readonly meanQueueLength: number; readonly tail: number[] };
  /** ΣV: the 1/n coefficient of E[Q] (jobs per server), and V per level. */
  readonly sumV: number;
  readonly V: number[];
  readonly warmupTime: number;
  readonly relaxationTime: number;
  /** Fit of log|E[T]_n − E[T]_∞| against log n (null when fewer than two n resolve the error). */
  readonly slope: SlopeFit | null;
  /** Weighted fit E[T]_n − E[T]_∞ = c₁/n + c₂/n²; c₁ should be near ΣV/λ. */
  readonly inverseN: InverseNFit | null;
  /** Same log–log fit for the sup-norm tail error. */
  readonly tailSlope: SlopeFit | null;
}

/** Levels s_0..s_L kept in transient comparisons. */
export const TRAJECTORY_LEVELS = 8;

export interface TrajectoryComparison {
  readonly lambda: number;
  readonly d: number;
  readonly times: number[];
  /** ODE s_i(t) from empty: meanField[j][i] at times[j]. */
  readonly meanField: number[][];
  /** One entry per simulated n. */
  readonly simulated: { readonly n: number; readonly tail: Estimate[][]; readonly seed: number; readonly events: number }[];
}

export interface ComparisonResult {
  readonly config: ComparisonConfig;
  readonly models: ModelSummary[];
  readonly cells: CellResult[];
  readonly trajectories: TrajectoryComparison[];
  readonly provenance: { readonly version: string; readonly method: string };
}

/** Store of finished cells, so that a rerun of the same sweep skips them (the CLI backs it by files). */
export interface CellCache<C extends { readonly key: string } = CellResult> {
  get(key: string): C | undefined;
  put(cell: C): void;
}

export interface ComparisonHooks<C extends { readonly key: string } = CellResult> {
  /** Progress in simulated events (estimated total), with a label of the running cell. */
  onProgress?: (doneEvents: number, totalEvents: number, label: string) => void;
  cache?: CellCache<C>;
}

/** Deterministic 32-bit seed for a cell from the master seed and the cell's key (FNV-1a; see seedFromKey). */
export const cellSeed = seedFromKey;

export function cellKey(d: number, lambda: number, n: number): string {
  return `d${d}-lambda${lambda}-n${n}`;
}

/**
 * Checks a comparison config: λ and d make stable models, every d ≤ every n, budgets are positive integers.
 * @throws {InvalidModelError | UnstableModelError}
 */
export function validateComparison(config: ComparisonConfig): SupermarketModel[] {
  if (config.lambdas.length === 0 || config.ds.length === 0 || config.ns.length === 0) {
    throw new InvalidModelError('compare needs at least one lambda, one d and one n');
  }
  for (const n of config.ns) {
    if (!Number.isInteger(n) || n < 1) throw new InvalidModelError(`n must be an integer ≥ 1, got ${n}`);
  }
  if (!Number.isInteger(config.jobs) || config.jobs < 1) throw new InvalidModelError(`jobs must be an integer ≥ 1, got ${config.jobs}`);
  if (!Number.isInteger(config.replications) || config.replications < 2) {
    throw new InvalidModelError(`replications must be an integer ≥ 2 (a CI needs two), got ${config.replications}`);
  }
  const models: SupermarketModel[] = [];
  for (const d of config.ds) {
    for (const lambda of config.lambdas) {
      const model = parseModel({ lambda, d, sampling: config.sampling });
      const nMin = Math.min(...config.ns, ...(config.trajectory?.ns ?? []));
      if (model.d > nMin) throw new InvalidModelError(`d = ${d} exceeds n = ${nMin}: cannot sample more servers than exist`);
      models.push(model);
    }
  }
  return models;
}

function estimatedEvents(config: ComparisonConfig, model: SupermarketModel, warmup: number): number {
  let total = 0;
  for (const n of config.ns) total += config.replications * (2 * config.jobs + 2 * model.lambda * n * warmup);
  if (config.trajectory) {
    const { tEnd } = trajectoryGrid(config.trajectory, warmup);
    for (const n of config.trajectory.ns) total += config.trajectory.replications * 2 * model.lambda * n * tEnd;
  }
  return total;
}

function supDistance(estimates: readonly Estimate[], reference: readonly number[]): number {
  let sup = 0;
  // levels past the mean field's truncation K count with s_i = 0 (s_K* < 1e-15 there)
  for (let i = 1; i < Math.max(estimates.length, reference.length); i++) {
    sup = Math.max(sup, Math.abs((estimates[i]?.mean ?? 0) - (reference[i] ?? 0)));
  }
  return sup;
}

function slopePoints(cells: readonly CellResult[], pick: (c: CellResult) => [number, number]): SweepPoint[] {
  return cells.map((c) => {
    const [error, halfWidth] = pick(c);
    return { n: c.n, error, halfWidth };
  });
}

/**
 * Runs the comparison sweep.
 * @returns per (λ, d) a `ModelSummary` (mean field, ΣV, fitted slopes), per (λ, d, n) a `CellResult`, and the
 *   transient comparisons. Every simulation seed is recorded in its cell.
 * @throws {InvalidModelError | UnstableModelError} on a bad config; solver errors from meanfield pass through.
 */
export function runComparison(config: ComparisonConfig, hooks: ComparisonHooks = {}): ComparisonResult {
  const models = validateComparison(config);
  const prepared = models.map((model) => {
    const fixedPoint: FixedPointResult = solveSqdFixedPoint(model);
    const correction: RefinedCorrection = refine(model, { fixedPoint });
    // the one warm-up rule (uncapped here, as this comparison always was); for SQ(d) it is warmupTime's
    const rule = simulationWarmup(model, { tolerance: config.warmupTolerance, safetyFactor: config.warmupSafetyFactor, cap: Infinity });
    const warm = { warmupTime: rule.time, relaxationTime: rule.relaxationTime ?? NaN };
    return { model, fixedPoint, correction, warm };
  });
  const totalEvents = prepared.reduce((s, p) => s + estimatedEvents(config, p.model, p.warm.warmupTime), 0);
  let doneBefore = 0;

  const cells: CellResult[] = [];
  const summaries: ModelSummary[] = [];
  const trajectories: TrajectoryComparison[] = [];
  for (const { model, fixedPoint, correction, warm } of prepared) {
    const modelCells: CellResult[] = [];
    for (const n of config.ns) {
      const key = cellKey(model.d, model.lambda, n);
      const budget = config.replications * (2 * config.jobs + 2 * model.lambda * n * warm.warmupTime);
      const cached = hooks.cache?.get(key);
      if (cached) {
        // the simulation is reused; the comparison is recomputed, so a change of verdict rule applies to it
        modelCells.push(assembleCell(model, n, cached.seed, cached.simulation, fixedPoint, correction));
        doneBefore += budget;
        hooks.onProgress?.(doneBefore, totalEvents, `${key} (resumed)`);
        continue;
      }
      const seed = cellSeed(config.seed, key);
      const sim = simulate(model, {
        n, jobs: config.jobs, replications: config.replications, seed,
        warmupTime: warm.warmupTime, maxLevel: config.maxLevel,
        onProgress: (done, total) => hooks.onProgress?.(doneBefore + (done / Math.max(total, 1)) * budget, totalEvents, key),
      });
      doneBefore += budget;
      const cell = assembleCell(model, n, seed, {
        meanResponseTime: sim.meanResponseTime, meanQueueLength: sim.meanQueueLength, tail: sim.tail,
        events: sim.events, eventsPerSecond: sim.eventsPerSecond, wallSeconds: sim.wallSeconds,
        warmupTime: sim.warmupTime, jobs: sim.jobs, replications: config.replications, engine: sim.engine, seeds: sim.seeds,
      }, fixedPoint, correction);
      hooks.cache?.put(cell);
      hooks.onProgress?.(doneBefore, totalEvents, key);
      modelCells.push(cell);
    }
    cells.push(...modelCells);
    summaries.push({
      lambda: model.lambda, d: model.d,
      meanField: { meanResponseTime: fixedPoint.meanResponseTime, meanQueueLength: fixedPoint.meanQueueLength, tail: fixedPoint.tail },
      sumV: correction.sumV, V: correction.V,
      warmupTime: warm.warmupTime, relaxationTime: warm.relaxationTime,
      slope: logLogSlope(slopePoints(modelCells, (c) => [c.errors.meanResponseTimeVsMeanField, c.simulation.meanResponseTime.halfWidth])),
      inverseN: fitInverseN(slopePoints(modelCells, (c) => [c.errors.meanResponseTimeVsMeanField, c.simulation.meanResponseTime.halfWidth])),
      tailSlope: logLogSlope(slopePoints(modelCells, (c) => [c.errors.tailSupVsMeanField, maxHalfWidth(c.simulation.tail)])),
    });

    if (config.trajectory) {
      const { tEnd, dt } = trajectoryGrid(config.trajectory, warm.warmupTime);
      const steps = Math.round(tEnd / dt);
      const times = Array.from({ length: steps + 1 }, (_, j) => j * dt);
      const ode = solveTransient(model, { times });
      const simulated: TrajectoryComparison['simulated'] = [];
      for (const n of config.trajectory.ns) {
        const seed = cellSeed(config.seed, `trajectory-${cellKey(model.d, model.lambda, n)}`);
        const budget = config.trajectory.replications * 2 * model.lambda * n * tEnd;
        const traj = simulateTrajectory(model, { n, times, replications: config.trajectory.replications, seed, maxLevel: config.maxLevel });
        doneBefore += budget;
        hooks.onProgress?.(doneBefore, totalEvents, `trajectory ${cellKey(model.d, model.lambda, n)}`);
        // keep the levels a reader can see on a linear axis; the full tail is in the cells
        simulated.push({ n, tail: traj.tail.map((row) => row.slice(0, TRAJECTORY_LEVELS + 1)), seed, events: traj.events });
      }
      trajectories.push({ lambda: model.lambda, d: model.d, times, meanField: ode.tail.map((row) => row.slice(0, TRAJECTORY_LEVELS + 1)), simulated });
    }
  }
  return {
    config, models: summaries, cells, trajectories,
    provenance: { version: VERSION, method: 'SQ(d) mean field (theory.md §2), refined 1/n term (§6), simulation (§8)' },
  };
}

/** Sets one simulated cell beside the mean field and the refined mean field, with errors and verdict. */
export function assembleCell(
  model: SupermarketModel, n: number, seed: number, simulation: CellResult['simulation'],
  fixedPoint: FixedPointResult, correction: RefinedCorrection,
): CellResult {
  const refined = refinedEstimate(correction, n);
  return {
    key: cellKey(model.d, model.lambda, n), lambda: model.lambda, d: model.d, n, seed, simulation, refined,
    errors: {
      meanResponseTimeVsMeanField: simulation.meanResponseTime.mean - fixedPoint.meanResponseTime,
      meanResponseTimeVsRefined: simulation.meanResponseTime.mean - refined.meanResponseTime,
      tailSupVsMeanField: supDistance(simulation.tail, fixedPoint.tail),
      tailSupVsRefined: supDistance(simulation.tail, refined.tail),
    },
    verdict: refinedVerdict(simulation.meanResponseTime, refined.meanResponseTime, fixedPoint.meanQueueLength,
      correction.sumV, model.lambda, n),
  };
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

function maxHalfWidth(tail: readonly Estimate[]): number {
  let h = 0;
  for (let i = 1; i < tail.length; i++) h = Math.max(h, tail[i].halfWidth);
  return h;
}
