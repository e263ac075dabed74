/**
 * Refined mean field of a population model (Gast and Van Houdt): E[X^(n)] = π + V/n + O(1/n²), one step per
 * equation of theory.md §6: A = Df(π) (symbolic Jacobian), Q = Σ_ℓ ℓℓᵀβ_ℓ(π), AW + WAᵀ + Q = 0 (`computeW` of
 * ../refined.ts when A is tridiagonal, else the sign-function solver of ./lyapunovDense.ts), b_i = ½ Σ_jk
 * ∂²f_i/∂x_j∂x_k W_jk (symbolic Hessian, non-zero entries only), V = −A⁻¹b (LU with partial pivoting).
 * Source: theory.md §6; Gast and Van Houdt, A Refined Mean Field Approximation, POMACS 1(2), 2017; rmf_tool.
 */
import { InvalidModelError, SolverError } from '../../errors.ts';
import { VERSION, codeId } from '../../version.ts';
import { computeW, lyapunovResidual, LYAPUNOV_RESIDUAL_TOLERANCE } from '../refined.ts';
import { solveDense } from '../../numerics/dense.ts';
import { populationDrift, requireSmoothModel } from './drift.ts';
import { populationFixedPoint, type PopulationFixedPointResult } from './fixedPoint.ts';
import { solveLyapunovDense } from '../../numerics/lyapunovDense.ts';
import { refineObservables } from './observables.ts';
import type { PopulationModel } from '../../model/population/parse.ts';

export interface PopulationRefinedResult {
  /** The fixed point π the expansion is taken at. */
  fixedPoint: PopulationFixedPointResult;
  /** V, length K: E[x_i^(n)] ≈ π_i + V_i/n. */
  V: number[];
  /** W, K×K: Cov(X^(n)) ≈ W/n. */
  W: number[][];
  /** Observable name → { meanField: g(π), coefficient: 1/n coefficient of E[g(X^(n))] }. */
  observables: Record<string, { meanField: number; coefficient: number }>;
  /** max|AW + WAᵀ + Q| / max|Q| (checked ≤ 1e−9). */
  lyapunovResidual: number;
  variables: readonly string[];
  diagnostics: { lyapunovSolver: 'banded' | 'sign-function'; firstDerivatives: number; secondDerivatives: number };
  provenance: {
    model: string;
    parameters: Readonly<Record<string, number>>;
    equation: string;
    source: string;
    version: string;
    code: string;
  };
}

function isTridiagonal(A: number[][]): boolean {
  for (let i = 0; i < A.length; i++) for (let j = 0; j < A.length; j++) if (Math.abs(i - j) > 1 && A[i][j] !== 0) return false;
  return true;
}

/**
 * The 1/n correction of a population model at its fixed point, for the state and every observable.
 * @param model from `parsePopulationModel`. @param fixedPoint default `populationFixedPoint(model)`; must belong to
 *   this model (same variables).
 * @returns `V` (length K), `W` (K×K), `observables` (meanField, coefficient), `lyapunovResidual`, `diagnostics`.
 * @throws {InvalidModelError} if a rate or observable is not C² (`requireSmoothModel`, naming the function) or
 *   fixedPoint has the wrong length. @throws {SolverError} if A is singular or not
 *   Hurwitz (π not exponentially stable), or the Lyapunov residual exceeds 1e−9.
 * @example populationRefined(jsq).observables.meanQueueLength.coefficient // ≈ 3.9864 (JSQ(2), λ = 0.9)
 */
export function populationRefined(model: PopulationModel, fixedPoint?: PopulationFixedPointResult): PopulationRefinedResult {
  requireSmoothModel(model);
  const fp = fixedPoint ?? populationFixedPoint(model);
  const K = model.variables.length;
  if (fp.x.length !== K) throw new InvalidModelError(`fixedPoint has ${fp.x.length} values, the model has ${K} variables`);
  const drift = populationDrift(model);
  const pi = fp.x;
  const A = drift.jacobian(pi);
  const Q = drift.noise(pi);
  let W: number[][] | undefined;
  let solver: 'banded' | 'sign-function' = 'sign-function';
  if (isTridiagonal(A)) {
    try {
      W = computeW(A, Q);
      solver = 'banded';
    } catch (error) {
      if (!(error instanceof SolverError)) throw error;
    }
  }
  W ??= solveLyapunovDense(A, Q);
  const residual = lyapunovResidual(A, W, Q);
  if (!(residual <= LYAPUNOV_RESIDUAL_TOLERANCE)) {
    throw new SolverError(`Lyapunov residual ${residual.toExponential(2)} exceeds ${LYAPUNOV_RESIDUAL_TOLERANCE} (relative to max|Q|)`);
  }
  const b = Array.from(drift.secondOrderTerm(pi, W));
  const V = solveDense(
    A,
    b.map((v) => -v),
    'V = −A⁻¹b',
  ); // as computeV of ../refined.ts, without mathjs lusolve's cost at large K
  const counts = drift.derivativeCounts();
  return {
    fixedPoint: fp,
    V,
    W,
    observables: refineObservables(model, pi, V, W),
    lyapunovResidual: residual,
    variables: model.variables,
    diagnostics: { lyapunovSolver: solver, firstDerivatives: counts.first, secondDerivatives: counts.second },
    provenance: {
      model: model.name,
      parameters: model.parameters,
      equation:
        'E[X^(n)] = pi + V/n; A = Df(pi), Q = sum_l l l^T beta_l(pi), AW + WA^T + Q = 0, b_i = 1/2 sum_jk d2f_i/dx_j dx_k W_jk, V = -A^{-1} b',
      source: 'theory.md §6; Gast and Van Houdt, POMACS 1(2), 2017; rmf_tool',
      version: VERSION,
      code: codeId(),
    },
  };
}

/**
 * Refined estimates at n: E[x^(n)] ≈ π + V/n and E[g(X^(n))] ≈ g(π) + coefficient/n. Trust only where the
 * correction is a few % of the mean-field value (theory.md §6 "Limits").
 * @param result from `populationRefined`. @param n population size (e.g. number of servers), integer ≥ 1.
 * @returns `n`, `x` (length K), `observables` (name → estimate).
 * @throws {InvalidModelError} if n is not an integer ≥ 1.
 * @example refinedAt(populationRefined(jsq), 100).observables.meanQueueLength // ≈ 2.3925
 */
export function refinedAt(result: PopulationRefinedResult, n: number): { n: number; x: number[]; observables: Record<string, number> } {
  if (!Number.isInteger(n) || n < 1) throw new InvalidModelError(`n must be an integer ≥ 1, got ${n}`);
  const x = result.fixedPoint.x.map((v, i) => v + result.V[i] / n);
  const observables: Record<string, number> = {};
  for (const [name, o] of Object.entries(result.observables)) observables[name] = o.meanField + o.coefficient / n;
  return { n, x, observables };
}
