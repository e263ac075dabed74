/**
 * Refined mean field of Gast and Van Houdt for SQ(d), exponential sizes, FIFO: E[X^(n)] = π + V/n + O(1/n²).
 * One function per equation of theory.md §6, named for its symbol (as rmf_tool's refinedRefined_fixedPoint.py):
 *   A = Df(π) (`sqdJacobian`), Q = Σ_ℓ ℓℓᵀβ_ℓ(π) (`computeQ`), AW + WAᵀ + Q = 0 (`computeW`),
 *   b_i = ½ Σ_jk ∂²f_i/∂x_j∂x_k W_jk (`sqdHessianTerm`), f⁽¹⁾ (`computeF1`, sampling without replacement),
 *   V = −A⁻¹(b + f⁽¹⁾) (`computeV`).
 * Source: theory.md §6; Gast and Van Houdt, A Refined Mean Field Approximation, POMACS 1(2), 2017; rmf_tool.
 * All in service-time units with λ = ρ; V is dimensionless (A, Q, b all scale with the service rate).
 */
import { mathjs } from '../lazy.ts';
import { InvalidModelError, SolverError } from '../errors.ts';
import { checkServers, fifoQueueLengthTwin, refuseUnknownOptions, type Sampling, type SupermarketModel } from '../model/model.ts';
import { VERSION, codeId } from '../version.ts';
import { solveSqdFixedPoint, type FixedPointResult } from './fixedPoint.ts';
import { clampToRange } from '../numerics/clamp.ts';
import { solveLyapunovTridiagonal } from '../numerics/lyapunov.ts';
import { solveDense } from '../numerics/dense.ts';
import { sqdJacobian } from './sqd.ts';
import type { Tridiagonal } from '../numerics/tridiagonal.ts';
import { requirePoissonRefined, sqdParameters } from './support.ts';

export interface RefinedCorrection {
  /** The mean-field fixed point π (its model carries λ, d, sampling). */
  fixedPoint: FixedPointResult;
  /** Length K + 1: V[0] = 0, V[i] = coefficient of 1/n in E[s_i^(n)] (for the model's sampling). */
  V: number[];
  /** ΣV = coefficient of 1/n in E[Q_n] (jobs per server). */
  sumV: number;
  /** Sampling convention V belongs to. */
  sampling: Sampling;
  diagnostics: {
    /** max|AW + WAᵀ + Q| / max|Q| (0 when d = 1). */
    lyapunovResidual: number;
    /** K used for A, Q, W, V. */
    truncationLevel: number;
  };
  provenance: { equation: string; source: string; version: string; code: string };
}

/** Relative Lyapunov residual above which `computeW` throws. */
export const LYAPUNOV_RESIDUAL_TOLERANCE = 1e-9;

/**
 * Noise matrix Q = Σ_ℓ ℓℓᵀβ_ℓ(s) of SQ(d) (theory.md §6): diagonal, Q_ii = λ(s_{i−1}^d − s_i^d) + s_i − s_{i+1}
 * (s_0 = 1, s_{K+1} = 0; arrivals at level K are lost, so they make no jump).
 * @param rho load ρ. @param d integer ≥ 1. @param s s_1..s_K (length K).
 * @returns K×K `number[][]`, per mean service time.
 */
export function computeQ(rho: number, d: number, s: ArrayLike<number>): number[][] {
  const K = s.length;
  const Q: number[][] = [];
  for (let i = 0; i < K; i++) {
    const prev = i === 0 ? 1 : s[i - 1];
    const next = i + 1 < K ? s[i + 1] : 0;
    const row = new Array<number>(K).fill(0);
    row[i] = rho * (prev ** d - s[i] ** d) + s[i] - next;
    Q.push(row);
  }
  return Q;
}

/**
 * AW + WAᵀ + Q (W symmetric: WAᵀ = (AW)ᵀ), in plain loops (the sums in mathjs `multiply`'s order, k = 0 … K − 1), so
 * the SQ(d) refinement needs no mathjs (~1–2 s of CPU to load in each worker that solves a model).
 */
