/**
 * The summaries of a comparison, assembled from the values of its tasks: per model the fits x̂_n = a + c₁/n (+ c₂/n²),
 * the limit check, the slopes, the c₁ and c₂ checks and the exact points; the transients from empty; then the
 * report's verdicts (Holm over the judged cells, confirmatory reruns), the busy-fraction check and the family record
 * (theory.md §8).
 */
import { refinedTransientAt, type SimulationStart } from '../meanfield/index.ts';
import { cellSeed, standardErrorOfMean, type Estimate } from '../stats/index.ts';
import { studentTwoSidedPValue } from '../stats/hypothesis.ts';
import type { StoredTrajectory } from '../runs/task.ts';
import { VERSION } from '../version.ts';
import { fitInverseN, logLogSlope, type FitPoint, type InverseNFit, type SweepPoint } from './fit.ts';
import {
  c1Check,
  confirmFamily,
  confirmPresent,
  judgeFamily,
  limitCheck,
  infiniteReason,
  FAMILY_RULE,
  inFirstOrderRange,
  SIGNIFICANCE_LEVEL,
  type C1Check,
  type LimitCheck,
  type SingleRunTest,
} from './verdict.ts';
import { hasWorkloadReference, lwlWorkloadReference, type WorkloadReference } from './lwlReference.ts';
import { loadCurves } from './meanFieldCurves.ts';
import { judgeQuantileFamily, responseTimeParts } from './quantileCells.ts';
import type { SupermarketModel } from '../model/index.ts';
import { heavyTailBudgetWarnings } from '../sim/index.ts';
import type { ExactPoint } from './exactPoints.ts';
import { judgeC2, type C2Check } from './secondOrder.ts';
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
  /** Per model, the indices into `cells` of its sweep cells (`config.ns` order): the points of its fits. */
  readonly modelCells: readonly (readonly number[])[];
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
  const modelCellIndices: number[][] = [];
  const simulation = (key: string) => values.get(key) as CellSimulation;
  for (const [index, p] of plan.prepared.entries()) {
    const { model } = p;
    const grid = workloadGrid(config, model);
    const workload = grid && hasWorkloadReference(model) ? lwlWorkloadReference(model, grid) : null;
    const sims = config.ns.map((n) => ({ n, simulation: simulation(cellKey(model, n)) }));
    const meanResponseTimes = fitPoints(sims);
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
    budgetNotes(model, [...exactCells, ...modelCells], notes);
    modelCellIndices.push(modelCells.map((_, j) => cells.length + j));
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
  return { cells, pending, models, modelCells: modelCellIndices, trajectories, notes };
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
    limit: modelLimitCheck(p, modelCells, fit),
    c1Check: correction ? c1CheckOf(p, meanResponseTimes) : null,
    slope: logLogSlope(points((c) => [c.errors.meanResponseTime, Math.hypot(c.simulation.meanResponseTime.halfWidth, ref.halfWidth)])),
    tailSlope: reference.tail ? logLogSlope(points((c) => [c.errors.tailSup ?? 0, maxHalfWidth(c.simulation.tail)])) : null,
    workload,
    workloadSlope: workload ? logLogSlope(points((c) => [c.errors.workloadSup ?? 0, c.errors.workloadHalfWidth ?? 0])) : null,
    secondOrder: c2CheckOf(p, meanResponseTimes),
    exact,
  };
}

/** The c₂ check (`judgeC2`, unadjusted) of a model with a second-order term from its sweep's E[T]_n; else null. */
function c2CheckOf(p: PreparedModel, meanResponseTimes: readonly FitPoint[]): C2Check | null {
  if (!p.secondOrder) return null;
  const { sumA, sumV, fixedPoint } = p.secondOrder;
  return judgeC2({ sumA, sumV, sumPi: fixedPoint.meanQueueLength }, p.model.lambda, referenceValue(p.reference).value, meanResponseTimes);
}

