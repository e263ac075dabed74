/**
 * The 1/n² term of the refined mean field of a population model: E[X^(n)] = π + V/n + A/n² + o(1/n²), with the
 * equations of Gast, Bortolussi and Tribastone, "Size expansions of mean field approximation: transient and
 * steady-state analysis", Perf. Eval. 2019 (steady state; rmf_tool's refinedRefined_fixedPoint.py):
 *   D:  (F'⊕F'⊕F'⊕F') D = −6 sym(W ⊗ Q)
 *   C:  (F'⊕F'⊕F') C = −(3/2 sym(F''·D) + 3 sym(Q ⊗ V) + 3 sym(Q'·W) + R)
 *   B:  F'B + BF'ᵀ = −(sym(F''·C) + sym(F'''·D)/3 + sym(Q'·V) + sym(Q''·W)/2)
 *   A = −F'⁻¹ (F''·B/2 + F'''·C/6 + F''''·D/24)
 * where E[(X − π)^⊗2] = W/n + B/n², E[(X − π)^⊗3] = C/n², E[(X − π)^⊗4] = D/n² + o(1/n²). Every tensor is built from
 * the transitions (F^(m) = Σ_ℓ ℓ ∂^mβ_ℓ, Q^(m) = Σ_ℓ ℓℓᵀ ∂^mβ_ℓ, R = Σ_ℓ ℓ⊗ℓ⊗ℓ β_ℓ) with symbolic rate derivatives up
 * to the fourth; the Kronecker-sum equations are solved in an orthogonal Schur basis of F' (mathjs `schur`, refined
 * against the exact residual, numerics/kroneckerSum.ts). This is the generic route; ../refinedSecondOrder.ts is the
 * SQ(d)-specific one (diagonal derivatives, symmetrised tridiagonal eigenbasis), and the two agree on models/jsq-d.json.
 * An observable g gets E[g(X^(n))] = g(π) + c₁/n + c₂/n² with c₂ = ∇g·A + ½ g''·B + g'''·C/6 + g''''·D/24.
 * Source: theory.md §6; Gast, Bortolussi, Tribastone, Perf. Eval. 2019; rmf_tool.
 */
import { InvalidModelError } from '../../errors.ts';
import { mathjs } from '../../lazy.ts';
import { VERSION, codeId } from '../../version.ts';
import { solveDense } from '../../numerics/dense.ts';
import { solveKroneckerSumSchur } from '../../numerics/kroneckerSum.ts';
import { symmetrise } from '../refinedSecondOrder.ts';
import { populationDrift, type PopulationDrift } from './drift.ts';
import { observableDerivatives } from './observables.ts';
import { populationRefined, type PopulationRefinedResult } from './refined.ts';
import type { PopulationModel } from '../../model/population/parse.ts';

export interface PopulationSecondOrderResult {
  /** The first-order result (π, V, W, observables' 1/n coefficients). */
  refined: PopulationRefinedResult;
  /** A, length K: E[x_i^(n)] ≈ π_i + V_i/n + A_i/n². */
  A: number[];
  /** B, K×K: Cov(X^(n)) ≈ W/n + (B − VVᵀ)/n² (B is the 1/n² term of E[(X − π)(X − π)ᵀ]). */
  B: number[][];
  /** Observable name → { meanField g(π), first c₁, second c₂ }: E[g(X^(n))] ≈ g(π) + c₁/n + c₂/n². */
  observables: Record<string, { meanField: number; first: number; second: number }>;
  diagnostics: {
    /** Relative residuals of the D, C, B equations. */
    residuals: { D: number; C: number; B: number };
    /** Non-zero rate derivatives of orders 1..4 at π. */
    rateDerivatives: number[];
  };
  provenance: {
    model: string;
    parameters: Readonly<Record<string, number>>;
    equation: string;
    source: string;
    version: string;
    code: string;
  };
}

type Entry = { transition: number; index: ArrayLike<number>; value: number };

/** The distinct orderings of a sorted index tuple (a symmetric derivative tensor has the same value at each). */
function distinctPermutations(idx: ArrayLike<number>): number[][] {
  const out: number[][] = [];
  const rest = Array.from(idx);
  const build = (prefix: number[], pool: number[]) => {
    if (pool.length === 0) {
      out.push(prefix);
      return;
    }
    for (let a = 0; a < pool.length; a++) {
      if (a > 0 && pool[a] === pool[a - 1]) continue;
      build([...prefix, pool[a]], [...pool.slice(0, a), ...pool.slice(a + 1)]);
    }
  };
  build([], rest);
  return out;
}