function lyapunovResidualMatrix(A: number[][], W: number[][], Q: number[][]): number[][] {
  const K = A.length;
  const AW: number[][] = [];
  for (let i = 0; i < K; i++) {
    const row = new Array<number>(K);
    for (let j = 0; j < K; j++) {
      let sum = A[i][0] * W[0][j];
      for (let k = 1; k < K; k++) sum += A[i][k] * W[k][j];
      row[j] = sum;
    }
    AW.push(row);
  }
  return AW.map((row, i) => row.map((v, j) => v + AW[j][i] + Q[i][j]));
}

function maxAbs(M: number[][]): number {
  let m = 0;
  for (const row of M) for (const v of row) m = Math.max(m, Math.abs(v));
  return m;
}

/**
 * max|AW + WAᵀ + Q| / max(max|Q|, 1e−300): the relative residual of the Lyapunov equation (W symmetric).
 * @param A, W, Q K×K matrices.
 */
export function lyapunovResidual(A: number[][], W: number[][], Q: number[][]): number {
  return maxAbs(lyapunovResidualMatrix(A, W, Q)) / Math.max(maxAbs(Q), 1e-300);
}

function symmetrised(W: number[][]): number[][] {
  return W.map((row, i) => row.map((v, j) => 0.5 * (v + W[j][i])));
}

/** Bands of A if A is tridiagonal, else undefined. */
function tridiagonalBands(A: number[][]): Tridiagonal | undefined {
  const K = A.length;
  const lower = new Float64Array(K);
  const diag = new Float64Array(K);
  const upper = new Float64Array(K);
  for (let i = 0; i < K; i++) {
    for (let j = 0; j < K; j++) {
      if (Math.abs(i - j) > 1 && A[i][j] !== 0) return undefined;
    }
    diag[i] = A[i][i];
    if (i > 0) lower[i] = A[i][i - 1];
    if (i < K - 1) upper[i] = A[i][i + 1];
  }
  return { kind: 'tridiagonal', lower, diag, upper };
}

/** mathjs `lyap(A, Q)` (it solves AW + WAᵀ + Q = 0, whatever its doc's sign) plus iterative refinement. */
function lyapMathjs(A: number[][], Q: number[][]): number[][] {
  const solve = (rhs: number[][]): number[][] => {
    try {
      return symmetrised(mathjs().lyap(A, rhs) as unknown as number[][]);
    } catch (error) {
      throw new SolverError(`Lyapunov equation AW + WAᵀ + Q = 0: mathjs lyap failed (${(error as Error).message})`, {
        cause: error,
      });
    }
  };
  let W = solve(Q);
  let residual = lyapunovResidual(A, W, Q);
  for (let refinement = 0; refinement < 10 && !(residual <= 1e-14); refinement++) {
    const correction = solve(lyapunovResidualMatrix(A, W, Q));
    const trial = W.map((row, i) => row.map((v, j) => v + correction[i][j]));
    const trialResidual = lyapunovResidual(A, trial, Q);
    if (!(trialResidual < residual)) break;
    W = trial;
    residual = trialResidual;
  }
  return W;
}

/**
 * W, the covariance of the 1/√n fluctuations: solves AW + WAᵀ + Q = 0 (theory.md §6). Tridiagonal A (SQ(d)):
 * exact banded solve of the vectorised equation (`solveLyapunovTridiagonal`, O(K⁴)). Other A: mathjs
 * `lyap(A, Q)` with iterative refinement W ← W + lyap(A, R), R = AW + WAᵀ + Q, since mathjs's Schur step stops
 * at a loose 1e−4 criterion (residual ~1e−5 alone) and is slow (~0.2 s at K = 9).
 * @param A Jacobian, K×K, Hurwitz. @param Q noise matrix, K×K, symmetric.
 * @returns W, K×K `number[][]` (symmetric), with relative residual ≤ 1e−9 (checked, not assumed).
 * @throws {SolverError} if the solve fails or the relative residual max|AW + WAᵀ + Q|/max|Q| exceeds 1e−9.
 */
export function computeW(A: number[][], Q: number[][]): number[][] {
  const bands = tridiagonalBands(A);
  const W = bands ? symmetrised(solveLyapunovTridiagonal(bands, Q)) : lyapMathjs(A, Q);
  const residual = lyapunovResidual(A, W, Q);
  if (!(residual <= LYAPUNOV_RESIDUAL_TOLERANCE)) {
    throw new SolverError(`Lyapunov residual ${residual} exceeds ${LYAPUNOV_RESIDUAL_TOLERANCE} (relative to max|Q|)`);
  }
  return W;
}

