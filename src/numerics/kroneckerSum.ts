/**
 * Kronecker-sum equations (A ⊕ … ⊕ A)·X = B for an m-index tensor X (K^m entries, row-major), i.e.
 * Σ_axes A applied along that axis of X = B, for a real tridiagonal A whose off-diagonal products
 * A_{i,i+1}·A_{i+1,i} are positive (then A = D·S·D⁻¹ with S symmetric, D diagonal, and A has real eigenvalues).
 * Solved in the eigenbasis of S (cyclic Jacobi): X = (D U) ×_axes [ (UᵀD⁻¹ ×_axes B) / (λ_i + λ_j + …) ].
 * These are the equations of the 1/n² term of the refined mean field (Gast, Bortolussi and Tribastone,
 * Perf. Eval. 2019: the tensors C (m = 3) and D (m = 4)).
 * Source: Golub and Van Loan, Matrix Computations, 4th ed., §8.5 (Jacobi) and §12.3 (Kronecker sums).
 */
import { SolverError } from '../errors.ts';
import type { Tridiagonal } from './tridiagonal.ts';

/**
 * Eigen-decomposition of a symmetric K×K matrix (row-major) by cyclic Jacobi rotations.
 * @returns `values` (length K) and `vectors` (row-major K×K, column j = eigenvector j), S = U diag(values) Uᵀ.
 * @throws {SolverError} if 100 sweeps do not bring the off-diagonal mass below 1e−15 of the norm.
 */
export function symmetricEigen(S: Float64Array, K: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(S);
  const u = new Float64Array(K * K);
  for (let i = 0; i < K; i++) u[i * K + i] = 1;
  let norm = 0;
  for (let i = 0; i < K * K; i++) norm += a[i] * a[i];
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < K; p++) for (let q = p + 1; q < K; q++) off += a[p * K + q] ** 2;
    if (off <= 1e-30 * norm) {
      return { values: Float64Array.from({ length: K }, (_, i) => a[i * K + i]), vectors: u };
    }
    for (let p = 0; p < K; p++) {
      for (let q = p + 1; q < K; q++) {
        const apq = a[p * K + q];
        if (apq === 0) continue;
        const theta = (a[q * K + q] - a[p * K + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < K; k++) {
          const akp = a[k * K + p];
          const akq = a[k * K + q];
          a[k * K + p] = c * akp - s * akq;
          a[k * K + q] = s * akp + c * akq;
        }
        for (let k = 0; k < K; k++) {
          const apk = a[p * K + k];
          const aqk = a[q * K + k];
          a[p * K + k] = c * apk - s * aqk;
          a[q * K + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < K; k++) {
          const ukp = u[k * K + p];
          const ukq = u[k * K + q];
          u[k * K + p] = c * ukp - s * ukq;
          u[k * K + q] = s * ukp + c * ukq;
        }
      }
    }
  }
  throw new SolverError(`Jacobi eigen-decomposition of a ${K}×${K} symmetric matrix did not converge in 100 sweeps`);
}

/** Y = M applied along every axis of the m-index tensor X (K^m, row-major): Y_{i…} = Σ M_{i i'} … X_{i'…}. */
export function applyAlongAxes(M: Float64Array, X: Float64Array, K: number, m: number): Float64Array {
  let cur = X;
  for (let axis = 0; axis < m; axis++) {
    const next = new Float64Array(cur.length);
    addAlongAxis(M, cur, K, m, axis, next);
    cur = next;
  }
  return cur;
}

/** The eigenbasis of a symmetrisable tridiagonal A: A = P diag(values) P⁻¹ (P, P⁻¹ row-major K×K). */
export interface TridiagonalEigenbasis {
  K: number;
  values: Float64Array;
  P: Float64Array;
  Pinv: Float64Array;
}

