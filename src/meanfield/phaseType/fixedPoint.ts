/**
 * Stationary point of the phase-type JSQ(d) FIFO mean field (theory.md §3 [D]): an odex run from the exponential
 * closed form, then Newton on the drift in cumulative variables (x_0 eliminated by Σx = 1; analytic banded
 * Jacobian), accepted only with ‖f‖∞ ≤ 1e−10 and a valid tail; K grows until s_K is below the tail tolerance.
 */
import { ConvergenceError, InvalidModelError } from '../../errors.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { VERSION, codeId } from '../../version.ts';
import { clampRowsToRange, clampToRange } from '../../numerics/clamp.ts';
import { sqdClosedFormTail, sqdTruncationLevel } from '../sqd.ts';
import { cumulativeFromLevels, levelsFromCumulative, phaseTypeDrift, phaseTypeJacobianCumulative, tailOf } from './drift.ts';
import { dampedNewton, infNorm } from '../../numerics/newton.ts';
import { integratePhaseType } from './ode.ts';
import { phaseTypeParameters, type PhaseTypeFitLabel, type PhaseTypeParameters } from './phaseTypeModel.ts';

export interface PhaseTypeFixedPointOptions {
  /** K grows until s_K ≤ tailTolerance (default 1e−12). */
  tailTolerance?: number;
  /** Fixed K (integer ≥ 1) instead of the adaptive choice. */
  truncationLevel?: number;
  /** Ceiling on K (default 5,000). */
  maxTruncationLevel?: number;
  /** Accept only if ‖f‖∞ ≤ this (default 1e−10, per model time unit). */
  residualTolerance?: number;
  /**
   * Longest odex leg before a Newton attempt, model time units (default max(200, 100/(1 − ρ)); 1 for d = 1, where
   * the drift is linear and Newton converges from any state). Each leg stops early
   * once ‖f‖∞ ≤ 1e−5 (then 1e−7, 1e−9 if Newton fails from there).
   */
  maxOdeTime?: number;
  /**
   * Sees the progress of each ODE leg: the fraction of maxOdeTime integrated (a leg may stop sooner, at its drift
   * threshold) and the truncation level K it runs at (progress output; pure: no output here).
   */
  onProgress?: (fraction: number, truncationLevel: number) => void;
}

export interface PhaseTypeFixedPointResult {
  /** s_0..s_K (length K + 1): fraction of servers with at least i jobs; tail[0] = 1. */
  tail: number[];
  /** x_0, the fraction of idle servers (= 1 − s_1). */
  idle: number;
  /** levels[k − 1][j] = x_{k,j}: fraction of servers with k jobs whose job in service is in phase j (K rows of m). */
  levels: number[][];
  /** E[Q] = Σ_{k≥1} s_k, jobs per server. */
  meanQueueLength: number;
  /** E[T] = E[Q]/λ (Little), model time units. */
  meanResponseTime: number;
  /** The PH(α, A) integrated (A row i: rates out of phase i). */
  phaseType: { alpha: number[]; A: number[][] };
  /** 'exact' for exponential/erlang/hyperexponential sizes; 'two-moment PH fit' otherwise (only E[S], SCV match). */
  fit: PhaseTypeFitLabel;
  diagnostics: {
    /** ‖f(x*)‖∞ of the truncated drift, per model time unit. */
    residual: number;
    newtonIterations: number;
    truncationLevel: number;
    /** s_K at the answer (arrivals lost at level K are λ·s_K^d-order per time unit). */
    topLevelMass: number;
    phases: number;
    /** K·m unknowns. */
    stateDimension: number;
    /** Total odex time run before Newton (sum of legs), model time units. */
    odeTime: number;
    odeSteps: number;
  };
  provenance: {
    model: SupermarketModel;
    method: 'ode + newton';
    equation: string;
    source: string;
    note: string;
    version: string;
    /** The code identity (version.ts `codeIdentity`). */
    code: string;
    options: { tailTolerance: number; residualTolerance: number; maxTruncationLevel: number };
  };
}

const EQUATION =
  'dx_{k,j}/dt = sum_i x_{k,i}A_ij + α_j sum_i x_{k+1,i}μ_i - λ a_k x_{k,j} + λ a_{k-1} x_{k-1,j}[k>=2] + λ a_0 x_0 α_j[k=1], ' +
  'a_k = (s_k^d - s_{k+1}^d)/(s_k - s_{k+1}), a_K = 0; E[T] = sum_k k sum_j x_{k,j}/λ';
const SOURCE = 'theory.md §3 [D] (phase-type JSQ(d) ODE); fits: Tijms, A First Course in Stochastic Models, 2003';

/**
 * Newton on f(x(z)) = 0 in the cumulative variables z (x_0 eliminated by Σx = 1) with backtracking, to ‖f‖∞ ≤ 1e−14;
 * returns the best state found and its residual (the caller judges it and restarts from the ODE if needed).
 */
