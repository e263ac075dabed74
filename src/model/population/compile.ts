/**
 * Turns a resolved mathjs expression (only variables left as symbols; see `prepareExpression`) into a fast
 * evaluator x ↦ value, a closure tree over a Float64Array state with constant subtrees folded, and differentiates
 * it symbolically with our own rules (`differentiate`: one rule for every function `compileNode` accepts; mathjs's
 * `derivative` knows neither expm1, log1p, log2, floor, sign nor ?:). `prune` removes the zero terms the rules leave,
 * which keeps the sparsity of Jacobian and Hessian.
 */
import type { MathNode } from 'mathjs';
import { mathjs } from '../../lazy.ts';
import { InvalidModelError } from '../../errors.ts';

/** x ↦ value; x holds the variables in model order. */
export type Evaluator = (x: Float64Array) => number;

type AnyNode = MathNode & {
  type: string;
  op?: string;
  fn?: string | { name: string };
  args?: MathNode[];
  value?: unknown;
  name?: string;
  content?: MathNode;
  condition?: MathNode;
  trueExpr?: MathNode;
  falseExpr?: MathNode;
};

const UNARY: Record<string, (a: number) => number> = {
  exp: Math.exp,
  sqrt: Math.sqrt,
  abs: Math.abs,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  tanh: Math.tanh,
  sinh: Math.sinh,
  cosh: Math.cosh,
  log10: Math.log10,
  log2: Math.log2,
  cbrt: Math.cbrt,
  sign: Math.sign,
  floor: Math.floor,
  ceil: Math.ceil,
  log1p: Math.log1p,
  expm1: Math.expm1,
};
const BINARY: Record<string, (a: number, b: number) => number> = {
  add: (a, b) => a + b,
  subtract: (a, b) => a - b,
  multiply: (a, b) => a * b,
  divide: (a, b) => a / b,
  pow: (a, b) => a ** b,
  mod: (a, b) => a - b * Math.floor(a / b),
  larger: (a, b) => +(a > b),
  smaller: (a, b) => +(a < b),
  largerEq: (a, b) => +(a >= b),
  smallerEq: (a, b) => +(a <= b),
  equal: (a, b) => +(a === b),
  unequal: (a, b) => +(a !== b),
  and: (a, b) => +(a !== 0 && b !== 0),
  or: (a, b) => +(a !== 0 || b !== 0),
};

