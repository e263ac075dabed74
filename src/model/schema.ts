/**
 * The one schema of the model room (zod): the vocabulary (selection rules, disciplines, sampling, service and
 * prediction kinds, the conventions of theory.md §1), the model itself, and the formatting of zod issues into one
 * line. `parseModel` (model.ts) validates with `modelSchema` once; solvers and engines trust the parsed model.
 * Experiment and claim files import the vocabulary and `conventionsInputSchema` from here; population-model files
 * use `parseWithSchema`.
 *
 * Messages: every issue raised by these schemas is a lower-case sentence that names its field ("lambda must be a
 * finite number, got \"abc\""); zod's own (capitalised) messages are prefixed with their JSON path.
 * Source: theory.md §1 ("Model", "Conventions to expose").
 */
import type { z as Zod } from 'zod';
import { onFirstTouch, z } from '../lazy.ts';
import { InvalidModelError } from '../errors.ts';
import { memorySchema } from './memory.ts';
import { serversSchema } from './servers.ts';
import { arrivalsSchema } from './arrivals.ts';
import { batchLawSchema, normaliseBatchLaw, parseBatchShort, type BatchSizeLaw } from './batchLaw.ts';

import { BATCH_DISPATCHES, DISCIPLINES, REDUNDANCIES, REPLICA_LAWS, SELECTIONS } from './policy/index.ts';
export { SELECTIONS, DISCIPLINES, type Selection, type Discipline } from './policy/index.ts';

/** How the d servers are sampled: with replacement (default; the population-process rates) or without. */
export const SAMPLINGS = ['with-replacement', 'without-replacement'] as const;
export type Sampling = (typeof SAMPLINGS)[number];

export const SERVICE_KINDS = [
  'exponential',
  'deterministic',
  'erlang',
  'hyperexponential',
  'weibull',
  'lognormal',
  'bounded-pareto',
  'pareto',
  'empirical',
] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

export const PREDICTION_KINDS = ['exact', 'exponential', 'uniform', 'lognormal', 'trace'] as const;
export type PredictionKind = (typeof PREDICTION_KINDS)[number];

/** `lpwWork`: predicted work of a server under LPW: 'clip' Σ(Y_j − a_j)^+ (default) | 'signed' Σ(Y_j − a_j) | 'static' ΣY_j. */
export const LPW_WORK_RULES = ['clip', 'signed', 'static'] as const;
/** `sprptOverrun`: SPRPT key of a job that outlived its prediction: 'negative' Y − a (default) | 'zero' (clipped). */
export const SPRPT_OVERRUN_RULES = ['negative', 'zero'] as const;
/** `psjfPreemption`: PSJF/PSPJF preempt on the 'original' size S (Y) (default) | the 'remaining' S − a (Y − a). */
export const PSJF_PREEMPTION_RULES = ['original', 'remaining'] as const;

/** Conventions the seed paper leaves open (theory.md §1 "Conventions to expose"); defaults in DEFAULT_CONVENTIONS. */
export interface Conventions {
  readonly lpwWork: (typeof LPW_WORK_RULES)[number];
  readonly sprptOverrun: (typeof SPRPT_OVERRUN_RULES)[number];
  readonly psjfPreemption: (typeof PSJF_PREEMPTION_RULES)[number];
}
export const DEFAULT_CONVENTIONS: Conventions = { lpwWork: 'clip', sprptOverrun: 'negative', psjfPreemption: 'original' };

const show = (value: unknown): string => (typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value)));

/** Numeric strings such as "0.9" or "1e6" become numbers (CLI flags, query strings); anything else passes unchanged. */
const numericString = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;

/** A finite number (numeric strings accepted); `field` names it in the message. */
export const finiteNumber = (field: string) =>
  z.preprocess(numericString, z.number({ error: (iss) => `${field} must be a finite number, got ${show(iss.input)}` }));

/** A finite number > 0. */
export const positiveNumber = (field: string) =>
  finiteNumber(field).refine((x) => x > 0, { error: (iss) => `${field} must be > 0, got ${show(iss.input)}` });

/** An integer ≥ 1 (d, n, Erlang k); numeric strings such as "1e6" accepted. */
export const positiveIntegerSchema = (field: string) =>
  finiteNumber(field).refine((x) => Number.isInteger(x) && x >= 1, {
    error: (iss) => `${field} must be an integer ≥ 1, got ${show(iss.input)}`,
  });