/**
 * Σ_ℓ ℓ^⊗p Σ_{j1..jm} ∂^mβ_ℓ/∂x_{j1}…∂x_{jm} X[j1, …, jm, rest]: the jump power p (1: F^(m), 2: Q^(m), 3: R) times the
 * m-th rate derivatives contracted with the first m indices of X (xOrder indices). @returns K^p · K^(xOrder − m).
 */
function contract(
  drift: PopulationDrift,
  entries: readonly Entry[],
  X: ArrayLike<number>,
  K: number,
  xOrder: number,
  m: number,
  p: number,
): Float64Array {
  const restSize = K ** (xOrder - m);
  const out = new Float64Array(K ** p * restSize);
  for (const e of entries) {
    const { index: ji, value: jv } = drift.jumps[e.transition];
    const slice = new Float64Array(restSize);
    for (const perm of distinctPermutations(e.index)) {
      let base = 0;
      for (const j of perm) base = base * K + j;
      base *= restSize;
      for (let r = 0; r < restSize; r++) slice[r] += X[base + r];
    }
    // all p-tuples of the jump's components
    const tuple = new Int32Array(p);
    for (;;) {
      let w = e.value;
      let at = 0;
      for (let a = 0; a < p; a++) {
        w *= jv[tuple[a]];
        at = at * K + ji[tuple[a]];
      }
      at *= restSize;
      for (let r = 0; r < restSize; r++) out[at + r] += w * slice[r];
      let a = p - 1;
      for (; a >= 0; a--) {
        if (++tuple[a] < ji.length) break;
        tuple[a] = 0;
      }
      if (a < 0) break;
    }
  }
  return out;
}

/** Outer product X ⊗ Y of two row-major tensors. */
function outer(X: ArrayLike<number>, Y: ArrayLike<number>): Float64Array {
  const out = new Float64Array(X.length * Y.length);
  for (let a = 0; a < X.length; a++) for (let b = 0; b < Y.length; b++) out[a * Y.length + b] = X[a] * Y[b];
  return out;
}

const flat = (M: number[][]) => Float64Array.from(M.flat());

/**
 * The 1/n² coefficients of a population model at its fixed point, for the state and every observable.
 * Cost: O(K⁵) time and O(K⁴) memory (the tensor D); K = 20 takes a few seconds, mostly mathjs `schur`.
 * @param model from `parsePopulationModel`. @param refined default `populationRefined(model)` (same model).
 * @returns `A` (length K), `B` (K×K), `observables` (meanField, first, second), `diagnostics` (residuals).
 * @throws {InvalidModelError} if a rate or observable is not C² (as `populationRefined`), or K⁴ > 4·10⁶.
 * @throws {SolverError} if F' has complex eigenvalues the Schur refinement cannot handle, or a residual is above 1e−8.
 * @example populationSecondOrder(jsq).observables.meanQueueLength.second // ΣA, = refineSecondOrder(...).sumA for JSQ(d)
 */
