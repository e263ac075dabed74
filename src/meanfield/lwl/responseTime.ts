/**
 * LWL(d) FIFO response-time ccdf from the workload ccdf (theory.md §4 "FIFO response"): the waiting time has
 * P(W > w) = F̄(w)^d (an atom 1 − ρ^d at 0), and T = W + S with S independent, so in Stieltjes form
 *   P(T > t) = F̄(t)^d + (1 − ρ^d)Ḡ(t) + ∫_0^t (−dF̄^d/du) Ḡ(t − u) du,
 * which needs no density (atoms and unbounded densities are fine). On the grid the mass F̄_i^d − F̄_{i+1}^d of
 * cell i is spread uniformly over the cell, so the integral is Σ_{i<j} (P_i − P_{i+1}) K_{j−1−i} with K the cell
 * averages of Ḡ: one FFT convolution.
 */
import type { ServiceDistribution } from '../../model/service/index.ts';
import { KernelConvolver } from '../../numerics/convolution.ts';
import { clampToRange } from '../../numerics/clamp.ts';

/**
 * @param ccdf F̄ at w_j = jΔ (length M + 1). @param d choices. @param rho ρ = F̄(0). @param K cell averages of Ḡ
 *   (length ≥ M). @param service the law (for Ḡ at the nodes). @param step Δ.
 * @returns P(T > t_j) at t_j = jΔ (length M + 1), in [0, 1], non-increasing up to round-off.
 */
export function fifoResponseCcdf(
  ccdf: Float64Array,
  d: number,
  rho: number,
  K: Float64Array,
  service: ServiceDistribution,
  step: number,
): Float64Array {
  const M = ccdf.length - 1;
  const P = new Float64Array(M + 1);
  for (let j = 0; j <= M; j++) P[j] = ccdf[j] ** d;
  const mass = new Float64Array(M);
  for (let i = 0; i < M; i++) mass[i] = Math.max(0, P[i] - P[i + 1]);
  const c = M > 0 ? new KernelConvolver(K, M).convolve(mass, new Float64Array(M)) : new Float64Array(0);
  const idle = 1 - rho ** d;
  const out = new Float64Array(M + 1);
  for (let j = 0; j <= M; j++) {
    const v = P[j] + idle * service.ccdf(j * step) + (j > 0 ? c[j - 1] : 0);
    out[j] = v;
  }
  clampToRange(out); // a ccdf lies in [0, 1]; the FFT convolution leaves round-off outside
  return out;
}