/**
 * Hessian term b_i = ½ Σ_jk ∂²f_i/∂s_j∂s_k W_jk of SQ(d) (theory.md §6), which for the SQ(d) drift is
 * b_i = ½λd(d−1)[s_{i−1}^{d−2} W_{i−1,i−1}·1(i ≥ 2) − s_i^{d−2} W_ii] (zero when d = 1).
 * @param rho load ρ. @param d integer ≥ 1. @param s s_1..s_K (length K). @param W K×K.
 * @param into array of length K to fill (every entry written) instead of a new one.
 * @returns b, length K (index i − 1 is level i).
 */
export function sqdHessianTerm(rho: number, d: number, s: ArrayLike<number>, W: number[][], into?: number[]): number[] {
  const K = s.length;
  const c = 0.5 * rho * d * (d - 1);
  const b = into ?? new Array<number>(K);
  for (let i = 0; i < K; i++) {
    const down = i > 0 ? s[i - 1] ** (d - 2) * W[i - 1][i - 1] : 0;
    b[i] = c * (down - s[i] ** (d - 2) * W[i][i]);
  }
  return b;
}

/**
 * The 1/n drift correction of sampling without replacement (theory.md §6, [D]):
 * f⁽¹⁾_i = −λ·d(d−1)/2·[φ(s_{i−1}) − φ(s_i)], φ(s) = s^{d−1} − s^d, s_0 = 1.
 * @param rho load ρ. @param d integer ≥ 1. @param s s_1..s_K (length K).
 * @param into array of length K to fill (every entry written) instead of a new one. @returns length K.
 */
export function computeF1(rho: number, d: number, s: ArrayLike<number>, into?: number[]): number[] {
  const phi = (x: number) => x ** (d - 1) - x ** d;
  const c = (-rho * d * (d - 1)) / 2;
  const out = into ?? new Array<number>(s.length);
  for (let i = 0; i < s.length; i++) out[i] = c * (phi(i === 0 ? 1 : s[i - 1]) - phi(s[i]));
  return out;
}

/**
 * V = −A⁻¹(b + f⁽¹⁾): the 1/n coefficient of E[s^(n)] (theory.md §6); pass f1 only for sampling without
 * replacement (V_without = V_with − A⁻¹f⁽¹⁾). Solved by LU with partial pivoting (numerics/dense.ts `solveDense`).
 * @param A K×K. @param b length K. @param f1 optional, length K. @returns V for levels 1..K, length K.
 * @throws {SolverError} if A is singular.
 */
export function computeV(A: number[][], b: number[], f1?: number[]): number[] {
  const rhs = b.map((v, i) => -(v + (f1 ? f1[i] : 0)));
  return solveDense(A, rhs, 'V = −A⁻¹b: the Jacobian A');
}

/**
 * The fixed point and truncation level K a refinement of `model` (first or second order) runs on.
 * @param options `fixedPoint` (default `solveSqdFixedPoint(model)`; must be for the same λ, d and service mean),
 *   `truncationLevel` K (default: the fixed point's).
 * @throws {InvalidModelError} if `fixedPoint` is of another model, or K is not an integer ≥ 1.
 */
export function refinementBase(
  model: SupermarketModel,
  options: { fixedPoint?: FixedPointResult; truncationLevel?: number },
): { fixedPoint: FixedPointResult; K: number } {
  const d = model.d;
  const fixedPoint = options.fixedPoint ?? solveSqdFixedPoint(model);
  const fpModel = fixedPoint.provenance.model;
  if (fpModel.lambda !== model.lambda || fpModel.d !== d || fpModel.service.mean !== model.service.mean) {
    throw new InvalidModelError(`fixedPoint is for λ = ${fpModel.lambda}, d = ${fpModel.d}, not the model's λ = ${model.lambda}, d = ${d}`);
  }
  const K = options.truncationLevel ?? fixedPoint.truncationLevel;
  if (!Number.isInteger(K) || K < 1) throw new InvalidModelError(`truncationLevel must be an integer ≥ 1, got ${K}`);
  return { fixedPoint, K };
}

