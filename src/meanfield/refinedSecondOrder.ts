/**
 * The 1/n² term of the refined mean field for SQ(d), exponential sizes, FIFO, sampling with replacement:
 * E[X^(n)] = π + V/n + A/n² + o(1/n²), one function per equation of Gast, Bortolussi and Tribastone,
 * "Size expansions of mean field approximation: transient and steady-state analysis", Perf. Eval. 2019 (§ steady
 * state; the same equations as rmf_tool's refinedRefined_fixedPoint.py, computeD/C/B/A):
 *   D:  (F'⊕F'⊕F'⊕F') D = −6 sym(W ⊗ Q)
 *   C:  (F'⊕F'⊕F') C = −(3/2 sym(F''·D) + 3 sym(Q ⊗ V) + 3 sym(Q'·W) + R)
 *   B:  F'B + BF'ᵀ = −(sym(F''·C) + sym(F'''·D)/3 + sym(Q'·V) + sym(Q''·W)/2)
 *   A = −F'⁻¹ (F''·B/2 + F'''·C/6 + F''''·D/24)
 * with F', …, F'''' the derivatives of the drift at π, Q = Σ_ℓ ℓℓᵀβ_ℓ, Q', Q'' its derivatives, R = Σ_ℓ ℓ⊗ℓ⊗ℓ β_ℓ,
 * W and V as in ./refined.ts, "·" contracting the derivative indices, sym the average over index permutations.
 * SQ(d) structure used: f_i = λ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}) depends on s_{i−1}, s_i through one-variable
 * powers, so every derivative of order ≥ 2 is "diagonal" (∂^m f_i/∂s_j^m, j ∈ {i − 1, i}); Q, R are diagonal.
 * Source: theory.md §6; Gast, Bortolussi, Tribastone, Perf. Eval. 2019; rmf_tool.
 */
import { InvalidModelError, SolverError } from '../errors.ts';
import { fifoQueueLengthTwin, type SupermarketModel } from '../model/model.ts';
import { VERSION, codeId } from '../version.ts';
import { solveKroneckerSum, tridiagonalEigenbasis, type TridiagonalEigenbasis } from '../numerics/kroneckerSum.ts';
import type { FixedPointResult } from './fixedPoint.ts';
import { computeQ, computeV, computeW, refinedEstimate, refinementBase, sqdHessianTerm, type RefinedEstimate } from './refined.ts';
import { sqdJacobian, sqdJacobianBands } from './sqd.ts';
import { requirePoissonRefined, sqdParameters } from './support.ts';

export interface SecondOrderCorrection {
  fixedPoint: FixedPointResult;
  /** Length K + 1, V[0] = 0: the 1/n coefficient of E[s_i^(n)]. */
  V: number[];
  /** Length K + 1, A[0] = 0: the 1/n² coefficient of E[s_i^(n)] (the paper's A). */
  A: number[];
  /** ΣV: 1/n coefficient of E[Q_n] (jobs per server). */
  sumV: number;
  /** ΣA = c₂ of E[Q_n] ≈ Σπ + ΣV/n + ΣA/n² (jobs per server); c₂ of E[T_n] is ΣA/λ. */
  sumA: number;
  diagnostics: {
    truncationLevel: number;
    /** Relative residuals of the D, C and B equations (max |lhs − rhs| / max |rhs|). */
    residuals: { D: number; C: number; B: number };
  };
  provenance: { equation: string; source: string; version: string; code: string };
}

const SECOND_ORDER_PROVENANCE = {
  equation: 'E[X^(n)] = pi + V/n + A/n^2; D, C, B, A of Gast-Bortolussi-Tribastone 2019 (steady state)',
  source: 'theory.md §6; Gast, Bortolussi, Tribastone, Perf. Eval. 2019; rmf_tool refinedRefined_fixedPoint.py',
  version: VERSION,
};

/** Relative residual above which the D, C, B solves throw. */
const KRONECKER_RESIDUAL_TOLERANCE = 1e-8;

/** Falling factorial d(d−1)…(d−m+1) times x^(d−m), 0 when the coefficient is 0 (no 0^negative). */
function powerDerivative(x: number, d: number, m: number): number {
  let c = 1;
  for (let k = 0; k < m; k++) c *= d - k;
  return c === 0 ? 0 : c * x ** (d - m);
}

