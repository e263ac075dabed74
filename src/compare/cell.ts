/**
 * A cell of a comparison assembled from its simulation: the errors against the limit (E[T], tails, workload ccdf),
 * the refined and second-order values at its n, its verdict (`cellVerdict`, or against the exact value), its
 * resolution (`config.resolve`) and its horizon in relaxation times (theory.md §8).
 */
import { refinedEstimate, type SimulationStart } from '../meanfield/index.ts';
import type { SimulationResult } from '../sim/index.ts';
import type { Estimate } from '../stats/index.ts';
import { storedSimulation } from '../runs/task.ts';
import type { InverseNFit } from './fit.ts';
import { cellVerdict, isUnvalued, type FiniteNTerm, type ReferenceValue } from './verdict.ts';
import { workloadSupDistance, type WorkloadReference } from './lwlReference.ts';
import { exactVerdict, type ExactPoint } from './exactPoints.ts';
import { secondOrderAllowance, secondOrderValue } from './secondOrder.ts';
import { baseJobs, cellKey, jobsFor, resolveTarget } from './plan.ts';
import { estimandFiniteness } from '../model/moments.ts';
import type { SupermarketModel } from '../model/index.ts';
import {
  HORIZON_RELAXATIONS,
  type CellResolution,
  type CellResult,
  type CellSimulation,
  type ComparisonConfig,
  type MeanFieldReference,
  type PreparedModel,
} from './types.ts';

/** The part of a `simulate` result a comparison cell keeps (see `CellSimulation`). */
export function cellSimulation(sim: SimulationResult, replications: number): CellSimulation {
  return {
    ...storedSimulation(sim),
    tail: sim.tail,
    ...(sim.meanWorkload ? { meanWorkload: sim.meanWorkload } : {}),
    ...(sim.workloadCcdf ? { workloadCcdf: sim.workloadCcdf } : {}),
    responseTimePercentiles: sim.responseTimePercentiles,
    ...(sim.responseTimeCcdf ? { responseTimeCcdf: sim.responseTimeCcdf } : {}),
    ...(sim.classes ? { classes: sim.classes } : {}),
    ...(sim.workRate ? { workRate: sim.workRate } : {}),
    jobs: sim.jobs,
    replications,
    engine: sim.engine,
    start: sim.start.name as SimulationStart, // the task's start (`cellWarmup`): 'empty' or 'fixed-point'
  };
}

/** The limit as a verdict reads it: value, CI half-width (cavity estimates) and numerical error. */
export function referenceValue(r: MeanFieldReference): ReferenceValue {
  return {
    value: r.meanResponseTime,
    halfWidth: r.halfWidth,
    numericalError: r.numericalError,
    ...(r.infinite ? { infinite: r.infinite } : {}),
    ...(r.unsettled ? { unsettled: r.unsettled } : {}),
    ...(r.notComputed ? { notComputed: r.notComputed } : {}),
  };
}

/**
 * Sets one simulated cell beside the limit (and the refined mean field where V exists): errors (E[T], tails,
 * workload ccdf) and the verdict. @param fit the sweep's fit x̂_n = a + c₁/n (+ c₂/n²), or null (then a cell of a
 * model without V is 'not-judged').
 */
export function assembleCell(
  p: PreparedModel,
  n: number,
  seed: number,
  simulation: CellSimulation,
  workload: WorkloadReference | null,
  fit: InverseNFit | null,
  config: ComparisonConfig,
): CellResult {
  const { model, reference, correction, secondOrder } = p;
  // π + V/n with whether n is in the 1/n expansion's trusted range (`trusted`, the verdict's range)
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
  const verdict = unsettledVerdict(cellVerdict(simulation.meanResponseTime, referenceValue(reference), term, n), model);
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
      // ∞ − x and ∞ − ∞ are no error (NaN: null in JSON); the verdict says why (model/moments.ts)
      meanResponseTime:
        verdict.status === 'undefined' || isUnvalued(verdict.status)
          ? Number.NaN
          : simulation.meanResponseTime.mean - reference.meanResponseTime,
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

function cellResolution(simulation: CellSimulation, target: number, pilotJobs: number, config: ComparisonConfig): CellResolution {
  const h = simulation.meanResponseTime.halfWidth;
  const base = { target, ratio: h / target, jobs: simulation.jobs };
  if (h <= target) return { ...base, status: 'resolved' };
  if (simulation.jobs > pilotJobs) return { ...base, status: 'short-of-target' };
  return { ...base, status: jobsFor(simulation, target) > config.resolve!.maxJobs ? 'not-resolvable' : 'short-of-target' };
}

function supDistance(estimates: readonly Estimate[], reference: readonly number[]): number {
  let sup = 0;
  // levels past the solver's truncation K count with s_i = 0 (s_K* < 1e-15 there)
  for (let i = 1; i < Math.max(estimates.length, reference.length); i++) {
    sup = Math.max(sup, Math.abs((estimates[i]?.mean ?? 0) - (reference[i] ?? 0)));
  }
  return sup;
}

/** A cell with its exact value: the verdict is then the one against the exact value (`exactVerdict`). */
export function withExact(cell: CellResult, exact: ExactPoint | undefined): CellResult {
  return exact ? { ...cell, exact, verdict: exactVerdict(cell.simulation.meanResponseTime, exact) } : cell;
}

/**
 * A verdict (cell or limit) of a model whose finite-n E[T] may be infinite without a rule that settles it
 * (model/moments.ts `meanResponseTimeUnsettled`: d ≥ 2 without replacement with E[S²] = ∞ and a discipline that waits a
 * residual, or inexact predictions): 'not-judged', with the reason in its rule. A sample mean that may grow without
 * bound with the budget is no evidence either way (LWL(3) over 3 servers is M/G/3 at load 2.7 > 2, E[W] = ∞ when
 * E[S²] = ∞, Scheller-Wolf & Sigman 1997, and a 3000-job run read "agrees" at 11.2 ± 22.9 against 1.52).
 * Verdicts already 'undefined' (infinite in theory), 'not-settled' or 'not-computed' (no limit value) stay as they are; one not judged for another reason (no predicted
 * term, too few n) takes this reason, the more basic one.
 */
export function unsettledVerdict<V extends { readonly status: string; readonly rule: string; readonly pValue?: number }>(
  verdict: V,
  model: SupermarketModel,
): V {
  const unsettled = estimandFiniteness(model).meanResponseTimeUnsettled;
  if (unsettled === undefined || verdict.status === 'undefined' || isUnvalued(verdict.status)) return verdict;
  return {
    ...verdict,
    status: 'not-judged',
    ...('pValue' in verdict ? { pValue: Number.NaN } : {}),
    rule: `not judged: ${unsettled}; a sample mean that may be infinite in theory is no evidence either way (model/moments.ts)`,
  };
}
