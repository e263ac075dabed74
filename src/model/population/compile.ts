/**
 * Turns a resolved mathjs expression (only variables left as symbols; see `prepareExpression`) into a fast
 * evaluator x ↦ value, a closure tree over a Float64Array state with constant subtrees folded, and differentiates
 * it symbolically with mathjs `derivative` (simplify off: mathjs's simplifier costs ~6 ms per call, so `prune`
 * removes the zero terms it leaves, which keeps the sparsity of Jacobian and Hessian).
 */
import type { MathNode } from 'mathjs';
import { mathjs } from '../../lazy.ts';
import { InvalidModelError } from '../../errors.ts';

/** x ↦ value; x holds the variables in model order. */
export type Evaluator = (x: Float64Array) => number;

type AnyNode = MathNode & {
  type: string; op?: string; fn?: string | { name: string }; args?: MathNode[]; value?: unknown; name?: string;
  content?: MathNode; condition?: MathNode; trueExpr?: MathNode; falseExpr?: MathNode;
};

const UNARY: Record<string, (a: number) => number> = {
  exp: Math.exp, sqrt: Math.sqrt, abs: Math.abs, sin: Math.sin, cos: Math.cos, tan: Math.tan, tanh: Math.tanh,
  sinh: Math.sinh, cosh: Math.cosh, log10: Math.log10, log2: Math.log2, cbrt: Math.cbrt, sign: Math.sign,
  floor: Math.floor, ceil: Math.ceil, log1p: Math.log1p, expm1: Math.expm1,
};
const BINARY: Record<string, (a: number, b: number) => number> = {
  add: (a, b) => a + b, subtract: (a, b) => a - b, multiply: (a, b) => a * b, divide: (a, b) => a / b,
  pow: (a, b) => a ** b, mod: (a, b) => a - b * Math.floor(a / b),
  larger: (a, b) => +(a > b), smaller: (a, b) => +(a < b), largerEq: (a, b) => +(a >= b), smallerEq: (a, b) => +(a <= b),
  equal: (a, b) => +(a === b), unequal: (a, b) => +(a !== b), and: (a, b) => +(a !== 0 && b !== 0), or: (a, b) => +(a !== 0 || b !== 0),
};

function fnName(node: AnyNode): string {
  return typeof node.fn === 'string' ? node.fn : node.fn?.name ?? '';
}

/**
 * Compiles a resolved node into an evaluator.
 * @param index variable name → position in x. @param where location used in messages.
 * @throws {InvalidModelError} on a construct outside the supported set (numbers, variables, + − * / ^ mod,
 *   comparisons, and/or/not, ?:, and the functions exp log sqrt abs min max pow sin cos tan tanh sinh cosh log10
 *   log2 cbrt sign floor ceil log1p expm1).
 */
export function compileNode(node: MathNode, index: ReadonlyMap<string, number>, where: string): Evaluator {
  const n = node as AnyNode;
  switch (n.type) {
    case 'ConstantNode': {
      const v = n.value;
      if (typeof v !== 'number') throw new InvalidModelError(`${where}: only numeric constants are supported, got ${JSON.stringify(v)}`);
      return () => v;
    }
    case 'SymbolNode': {
      const i = index.get(n.name!);
      if (i === undefined) throw new InvalidModelError(`${where}: unresolved name "${n.name}"`);
      return (x) => x[i];
    }
    case 'ParenthesisNode':
      return compileNode(n.content!, index, where);
    case 'ConditionalNode': {
      const c = compileNode(n.condition!, index, where);
      const a = compileNode(n.trueExpr!, index, where);
      const b = compileNode(n.falseExpr!, index, where);
      return (x) => (c(x) !== 0 ? a(x) : b(x));
    }
    case 'OperatorNode':
    case 'FunctionNode': {
      const name = fnName(n);
      const args = (n.args ?? []).map((a) => compileNode(a, index, where));
      if (args.length === 1) {
        const [a] = args;
        if (name === 'unaryMinus') return (x) => -a(x);
        if (name === 'unaryPlus') return a;
        if (name === 'not') return (x) => +(a(x) === 0);
        if (name === 'log') return (x) => Math.log(a(x));
        const f = UNARY[name];
        if (f) return (x) => f(a(x));
      }
      if (args.length === 2) {
        const [a, b] = args;
        if (name === 'log') return (x) => Math.log(a(x)) / Math.log(b(x));
        if (name === 'min') return (x) => Math.min(a(x), b(x));
        if (name === 'max') return (x) => Math.max(a(x), b(x));
        if (name === 'add') return (x) => a(x) + b(x);
        if (name === 'subtract') return (x) => a(x) - b(x);
        if (name === 'multiply') return (x) => a(x) * b(x);
        if (name === 'divide') return (x) => a(x) / b(x);
        if (name === 'pow') return (x) => a(x) ** b(x);
        const f = BINARY[name];
        if (f) return (x) => f(a(x), b(x));
      }
      if (args.length > 2 && (name === 'add' || name === 'multiply' || name === 'min' || name === 'max')) {
        const f = name === 'add' ? (p: number, q: number) => p + q : name === 'multiply' ? (p: number, q: number) => p * q : name === 'min' ? Math.min : Math.max;
        return (x) => {
          let acc = args[0](x);
          for (let k = 1; k < args.length; k++) acc = f(acc, args[k](x));
          return acc;
        };
      }
      throw new InvalidModelError(`${where}: unsupported ${n.type === 'OperatorNode' ? 'operator' : 'function'} "${n.type === 'OperatorNode' ? n.op : name}" with ${args.length} argument(s)`);
    }
    default:
      throw new InvalidModelError(`${where}: unsupported expression construct ${n.type} ("${node.toString()}")`);
  }
}

