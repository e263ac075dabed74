/**
 * Small dense linear algebra on row-major Float64Array K×K matrices (Gauss–Jordan inverse and LU solve with
 * partial pivoting): mathjs `lusolve` on number[][] takes ~0.3 s at K = 100, these take milliseconds.
 * Source: Golub and Van Loan, Matrix Computations, 4th ed., §3.2–3.4.
 */
import { SolverError } from '../errors.ts';

/** Row-major K×K matrix. */
export type Matrix = Float64Array; // row-major K×K

export function fromRows(M: number[][], K: number): Matrix {
  const out = new Float64Array(K * K);
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) out[i * K + j] = M[i][j];
  return out;
}

export function toRows(M: Matrix, K: number): number[][] {
  return Array.from({ length: K }, (_, i) => Array.from(M.subarray(i * K, (i + 1) * K)));
}

/** C = A·B, K×K. */
export function multiply(A: Matrix, B: Matrix, K: number): Matrix {
  const C = new Float64Array(K * K);
  for (let i = 0; i < K; i++) {
    for (let p = 0; p < K; p++) {
      const a = A[i * K + p];
      if (a === 0) continue;
      for (let j = 0; j < K; j++) C[i * K + j] += a * B[p * K + j];
    }
  }
  return C;
}

export function transpose(A: Matrix, K: number): Matrix {
  const T = new Float64Array(K * K);
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) T[j * K + i] = A[i * K + j];
  return T;
}

/** Inverse by Gauss–Jordan with partial pivoting, and log|det|. */
export function inverse(A: Matrix, K: number): { inv: Matrix; logAbsDet: number } {
  const M = Float64Array.from(A);
  const inv = new Float64Array(K * K);
  for (let i = 0; i < K; i++) inv[i * K + i] = 1;
  let logAbsDet = 0;
  for (let c = 0; c < K; c++) {
    let p = c;
    for (let r = c + 1; r < K; r++) if (Math.abs(M[r * K + c]) > Math.abs(M[p * K + c])) p = r;
    const pivot = M[p * K + c];
    if (pivot === 0 || !Number.isFinite(pivot))
      throw new SolverError(`Lyapunov solve: the Jacobian is singular (zero pivot in column ${c} of ${K})`);
    if (p !== c) {
      for (let j = 0; j < K; j++) {
        const m = M[c * K + j];
        M[c * K + j] = M[p * K + j];
        M[p * K + j] = m;
        const v = inv[c * K + j];
        inv[c * K + j] = inv[p * K + j];
        inv[p * K + j] = v;
      }
    }
    logAbsDet += Math.log(Math.abs(pivot));
    for (let j = c; j < K; j++) M[c * K + j] /= pivot; // columns < c of row c are already 0
    for (let j = 0; j < K; j++) inv[c * K + j] /= pivot;
    for (let r = 0; r < K; r++) {
      if (r === c) continue;
      const f = M[r * K + c];
      if (f === 0) continue;
      for (let j = c; j < K; j++) M[r * K + j] -= f * M[c * K + j];
      for (let j = 0; j < K; j++) inv[r * K + j] -= f * inv[c * K + j];
    }
  }
  return { inv, logAbsDet };
}

/**
 * Solves A x = b by LU with partial pivoting.
 * @param A K×K `number[][]`. @param b length K. @returns x, length K.
 * @throws {SolverError} naming `what` if A is singular.
 */
export function solveDense(A: number[][], b: ArrayLike<number>, what = 'linear system'): number[] {
  const K = A.length;
  const M = fromRows(A, K);
  const x = Float64Array.from(b);
  for (let c = 0; c < K; c++) {
    let p = c;
    for (let r = c + 1; r < K; r++) if (Math.abs(M[r * K + c]) > Math.abs(M[p * K + c])) p = r;
    const pivot = M[p * K + c];
    if (pivot === 0 || !Number.isFinite(pivot))
      throw new SolverError(`${what}: the matrix is singular (zero pivot in column ${c} of ${K})`);
    if (p !== c) {
      for (let j = c; j < K; j++) {
        const m = M[c * K + j];
        M[c * K + j] = M[p * K + j];
        M[p * K + j] = m;
      }
      const v = x[c];
      x[c] = x[p];
      x[p] = v;
    }
    for (let r = c + 1; r < K; r++) {
      const f = M[r * K + c] / pivot;
      if (f === 0) continue;
      for (let j = c; j < K; j++) M[r * K + j] -= f * M[c * K + j];
      x[r] -= f * x[c];
    }
  }
  for (let r = K - 1; r >= 0; r--) {
    let s = x[r];
    for (let j = r + 1; j < K; j++) s -= M[r * K + j] * x[j];
    x[r] = s / M[r * K + r];
  }
  return Array.from(x);
}