/** One of a fixed list of names; the message lists them. */
export const oneOf = <const T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: (iss) => `unknown ${field} ${show(iss.input)}; expected one of: ${values.join(', ')}` });

/**
 * The conventions as written in files and flags: each optional, no other key. Experiment and claim files use it
 * as is (what the file says is what they record); `modelSchema` fills the defaults.
 */
export const conventionsInputSchema = onFirstTouch(() =>
  z
    .object(
      {
        lpwWork: oneOf('lpwWork convention', LPW_WORK_RULES).optional(),
        sprptOverrun: oneOf('sprptOverrun convention', SPRPT_OVERRUN_RULES).optional(),
        psjfPreemption: oneOf('psjfPreemption convention', PSJF_PREEMPTION_RULES).optional(),
      },
      {
        // an unknown convention: unknownKeyMessage (the parse's error map) names it and the allowed ones
        error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'conventions must be an object such as {"lpwWork":"clip"}'),
      },
    )
    .strict(),
);

const serviceMean = onFirstTouch(() => positiveNumber('service mean').default(1));

/** A finite number > lower; the message names the field (`what`, default field) and adds the law's hint. */
const above = (field: string, lower: number, hint = '', what = field) =>
  finiteNumber(field).refine((x) => x > lower, { error: (iss) => `${what} must be > ${lower}${hint}, got ${show(iss.input)}` });

/**
 * The parameters of each service law given by numbers (theory.md §1 "Sizes"), in the order its short form writes
 * them (`bpareto:ALPHA:RATIO`), each with its check; every law also has `mean`. One table for the object form
 * (`serviceSchema`) and the short form (`parseServiceShort`).
 */
const SERVICE_PARAMETERS = onFirstTouch(
  () =>
    ({
      exponential: {},
      deterministic: {},
      erlang: { k: positiveIntegerSchema('erlang k') },
      hyperexponential: { scv: above('hyperexponential scv', 1, ' (use erlang or exponential for scv ≤ 1)') },
      weibull: { shape: positiveNumber('weibull shape') },
      lognormal: { sigma: positiveNumber('lognormal sigma') },
      'bounded-pareto': {
        alpha: positiveNumber('bounded-pareto alpha'),
        ratio: above('bounded-pareto ratio', 1, '', 'bounded-pareto ratio (upper/lower bound)'),
      },
      pareto: { alpha: above('pareto alpha', 1, ' (the mean is infinite for α ≤ 1; bpareto:ALPHA:RATIO allows any α > 0)') },
    }) as const,
);

type ParametricKind = keyof typeof SERVICE_PARAMETERS;

/** The short form of each law given by numbers, as the error messages show it. */
const SHORT_FORMS: Record<ParametricKind, string> = {
  exponential: 'exp',
  deterministic: 'det',
  erlang: 'erlang:K',
  hyperexponential: 'hyperexp:SCV',
  weibull: 'weibull:SHAPE',
  lognormal: 'lognormal:SIGMA',
  'bounded-pareto': 'bpareto:ALPHA:RATIO',
  pareto: 'pareto:ALPHA',
};

/** Aliases accepted in the short CLI form `kind:param`. */
const SERVICE_ALIASES: Record<string, ServiceKind> = {
  exp: 'exponential',
  exponential: 'exponential',
  det: 'deterministic',
  deterministic: 'deterministic',
  erlang: 'erlang',
  hyperexp: 'hyperexponential',
  h2: 'hyperexponential',
  hyperexponential: 'hyperexponential',
  weibull: 'weibull',
  lognormal: 'lognormal',
  bpareto: 'bounded-pareto',
  'bounded-pareto': 'bounded-pareto',
  pareto: 'pareto',
  empirical: 'empirical',
};

/**
 * Parses the short form of a service distribution: `exp`, `det`, `erlang:K`, `hyperexp:SCV`, `weibull:SHAPE`,
 * `lognormal:SIGMA`, `bpareto:ALPHA:RATIO`, `pareto:ALPHA` (an optional last `@MEAN` sets the mean, e.g. `weibull:0.5@2`).
 * @returns the unvalidated object form (numbers still strings), for `serviceSchema`.
 * @throws {InvalidModelError} naming the expected form.
 */
