/**
 * Observables g(x) of a population model (named mathjs expressions, e.g. meanQueueLength = sum(s)), compiled with
 * their symbolic gradient and Hessian (derived on first use, so evaluating never differentiates), so their refined 1/n coefficient is exact to first order:
 * E[g(X^(n))] = g(π) + (∇g(π)·V + ½ Σ_jk ∂²g/∂x_j∂x_k(π) W_jk)/n + O(1/n²), since E[X^(n)] − π = V/n + O(1/n²) and
 * Cov(X^(n)) = W/n + O(1/n²). Source: theory.md §6 (Gast and Van Houdt, POMACS 1(2), 2017, Theorem 3.1).
 */
import { compileNode, differentiate, referencedVariables, type Evaluator } from '../../model/population/compile.ts';
import { prepareExpression } from '../../model/population/expression.ts';
import { symbolTable, type PopulationModel } from '../../model/population/parse.ts';
import { nextDerivativeOrder, type DerivativeTuple } from './drift.ts';

interface CompiledObservable {
  name: string;
  evaluate: Evaluator;
  /** ∇g and ∂²g/∂x_j∂x_k for k ≥ j, derived on first use (only `refineObservables` needs them). */
  derivatives: () => { gradient: { j: number; evaluate: Evaluator }[]; hessian: { j: number; k: number; evaluate: Evaluator }[] };
  /** Derivatives of order m (sorted tuples), compiled on first use; m = 1..4 (the 1/n² term). */
  tuples: (m: number) => { index: Int32Array; evaluate: Evaluator }[];
}

const isZero = (node: unknown) => (node as { type: string }).type === 'ConstantNode' && (node as { value: unknown }).value === 0;
const cache = new WeakMap<PopulationModel, CompiledObservable[]>();

/** Compiles the model's observables (cached per model). @throws {InvalidModelError} as `prepareExpression`. */
function compiledObservables(model: PopulationModel): CompiledObservable[] {
  const cached = cache.get(model);
  if (cached) return cached;
  const table = symbolTable(model);
  const index = table.variables;
  const out = Object.entries(model.observables).map(([name, text]) => {
    const where = `${model.file ? `${model.file}: ` : ''}observables.${name}`;
    const node = prepareExpression(text, table, where);
    let derived: ReturnType<CompiledObservable['derivatives']> | undefined;
    const derivatives = () => {
      if (derived) return derived;
      const gradient: { j: number; evaluate: Evaluator }[] = [];
      const hessian: { j: number; k: number; evaluate: Evaluator }[] = [];
      for (const j of referencedVariables(node, index)) {
        const dj = differentiate(node, model.variables[j], where);
        if (isZero(dj)) continue;
        gradient.push({ j, evaluate: compileNode(dj, index, where) });
        for (const k of referencedVariables(dj, index)) {
          if (k < j) continue;
          const djk = differentiate(dj, model.variables[k], where);
          if (!isZero(djk)) hessian.push({ j, k, evaluate: compileNode(djk, index, where) });
        }
      }
      derived = { gradient, hessian };
      return derived;
    };
    const levels: DerivativeTuple[][] = [[{ index: [], node }]];
    const compiledLevels: { index: Int32Array; evaluate: Evaluator }[][] = [];
    const tuples = (m: number) => {
      while (levels.length <= m) levels.push(nextDerivativeOrder(levels[levels.length - 1], index, model.variables, where));
      compiledLevels[m] ??= levels[m].map((p) => ({ index: Int32Array.from(p.index), evaluate: compileNode(p.node, index, where) }));
      return compiledLevels[m];
    };
    return { name, evaluate: compileNode(node, index, where), derivatives, tuples };
  });
  cache.set(model, out);
  return out;
}

/**
 * Values of the model's observables at a state.
 * @param model parsed model. @param x state, length = model.variables.length.
 * @returns observable name → g(x).
 */
export function evaluateObservables(model: PopulationModel, x: ArrayLike<number>): Record<string, number> {
  const s = Float64Array.from(x);
  const out: Record<string, number> = {};
  for (const o of compiledObservables(model)) out[o.name] = o.evaluate(s);
  return out;
}

/**
 * 1/n coefficients of the observables: ∇g(π)·V + ½ Σ_jk ∂²g/∂x_j∂x_k(π) W_jk.
 * @param pi fixed point (length K). @param V 1/n coefficient of E[X] (length K). @param W K×K covariance term.
 * @returns observable name → { meanField: g(π), coefficient }.
 */
export function refineObservables(
  model: PopulationModel,
  pi: ArrayLike<number>,
  V: ArrayLike<number>,
  W: number[][],
): Record<string, { meanField: number; coefficient: number }> {
  const s = Float64Array.from(pi);
  const out: Record<string, { meanField: number; coefficient: number }> = {};
  for (const o of compiledObservables(model)) {
    let coefficient = 0;
    const { gradient, hessian } = o.derivatives();
    for (const g of gradient) coefficient += g.evaluate(s) * V[g.j];
    for (const h of hessian) coefficient += (h.j === h.k ? 0.5 : 1) * h.evaluate(s) * W[h.j][h.k];
    out[o.name] = { meanField: o.evaluate(s), coefficient };
  }
  return out;
}

/**
 * Non-zero m-th partial derivatives of each observable at x, over sorted index tuples (m = 1..4).
 * @returns observable name → { value g(x), derivatives: per order m (index 1..maxOrder) the list of { index, value } }.
 */
export function observableDerivatives(
  model: PopulationModel,
  x: ArrayLike<number>,
  maxOrder: number,
): Record<string, { value: number; derivatives: { index: Int32Array; value: number }[][] }> {
  const s = Float64Array.from(x);
  const out: Record<string, { value: number; derivatives: { index: Int32Array; value: number }[][] }> = {};
  for (const o of compiledObservables(model)) {
    const derivatives: { index: Int32Array; value: number }[][] = [[]];
    for (let m = 1; m <= maxOrder; m++)
      derivatives.push(
        o
          .tuples(m)
          .map((p) => ({ index: p.index, value: p.evaluate(s) }))
          .filter((p) => p.value !== 0),
      );
    out[o.name] = { value: o.evaluate(s), derivatives };
  }
  return out;
}