const FIRST_ORDER_PROVENANCE = {
  equation: 'E[X^(n)] = pi + V/n; A = Df(pi), AW + WA^T + Q = 0, b_i = 1/2 sum_jk d2f_i/dx_j dx_k W_jk, V = -A^{-1}(b + f1)',
  source: 'theory.md §6; Gast and Van Houdt, A Refined Mean Field Approximation, POMACS 1(2), 2017; rmf_tool',
  version: VERSION,
};

/**
 * Refined mean-field correction V for SQ(d), exponential sizes, FIFO, for the model's sampling convention.
 * Uses π from `fixedPoint` (default `solveSqdFixedPoint(model)`, tail tolerance 1e−15: K ≈ 9 at d = 2, ρ = 0.9;
 * V converges fast in K), truncated or zero-padded to `truncationLevel` if given. d = 1: V = 0 exactly (linear
 * drift), no matrices are built. Service mean ≠ 1: V depends on ρ only.
 * Source: theory.md §6; Gast and Van Houdt, POMACS 1(2), 2017 (V = −A⁻¹b); rmf_tool.
 * @param given supported SQ(d) model, or PS or LAS with exponential sizes under JSQ(d) (run on its FIFO twin,
 *   `fifoQueueLengthTwin`: the same queue-length process, so V, ΣV and E[T_n] by Little are its own; the returned
 *   fixed point is the twin's); `sampling` picks V_with or V_without.
 * @param options `fixedPoint` (must be for the same model), `truncationLevel` K (integer ≥ 1).
 * @returns `V` (length K + 1, V[0] = 0), `sumV` (1/n coefficient of E[Q], jobs per server), `fixedPoint`,
 *   `sampling`, `diagnostics` { lyapunovResidual, truncationLevel }.
 * @throws {InvalidModelError} on unsupported models, a fixed point of another model, or a bad K.
 * @throws {SolverError} if the Lyapunov residual exceeds 1e−9 or A is singular.
 * @example refine(parseModel({ lambda: 0.9, d: 2 })).sumV // ≈ 3.9864
 */
export function refine(
  given: SupermarketModel,
  options: { fixedPoint?: FixedPointResult; truncationLevel?: number } = {},
): RefinedCorrection {
  refuseUnknownOptions('refine', options, { fixedPoint: true, truncationLevel: true } satisfies Record<keyof typeof options, true>);
  const model = fifoQueueLengthTwin(given) ?? given; // PS/LAS with exponential sizes: FIFO's queue lengths
  const { rho, d } = sqdParameters(model);
  requirePoissonRefined(model, 'the refined 1/n term');
  const { fixedPoint, K } = refinementBase(model, options);
  const provenance = { ...FIRST_ORDER_PROVENANCE, code: codeId() };
  if (d === 1) {
    return {
      fixedPoint,
      V: new Array<number>(K + 1).fill(0),
      sumV: 0,
      sampling: model.sampling,
      diagnostics: { lyapunovResidual: 0, truncationLevel: K },
      provenance,
    };
  }
  const s = Array.from({ length: K }, (_, i) => fixedPoint.tail[i + 1] ?? 0);
  const A = sqdJacobian(rho, d, s);
  const Q = computeQ(rho, d, s);
  const W = computeW(A, Q);
  const b = sqdHessianTerm(rho, d, s, W);
  const f1 = model.sampling === 'without-replacement' ? computeF1(rho, d, s) : undefined;
  const V = [0, ...computeV(A, b, f1)];
  let sumV = 0;
  for (let i = K; i >= 1; i--) sumV += V[i];
  return {
    fixedPoint,
    V,
    sumV,
    sampling: model.sampling,
    diagnostics: { lyapunovResidual: lyapunovResidual(A, W, Q), truncationLevel: K },
    provenance,
  };
}

/**
 * The order-1 trusted range: |term|/(n·|limit|) ≤ FIRST_ORDER_RANGE, the 1/n term at most 5 % of the mean-field limit
 * it corrects (ΣV/(nΣπ) for E[Q], the same ratio for E[T]). The expansion x∞ + V/n is asymptotic: beyond a few % of
 * the limit the O(1/n²) remainder is no longer small (at λ = 0.9999, d = 2, n = 100 the 1/n term is 4.2 × the limit and
 * s_i + V_i/n leaves [0, 1]). The same bound decides where compare judges a cell ("refined out of range",
 * compare/verdict.ts `MAX_RELATIVE_CORRECTION`). theory.md §6 "Limits".
 */