export function parseServiceShort(text: string): Record<string, unknown> {
  const [body, meanText] = text.split('@');
  const [name, ...params] = body.split(':');
  const kind = SERVICE_ALIASES[name.trim().toLowerCase()];
  if (!kind)
    throw new InvalidModelError(`unknown service ${JSON.stringify(text)}; expected one of: ${Object.values(SHORT_FORMS).join(', ')}`);
  if (kind === 'empirical')
    throw new InvalidModelError(
      `service ${JSON.stringify(text)}: empirical sizes come from a file (the CLI reads empirical:FILE, one size per line) or from an object {"kind":"empirical","values":[…]}`,
    );
  const names = Object.keys(SERVICE_PARAMETERS[kind]);
  if (params.length !== names.length)
    throw new InvalidModelError(`service ${JSON.stringify(text)}: expected ${names.length === 0 ? name : SHORT_FORMS[kind]}`);
  const out: Record<string, unknown> = { kind };
  if (meanText !== undefined) out.mean = meanText;
  names.forEach((key, i) => (out[key] = params[i]));
  return out;
}

/** The object form of a law given by numbers: `{ kind, …its parameters, mean }`. */
const lawSchema = <K extends ParametricKind>(kind: K) =>
  // strict: a misspelt parameter ({ kind: 'exponential', maen: 2 }) would otherwise be dropped and its default run
  z.object({ kind: z.literal(kind), ...(SERVICE_PARAMETERS[kind] as (typeof SERVICE_PARAMETERS)[K]), mean: serviceMean }).strict();

/**
 * A service law (theory.md §1 "Sizes"): an object `{ kind, …, mean }` or a short form (`parseServiceShort`).
 * Empirical sizes are rescaled to `mean`.
 */
export const serviceSchema = onFirstTouch(() =>
  z.preprocess(
    (value) => (typeof value === 'string' ? parseServiceShort(value) : value),
    z.discriminatedUnion(
      'kind',
      [
        lawSchema('exponential'),
        lawSchema('deterministic'),
        lawSchema('erlang'),
        lawSchema('hyperexponential'),
        lawSchema('weibull'),
        lawSchema('lognormal'),
        lawSchema('bounded-pareto'),
        lawSchema('pareto'),
        z
          .object({
            kind: z.literal('empirical'),
            values: z
              .array(
                finiteNumber('empirical size').refine((x) => x >= 0, {
                  error: (iss) => `empirical sizes must be ≥ 0, got ${show(iss.input)}`,
                }),
                { error: () => 'empirical service needs a non-empty "values" array of sizes' },
              )
              .min(1, { error: () => 'empirical service needs a non-empty "values" array of sizes' })
              .refine((v) => v.reduce((a, b) => a + b, 0) > 0, {
                error: () => 'empirical sizes must have a positive mean',
                when: (payload) => payload.issues.length === 0,
              }),
            source: z.string().default('values'),
            mean: serviceMean,
          })
          .strict()
          .transform(({ kind, values, source, mean }) => {
            const raw = values.reduce((a, b) => a + b, 0) / values.length;
            return { kind, values: values.map((x) => (x * mean) / raw), source, mean };
          }),
      ],
      {
        error: (iss) =>
          typeof iss.input !== 'object' || iss.input === null
            ? 'service must be an object such as {"kind":"exponential","mean":1} or a short form such as "weibull:0.5"'
            : `unknown service kind ${show((iss.input as { kind?: unknown } | undefined)?.kind)}; expected one of: ${SERVICE_KINDS.join(', ')}`,
      },
    ),
  ),
);

/**
 * Expands the short form of a prediction model: `exact`, `exp`, `uniform:ALPHA`, `lognormal:SIGMA` (median-unbiased)
 * or `lognormal:SIGMA:mean` (mean-unbiased).
 * @throws {InvalidModelError} naming the expected forms.
 */
function parsePredictionShort(text: string): Record<string, unknown> {
  const [name, ...params] = text.split(':');
  const key = name.trim().toLowerCase();
  const kind = key === 'exp' ? 'exponential' : key;
  if (
    (kind === 'uniform' && params.length !== 1) ||
    (kind === 'lognormal' && (params.length < 1 || params.length > 2)) ||
    ((kind === 'exact' || kind === 'exponential') && params.length !== 0)
  ) {
    throw new InvalidModelError(`prediction ${JSON.stringify(text)}: expected exact, exp, uniform:ALPHA or lognormal:SIGMA[:median|mean]`);
  }
  return {
    kind,
    ...(kind === 'uniform' ? { alpha: params[0] } : {}),
    ...(kind === 'lognormal' ? { sigma: params[0], bias: params[1] ?? 'median' } : {}),
  };
}

