/**
 * The SQ(d) = JSQ(d) mean-field model with exponential sizes and FIFO (or any size-blind) service: drift,
 * Jacobian, closed-form fixed point and truncation level. Everything here is in service-time units (μ = 1),
 * with `rho` the load ρ = λ·E[S] (the arrival rate in service-time units); see support.ts for the conversion to model time units.
 * Source: theory.md §2 and §6; Vvedenskaya, Dobrushin, Karpelevich, Probl. Inf. Transm. 32(1), 1996;
 * Mitzenmacher, IEEE TPDS 12(10), 2001; Gast and Van Houdt, POMACS 1(2), 2017 (Jacobian).
 */
import { InvalidModelError } from '../errors.ts';
import { checkRhoD } from './support.ts';
import type { Tridiagonal } from '../numerics/tridiagonal.ts';

/** Default ceiling on the truncation level K; d = 1 at λ > 0.998 exceeds it for tolerance 1e−15. */
export const DEFAULT_MAX_TRUNCATION_LEVEL = 20000;

/**
 * Drift of the truncated SQ(d) ODE, ds_i/dt = λ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}) for i = 1..K, with
 * s_0 = 1 and s_{K+1} = 0 (arrivals that would reach level K + 1 are lost). Source: theory.md §2.
 * @param rho load ρ = λ·E[S] (time in mean service times); not range-checked here (hot loop).
 * @param d servers sampled per arrival, integer ≥ 1 (not checked here).
 * @param s s_1..s_K (length K): s[i − 1] = fraction of servers with at least i jobs.
 * @param out optional length-K output buffer (reused, no allocation).
 * @returns ds_1/dt..ds_K/dt (length K; index i − 1 holds level i), per mean service time.
 */
export function sqdDrift(rho: number, d: number, s: ArrayLike<number>, out?: Float64Array): Float64Array {
  const K = s.length;
  const f = out ?? new Float64Array(K);
  let prevPow = 1; // s_{i−1}^d with s_0 = 1
  for (let i = 0; i < K; i++) {
    const si = s[i];
    const pow = si ** d;
    const next = i + 1 < K ? s[i + 1] : 0;
    f[i] = rho * (prevPow - pow) - (si - next);
    prevPow = pow;
  }
  return f;
}

/**
 * Analytic Jacobian of `sqdDrift` by bands (theory.md §6): A_{i,i−1} = λd s_{i−1}^{d−1},
 * A_ii = −λd s_i^{d−1} − 1, A_{i,i+1} = 1. O(K) memory, for large K (d = 1).
 * @param s s_1..s_K (length K). @param into bands of length K to fill (every entry written) instead of new ones.
 * @returns bands of length K (row/column index i − 1 is level i; lower[0] = upper[K − 1] = 0).
 * @throws {InvalidModelError} / {UnstableModelError} on d not an integer ≥ 1 or rho outside (0, 1).
 */
export function sqdJacobianBands(rho: number, d: number, s: ArrayLike<number>, into?: Tridiagonal): Tridiagonal {
  checkRhoD(rho, d);
  const K = s.length;
  const bands = into ?? { kind: 'tridiagonal', lower: new Float64Array(K), diag: new Float64Array(K), upper: new Float64Array(K) };
  const { lower, diag, upper } = bands;
  for (let i = 0; i < K; i++) {
    diag[i] = -rho * d * s[i] ** (d - 1) - 1;
    lower[i] = i > 0 ? rho * d * s[i - 1] ** (d - 1) : 0;
    upper[i] = i < K - 1 ? 1 : 0;
  }
  return bands;
}

/**
 * Analytic Jacobian A = Df(s) of `sqdDrift`, dense (theory.md §6, "A"; Gast and Van Houdt 2017).
 * @param rho load ρ in (0, 1). @param d integer ≥ 1. @param s s_1..s_K (length K).
 * @returns K×K `number[][]`; A[i−1][j−1] = ∂(ds_i/dt)/∂s_j, per mean service time.
 * @throws {InvalidModelError} / {UnstableModelError} on d not an integer ≥ 1 or rho outside (0, 1).
 */
