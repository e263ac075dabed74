/**
 * AW + WAᵀ + Q = 0 for a dense Hurwitz A by the matrix-sign-function Newton iteration, for population models whose
 * Jacobian is not tridiagonal (tridiagonal ones go to `computeW` of ../refined.ts, an exact banded solve). mathjs
 * `lyap` takes ~15 s at K = 50; this takes milliseconds. With Z = [[A, Q], [0, −Aᵀ]], sign(Z) = [[−I, 2W], [0, I]],
 * and Newton's iteration Z ← (cZ + (cZ)⁻¹)/2 keeps the block form:
 *   A ← (cA + A⁻¹/c)/2,   Q ← (cQ + A⁻¹QA⁻ᵀ/c)/2,   c = |det A|^(−1/K) (determinant scaling),
 * so A → −I and W = lim Q/2. One step of iterative refinement on the residual follows.
 * Source: Roberts, Int. J. Control 32(4), 1980 (tech. report 1971); Benner and Quintana-Ortí, Numer. Algorithms
 * 20, 1999; Higham, Functions of Matrices, 2008, §5.3 (scaling).
 */
import { SolverError } from '../errors.ts';
import { fromRows, inverse, multiply, toRows, transpose } from './dense.ts';

function signIteration(A0: Float64Array, Q0: Float64Array, K: number): Float64Array {
  let A = A0;
  let Q = Q0;
  for (let iteration = 0; iteration < 100; iteration++) {
    const { inv, logAbsDet } = inverse(A, K);
    let offIdentity = 0;
    for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) offIdentity = Math.max(offIdentity, Math.abs(A[i * K + j] + (i === j ? 1 : 0)));
    const c = offIdentity > 1e-2 && iteration < 30 ? Math.exp(-logAbsDet / K) : 1; // scale only far from sign(A)
    const nextA = new Float64Array(K * K);
    const IQIt = multiply(multiply(inv, Q, K), transpose(inv, K), K);
    const nextQ = new Float64Array(K * K);
    let change = 0;
    let size = 0;
    for (let m = 0; m < K * K; m++) {
      nextA[m] = 0.5 * (c * A[m] + inv[m] / c);
      nextQ[m] = 0.5 * (c * Q[m] + IQIt[m] / c);
      change = Math.max(change, Math.abs(nextA[m] - A[m]));
      size = Math.max(size, Math.abs(nextA[m]));
    }
    A = nextA;
    Q = nextQ;
    if (change <= 1e-13 * size && c === 1) {
      for (let i = 0; i < K; i++) {
        for (let j = 0; j < K; j++) {
          if (Math.abs(A[i * K + j] + (i === j ? 1 : 0)) > 1e-8) {
            throw new SolverError(
              'Lyapunov solve: the Jacobian at the fixed point is not Hurwitz (sign(A) ≠ −I): the fixed point is not exponentially stable, so the refined correction does not apply',
            );
          }
        }
      }
      for (let m = 0; m < K * K; m++) Q[m] *= 0.5;
      return Q;
    }
  }
  throw new SolverError(
    'Lyapunov solve: the sign iteration did not converge in 100 steps (A has eigenvalues on or near the imaginary axis?)',
  );
}

/**
 * Solves AW + WAᵀ + Q = 0 for dense Hurwitz A (any sparsity), then refines once on the residual.
 * @param A K×K `number[][]`, all eigenvalues with negative real part. @param Q K×K symmetric.
 * @returns W, K×K `number[][]`, symmetrised.
 * @throws {SolverError} if A is singular, not Hurwitz, or the iteration does not converge.
 */
export function solveLyapunovDense(A: number[][], Q: number[][]): number[][] {
  const K = A.length;
  const a = fromRows(A, K);
  const W = signIteration(a, fromRows(Q, K), K);
  // Refinement: R = AW + WAᵀ + Q, W ← W + Δ with AΔ + ΔAᵀ + R = 0.
  const AW = multiply(a, W, K);
  const R = new Float64Array(K * K);
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) R[i * K + j] = AW[i * K + j] + AW[j * K + i] + Q[i][j];
  const delta = signIteration(a, R, K);
  const out = toRows(W, K);
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) out[i][j] += delta[i * K + j];
  for (let i = 0; i < K; i++) {
    for (let j = i + 1; j < K; j++) {
      const v = 0.5 * (out[i][j] + out[j][i]);
      out[i][j] = v;
      out[j][i] = v;
    }
  }
  return out;
}
