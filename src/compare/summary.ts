/**
 * The summaries of a comparison, assembled from the values of its tasks: per model the fits x̂_n = a + c₁/n (+ c₂/n²),
 * the limit check, the slopes, the c₁ and c₂ checks and the exact points; the transients from empty; then the
 * report's verdicts (Holm over the judged cells, confirmatory reruns), the busy-fraction check and the family record
 * (theory.md §8).
 */
import { refinedTransientAt, type SimulationStart } from '../meanfield/index.ts';
import { cellSeed, standardErrorOfMean, type Estimate } from '../stats/index.ts';
import { holmAdjust, studentTwoSidedPValue } from '../stats/hypothesis.ts';
import type { StoredTrajectory } from '../runs/task.ts';
import { VERSION } from '../version.ts';
import { fitInverseN, logLogSlope, type FitPoint, type InverseNFit, type SweepPoint } from './fit.ts';
import {
  c1Check,
  judgeC1Family,
  judgeFamily,
  limitCheck,
  infiniteReason,
  FAMILY_RULE,
  MAX_RELATIVE_CORRECTION,
  SIGNIFICANCE_LEVEL,
  type C1Check,
} from './verdict.ts';
import { hasWorkloadReference, lwlWorkloadReference, type WorkloadReference } from './lwlReference.ts';
import { loadCurves } from './meanFieldCurves.ts';
import { judgeQuantileFamily, responseTimeParts } from './quantileCells.ts';
import type { SupermarketModel } from '../model/index.ts';
import type { ExactPoint } from './exactPoints.ts';
import { judgeC2, judgeC2Family } from './secondOrder.ts';
import { assembleCell, referenceValue, unsettledVerdict, withExact } from './cell.ts';
import { cellKey, exactCellsToSimulate, modelLabel, workloadGrid } from './plan.ts';
import {
  TRAJECTORY_LEVELS,
  type CellResult,
  type CellSimulation,
  type ComparisonConfig,
  type ComparisonPlan,
  type ComparisonResult,
  type ModelSummary,
  type PreparedModel,
  type TaskValue,
  type TrajectoryComparison,
} from './types.ts';

/** A cell of the first assembly with what its confirmatory rerun is judged with. */
interface PendingCell {
  readonly p: PreparedModel;
  readonly workload: WorkloadReference | null;
  readonly fit: InverseNFit | null;
  readonly cell: CellResult;
  readonly exact?: ExactPoint;
}

/** The first assembly of a sweep: cells with their first-run verdicts, model summaries before the family judgements. */
export interface SweepAssembly {
  readonly cells: readonly CellResult[];
  readonly pending: readonly PendingCell[];
  readonly models: readonly ModelSummary[];
  readonly trajectories: readonly TrajectoryComparison[];
  readonly notes: readonly string[];
}

/**
 * Assembles the cells, model summaries and transients of a sweep from the values of its tasks (by task key): per
 * model the exact cells outside the sweep, then the sweep's cells (in `config.ns` order), fits, slopes and checks.
 */
