/**
 * Relaxation time of the SQ(d) mean-field ODE near its fixed point: errors decay like e^{−t/τ} with
 * τ = −1/max Re eig(A), A = Df(s*) (theory.md §2 "Relaxation", §6). A is tridiagonal with positive off-diagonal
 * products A_{i,i+1}·A_{i+1,i} = ρd s_i^{d−1}, hence similar to a symmetric matrix: its eigenvalues are real.
 */
import { SolverError } from '../errors.ts';
import type { SupermarketModel } from '../model/model.ts';
import { sqdClosedFormTail, sqdJacobianBands, sqdTruncationLevel } from './sqd.ts';
import { sqdParameters } from './support.ts';
import { largestEigenvalueTridiagonal } from '../numerics/tridiagonal.ts';

/**
 * Relaxation time τ = −1/max eig(A) of SQ(d) at its fixed point, in model time units (τ in service-time units
 * times E[S]).
 * d ≥ 2: largest eigenvalue of the Jacobian of the system truncated at the K of tail tolerance 1e−15, by Sturm
 * bisection (τ ≈ 2.3, 4.1, 13, 27, 140 at ρ = 0.5, 0.7, 0.9, 0.95, 0.99 for d = 2).
 * d = 1: the M/M/1 (infinite-K) value τ = 1/(1 − √ρ)², the decay rate of the M/M/1 transition law; the
 * truncated matrix would only approach it as K → ∞.
 * Source: theory.md §2 "Relaxation"; Gast and Van Houdt, POMACS 1(2), 2017 (A).
 * @param model supported SQ(d) model (jsq, fifo, exponential).
 * @returns τ > 0 in model time units.
 * @throws {InvalidModelError} as `sqdParameters`.
 * @throws {SolverError} if the largest eigenvalue is not negative (no exponential stability).
 * @example relaxationTime(parseModel({ lambda: 0.9, d: 1 })) // 1/(1 − √0.9)² ≈ 379.5
 */
export function relaxationTime(model: SupermarketModel): number {
  const { rho, d, meanService } = sqdParameters(model);
  if (d === 1) return meanService / (1 - Math.sqrt(rho)) ** 2;
  const K = sqdTruncationLevel(rho, d, 1e-15);
  const s = sqdClosedFormTail(rho, d, K).slice(1);
  const largest = largestEigenvalueTridiagonal(sqdJacobianBands(rho, d, s));
  if (!(largest < 0)) {
    throw new SolverError(`largest Jacobian eigenvalue ${largest} is not < 0 at ρ = ${rho}, d = ${d}`);
  }
  return -meanService / largest;
}