function newton(
  p: PhaseTypeParameters,
  x0: Float64Array,
  maxIterations: number,
): { x: Float64Array; residual: number; iterations: number } {
  return dampedNewton(
    {
      residual: (x) => phaseTypeDrift(p, x),
      step: (x, rhs) => phaseTypeJacobianCumulative(p, x).solve(rhs),
      move: (x, step, t) => {
        const z = cumulativeFromLevels(p.m, x);
        for (let i = 0; i < z.length; i++) z[i] += t * step[i];
        return levelsFromCumulative(p.m, z);
      },
    },
    x0,
    1e-14,
    maxIterations,
  );
}

/** The start: exponential SQ(d) closed form at ρ, each level's mass split by α. */
function closedFormStart(p: PhaseTypeParameters, K: number): Float64Array {
  const s = sqdClosedFormTail(p.rho, p.d, K + 1);
  const x = new Float64Array(K * p.m);
  for (let k = 1; k <= K; k++) for (let j = 0; j < p.m; j++) x[(k - 1) * p.m + j] = (s[k] - (k < K ? s[k + 1] : 0)) * p.alpha[j];
  return x;
}

function positiveOption(name: string, value: number, upper = Infinity): number {
  if (!(value > 0 && value < upper)) throw new InvalidModelError(`${name} must lie in (0, ${upper}), got ${value}`);
  return value;
}

/**
 * Mean-field fixed point of JSQ(d) with phase-type service, FIFO (theory.md §3 [D]).
 *
 * The ODE of theory.md §3 over (queue length k, phase j of the job in service), truncated at K (a_K = 0: arrivals
 * at level K are lost). Start: the exponential closed form s_k = ρ^((d^k−1)/(d−1)) with mass split by α, run
 * through odex until ‖f‖∞ ≤ 1e−5; then Newton on the drift in the cumulative variables z_{k,j} = Σ_{l≥k} x_{l,j} (x_0
 * eliminated by Σx = 1), whose analytic Jacobian is banded (O(K·m³) per step). Accepted only if ‖f‖∞ ≤ 1e−10 and
 * every x ≥ 0 and s non-increasing (to 1e−12). K starts at the exponential level where s_K* < tailTolerance and
 * grows (geometric extrapolation of the last two levels) until s_K ≤ tailTolerance.
 *
 * Non-phase-type sizes (Weibull, lognormal, bounded Pareto, empirical) use the two-moment fit phaseTypeFit(E[S],
 * SCV) and are labelled `fit: 'two-moment PH fit'`: only the first two moments match, and for d ≥ 2 the whole law
 * matters, so such results approximate the model's mean field, they are not it. Global stability of this ODE is
 * unproven (theory.md §3).
 * @param model JSQ(d) (or random, d = 1), FIFO, any service law with SCV in (0, ∞); `lambda` per server.
 * @param options `tailTolerance` (1e−12), `truncationLevel`, `maxTruncationLevel` (5,000), `residualTolerance`
 *   (1e−10), `maxOdeTime`.
 * @returns `tail` s_0..s_K, `idle`, `levels` (K × m), `meanQueueLength`, `meanResponseTime` (model time units),
 *   `phaseType`, `fit`, `diagnostics`, `provenance`.
 * @throws {InvalidModelError} unsupported model (see phaseTypeParameters), bad options, K beyond the ceiling.
 * @throws {ConvergenceError} if Newton misses the residual tolerance
 *   from three ever closer ODE states, or lands on an invalid tail. @throws {SolverError} on odex failures.
 * @example phaseTypeJsqFixedPoint(parseModel({ lambda: 0.9, d: 1, service: 'erlang:2' })).meanResponseTime // ≈ 7.75
 */
