/**
 * Picard iteration on the LWL(d) fixed-point equation (FPE) for the equilibrium workload ccdf
 * F̄(w) = P(U > w):  F̄(w) = ρ − λ ∫_0^w (1 − F̄(u)^d) Ḡ(w − u) du  (theory.md §4 "Equilibrium", "Numerics" item 1;
 * Hellemans & Van Houdt, POMACS 2(2), 2018, arXiv:1802.05420).
 * Discretisation on w_j = jΔ: F̄_j = ρ − λΔ Σ_{i<j} h_{i+½} K_{j−1−i}, with h_{i+½} = 1 − ((F̄_i + F̄_{i+1})/2)^d and
 * K the cell averages of Ḡ (kernel.ts); the sum is one FFT convolution per iteration, the kernel transformed once.
 * Optional Anderson acceleration (anderson.ts) of the same map; the stopping rule is the Picard change
 * max_j |T(F̄)_j − F̄_j| either way, and the returned F̄ is the last Picard image T(F̄).
 */
import { ConvergenceError } from '../../errors.ts';
import { AndersonMixer } from '../../numerics/anderson.ts';
import { KernelConvolver } from '../../numerics/convolution.ts';

export interface PicardOptions {
  /** Stop when max_j |F̄_new − F̄_old| < tolerance. */
  tolerance: number;
  /** Iteration cap; ConvergenceError beyond it. */
  maxIterations: number;
  /** Start F̄ on the grid (length M + 1); default ρ·exp(−w/E[S]). */
  initial?: Float64Array;
  /** Anderson acceleration depth (0 = plain Picard). */
  andersonDepth: number;
}

export interface PicardSolution {
  /** F̄ at w_j = jΔ, j = 0..M (length M + 1), clamped to [0, ρ]. */
  ccdf: Float64Array;
  iterations: number;
  /** The last max change. */
  lastChange: number;
}

/**
 * Solves the discretised FPE by Picard iteration.
 * @param lambda λ (per time unit). @param rho ρ = λE[S]. @param d choices. @param K cell averages of Ḡ (length ≥ M).
 * @param step Δ. @param cells M (the grid has M + 1 nodes). @param meanService E[S] (for the default start).
 * @throws {ConvergenceError} if the change is still ≥ tolerance after maxIterations, or becomes NaN.
 */
export function picardSolve(
  lambda: number,
  rho: number,
  d: number,
  K: Float64Array,
  step: number,
  cells: number,
  meanService: number,
  options: PicardOptions,
): PicardSolution {
  const M = cells;
  const conv = new KernelConvolver(K, M);
  const F = new Float64Array(M + 1);
  if (options.initial !== undefined) F.set(options.initial.subarray(0, M + 1));
  else for (let j = 0; j <= M; j++) F[j] = rho * Math.exp(-(j * step) / meanService);
  F[0] = rho;
  const next = new Float64Array(M + 1);
  const g = new Float64Array(M + 1);
  const mixed = new Float64Array(M + 1);
  const mixer = new AndersonMixer(M + 1, options.andersonDepth);
  const h = new Float64Array(M);
  const c = new Float64Array(M);
  const scale = lambda * step;
  let change = Infinity;
  for (let it = 1; it <= options.maxIterations; it++) {
    for (let i = 0; i < M; i++) h[i] = 1 - (0.5 * (F[i] + F[i + 1])) ** d;
    conv.convolve(h, c);
    next[0] = rho;
    g[0] = 0;
    change = 0;
    for (let j = 1; j <= M; j++) {
      let v = rho - scale * c[j - 1];
      v = v < 0 ? 0 : v > rho ? rho : v;
      next[j] = v;
      g[j] = v - F[j];
      const delta = Math.abs(g[j]);
      if (delta > change) change = delta;
    }
    if (!(change === change)) break; // NaN
    if (change < options.tolerance) return { ccdf: next, iterations: it, lastChange: change };
    mixer.next(F, g, mixed);
    for (let j = 0; j <= M; j++) {
      const v = mixed[j];
      F[j] = v < 0 ? 0 : v > rho ? rho : v;
    }
  }
  throw new ConvergenceError(
    `LWL(d) Picard iteration did not reach max change < ${options.tolerance} (λ = ${lambda}, d = ${d}, ` +
      `step = ${step}, ${M} cells); raise maxIterations or coarsen the grid`,
    change,
    options.maxIterations,
  );
}
