/**
 * Drift of the phase-type JSQ(d) FIFO mean field (theory.md §3 [D]), truncated at K levels, and its analytic
 * Jacobian in cumulative variables, where it is banded.
 *
 * State: x[(k−1)m + j] = x_{k,j}, the fraction of servers with k jobs whose job in service is in phase j
 * (k = 1..K, j = 0..m−1); x_0 = 1 − Σx. Tail s_k = Σ_{l≥k} Σ_j x_{l,j}, s_0 = 1, s_{K+1} = 0.
 *   a_k = (s_k^d − s_{k+1}^d)/(s_k − s_{k+1}) = Σ_{i<d} s_k^i s_{k+1}^{d−1−i}  (k < K; a_K := 0, arrivals lost)
 *   dx_{k,j}/dt = Σ_i x_{k,i}A_ij + α_j Σ_i x_{k+1,i}μ_i − λa_k x_{k,j} + λa_{k−1}x_{k−1,j}[k≥2] + λa_0x_0α_j[k=1]
 * Cumulative variables z_{k,j} = Σ_{l≥k} x_{l,j}: row level k of the drift depends on z at levels k−1..k+2 only,
 * so ∂f/∂z has kl = 2m − 1 sub- and ku = 3m − 1 super-diagonals.
 * The polynomial form of a_k is exact when s_k = s_{k+1} (then d·s_k^{d−1}), with no cancellation.
 */
import type { PhaseTypeParameters } from './phaseTypeModel.ts';
import type { ArrivalRouting } from '../support.ts';
import { BandedMatrix } from '../../numerics/bandedMatrix.ts';

/** φ(u, v) = (u^d − v^d)/(u − v) = Σ_{i<d} u^i v^{d−1−i}, and its partial derivatives. */
export function arrivalFactor(d: number, u: number, v: number): number {
  let sum = 0;
  for (let i = 0; i < d; i++) sum += u ** i * v ** (d - 1 - i);
  return sum;
}
function factorDu(d: number, u: number, v: number): number {
  let sum = 0;
  for (let i = 1; i < d; i++) sum += i * u ** (i - 1) * v ** (d - 1 - i);
  return sum;
}
function factorDv(d: number, u: number, v: number): number {
  let sum = 0;
  for (let i = 0; i < d - 1; i++) sum += (d - 1 - i) * u ** i * v ** (d - 2 - i);
  return sum;
}

/**
 * Tail s_0..s_{K+1} of a state x (length K·m): s[k] = Σ_{l≥k} Σ_j x_{l,j}, s[0] = 1, s[K+1] = 0.
 * @param out optional buffer of length ≥ K + 2.
 */
export function tailOf(m: number, x: ArrayLike<number>, out?: Float64Array): Float64Array {
  const K = x.length / m;
  const s = out ?? new Float64Array(K + 2);
  s[K + 1] = 0;
  for (let k = K; k >= 1; k--) {
    let level = 0;
    for (let j = 0; j < m; j++) level += x[(k - 1) * m + j];
    s[k] = s[k + 1] + level;
  }
  s[0] = 1;
  return s;
}

/**
 * The truncated drift dx/dt (theory.md §3), per model time unit.
 * @param p PH parameters. @param x state, length K·m (layout above). @param out optional length-K·m buffer.
 * @param scratch optional length-(K + 2) buffer for the tail.
 * @param routing a dispatcher memory (theory.md §12): arrivals at rate λπ₀ follow JSQ(d) (λ → λπ₀ above) and
 *   λ(1 − π₀) join idle servers (+λ(1 − π₀)α_j at level 1), π₀ = routing.pi0(s_1, Σ_i x_{1,i}μ_i/λ).
 * @returns dx/dt, same layout as x.
 */
export function phaseTypeDrift(
  p: PhaseTypeParameters,
  x: ArrayLike<number>,
  out?: Float64Array,
  scratch?: Float64Array,
  routing?: ArrivalRouting,
): Float64Array {
  const { m, d, alpha, A, mu } = p;
  const K = x.length / m;
  const f = out ?? new Float64Array(K * m);
  const s = tailOf(m, x, scratch);
  const x0 = 1 - s[1];
  // With a dispatcher memory (theory.md §12) a fraction π₀ follows JSQ(d), the rest joins an idle server
  let lambda = p.lambda;
  let toIdle = 0;
  if (routing !== undefined) {
    let emptying = 0;
    for (let i = 0; i < m; i++) emptying += x[i] * mu[i];
    const pi0 = routing.pi0(s[1], emptying / p.lambda);
    lambda = p.lambda * pi0;
    toIdle = p.lambda * (1 - pi0);
  }
  let aPrev = arrivalFactor(d, 1, s[1]); // a_0
  for (let k = 1; k <= K; k++) {
    const base = (k - 1) * m;
    const ak = k < K ? arrivalFactor(d, s[k], s[k + 1]) : 0;
    let exitAbove = 0;
    if (k < K) for (let i = 0; i < m; i++) exitAbove += x[base + m + i] * mu[i];
    for (let j = 0; j < m; j++) {
      let v = -lambda * ak * x[base + j] + alpha[j] * exitAbove;
      for (let i = 0; i < m; i++) v += x[base + i] * A[i * m + j];
      v += k >= 2 ? lambda * aPrev * x[base - m + j] : lambda * aPrev * x0 * alpha[j];
      if (k === 1 && toIdle !== 0) v += toIdle * alpha[j];
      f[base + j] = v;
    }
    aPrev = ak;
  }
  return f;
}