/** sym: average of the m-index tensor over all m! permutations of its indices (K^m, row-major). */
export function symmetrise(T: Float64Array, K: number, m: number): Float64Array {
  const perms: number[][] = [];
  const build = (prefix: number[]): void => {
    if (prefix.length === m) perms.push(prefix);
    else for (let a = 0; a < m; a++) if (!prefix.includes(a)) build([...prefix, a]);
  };
  build([]);
  const strides = Array.from({ length: m }, (_, a) => K ** (m - 1 - a));
  const out = new Float64Array(T.length);
  const idx = new Int32Array(m);
  for (let flat = 0; flat < T.length; flat++) {
    let acc = 0;
    for (const p of perms) {
      let f = 0;
      for (let a = 0; a < m; a++) f += idx[p[a]] * strides[a];
      acc += T[f];
    }
    out[flat] = acc / perms.length;
    for (let a = m - 1; a >= 0; a--) {
      if (++idx[a] < K) break;
      idx[a] = 0;
    }
  }
  return out;
}

/** The SQ(d) derivative data at s (length K): diagonal derivatives of f, of Q_ii, and R_iii. */
interface SqdDerivatives {
  K: number;
  /** fm[m][i][c]: ∂^m f_i/∂s_j^m for j = i − 1 (c = 0, zero when i = 0) and j = i (c = 1); m = 2, 3, 4. */
  f: Record<2 | 3 | 4, Float64Array[]>;
  /** q1[i][c]: ∂Q_ii/∂s_j for j = i − 1, i, i + 1 (c = 0, 1, 2). */
  q1: Float64Array[];
  /** q2[i][c]: ∂²Q_ii/∂s_j² for j = i − 1, i (c = 0, 1). */
  q2: Float64Array[];
  /** Q_ii. */
  q: Float64Array;
  /** R_iii = Σ_ℓ ℓ_i³ β_ℓ = λ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}). */
  r: Float64Array;
}

function sqdDerivatives(lambda: number, d: number, s: ArrayLike<number>): SqdDerivatives {
  const K = s.length;
  const prev = (i: number) => (i === 0 ? 1 : s[i - 1]);
  const next = (i: number) => (i + 1 < K ? s[i + 1] : 0);
  const f = { 2: [] as Float64Array[], 3: [] as Float64Array[], 4: [] as Float64Array[] };
  for (const m of [2, 3, 4] as const) {
    for (let i = 0; i < K; i++) {
      f[m].push(Float64Array.of(i > 0 ? lambda * powerDerivative(prev(i), d, m) : 0, -lambda * powerDerivative(s[i], d, m)));
    }
  }
  const q1: Float64Array[] = [];
  const q2: Float64Array[] = [];
  const q = new Float64Array(K);
  const r = new Float64Array(K);
  for (let i = 0; i < K; i++) {
    q1.push(Float64Array.of(i > 0 ? lambda * d * prev(i) ** (d - 1) : 0, -lambda * d * s[i] ** (d - 1) + 1, i + 1 < K ? -1 : 0));
    q2.push(Float64Array.of(i > 0 ? lambda * powerDerivative(prev(i), d, 2) : 0, -lambda * powerDerivative(s[i], d, 2)));
    const up = lambda * (prev(i) ** d - s[i] ** d);
    const down = s[i] - next(i);
    q[i] = up + down;
    r[i] = up - down;
  }
  return { K, f, q1, q2, q, r };
}

/** Σ_j f^(m)[i][j] X[j, …, j (m times), rest]: contracts the m derivative indices of the diagonal F^(m) with X. */
function contractDiagonal(der: Float64Array[], X: Float64Array, K: number, xOrder: number, m: number): Float64Array {
  const restOrder = xOrder - m;
  const restSize = K ** restOrder;
  const out = new Float64Array(K * restSize);
  // offset of X[j, …, j (m times), rest]
  let diagStride = 0;
  for (let a = 0; a < m; a++) diagStride += K ** (xOrder - 1 - a);
  for (let i = 0; i < K; i++) {
    for (let c = 0; c < 2; c++) {
      const j = i - 1 + c;
      const v = der[i][c];
      if (j < 0 || v === 0) continue;
      const base = j * diagStride;
      for (let rest = 0; rest < restSize; rest++) out[i * restSize + rest] += v * X[base + rest];
    }
  }
  return out;
}