function fnName(node: AnyNode): string {
  return typeof node.fn === 'string' ? node.fn : (node.fn?.name ?? '');
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
        const f =
          name === 'add'
            ? (p: number, q: number) => p + q
            : name === 'multiply'
              ? (p: number, q: number) => p * q
              : name === 'min'
                ? Math.min
                : Math.max;
        return (x) => {
          let acc = args[0](x);
          for (let k = 1; k < args.length; k++) acc = f(acc, args[k](x));
          return acc;
        };
      }
      throw new InvalidModelError(
        `${where}: unsupported ${n.type === 'OperatorNode' ? 'operator' : 'function'} "${n.type === 'OperatorNode' ? n.op : name}" with ${args.length} argument(s)`,
      );
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
  if (n.type === 'ConditionalNode') {
    const a = prune(n.trueExpr!);
    const b = prune(n.falseExpr!);
    if (isConstant(a) && isConstant(b) && a.value === b.value) return a;
    return new (mathjs().ConditionalNode)(prune(n.condition!), a, b);
  }
  if (n.type !== 'OperatorNode' && n.type !== 'FunctionNode') return node;
  const args = (n.args ?? []).map(prune);
  const name = fnName(n);
  if (args.every(isConstant)) {
    const rebuilt =
      n.type === 'OperatorNode'
        ? new (mathjs().OperatorNode)(n.op as never, name as never, args)
        : (n as unknown as { clone(): AnyNode }).clone();
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

const num = (v: number): MathNode => new (mathjs().ConstantNode)(v);
const op = (o: string, fn: string, args: MathNode[]): MathNode => new (mathjs().OperatorNode)(o as never, fn as never, args);
const mul = (...args: MathNode[]): MathNode => op('*', 'multiply', args);
const div = (a: MathNode, b: MathNode): MathNode => op('/', 'divide', [a, b]);
const add = (a: MathNode, b: MathNode): MathNode => op('+', 'add', [a, b]);
const sub = (a: MathNode, b: MathNode): MathNode => op('-', 'subtract', [a, b]);
const pow = (a: MathNode, b: MathNode): MathNode => op('^', 'pow', [a, b]);
const call = (name: string, ...args: MathNode[]): MathNode => new (mathjs().FunctionNode)(new (mathjs().SymbolNode)(name), args);

/** Functions and operators whose derivative is 0 wherever it exists (piecewise constant). */
const PIECEWISE_CONSTANT = new Set([
  'sign',
  'floor',
  'ceil',
  'larger',
  'smaller',
  'largerEq',
  'smallerEq',
  'equal',
  'unequal',
  'and',
  'or',
  'not',
]);

/**
 * Constructs `compileNode` accepts that are not twice continuously differentiable everywhere: abs, sign, floor,
 * ceil, min, max, mod, comparisons, and/or/not, and c ? a : b.
 * @returns their names as written (e.g. "floor", "?:", ">"), each once, in order of first appearance.
 */
export function nonSmoothConstructs(node: MathNode): string[] {
  const found: string[] = [];
  const note = (name: string) => {
    if (!found.includes(name)) found.push(name);
  };
  node.traverse((child: MathNode, path: string) => {
    const c = child as AnyNode;
    if (path === 'fn') return;
    if (c.type === 'ConditionalNode') note('?:');
    else if (c.type === 'OperatorNode' || c.type === 'FunctionNode') {
      const name = fnName(c);
      if (PIECEWISE_CONSTANT.has(name) || name === 'abs' || name === 'min' || name === 'max' || name === 'mod') {
        note(c.type === 'OperatorNode' ? c.op! : name);
      }
    }
  });
  return found;
}

/** The derivative rule, before `prune`; `v` is the variable's name. Throws a plain Error on an unknown construct. */
function derive(node: MathNode, v: string): MathNode {
  const n = node as AnyNode;
  switch (n.type) {
    case 'ConstantNode':
      return num(0);
    case 'SymbolNode':
      return num(n.name === v ? 1 : 0);
    case 'ParenthesisNode':
      return derive(n.content!, v);
    case 'ConditionalNode': // the derivative of the branch taken (a.e.; the switch itself is not differentiable)
      return new (mathjs().ConditionalNode)(n.condition!, derive(n.trueExpr!, v), derive(n.falseExpr!, v));
    case 'OperatorNode':
    case 'FunctionNode':
      break;
    default:
      throw new Error(`no derivative rule for ${n.type}`);
  }
  const name = fnName(n);
  const args = n.args ?? [];
  const [a, b] = args;
  const da = () => derive(a, v);
  if (PIECEWISE_CONSTANT.has(name)) return num(0);
  if (args.length === 1) {
    switch (name) {
      case 'unaryMinus':
        return op('-', 'unaryMinus', [da()]);
      case 'unaryPlus':
        return da();
      case 'exp':
        return mul(call('exp', a), da());
      case 'expm1':
        return mul(call('exp', a), da());
      case 'log':
        return div(da(), a);
      case 'log1p':
        return div(da(), add(num(1), a));
      case 'log10':
        return div(da(), mul(a, num(Math.LN10)));
      case 'log2':
        return div(da(), mul(a, num(Math.LN2)));
      case 'sqrt':
        return div(da(), mul(num(2), call('sqrt', a)));
      case 'cbrt':
        return div(da(), mul(num(3), pow(call('cbrt', a), num(2))));
      case 'sin':
        return mul(call('cos', a), da());
      case 'cos':
        return mul(op('-', 'unaryMinus', [call('sin', a)]), da());
      case 'tan':
        return div(da(), pow(call('cos', a), num(2)));
      case 'sinh':
        return mul(call('cosh', a), da());
      case 'cosh':
        return mul(call('sinh', a), da());
      case 'tanh':
        return mul(sub(num(1), pow(call('tanh', a), num(2))), da());
      case 'abs':
        return mul(call('sign', a), da()); // a.e.
    }
  }
  if (args.length === 2) {
    switch (name) {
      case 'subtract':
        return sub(da(), derive(b, v));
      case 'divide':
        return div(sub(mul(da(), b), mul(a, derive(b, v))), pow(b, num(2)));
      case 'pow': {
        const db = prune(derive(b, v));
        const powerRule = mul(b, pow(a, sub(b, num(1))), da());
        if (isValue(db, 0)) return powerRule;
        return add(powerRule, mul(pow(a, b), call('log', a), db));
      }
      case 'log':
        return derive(div(call('log', a), call('log', b)), v);
      case 'mod':
        return sub(da(), mul(derive(b, v), call('floor', div(a, b)))); // a − b·floor(a/b), a.e.
    }
  }
  if (args.length >= 2) {
    switch (name) {
      case 'add':
        return args.map((x) => derive(x, v)).reduce(add);
      case 'multiply': // product rule: Σ_i a_i' Π_{j≠i} a_j
        return args.map((x, i) => mul(...args.map((y, j) => (j === i ? derive(x, v) : y)))).reduce(add);
      case 'min':
      case 'max': {
        // the derivative of the active argument (a.e.), reducing n-ary to nested binary
        const [first, ...rest] = args;
        let value: MathNode = first;
        let slope: MathNode = derive(first, v);
        for (const x of rest) {
          const keep = op(name === 'min' ? '<=' : '>=', name === 'min' ? 'smallerEq' : 'largerEq', [value, x]);
          slope = new (mathjs().ConditionalNode)(keep, slope, derive(x, v));
          value = call(name, value, x);
        }
        return slope;
      }
    }
  }
  throw new Error(
    `no derivative rule for ${n.type === 'OperatorNode' ? `operator "${n.op}"` : `function "${name}"`} with ${args.length} argument(s)`,
  );
}

/**
 * ∂node/∂variable, symbolic, then `prune`d. Smooth functions (+ − * / ^ pow exp expm1 log log1p log10 log2 sqrt
 * cbrt sin cos tan sinh cosh tanh) get their calculus rule; the non-smooth ones (`nonSmoothConstructs`) get their
 * derivative almost everywhere (abs → sign·a', sign/floor/ceil/comparisons → 0, mod → a' − b'·floor(a/b),
 * min/max and ?: → the derivative of the active argument or branch), which is what Newton's Jacobian needs; a caller
 * that needs C² rates (the refined mean field) refuses them first with `nonSmoothConstructs`.
 * @throws {InvalidModelError} naming `where` for a construct `compileNode` does not accept either.
 * @example differentiate(parse('expm1(2*x)'), 'x', 'rate').toString() // "exp(2 * x) * 2"
 */
export function differentiate(node: MathNode, variable: string, where: string): MathNode {
  try {
    return prune(derive(node, variable));
  } catch (error) {
    throw new InvalidModelError(
      `${where}: cannot differentiate "${node.toString()}" with respect to ${variable}: ${(error as Error).message}`,
    );
  }
}
