/**
 * Claims of a conjecture: a mathjs expression over named quantities, e.g. `T(jsq, sprpt) < T(lpw, sprpt)` or
 * `T(lwl, srpt) / T(jsq, fifo) < 0.8`, parsed once, checked, and evaluated with interval arithmetic (interval.ts).
 *
 * Grammar (a subset of mathjs syntax):
 * - claim := comparison | claim `and` claim | claim `or` claim | `not` claim | ( claim ); comparisons use <, <=, >, >=
 *   and may be chained (`a < b <= c` means `a < b and b <= c`).
 * - expression := number | symbol | quantity | expression (+ − × ÷ ^) expression | −expression | function(expression…)
 * - quantity := MEASURE(selection, discipline[, memory]): `T` mean response time E[T], `S` mean slowdown E[T/S], `P50`,
 *   `P95`, `P99` response-time percentiles; selection and discipline: the rows of the policy tables (model/policy);
 *   memory: the dispatcher memory (none, ip, cp, bcp:A, ism:A; theory.md §12), e.g. `T(jsq, fifo, bcp:3)`. Without
 *   a memory the quantity takes the grid point's (a conjecture's `grid.memory`, an experiment's cells) where its rule
 *   can use one, else none. Time in mean service times.
 * - symbols: `lambda`, `d` (the grid point), `n` (servers of finite-n simulations), `pi`, `e`.
 * - functions: log (natural; log(x, b) for base b), log2, log10, sqrt, exp, abs, min, max.
 */
import type { MathNode } from 'mathjs';
import { mathjs } from '../lazy.ts';
import { InvalidModelError } from '../errors.ts';
import { DISCIPLINES, SELECTIONS, canonicalMemory, type Discipline, type Selection } from '../model/index.ts';
import * as I from './interval.ts';
import type { ComparisonOperator, Interval, Verdict } from './interval.ts';

export const MEASURES = ['T', 'S', 'P50', 'P95', 'P99'] as const;
export type Measure = (typeof MEASURES)[number];
/** Symbols a claim may use besides quantities. */
export const CLAIM_SYMBOLS = ['lambda', 'd', 'n', 'pi', 'e'] as const;
const FUNCTIONS: Record<string, [number, number]> = {
  log: [1, 2],
  log2: [1, 1],
  log10: [1, 1],
  sqrt: [1, 1],
  exp: [1, 1],
  abs: [1, 1],
  min: [2, 99],
  max: [2, 99],
};
const COMPARISONS: Record<string, ComparisonOperator> = { smaller: '<', smallerEq: '<=', larger: '>', largerEq: '>=' };

/** One quantity named in a claim, e.g. T(jsq, sprpt). `key` is its canonical text "T(jsq, sprpt)" ("T(jsq, fifo, bcp:3)"). */
export interface QuantityRef {
  readonly key: string;
  readonly measure: Measure;
  readonly selection: Selection;
  readonly discipline: Discipline;
  /** The memory the claim names (canonical short form, `formatMemory`); undefined: the grid point's. */
  readonly memory?: string;
}

export interface ParsedClaim {
  readonly text: string;
  readonly node: MathNode;
  /** Distinct quantities in order of first appearance. */
  readonly quantities: readonly QuantityRef[];
}

/** Outcome of one comparison of a claim at one grid point. */
export interface ComparisonOutcome {
  /** The comparison as written (canonical mathjs text), e.g. "T(jsq, sprpt) < T(lpw, sprpt)". */
  readonly text: string;
  readonly operator: ComparisonOperator;
  /** Sides with point estimates plugged in (the claim value). */
  readonly leftValue: number;
  readonly rightValue: number;
  /** Sides as interval enclosures from the quantities' intervals. */
  readonly left: Interval;
  readonly right: Interval;
  readonly verdict: Verdict;
}

export interface ClaimOutcome {
  readonly verdict: Verdict;
  readonly comparisons: readonly ComparisonOutcome[];
}

function claimError(text: string, message: string, position?: number): InvalidModelError {
  const where =
    position !== undefined && position >= 0 ? ` at char ${position + 1} ("${text.slice(0, position)}⟨here⟩${text.slice(position)}")` : '';
  return new InvalidModelError(`claim "${text}"${where}: ${message}`);
}

function positionOf(text: string, name: string): number | undefined {
  const m = new RegExp(`\\b${name.replace(/[^A-Za-z0-9_]/g, '')}\\b`).exec(text);
  return m ? m.index : undefined;
}

type Kind = 'boolean' | 'number';