/** x from cumulative z: x_{k,j} = z_{k,j} − z_{k+1,j} (z_{K+1} = 0). */
export function levelsFromCumulative(m: number, z: ArrayLike<number>): Float64Array {
  const x = new Float64Array(z.length);
  for (let r = 0; r < z.length; r++) x[r] = z[r] - (r + m < z.length ? z[r + m] : 0);
  return x;
}

/** Cumulative z_{k,j} = Σ_{l≥k} x_{l,j} from x. */
export function cumulativeFromLevels(m: number, x: ArrayLike<number>): Float64Array {
  const z = new Float64Array(x.length);
  for (let r = x.length - 1; r >= 0; r--) z[r] = x[r] + (r + m < x.length ? z[r + m] : 0);
  return z;
}

/**
 * Analytic Jacobian ∂f/∂z of `phaseTypeDrift` at x, in cumulative variables (banded, kl = 2m − 1, ku = 3m − 1).
 * @param p PH parameters. @param x state, length K·m. @returns a BandedMatrix of order K·m: entry (r, c) is
 *   ∂f_r/∂z_c with r = (k−1)m + j, c = (l−1)m + i.
 */
export function phaseTypeJacobianCumulative(p: PhaseTypeParameters, x: ArrayLike<number>): BandedMatrix {
  const { m, d, lambda, alpha, A, mu } = p;
  const K = x.length / m;
  const J = new BandedMatrix(K * m, 2 * m - 1, 3 * m - 1);
  const s = tailOf(m, x);
  const x0 = 1 - s[1];
  const col = (l: number, i: number) => (l - 1) * m + i;
  for (let k = 1; k <= K; k++) {
    const ak = k < K ? arrivalFactor(d, s[k], s[k + 1]) : 0;
    const duK = k < K ? factorDu(d, s[k], s[k + 1]) : 0;
    const dvK = k < K ? factorDv(d, s[k], s[k + 1]) : 0;
    const aPrev = k >= 2 ? arrivalFactor(d, s[k - 1], s[k]) : 0;
    const duPrev = k >= 2 ? factorDu(d, s[k - 1], s[k]) : 0;
    const dvPrev = k >= 2 ? factorDv(d, s[k - 1], s[k]) : 0;
    for (let j = 0; j < m; j++) {
      const r = col(k, j);
      for (let i = 0; i < m; i++) {
        // Σ_i x_{k,i}A_ij with x_k = z_k − z_{k+1}
        J.add(r, col(k, i), A[i * m + j]);
        if (k < K) J.add(r, col(k + 1, i), -A[i * m + j]);
        // α_j Σ_i x_{k+1,i}μ_i
        if (k < K) J.add(r, col(k + 1, i), alpha[j] * mu[i]);
        if (k + 1 < K) J.add(r, col(k + 2, i), -alpha[j] * mu[i]);
      }
      if (k < K) {
        // −λa_k x_{k,j}
        J.add(r, col(k, j), -lambda * ak);
        J.add(r, col(k + 1, j), lambda * ak);
        const c = -lambda * x[r];
        for (let i = 0; i < m; i++) {
          J.add(r, col(k, i), c * duK);
          J.add(r, col(k + 1, i), c * dvK);
        }
      }
      if (k >= 2) {
        // λa_{k−1}x_{k−1,j}
        J.add(r, col(k - 1, j), lambda * aPrev);
        J.add(r, col(k, j), -lambda * aPrev);
        const c = lambda * x[r - m];
        for (let i = 0; i < m; i++) {
          J.add(r, col(k - 1, i), c * duPrev);
          J.add(r, col(k, i), c * dvPrev);
        }
      } else {
        // λa_0x_0α_j with a_0 = φ(1, s_1), x_0 = 1 − s_1
        const v = lambda * alpha[j] * (factorDv(d, 1, s[1]) * x0 - arrivalFactor(d, 1, s[1]));
        for (let i = 0; i < m; i++) J.add(r, col(1, i), v);
      }
    }
  }
  return J;
}