export const FIRST_ORDER_RANGE = 0.05;

/** Whether an order-1 refined value is trusted at n (`firstOrderTrust`). */
export interface FirstOrderTrust {
  readonly trusted: boolean;
  /** |term|/(n·|limit|): the 1/n term against the limit (∞ when the limit is 0 and the term is not). */
  readonly ratio: number;
  /** The least n whose ratio is within `FIRST_ORDER_RANGE` (∞ when the limit is 0 and the term is not). */
  readonly fromN: number;
  /** One line when not trusted, else null. */
  readonly caveat: string | null;
}

/**
 * Whether the first-order refined value limit + term/n is trusted at n (`FIRST_ORDER_RANGE`), with a one-line caveat
 * when it is not: the one rule of every command and view that prints a refined value (fixed-point, ode, model, the
 * explorer). The caveat speaks of the expansion about the mean-field limit, not of any simulation.
 * @param term the 1/n coefficient (ΣV, c₁ = ΣV/λ, ΣV(t), an observable's c). @param limit the mean-field value it
 *   corrects (Σπ, E[T]∞, E[Q](t), g(π)), in the unit of `term`. @param n servers (or population size).
 * @param where what follows "at" in the caveat (default `n = ${n}`, e.g. `n = 10, t = 40` for a transient).
 * @example firstOrderTrust(48.65, 5.378, 10).caveat // "order 1 is outside its trusted range at n = 10: the 1/n term is 90.5 % of the limit …"
 */
export function firstOrderTrust(term: number, limit: number, n: number, where = `n = ${n}`): FirstOrderTrust {
  const size = Math.abs(term);
  const base = Math.abs(limit);
  const ratio = size === 0 ? 0 : base === 0 ? Number.POSITIVE_INFINITY : size / (n * base);
  const fromN = size === 0 ? 1 : base === 0 ? Number.POSITIVE_INFINITY : Math.ceil(size / (FIRST_ORDER_RANGE * base) - 1e-9);
  const trusted = ratio <= FIRST_ORDER_RANGE;
  const percent = `${100 * FIRST_ORDER_RANGE} %`;
  return {
    trusted,
    ratio,
    fromN,
    caveat: trusted
      ? null
      : `order 1 is outside its trusted range at ${where}: ` +
        (Number.isFinite(ratio)
          ? `the 1/n term is ${(100 * ratio).toPrecision(3)} % of the limit; the expansion about the mean-field limit is ` +
            `trusted while it is ≤ ${percent} (here from n = ${fromN}; theory.md §6)`
          : `the limit is 0, so the 1/n term is not small against it at any n; the expansion about the mean-field limit ` +
            `is trusted while it is ≤ ${percent} of it (theory.md §6)`),
  };
}

/**
 * The order-2 trusted range: |ΣA|/(n·|ΣV|) ≤ SECOND_ORDER_RANGE, the 1/n² term at most half the 1/n term. Chosen
 * against the exact n-server chain (`solveExact`; scripts/second-order-range.ts) over d ∈ {2, 3}, λ ∈ {0.5 … 0.95},
 * n = 2 … 5 (… 10 at λ ≤ 0.7, d = 2): at every grid point with ratio ≤ 0.5, order 2 had at most 0.47× the error of order 1; between 0.5
 * and 0.85 it still helped, less (0.51–0.69×); at 1.27 (d = 2, λ = 0.95, n = 2) and 1.67 (d = 3, λ = 0.95, n = 3:
 * order 2 10.97 against an exact 7.64, order 1 5.70) it was worse than order 1. theory.md §6 "Limits".
 */
export const SECOND_ORDER_RANGE = 0.5;

/** |ΣA|/(n·|ΣV|): the size of the 1/n² term against the 1/n term at n (∞ when ΣV = 0 and ΣA ≠ 0; 0 when both vanish). */
export function secondOrderRatio(sumA: number, sumV: number, n: number): number {
  if (sumA === 0) return 0;
  return sumV === 0 ? Number.POSITIVE_INFINITY : Math.abs(sumA) / (n * Math.abs(sumV));
}