/**
 * Parses and checks a claim (grammar in the module comment).
 * @returns the mathjs tree and the distinct quantities it names.
 * @throws {InvalidModelError} naming the claim and the character position: a syntax error (mathjs's message), an
 *   unknown function, symbol, measure, selection or discipline, a wrong argument count, `==`/`!=` (use
 *   `abs(x − y) < tol`), or a claim that is not a comparison or a connective of comparisons.
 * @example parseClaim('T(jsq, sprpt) < T(lpw, sprpt)').quantities.map((q) => q.key) // ['T(jsq, sprpt)', 'T(lpw, sprpt)']
 */
export function parseClaim(text: string): ParsedClaim {
  if (typeof text !== 'string' || text.trim() === '')
    throw new InvalidModelError('claim must be a non-empty expression such as "T(jsq, sprpt) < T(lpw, sprpt)"');
  let node: MathNode;
  try {
    node = mathjs().parse(text);
  } catch (error) {
    const e = error as Error & { char?: number };
    const pos = typeof e.char === 'number' ? Math.max(0, e.char - 1) : undefined;
    throw claimError(text, `not a valid expression: ${e.message.replace(/\s*\(char \d+\)$/, '')}`, pos);
  }
  const quantities = new Map<string, QuantityRef>();
  const check = (n: MathNode, want: Kind): void => {
    const at = (name: string) => positionOf(text, name);
    switch (n.type) {
      case 'ParenthesisNode':
        return check((n as unknown as { content: MathNode }).content, want);
      case 'ConstantNode': {
        const v = (n as unknown as { value: unknown }).value;
        if (typeof v !== 'number') throw claimError(text, `constant ${JSON.stringify(v)} is not a number`, text.indexOf(String(v)));
        if (want === 'boolean') throw claimError(text, `expected a comparison (<, <=, >, >=), found the number ${v}`);
        return;
      }
      case 'SymbolNode': {
        const name = (n as unknown as { name: string }).name;
        if (!(CLAIM_SYMBOLS as readonly string[]).includes(name)) {
          throw claimError(
            text,
            `unknown symbol "${name}"; a claim may use ${CLAIM_SYMBOLS.join(', ')} and quantities such as T(jsq, fifo)`,
            at(name),
          );
        }
        if (want === 'boolean') throw claimError(text, `expected a comparison, found the symbol ${name}`, at(name));
        return;
      }
      case 'FunctionNode': {
        const f = n as unknown as { fn: { name?: string }; args: MathNode[] };
        const name = f.fn.name ?? '?';
        if (want === 'boolean') throw claimError(text, `expected a comparison, found ${name}(…)`, at(name));
        if ((MEASURES as readonly string[]).includes(name)) {
          const q = quantityOf(text, name as Measure, f.args, at(name));
          quantities.set(q.key, q);
          return;
        }
        const arity = FUNCTIONS[name];
        if (!arity)
          throw claimError(
            text,
            `unknown function "${name}"; quantities are ${MEASURES.join(', ')} (e.g. T(jsq, fifo)); functions are ${Object.keys(FUNCTIONS).join(', ')}`,
            at(name),
          );
        if (f.args.length < arity[0] || f.args.length > arity[1])
          throw claimError(
            text,
            `${name}() takes ${arity[0] === arity[1] ? arity[0] : `${arity[0]} to ${arity[1]}`} arguments, got ${f.args.length}`,
            at(name),
          );
        for (const a of f.args) check(a, 'number');
        return;
      }
      case 'RelationalNode': {
        const r = n as unknown as { conditionals: string[]; params: MathNode[] };
        const bad = r.conditionals.find((c) => !(c in COMPARISONS));
        if (bad) throw claimError(text, `"${bad}" is not supported; use <, <=, >, >= (for equality write abs(x - y) < tol)`);
        if (want === 'number') throw claimError(text, 'a comparison cannot be used as a number');
        for (const p of r.params) check(p, 'number');
        return;
      }
      case 'OperatorNode': {
        const o = n as unknown as { op: string; fn: string; args: MathNode[] };
        if (o.fn in COMPARISONS) {
          if (want === 'number') throw claimError(text, `a comparison (${o.op}) cannot be used as a number`, text.indexOf(o.op));
          for (const a of o.args) check(a, 'number');
          return;
        }
        if (o.fn === 'and' || o.fn === 'or' || o.fn === 'not') {
          if (want === 'number') throw claimError(text, `"${o.fn}" combines comparisons, not numbers`, at(o.fn));
          for (const a of o.args) check(a, 'boolean');
          return;
        }
        if (['add', 'subtract', 'multiply', 'divide', 'pow', 'unaryMinus', 'unaryPlus'].includes(o.fn)) {
          if (want === 'boolean')
            throw claimError(
              text,
              `expected a comparison (<, <=, >, >=) at the top, found "${o.op}"; write e.g. "T(lwl, srpt) / T(jsq, fifo) < 0.8"`,
            );
          for (const a of o.args) check(a, 'number');
          return;
        }
        throw claimError(
          text,
          `operator "${o.op}" is not supported; use + - * / ^, comparisons (<, <=, >, >=) and and/or/not${o.fn === 'equal' || o.fn === 'unequal' ? ' (for equality write abs(x - y) < tol)' : ''}`,
          text.indexOf(o.op),
        );
      }
      default:
        throw claimError(text, `${n.type.replace(/Node$/, '').toLowerCase()} expressions are not supported`);
    }
  };
  check(node, 'boolean');
  return { text, node, quantities: [...quantities.values()] };
}

