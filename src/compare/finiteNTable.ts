/**
 * The finite-n table (issue 23 item 4): per cell (d, λ, n), the simulated E[Q] and E[T] with 95% t intervals over
 * independent runs of the occupancy-chain engine (src/sim/occupancyChain.ts), beside the mean field, the refined mean
 * field of first and second order, and the exact chain where n is small; per (d, λ), the 1/n and 1/n² fits of the
 * simulated E[Q] with the limit held at the mean field (theory.md §6, §8 "Sweep"), whose c₁ and c₂ are to be read
 * against ΣV and ΣA.
 * Source: theory.md §6 (refined mean field), §8 (replications, fits); Gast and Van Houdt, POMACS 1(2), 2017.
 */
import { LevelCapError, StateSpaceTooLargeError, SupermarketError } from '../errors.ts';
import { parseModel, type Sampling, type SupermarketModel } from '../model/model.ts';
import { solveExact } from '../meanfield/exact/index.ts';
import { meanFieldCapabilities } from '../meanfield/capabilities.ts';
import { mg1 } from '../meanfield/mg1/mg1.ts';
import { firstOrderTrust, refine, refinedEstimate, type RefinedCorrection } from '../meanfield/refined.ts';
import {
  refineSecondOrder,
  secondOrderEstimate,
  secondOrderRatio,
  secondOrderTrust,
  type SecondOrderCorrection,
} from '../meanfield/refinedSecondOrder.ts';
import { feasible, tInterval, type Estimate } from '../stats/tInterval.ts';
import { responseTimeLowerBound } from '../model/moments.ts';
import type { SimulationStart } from '../meanfield/warmup.ts';
import { fitInverseN, type InverseNFit } from './fit.ts';
import { inFirstOrderRange } from './verdict.ts';
import { C2_RANGE } from './secondOrder.ts';

/** One (d, λ) pair's model-level values, independent of n. */
export interface TableTheory {
  readonly d: number;
  readonly lambda: number;
  /** Mean-field E[Q] Σπ (jobs per server). */
  readonly meanField: number;
  /** 1/n coefficient ΣV of E[Q] (for the model's sampling). */
  readonly sumV: number;
  /** 1/n² coefficient ΣA of E[Q] (null for sampling without replacement: not implemented). */
  readonly sumA: number | null;
  readonly notes: readonly string[];
  /** The corrections behind the refined columns (`refinedEstimate`, `secondOrderEstimate`). */
  readonly first: RefinedCorrection;
  readonly second: SecondOrderCorrection | null;
}

/**
 * The exact E[Q] at a cell, or why there is none: the n-server chain's (`states` > 0), or at d = 1 the closed form
 * (`closedForm`, states 0: random routing, every server an M/M/1 queue at every n, E[Q]_n = λ/(1 − λ)).
 */
export type ExactValue =
  | { readonly meanQueueLength: number; readonly states: number; readonly errorBound: number; readonly closedForm?: true }
  | { readonly skipped: string };

export interface TableCell {
  readonly key: string;
  readonly d: number;
  readonly lambda: number;
  readonly n: number;
  /** Simulated E[Q] (jobs per server), t interval over runs, inside the parameter space E[Q] ≥ λ·E[S] (= ρ). */
  readonly meanQueueLength: Estimate;
  /** Simulated E[T] = E[Q]/λ (model time units), the same interval divided by λ: inside E[T] ≥ E[S]. */
  readonly meanResponseTime: Estimate;
  /** Events per run after the warm-up, and the warm-up events discarded per run. */
  readonly eventsPerRun: number;
  readonly warmupEvents: number;
  /** The warm-up discarded per run in model time units (the one rule, `simulationWarmup`, read from `start` at n). */
  readonly warmupTime: number;
  /** Where every run started (theory.md §8 "Start"): empty, or round(n·s_i*) servers with ≥ i jobs. */
  readonly start: SimulationStart;
  readonly meanField: number;
  readonly refinedFirst: number;
  /**
   * Whether n lies in the trusted range of the 1/n expansion (`firstOrderTrust`: |ΣV|/(nΣπ) ≤ 5 %, the range where
   * compare judges a cell against it); outside it the O(1/n²) remainder is not small (theory.md §6 "Limits").
   */
  readonly refinedFirstTrusted: boolean;
  readonly refinedSecond: number | null;
  /**
   * Whether n lies in the trusted range of the 1/n² expansion (`secondOrderTrust`: |ΣA|/(n|ΣV|) ≤ 0.5); outside it the
   * order-2 value can be worse than order 1 (theory.md §6 "Limits"). Null without a second order.
   */
  readonly refinedSecondTrusted: boolean | null;
  readonly exact: ExactValue | null;
}

