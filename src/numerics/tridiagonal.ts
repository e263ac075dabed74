/**
 * Tridiagonal linear algebra for the SQ(d) Jacobian, which couples only neighbouring levels (theory.md §6 A).
 * Used where K is large (d = 1 needs K ≈ ln ε / ln λ, thousands of levels) and dense mathjs routines would be
 * O(K³). Thomas algorithm: Golub and Van Loan, Matrix Computations, §4.3; Sturm-sequence bisection: ibid. §8.4.
 */
import { SolverError } from '../errors.ts';

/**
 * A K×K tridiagonal matrix by bands: `lower[i]` = M[i][i−1] (lower[0] unused, 0), `diag[i]` = M[i][i],
 * `upper[i]` = M[i][i+1] (upper[K−1] unused, 0). All three have length K.
 */
export interface Tridiagonal {
  readonly kind: 'tridiagonal';
  readonly lower: Float64Array;
  readonly diag: Float64Array;
  readonly upper: Float64Array;
}

/** Expands a tridiagonal matrix into a dense K×K `number[][]`. */
export function tridiagonalToDense(m: Tridiagonal): number[][] {
  const K = m.diag.length;
  const out: number[][] = [];
  for (let i = 0; i < K; i++) {
    const row = new Array<number>(K).fill(0);
    row[i] = m.diag[i];
    if (i > 0) row[i - 1] = m.lower[i];
    if (i < K - 1) row[i + 1] = m.upper[i];
    out.push(row);
  }
  return out;
}

/**
 * Solves M x = rhs by the Thomas algorithm (Gaussian elimination without pivoting), O(K).
 * Stable for column diagonally dominant M, which the SQ(d) Jacobian is (each column's off-diagonal entries
 * sum to at most its diagonal's magnitude, strictly in column 1).
 * @param m tridiagonal matrix (length-K bands); @param rhs length K.
 * @returns x, length K.
 * @throws {SolverError} if a pivot vanishes or the result is not finite (M singular to working precision).
 */
export function solveTridiagonal(m: Tridiagonal, rhs: ArrayLike<number>): Float64Array {
  const K = m.diag.length;
  const c = new Float64Array(K);
  const x = new Float64Array(K);
  let pivot = m.diag[0];
  for (let i = 0; i < K; i++) {
    if (i > 0) pivot = m.diag[i] - m.lower[i] * c[i - 1];
    if (pivot === 0 || !Number.isFinite(pivot)) {
      throw new SolverError(`tridiagonal solve: pivot ${pivot} at row ${i} of ${K}; the matrix is singular`);
    }
    c[i] = i < K - 1 ? m.upper[i] / pivot : 0;
    x[i] = (rhs[i] - (i > 0 ? m.lower[i] * x[i - 1] : 0)) / pivot;
  }
  for (let i = K - 2; i >= 0; i--) x[i] -= c[i] * x[i + 1];
  for (let i = 0; i < K; i++) {
    if (!Number.isFinite(x[i])) throw new SolverError(`tridiagonal solve: non-finite solution at row ${i} of ${K}`);
  }
  return x;
}

/**
 * Largest eigenvalue of a tridiagonal matrix whose off-diagonal products lower[i+1]·upper[i] are all ≥ 0.
 * Such a matrix is similar to the symmetric one with off-diagonals √(lower[i+1]·upper[i]), so all its
 * eigenvalues are real; the largest is found by Sturm-sequence bisection to about 1e−15 relative accuracy.
 * @throws {SolverError} if some off-diagonal product is negative (eigenvalues may be complex).
 */
export function largestEigenvalueTridiagonal(m: Tridiagonal): number {
  const K = m.diag.length;
  const b2 = new Float64Array(K); // b2[i] = squared symmetric off-diagonal between rows i−1 and i
  for (let i = 1; i < K; i++) {
    b2[i] = m.lower[i] * m.upper[i - 1];
    if (b2[i] < 0) throw new SolverError(`largest eigenvalue: off-diagonal product ${b2[i]} < 0 at row ${i}`);
  }
  // Gershgorin interval of the symmetrised matrix.
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < K; i++) {
    const r = (i > 0 ? Math.sqrt(b2[i]) : 0) + (i < K - 1 ? Math.sqrt(b2[i + 1]) : 0);
    lo = Math.min(lo, m.diag[i] - r);
    hi = Math.max(hi, m.diag[i] + r);
  }
  // countBelow(x) = number of eigenvalues < x (signs of the LDLᵀ pivots of M − xI).
  const countBelow = (x: number): number => {
    let count = 0;
    let q = 1;
    for (let i = 0; i < K; i++) {
      q = m.diag[i] - x - (i > 0 ? b2[i] / q : 0);
      if (q === 0) q = -1e-300;
      if (q < 0) count++;
    }
    return count;
  };
  for (let it = 0; it < 200 && hi - lo > 1e-15 * Math.max(1e-300, Math.abs(lo) + Math.abs(hi)); it++) {
    const mid = 0.5 * (lo + hi);
    if (countBelow(mid) >= K)
      hi = mid; // every eigenvalue is below mid
    else lo = mid;
  }
  return 0.5 * (lo + hi);
}