/** The text of a memory argument: a bare name (`ip`) or a range node (`bcp:3`, as mathjs reads it); else undefined. */
function memoryText(node: MathNode): string | undefined {
  if (node.type === 'SymbolNode') return (node as unknown as { name: string }).name;
  if (node.type === 'RangeNode') {
    const r = node as unknown as { start: MathNode; end: MathNode; step: MathNode | null };
    if (r.step === null && r.start.type === 'SymbolNode' && r.end.type === 'ConstantNode')
      return `${(r.start as unknown as { name: string }).name}:${String((r.end as unknown as { value: unknown }).value)}`;
  }
  if (node.type === 'ConstantNode' && typeof (node as unknown as { value: unknown }).value === 'string')
    return (node as unknown as { value: string }).value;
  return undefined;
}

/** The canonical key of a quantity node's arguments, as `quantityOf` names it ("T(jsq, fifo)", "T(jsq, fifo, bcp:3)"). */
function quantityKey(measure: string, args: readonly MathNode[]): string {
  const names = args.map((a, i) => (i < 2 ? (a as unknown as { name: string }).name : canonicalMemory(memoryText(a) ?? '')));
  return `${measure}(${names.join(', ')})`;
}

function quantityOf(text: string, measure: Measure, args: MathNode[], pos: number | undefined): QuantityRef {
  const usage = `${measure}(selection, discipline[, memory]), e.g. ${measure}(jsq, fifo) or ${measure}(jsq, fifo, bcp:3)`;
  if (args.length !== 2 && args.length !== 3)
    throw claimError(text, `${measure}() takes 2 or 3 arguments, ${usage}; got ${args.length}`, pos);
  const names = args.slice(0, 2).map((a) => (a.type === 'SymbolNode' ? (a as unknown as { name: string }).name : undefined));
  if (names.some((x) => x === undefined)) throw claimError(text, `${measure}() arguments must be bare names, ${usage}`, pos);
  const [selection, discipline] = names as string[];
  if (!(SELECTIONS as readonly string[]).includes(selection)) {
    throw claimError(
      text,
      `unknown selection "${selection}" in ${measure}(); expected one of: ${SELECTIONS.join(', ')}`,
      positionOf(text, selection),
    );
  }
  if (!(DISCIPLINES as readonly string[]).includes(discipline)) {
    throw claimError(
      text,
      `unknown discipline "${discipline}" in ${measure}(); expected one of: ${DISCIPLINES.join(', ')}`,
      positionOf(text, discipline),
    );
  }
  let memory: string | undefined;
  if (args.length === 3) {
    const written = memoryText(args[2]);
    if (written === undefined) throw claimError(text, `the memory of ${measure}() must be none, ip, cp, bcp:A or ism:A, ${usage}`, pos);
    try {
      memory = canonicalMemory(written);
    } catch (error) {
      throw claimError(text, (error as Error).message, positionOf(text, written.split(':')[0]));
    }
  }
  return {
    key: quantityKey(measure, args),
    measure,
    selection: selection as Selection,
    discipline: discipline as Discipline,
    ...(memory === undefined ? {} : { memory }),
  };
}

/** Values a claim is evaluated with: an interval and a point estimate per quantity key, and the grid symbols. */
export interface ClaimValues {
  readonly intervals: ReadonlyMap<string, Interval>;
  readonly points: ReadonlyMap<string, number>;
  readonly symbols: Readonly<Record<string, number>>;
}