/** lhs − rhs of Σ_axes F'·X = rhs, and max|lhs − rhs| / max|rhs|. */
function kroneckerResidual(bands: ReturnType<typeof sqdJacobianBands>, X: Float64Array, rhs: Float64Array, K: number, m: number) {
  let maxErr = 0;
  let maxRhs = 0;
  const r = new Float64Array(X.length);
  const idx = new Int32Array(m);
  const strides = Array.from({ length: m }, (_, a) => K ** (m - 1 - a));
  for (let flat = 0; flat < X.length; flat++) {
    let acc = 0;
    for (let a = 0; a < m; a++) {
      const i = idx[a];
      const st = strides[a];
      acc += bands.diag[i] * X[flat];
      if (i > 0) acc += bands.lower[i] * X[flat - st];
      if (i + 1 < K) acc += bands.upper[i] * X[flat + st];
    }
    r[flat] = acc - rhs[flat];
    maxErr = Math.max(maxErr, Math.abs(r[flat]));
    maxRhs = Math.max(maxRhs, Math.abs(rhs[flat]));
    for (let a = m - 1; a >= 0; a--) {
      if (++idx[a] < K) break;
      idx[a] = 0;
    }
  }
  return { r, relative: maxErr / Math.max(maxRhs, 1e-300) };
}

/** Eigenbasis solve plus iterative refinement X ← X − solve(lhs − rhs) (the basis is ill-conditioned at large K). */
function solveChecked(
  basis: TridiagonalEigenbasis,
  bands: ReturnType<typeof sqdJacobianBands>,
  rhs: Float64Array,
  m: number,
  name: string,
) {
  const X = solveKroneckerSum(basis, rhs, m);
  let { r, relative } = kroneckerResidual(bands, X, rhs, basis.K, m);
  for (let step = 0; step < 20 && !(relative <= 1e-13); step++) {
    const dx = solveKroneckerSum(basis, r, m);
    const trial = X.map((v, k) => v - dx[k]);
    const next = kroneckerResidual(bands, trial, rhs, basis.K, m);
    if (!(next.relative < relative)) break;
    X.set(trial);
    ({ r, relative } = next);
  }
  if (!(relative <= KRONECKER_RESIDUAL_TOLERANCE)) {
    throw new SolverError(
      `1/n² term: the ${name} equation has relative residual ${relative.toExponential(2)} > ${KRONECKER_RESIDUAL_TOLERANCE}`,
    );
  }
  return { X, residual: relative };
}

/**
 * D: (F'⊕F'⊕F'⊕F') D = −6 sym(W ⊗ Q), Q diagonal. @returns K⁴ tensor (row-major) and residual.
 */
export function computeD(basis: TridiagonalEigenbasis, bands: ReturnType<typeof sqdJacobianBands>, W: number[][], q: Float64Array) {
  const K = q.length;
  const WQ = new Float64Array(K ** 4);
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) for (let k = 0; k < K; k++) WQ[((i * K + j) * K + k) * K + k] = W[i][j] * q[k];
  const rhs = symmetrise(WQ, K, 4).map((x) => -6 * x);
  return solveChecked(basis, bands, rhs, 4, 'D');
}

/** What the C and B equations read: the eigenbasis and bands of F', the drift and Q derivatives, W and V. */
export interface SecondOrderSystem {
  readonly basis: TridiagonalEigenbasis;
  readonly bands: ReturnType<typeof sqdJacobianBands>;
  readonly der: SqdDerivatives;
  readonly W: number[][];
  readonly V: number[];
}

/** Σ_c coef[c]·x(i − 1 + c) over the band c = 0, 1, … of row i, for indices i − 1 + c in [0, K). */
function bandSum(coef: Float64Array, i: number, K: number, x: (k: number) => number): number {
  let acc = 0;
  for (let c = 0; c < coef.length; c++) {
    const k = i - 1 + c;
    if (k >= 0 && k < K) acc += coef[c] * x(k);
  }
  return acc;
}

/** C: (F'⊕F'⊕F') C = −(3/2 sym(F''·D) + 3 sym(Q ⊗ V) + 3 sym(Q'·W) + R). @returns K³ tensor and residual. */
export function computeC(sys: SecondOrderSystem, D: Float64Array) {
  const { der, W, V } = sys;
  const K = der.K;
  const FppD = contractDiagonal(der.f[2], D, K, 4, 2);
  const QV = new Float64Array(K ** 3);
  const QpW = new Float64Array(K ** 3);
  const R = new Float64Array(K ** 3);
  for (let i = 0; i < K; i++) {
    for (let k = 0; k < K; k++) QV[(i * K + i) * K + k] = der.q[i] * V[k];
    for (let m = 0; m < K; m++) QpW[(i * K + i) * K + m] = bandSum(der.q1[i], i, K, (k) => W[k][m]);
    R[(i * K + i) * K + i] = der.r[i];
  }
  const a = symmetrise(FppD, K, 3);
  const b = symmetrise(QV, K, 3);
  const c = symmetrise(QpW, K, 3);
  const rhs = new Float64Array(K ** 3);
  for (let x = 0; x < rhs.length; x++) rhs[x] = -(1.5 * a[x] + 3 * b[x] + 3 * c[x] + R[x]);
  return solveChecked(sys.basis, sys.bands, rhs, 3, 'C');
}