/**
 * Whether the order-2 estimate is trusted at n (`SECOND_ORDER_RANGE`), and a one-line caveat when it is not.
 * @param correction ΣA and ΣV of the model. @param n servers.
 */
export function secondOrderTrust(
  correction: { readonly sumA: number; readonly sumV: number },
  n: number,
): { readonly trusted: boolean; readonly ratio: number; readonly caveat: string | null } {
  const ratio = secondOrderRatio(correction.sumA, correction.sumV, n);
  const trusted = ratio <= SECOND_ORDER_RANGE;
  return {
    trusted,
    ratio,
    caveat: trusted
      ? null
      : `order 2 is outside its trusted range at n = ${n}: |ΣA|/(n|ΣV|) = ${ratio.toPrecision(3)} > ${SECOND_ORDER_RANGE} ` +
        '(the 1/n² term is not small against the 1/n term; against the exact chain order 2 can be worse than order 1 there, theory.md §6)',
  };
}

/** A refined estimate at n (`refinedEstimate`) and whether n lies in its order's trusted range. */
export interface RefinedEstimate {
  /** E[Q_n], jobs per server. */
  meanQueueLength: number;
  /** E[T_n] = E[Q_n]/λ, model time units. */
  meanResponseTime: number;
  /** s_0..s_K, projected onto [0, 1]. */
  tail: number[];
  /**
   * n is in the trusted range of the expansion's order: order 1 `firstOrderTrust` (|ΣV|/(nΣπ) ≤ 5 %), order 2 (A given)
   * `secondOrderTrust` (|ΣA|/(n|ΣV|) ≤ SECOND_ORDER_RANGE). Outside it the value is no estimate to rely on.
   */
  trusted: boolean;
  /** One line saying why when not trusted, else null. */
  caveat: string | null;
}

/**
 * Refined estimates at n servers: E[Q_n] ≈ Σπ + ΣV/n, E[T_n] = E[Q_n]/λ (Little, exact), s_i ≈ π_i + V_i/n; with a
 * second-order correction (`secondOrderRefine`: A and ΣA) the 1/n² terms ΣA/n² and A_i/n² are added too.
 * Source: theory.md §6. Trust only where ΣV/n is a few % of Σπ (`firstOrderTrust`; and ΣA/n² ≪ ΣV/n) (theory.md §6 "Limits").
 * @param correction from `refine` (or `secondOrderRefine`). @param n number of servers, integer ≥ max(1, d).
 * @returns `meanQueueLength` (jobs per server), `meanResponseTime` (model time units),
 *   `tail` s_0..s_K (length K + 1, tail[0] = 1), projected onto [0, 1] (the expansion may leave it at small n;
 *   `meanQueueLength` is the unprojected expansion's own sum); `trusted` and `caveat`: whether n is in the trusted range
 *   of the order computed (`firstOrderTrust`, or `secondOrderTrust` with A), so a value outside it says so.
 * @throws {InvalidModelError} if n is not an integer ≥ 1 or d > n.
 * @example refinedEstimate(refine(parseModel({ lambda: 0.9, d: 2 })), 10).meanQueueLength // ≈ 2.7513
 */
export function refinedEstimate(
  correction: Pick<RefinedCorrection, 'V' | 'sumV'> & {
    fixedPoint: Pick<FixedPointResult, 'tail' | 'meanQueueLength'> & { provenance: { model: SupermarketModel } };
    A?: number[];
    sumA?: number;
  },
  n: number,
): RefinedEstimate {
  const { fixedPoint, V, sumV, A, sumA } = correction;
  const model = fixedPoint.provenance.model;
  const servers = checkServers(model, n);
  let meanQueueLength = fixedPoint.meanQueueLength + sumV / servers;
  if (sumA !== undefined) meanQueueLength += sumA / servers ** 2;
  const tail = V.map((v, i) => {
    const first = (fixedPoint.tail[i] ?? 0) + v / servers;
    return A === undefined ? first : first + A[i] / servers ** 2;
  });
  clampToRange(tail);
  const trust = sumA === undefined ? firstOrderTrust(sumV, fixedPoint.meanQueueLength, servers) : secondOrderTrust({ sumA, sumV }, servers);
  return { meanQueueLength, meanResponseTime: meanQueueLength / model.lambda, tail, trusted: trust.trusted, caveat: trust.caveat };
}