export function phaseTypeJsqFixedPoint(model: SupermarketModel, options: PhaseTypeFixedPointOptions = {}): PhaseTypeFixedPointResult {
  const p = phaseTypeParameters(model);
  const tailTolerance = positiveOption('tailTolerance', options.tailTolerance ?? 1e-12, 1);
  const residualTolerance = positiveOption('residualTolerance', options.residualTolerance ?? 1e-10);
  const maxTruncationLevel = options.maxTruncationLevel ?? 5000;
  const maxOdeTime = positiveOption('maxOdeTime', options.maxOdeTime ?? (p.d === 1 ? 1 : Math.max(200, 100 / (1 - p.rho))));
  if (!Number.isInteger(maxTruncationLevel) || maxTruncationLevel < 1) {
    throw new InvalidModelError(`maxTruncationLevel must be an integer ≥ 1, got ${maxTruncationLevel}`);
  }
  const fixedK = options.truncationLevel;
  if (fixedK !== undefined && (!Number.isInteger(fixedK) || fixedK < 1)) {
    throw new InvalidModelError(`truncationLevel must be an integer ≥ 1, got ${fixedK}`);
  }
  let K = fixedK ?? Math.min(maxTruncationLevel, sqdTruncationLevel(p.rho, p.d, tailTolerance, 1e7));
  let odeTime = 0;
  let odeSteps = 0;
  let totalIterations = 0;
  let start: Float64Array | undefined;
  const onProgress = options.onProgress;
  let calls = 0;
  for (;;) {
    let best: { x: Float64Array; residual: number; iterations: number } | undefined;
    if (start !== undefined) {
      best = newton(p, start, 50);
      totalIterations += best.iterations;
    }
    let y = start ?? closedFormStart(p, K);
    // ODE until ‖f‖∞ ≤ switchAt (or maxOdeTime per leg), then Newton; a failed Newton resumes the ODE, 100× tighter.
    for (
      let attempt = 0, switchAt = 1e-5;
      (best === undefined || best.residual > residualTolerance) && attempt < 3;
      attempt++, switchAt /= 100
    ) {
      const buffer = new Float64Array(y.length);
      const scratch = new Float64Array(K + 2);
      let reached = 0;
      const stats = integratePhaseType(
        p,
        Array.from(y),
        0,
        maxOdeTime,
        1e-10,
        Math.max(100_000, Math.ceil(100 * maxOdeTime)),
        (_xOld, t, state) => {
          reached = t;
          if (onProgress !== undefined && (++calls & 63) === 0) onProgress(t / maxOdeTime, K);
          return infNorm(phaseTypeDrift(p, state, buffer, scratch)) > switchAt;
        },
      );
      odeTime += stats.stoppedEarly ? reached : maxOdeTime;
      odeSteps += stats.nStep;
      y = Float64Array.from(stats.y);
      const trial = newton(p, y, 50);
      totalIterations += trial.iterations;
      if (best === undefined || trial.residual < best.residual) best = trial;
    }
    const { x, residual } = best!;
    if (!(residual <= residualTolerance)) {
      throw new ConvergenceError(
        `phase-type JSQ(d) Newton did not reach ‖f‖∞ ≤ ${residualTolerance} (K = ${K}, m = ${p.m})`,
        residual,
        totalIterations,
      );
    }
    const s = tailOf(p.m, x);
    for (let r = 0; r < x.length; r++) {
      if (!(x[r] >= -1e-12))
        throw new ConvergenceError(
          `phase-type JSQ(d) Newton converged to a negative occupancy x[${r}] = ${x[r]}`,
          residual,
          totalIterations,
        );
    }
    const top = s[K];
    if (fixedK !== undefined || top <= tailTolerance) {
      return result(model, p, x, s, residual, totalIterations, { odeTime, odeSteps, tailTolerance, residualTolerance, maxTruncationLevel });
    }
    if (K >= maxTruncationLevel) {
      throw new InvalidModelError(
        `phase-type JSQ(d): s_K = ${top.toExponential(2)} > tailTolerance = ${tailTolerance} at K = maxTruncationLevel = ${maxTruncationLevel}; raise tailTolerance or maxTruncationLevel`,
      );
    }
    const ratio = s[K - 1] > 0 ? top / s[K - 1] : 0.5;
    const grow = ratio > 0 && ratio < 1 ? Math.ceil(Math.log(tailTolerance / top) / Math.log(ratio)) + 2 : K;
    const newK = Math.min(maxTruncationLevel, K + Math.max(2, grow));
    start = new Float64Array(newK * p.m);
    start.set(x);
    K = newK;
  }
}

function result(
  model: SupermarketModel,
  p: PhaseTypeParameters,
  x: Float64Array,
  s: Float64Array,
  residual: number,
  iterations: number,
  o: { odeTime: number; odeSteps: number; tailTolerance: number; residualTolerance: number; maxTruncationLevel: number },
): PhaseTypeFixedPointResult {
  const K = x.length / p.m;
  const tail = Array.from(s.subarray(0, K + 1));
  clampToRange(tail); // Newton round-off (occupancies ≥ −1e−12 are accepted above); the output lies in [0, 1]
  let meanQueueLength = 0;
  for (let k = K; k >= 1; k--) meanQueueLength += tail[k];
  const levels: number[][] = [];
  for (let k = 0; k < K; k++) levels.push(Array.from(x.subarray(k * p.m, (k + 1) * p.m)));
  clampRowsToRange(levels);
  return {
    tail,
    idle: 1 - tail[1],
    levels,
    meanQueueLength,
    meanResponseTime: meanQueueLength / p.lambda,
    phaseType: p.phaseType,
    fit: p.fit,
    diagnostics: {
      residual,
      newtonIterations: iterations,
      truncationLevel: K,
      topLevelMass: tail[K],
      phases: p.m,
      stateDimension: K * p.m,
      odeTime: o.odeTime,
      odeSteps: o.odeSteps,
    },
    provenance: {
      model,
      method: 'ode + newton',
      equation: EQUATION,
      source: SOURCE,
      note:
        p.fit === 'exact'
          ? 'exact phase-type form of the service law'
          : 'two-moment PH fit (Tijms): only E[S] and the SCV of the service law match; for d ≥ 2 the whole law matters, so this approximates the mean field',
      version: VERSION,
      code: codeId(),
      options: { tailTolerance: o.tailTolerance, residualTolerance: o.residualTolerance, maxTruncationLevel: o.maxTruncationLevel },
    },
  };
}