/** Why an n of a (d, λ) block was left out of a fit (`tableFit`). */
export type TableFitLeftOut =
  /** |ΣV|/(nΣπ) > 5 % (`inFirstOrderRange`): out of both fits. */
  | 'outside-first-order-range'
  /** In the order-1 range but |ΣA|/(n|ΣV|) > 0.5 (`secondOrderTrust`): out of the c₁/n + c₂/n² fit only. */
  | 'outside-second-order-range';

export interface TableFit {
  readonly d: number;
  readonly lambda: number;
  /** E[Q_n] − Σπ = c₁/n, limit held at the mean field, over `nUsed`; null with fewer than 2 of them. */
  readonly inverseN: InverseNFit | null;
  /** E[Q_n] − Σπ = c₁/n + c₂/n², over `nUsedSquare`; null with fewer than 3 of them. */
  readonly inverseNSquare: InverseNFit | null;
  /**
   * Whether `inverseN` was fitted to E[Q_n] − Σπ − ΣA/n² (the computed second order subtracted first, as compare's
   * c₁ check does): without a c₁/n + c₂/n² fit (fewer than 3 n in its trusted range) the c₂/n² term left in the data would bias
   * the ĉ₁ that is then judged against ΣV. Only where every n of the fit is in the order-2 trusted range (`secondOrderTrust`). Absent in tables written before it existed (read as false).
   */
  readonly c2Subtracted?: boolean;
  readonly sumV: number;
  readonly sumA: number | null;
  /** The n of the c₁/n fit: those in the order-1 trusted range (`inFirstOrderRange`, compare's c₁ check's n). */
  readonly nUsed: number[];
  /** The n of the c₁/n + c₂/n² fit: `nUsed` also in the order-2 trusted range (`secondOrderTrust`; all of `nUsed` without a second order). */
  readonly nUsedSquare: number[];
  /** The n of the block left out, each with why (ascending n as the cells come). */
  readonly leftOut: readonly { readonly n: number; readonly why: TableFitLeftOut }[];
  /** The least n of the order-1 trusted range (`firstOrderTrust(ΣV, Σπ, ·).fromN`), said where too few n lie in it. */
  readonly trustedFromN: number;
  /**
   * Whether ĉ₂ of the c₁/n + c₂/n² fit is read against ΣA: every n of it has |ΣA|/(n|ΣV|) ≤ `C2_RANGE`, the range of
   * compare's c₂ check (secondOrder.ts `judgeC2`), beyond which the 1/n³ remainder biases ĉ₂. False without that fit or ΣA.
   */
  readonly c2Judged: boolean;
}

/** The model of a table cell: JSQ(d) (random for d = 1 is JSQ(1)), FIFO, exponential sizes of mean 1. */
export function tableModel(d: number, lambda: number, sampling: Sampling): SupermarketModel {
  return parseModel({ lambda, d, sampling });
}

/** The cell key (also the seed key of its runs): `d=2|lambda=0.9|n=10|with-replacement`. */
export function tableCellKey(d: number, lambda: number, n: number, sampling: Sampling): string {
  return `d=${d}|lambda=${lambda}|n=${n}|${sampling}`;
}

/**
 * Mean field, ΣV and ΣA of one (d, λ). A solver failure becomes a note and a null, never a stop.
 */
export function tableTheory(model: SupermarketModel): TableTheory {
  const notes: string[] = [];
  const first = refine(model);
  let second: SecondOrderCorrection | null = null;
  try {
    second = refineSecondOrder(model, { fixedPoint: first.fixedPoint });
  } catch (error) {
    if (!(error instanceof SupermarketError)) throw error;
    notes.push(`no second order: ${error.message}`);
  }
  return {
    d: model.d,
    lambda: model.lambda,
    meanField: first.fixedPoint.meanQueueLength,
    sumV: first.sumV,
    sumA: second?.sumA ?? null,
    notes,
    first,
    second,
  };
}

