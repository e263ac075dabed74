/**
 * Exact points of a comparison: for the small n where the n-server chain fits a state budget, the exact stationary
 * E[T]_n (`solveExact`: JSQ(d) or random selection, FIFO, exponential sizes, truncated with a stated bound) beside the
 * simulation; with random routing (random selection or d = 1: each server an independent M/G/1 queue at every n) the
 * M/G/1 value (`mg1`, every discipline and size law it solves, ∞ with its reason where E[T] = ∞) at every n, and the verdict of a simulated cell against it (theory.md §8 "Laws usable as simulator tests": exact
 * CTMC on occupancy counts). At n = 2–5 the refined expansion is out of range, so the exact value is the one
 * reference that judges the simulator there.
 */
import { InvalidModelError, LevelCapError, StateSpaceTooLargeError } from '../errors.ts';
import type { SupermarketModel } from '../model/index.ts';
import { solveExact } from '../meanfield/exact/index.ts';
import { mg1 } from '../meanfield/mg1/index.ts';
import { meanFieldCapabilities } from '../meanfield/capabilities.ts';
import type { Estimate } from '../stats/index.ts';
import { cellVerdict, type CellVerdict } from './verdict.ts';

/** Which small n get exact points, how tightly, and the simulation budget of the cells added for them. */
export interface ExactPointsConfig {
  /** Servers n to solve exactly (each ≥ d); those not in the sweep's ns are simulated with `jobs` × `replications`. */
  readonly ns: readonly number[];
  /** Bound on the truncation error of the exact E[T] (time units), added to the CI in the verdict. */
  readonly truncationBound: number;
  /** State budget: an n whose truncated chain needs more states is skipped with a note (about 5 s at 1.1·10⁵ states). */
  readonly maxStates: number;
  /** Measured arrivals per replication of the added small-n cells. */
  readonly jobs: number;
  /** Replications of the added small-n cells (≥ 2). */
  readonly replications: number;
  /**
   * Drop an n below d (JSQ) without a note: for a preset's own n list, which serves every d (2..5 at d = 3 has no
   * n = 2); an n the user asked for is skipped with a note. Default false.
   */
  readonly quietBelowD?: boolean;
}

/** Defaults: E[T] within 1e−4, at most 2·10⁵ states (a few seconds per point), small-n cells of 10 × 10⁵ jobs. */
export const EXACT_DEFAULTS = { truncationBound: 1e-4, maxStates: 2e5, jobs: 100_000, replications: 10 } as const;

/** One exact value E[T]_n with how it was obtained. */
export interface ExactPoint {
  readonly n: number;
  /**
   * Exact E[T]_n of the truncated chain (time units); within `truncationBound` of the untruncated value. +∞ where
   * E[T] = ∞ in theory (M/G/1 with E[S²] = ∞ and a residual wait), with `infinite` saying why; in JSON then the ∞
   * object (report/comparisonReport.ts `exactPointJson`).
   */
  readonly meanResponseTime: number;
  /** Why E[T]_n = ∞ in theory (model/moments.ts, through `mg1`), when it is: the cell is then not judged. */
  readonly infinite?: string;
  /** Which exact solver gave the point: the n-server chain, or the M/G/1 formula (random routing; then K = states = 0). */
  readonly solver: 'occupancy-chain' | 'mg1';
  /** E[Q]_n per server (jobs). */
  readonly meanQueueLength: number;
  /**
   * The stated bound and the solver's estimate of the truncation error of E[T] (time units); for `mg1` both are its
   * quadrature error; NaN (null in JSON) for an exact ∞, which has no error bar.
   */
  readonly truncationBound: number;
  readonly errorEstimate: number;
  /** Level cap K and states C(n + K, n) of the solved chain. */
  readonly K: number;
  readonly states: number;
  readonly seconds: number;
}

/** A cell's exact reference and its verdict (`judgedAgainst: 'exact'`). */
export interface ExactCellCheck {
  readonly exact: ExactPoint;
  readonly verdict: ExactVerdict;
}

export type ExactVerdict = CellVerdict & { readonly judgedAgainst: 'exact' };

export const EXACT_RULE =
  '|x̂_n − E[T]_n exact| ≤ h_n + ε_trunc (exact n-server chain, or M/G/1 under random routing, its truncation or quadrature bound added; no allowance)';

