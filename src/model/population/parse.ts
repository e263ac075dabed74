/**
 * `parsePopulationModel`: a model file (models/README.md) → a validated, frozen, JSON-serialisable
 * `PopulationModel` with every template instantiated: variable names, one entry per transition with its jump
 * vector and rate expression, the initial state, and the observables as expressions.
 * Source: theory.md §6 (density-dependent population processes: jumps ℓ/n at rate nβ_ℓ(x)); the file format
 * follows rmf_tool's DDPP (`add_transition(l, f)`).
 */
import { InvalidModelError } from '../../errors.ts';
import { evaluateBound, expandTemplate, prepareExpression, RESERVED_NAMES, type SymbolTable } from './expression.ts';
import { checkPopulationModelShape, type PopulationModelFile } from './schema.ts';
import { mathjs } from '../../lazy.ts';

/** One transition x → x + ℓ/n at rate n·β(x). */
export interface PopulationTransition {
  /** Where it came from, e.g. "transitions[1] (i = 3)" or its name: used in messages. */
  readonly label: string;
  /** ℓ: variable name → change (non-zero entries only). */
  readonly change: Readonly<Record<string, number>>;
  /** β(x) per n, a mathjs expression over variables, parameters and constants (templates instantiated). */
  readonly rate: string;
}

