/**
 * The drift of a density-dependent population model and its derivatives, compiled once per model:
 * f(x) = Σ_ℓ ℓ β_ℓ(x), Df, the Hessian contraction b_i = ½ Σ_jk ∂²f_i/∂x_j∂x_k W_jk, and Q(x) = Σ_ℓ ℓℓᵀ β_ℓ(x).
 * Derivatives are symbolic (`differentiate` of model/population/compile.ts) per rate, not per drift component, and
 * only for the variables a rate names (first derivatives) or its first derivative still names (second derivatives),
 * so the work grows with the non-zero entries, not with K². They are derived on first use: the drift and the
 * transient never differentiate.
 * Source: theory.md §6 (Gast and Van Houdt, POMACS 1(2), 2017); Kurtz, J. Appl. Prob. 7(1), 1970 (f = Σℓβ_ℓ).
 */
import type { MathNode } from 'mathjs';
import { InvalidModelError } from '../../errors.ts';
import { compileNode, differentiate, nonSmoothConstructs, referencedVariables, type Evaluator } from '../../model/population/compile.ts';
import { prepareExpression } from '../../model/population/expression.ts';
import { symbolTable, type PopulationModel } from '../../model/population/parse.ts';

/** One non-zero partial derivative of a rate: ∂β/∂x_j (or ∂²β/∂x_j∂x_k), compiled. */
interface Partial {
  j: number;
  k: number;
  evaluate: Evaluator;
}

interface CompiledRate {
  label: string;
  where: string;
  node: MathNode;
  evaluate: Evaluator;
  /** Jump ℓ as parallel arrays of indices and values. */
  jumpIndex: Int32Array;
  jumpValue: Float64Array;
}

/** First partial derivatives of one rate: compiled, and as nodes (for the second). */
interface FirstPartials {
  first: Partial[];
  firstNodes: { j: number; node: MathNode }[];
}

const isZeroNode = (node: MathNode) => (node as { type: string }).type === 'ConstantNode' && (node as { value?: unknown }).value === 0;

/** The compiled drift of a model; every method takes x of length `dimension` in model variable order. */
export interface PopulationDrift {
  /** Number of state variables K. */
  readonly dimension: number;
  /** Number of transitions L. */
  readonly transitionCount: number;
  /** Transition labels, index ℓ. */
  readonly labels: readonly string[];
  /** β_ℓ(x) for ℓ = 0..L−1 (into `out` if given). */
  rates(x: ArrayLike<number>, out?: Float64Array): Float64Array;
  /** f(x) = Σ_ℓ ℓ β_ℓ(x), length K (into `out` if given). */
  drift(x: ArrayLike<number>, out?: Float64Array): Float64Array;
  /** Df(x), dense K×K: J[i][j] = ∂f_i/∂x_j. */
  jacobian(x: ArrayLike<number>): number[][];
  /** Hessian of f, dense K×K×K: H[i][j][k] = ∂²f_i/∂x_j∂x_k (for tests and small K). */
  hessian(x: ArrayLike<number>): number[][][];
  /** b_i = ½ Σ_jk ∂²f_i/∂x_j∂x_k W_jk, length K (W symmetric K×K). */
  secondOrderTerm(x: ArrayLike<number>, W: number[][]): Float64Array;
  /** Q(x) = Σ_ℓ ℓℓᵀ β_ℓ(x), dense K×K, symmetric. */
  noise(x: ArrayLike<number>): number[][];
  /** Count of compiled first and second partial derivatives (the sparsity actually used). */
  derivativeCounts(): { first: number; second: number };
  /** Jump ℓ of each transition as parallel arrays (variable indices, values), index ℓ = transition. */
  readonly jumps: readonly { index: Int32Array; value: Float64Array }[];
  /**
   * Non-zero m-th partial derivatives of the rates at x: ∂^mβ_ℓ/∂x_{j1}…∂x_{jm} for sorted tuples j1 ≤ … ≤ jm
   * (m = 1..4; derived symbolically on first use per order, for the 1/n² term of ./secondOrder.ts).
   * @returns one entry per transition ℓ and non-zero tuple.
   */
  rateDerivatives(x: ArrayLike<number>, order: number): { transition: number; index: Int32Array; value: number }[];
}

const cache = new WeakMap<PopulationModel, PopulationDrift>();

/** A partial derivative of order |index| of an expression: ∂^m/∂x_{index[0]}…∂x_{index[m−1]}, index sorted. */
export interface DerivativeTuple {
  index: number[];
  node: MathNode;
}

/**
 * The non-zero derivatives of order m + 1 from those of order m (sorted index tuples, each derived once: only by
 * the variables from the tuple's last index on that the node still names).
 * @param previous order-m tuples (order 0: [{ index: [], node }]). @param index variable name → position.
 * @param variables names by position. @param where location for messages.
 * @throws {InvalidModelError} (from `differentiate`) if a node cannot be differentiated.
 */