/** E[T]_n of cells as the points of the fits. */
function fitPoints(cells: readonly { n: number; simulation: CellSimulation }[]): FitPoint[] {
  return cells.map(({ n, simulation: { meanResponseTime: e } }) => ({
    n,
    value: e.mean,
    halfWidth: e.halfWidth,
    replications: e.replications,
  }));
}

/**
 * The limit check of a model (`limitCheck`, LIMIT_RULE) from its sweep's E[T]_n points and their fit: the first run's,
 * or a confirmatory rerun's (the rerun's points and a fit of the same form). A fit without c₂ (two or three n) leaves
 * the 1/n² term in â; where the second order is computed (c₂ = ΣA/λ) it is subtracted from the points first and
 * a + c₁/n refitted (the c₁ check does the same, `c1Check`).
 */
function modelLimitCheck(
  p: PreparedModel,
  cells: readonly { n: number; simulation: CellSimulation }[],
  fit: InverseNFit | null,
): LimitCheck {
  const infinite = cells.map((c) => infiniteReason(c.simulation.meanResponseTime, null)).find((r) => r !== null) ?? null;
  const points = fitPoints(cells);
  const c2 = fit && !fit.inverseSquare && p.secondOrder ? p.secondOrder.sumA / p.model.lambda : null;
  if (c2 === null || !Number.isFinite(c2)) return unsettledVerdict(limitCheck(fit, referenceValue(p.reference), infinite, points), p.model);
  const less = points.map((x) => ({ ...x, value: x.value - c2 / (x.n * x.n) }));
  const check = limitCheck(fitInverseN(less, { inverseSquare: false }), referenceValue(p.reference), infinite, less);
  return unsettledVerdict({ ...check, rule: `${check.rule}; the computed c₂/n² = ΣA/(λn²) subtracted from x̂_n first` }, p.model);
}

/** The response-time curve and quantile cells of one model (quantileCells.ts); a model without an exact law adds a note. */
/**
 * simulate's heavy-tail budget (theory.md §8, `heavyTailBudgetWarnings`: ≥ 10⁵(1 + SCV) jobs per replication and a
 * window ≥ 100τ) for each cell of a model, as notes: the cells' verdicts read their intervals as 95 % intervals, as
 * simulate, run and conjecture warn of them. τ is the cell's horizon's (its window over its relaxations), none without one.
 */
function budgetNotes(model: SupermarketModel, cells: readonly CellResult[], notes: string[]): void {
  for (const cell of cells) {
    const { time, relaxations } = cell.horizon;
    const warnings = heavyTailBudgetWarnings(model.service, {
      jobs: cell.simulation.jobs,
      unit: 'replication',
      systemRate: model.lambda * cell.n,
      ...(relaxations ? { relaxationTime: time / relaxations } : {}),
    });
    for (const w of warnings)
      notes.push(`${modelLabel(model)}, λ = ${model.lambda}, n = ${cell.n}: ${w}; the verdict of this cell rests on this interval`);
  }
}

function responseTimeOf(model: SupermarketModel, cells: readonly CellResult[], notes: string[]) {
  const r = responseTimeParts(
    model,
    cells.map((c) => ({ n: c.n, jobs: c.simulation.jobs, percentiles: c.simulation.responseTimePercentiles })),
  );
  if (r.note) notes.push(`${r.note} (${modelLabel(model)}, λ = ${model.lambda})`);
  return { responseTime: r.responseTime, quantiles: r.quantiles };
}

/** The transient comparison of a model with a transient solver, from the values of its trajectory tasks. */
export function trajectoryComparison(
  p: PreparedModel,
  config: ComparisonConfig,
  values: ReadonlyMap<string, TaskValue>,
): TrajectoryComparison {
  const { model } = p;
  const { solver, times, meanField, refinedPath, drawnTo } = p.transient!;
  // the levels a reader can see on a linear axis (the full tail is in the cells); the PIDE gives the busy fraction s_1
  const levels = solver === 'ODE' ? TRAJECTORY_LEVELS : 1;
  const simulated: TrajectoryComparison['simulated'] = config.trajectory!.ns.map((n) => {
    const key = `trajectory-${cellKey(model, n)}`;
    const traj = values.get(key) as StoredTrajectory;
    // the refined path covers the whole automatic grid, of which `times` is the drawn prefix
    const refined = refinedPath
      ? refinedTransientAt(refinedPath, n)
          .tail.slice(0, times.length)
          .map((row) => row.slice(0, levels + 1))
      : undefined;
    return {
      n,
      tail: traj.tail.map((row) => row.slice(0, levels + 1)),
      seed: cellSeed(config.seed, key),
      events: traj.events,
      ...(refined ? { refined } : {}),
    };
  });
  return { lambda: model.lambda, d: model.d, times, solver, meanField: meanField.values, drawnTo, simulated, note: meanField.note };
}

