/**
 * The service ccdf on a grid, as the LWL(d) solvers use it: cell averages K_k = (1/Δ)∫_{kΔ}^{(k+1)Δ} Ḡ(x) dx, and
 * the mean-preserving discrete size law p_k derived from them. Cell averages are exact for atoms (deterministic,
 * empirical sizes: Ḡ is a step function) and use 3-point Gauss–Legendre on each cell otherwise, splitting cells at
 * the ends of the support; the first cell uses E[min(S, Δ)] = E[S·1(S ≤ Δ)] + Δ·Ḡ(Δ), so an unbounded density at 0
 * (Weibull shape < 1) costs no accuracy. With K, the midpoint rule of theory.md §4 item 1 becomes product
 * integration: h at midpoints, Ḡ integrated exactly over each cell (the same order, more robust).
 */
import type { ServiceDistribution } from '../../model/service/index.ts';

const GAUSS_NODES = [-Math.sqrt(0.6), 0, Math.sqrt(0.6)];
const GAUSS_WEIGHTS = [5 / 9, 8 / 9, 5 / 9];

function gaussAverage(ccdf: (x: number) => number, a: number, b: number): number {
  const mid = 0.5 * (a + b),
    half = 0.5 * (b - a);
  let s = 0;
  for (let q = 0; q < 3; q++) s += GAUSS_WEIGHTS[q] * ccdf(mid + half * GAUSS_NODES[q]);
  return 0.5 * s; // weights sum to 2
}

/**
 * Cell averages of the service ccdf.
 * @param service the law. @param step Δ > 0 (time units). @param count number of cells.
 * @returns K (length `count`): K[k] = (1/Δ)∫_{kΔ}^{(k+1)Δ} P(S > x) dx, non-increasing, in [0, 1]; Δ·ΣK → E[S].
 */
export function ccdfCellAverages(service: ServiceDistribution, step: number, count: number): Float64Array {
  const K = new Float64Array(count);
  if (service.atoms !== undefined) {
    // ∫_a^b Ḡ = Σ_atoms p·|[a, b] ∩ [0, x)|.
    // Difference array: each atom adds p to the cells wholly below x, and a fraction to the cell holding x.
    const partial = new Float64Array(count + 1);
    for (const { x, p } of service.atoms) {
      const full = Math.min(count, Math.floor(x / step));
      K[0] += p;
      if (full < count) {
        K[full] -= p;
        partial[full] += (p * (x - full * step)) / step;
      }
    }
    for (let k = 1; k < count; k++) K[k] += K[k - 1];
    for (let k = 0; k < count; k++) K[k] = Math.min(1, Math.max(0, K[k] + partial[k]));
    return K;
  }
  const ccdf = (x: number) => service.ccdf(x);
  const lower = service.quantile(0);
  const upper = service.supportMax;
  for (let k = 0; k < count; k++) {
    const a = k * step,
      b = a + step;
    if (b <= lower) {
      K[k] = 1;
      continue;
    }
    if (a >= upper) break;
    const splits = [a];
    if (lower > a && lower < b) splits.push(lower);
    if (upper > a && upper < b) splits.push(upper);
    splits.push(b);
    let s = 0;
    for (let i = 0; i + 1 < splits.length; i++) s += (splits[i + 1] - splits[i]) * gaussAverage(ccdf, splits[i], splits[i + 1]);
    K[k] = s / step;
  }
  if (count > 0 && lower < step) {
    const first = (service.partialMoment(1, step) + step * service.ccdf(step)) / step;
    if (first >= 0 && first <= 1) K[0] = first;
  }
  return K;
}

/**
 * Mean-preserving lattice law of S/Δ (linear "hat" rounding between neighbouring multiples of Δ): p_0 = 1 − K_0,
 * p_k = K_{k−1} − K_k. Σp_k = 1 and Σk·p_k·Δ = Δ·ΣK_k = E[S] (up to the grid's end), so the load is kept.
 * @returns p (length K.length), p[k] = probability that a job adds k cells of work.
 */
export function latticeSizeLaw(K: Float64Array): Float64Array {
  const p = new Float64Array(K.length);
  p[0] = Math.max(0, 1 - K[0]);
  for (let k = 1; k < K.length; k++) p[k] = Math.max(0, K[k - 1] - K[k]);
  return p;
}
