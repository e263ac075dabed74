/**
 * Damped Newton's method for f(x) = 0 with an analytic Jacobian: the fixed-point solver for mean-field models
 * without a closed form (theory.md §2, "Fixed points"). Dense systems go through mathjs `lusolve` (LU with
 * partial pivoting); tridiagonal Jacobians (SQ(d) at large K) through the O(K) Thomas algorithm.
 * Source: Dennis and Schnabel, Numerical Methods for Unconstrained Optimization and Nonlinear Equations, 1983,
 * §6.3 (backtracking on ‖f‖).
 */
import { mathjs } from '../lazy.ts';
import { ConvergenceError, InvalidModelError, SolverError } from '../errors.ts';
import { solveTridiagonal, type Tridiagonal } from './tridiagonal.ts';

export interface NewtonOptions {
  /** Stop when ‖f(x)‖∞ ≤ tolerance (default 1e−12). */
  tolerance?: number;
  /** Maximum number of Newton steps (default 50). */
  maxIterations?: number;
}

export interface NewtonResult {
  /** The solution, same length as x0. */
  x: Float64Array;
  /** ‖f(x)‖∞ at the solution. */
  residual: number;
  /** Newton steps taken (0 if x0 already met the tolerance). */
  iterations: number;
}

/** ‖v‖∞ = max_i |v_i|; NaN if any entry is NaN. */
export function infNorm(v: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < v.length; i++) {
    const a = Math.abs(v[i]);
    if (Number.isNaN(a)) return NaN;
    if (a > m) m = a;
  }
  return m;
}

function solveLinear(J: number[][] | Tridiagonal, rhs: Float64Array): Float64Array {
  if (!Array.isArray(J)) return solveTridiagonal(J, rhs);
  try {
    const sol = mathjs().lusolve(J, Array.from(rhs)) as unknown as number[][];
    const out = new Float64Array(rhs.length);
    for (let i = 0; i < out.length; i++) out[i] = Array.isArray(sol[i]) ? sol[i][0] : (sol[i] as unknown as number);
    return out;
  } catch (error) {
    throw new SolverError(`Newton step: the Jacobian is singular (${(error as Error).message})`, { cause: error });
  }
}

/** A root-finding problem for `dampedNewton`: the residual map, the Newton step, and how a step moves the point. */
export interface NewtonProblem {
  /** f(x), length n (may reuse its output buffer between calls). */
  residual(x: Float64Array): ArrayLike<number>;
  /** The Newton step Δ with J(x)Δ = rhs (rhs = −f(x)), in the coordinates `move` steps in. */
  step(x: Float64Array, rhs: Float64Array): ArrayLike<number>;
  /** The trial point t·Δ away from x (default x + tΔ); a solver that steps in other coordinates maps there and back. */
  move?(x: Float64Array, step: ArrayLike<number>, t: number): Float64Array;
}

export interface DampedNewtonResult extends NewtonResult {
  /** Why it stopped: ‖f‖∞ ≤ tolerance, a non-finite residual, the iteration budget, or no halving reduced ‖f‖∞. */
  outcome: 'converged' | 'not-finite' | 'max-iterations' | 'stalled';
}

function moveLinearly(x: Float64Array, step: ArrayLike<number>, t: number): Float64Array {
  const trial = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) trial[i] = x[i] + t * step[i];
  return trial;
}

/**
 * Newton's method with backtracking, without throwing: each step is halved (up to 30 times) until ‖f‖∞ decreases;
 * it stops at ‖f‖∞ ≤ tolerance, on a non-finite residual, after maxIterations steps, or when no halving helps, and
 * returns the best point with the reason (`outcome`). `newtonSolve` is this with a throw for every outcome but
 * convergence; solvers that restart from elsewhere on failure use it directly.
 * Source: Dennis and Schnabel 1983, §6.3.
 * @param x0 starting point (not modified). @param tolerance on ‖f‖∞. @param maxIterations Newton steps at most.
 */