/** A model without a c₁ or c₂ check, as the family rule reads it: not judged. */
const ABSENT: SingleRunTest = { status: 'not-judged', pValue: Number.NaN, adjustedPValue: null };

/** The indices of `tests` that their family's Holm step rejects (`confirmFamily`): each gets a confirmatory rerun. */
function rejectedBy<V extends SingleRunTest>(tests: readonly V[]): number[] {
  const rejected: number[] = [];
  confirmFamily(tests, (i) => {
    rejected.push(i);
    return tests[i];
  });
  return rejected;
}

/**
 * The cells (indices into `assembly.cells`, ascending) to rerun with fresh seeds ("<cell key>/confirm"): every cell
 * whose E[T] verdict the report's Holm step rejects, every sweep cell of a model whose limit check the Holm step over
 * the models rejects (the limit is refitted from the reruns), and every cell whose busy fraction the Holm step over the
 * cells rejects. One rerun per cell serves all three checks.
 */
export function confirmationCells(plan: ComparisonPlan, assembly: SweepAssembly): number[] {
  const cells = new Set<number>(rejectedBy(assembly.cells.map((c) => c.verdict)));
  for (const m of rejectedBy(assembly.models.map((m) => m.limit))) for (const i of assembly.modelCells[m]) cells.add(i);
  for (const m of rejectedBy(assembly.models.map((m) => m.c1Check ?? ABSENT))) for (const i of assembly.modelCells[m]) cells.add(i);
  for (const m of rejectedBy(assembly.models.map((m) => m.secondOrder ?? ABSENT))) for (const i of assembly.modelCells[m]) cells.add(i);
  for (const i of rejectedBy(busyTests(assembly.cells, plan.prepared))) cells.add(i);
  return [...cells].sort((a, b) => a - b);
}

/**
 * The result of a sweep from its first assembly and the values of its confirmatory reruns ("<cell key>/confirm"):
 * the report's verdicts (`judgeFamily`), c₁ and c₂ judged over the models (Holm), the busy-fraction check, the load
 * curves and the family record.
 */
