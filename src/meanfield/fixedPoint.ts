/**
 * Stationary mean-field solution (fixed point) of SQ(d) = JSQ(d), exponential sizes, FIFO: by the closed form
 * (default) or by Newton's method on the truncated drift (the path for models without a closed form).
 * Source: theory.md §2 ("Fixed points", "Truncation"); Vvedenskaya, Dobrushin, Karpelevich, Probl. Inf. Transm.
 * 32(1), 1996; Mitzenmacher, IEEE TPDS 12(10), 2001.
 */
import { ConvergenceError, InvalidModelError } from '../errors.ts';
import type { SupermarketModel } from '../model/model.ts';
import { VERSION, codeId } from '../version.ts';
import { infNorm, newtonSolve } from '../numerics/newton.ts';
import { clampToRange } from '../numerics/clamp.ts';
import { DEFAULT_MAX_TRUNCATION_LEVEL, sqdClosedFormTail, sqdDrift, sqdJacobian, sqdJacobianBands, sqdTruncationLevel } from './sqd.ts';
import { sqdParameters, tailSum } from './support.ts';

/** Loosest accepted tail tolerance: beyond it the truncated system visibly biases E[T] and ΣV. */
export const MAX_TAIL_TOLERANCE = 1e-6;

export type FixedPointMethod = 'closed-form' | 'newton';

export interface FixedPointOptions {
  /** K is the first level with s_K* below this (default 1e−15); see `sqdTruncationLevel`. */
  tailTolerance?: number;
  /** 'closed-form' (default) or 'newton' (drift = 0 of the truncated system, analytic Jacobian). */
  method?: FixedPointMethod;
  /** Use this K instead of the one implied by tailTolerance (integer ≥ 1). */
  truncationLevel?: number;
  /** Ceiling on K (default 20,000); d = 1 needs K ≈ ln(tailTolerance)/ln ρ. */
  maxTruncationLevel?: number;
  /** Newton start, a tail s_0..s_K' (tail[0] = 1; cut or zero-padded to K). Default: the closed form. */
  initialGuess?: ArrayLike<number>;
}

export interface FixedPointResult {
  /** s_0..s_K (length K + 1): tail[i] = fraction of servers with at least i jobs; tail[0] = 1. */
  tail: number[];
  /** E[Q] = Σ_{i≥1} s_i, jobs per server (closed form: the series summed past K to round-off). */
  meanQueueLength: number;
  /** E[T] = E[Q]/λ, in model time units (mean service times when service.mean = 1). */
  meanResponseTime: number;
  /** K, the highest level kept. */
  truncationLevel: number;
  diagnostics: {
    method: FixedPointMethod;
    /** ‖f(s)‖∞ of the truncated drift (service-time units) at the answer; for the closed form ≈ ρ·s_K^d. */
    residual: number;
    /** Newton steps (0 for the closed form). */
    iterations: number;
  };
  provenance: {
    model: SupermarketModel;
    equation: string;
    source: string;
    version: string;
    /** The code identity (runs/codeIdentity.ts). */
    code: string;
    options: { tailTolerance: number; method: FixedPointMethod; truncationLevel: number };
  };
}

/** Fixed points are accepted only if ‖f‖∞ is at most this (theory.md §2). */
export const FIXED_POINT_RESIDUAL_TOLERANCE = 1e-12;

const SOURCE = 'theory.md §2; Vvedenskaya, Dobrushin, Karpelevich, Probl. Inf. Transm. 32(1), 1996; Mitzenmacher, IEEE TPDS 12(10), 2001';
const CLOSED_FORM_EQUATION = 's_i = ρ^((d^i - 1)/(d - 1)) (ρ^i if d = 1), ρ = λ·E[S]; E[Q] = sum_{i>=1} s_i; E[T] = E[Q]/λ';
const NEWTON_EQUATION =
  'ρ(s_{i-1}^d - s_i^d) - (s_i - s_{i+1}) = 0 for i = 1..K, s_0 = 1, s_{K+1} = 0 (Newton, analytic Jacobian); E[T] = E[Q]/λ';

