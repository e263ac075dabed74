/**
 * Closed forms of the LWL(d) mean field for exponential sizes with mean 1 (so ρ = λ), theory.md §4 "Exponential
 * sizes" (Hellemans & Van Houdt, POMACS 2(2), 2018, arXiv:1802.05420), with d = 1 the M/M/1 queue (§7):
 *   F̄(w)     = (λ + (λ^{1−d} − λ)e^{(d−1)w})^{1/(1−d)}      (any discipline; d = 1: λe^{−(1−λ)w})
 *   P(T > t) = (λ^d + (1 − λ^d)e^{(d−1)t})^{1/(1−d)}         (FIFO; d = 1: e^{−(1−λ)t})
 *   E[T]     = Σ_{n≥0} λ^{dn}/(1 + n(d−1));  d = 2: −ln(1−λ²)/λ²;  d = 3: artanh(λ^{3/2})/λ^{3/2};  E[U] = λE[T].
 */
import { checkRhoD } from '../support.ts';

export interface LwlExponentialClosedForm {
  rho: number;
  d: number;
  /** E[T] (FIFO), mean service times. */
  meanResponseTime: number;
  /** E[W] = E[T] − 1 (FIFO). */
  meanWaitingTime: number;
  /** E[U] = λ·E[T]_FIFO (any discipline). */
  meanWorkload: number;
  /** Terms summed in the series (0 when an elementary form was used). */
  seriesTerms: number;
}

/**
 * Equilibrium workload ccdf F̄(w) = P(U > w), exponential sizes of mean 1.
 * @param rho λ = ρ in (0, 1). @param d integer ≥ 1. @param w workload ≥ 0 (mean service times).
 * @throws {InvalidModelError} if d is not an integer ≥ 1. @throws {UnstableModelError} if ρ ∉ (0, 1).
 */
export function lwlExponentialWorkloadCcdf(rho: number, d: number, w: number): number {
  checkRhoD(rho, d);
  if (d === 1) return rho * Math.exp(-(1 - rho) * w);
  return (rho + (rho ** (1 - d) - rho) * Math.exp((d - 1) * w)) ** (1 / (1 - d));
}

/**
 * Response-time ccdf P(T > t) under FIFO, exponential sizes of mean 1.
 * @throws {InvalidModelError} if d is not an integer ≥ 1. @throws {UnstableModelError} if ρ ∉ (0, 1).
 */
export function lwlExponentialResponseCcdf(rho: number, d: number, t: number): number {
  checkRhoD(rho, d);
  if (d === 1) return Math.exp(-(1 - rho) * t);
  const ld = rho ** d;
  return (ld + (1 - ld) * Math.exp((d - 1) * t)) ** (1 / (1 - d));
}

/**
 * Mean response, waiting time and workload of LWL(d), exponential sizes of mean 1, FIFO: the elementary forms for
 * d = 1, 2, 3, otherwise the series Σ λ^{dn}/(1 + n(d−1)) summed until its terms are < 1e−17 of the sum.
 * @throws {InvalidModelError} if d is not an integer ≥ 1. @throws {UnstableModelError} if ρ ∉ (0, 1).
 * @example lwlExponentialClosedForm(0.9, 2).meanResponseTime // ≈ 2.0503
 */
export function lwlExponentialClosedForm(rho: number, d: number): LwlExponentialClosedForm {
  checkRhoD(rho, d);
  let T: number;
  let seriesTerms = 0;
  if (d === 1) T = 1 / (1 - rho);
  else if (d === 2) T = -Math.log1p(-rho * rho) / (rho * rho);
  else if (d === 3) {
    const x = rho ** 1.5;
    T = Math.atanh(x) / x;
  } else {
    T = 0;
    const q = rho ** d;
    let power = 1;
    for (let n = 0; ; n++) {
      const term = power / (1 + n * (d - 1));
      T += term;
      seriesTerms = n + 1;
      if (term < 1e-17 * T) break;
      power *= q;
    }
  }
  return { rho, d, meanResponseTime: T, meanWaitingTime: T - 1, meanWorkload: rho * T, seriesTerms };
}