function isConstant(node: MathNode): node is MathNode & { value: number } {
  return (node as AnyNode).type === 'ConstantNode' && typeof (node as AnyNode).value === 'number';
}
const isValue = (node: MathNode, v: number) => isConstant(node) && node.value === v;
const EMPTY = new Map<string, number>();
const NO_STATE = new Float64Array(0);

/**
 * Algebraic clean-up of derivative output: folds constant subtrees and drops zero terms (0·a → 0, a + 0 → a,
 * a − 0 → a, 0 − a → −a, 0/a → 0, a^0 → 1, a^1 → a, 1·a → a), so that the variables a result still names are (a
 * superset of) those it depends on. 0·a → 0 assumes a finite.
 */
export function prune(node: MathNode): MathNode {
  const n = node as AnyNode;
  if (n.type === 'ParenthesisNode') return prune(n.content!);
  if (n.type !== 'OperatorNode' && n.type !== 'FunctionNode') return node;
  const args = (n.args ?? []).map(prune);
  const name = fnName(n);
  if (args.every(isConstant)) {
    const rebuilt = n.type === 'OperatorNode' ? new (mathjs().OperatorNode)(n.op as never, name as never, args) : (n as unknown as { clone(): AnyNode }).clone();
    if (n.type === 'FunctionNode') (rebuilt as AnyNode).args = args;
    try {
      const v = compileNode(rebuilt, EMPTY, 'constant folding')(NO_STATE);
      if (Number.isFinite(v)) return new (mathjs().ConstantNode)(v);
    } catch {
      /* leave unsupported constructs to compileNode's message */
    }
  }
  if (n.type === 'OperatorNode') {
    const [a, b] = args;
    switch (name) {
      case 'multiply':
        if (args.some((x) => isValue(x, 0))) return new (mathjs().ConstantNode)(0);
        if (args.length === 2 && isValue(a, 1)) return b;
        if (args.length === 2 && isValue(b, 1)) return a;
        break;
      case 'add':
        if (args.length === 2 && isValue(a, 0)) return b;
        if (args.length === 2 && isValue(b, 0)) return a;
        break;
      case 'subtract':
        if (isValue(b, 0)) return a;
        if (isValue(a, 0)) return prune(new (mathjs().OperatorNode)('-', 'unaryMinus', [b]));
        break;
      case 'divide':
        if (isValue(a, 0)) return new (mathjs().ConstantNode)(0);
        if (isValue(b, 1)) return a;
        break;
      case 'pow':
        if (isValue(b, 0)) return new (mathjs().ConstantNode)(1);
        if (isValue(b, 1)) return a;
        break;
      case 'unaryMinus':
        if (isConstant(a)) return new (mathjs().ConstantNode)(-a.value);
        break;
    }
    return new (mathjs().OperatorNode)(n.op as never, name as never, args);
  }
  const clone = (n as unknown as { clone(): AnyNode }).clone();
  clone.args = args;
  return clone;
}

/** Sorted indices of the variables a node names. */
export function referencedVariables(node: MathNode, index: ReadonlyMap<string, number>): number[] {
  const found = new Set<number>();
  node.traverse((child: MathNode, path: string) => {
    const c = child as AnyNode;
    if (c.type === 'SymbolNode' && path !== 'fn') {
      const i = index.get(c.name!);
      if (i !== undefined) found.add(i);
    }
  });
  return [...found].sort((p, q) => p - q);
}

/**
 * ∂node/∂variable, symbolic (mathjs `derivative`, simplify off) then `prune`d.
 * @throws {InvalidModelError} naming `where` if mathjs cannot differentiate a function used (e.g. max).
 */
export function differentiate(node: MathNode, variable: string, where: string): MathNode {
  try {
    return prune(mathjs().derivative(node, variable, { simplify: false }));
  } catch (error) {
    throw new InvalidModelError(`${where}: cannot differentiate "${node.toString()}" with respect to ${variable}: ${(error as Error).message}`);
  }
}