export function nextDerivativeOrder(
  previous: readonly DerivativeTuple[],
  index: ReadonlyMap<string, number>,
  variables: readonly string[],
  where: string,
): DerivativeTuple[] {
  const out: DerivativeTuple[] = [];
  for (const { index: idx, node } of previous) {
    for (const k of referencedVariables(node, index)) {
      if (idx.length > 0 && k < idx[idx.length - 1]) continue;
      const dk = differentiate(node, variables[k], where);
      if (!isZeroNode(dk)) out.push({ index: [...idx, k], node: dk });
    }
  }
  return out;
}

function toState(x: ArrayLike<number>, K: number): Float64Array {
  if (x.length !== K) throw new RangeError(`state has length ${x.length}, the model has ${K} variables`);
  return x instanceof Float64Array ? x : Float64Array.from(x);
}

/**
 * Refuses a model whose rates or observables use a construct that is not twice continuously differentiable
 * (`nonSmoothConstructs`: abs, sign, floor, ceil, min, max, mod, comparisons, and/or/not, ?:), for the computations
 * that need C² rates near the fixed point (the refined mean field, theory.md §6). Call it right after parsing, before
 * any solving. The fixed point and the transient accept such models (Newton uses the derivative almost everywhere).
 * @param model from `parsePopulationModel`. @param purpose what needs the derivatives, for the message.
 * @throws {InvalidModelError} naming the file, the transition or observable, and the function, e.g.
 *   "models/x.json: transitions[0] (arrival).rate uses floor, which is not differentiable: the refined mean field
 *   needs rates of class C²".
 */
export function requireSmoothModel(model: PopulationModel, purpose = 'the refined mean field'): void {
  const table = symbolTable(model);
  const prefix = model.file ? `${model.file}: ` : '';
  const items = [
    ...model.transitions.map((t) => ({ where: `${prefix}${t.label}.rate`, text: t.rate })),
    ...Object.entries(model.observables).map(([name, text]) => ({ where: `${prefix}observables.${name}`, text })),
  ];
  for (const { where, text } of items) {
    const bad = nonSmoothConstructs(prepareExpression(text, table, where));
    if (bad.length > 0) {
      throw new InvalidModelError(
        `${where} uses ${bad.join(', ')}, which ${bad.length > 1 ? 'are' : 'is'} not differentiable everywhere: ${purpose} needs ` +
          'rates and observables of class C² near the fixed point (use a smooth form, e.g. a steep tanh for a switch)',
      );
    }
  }
}

/**
 * Compiles the drift, Jacobian, Hessian and noise of a population model (cached per model object).
 * First and second derivatives are derived on first use (`jacobian`; `hessian`, `secondOrderTerm`), so `rates`,
 * `drift` and `noise` never differentiate. Non-smooth constructs get their derivative almost everywhere
 * (`differentiate`); `requireSmoothModel` refuses them where C² is needed.
 * @param model from `parsePopulationModel`.
 * @returns a `PopulationDrift`; its methods throw RangeError if x has the wrong length.
 * @throws {InvalidModelError} if a rate does not compile; derivative methods throw it if a rate cannot be
 *   differentiated.
 * @example populationDrift(jsq).drift(closedForm) // ≈ 0 at the JSQ(d) fixed point
 */