/** B: F'B + BF'ᵀ = −(sym(F''·C) + sym(F'''·D)/3 + sym(Q'·V) + sym(Q''·W)/2). @returns K² (row-major) and residual. */
export function computeB(sys: SecondOrderSystem, C: Float64Array, D: Float64Array) {
  const { der, W, V } = sys;
  const K = der.K;
  const FppC = contractDiagonal(der.f[2], C, K, 3, 2);
  const FpppD = contractDiagonal(der.f[3], D, K, 4, 3);
  const rest = new Float64Array(K * K);
  for (let i = 0; i < K; i++) {
    const qpv = bandSum(der.q1[i], i, K, (k) => V[k]);
    const qppw = bandSum(der.q2[i], i, K, (k) => W[k][k]);
    rest[i * K + i] = qpv + qppw / 2;
  }
  const a = symmetrise(FppC, K, 2);
  const b = symmetrise(FpppD, K, 2);
  const rhs = new Float64Array(K * K);
  for (let x = 0; x < rhs.length; x++) rhs[x] = -(a[x] + b[x] / 3 + rest[x]);
  return solveChecked(sys.basis, sys.bands, rhs, 2, 'B');
}

/** A = −F'⁻¹ (F''·B/2 + F'''·C/6 + F''''·D/24). @returns length K. */
export function computeA(Fp: number[][], der: SqdDerivatives, B: Float64Array, C: Float64Array, D: Float64Array): number[] {
  const K = der.K;
  const b2 = contractDiagonal(der.f[2], B, K, 2, 2);
  const b3 = contractDiagonal(der.f[3], C, K, 3, 3);
  const b4 = contractDiagonal(der.f[4], D, K, 4, 4);
  const rhs = Array.from({ length: K }, (_, i) => b2[i] / 2 + b3[i] / 6 + b4[i] / 24);
  return computeV(Fp, rhs);
}

/** Largest d at which the 1/n² term of the unbuffered model is shown to help at n one can simulate (theory.md §6). */
export const SECOND_ORDER_MAX_D = 3;

/**
 * Why the 1/n² term is refused at this d, or undefined. The equations check out in several dimensions: JSQ(d) with a
 * buffer of 2 or 3 jobs, whose exact chains reach n = 120–320, extrapolates to the equations' c₂ within 0.03 % (d = 4,
 * K = 2), 0.6 % (d = 5, K = 2) and 1 % (d = 4, λ = 0.8, K = 3, n ≤ 160; the unbuffered c₂ is 0.6 % away)
 * (scripts/second-order-buffer-check.ts). But from d = 4 it hinges on levels the mean field leaves almost empty:
 * at d = 4, λ = 0.9, capping queues at 3 jobs (π₄ = 1.3·10⁻⁴) moves ΣA from −1.20 to −119, while a finite system fills
 * those levels far above π (exact chain, n = 5: s₄ = 0.28); long simulations at n = 10–100 fit c₂ = 8.2 ± 1.0. At
 * d = 4, λ = 0.8 the exact chains do head for ΣA (n²(E[Q]_n − first order) = 3.3, 4.1, 4.4 at n = 20, 40, 60 against
 * 5.62) and order 2 helps from n ≈ 20; at λ = 0.9 they run past ΣA by n = 60 and are not settled, and no rule yet
 * tells the two cases apart. d ≤ 3 is checked at finite n (d = 2 by the exact chains, d = 3, λ = 0.95, n = 20 by a
 * long simulation, 1 %).
 */
export function secondOrderUnverified(d: number): string | undefined {
  if (d <= SECOND_ORDER_MAX_D) return undefined;
  return (
    `the 1/n² term is refused at d = ${d} > ${SECOND_ORDER_MAX_D}: its equations check out on buffered JSQ(d), but from d = 4 ` +
    `ΣA hinges on queue levels the mean field leaves almost empty, so at which n it starts to help is not known (theory.md §6 ` +
    `"Limits" gives the measurements); the 1/n term is unaffected`
  );
}