/**
 * The exact solve's default work budget in state-sweeps (states × Gauss–Seidel sweeps, summed over the level caps
 * tried), tens of seconds at most: d = 2 without replacement, λ = 0.9, n = 5 (1.9e6 states) takes 2.5e8; d = 3
 * without replacement, λ = 0.95, n = 3 (6.1e5 states at K = 152) had its residual stuck near 1e-3 after 380 sweeps
 * and ran > 10 minutes. A count, not a clock, so whether a cell is solved never depends on the machine.
 */
export const EXACT_MAX_WORK = 5e8;

/** Thrown from the solver's progress callback when the work budget is spent. */
class WorkBudgetSpent extends Error {
  constructor(
    readonly states: number,
    readonly K: number,
  ) {
    super('exact work budget spent');
  }
}

/**
 * The exact stationary E[Q] at n, by the capability query's exact solver (`exactChain`): where it is the M/G/1 value
 * at every n (random routing, d = 1) the closed form at any n, costing nothing; else the chain when n ≤ `maxN`, the
 * truncated chain has at most `maxStates` states and the solve ends within `maxWork` state-sweeps, or why not.
 * @param onWork told the work done so far (state-sweeps), for progress.
 * @returns null when n > maxN and no closed form applies (no exact value was asked for).
 */
export function exactCell(
  model: SupermarketModel,
  n: number,
  maxN: number,
  maxStates: number,
  maxWork: number = EXACT_MAX_WORK,
  onWork?: (work: number) => void,
): ExactValue | null {
  const exact = meanFieldCapabilities(model).exactChain;
  if (exact.available && exact.id === 'mg1') {
    const r = mg1(model);
    return { meanQueueLength: r.meanQueueLength, states: 0, errorBound: r.diagnostics.quadratureError * model.lambda, closedForm: true };
  }
  if (n > maxN) return null;
  try {
    // work = Σ states × sweeps over the level caps tried (sweeps are counted per cap)
    let work = 0;
    let K = -1;
    let sweeps = 0;
    const r = solveExact(model, {
      n,
      maxStates,
      truncationBound: 1e-7,
      onProgress: (p) => {
        if (p.K !== K) [K, sweeps] = [p.K, 0];
        work += p.states * (p.sweeps - sweeps);
        sweeps = p.sweeps;
        onWork?.(work);
        if (work > maxWork) throw new WorkBudgetSpent(p.states, p.K);
      },
    });
    return { meanQueueLength: r.meanQueueLength, states: r.states, errorBound: r.truncation.errorEstimate * model.lambda };
  } catch (error) {
    if (error instanceof StateSpaceTooLargeError) return { skipped: `chain too large (> ${maxStates} states)` };
    if (error instanceof WorkBudgetSpent)
      return {
        skipped: `solve too long (> ${maxWork.toExponential(1)} state-sweeps, --exact-max-work; ${error.states} states at level cap ${error.K})`,
      };
    if (error instanceof LevelCapError) return { skipped: 'load too close to 1 for the level cap of the exact chain' };
    throw error;
  }
}

/**
 * One cell of the table from its per-run values: the Student-t interval of E[Q] over the runs intersected with the
 * parameter space E[Q] ≥ λ·`responseTimeLowerBound` (every job spends at least its size in the system: E[T] ≥ E[S],
 * so E[Q] ≥ λE[S] = ρ by Little; `feasible`, as `simulate` does), and E[T] = E[Q]/λ with it.
 * @param runs per-run E[Q] (≥ 2). @param theory the (d, λ) values; @param exact from `exactCell`.
 */
