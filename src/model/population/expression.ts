/**
 * Expressions of population-model files: `{…}` templates over the parameters and loop variables, and mathjs
 * expressions resolved against the model's names (variables stay symbols; parameters, constants, `pi`, `e`
 * become numbers; `sum(v)` over a vector generator becomes v1 + v2 + …). Every failure names where it happened.
 */
import type { MathNode } from 'mathjs';
import { mathjs } from '../../lazy.ts';
import { InvalidModelError } from '../../errors.ts';

/** Names an expression may use. */
export interface SymbolTable {
  /** Variable name → index into the state vector. */
  variables: ReadonlyMap<string, number>;
  /** Parameters and constants (after overrides and templates) → value. */
  values: ReadonlyMap<string, number>;
  /** Vector name (from a generator) → its variable names, for `sum(v)`. */
  vectors: ReadonlyMap<string, readonly string[]>;
}

const BUILTIN_CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

/** Names a model may not declare: mathjs constants and literals. */
export const RESERVED_NAMES = new Set(['pi', 'e', 'E', 'PI', 'i', 'Infinity', 'NaN', 'true', 'false', 'null', 'undefined', 'sum']);

/**
 * Evaluates a `{…}` template expression (parameters and loop variables) to an integer.
 * @throws {InvalidModelError} naming `where` if it does not parse or is not a finite integer.
 */
export function evaluateInteger(text: string, scope: Record<string, number>, where: string): number {
  let value: unknown;
  try {
    value = mathjs().evaluate(text, { ...scope });
  } catch (error) {
    throw new InvalidModelError(`${where}: cannot evaluate "${text}": ${(error as Error).message}`);
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new InvalidModelError(`${where}: "${text}" must evaluate to an integer, got ${String(value)}`);
  }
  return value;
}

/** Evaluates a bound (integer or expression over the parameters). */
export function evaluateBound(bound: number | string, scope: Record<string, number>, where: string): number {
  return typeof bound === 'number' ? bound : evaluateInteger(bound, scope, where);
}

/**
 * Replaces each `{expr}` in `text` by the integer value of expr, e.g. "s{i-1}" with i = 3 gives "s2".
 * @throws {InvalidModelError} on unbalanced braces or a non-integer template value.
 */
export function expandTemplate(text: string, scope: Record<string, number>, where: string): string {
  if (!text.includes('{') && !text.includes('}')) return text;
  const out = text.replace(/\{([^{}]*)\}/g, (_, expr: string) => String(evaluateInteger(expr, scope, where)));
  if (out.includes('{') || out.includes('}')) throw new InvalidModelError(`${where}: unbalanced or nested braces in "${text}"`);
  return out;
}

/** Names the valid symbols, for messages. */
function describeNames(table: SymbolTable): string {
  const vars = [...table.variables.keys()];
  const shown = vars.length > 6 ? `${vars.slice(0, 3).join(', ')}, …, ${vars[vars.length - 1]}` : vars.join(', ');
  const values = [...table.values.keys()];
  return `variables: ${shown}; parameters and constants: ${values.length ? values.join(', ') : '(none)'}`;
}

/**
 * Parses an instantiated expression and resolves its names: `sum(v)` over a vector becomes v1 + … + vK, parameters,
 * constants, pi and e become constants, variables stay symbols.
 * @param text mathjs expression without templates. @param where location used in messages.
 * @returns a mathjs node whose only symbols are variables.
 * @throws {InvalidModelError} on a parse error (with mathjs's character position), an unknown name, or a vector
 *   used other than as `sum(v)`.
 */
export function prepareExpression(text: string, table: SymbolTable, where: string): MathNode {
  let node: MathNode;
  try {
    node = mathjs().parse(text);
  } catch (error) {
    throw new InvalidModelError(`${where}: cannot parse "${text}": ${(error as Error).message}`);
  }
  return node.transform((child: MathNode, path: string) => {
    if (path === 'fn') return child;
    if ((child as { type: string }).type === 'FunctionNode') {
      const f = child as unknown as { fn: { name?: string }; args: MathNode[] };
      const arg = f.args[0] as unknown as { type: string; name?: string };
      if (f.fn.name === 'sum' && f.args.length === 1 && arg.type === 'SymbolNode' && table.vectors.has(arg.name!)) {
        const names = table.vectors.get(arg.name!)!;
        let acc: MathNode = new (mathjs().SymbolNode)(names[0]);
        for (let k = 1; k < names.length; k++) acc = new (mathjs().OperatorNode)('+', 'add', [acc, new (mathjs().SymbolNode)(names[k])]);
        return acc;
      }
      if (f.fn.name === 'sum')
        throw new InvalidModelError(
          `${where}: sum(…) takes one vector name (${[...table.vectors.keys()].join(', ') || 'none declared'}), in "${text}"`,
        );
      return child;
    }
    if ((child as { type: string }).type !== 'SymbolNode') return child;
    const name = (child as unknown as { name: string }).name;
    if (table.variables.has(name)) return child;
    const value = table.values.get(name) ?? BUILTIN_CONSTANTS[name];
    if (value !== undefined) return new (mathjs().ConstantNode)(value);
    if (table.vectors.has(name)) throw new InvalidModelError(`${where}: vector "${name}" can only be used as sum(${name}), in "${text}"`);
    throw new InvalidModelError(`${where}: unknown name "${name}" in "${text}" (${describeNames(table)})`);
  });
}
