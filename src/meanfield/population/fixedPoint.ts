/**
 * Fixed point f(π) = 0 of a population model: Newton's method (../newton.ts, backtracking, residual checked)
 * from the model's initial state; if that fails or lands where a rate is negative, the ODE is integrated towards
 * the attractor until ‖f‖∞ ≤ 1e−8 and Newton restarts from there; if that fails too and the model has levels, Newton
 * restarts from all levels full (at ρ ≥ 1 it finds the truncated model's root, whose top level binds). Rates at π must be ≥ 0 (a population process
 * has no negative rates), else the model or its parameters are wrong.
 * Source: theory.md §2 ("Fixed points"), §6; Dennis and Schnabel 1983, §6.3.
 */
import { ConvergenceError, InvalidModelError, SolverError } from '../../errors.ts';
import { VERSION, codeId } from '../../version.ts';
import { infNorm, newtonSolve } from '../../numerics/newton.ts';
import { clampToRange } from '../../numerics/clamp.ts';
import type { Tridiagonal } from '../../numerics/tridiagonal.ts';
import { populationDrift, type PopulationDrift } from './drift.ts';
import { evaluateObservables } from './observables.ts';
import type { PopulationModel } from '../../model/population/parse.ts';
import { integratePopulation } from './transient.ts';

export interface PopulationFixedPointOptions {
  /** Starting point (length K); default the model's `initial`. */
  from?: ArrayLike<number>;
  /** Newton tolerance on ‖f(π)‖∞ (default 1e−12). */
  tolerance?: number;
  /** Newton steps per attempt (default 100). */
  maxIterations?: number;
  /** Longest ODE run (time units) before the second Newton attempt (default 1e4). */
  maxOdeTime?: number;
  /** odex step budget of that ODE run (default max(10⁴, 50·maxOdeTime)); a stiff model may need more (CLI `--max-steps`). */
  maxSteps?: number;
  /** odex tolerance of that ODE run (default 1e−9; CLI `--tolerance`). */
  odeTolerance?: number;
}

export interface PopulationFixedPointResult {
  /** π, length K, index i = model.variables[i]. */
  x: number[];
  /** ‖f(π)‖∞. */
  residual: number;
  /** Newton steps of the successful attempt. */
  iterations: number;
  /** Observable name → g(π). */
  observables: Record<string, number>;
  variables: readonly string[];
  /** β_ℓ(π), index ℓ = transition (all ≥ −1e−12·max β). */
  rates: number[];
  diagnostics: { method: 'newton' | 'ode+newton' | 'full+newton'; odeTime: number; minRate: { value: number; transition: string } };
  provenance: {
    model: string;
    parameters: Readonly<Record<string, number>>;
    equation: string;
    source: string;
    version: string;
    code: string;
  };
}

/** ‖v‖∞, with NaN (a rate undefined at the state) counted as +∞ so that any finite residual beats it. */
function residualNorm(v: ArrayLike<number>): number {
  const m = infNorm(v);
  return Number.isNaN(m) ? Infinity : m;
}

/** Index and value of the most negative rate, relative to the largest, or undefined if none is negative. */
function negativeRate(rates: Float64Array): { l: number; value: number } | undefined {
  let l = -1;
  let max = 0;
  for (let k = 0; k < rates.length; k++) {
    max = Math.max(max, Math.abs(rates[k]));
    if (l < 0 || rates[k] < rates[l]) l = k;
  }
  return l >= 0 && rates[l] < -1e-12 * Math.max(max, 1) ? { l, value: rates[l] } : undefined;
}

/**
 * `x` with every level of the model's level vector (the one ending at its last variable, s_1..s_K, K ≥ 2) set to 1
 * (all servers at the top level K), or undefined if the model has no levels.
 */
function fullLevels(model: PopulationModel, x: ArrayLike<number>): number[] | undefined {
  const last = model.variables[model.variables.length - 1];
  const levels = Object.values(model.vectors).find((v) => v.length >= 2 && v[v.length - 1] === last);
  if (!levels) return undefined;
  const full = Array.from(x);
  for (const name of levels) full[model.variables.indexOf(name)] = 1;
  return full;
}

/** The Jacobian by bands if it is tridiagonal (newtonSolve then uses the O(K) Thomas algorithm), else dense. */
function jacobianForNewton(drift: PopulationDrift, x: Float64Array): number[][] | Tridiagonal {
  const J = drift.jacobian(x);
  const K = J.length;
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) if (Math.abs(i - j) > 1 && J[i][j] !== 0) return J;
  return {
    kind: 'tridiagonal',
    lower: Float64Array.from({ length: K }, (_, i) => (i > 0 ? J[i][i - 1] : 0)),
    diag: Float64Array.from({ length: K }, (_, i) => J[i][i]),
    upper: Float64Array.from({ length: K }, (_, i) => (i < K - 1 ? J[i][i + 1] : 0)),
  };
}

function newton(drift: PopulationDrift, start: ArrayLike<number>, tolerance: number, maxIterations: number) {
  return newtonSolve(
    (x) => drift.drift(x),
    (x) => jacobianForNewton(drift, x),
    start,
    { tolerance, maxIterations },
  );
}

/** Integrates towards the attractor until ‖f‖∞ ≤ 1e−8 (or maxTime); returns the state and the time used. */
function relax(
  drift: PopulationDrift,
  start: ArrayLike<number>,
  maxTime: number,
  tolerance: number,
  maxSteps: number,
): { y: number[]; t: number } {
  const buffer = new Float64Array(drift.dimension);
  const run = integratePopulation(
    drift,
    start,
    0,
    maxTime,
    tolerance,
    maxSteps,
    (_a, _b, y) => residualNorm(drift.drift(y, buffer)) > 1e-8,
  );
  return { y: run.y, t: run.t };
}

