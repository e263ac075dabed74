/**
 * Transient of the phase-type JSQ(d) FIFO mean field (theory.md §3 [D]) from an empty system (or given
 * occupancies), integrated with odex and sampled through its dense output at the caller's instants.
 */
import { checkTimeGrid } from '../../model/timeGrid.ts';
import { InvalidModelError } from '../../errors.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { sampleTrajectory } from '../../numerics/odex.ts';
import { truncatedTransient, type ArrivalRouting, type TruncatedTransient } from '../support.ts';
import { tailOf } from './drift.ts';
import { phaseTypeJsqFixedPoint } from './fixedPoint.ts';
import { integratePhaseType } from './ode.ts';
import { phaseTypeParameters, type PhaseTypeFitLabel } from './phaseTypeModel.ts';

export interface PhaseTypeTransientOptions {
  /** Output instants, strictly increasing, finite, ≥ 0, model time units; times[0] is the start. */
  times: number[];
  /** Initial occupancies from[k − 1][j] = x_{k,j} (K' rows of m, total ≤ 1). Default: the empty system. */
  from?: number[][];
  /** K (integer ≥ max(1, K')). Default: the fixed point's K (s_K* ≤ 1e−12), at least K' + 10. */
  truncationLevel?: number;
  /** odex relative and absolute tolerance (default 1e−10). */
  tolerance?: number;
  /** odex step budget (default max(10⁴, 100 × horizon)). */
  maxSteps?: number;
  /**
   * A dispatcher memory's arrival routing (support.ts; `memoryPhaseTypeTransient` sets it on the model without
   * memory). Default: every arrival follows JSQ(d).
   */
  routing?: ArrivalRouting;
  /** Sees the fraction of the horizon integrated after every accepted step (progress output; pure: no output here). */
  onProgress?: (fraction: number) => void;
}

/** The phase-type transient (tail rows s_0..s_K per instant, E[Q], odex diagnostics) with the PH law it integrated. */
export interface PhaseTypeTransientResult extends TruncatedTransient {
  phaseType: { alpha: number[]; A: number[][] };
  fit: PhaseTypeFitLabel;
}

/**
 * Mean-field trajectory of JSQ(d) with phase-type service, FIFO: the ODE of theory.md §3 truncated at K (arrivals at
 * level K lost; `diagnostics.topLevelMass` = max_t s_K(t) over accepted steps measures that loss). Non-phase-type
 * sizes use the two-moment PH fit (`fit: 'two-moment PH fit'`; only E[S] and the SCV match).
 * @param model as for phaseTypeJsqFixedPoint. @param options `times`, `from`, `truncationLevel`, `tolerance`,
 *   `maxSteps`.
 * @returns `times`, `tail` (times.length rows of K + 1, non-increasing in [0, 1]: occupancies below 0 by round-off count as 0), `meanQueueLength`, `phaseType`, `fit`, odex diagnostics.
 * @throws {InvalidModelError} unsupported model, bad times/from/options.
 * @throws {SolverError} if odex fails or ends without Converged (e.g. MaxStepsExceeded).
 * @example phaseTypeJsqTransient(m, { times: [0, 500] }).tail[1] // ≈ phaseTypeJsqFixedPoint(m).tail
 */
export function phaseTypeJsqTransient(model: SupermarketModel, options: PhaseTypeTransientOptions): PhaseTypeTransientResult {
  const p = phaseTypeParameters(model);
  const times = checkTimeGrid(options?.times);
  const from = options.from ?? [];
  let total = 0;
  from.forEach((row, k) => {
    if (!Array.isArray(row) || row.length !== p.m)
      throw new InvalidModelError(`from[${k}] must have m = ${p.m} phases, got ${Array.isArray(row) ? row.length : typeof row}`);
    row.forEach((v, j) => {
      if (!(v >= 0 && v <= 1)) throw new InvalidModelError(`from[${k}][${j}] must lie in [0, 1], got ${v}`);
      total += v;
    });
  });
  if (total > 1 + 1e-12) throw new InvalidModelError(`from occupancies must sum to at most 1, got ${total}`);
  const tolerance = options.tolerance ?? 1e-10;
  if (!(tolerance > 0 && tolerance < 1)) throw new InvalidModelError(`tolerance must lie in (0, 1), got ${tolerance}`);
  let K = options.truncationLevel ?? Math.max(phaseTypeJsqFixedPoint(model).diagnostics.truncationLevel, from.length + 10);
  if (!Number.isInteger(K) || K < Math.max(1, from.length)) {
    throw new InvalidModelError(`truncationLevel must be an integer ≥ max(1, from.length = ${from.length}), got ${K}`);
  }
  K = Math.floor(K);
  const horizon = times[times.length - 1] - times[0];
  const maxSteps = options.maxSteps ?? Math.max(10_000, Math.ceil(100 * horizon));
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new InvalidModelError(`maxSteps must be an integer ≥ 1, got ${maxSteps}`);

  const y0 = new Array<number>(K * p.m).fill(0);
  from.forEach((row, k) =>
    row.forEach((v, j) => {
      y0[k * p.m + j] = v;
    }),
  );
  const tails: number[][] = [Array.from(tailOf(p.m, y0).subarray(0, K + 1))];
  let top = tails[0][K];
  const scratch = new Float64Array(K * p.m);
  let negative = 0; // the largest round-off below 0 of a sampled occupancy
  const stats = sampleTrajectory(
    times,
    y0,
    (t0, tEnd, observer) => integratePhaseType(p, y0, t0, tEnd, tolerance, maxSteps, observer, options.routing),
    (at) => {
      // Occupancies are fractions ≥ 0: odex's dense output dips below 0 by round-off where they are tiny (≈ −1e−50).
      // Clamp them before the tails s_k = Σ_{k' ≥ k} Σ_j x_{k',j} are summed, so every s_k ≥ s_{k+1} ≥ 0 as computed; a
      // clamp of the summed s_k instead would print an exact 0 between positive tails (s_10 = 0 < s_11 = 2e−132).
      for (let i = 0; i < scratch.length; i++) {
        const x = at(i);
        if (x < 0) negative = Math.max(negative, -x);
        scratch[i] = Math.max(0, x);
      }
      tails.push(Array.from(tailOf(p.m, scratch).subarray(0, K + 1)));
    },
    (y, x) => {
      options.onProgress?.(horizon > 0 ? (x - times[0]) / horizon : 1);
      let lastLevel = 0;
      for (let j = 0; j < p.m; j++) lastLevel += y[(K - 1) * p.m + j];
      top = Math.max(top, lastLevel);
    },
  );
  const { tail, meanQueueLength, diagnostics, provenance } = truncatedTransient(model, times, tails, stats, {
    truncationLevel: K,
    topLevelMass: top,
    tolerance,
    maxSteps,
    equation: 'phase-type JSQ(d) ODE of theory.md §3 (a_K = 0), from the given occupancies',
    source: 'theory.md §3 [D]; odex (Hairer–Wanner ODEX)',
  });
  diagnostics.clamped = Math.max(diagnostics.clamped, negative);
  // the fields in the order JSON output has always shown them
  return { times: [...times], tail, meanQueueLength, phaseType: p.phaseType, fit: p.fit, diagnostics, provenance };
}