/**
 * 1/n and 1/n² coefficients of E[s^(n)] and E[Q_n] for SQ(d), exponential sizes, FIFO, sampling with replacement.
 * @param given JSQ(d) model with `sampling` 'with-replacement', FIFO, or PS or LAS with exponential sizes (run on its
 *   FIFO twin, `fifoQueueLengthTwin`, as `refine`). @param options `fixedPoint` (same model),
 *   `truncationLevel` K (default: the fixed point's; the cost is O(K⁵), K ≈ 9 at d = 2, ρ = 0.9).
 * @returns `V`, `A` (length K + 1, index 0 = 0), `sumV`, `sumA`, `diagnostics` { truncationLevel, residuals }.
 * @throws {InvalidModelError} unsupported model, sampling without replacement (its drift depends on n; not done), d > 3
 *   (`secondOrderUnverified`: right coefficient, unknown range), a fixed point of another model, or a bad K.
 * @throws {SolverError} if a Lyapunov or Kronecker-sum residual is too large.
 * @example refineSecondOrder(parseModel({ lambda: 0.95, d: 3 })).sumA // c₂ of E[Q_n]
 */
export function refineSecondOrder(
  given: SupermarketModel,
  options: { fixedPoint?: FixedPointResult; truncationLevel?: number } = {},
): SecondOrderCorrection {
  const model = fifoQueueLengthTwin(given) ?? given; // PS/LAS with exponential sizes: FIFO's queue lengths
  const { rho, d } = sqdParameters(model);
  requirePoissonRefined(model, 'the 1/n² term');
  if (model.sampling !== 'with-replacement') {
    throw new InvalidModelError(
      'the 1/n² term is implemented for sampling with replacement only (without replacement the drift itself depends on n)',
    );
  }
  const unverified = secondOrderUnverified(d);
  if (unverified !== undefined) throw new InvalidModelError(unverified);
  const { fixedPoint, K } = refinementBase(model, options);
  const provenance = { ...SECOND_ORDER_PROVENANCE, code: codeId() };
  if (d === 1) {
    const zeros = new Array<number>(K + 1).fill(0);
    return {
      fixedPoint,
      V: zeros,
      A: [...zeros],
      sumV: 0,
      sumA: 0,
      diagnostics: { truncationLevel: K, residuals: { D: 0, C: 0, B: 0 } },
      provenance,
    };
  }
  const s = Array.from({ length: K }, (_, i) => fixedPoint.tail[i + 1] ?? 0);
  const Fp = sqdJacobian(rho, d, s);
  const bands = sqdJacobianBands(rho, d, s);
  const W = computeW(Fp, computeQ(rho, d, s));
  const V = computeV(Fp, sqdHessianTerm(rho, d, s, W));
  const der = sqdDerivatives(rho, d, s);
  const basis = tridiagonalEigenbasis(bands);
  const D = computeD(basis, bands, W, der.q);
  const system: SecondOrderSystem = { basis, bands, der, W, V };
  const C = computeC(system, D.X);
  const B = computeB(system, C.X, D.X);
  const A = computeA(Fp, der, B.X, C.X, D.X);
  const sum = (x: number[]) => x.reduceRight((acc, v) => acc + v, 0);
  return {
    fixedPoint,
    V: [0, ...V],
    A: [0, ...A],
    sumV: sum(V),
    sumA: sum(A),
    diagnostics: { truncationLevel: K, residuals: { D: D.residual, C: C.residual, B: B.residual } },
    provenance,
  };
}

/**
 * Second-order estimates at n: E[Q_n] ≈ Σπ + ΣV/n + ΣA/n², E[T_n] = E[Q_n]/λ, s_i ≈ π_i + V_i/n + A_i/n² (the tail
 * projected onto [0, 1]); `refinedEstimate` with the 1/n² terms. Trust only where ΣA/n² ≪ ΣV/n (theory.md §6 "Limits").
 * @throws {InvalidModelError} if n is not an integer ≥ 1 or d > n.
 */
export function secondOrderEstimate(correction: SecondOrderCorrection, n: number): RefinedEstimate {
  return refinedEstimate(correction, n);
}

// the order-2 trusted range lives beside refinedEstimate, which reports it (refined.ts); kept importable from here
export { SECOND_ORDER_RANGE, secondOrderRatio, secondOrderTrust } from './refined.ts';