export function sqdJacobian(rho: number, d: number, s: ArrayLike<number>): number[][] {
  const { lower, diag, upper } = sqdJacobianBands(rho, d, s);
  const K = s.length;
  const A: number[][] = [];
  for (let i = 0; i < K; i++) {
    const row = new Array<number>(K).fill(0);
    row[i] = diag[i];
    if (i > 0) row[i - 1] = lower[i];
    if (i < K - 1) row[i + 1] = upper[i];
    A.push(row);
  }
  return A;
}

/**
 * Closed-form fixed point of the untruncated SQ(d) ODE: s_i* = λ^((d^i − 1)/(d − 1)), or λ^i when d = 1
 * (M/M/1). Source: theory.md §2 (Vvedenskaya et al. 1996; Mitzenmacher 2001).
 * @param rho load ρ in (0, 1). @param d integer ≥ 1. @param K highest level kept, integer ≥ 0.
 * @returns s_0..s_K (length K + 1, s_0 = 1, non-increasing); entries below ~1e−308 underflow to 0.
 * @throws {InvalidModelError} if K is not an integer ≥ 0 or d is not an integer ≥ 1.
 * @throws {UnstableModelError} if rho is outside (0, 1).
 * @example sqdClosedFormTail(0.9, 2, 3) // [1, 0.9, 0.729, 0.4783]
 */
export function sqdClosedFormTail(rho: number, d: number, K: number): number[] {
  checkRhoD(rho, d);
  if (!Number.isInteger(K) || K < 0) throw new InvalidModelError(`K must be an integer ≥ 0, got ${K}`);
  const tail = new Array<number>(K + 1);
  tail[0] = 1;
  for (let i = 1; i <= K; i++) {
    // d^i is exact up to 2^53; beyond, the exponent is astronomically large and the power underflows to 0.
    tail[i] = d === 1 ? rho ** i : rho ** ((d ** i - 1) / (d - 1));
  }
  return tail;
}

/**
 * Truncation level K for the SQ(d) fixed point (theory.md §2, "Truncation").
 * d ≥ 2: the smallest K with s_K* < tailTolerance (K ≈ 12–13 at d = 2, λ = 0.99 for 1e−15).
 * d = 1: K = ⌈ln(tailTolerance)/ln λ⌉, so λ^K ≤ tailTolerance and the M/M/1/K bias λ^{K+1} is below it
 * (K ≈ 3,437 at λ = 0.99 for 1e−15).
 * @param rho load ρ in (0, 1). @param d integer ≥ 1. @param tailTolerance in (0, 1), default 1e−15.
 * @param maxLevel ceiling on K (default 20,000).
 * @returns K, an integer ≥ 1.
 * @throws {InvalidModelError} if tailTolerance is outside (0, 1), or K would exceed maxLevel (raise
 *   tailTolerance or maxLevel). @throws {UnstableModelError} if rho is outside (0, 1).
 */
export function sqdTruncationLevel(rho: number, d: number, tailTolerance = 1e-15, maxLevel = DEFAULT_MAX_TRUNCATION_LEVEL): number {
  checkRhoD(rho, d);
  if (!(tailTolerance > 0 && tailTolerance < 1)) {
    throw new InvalidModelError(`tailTolerance must lie in (0, 1), got ${tailTolerance}`);
  }
  let K: number;
  if (d === 1) {
    K = Math.max(1, Math.ceil(Math.log(tailTolerance) / Math.log(rho)));
  } else {
    K = 1;
    while (rho ** ((d ** K - 1) / (d - 1)) >= tailTolerance) K++;
  }
  if (K > maxLevel) {
    throw new InvalidModelError(
      `truncation level K = ${K} (d = ${d}, ρ = ${rho}, tailTolerance = ${tailTolerance}) exceeds ` +
        `maxLevel = ${maxLevel}; raise tailTolerance or the maximum truncation level`,
    );
  }
  return K;
}