/** E[Q] of the untruncated closed form: Σ_{i=1}^K s_i plus the remainder past K (geometric when d = 1). */
function closedFormMeanQueueLength(rho: number, d: number, tail: number[]): number {
  const K = tail.length - 1;
  let sum = tailSum(tail);
  if (d === 1) return sum + rho ** (K + 1) / (1 - rho);
  for (let i = K + 1, term = rho ** ((d ** i - 1) / (d - 1)); term > 0 && i < K + 64; i++) {
    sum += term;
    term = rho ** ((d ** (i + 1) - 1) / (d - 1));
  }
  return sum;
}

function newtonStart(guess: ArrayLike<number> | undefined, rho: number, d: number, K: number): Float64Array {
  if (guess === undefined) return Float64Array.from(sqdClosedFormTail(rho, d, K).slice(1));
  if (guess.length < 1 || Math.abs(guess[0] - 1) > 1e-12) {
    throw new InvalidModelError(`initialGuess must be a tail s_0..s_K with s_0 = 1, got s_0 = ${guess[0]}`);
  }
  const x0 = new Float64Array(K);
  for (let i = 1; i <= K && i < guess.length; i++) {
    const v = guess[i];
    if (!Number.isFinite(v)) throw new InvalidModelError(`initialGuess[${i}] must be finite, got ${v}`);
    x0[i - 1] = v;
  }
  return x0;
}

/** Checks a Newton answer: every s_i in [0, 1] and non-increasing, up to `slack` (round-off). */
function checkTail(s: Float64Array, residual: number, iterations: number): void {
  const slack = FIXED_POINT_RESIDUAL_TOLERANCE;
  let prev = 1;
  for (let i = 0; i < s.length; i++) {
    if (!(s[i] >= -slack && s[i] <= prev + slack)) {
      throw new ConvergenceError(
        `Newton converged to an invalid tail: s_${i + 1} = ${s[i]} must lie in [0, s_${i} = ${prev}]`,
        residual,
        iterations,
      );
    }
    prev = s[i];
  }
}

/**
 * Mean-field fixed point of SQ(d) with exponential sizes and FIFO (any size-blind discipline).
 *
 * Closed form (default): s_i = ρ^((d^i − 1)/(d − 1)), or ρ^i when d = 1 (M/M/1, no M/M/1/K bias: E[Q] adds the
 * geometric remainder past K). Newton: solves the truncated drift f(s) = 0 (s_{K+1} = 0, arrivals at level K
 * lost) from `initialGuess` (default the closed form) with the analytic Jacobian; for d = 1 the Jacobian is
 * tridiagonal and solved in O(K), so the K ≈ ln ε/ln ρ of theory.md §2 (≈ 3,437 at ρ = 0.99) stays fast, and
 * the answer is M/M/1/K, within K·ρ^{K+1} of M/M/1. Newton answers are accepted only if ‖f‖∞ ≤ 1e−12 and the
 * tail lies in [0, 1] and is non-increasing. Service mean ≠ 1 is handled by solving in ρ = λ·E[S]; the tail
 * depends on ρ only and E[T] = E[Q]/λ is in model time units.
 * Source: theory.md §2; Vvedenskaya et al. 1996; Mitzenmacher 2001.
 * @param model `selection` 'jsq', `discipline` 'fifo', exponential service; λ per server.
 * @param options `tailTolerance` (default 1e−15), `method` (default 'closed-form'), `truncationLevel`,
 *   `maxTruncationLevel` (default 20,000), `initialGuess` (Newton only).
 * @returns `tail` s_0..s_K (length K + 1, tail[0] = 1), `meanQueueLength` (jobs per server),
 *   `meanResponseTime` (model time units), `truncationLevel` K, `diagnostics`, `provenance`.
 * @throws {InvalidModelError} for unsupported models ("no mean-field solver for ..."), bad options, or K above
 *   maxTruncationLevel.
 * @throws {ConvergenceError} if Newton misses ‖f‖∞ ≤ 1e−12 or lands outside [0, 1] / non-monotone.
 * @example solveSqdFixedPoint(parseModel({ lambda: 0.9, d: 2 })).meanResponseTime // ≈ 2.6141
 */