/** A prediction model (theory.md §1 "Predictions"): an object `{ kind, … }` or a short form (`parsePredictionShort`). */
export const predictionSchema = onFirstTouch(() =>
  z.preprocess(
    (value) => (typeof value === 'string' ? parsePredictionShort(value) : value),
    z.discriminatedUnion(
      'kind',
      [
        z.object({ kind: z.literal('exact') }).strict(),
        z.object({ kind: z.literal('exponential') }).strict(),
        z
          .object({
            kind: z.literal('uniform'),
            alpha: finiteNumber('uniform prediction alpha').refine((x) => x >= 0 && x <= 1, {
              error: (iss) => `uniform prediction alpha must be in [0, 1], got ${show(iss.input)}`,
            }),
          })
          .strict(),
        z
          .object({
            kind: z.literal('lognormal'),
            sigma: finiteNumber('lognormal prediction sigma').refine((x) => x >= 0, {
              error: (iss) => `lognormal prediction sigma must be ≥ 0, got ${show(iss.input)}`,
            }),
            bias: oneOf('lognormal prediction bias', ['median', 'mean']).default('median'),
          })
          .strict(),
        z
          .object({
            kind: z.literal('trace'),
            values: z
              .array(finiteNumber('trace prediction'), { error: () => 'trace prediction needs a non-empty "values" array' })
              .min(1, { error: () => 'trace prediction needs a non-empty "values" array' }),
            source: z.string().default('values'),
          })
          .strict(),
      ],
      {
        error: (iss) =>
          typeof iss.input !== 'object' || iss.input === null
            ? 'prediction must be an object such as {"kind":"exact"} or a short form such as "uniform:0.5"'
            : `unknown prediction kind ${show((iss.input as { kind?: unknown } | undefined)?.kind)}; expected one of: ${PREDICTION_KINDS.join(', ')}`,
      },
    ),
  ),
);

/**
 * The model (theory.md §1): `lambda` and `d` required, every other field defaulted. Output is plain data; the
 * stability check (λ > 0, ρ < 1) is `parseModel`'s, since it raises UnstableModelError rather than InvalidModelError.
 */
export const modelSchema = onFirstTouch(() =>
  z
    .object({
      lambda: finiteNumber('lambda'),
      d: positiveIntegerSchema('d'),
      selection: oneOf('selection', SELECTIONS).default('jsq'),
      discipline: oneOf('discipline', DISCIPLINES).default('fifo'),
      service: serviceSchema.default({ kind: 'exponential', mean: 1 }),
      prediction: predictionSchema.default({ kind: 'exact' }),
      sampling: oneOf('sampling', SAMPLINGS).default('with-replacement'),
      memory: memorySchema.default({ kind: 'none' }),
      servers: serversSchema.optional(),
      arrivals: arrivalsSchema.default({ kind: 'exponential' }),
      // a fixed K (integer) or a size law: the short form geom:MEAN | pmf:P1,P2,… or its object form (model/batchLaw.ts);
      // a law is checked here, in one line, and a pmf with one atom becomes that K
      batch: z
        .preprocess((v) => {
          const law = typeof v === 'string' && /^[a-z]/i.test(v.trim()) ? parseBatchShort(v) : v;
          if (typeof law !== 'object' || law === null) return law;
          const parsed = batchLawSchema.safeParse(law);
          if (!parsed.success) throw new InvalidModelError(formatIssues(parsed.error, { label: 'batch' }));
          return normaliseBatchLaw(parsed.data);
        }, z.unknown())
        .transform((v, ctx): number | BatchSizeLaw => {
          if (typeof v === 'object' && v !== null) return v as BatchSizeLaw;
          const k = positiveIntegerSchema('batch size K').safeParse(v);
          if (k.success) return k.data;
          ctx.addIssue({ code: 'custom', message: k.error.issues[0]?.message ?? `batch size K must be an integer ≥ 1, got ${show(v)}` });
          return z.NEVER;
        })
        .default(1),
      batchDispatch: oneOf('batch dispatch', BATCH_DISPATCHES).default('spread'),
      // a mode name, or the normalised object form of a model read back from JSON ({ kind, replicas })
      redundancy: z
        .union(
          [
            oneOf('redundancy', REDUNDANCIES),
            z.object({ kind: z.literal('cancel-on-complete'), replicas: oneOf('replicas', REPLICA_LAWS) }).strict(),
          ],
          {
            error: (iss) =>
              `unknown redundancy ${show(iss.input)}; expected one of: ${REDUNDANCIES.join(', ')} (or {"kind":"cancel-on-complete","replicas":"independent"})`,
          },
        )
        .default('none'),
      replicas: oneOf('replicas', REPLICA_LAWS).optional(),
      conventions: conventionsInputSchema.default({}).transform((c): Conventions => ({ ...DEFAULT_CONVENTIONS, ...c })),
    })
    // a misspelt field would otherwise be dropped and its default run instead (`disipline: 'srpt'` ran FIFO); the parse's
    // error map (`validate`) names it and the allowed fields
    .strict(),
);