export function assembleSweep(plan: ComparisonPlan, values: ReadonlyMap<string, TaskValue>): SweepAssembly {
  const { config } = plan;
  const notes: string[] = [...plan.notes];
  const pending: PendingCell[] = [];
  const models: ModelSummary[] = [];
  const cells: CellResult[] = [];
  const trajectories: TrajectoryComparison[] = [];
  const simulation = (key: string) => values.get(key) as CellSimulation;
  for (const [index, p] of plan.prepared.entries()) {
    const { model } = p;
    const grid = workloadGrid(config, model);
    const workload = grid && hasWorkloadReference(model) ? lwlWorkloadReference(model, grid) : null;
    const sims = config.ns.map((n) => ({ n, simulation: simulation(cellKey(model, n)) }));
    const meanResponseTimes: FitPoint[] = sims.map(({ n, simulation: { meanResponseTime: e } }) => ({
      n,
      value: e.mean,
      halfWidth: e.halfWidth,
      replications: e.replications,
    }));
    const fit = fitInverseN(meanResponseTimes, { inverseSquare: config.inverseSquare ?? 'auto' });
    const exact = plan.exact[index];
    const exactAt = new Map(exact?.points.map((x) => [x.n, x]));
    const seedOf = (key: string) => cellSeed(config.seed, key);
    const modelCells = sims.map((s) =>
      withExact(assembleCell(p, s.n, seedOf(cellKey(model, s.n)), s.simulation, workload, fit, config), exactAt.get(s.n)),
    );
    // small n with an exact value but outside the sweep: simulated on their own budget, kept out of the fits and slopes
    const exactCells: CellResult[] = [];
    for (const x of exactCellsToSimulate(exact, config)) {
      const key = `exact-${cellKey(model, x.n)}`;
      const cell = { ...withExact(assembleCell(p, x.n, seedOf(key), simulation(key), workload, fit, config), x), key };
      cells.push(cell);
      exactCells.push(cell);
      pending.push({ p, workload, fit, cell, exact: x });
    }
    cells.push(...modelCells);
    for (const cell of modelCells) pending.push({ p, workload, fit, cell, exact: exactAt.get(cell.n) });
    models.push({
      ...modelSummary(p, modelCells, meanResponseTimes, fit, workload, config, exact),
      cellWarmups: cellWarmups([...exactCells, ...modelCells]),
      ...responseTimeOf(model, modelCells, notes),
    });
    if (!config.trajectory) continue;
    if (!p.transient) {
      notes.push(
        `Transient from empty skipped for ${modelLabel(model)}, λ = ${model.lambda}: compare has a transient mean field ` +
          'only for JSQ(d) FIFO exponential (ODE) and LWL(d) (PIDE).',
      );
      continue;
    }
    trajectories.push(trajectoryComparison(p, config, values));
  }
  return { cells, pending, models, trajectories, notes };
}

/** The warm-ups and starts a model's cells used (`ModelSummary.cellWarmups`); a cell stored without a start started empty. */
function cellWarmups(modelCells: readonly CellResult[]): ModelSummary['cellWarmups'] {
  const times = modelCells.map((c) => c.simulation.warmupTime);
  const starts: Partial<Record<SimulationStart, number>> = {};
  for (const c of modelCells) {
    const s = c.simulation.start ?? 'empty';
    starts[s] = (starts[s] ?? 0) + 1;
  }
  return { min: Math.min(...times), max: Math.max(...times), starts };
}

/** One model's summary (`ModelSummary` but the cells' warm-ups) from its sweep cells, before the family judgements of c₁ and c₂. */
function modelSummary(
  p: PreparedModel,
  modelCells: readonly CellResult[],
  meanResponseTimes: readonly FitPoint[],
  fit: InverseNFit | null,
  workload: WorkloadReference | null,
  config: ComparisonConfig,
  exact: ModelSummary['exact'],
): Omit<ModelSummary, 'cellWarmups'> {
  const { model, reference, correction, warm } = p;
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
  return {
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
    limit: unsettledVerdict(
      limitCheck(
        fit,
        ref,
        modelCells.map((c) => infiniteReason(c.simulation.meanResponseTime, null)).find((r) => r !== null) ?? null,
        meanResponseTimes,
      ),
      model,
    ),
    c1Check: correction ? trustedC1Check(p, modelCells) : null,
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
  };
}

/** The response-time curve and quantile cells of one model (quantileCells.ts); a model without an exact law adds a note. */
function responseTimeOf(model: SupermarketModel, cells: readonly CellResult[], notes: string[]) {
  const r = responseTimeParts(
    model,
    cells.map((c) => ({ n: c.n, jobs: c.simulation.jobs, percentiles: c.simulation.responseTimePercentiles })),
  );
  if (r.note) notes.push(`${r.note} (${modelLabel(model)}, λ = ${model.lambda})`);
  return { responseTime: r.responseTime, quantiles: r.quantiles };
}