export function dampedNewton(problem: NewtonProblem, x0: ArrayLike<number>, tolerance: number, maxIterations: number): DampedNewtonResult {
  const move = problem.move ?? moveLinearly;
  let x: Float64Array = Float64Array.from(x0);
  let fx = Float64Array.from(problem.residual(x));
  let residual = infNorm(fx);
  let iterations = 0;
  for (;;) {
    if (residual <= tolerance) return { x, residual, iterations, outcome: 'converged' };
    if (!Number.isFinite(residual)) return { x, residual, iterations, outcome: 'not-finite' };
    if (iterations >= maxIterations) return { x, residual, iterations, outcome: 'max-iterations' };
    iterations++;
    const rhs = new Float64Array(fx.length);
    for (let i = 0; i < rhs.length; i++) rhs[i] = -fx[i];
    const step = problem.step(x, rhs);
    let accepted = false;
    for (let halvings = 0, t = 1; halvings <= 30 && !accepted; halvings++, t /= 2) {
      const trial = move(x, step, t);
      const fTrial = Float64Array.from(problem.residual(trial));
      const rTrial = infNorm(fTrial);
      if (rTrial < residual) {
        x = trial;
        fx = fTrial;
        residual = rTrial;
        accepted = true;
      }
    }
    if (!accepted) return { x, residual, iterations, outcome: 'stalled' };
  }
}

/**
 * Solves f(x) = 0 by Newton's method with backtracking: each step J(x)Δ = −f(x) is halved (up to 30 times)
 * until ‖f‖∞ decreases, so the iteration cannot run away from a nearby root.
 * @param f residual map, length-n input to length-n output (may reuse its output buffer between calls).
 * @param jacobian J(x) = Df(x), dense n×n `number[][]` (J[i][j] = ∂f_i/∂x_j) or a `Tridiagonal` by bands.
 * @param x0 starting point, length n (not modified).
 * @param options `tolerance` on ‖f‖∞ (default 1e−12), `maxIterations` (default 50).
 * @returns `{ x, residual, iterations }` with residual = ‖f(x)‖∞ ≤ tolerance.
 * @throws {ConvergenceError} if the tolerance is not met within maxIterations, or no backtracking step
 *   reduces ‖f‖∞ (with the residual and iteration count).
 * @throws {SolverError} if the Jacobian is singular. @throws {InvalidModelError} on bad options.
 * @example newtonSolve(x => Float64Array.of(x[0] ** 2 - 2), x => [[2 * x[0]]], [1]).x[0] // ≈ 1.41421356
 */
export function newtonSolve(
  f: (x: Float64Array) => Float64Array,
  jacobian: (x: Float64Array) => number[][] | Tridiagonal,
  x0: ArrayLike<number>,
  options: NewtonOptions = {},
): NewtonResult {
  const tolerance = options.tolerance ?? 1e-12;
  const maxIterations = options.maxIterations ?? 50;
  if (!(tolerance > 0)) throw new InvalidModelError(`Newton tolerance must be > 0, got ${tolerance}`);
  if (!Number.isInteger(maxIterations) || maxIterations < 1) {
    throw new InvalidModelError(`Newton maxIterations must be an integer ≥ 1, got ${maxIterations}`);
  }
  const r = dampedNewton({ residual: f, step: (x, rhs) => solveLinear(jacobian(x), rhs) }, x0, tolerance, maxIterations);
  const { x, residual, iterations } = r;
  switch (r.outcome) {
    case 'converged':
      return { x, residual, iterations };
    case 'not-finite':
      throw new ConvergenceError(`Newton: ‖f(x)‖∞ is not finite (${residual}); start closer to a root`, residual, iterations);
    case 'max-iterations':
      throw new ConvergenceError(`Newton did not reach ‖f‖∞ ≤ ${tolerance} within maxIterations = ${maxIterations}`, residual, iterations);
    case 'stalled':
      throw new ConvergenceError(`Newton line search could not reduce ‖f‖∞ below the tolerance ${tolerance}`, residual, iterations);
  }
}