export function populationDrift(model: PopulationModel): PopulationDrift {
  const cached = cache.get(model);
  if (cached) return cached;
  const table = symbolTable(model);
  const index = table.variables;
  const K = model.variables.length;
  const prefix = model.file ? `${model.file}: ` : '';
  const compiled: CompiledRate[] = model.transitions.map((t) => {
    const where = `${prefix}${t.label}.rate`;
    const node = prepareExpression(t.rate, table, where);
    const entries = Object.entries(t.change);
    return {
      label: t.label,
      where,
      node,
      evaluate: compileNode(node, index, where),
      jumpIndex: Int32Array.from(entries.map(([name]) => index.get(name)!)),
      jumpValue: Float64Array.from(entries.map(([, v]) => v)),
    };
  });
  let firstCache: FirstPartials[] | undefined;
  const firstPartials = (): FirstPartials[] => {
    firstCache ??= compiled.map((r) => {
      const firstNodes = referencedVariables(r.node, index)
        .map((j) => ({ j, node: differentiate(r.node, model.variables[j], r.where) }))
        .filter((p) => !isZeroNode(p.node));
      return { firstNodes, first: firstNodes.map((p) => ({ j: p.j, k: -1, evaluate: compileNode(p.node, index, r.where) })) };
    });
    return firstCache;
  };
  let second: Partial[][] | undefined;
  const secondPartials = (): Partial[][] => {
    const firsts = firstPartials();
    second ??= compiled.map((r, l) => {
      const out: Partial[] = [];
      for (const { j, node } of firsts[l].firstNodes) {
        for (const k of referencedVariables(node, index)) {
          if (k < j) continue; // symmetric: ∂²β/∂x_j∂x_k for k ≥ j only
          const d2 = differentiate(node, model.variables[k], r.where);
          if (isZeroNode(d2)) continue;
          out.push({ j, k, evaluate: compileNode(d2, index, r.where) });
        }
      }
      return out;
    });
    return second;
  };
  // Derivative nodes of every order, each tuple sorted (k ≥ the tuple's last index), built from the order below.
  const tupleNodes: DerivativeTuple[][][] = [compiled.map((r) => [{ index: [], node: r.node }])];
  const tupleCompiled: { index: Int32Array; evaluate: Evaluator }[][][] = [];
  const tuplesOfOrder = (m: number) => {
    if (!Number.isInteger(m) || m < 1 || m > 4) throw new RangeError(`derivative order must be 1, 2, 3 or 4, got ${m}`);
    for (let o = tupleNodes.length; o <= m; o++) {
      tupleNodes.push(compiled.map((r, l) => nextDerivativeOrder(tupleNodes[o - 1][l], index, model.variables, r.where)));
    }
    tupleCompiled[m] ??= tupleNodes[m].map((list, l) =>
      list.map((p) => ({ index: Int32Array.from(p.index), evaluate: compileNode(p.node, index, compiled[l].where) })),
    );
    return tupleCompiled[m];
  };
  const L = compiled.length;

  const drift: PopulationDrift = {
    jumps: compiled.map((r) => ({ index: r.jumpIndex, value: r.jumpValue })),
    rateDerivatives(x, order) {
      const s = toState(x, K);
      const out: { transition: number; index: Int32Array; value: number }[] = [];
      tuplesOfOrder(order).forEach((list, l) => {
        for (const p of list) {
          const value = p.evaluate(s);
          if (value !== 0) out.push({ transition: l, index: p.index, value });
        }
      });
      return out;
    },
    dimension: K,
    transitionCount: L,
    labels: compiled.map((r) => r.label),
    rates(x, out = new Float64Array(L)) {
      const s = toState(x, K);
      for (let l = 0; l < L; l++) out[l] = compiled[l].evaluate(s);
      return out;
    },
    drift(x, out = new Float64Array(K)) {
      const s = toState(x, K);
      out.fill(0);
      for (const r of compiled) {
        const beta = r.evaluate(s);
        for (let m = 0; m < r.jumpIndex.length; m++) out[r.jumpIndex[m]] += r.jumpValue[m] * beta;
      }
      return out;
    },
    jacobian(x) {
      const s = toState(x, K);
      const J = Array.from({ length: K }, () => new Array<number>(K).fill(0));
      const firsts = firstPartials();
      for (let l = 0; l < L; l++) {
        const r = compiled[l];
        for (const p of firsts[l].first) {
          const g = p.evaluate(s);
          for (let m = 0; m < r.jumpIndex.length; m++) J[r.jumpIndex[m]][p.j] += r.jumpValue[m] * g;
        }
      }
      return J;
    },
    hessian(x) {
      const s = toState(x, K);
      const H = Array.from({ length: K }, () => Array.from({ length: K }, () => new Array<number>(K).fill(0)));
      const partials = secondPartials();
      compiled.forEach((r, l) => {
        for (const p of partials[l]) {
          const h = p.evaluate(s);
          for (let m = 0; m < r.jumpIndex.length; m++) {
            const i = r.jumpIndex[m];
            H[i][p.j][p.k] += r.jumpValue[m] * h;
            if (p.k !== p.j) H[i][p.k][p.j] += r.jumpValue[m] * h;
          }
        }
      });
      return H;
    },
    secondOrderTerm(x, W) {
      const s = toState(x, K);
      const b = new Float64Array(K);
      const partials = secondPartials();
      compiled.forEach((r, l) => {
        let c = 0; // ½ Σ_jk ∂²β_ℓ/∂x_j∂x_k W_jk, each off-diagonal pair counted twice
        for (const p of partials[l]) c += (p.k === p.j ? 0.5 : 1) * p.evaluate(s) * W[p.j][p.k];
        for (let m = 0; m < r.jumpIndex.length; m++) b[r.jumpIndex[m]] += r.jumpValue[m] * c;
      });
      return b;
    },
    noise(x) {
      const s = toState(x, K);
      const Q = Array.from({ length: K }, () => new Array<number>(K).fill(0));
      for (const r of compiled) {
        const beta = r.evaluate(s);
        for (let m = 0; m < r.jumpIndex.length; m++) {
          for (let q = 0; q < r.jumpIndex.length; q++) Q[r.jumpIndex[m]][r.jumpIndex[q]] += r.jumpValue[m] * r.jumpValue[q] * beta;
        }
      }
      return Q;
    },
    derivativeCounts() {
      return { first: firstPartials().reduce((a, p) => a + p.first.length, 0), second: secondPartials().reduce((a, p) => a + p.length, 0) };
    },
  };
  cache.set(model, drift);
  return drift;
}