/**
 * True when the model has an exact finite-n value (`meanFieldCapabilities(model).exactChain`): `solveExact` for JSQ(d)
 * or random selection, FIFO (PS, LAS through FIFO's chain), exponential sizes; `mg1` at every n under random routing.
 */
export function hasExactSolver(model: SupermarketModel): boolean {
  return meanFieldCapabilities(model).exactChain.available;
}

/**
 * Exact points of one model at the given n, skipping (with a reason) an n below d or whose chain exceeds the budget;
 * under random routing (`exactChain.id` 'mg1') the M/G/1 value at every n (one `mg1` solve, no budget).
 * @param model a model with `hasExactSolver`. @param ns servers. @param options truncation bound and state budget.
 * @returns the points in the order of `ns` and the skipped n with their reasons.
 * @throws {InvalidModelError} when the model has no exact solver; other solver failures pass through.
 */
export function exactPoints(
  model: SupermarketModel,
  ns: readonly number[],
  options: Pick<ExactPointsConfig, 'truncationBound' | 'maxStates' | 'quietBelowD'>,
): { points: ExactPoint[]; skipped: { n: number; reason: string }[] } {
  const chain = meanFieldCapabilities(model).exactChain;
  if (!chain.available) throw new InvalidModelError(`exact points: ${chain.reason}`);
  const points: ExactPoint[] = [];
  const skipped: { n: number; reason: string }[] = [];
  if (chain.id === 'mg1') {
    const started = performance.now();
    // d = 1: mg1 takes the model as it is; random selection at d ≥ 2 routes as d = 1 does (one server uniformly at random)
    const r = mg1(model.d === 1 ? model : { ...model, d: 1 });
    const seconds = (performance.now() - started) / 1000;
    // an exact ∞ has no error bar: its bound is no number (NaN, null in JSON), never a bound of 0
    const error = r.responseTimeFinite ? r.diagnostics.quadratureError : Number.NaN;
    for (const n of ns) {
      points.push({
        n,
        meanResponseTime: r.meanResponseTime,
        ...(r.responseTimeFinite ? {} : { infinite: r.infiniteReason ?? 'E[T] = ∞ in theory' }),
        solver: 'mg1',
        meanQueueLength: r.meanQueueLength,
        truncationBound: error,
        errorEstimate: error,
        K: 0,
        states: 0,
        seconds,
      });
    }
    return { points, skipped };
  }
  for (const n of ns) {
    if (model.selection === 'jsq' && n < model.d) {
      if (!options.quietBelowD) skipped.push({ n, reason: `n = ${n} < d = ${model.d}` });
      continue;
    }
    try {
      const r = solveExact(model, { n, truncationBound: options.truncationBound, maxStates: options.maxStates });
      points.push({
        n,
        meanResponseTime: r.meanResponseTime,
        solver: 'occupancy-chain',
        meanQueueLength: r.meanQueueLength,
        truncationBound: r.truncation.bound,
        errorEstimate: r.truncation.errorEstimate,
        K: r.truncation.K,
        states: r.states,
        seconds: r.diagnostics.seconds,
      });
    } catch (e) {
      if (!(e instanceof StateSpaceTooLargeError || e instanceof LevelCapError)) throw e;
      skipped.push({ n, reason: e.message });
    }
  }
  return { points, skipped };
}

/**
 * Verdict of a simulated E[T]_n against the exact value: the one verdict rule (`cellVerdict`) with the exact value as
 * the reference, its truncation bound as the numerical error and no finite-n allowance: `agrees` when
 * |x̂_n − E[T]_n| ≤ h_n + ε_trunc.
 * @param simulated simulated mean response time with its Student-t CI. @param exact the exact point at the same n.
 */
export function exactVerdict(simulated: Estimate, exact: ExactPoint): ExactVerdict {
  const v = cellVerdict(
    simulated,
    { value: exact.meanResponseTime, halfWidth: 0, numericalError: exact.truncationBound, infinite: exact.infinite },
    { kind: 'exact' },
    exact.n,
  );
  return { ...v, rule: EXACT_RULE, judgedAgainst: 'exact' };
}