export function judgeSweep(plan: ComparisonPlan, assembly: SweepAssembly, values: ReadonlyMap<string, TaskValue>): ComparisonResult {
  const { config, prepared } = plan;
  const { cells } = assembly;
  const rerunOf = (i: number) => {
    const key = `${cells[i].key}/confirm`;
    return { seed: cellSeed(config.seed, key), simulation: values.get(key) as CellSimulation };
  };
  const reruns = new Map<number, { seed: number; simulation: CellSimulation }>();
  const judgement = judgeFamily(
    cells.map((c) => c.verdict),
    (i) => {
      const { p, workload, fit, cell, exact } = assembly.pending[i];
      const rerun = rerunOf(i);
      reruns.set(i, rerun);
      return withExact(assembleCell(p, cell.n, rerun.seed, rerun.simulation, workload, fit, config), exact).verdict;
    },
  );
  const judgedCells = cells.map((c, i) => {
    const { verdict, confirmation } = judgement[i];
    const rerun = reruns.get(i);
    return { ...c, verdict, confirmation: confirmation && rerun ? { ...rerun, verdict: confirmation } : null };
  });
  // the limit checks: Holm over the models, a rejected model refitted from its sweep cells' reruns
  const limitReruns = new Map<number, { n: number; seed: number }[]>();
  const limits = confirmFamily(
    assembly.models.map((m) => m.limit),
    (m) => {
      const sims = assembly.modelCells[m].map((i) => ({ n: cells[i].n, ...rerunOf(i) }));
      limitReruns.set(
        m,
        sims.map(({ n, seed }) => ({ n, seed })),
      );
      const points = fitPoints(sims);
      const fit = fitInverseN(points, { inverseSquare: config.inverseSquare ?? 'auto' });
      return modelLimitCheck(prepared[m], sims, fit);
    },
  );
  const models = assembly.models.map((m, i) => {
    const { verdict, confirmation } = limits[i];
    return { ...m, limit: verdict, limitConfirmation: confirmation ? { check: confirmation, cells: limitReruns.get(i)! } : null };
  });
  // c₁ and c₂: Holm over the models, a rejected model's check recomputed from its sweep cells' reruns (same rule)
  const rerunPoints = (m: number) => fitPoints(assembly.modelCells[m].map((i) => ({ n: cells[i].n, ...rerunOf(i) })));
  const c1Checks = confirmPresent<C1Check, null>(
    models.map((m) => m.c1Check),
    (m) => c1CheckOf(prepared[m], rerunPoints(m)),
  );
  const c2Checks = confirmPresent<C2Check, null | undefined>(
    models.map((m) => m.secondOrder),
    (m) => c2CheckOf(prepared[m], rerunPoints(m))!,
  );
  const quantileChecks = judgeQuantileFamily(models.map((m) => m.quantiles));
  const judgedModels = models.map((m, i) => ({
    ...m,
    ...(m.quantiles !== undefined ? { quantiles: quantileChecks[i] } : {}),
    c1Check: c1Checks[i].verdict,
    c1Confirmation: c1Checks[i].confirmation,
    ...(m.secondOrder !== undefined ? { secondOrder: c2Checks[i].verdict, c2Confirmation: c2Checks[i].confirmation } : {}),
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
    busyCheck: busyCheck(cells, prepared, rerunOf),
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
 * ĉ₁ against ΣV/λ (theory.md §8 "Sweep") from the cells inside the trusted range (`inFirstOrderRange`: ΣV/(nΣπ) ≤ `MAX_RELATIVE_CORRECTION`,
 * the range of the cell verdicts), the reference held as the limit; c₂/n² fitted when ≥ 3 n remain.
 */
function c1CheckOf(p: PreparedModel, meanResponseTimes: readonly FitPoint[]): C1Check {
  const sumV = p.correction!.sumV;
  const sumPi = p.correction!.fixedPoint.meanQueueLength;
  const points = inFirstOrderRange(meanResponseTimes, sumV, sumPi).kept;
  // the computed second order (SQ(d) FIFO and PS/LAS through it): c₂ = ΣA/λ, subtracted when c₁ is fitted alone
  const c2 = p.secondOrder ? p.secondOrder.sumA / p.model.lambda : null;
  return c1Check(points, p.reference.meanResponseTime, sumV / p.model.lambda, c2);
}

/** One cell's busy-fraction test: t = (ŝ₁ − ρ)/σ̂ against Student t (ν = R − 1), 'agrees'/'disagrees' at α unadjusted. */
interface BusyTest extends SingleRunTest {
  readonly status: 'agrees' | 'disagrees' | 'not-judged';
  readonly tStatistic: number;
}

/**
 * The busy-fraction tests of cells (see `ComparisonResult.busyCheck`): ŝ₁ = ρ = λE[S] for identical servers; with
 * server speeds the pooled busy fraction is not ρ, and the check is work conservation, Σ f·speed·busy = λE[S] (the
 * cell's `workRate`, theory.md §13). 'not-judged' where there is nothing to test (see `busyCheck`).
 * @param cells the cells (their `simulation`, or `simulationOf(i)` for a rerun). @param prepared the sweep's models.
 */
function busyTests(
  cells: readonly CellResult[],
  prepared: readonly PreparedModel[],
  simulationOf: (index: number) => CellSimulation = (i) => cells[i].simulation,
): BusyTest[] {
  const modelOf = (c: CellResult) => prepared.find((q) => q.model.d === c.d && q.model.lambda === c.lambda)!.model;
  // under redundancy-d the busy fraction is λE[W], which is λE[S] at every n only for independent exponential replicas
  // (a memoryless race: the replicas' service per job is E[S]; theory.md §16): other redundancy models are not judged
  const notJudged = (c: CellResult) => {
    const m = modelOf(c);
    const r = m.redundancy;
    return r !== undefined && !(r.replicas === 'independent' && m.service.kind === 'exponential');
  };
  return cells.map((c, i) => {
    const m = modelOf(c);
    const simulation = simulationOf(i);
    // the estimate the check reads: Σ f·speed·busy with speeds (absent in a cell stored before it existed), else ŝ₁
    const observed: Estimate | undefined = notJudged(c)
      ? undefined
      : m.servers !== undefined
        ? simulation.workRate
        : simulation.tail.length > 1
          ? simulation.tail[1]
          : undefined;
    if (observed === undefined || !(standardErrorOfMean(observed) > 0)) {
      return { status: 'not-judged', tStatistic: Number.NaN, pValue: Number.NaN, adjustedPValue: null };
    }
    const tStatistic = (observed.mean - m.lambda * m.service.mean) / standardErrorOfMean(observed);
    const pValue = studentTwoSidedPValue(tStatistic, observed.replications - 1);
    return { status: pValue < SIGNIFICANCE_LEVEL ? 'disagrees' : 'agrees', tStatistic, pValue, adjustedPValue: null };
  });
}

/**
 * The busy-fraction check over all cells (see `ComparisonResult.busyCheck`), judged by the family rule
 * (`confirmFamily`): Holm over the cells' tests, each rejected cell's rerun ("<cell key>/confirm") tested again and the
 * reruns Holm-adjusted among themselves; 'disagrees' only when some rerun is rejected too.
 */
function busyCheck(
  cells: readonly CellResult[],
  prepared: readonly PreparedModel[],
  rerunOf: (index: number) => { seed: number; simulation: CellSimulation },
): ComparisonResult['busyCheck'] {
  const first = busyTests(cells, prepared);
  const reruns = new Map<number, number>();
  const judged = confirmFamily(first, (i) => {
    const { seed, simulation } = rerunOf(i);
    reruns.set(i, seed);
    return busyTests([cells[i]], prepared, () => simulation)[0];
  });
  const used = first.map((t, i) => i).filter((i) => first[i].status !== 'not-judged');
  const tStatistics = used.map((i) => first[i].tStatistic);
  const adjusted = used.map((i) => judged[i].verdict.adjustedPValue!);
  const minAdjustedPValue = adjusted.length ? Math.min(...adjusted) : Number.NaN;
  const confirmed = used.filter((i) => judged[i].verdict.status === 'disagrees').length;
  const status = used.length === 0 ? 'not-judged' : confirmed > 0 ? 'disagrees' : 'agrees';
  const mean = tStatistics.reduce((a, b) => a + b, 0) / Math.max(tStatistics.length, 1);
  const sd =
    tStatistics.length > 1 ? Math.sqrt(tStatistics.reduce((a, t) => a + (t - mean) ** 2, 0) / (tStatistics.length - 1)) : Number.NaN;
  const nu = Math.min(...cells.map((c) => c.simulation.replications)) - 1;
  return {
    tStatistics,
    sd,
    expectedSd: nu > 2 ? Math.sqrt(nu / (nu - 2)) : Number.NaN,
    minAdjustedPValue,
    status,
    firstRunRejections: reruns.size,
    confirmed,
    reruns: [...reruns].map(([i, seed]) => {
      const c = judged[i].confirmation!;
      return { key: cells[i].key, seed, tStatistic: c.tStatistic, adjustedPValue: c.adjustedPValue };
    }),
  };
}

function maxHalfWidth(tail: readonly Estimate[]): number {
  let h = 0;
  for (let i = 1; i < tail.length; i++) h = Math.max(h, tail[i].halfWidth);
  return h;
}