/** `a.b[2].c` for an issue path; '(top level)' when empty. */
export function issuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
}

/** Damerau–Levenshtein (optimal string alignment) distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The names in `known` closest to a mistyped `name` (a flag without its `--`, a file's key): edit distance (case
 * ignored) ≤ 2 and below half the name's length; ties all returned, in `known`'s order; [] when none is that close.
 * @example closestNames('lamda', ['lambda', 'd']) // ['lambda']
 */
export function closestNames(name: string, known: readonly string[]): string[] {
  let best = Infinity;
  let found: string[] = [];
  for (const candidate of known) {
    const dist = editDistance(name.toLowerCase(), candidate.toLowerCase()); // "K" is "k" mistyped, at any length
    if (dist > 2 || dist * 2 >= Math.max(name.length, 1)) continue;
    if (dist < best) {
      best = dist;
      found = [candidate];
    } else if (dist === best) found.push(candidate);
  }
  return found;
}

/**
 * The message of an object given a key its schema does not have (every object of the model, experiment, claim and
 * population-model files is strict): the key, the nearest allowed one, and the allowed keys, read from the schema
 * itself so the list cannot go stale: `unknown key "selection" (did you mean "selections"?); allowed keys: name, …`.
 * A zod error map for one parse (`validate`); undefined for every other issue (it keeps its own message).
 */
export function unknownKeyMessage(issue: Zod.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'unrecognized_keys') return undefined;
  const keys = (issue as { keys?: readonly string[] }).keys ?? [];
  const shape = (issue.inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
  const allowed = shape === undefined ? [] : Object.keys(shape);
  const near = [...new Set(keys.flatMap((k) => closestNames(k, allowed)))];
  return (
    `unknown key${keys.length === 1 ? '' : 's'} ${keys.map((k) => JSON.stringify(k)).join(', ')}` +
    (near.length ? ` (did you mean ${near.map((k) => JSON.stringify(k)).join(' or ')}?)` : '') +
    (allowed.length ? `; allowed keys: ${allowed.join(', ')}` : '')
  );
}

/**
 * Refuses a key of a library options object that is not one of its fields (`keys`: every field of the options type,
 * as a record so the compiler checks the list against the type both ways), so a misspelt option is not dropped: the
 * message is `unknownKeyMessage`'s, prefixed by what the options are for. A key whose value is undefined is absent.
 * @example refuseUnknownOptions('simulate', { replication: 20 }, { replications: true }) // throws: simulate: unknown key "replication" (did you mean "replications"?); allowed keys: replications
 * @throws {InvalidModelError} naming the unknown keys, the nearest allowed one and the allowed keys.
 */
export function refuseUnknownOptions(what: string, options: object, keys: Readonly<Record<string, true>>): void {
  const allowed = Object.keys(keys);
  const given = options as Record<string, unknown>;
  const unknown = Object.keys(given).filter((k) => !Object.hasOwn(keys, k) && given[k] !== undefined);
  if (unknown.length === 0) return;
  const near = [...new Set(unknown.flatMap((k) => closestNames(k, allowed)))];
  throw new InvalidModelError(
    `${what}: unknown option${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => JSON.stringify(k)).join(', ')}` +
      (near.length ? ` (did you mean ${near.map((k) => JSON.stringify(k)).join(' or ')}?)` : '') +
      `; allowed options: ${allowed.join(', ')}`,
  );
}