/**
 * Fixed point of the mean-field ODE dx/dt = f(x) of a population model, with observables and rates there.
 * @param model from `parsePopulationModel`.
 * @param options `from`, `tolerance` (1e−12), `maxIterations` (100), `maxOdeTime` (1e4), `maxSteps` and
 *   `odeTolerance` of the ODE run (max(10⁴, 50·maxOdeTime), 1e−9).
 * @returns `x` (length K), `residual` = ‖f(x)‖∞ ≤ tolerance, `iterations`, `observables`, `rates`, `diagnostics`.
 * @throws {InvalidModelError} if a rate is negative at the fixed point (naming the transition), or `from` has the
 *   wrong length. @throws {ConvergenceError} if neither Newton attempt meets the tolerance.
 * @example populationFixedPoint(jsq).x[1] // ≈ 0.9^3 = 0.729 for JSQ(2), λ = 0.9
 */
export function populationFixedPoint(model: PopulationModel, options: PopulationFixedPointOptions = {}): PopulationFixedPointResult {
  const K = model.variables.length;
  const start = Array.from(options.from ?? model.initial);
  if (start.length !== K || !start.every(Number.isFinite))
    throw new InvalidModelError(`from must hold ${K} finite numbers (one per variable), got ${start.length}`);
  const tolerance = options.tolerance ?? 1e-12;
  const maxIterations = options.maxIterations ?? 100;
  const maxOdeTime = options.maxOdeTime ?? 1e4;
  if (!(maxOdeTime > 0)) throw new InvalidModelError(`maxOdeTime must be > 0, got ${maxOdeTime}`);
  const drift = populationDrift(model);

  let method: PopulationFixedPointResult['diagnostics']['method'] = 'newton';
  let odeTime = 0;
  let solution: { x: Float64Array; residual: number; iterations: number } | undefined;
  try {
    solution = newton(drift, start, tolerance, maxIterations);
    if (negativeRate(drift.rates(solution.x))) solution = undefined;
  } catch (error) {
    if (!(error instanceof ConvergenceError || error instanceof SolverError)) throw error;
  }
  if (!solution) {
    method = 'ode+newton';
    const maxSteps = options.maxSteps ?? Math.max(10_000, Math.ceil(50 * maxOdeTime));
    if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new InvalidModelError(`maxSteps must be an integer ≥ 1, got ${maxSteps}`);
    const relaxed = relax(drift, start, maxOdeTime, options.odeTolerance ?? 1e-9, maxSteps);
    odeTime = relaxed.t;
    try {
      solution = newton(drift, relaxed.y, tolerance, maxIterations);
    } catch (error) {
      // At a load ρ ≈ 1 the ODE creeps up the levels far slower than maxOdeTime, so neither start is near the
      // truncated model's root; its root has a full top level and Newton reaches it from all levels full, where
      // bindingTruncation (checked by the caller) refuses it as for any ρ ≥ 1.
      const full = fullLevels(model, relaxed.y);
      if (!full || !(error instanceof ConvergenceError || error instanceof SolverError)) throw error;
      method = 'full+newton';
      solution = newton(drift, full, tolerance, maxIterations);
    }
  }
  const rates = drift.rates(solution.x);
  const negative = negativeRate(rates);
  if (negative) {
    throw new InvalidModelError(
      `${model.file ? `${model.file}: ` : ''}${drift.labels[negative.l]}: rate ${negative.value.toExponential(3)} < 0 at the fixed point ` +
        `(rates of a population process must be ≥ 0; check the rate expression and the parameters)`,
    );
  }
  let minL = 0;
  for (let l = 1; l < rates.length; l++) if (rates[l] < rates[minL]) minL = l;
  const x = Array.from(solution.x);
  clampToRange(x, 0, Infinity); // fractions of servers (models/README.md): Newton round-off is not a state
  return {
    x,
    residual: solution.residual,
    iterations: solution.iterations,
    observables: evaluateObservables(model, x),
    variables: model.variables,
    rates: Array.from(rates),
    diagnostics: { method, odeTime, minRate: { value: rates[minL], transition: drift.labels[minL] } },
    provenance: {
      model: model.name,
      parameters: model.parameters,
      equation: 'f(pi) = sum_l l beta_l(pi) = 0 (Newton, residual checked)',
      source: 'theory.md §2, §6; Dennis and Schnabel 1983',
      version: VERSION,
      code: codeId(),
    },
  };
}

/** A top level above this (a fraction of servers) is not empty: the truncation at K binds. */
export const TRUNCATION_TOLERANCE = 1e-6;

/**
 * The top level of a level-indexed model (its last variable ends a vector s_1..s_K, K ≥ 2) in state `x`, if it is
 * above `TRUNCATION_TOLERANCE`: arrivals there are lost, so `x` is a state of the truncated model only, not of the
 * model the file describes (theory.md §2, Truncation: choose K with s_K negligible). At a fixed point this means a load
 * ρ ≥ 1 (there is no fixed point at all) or K too small. Undefined for a model without levels or an empty top level.
 * @param x state, length K, index i = model.variables[i]
 */
export function bindingTruncation(model: PopulationModel, x: ArrayLike<number>): { name: string; value: number } | undefined {
  const name = model.variables[x.length - 1];
  const levels = Object.values(model.vectors).some((v) => v.length >= 2 && v[v.length - 1] === name);
  const value = x[x.length - 1];
  return levels && Math.abs(value) > TRUNCATION_TOLERANCE ? { name, value } : undefined;
}