/** A validated density-dependent population model (plain data, frozen). */
export interface PopulationModel {
  readonly name: string;
  readonly description?: string;
  readonly source?: string;
  /** File the model came from (for messages), if given. */
  readonly file?: string;
  /** Parameter values after overrides. */
  readonly parameters: Readonly<Record<string, number>>;
  /** Named constants (template keys instantiated, expressions evaluated), e.g. s0 = 1. */
  readonly constants: Readonly<Record<string, number>>;
  /** State variable names; index i of every state vector holds variables[i]. */
  readonly variables: readonly string[];
  /** Vector generators: vector name → its variable names (for `sum(v)`). */
  readonly vectors: Readonly<Record<string, readonly string[]>>;
  readonly transitions: readonly PopulationTransition[];
  /** Initial state (length = variables.length; missing entries 0). */
  readonly initial: readonly number[];
  /** Observable name → mathjs expression over the variables (templated sums expanded). */
  readonly observables: Readonly<Record<string, string>>;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Largest number of state variables or instantiated transitions accepted (a typo guard, e.g. K = 1e6). */
export const MAX_POPULATION_SIZE = 20_000;

function checkName(name: string, what: string, where: string, taken: Map<string, string>): void {
  if (!IDENTIFIER.test(name)) throw new InvalidModelError(`${where}: ${what} name "${name}" must be an identifier (letters, digits, _)`);
  if (RESERVED_NAMES.has(name))
    throw new InvalidModelError(`${where}: ${what} name "${name}" is reserved (${[...RESERVED_NAMES].join(', ')})`);
  const other = taken.get(name);
  if (other) throw new InvalidModelError(`${where}: ${what} name "${name}" is already used as a ${other}`);
  taken.set(name, what);
}

function range(from: number, to: number, where: string): number[] {
  if (to - from + 1 > MAX_POPULATION_SIZE)
    throw new InvalidModelError(`${where}: range ${from}..${to} exceeds ${MAX_POPULATION_SIZE} entries`);
  const out: number[] = [];
  for (let k = from; k <= to; k++) out.push(k);
  return out;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Validates a population-model file and instantiates its templates.
 * @param json the parsed JSON of a model file (models/README.md describes the format).
 * @param overrides parameter values replacing the file's (CLI `--set name=value`); each must name a parameter.
 * @param options `file`: the file name, prefixed to every message.
 * @returns a frozen `PopulationModel`.
 * @throws {InvalidModelError} with `file: location: problem` for a malformed shape (JSON path), an unknown override,
 *   a bad name (not an identifier, reserved, duplicate), a template that is not an integer, a jump on an unknown
 *   variable or a constant, an expression that does not parse (mathjs message with character position) or names
 *   an unknown symbol, or an initial value on an unknown variable.
 * @example parsePopulationModel(jsqFile, { lambda: 0.95 }).variables.length // 20 for models/jsq-d.json
 */
export function parsePopulationModel(
  json: unknown,
  overrides: Record<string, number> = {},
  options: { file?: string } = {},
): PopulationModel {
  const file = options.file ?? 'model';
  const spec: PopulationModelFile = checkPopulationModelShape(json, file);
  const taken = new Map<string, string>();
  const parameters: Record<string, number> = {};
  for (const [name, value] of Object.entries(spec.parameters)) {
    checkName(name, 'parameter', `${file}: parameters`, taken);
    parameters[name] = value;
  }
  for (const [name, value] of Object.entries(overrides)) {
    if (!(name in parameters)) {
      throw new InvalidModelError(
        `${file}: cannot set "${name}": not a parameter of the model (parameters: ${Object.keys(parameters).join(', ') || 'none'})`,
      );
    }
    if (!Number.isFinite(value)) throw new InvalidModelError(`${file}: parameter ${name} must be a finite number, got ${value}`);
    parameters[name] = value;
  }

  const variables: string[] = [];
  const vectors: Record<string, string[]> = {};
  const entries = Array.isArray(spec.variables) ? spec.variables : [spec.variables];
  entries.forEach((entry, k) => {
    const where = `${file}: variables${Array.isArray(spec.variables) ? `[${k}]` : ''}`;
    if (typeof entry === 'string') {
      checkName(entry, 'variable', where, taken);
      variables.push(entry);
      return;
    }
    checkName(entry.vector, 'vector', where, taken);
    const from = evaluateBound(entry.from, parameters, `${where}.from`);
    const to = evaluateBound(entry.to, parameters, `${where}.to`);
    if (to < from) throw new InvalidModelError(`${where}: empty vector ${entry.vector}${from}..${entry.vector}${to} (to < from)`);
    vectors[entry.vector] = range(from, to, where).map((j) => `${entry.vector}${j}`);
    for (const name of vectors[entry.vector]) {
      checkName(name, 'variable', where, taken);
      variables.push(name);
    }
  });
  if (variables.length > MAX_POPULATION_SIZE)
    throw new InvalidModelError(`${file}: ${variables.length} variables exceed ${MAX_POPULATION_SIZE}`);

  const constants: Record<string, number> = {};
  for (const [key, value] of Object.entries(spec.constants)) {
    const where = `${file}: constants.${key}`;
    const name = expandTemplate(key, parameters, where);
    checkName(name, 'constant', where, taken);
    if (typeof value === 'number') constants[name] = value;
    else {
      let v: unknown;
      try {
        v = mathjs().evaluate(expandTemplate(value, parameters, where), { ...parameters, ...constants });
      } catch (error) {
        throw new InvalidModelError(`${where}: cannot evaluate "${value}": ${(error as Error).message}`);
      }
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new InvalidModelError(`${where}: "${value}" must evaluate to a finite number, got ${String(v)}`);
      constants[name] = v;
    }
  }

  const table: SymbolTable = {
    variables: new Map(variables.map((v, i) => [v, i])),
    values: new Map([...Object.entries(parameters), ...Object.entries(constants)]),
    vectors: new Map(Object.entries(vectors)),
  };

  const transitions: PopulationTransition[] = [];
  spec.transitions.forEach((t, k) => {
    const base = `${file}: transitions[${k}]${t.name ? ` (${t.name})` : ''}`;
    const loop =
      t.for === undefined
        ? [undefined]
        : range(evaluateBound(t.from!, parameters, `${base}.from`), evaluateBound(t.to!, parameters, `${base}.to`), base);
    if (t.for !== undefined && taken.has(t.for))
      throw new InvalidModelError(`${base}: loop variable "${t.for}" is already a ${taken.get(t.for)} name`);
    for (const value of loop) {
      const where = value === undefined ? base : `${base} (${t.for} = ${value})`;
      const scope = value === undefined ? parameters : { ...parameters, [t.for!]: value };
      const change: Record<string, number> = {};
      for (const [rawKey, delta] of Object.entries(t.change)) {
        const name = expandTemplate(rawKey, scope, `${where}.change`);
        if (!table.variables.has(name)) {
          const hint = name in constants ? ' (it is a constant)' : '';
          throw new InvalidModelError(
            `${where}: change names unknown variable "${name}"${hint}; variables are ${variables.length > 6 ? `${variables[0]}, …, ${variables[variables.length - 1]}` : variables.join(', ')}`,
          );
        }
        if (delta !== 0) change[name] = (change[name] ?? 0) + delta;
      }
      if (Object.keys(change).length === 0) throw new InvalidModelError(`${where}: change is empty or all zero`);
      const rate = expandTemplate(t.rate, scope, `${where}.rate`);
      prepareExpression(rate, table, `${where}.rate`);
      transitions.push({ label: where.slice(file.length + 2), change, rate });
    }
  });
  if (transitions.length === 0) throw new InvalidModelError(`${file}: transitions: every loop is empty, so the model has no transitions`);
  if (transitions.length > MAX_POPULATION_SIZE)
    throw new InvalidModelError(`${file}: ${transitions.length} transitions exceed ${MAX_POPULATION_SIZE}`);

  const initial = new Array<number>(variables.length).fill(0);
  for (const [key, value] of Object.entries(spec.initial ?? {})) {
    const where = `${file}: initial.${key}`;
    const name = expandTemplate(key, parameters, where);
    const i = table.variables.get(name);
    if (i === undefined) throw new InvalidModelError(`${where}: "${name}" is not a variable`);
    if (typeof value === 'number') initial[i] = value;
    else {
      const v = mathjs().evaluate(expandTemplate(value, parameters, where), { ...parameters, ...constants });
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new InvalidModelError(`${where}: "${value}" must evaluate to a finite number`);
      initial[i] = v;
    }
  }

  const observables: Record<string, string> = {};
  for (const [name, spec1] of Object.entries(spec.observables)) {
    const where = `${file}: observables.${name}`;
    if (!IDENTIFIER.test(name)) throw new InvalidModelError(`${where}: observable name must be an identifier`);
    let text: string;
    if (typeof spec1 === 'string') text = expandTemplate(spec1, parameters, where);
    else {
      const from = evaluateBound(spec1.from, parameters, `${where}.from`);
      const to = evaluateBound(spec1.to, parameters, `${where}.to`);
      const terms = range(from, to, where).map((j) => `(${expandTemplate(spec1.sum, { ...parameters, [spec1.for]: j }, where)})`);
      text = terms.length ? terms.join(' + ') : '0';
    }
    prepareExpression(text, table, where);
    observables[name] = text;
  }

  return deepFreeze({
    name: spec.name,
    ...(spec.description !== undefined ? { description: spec.description } : {}),
    ...(spec.source !== undefined ? { source: spec.source } : {}),
    ...(options.file !== undefined ? { file: options.file } : {}),
    parameters,
    constants,
    variables,
    vectors,
    transitions,
    initial,
    observables,
  });
}

/** The symbol table of a parsed model (variables, parameter and constant values, vectors). */
export function symbolTable(model: PopulationModel): SymbolTable {
  return {
    variables: new Map(model.variables.map((v, i) => [v, i])),
    values: new Map([...Object.entries(model.parameters), ...Object.entries(model.constants)]),
    vectors: new Map(Object.entries(model.vectors)),
  };
}