/**
 * A = D S D⁻¹ (D_0 = 1, D_{i+1} = D_i·√(A_{i+1,i}/A_{i,i+1})), S = U Λ Uᵀ: P = D U, P⁻¹ = Uᵀ D⁻¹.
 * @throws {SolverError} if some A_{i,i+1}·A_{i+1,i} ≤ 0.
 */
export function tridiagonalEigenbasis(A: Tridiagonal): TridiagonalEigenbasis {
  const K = A.diag.length;
  const D = new Float64Array(K);
  D[0] = 1;
  const S = new Float64Array(K * K);
  for (let i = 0; i < K; i++) {
    S[i * K + i] = A.diag[i];
    if (i + 1 < K) {
      const prod = A.upper[i] * A.lower[i + 1];
      if (!(prod > 0)) throw new SolverError(`Kronecker-sum solve needs A_{i,i+1}·A_{i+1,i} > 0; at i = ${i} it is ${prod}`);
      D[i + 1] = D[i] * Math.sqrt(A.lower[i + 1] / A.upper[i]);
      S[i * K + i + 1] = S[(i + 1) * K + i] = Math.sqrt(prod);
    }
  }
  const { values, vectors: U } = symmetricEigen(S, K);
  const P = new Float64Array(K * K);
  const Pinv = new Float64Array(K * K);
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < K; j++) {
      P[i * K + j] = D[i] * U[i * K + j];
      Pinv[j * K + i] = U[i * K + j] / D[i];
    }
  }
  return { K, values, P, Pinv };
}

/**
 * Solves Σ_axes A·X = B for the m-index tensor X (m ≥ 1).
 * @param basis from `tridiagonalEigenbasis(A)`. @param B K^m entries, row-major. @param m number of indices.
 * @returns X, K^m entries. @throws {SolverError} if some eigenvalue sum is 0 (A ⊕ … ⊕ A singular).
 */
export function solveKroneckerSum(basis: TridiagonalEigenbasis, B: Float64Array, m: number): Float64Array {
  const { K, values, P, Pinv } = basis;
  const Y = applyAlongAxes(Pinv, B, K, m);
  const idx = new Int32Array(m);
  for (let flat = 0; flat < Y.length; flat++) {
    let sum = 0;
    for (let a = 0; a < m; a++) sum += values[idx[a]];
    if (sum === 0) throw new SolverError('Kronecker sum A ⊕ … ⊕ A is singular');
    Y[flat] /= sum;
    for (let a = m - 1; a >= 0; a--) {
      if (++idx[a] < K) break;
      idx[a] = 0;
    }
  }
  return applyAlongAxes(P, Y, K, m);
}

/** Y = Σ_axes A applied along that axis of the m-index tensor X (K^m, row-major): the Kronecker sum A ⊕ … ⊕ A times X. */
export function applyKroneckerSum(A: Float64Array, X: Float64Array, K: number, m: number): Float64Array {
  const out = new Float64Array(X.length);
  for (let axis = 0; axis < m; axis++) addAlongAxis(A, X, K, m, axis, out);
  return out;
}

/** out += M applied along axis `axis` of the m-index tensor X (K^m, row-major): out_{…i…} += Σ_j M_{ij} X_{…j…}. */
function addAlongAxis(M: Float64Array, X: Float64Array, K: number, m: number, axis: number, out: Float64Array): void {
  const stride = K ** (m - 1 - axis);
  const block = stride * K;
  for (let base = 0; base < X.length; base += block) {
    for (let r = 0; r < stride; r++) {
      for (let i = 0; i < K; i++) {
        let acc = 0;
        for (let j = 0; j < K; j++) acc += M[i * K + j] * X[base + j * stride + r];
        out[base + i * stride + r] += acc;
      }
    }
  }
}