function evalNumber(n: MathNode, v: ClaimValues, usePoints: boolean): Interval {
  switch (n.type) {
    case 'ParenthesisNode':
      return evalNumber((n as unknown as { content: MathNode }).content, v, usePoints);
    case 'ConstantNode':
      return I.point((n as unknown as { value: number }).value);
    case 'SymbolNode': {
      const name = (n as unknown as { name: string }).name;
      const x = name === 'pi' ? Math.PI : name === 'e' ? Math.E : v.symbols[name];
      if (x === undefined || Number.isNaN(x)) throw new InvalidModelError(`claim symbol "${name}" has no value at this grid point`);
      return I.point(x);
    }
    case 'FunctionNode': {
      const f = n as unknown as { fn: { name: string }; args: MathNode[] };
      const name = f.fn.name;
      if ((MEASURES as readonly string[]).includes(name)) {
        const key = quantityKey(name, f.args);
        if (usePoints) {
          const p = v.points.get(key);
          if (p === undefined) throw new InvalidModelError(`no value for ${key}`);
          return I.point(p);
        }
        const q = v.intervals.get(key);
        if (!q) throw new InvalidModelError(`no value for ${key}`);
        return q;
      }
      const xs = f.args.map((a) => evalNumber(a, v, usePoints));
      switch (name) {
        case 'log':
          return xs.length === 2
            ? I.div(I.monotone('log', Math.log, xs[0], 0, true), I.monotone('log', Math.log, xs[1], 0, true))
            : I.monotone('log', Math.log, xs[0], 0, true);
        case 'log2':
          return I.monotone('log2', Math.log2, xs[0], 0, true);
        case 'log10':
          return I.monotone('log10', Math.log10, xs[0], 0, true);
        case 'sqrt':
          return I.monotone('sqrt', Math.sqrt, xs[0], 0);
        case 'exp':
          return I.monotone('exp', Math.exp, xs[0]);
        case 'abs':
          return I.abs(xs[0]);
        case 'min':
          return xs.reduce(I.min);
        case 'max':
          return xs.reduce(I.max);
      }
      throw new InvalidModelError(`unknown function ${name}`);
    }
    case 'OperatorNode': {
      const o = n as unknown as { fn: string; args: MathNode[] };
      const xs = o.args.map((a) => evalNumber(a, v, usePoints));
      switch (o.fn) {
        case 'add':
          return I.add(xs[0], xs[1]);
        case 'subtract':
          return I.sub(xs[0], xs[1]);
        case 'multiply':
          return I.mul(xs[0], xs[1]);
        case 'divide':
          return I.div(xs[0], xs[1]);
        case 'unaryMinus':
          return I.neg(xs[0]);
        case 'unaryPlus':
          return xs[0];
        case 'pow': {
          if (xs[1].lo !== xs[1].hi) throw new InvalidModelError('claim: the exponent of ^ must be a constant (not a quantity)');
          return I.pow(xs[0], xs[1].lo);
        }
      }
    }
  }
  throw new InvalidModelError(`claim: cannot evaluate ${n.toString()} as a number`);
}

function evalBoolean(n: MathNode, v: ClaimValues, out: ComparisonOutcome[]): Verdict {
  const compare = (l: MathNode, fn: string, r: MathNode): Verdict => {
    const operator = COMPARISONS[fn];
    const left = evalNumber(l, v, false);
    const right = evalNumber(r, v, false);
    const verdict = I.compareIntervals(left, operator, right);
    out.push({
      text: `${l.toString()} ${operator} ${r.toString()}`,
      operator,
      leftValue: evalNumber(l, v, true).lo,
      rightValue: evalNumber(r, v, true).lo,
      left,
      right,
      verdict,
    });
    return verdict;
  };
  switch (n.type) {
    case 'ParenthesisNode':
      return evalBoolean((n as unknown as { content: MathNode }).content, v, out);
    case 'RelationalNode': {
      const r = n as unknown as { conditionals: string[]; params: MathNode[] };
      return I.and(r.conditionals.map((c, i) => compare(r.params[i], c, r.params[i + 1])));
    }
    case 'OperatorNode': {
      const o = n as unknown as { fn: string; args: MathNode[] };
      if (o.fn in COMPARISONS) return compare(o.args[0], o.fn, o.args[1]);
      if (o.fn === 'not') return I.not(evalBoolean(o.args[0], v, out));
      const parts = o.args.map((a) => evalBoolean(a, v, out));
      return o.fn === 'and' ? I.and(parts) : I.or(parts);
    }
  }
  throw new InvalidModelError(`claim: cannot evaluate ${n.toString()} as a comparison`);
}

/**
 * Evaluates a parsed claim at one grid point: each comparison's sides as interval enclosures (and at the point
 * estimates), its verdict by `compareIntervals`, and the claim's verdict by Kleene logic over and/or/not.
 * @param values intervals and point values for every quantity of `claim.quantities`, and the symbols lambda, d, n.
 * @throws {InvalidModelError} if a quantity or symbol has no value, or a function leaves its domain (e.g. log of an
 *   interval reaching 0).
 */
export function evaluateClaim(claim: ParsedClaim, values: ClaimValues): ClaimOutcome {
  const comparisons: ComparisonOutcome[] = [];
  const verdict = evalBoolean(claim.node, values, comparisons);
  return { verdict, comparisons };
}