export function solveSqdFixedPoint(model: SupermarketModel, options: FixedPointOptions = {}): FixedPointResult {
  const { rho, d } = sqdParameters(model);
  const method = options.method ?? 'closed-form';
  if (method !== 'closed-form' && method !== 'newton') {
    throw new InvalidModelError(`unknown fixed-point method ${JSON.stringify(method)}; expected closed-form or newton`);
  }
  const tailTolerance = options.tailTolerance ?? 1e-15;
  if (!(tailTolerance > 0 && tailTolerance <= MAX_TAIL_TOLERANCE)) {
    throw new InvalidModelError(
      `tailTolerance must be in (0, ${MAX_TAIL_TOLERANCE}], got ${tailTolerance}: a looser truncation biases E[T] and the refined term`,
    );
  }
  const maxLevel = options.maxTruncationLevel ?? DEFAULT_MAX_TRUNCATION_LEVEL;
  let K: number;
  if (options.truncationLevel !== undefined) {
    K = options.truncationLevel;
    if (!Number.isInteger(K) || K < 1 || K > maxLevel) {
      throw new InvalidModelError(`truncationLevel must be an integer in [1, ${maxLevel}], got ${K}`);
    }
  } else if (d === 1 && method === 'closed-form') {
    // M/M/1: the tail is geometric and E[Q] is summed exactly (closedFormMeanQueueLength adds ρ^(K+1)/(1−ρ)),
    // so a tail listing capped at maxLevel loses nothing in E[Q] or E[T]
    K = Math.min(maxLevel, Math.max(1, Math.ceil(Math.log(tailTolerance) / Math.log(rho))));
  } else {
    K = sqdTruncationLevel(rho, d, tailTolerance, maxLevel);
  }

  let tail: number[];
  let meanQueueLength: number;
  let residual: number;
  let iterations = 0;
  if (method === 'closed-form') {
    tail = sqdClosedFormTail(rho, d, K);
    meanQueueLength = closedFormMeanQueueLength(rho, d, tail);
    residual = infNorm(sqdDrift(rho, d, tail.slice(1)));
  } else {
    const buffer = new Float64Array(K);
    const banded = d === 1 || K > 200;
    const solution = newtonSolve(
      (s) => sqdDrift(rho, d, s, buffer),
      (s) => (banded ? sqdJacobianBands(rho, d, s) : sqdJacobian(rho, d, s)),
      newtonStart(options.initialGuess, rho, d, K),
      { tolerance: FIXED_POINT_RESIDUAL_TOLERANCE, maxIterations: 100 },
    );
    checkTail(solution.x, solution.residual, solution.iterations);
    tail = [1, ...solution.x];
    clampToRange(tail); // checkTail allowed round-off of ±1e−12 outside [0, 1]; the output lies inside
    meanQueueLength = tailSum(tail);
    residual = solution.residual;
    iterations = solution.iterations;
  }
  return {
    tail,
    meanQueueLength,
    meanResponseTime: meanQueueLength / model.lambda,
    truncationLevel: K,
    diagnostics: { method, residual, iterations },
    provenance: {
      model,
      equation: method === 'closed-form' ? CLOSED_FORM_EQUATION : NEWTON_EQUATION,
      source: SOURCE,
      version: VERSION,
      code: codeId(),
      options: { tailTolerance, method, truncationLevel: K },
    },
  };
}