/** Back substitution for Σ_axes T·Y = C with T upper triangular (its strictly lower part ignored), lexicographic from the end. */
function triangularKroneckerSolve(T: Float64Array, C: Float64Array, K: number, m: number): Float64Array {
  const Y = Float64Array.from(C);
  const strides = Array.from({ length: m }, (_, a) => K ** (m - 1 - a));
  const idx = new Int32Array(m).fill(K - 1);
  for (let flat = Y.length - 1; flat >= 0; flat--) {
    let acc = Y[flat];
    let diag = 0;
    for (let a = 0; a < m; a++) {
      const i = idx[a];
      diag += T[i * K + i];
      for (let j = i + 1; j < K; j++) acc -= T[i * K + j] * Y[flat + (j - i) * strides[a]];
    }
    if (diag === 0) throw new SolverError('Kronecker sum T ⊕ … ⊕ T is singular (eigenvalues summing to 0)');
    Y[flat] = acc / diag;
    for (let a = m - 1; a >= 0; a--) {
      if (--idx[a] >= 0) break;
      idx[a] = K - 1;
    }
  }
  return Y;
}

/**
 * Solves Σ_axes A·X = B for a general real K×K A (e.g. a Jacobian that is not tridiagonal, or whose eigenbasis is
 * ill-conditioned) from an orthogonal Schur form A = U T Uᵀ that may be inexact (T upper triangular up to small
 * sub-diagonal entries, as mathjs `schur` returns them): X ← X + U(T_upper ⊕ …)⁻¹Uᵀ(B − (A ⊕ …)X), starting from
 * 0, the inner solve by back substitution (Bartels–Stewart in m indices), until the relative residual stops falling.
 * Complex eigenvalue pairs (2×2 blocks in T) make the refinement diverge; that is reported, not hidden.
 * @param A, U, T K×K row-major. @param B K^m entries row-major. @param m ≥ 1. @param tolerance on the result's relative residual (1e−8).
 * @returns X, its relative residual max|(A ⊕ …)X − B| / max|B|, and the refinement steps.
 * @throws {SolverError} if the relative residual ends above `tolerance`.
 * Source: Bartels and Stewart, CACM 15(9), 1972; Golub and Van Loan §7.6.3 (Sylvester), §3.5.3 (iterative refinement).
 */
export function solveKroneckerSumSchur(
  A: Float64Array,
  U: Float64Array,
  T: Float64Array,
  B: Float64Array,
  K: number,
  m: number,
  tolerance = 1e-8,
): { X: Float64Array; residual: number; refinements: number } {
  const Ut = new Float64Array(K * K);
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) Ut[j * K + i] = U[i * K + j];
  let scale = 0;
  for (const v of B) scale = Math.max(scale, Math.abs(v));
  if (scale === 0) return { X: new Float64Array(B.length), residual: 0, refinements: 0 };
  const X = new Float64Array(B.length);
  let r = Float64Array.from(B);
  let residual = 1;
  let steps = 0;
  for (; steps < 50; steps++) {
    const dx = applyAlongAxes(U, triangularKroneckerSolve(T, applyAlongAxes(Ut, r, K, m), K, m), K, m);
    const trial = X.map((v, k) => v + dx[k]);
    const MX = applyKroneckerSum(A, trial, K, m);
    let err = 0;
    const next = new Float64Array(B.length);
    for (let k = 0; k < B.length; k++) {
      next[k] = B[k] - MX[k];
      err = Math.max(err, Math.abs(next[k]));
    }
    if (!(err / scale < residual)) break;
    X.set(trial);
    r = next;
    residual = err / scale;
    if (residual <= 1e-14) {
      steps++;
      break;
    }
  }
  if (!(residual <= tolerance)) {
    throw new SolverError(
      `Kronecker-sum solve (${m} indices, K = ${K}): relative residual ${residual.toExponential(2)} > ${tolerance} after ${steps} refinement steps ` +
        '(the Schur form has 2×2 blocks, i.e. complex eigenvalues, or is too inexact)',
    );
  }
  return { X, residual, refinements: steps };
}