export function tableCell(
  model: SupermarketModel,
  n: number,
  runs: ArrayLike<number>,
  theory: TableTheory,
  exact: ExactValue | null,
  budget: { eventsPerRun: number; warmupEvents: number; warmupTime: number; start: SimulationStart },
): TableCell {
  const lowerT = responseTimeLowerBound(model);
  const q = feasible(tInterval(runs), model.lambda * lowerT);
  const t: Estimate = {
    mean: q.mean / model.lambda,
    ci95: [q.ci95[0] / model.lambda, q.ci95[1] / model.lambda],
    halfWidth: q.halfWidth / model.lambda,
    replications: q.replications,
  };
  const first = refinedEstimate(theory.first, n).meanQueueLength;
  const second = theory.second === null ? null : secondOrderEstimate(theory.second, n).meanQueueLength;
  return {
    key: tableCellKey(model.d, model.lambda, n, model.sampling),
    d: model.d,
    lambda: model.lambda,
    n,
    meanQueueLength: q,
    meanResponseTime: t,
    eventsPerRun: budget.eventsPerRun,
    warmupEvents: budget.warmupEvents,
    warmupTime: budget.warmupTime,
    start: budget.start,
    meanField: theory.meanField,
    refinedFirst: first,
    refinedFirstTrusted: firstOrderTrust(theory.sumV, theory.meanField, n).trusted,
    refinedSecond: second,
    refinedSecondTrusted: theory.second === null ? null : secondOrderTrust(theory.second, n).trusted,
    exact,
  };
}

/**
 * The held-limit 1/n and 1/n² fits of one (d, λ)'s cells (sorted by n), from `fitInverseN`, each over the n where the
 * expansion it tests is trusted, so that a reading against ΣV, ΣA is never the remainder of the expansion (theory.md §6
 * "Limits"):
 * - c₁/n: the n with |ΣV|/(nΣπ) ≤ 5 % (`inFirstOrderRange`, the one rule of compare's c₁ check and cell verdicts);
 *   fitted with ≥ 2 distinct n, else null ("not judged: fewer than 2 n in the trusted range", as `c1Check`).
 * - c₁/n + c₂/n²: those n that are also in the order-2 trusted range |ΣA|/(n|ΣV|) ≤ 0.5 (`secondOrderTrust`; without
 *   a second order, all of them); fitted with ≥ 3 distinct n, else null. Its ĉ₂ is read against ΣA only where every
 *   n of it lies in compare's c₂ range |ΣA|/(n|ΣV|) ≤ `C2_RANGE` (`c2Judged`).
 */
export function tableFit(theory: TableTheory, cells: readonly TableCell[]): TableFit {
  const points = cells.map((c) => ({
    n: c.n,
    value: c.meanQueueLength.mean,
    halfWidth: c.meanQueueLength.halfWidth,
    replications: c.meanQueueLength.replications,
  }));
  const first = inFirstOrderRange(points, theory.sumV, theory.meanField);
  const second = theory.second;
  const square = first.kept.filter((p) => second === null || secondOrderTrust(second, p.n).trusted);
  const leftOut = points
    .filter((p) => !square.includes(p))
    .map((p) => ({
      n: p.n,
      why: first.leftOut.includes(p.n) ? ('outside-first-order-range' as const) : ('outside-second-order-range' as const),
    }));
  const distinct = (ps: readonly { n: number }[]) => new Set(ps.map((p) => p.n)).size;
  const inverseNSquare = distinct(square) >= 3 ? fitInverseN(square, { limit: theory.meanField, inverseSquare: true }) : null;
  // no c₁/n + c₂/n² fit: the c₁/n fit is the one read, on the points less the computed ΣA/n² (as compare's c₁ check),
  // where that term is trusted at every n of the fit (else it could add more bias than it takes out: left in, as before)
  const sumA = theory.sumA;
  const c2Subtracted =
    inverseNSquare === null && distinct(first.kept) >= 2 && square.length === first.kept.length && sumA !== null && Number.isFinite(sumA);
  const onePoints = c2Subtracted ? first.kept.map((p) => ({ ...p, value: p.value - sumA / (p.n * p.n) })) : first.kept;
  return {
    d: theory.d,
    lambda: theory.lambda,
    inverseN: distinct(first.kept) >= 2 ? fitInverseN(onePoints, { limit: theory.meanField, inverseSquare: false }) : null,
    c2Subtracted,
    inverseNSquare,
    sumV: theory.sumV,
    sumA: theory.sumA,
    nUsed: first.kept.map((p) => p.n),
    nUsedSquare: square.map((p) => p.n),
    leftOut,
    trustedFromN: firstOrderTrust(theory.sumV, theory.meanField, 1).fromN,
    c2Judged:
      inverseNSquare !== null && theory.sumA !== null && square.every((p) => secondOrderRatio(theory.sumA!, theory.sumV, p.n) <= C2_RANGE),
  };
}