/** The transient comparison of a model with a transient solver, from the values of its trajectory tasks. */
function trajectoryComparison(p: PreparedModel, config: ComparisonConfig, values: ReadonlyMap<string, TaskValue>): TrajectoryComparison {
  const { model } = p;
  const { solver, times, meanField, refinedPath } = p.transient!;
  // the levels a reader can see on a linear axis (the full tail is in the cells); the PIDE gives the busy fraction s_1
  const levels = solver === 'ODE' ? TRAJECTORY_LEVELS : 1;
  const simulated: TrajectoryComparison['simulated'] = config.trajectory!.ns.map((n) => {
    const key = `trajectory-${cellKey(model, n)}`;
    const traj = values.get(key) as StoredTrajectory;
    const refined = refinedPath ? refinedTransientAt(refinedPath, n).tail.map((row) => row.slice(0, levels + 1)) : undefined;
    return {
      n,
      tail: traj.tail.map((row) => row.slice(0, levels + 1)),
      seed: cellSeed(config.seed, key),
      events: traj.events,
      ...(refined ? { refined } : {}),
    };
  });
  return { lambda: model.lambda, d: model.d, times, solver, meanField: meanField.values, simulated, note: meanField.note };
}

/** The cells (indices into `assembly.cells`) the report's Holm step rejects: each gets a confirmatory rerun. */
export function rejectedCells(assembly: SweepAssembly): number[] {
  const rejected: number[] = [];
  judgeFamily(
    assembly.cells.map((c) => c.verdict),
    (i) => {
      rejected.push(i);
      return assembly.cells[i].verdict;
    },
  );
  return rejected;
}

/**
 * The result of a sweep from its first assembly and the values of its confirmatory reruns ("<cell key>/confirm"):
 * the report's verdicts (`judgeFamily`), c₁ and c₂ judged over the models (Holm), the busy-fraction check, the load
 * curves and the family record.
 */
export function judgeSweep(plan: ComparisonPlan, assembly: SweepAssembly, values: ReadonlyMap<string, TaskValue>): ComparisonResult {
  const { config, prepared } = plan;
  const { cells, models } = assembly;
  const reruns = new Map<number, { seed: number; simulation: CellSimulation }>();
  const judgement = judgeFamily(
    cells.map((c) => c.verdict),
    (i) => {
      const { p, workload, fit, cell, exact } = assembly.pending[i];
      const key = `${cell.key}/confirm`;
      const seed = cellSeed(config.seed, key);
      const simulation = values.get(key) as CellSimulation;
      reruns.set(i, { seed, simulation });
      return withExact(assembleCell(p, cell.n, seed, simulation, workload, fit, config), exact).verdict;
    },
  );
  const judgedCells = cells.map((c, i) => {
    const { verdict, confirmation } = judgement[i];
    const rerun = reruns.get(i);
    return { ...c, verdict, confirmation: confirmation && rerun ? { ...rerun, verdict: confirmation } : null };
  });
  const c1Checks = judgeC1Family(models.map((m) => m.c1Check));
  const c2Checks = judgeC2Family(models.map((m) => m.secondOrder));
  const quantileChecks = judgeQuantileFamily(models.map((m) => m.quantiles));
  const judgedModels = models.map((m, i) => ({
    ...m,
    ...(m.quantiles !== undefined ? { quantiles: quantileChecks[i] } : {}),
    c1Check: c1Checks[i],
    ...(m.secondOrder !== undefined ? { secondOrder: c2Checks[i] } : {}),
  }));
  const judgedBy = prepared.every((p) => p.correction) ? 'refined-mean-field' : 'without-v';
  const speeds = prepared.find((p) => p.correction?.origin === 'server speeds');
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
    trajectories: [...assembly.trajectories],
    // SQ(d)'s load curves (closed form): not the per-class mean field of a model with server speeds
    ...(judgedBy === 'refined-mean-field' && models.length > 0 && speeds === undefined
      ? {
          loadCurves: loadCurves(
            models[0].model,
            [...new Set([...config.ds, 2, 3, 5])].filter((d) => d >= 2).sort((a, b) => a - b),
          ),
        }
      : {}),
    notes: [...assembly.notes],
    family,
    busyCheck: busyCheck(judgedCells, prepared),
    provenance: {
      version: VERSION,
      method:
        judgedBy === 'refined-mean-field'
          ? speeds
            ? 'per-class occupancy ODE with server speeds (theory.md §13), its refined 1/n term through the population model (heteroRefined, §6, §13), simulation (§8)'
            : 'SQ(d) mean field (theory.md §2), refined 1/n term (§6), simulation (§8)'
          : 'mean field by solveMeanField (theory.md §2–§7), simulation (§8), verdict "Without V" (§8)',
    },
  };
}