/**
 * `schema.safeParse(input)` with unknown keys named by `unknownKeyMessage` (where the object's own schema does not
 * word them): the one parse of user input (flags, model, experiment, claim and population-model files).
 */
export function validate<S extends Zod.ZodType>(schema: S, input: unknown): Zod.ZodSafeParseResult<Zod.output<S>> {
  return schema.safeParse(input, { error: unknownKeyMessage });
}

/**
 * Turns zod issues into one line: `label: ` (when given), the first issue, then, when there are more, how many and
 * the next `shown` of them: `f.json: name: use letters (and 3 more: grid.d[0]: …; grid.n: …; …)`. One issue gives
 * one plain message. An issue whose message is one of ours (lower case, naming its field) stands as is; zod's own
 * messages get their path in front. With `alwaysPath`, every issue is prefixed with its path (file formats, where
 * the path is what the user edits); an unknown key always names its path unless it is at the top level. Duplicate
 * messages count once. Unknown keys come first (a misspelt field is the cause of the missing one beside it).
 */
export function formatIssues(error: Zod.ZodError, options: { label?: string; shown?: number; alwaysPath?: boolean } = {}): string {
  // an unknown key first: a misspelt field ({ kind: 'bcp', A: 3 }, a transition's "rates") is the cause of the
  // "missing" issue beside it
  const unknownKey = (i: Zod.core.$ZodIssue) => i.code === 'unrecognized_keys';
  // ... and the key it was meant to be, when missing, is not a second problem ("rates" given, so "rate" is missing)
  const meant = new Set<string>();
  for (const i of error.issues.filter(unknownKey)) {
    const near = /did you mean (.*?)\?\)/.exec(i.message)?.[1] ?? '';
    for (const m of near.matchAll(/"([^"]+)"/g)) meant.add(issuePath([...i.path, m[1]]));
  }
  const issues = [
    ...error.issues.filter(unknownKey),
    ...error.issues.filter((i) => !unknownKey(i) && !(i.code === 'invalid_type' && meant.has(issuePath(i.path)))),
  ];
  // an unknown key names where it is (`service: unknown key "shap"; allowed keys: kind, shape, mean`)
  const withPath = (i: Zod.core.$ZodIssue) => options.alwaysPath || /^[A-Z]/.test(i.message) || (unknownKey(i) && i.path.length > 0);
  const lines = [...new Set(issues.map((i) => (withPath(i) ? `${issuePath(i.path)}: ${i.message}` : i.message)))];
  const shown = options.shown ?? 2;
  const more = lines.length - 1;
  const rest = more === 0 ? '' : ` (and ${more} more: ${[...lines.slice(1, 1 + shown), ...(more > shown ? ['…'] : [])].join('; ')})`;
  const text = `${lines[0] ?? 'invalid input'}${rest}`;
  return options.label === undefined ? text : `${options.label}: ${text}`;
}

/**
 * Adds an issue for every value a list of a grid repeats (`"lambda": [0.9, 0.9]`), which would run, count and plot the
 * same cells twice; values compare by their JSON text. For a zod `superRefine` over the object holding the lists.
 * @param lists the object. @param keys the lists to check. @param at the object's path in the file.
 */
export function refuseRepeatedEntries(
  lists: unknown,
  keys: readonly string[],
  ctx: Zod.RefinementCtx,
  at: readonly PropertyKey[] = [],
): void {
  if (lists === null || typeof lists !== 'object') return;
  for (const key of keys) {
    const list = (lists as Record<string, unknown>)[key];
    if (!Array.isArray(list)) continue;
    const seen = new Map<string, number>();
    list.forEach((value, i) => {
      const text = JSON.stringify(value);
      const first = seen.get(text);
      if (first === undefined) seen.set(text, i);
      else ctx.addIssue({ code: 'custom', path: [...at, key, i], message: `${text} repeats entry ${first}: give each value once` });
    });
  }
}

/**
 * Validates `json` against `schema`.
 * @param label file name (or what the JSON is) put in front of the message.
 * @throws {InvalidModelError} `label: path: message`, then how many more problems and the next two (`formatIssues`).
 */
export function parseWithSchema<S extends Zod.ZodType>(schema: S, json: unknown, label: string): Zod.output<S> {
  const result = validate(schema, json);
  if (result.success) return result.data;
  throw new InvalidModelError(formatIssues(result.error, { label, alwaysPath: true }));
}