export function populationSecondOrder(model: PopulationModel, refined?: PopulationRefinedResult): PopulationSecondOrderResult {
  const first = refined ?? populationRefined(model);
  const K = model.variables.length;
  if (K ** 4 > 4e6) throw new InvalidModelError(`the 1/n² term needs a K⁴ tensor; K = ${K} gives ${K ** 4} entries (limit 4·10⁶, K ≤ 44)`);
  const drift = populationDrift(model);
  const pi = first.fixedPoint.x;
  const V = first.V;
  const W = flat(first.W);
  const Fp = flat(drift.jacobian(pi));
  const { U, T } = mathjs().schur(drift.jacobian(pi)) as unknown as { U: unknown; T: unknown };
  const toFlat = (M: unknown) => flat((M as { toArray?: () => number[][] }).toArray?.() ?? (M as number[][]));
  const Uf = toFlat(U);
  const Tf = toFlat(T);
  const rates = drift.rates(pi);
  const order0: Entry[] = Array.from(rates, (value, transition) => ({ transition, index: [], value }));
  const orders: Entry[][] = [order0, ...[1, 2, 3, 4].map((m) => drift.rateDerivatives(pi, m))];
  const one = [1];
  const Q = contract(drift, order0, one, K, 0, 0, 2);
  const R = contract(drift, order0, one, K, 0, 0, 3);
  const solve = (rhs: Float64Array, m: number) => solveKroneckerSumSchur(Fp, Uf, Tf, rhs, K, m);

  const D = solve(
    symmetrise(outer(W, Q), K, 4).map((x) => -6 * x),
    4,
  );
  const FppD = symmetrise(contract(drift, orders[2], D.X, K, 4, 2, 1), K, 3);
  const QV = symmetrise(outer(Q, V), K, 3);
  const QpW = symmetrise(contract(drift, orders[1], W, K, 2, 1, 2), K, 3);
  const C = solve(
    FppD.map((x, k) => -(1.5 * x + 3 * QV[k] + 3 * QpW[k] + R[k])),
    3,
  );
  const FppC = symmetrise(contract(drift, orders[2], C.X, K, 3, 2, 1), K, 2);
  const FpppD = symmetrise(contract(drift, orders[3], D.X, K, 4, 3, 1), K, 2);
  const QpV = symmetrise(contract(drift, orders[1], V, K, 1, 1, 2), K, 2);
  const QppW = symmetrise(contract(drift, orders[2], W, K, 2, 2, 2), K, 2);
  const B = solve(
    FppC.map((x, k) => -(x + FpppD[k] / 3 + QpV[k] + QppW[k] / 2)),
    2,
  );
  const b2 = contract(drift, orders[2], B.X, K, 2, 2, 1);
  const b3 = contract(drift, orders[3], C.X, K, 3, 3, 1);
  const b4 = contract(drift, orders[4], D.X, K, 4, 4, 1);
  const A = solveDense(
    drift.jacobian(pi),
    Array.from({ length: K }, (_, i) => -(b2[i] / 2 + b3[i] / 6 + b4[i] / 24)),
    'A = −F′⁻¹(…)',
  );

  // c₂(g) = Σ_m g^(m)·M_m/m! with M_1 = A, M_2 = B, M_3 = C, M_4 = D (each symmetric)
  const moments: ArrayLike<number>[] = [[], A, B.X, C.X, D.X];
  const factorial = [1, 1, 2, 6, 24];
  const observables: PopulationSecondOrderResult['observables'] = {};
  for (const [name, g] of Object.entries(observableDerivatives(model, pi, 4))) {
    let second = 0;
    for (let m = 1; m <= 4; m++) {
      for (const p of g.derivatives[m]) {
        for (const perm of distinctPermutations(p.index)) {
          let at = 0;
          for (const j of perm) at = at * K + j;
          second += (p.value * moments[m][at]) / factorial[m];
        }
      }
    }
    observables[name] = { meanField: g.value, first: first.observables[name].coefficient, second };
  }
  return {
    refined: first,
    A,
    B: Array.from({ length: K }, (_, i) => Array.from(B.X.subarray(i * K, (i + 1) * K))),
    observables,
    diagnostics: { residuals: { D: D.residual, C: C.residual, B: B.residual }, rateDerivatives: orders.slice(1).map((o) => o.length) },
    provenance: {
      model: model.name,
      parameters: model.parameters,
      equation: 'E[X^(n)] = pi + V/n + A/n^2; D, C, B, A of Gast-Bortolussi-Tribastone 2019 (steady state), generic population model',
      source: 'theory.md §6; Gast, Bortolussi, Tribastone, Perf. Eval. 2019; rmf_tool refinedRefined_fixedPoint.py',
      version: VERSION,
      code: codeId(),
    },
  };
}

/**
 * Second-order estimates at n: E[x^(n)] ≈ π + V/n + A/n², E[g(X^(n))] ≈ g(π) + c₁/n + c₂/n². Trust only where
 * c₂/n² ≪ c₁/n (theory.md §6 "Limits").
 * @throws {InvalidModelError} if n is not an integer ≥ 1.
 */
export function secondOrderAt(
  result: PopulationSecondOrderResult,
  n: number,
): { n: number; x: number[]; observables: Record<string, number> } {
  if (!Number.isInteger(n) || n < 1) throw new InvalidModelError(`n must be an integer ≥ 1, got ${n}`);
  const x = result.refined.fixedPoint.x.map((v, i) => v + result.refined.V[i] / n + result.A[i] / n ** 2);
  const observables: Record<string, number> = {};
  for (const [name, o] of Object.entries(result.observables)) observables[name] = o.meanField + o.first / n + o.second / n ** 2;
  return { n, x, observables };
}