/**
 * ĉ₁ against ΣV/λ (theory.md §8 "Sweep") from the cells inside the trusted range (ΣV/(nΣπ) ≤ `MAX_RELATIVE_CORRECTION`,
 * the range of the cell verdicts), the reference held as the limit; c₂/n² fitted when ≥ 3 n remain.
 */
function trustedC1Check(p: PreparedModel, modelCells: readonly CellResult[]): C1Check {
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
  return c1Check(points, p.reference.meanResponseTime, sumV / p.model.lambda);
}

/**
 * The busy-fraction check over all cells (see `ComparisonResult.busyCheck`): ŝ₁ = ρ = λE[S] for identical servers;
 * with server speeds the pooled busy fraction is not ρ, and the check is work conservation, Σ f·speed·busy = λE[S]
 * (the cell's `workRate`, theory.md §13).
 */
function busyCheck(cells: readonly CellResult[], prepared: readonly PreparedModel[]): ComparisonResult['busyCheck'] {
  const modelOf = (c: CellResult) => prepared.find((q) => q.model.d === c.d && q.model.lambda === c.lambda)!.model;
  const rho = (c: CellResult) => modelOf(c).lambda * modelOf(c).service.mean;
  // under redundancy-d the busy fraction is λE[W], which is λE[S] at every n only for independent exponential replicas
  // (a memoryless race: the replicas' service per job is E[S]; theory.md §16): other redundancy models are not judged
  const notJudged = (c: CellResult) => {
    const m = modelOf(c);
    const r = m.redundancy;
    return r !== undefined && !(r.replicas === 'independent' && m.service.kind === 'exponential');
  };
  // the estimate the check reads: Σ f·speed·busy with speeds (absent in a cell stored before it existed), else ŝ₁
  const observed = (c: CellResult): Estimate | undefined =>
    notJudged(c)
      ? undefined
      : modelOf(c).servers !== undefined
        ? c.simulation.workRate
        : c.simulation.tail.length > 1
          ? c.simulation.tail[1]
          : undefined;
  const used = cells.filter((c) => {
    const e = observed(c);
    return e !== undefined && standardErrorOfMean(e) > 0;
  });
  const tStatistics = used.map((c) => (observed(c)!.mean - rho(c)) / standardErrorOfMean(observed(c)!));
  const adjusted = holmAdjust(tStatistics.map((t, i) => studentTwoSidedPValue(t, observed(used[i])!.replications - 1)));
  const minAdjustedPValue = adjusted.length ? Math.min(...adjusted) : Number.NaN;
  const status = adjusted.length === 0 ? 'not-judged' : minAdjustedPValue < SIGNIFICANCE_LEVEL ? 'disagrees' : 'agrees';
  const mean = tStatistics.reduce((a, b) => a + b, 0) / Math.max(tStatistics.length, 1);
  const sd =
    tStatistics.length > 1 ? Math.sqrt(tStatistics.reduce((a, t) => a + (t - mean) ** 2, 0) / (tStatistics.length - 1)) : Number.NaN;
  const nu = Math.min(...cells.map((c) => c.simulation.replications)) - 1;
  return { tStatistics, sd, expectedSd: nu > 2 ? Math.sqrt(nu / (nu - 2)) : Number.NaN, minAdjustedPValue, status };
}

function maxHalfWidth(tail: readonly Estimate[]): number {
  let h = 0;
  for (let i = 1; i < tail.length; i++) h = Math.max(h, tail[i].halfWidth);
  return h;
}
