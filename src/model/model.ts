/**
 * The model description: one plain, readonly, JSON-serialisable object that the CLI flags and experiment files
 * parse into, and that the mean-field solvers and the simulator read. Time is in mean service times
 * (E[S] = 1 unless `service.mean` says otherwise), so the load is ρ = λ·E[S].
 * Source: theory.md §1.
 */
import { onFirstTouch, z } from '../lazy.ts';
import { InvalidModelError, UnstableModelError } from '../errors.ts';
import {
  formatIssues,
  modelSchema,
  positiveIntegerSchema,
  validate,
  type Conventions,
  type Discipline,
  type Sampling,
  type Selection,
} from './schema.ts';
import { policyCombinationError } from './policy/combination.ts';
import { SELECTION_TABLE, unknownPolicy } from './policy/selection.ts';
import { DISCIPLINE_TABLE } from './policy/discipline.ts';
import { randomAtD, routesAtRandom } from './policy/index.ts';
import { checkBatch, type BatchDispatch } from './policy/batch.ts';
import { resolveRedundancy, type Redundancy, type RedundancySpec, type ReplicaLaw } from './policy/redundancy.ts';
import { checkMemory, modelHasMemory, type MemorySpec } from './memory.ts';
import type { ArrivalSpec } from './arrivals.ts';
import { batchLawSchema, batchMean, formatBatch, normaliseBatchLaw, parseBatchShort, type BatchSizeLaw } from './batchLaw.ts';
import { capacity, checkServerClasses, requireStableClasses, type ServerClasses, type ServerSampling } from './servers.ts';

export * from './memory.ts';
export * from './servers.ts';
export * from './arrivals.ts';
export * from './batchLaw.ts';

export * from './policy/index.ts';
export {
  SELECTIONS,
  DISCIPLINES,
  SAMPLINGS,
  SERVICE_KINDS,
  PREDICTION_KINDS,
  LPW_WORK_RULES,
  SPRPT_OVERRUN_RULES,
  PSJF_PREEMPTION_RULES,
  DEFAULT_CONVENTIONS,
  parseServiceShort,
  refuseUnknownOptions,
  type Selection,
  type Discipline,
  type Sampling,
  type ServiceKind,
  type PredictionKind,
  type Conventions,
} from './schema.ts';

/**
 * Service-time distribution, rescaled to `mean` (time units, default 1) — theory.md §1 "Sizes".
 * - `hyperexponential`: two-phase, balanced means, squared coefficient of variation `scv` > 1 (theory.md §3).
 * - `weibull`: shape k (`shape`), scale set so the mean is `mean`.
 * - `lognormal`: σ of log S (`sigma`), μ set so the mean is `mean`.
 * - `bounded-pareto`: tail index `alpha` > 0, `ratio` = upper/lower bound > 1; bounds set so the mean is `mean`.
 * - `pareto`: classical unbounded Pareto, tail index `alpha` > 1, scale x_m = mean·(α − 1)/α (E[S^j] = ∞ for j ≥ α).
 * - `empirical`: the sizes of a trace (`values`, rescaled to `mean`); `source` names where they came from.
 */
export type ServiceSpec =
  | { readonly kind: 'exponential'; readonly mean: number }
  | { readonly kind: 'deterministic'; readonly mean: number }
  | { readonly kind: 'erlang'; readonly k: number; readonly mean: number }
  | { readonly kind: 'hyperexponential'; readonly scv: number; readonly mean: number }
  | { readonly kind: 'weibull'; readonly shape: number; readonly mean: number }
  | { readonly kind: 'lognormal'; readonly sigma: number; readonly mean: number }
  | { readonly kind: 'bounded-pareto'; readonly alpha: number; readonly ratio: number; readonly mean: number }
  | { readonly kind: 'pareto'; readonly alpha: number; readonly mean: number }
  | { readonly kind: 'empirical'; readonly values: readonly number[]; readonly source: string; readonly mean: number };

/**
 * Prediction model Y of a job's size S = x, drawn once per job at arrival (theory.md §1 "Predictions"):
 * `exact` Y = x; `exponential` Y ~ Exp(mean x); `uniform` Y ~ U[(1−α)x, (1+α)x] (0 ≤ α ≤ 1);
 * `lognormal` Y = x·exp(σZ + m) with m = 0 (`bias` 'median', default) or −σ²/2 (`bias` 'mean');
 * `trace` Y from a per-job column of a trace (`values`, aligned with the empirical sizes).
 */
export type PredictionSpec =
  | { readonly kind: 'exact' }
  | { readonly kind: 'exponential' }
  | { readonly kind: 'uniform'; readonly alpha: number }
  | { readonly kind: 'lognormal'; readonly sigma: number; readonly bias: 'median' | 'mean' }
  | { readonly kind: 'trace'; readonly values: readonly number[]; readonly source: string };

/** One class per kind of a spec union S (service or prediction laws), keyed by kind; each is built from its spec. */
export type KindTable<S extends { readonly kind: string }, R> = { readonly [K in S['kind']]: new (spec: Extract<S, { kind: K }>) => R };

/**
 * Table dispatch on a spec's kind: `new table[spec.kind](spec)`.
 * @param family what the spec is, for the message ("service", "prediction").
 * @throws {InvalidModelError} "unknown <family> kind <kind>; expected one of: <the table's kinds>" if the table has no
 *   entry for the kind.
 */
export function byKind<S extends { readonly kind: string }, R>(family: string, table: KindTable<S, R>, spec: S): R {
  const kind = (spec as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !Object.hasOwn(table, kind)) {
    throw new InvalidModelError(`unknown ${family} kind ${JSON.stringify(kind)}; expected one of: ${Object.keys(table).join(', ')}`);
  }
  const Law = table[kind as S['kind']] as new (spec: S) => R;
  return new Law(spec);
}

export interface SupermarketModel {
  /** Arrival rate per server λ (jobs per server per time unit); the system rate is λn. */
  readonly lambda: number;
  /** Number of servers sampled per arrival, d ≥ 1. */
  readonly d: number;
  readonly selection: Selection;
  readonly discipline: Discipline;
  readonly service: ServiceSpec;
  /** What the dispatcher (LPW) and the predicted disciplines see; the server always drains the true size. */
  readonly prediction: PredictionSpec;
  /**
   * How the d servers are drawn. A batch (K > 1 or a size law) always draws d distinct servers (SQ(d,K), LL(d,K), BSQ;
   * sim/batch.ts), so a batch model says 'without-replacement' whatever the input said: the record names what runs.
   */
  readonly sampling: Sampling;
  /** The dispatcher's memory of idle servers (model/memory.ts; theory.md §12); `{ kind: 'none' }` by default. */
  readonly memory: MemorySpec;
  /**
   * Heterogeneous servers (model/servers.ts, theory.md §13): classes with speeds and fractions, and how arrivals
   * sample them. Absent: one class of speed 1 (the homogeneous model; speeds all 1 are refused, as the CLI's `--speeds 1`).
   */
  readonly servers?: ServerClasses;
  /** The dispatcher's arrival process at total rate λn (model/arrivals.ts; theory.md §14); Poisson by default. */
  readonly arrivals: ArrivalSpec;
  /**
   * Jobs per arrival epoch K ≥ 1 (theory.md §15), or their mean E[X] when `batchLaw` is set: epochs come at rate
   * λn/K (λn/E[X]), so λ stays the job rate per server.
   */
  readonly batch: number;
  /** A random batch size (model/batchLaw.ts; `whole` dispatch only); absent: every batch has exactly `batch` jobs. */
  readonly batchLaw?: BatchSizeLaw;
  /** How a batch of K > 1 is placed on the d sampled servers (model/policy/batch.ts). */
  readonly batchDispatch: BatchDispatch;
  /**
   * Redundancy-d, cancel-on-complete (model/policy/redundancy.ts, theory.md §16): a replica on each of the d sampled
   * servers, the first completion ends the job. Absent: no redundancy (cancel-on-start resolves to selection lwl).
   */
  readonly redundancy?: RedundancySpec;
  readonly conventions: Conventions;
}

/**
 * Input accepted by `parseModel`, typed for library users (completion offers the rows of the policy tables): every
 * field but `lambda` and `d` has a default. Numbers may be numeric strings; `service` and `prediction` take the
 * object form or the short form of the CLI ("weibull:0.5", "lognormal:1:mean"). Input from JSON or flags is
 * `UntypedModelInput`: the same fields of unknown type, validated at run time all the same.
 */
export interface ModelInput {
  lambda: number | string;
  d: number | string;
  selection?: Selection;
  discipline?: Discipline;
  service?: ServiceSpecInput | string;
  prediction?: PredictionSpecInput | string;
  sampling?: Sampling;
  /** Dispatcher memory: the object form or the short form "none", "ip", "cp", "bcp:5", "ism:10" (model/memory.ts). */
  memory?: MemorySpec | string;
  /** Server classes: speeds (list or "1,2"), fractions (default equal), sampling 'uniform' (default) or 'speed'. */
  servers?: { speeds: readonly number[] | string; fractions?: readonly number[] | string; sampling?: ServerSampling };
  /** Arrival process: the object form or the short form "exp", "det", "erlang:2", "hyperexp:4", "mmpp:1,3,0.1,0.2" (model/arrivals.ts). */
  arrivals?: ArrivalSpec | string;
  /**
   * Batch size K ≥ 1 (default 1), or a size law ("geom:2.5", "pmf:0.5,0,0.5" or the object form, model/batchLaw.ts),
   * and how a batch is placed: 'spread' (K best of d) or 'whole' (BSQ).
   */
  batch?: number | string | BatchSizeLaw;
  /** The law of a normalised model read back (JSON), its `batch` then the law's mean; give the law once. */
  batchLaw?: BatchSizeLaw;
  batchDispatch?: BatchDispatch;
  /**
   * Redundancy-d: 'none' (default), 'cancel-on-start' (FIFO: resolved to selection lwl) or 'cancel-on-complete', with
   * `replicas` 'independent' (default) or 'identical' for cancel-on-complete (model/policy/redundancy.ts).
   */
  redundancy?: Redundancy | RedundancySpec;
  replicas?: ReplicaLaw;
  conventions?: Partial<Conventions>;
}

/** A service spec as written: `mean` optional (default 1), an empirical law's `source` optional. */
export type ServiceSpecInput =
  | (ServiceSpec extends infer S
      ? S extends { readonly kind: 'empirical' }
        ? never
        : S extends { readonly mean: number }
          ? Omit<S, 'mean'> & { readonly mean?: number }
          : never
      : never)
  | { readonly kind: 'empirical'; readonly values: readonly number[]; readonly source?: string; readonly mean?: number };

/** A prediction spec as written: the lognormal law's `bias` (default 'median') and a trace's `source` optional. */
export type PredictionSpecInput =
  | Exclude<PredictionSpec, { readonly kind: 'lognormal' | 'trace' }>
  | { readonly kind: 'lognormal'; readonly sigma: number; readonly bias?: 'median' | 'mean' }
  | { readonly kind: 'trace'; readonly values: readonly number[]; readonly source?: string };

/** `ModelInput`'s fields from JSON, flags or query strings: any value, checked by `parseModel` at run time. */
export type UntypedModelInput = { readonly [K in keyof ModelInput]?: unknown };

/**
 * Validates an integer ≥ 1 (d, n, replications); accepts numeric strings such as "1e6".
 * @throws {InvalidModelError} naming the field.
 */
export function positiveInteger(field: string, value: unknown): number {
  // an integer ≥ 1 given as a number passes the schema unchanged: checked here, without zod (a pool's worker checks
  // each run's n and parses nothing else, and loading zod took it ~0.1 s of CPU)
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  const result = validate(positiveIntegerSchema(field), value);
  if (!result.success) throw new InvalidModelError(formatIssues(result.error));
  return result.data;
}

/** Mean service time E[S] of a service spec (time units). */
export function meanServiceTime(service: ServiceSpec): number {
  return service.mean;
}

/** Load per server ρ = λ·E[S] / Σ f_c·speed_c (λ·E[S] for homogeneous servers). */
export function load(model: SupermarketModel): number {
  const work = model.lambda * meanServiceTime(model.service);
  return model.servers === undefined ? work : work / capacity(model.servers);
}

/**
 * Validates and completes a model description, without asking for a steady state: a valid model may have ρ ≥ 1
 * (a transient over a finite horizon exists at any load). Where a steady state is needed, `requireStable` (or
 * `parseModel`, which is both).
 * @param input plain object (from CLI flags or JSON); numeric strings are accepted.
 * @returns a frozen `SupermarketModel` with defaults filled in.
 * Resolved here, once: redundancy cancel-on-start to selection lwl, and LPW with exact predictions on a sharing server
 * (PS, LAS) to the LWL model it equals (`lpwAsLwl`).
 * @throws {InvalidModelError} on NaN/non-numeric values, d not an integer ≥ 1, unknown names, a setting with no effect
 *   (sampling with-replacement beside a batch, server speeds all 1), a policy combination that does not run
 *   (`policyCombinationError`).
 * @throws {UnstableModelError} if λ ≤ 0 (no arrivals: not a model of this project).
 */
export function validateModel(input: ModelInput | UntypedModelInput): SupermarketModel {
  const result = validate(modelSchema, readBackBatchLaw(input));
  if (!result.success) throw new InvalidModelError(formatIssues(result.error));
  const { redundancy: given, replicas: law, batch: batchGiven, ...rest0 } = result.data;
  // a batch size law: `batch` becomes its mean E[X], the law `batchLaw` (model/batchLaw.ts)
  const batched =
    typeof batchGiven === 'number' ? { ...rest0, batch: batchGiven } : { ...rest0, batch: batchMean(batchGiven), batchLaw: batchGiven };
  // a batch draws d distinct servers in every engine and equation (theory.md §15): the model says so (the default
  // with-replacement would name a sampling that never ran; cell keys do not hold sampling), and a with-replacement
  // given with a batch is refused, as the CLI's --sampling is: a setting with no effect is never rewritten silently
  const batch = batched.batch > 1 || typeof batchGiven !== 'number';
  if (batch && (input as { sampling?: unknown }).sampling === 'with-replacement')
    throw new InvalidModelError(
      `sampling with-replacement has no effect with batch ${typeof batchGiven === 'number' ? batchGiven : formatBatch(batchGiven)}: a batch samples d distinct servers (SQ(d,K), BSQ; theory.md §15); drop sampling`,
    );
  const parsed = batch ? { ...batched, sampling: 'without-replacement' as const } : batched;
  // the object form is a normalised model read back (JSON): the same as its mode and replicas written out
  if (typeof given === 'object' && law !== undefined)
    throw new InvalidModelError('give replicas once: inside redundancy {"kind","replicas"} or as the field replicas');
  const redundancy = typeof given === 'object' ? given.kind : given;
  const replicas = typeof given === 'object' ? given.replicas : law;
  // redundancy is resolved here, once: cancel-on-start becomes selection lwl (the same model to the bit)
  // classes that all have speed 1 are the homogeneous model: refused as the CLI's --speeds 1 is, not dropped silently
  const servers = parsed.servers;
  const hetero = servers !== undefined;
  const red = resolveRedundancy({
    redundancy,
    replicas,
    selection: parsed.selection,
    discipline: parsed.discipline,
    d: parsed.d,
    memoryKind: parsed.memory.kind,
    batch: parsed.batch,
    hetero,
  });
  const resolved = {
    ...parsed,
    ...(red.selection === undefined ? {} : { selection: red.selection }),
    ...(red.spec === undefined ? {} : { redundancy: red.spec }),
  } as SupermarketModel;
  // LPW with exact predictions reads the true work left (`lpwAsLwl`): on a sharing server (PS, LAS), where LPW's own
  // rule is not defined (several jobs in service) and no engine runs it, the model is the LWL one it equals, resolved
  // here once as cancel-on-start is; with other predictions the combination stays refused below
  const sharingLpw = policyCombinationError(resolved.selection, resolved.discipline) !== undefined ? lpwAsLwl(resolved) : undefined;
  const model = sharingLpw ?? resolved;
  const conflict = policyCombinationError(model.selection, model.discipline);
  if (conflict !== undefined) throw new InvalidModelError(conflict);
  checkMemory(model.selection, model.d, model.memory);
  checkBatch(model.selection, model.d, model.batch, model.batchDispatch, model.memory.kind, model.batchLaw);
  if (model.lambda <= 0) throw new UnstableModelError(`λ must be > 0, got λ = ${model.lambda}`);
  if (servers !== undefined) checkServerClasses(servers);
  if (servers !== undefined && servers.speeds.every((v) => v === 1))
    throw new InvalidModelError(
      `servers with speeds ${servers.speeds.join(',')} have no effect: ${servers.speeds.length === 1 ? 'one class' : 'every class'} of speed 1 is the homogeneous model (identical servers); drop servers`,
    );
  if (!hetero && model.selection === 'sed')
    throw new InvalidModelError('selection sed (least expected delay) needs server speeds (--speeds); with equal speeds it is jsq');
  if (hetero) checkHeteroModel(model);
  if (hetero && (model.arrivals.kind !== 'exponential' || model.batch > 1))
    throw new InvalidModelError(
      'server speeds are implemented for Poisson arrivals of single jobs only: drop --arrivals/--batch or --speeds (theory.md §13–§15)',
    );
  const { servers: _servers, ...rest } = model;
  return Object.freeze({
    ...rest,
    ...(hetero
      ? {
          servers: Object.freeze({
            ...servers,
            speeds: Object.freeze([...servers.speeds]),
            fractions: Object.freeze([...servers.fractions]),
          }),
        }
      : {}),
    service: Object.freeze({ ...model.service }),
    prediction: Object.freeze({ ...model.prediction }),
    memory: Object.freeze({ ...model.memory }),
    arrivals: Object.freeze({ ...model.arrivals }),
    ...(model.batchLaw === undefined ? {} : { batchLaw: model.batchLaw }),
    ...(model.redundancy === undefined ? {} : { redundancy: Object.freeze({ ...model.redundancy }) }),
    conventions: Object.freeze({ ...model.conventions }),
  });
}

/**
 * The canonical form of a batch entry of a grid (experiment or claim file): a fixed K stays the number K; a size law
 * becomes its short form (`formatBatch` of the normalised law: "Geom:2.0" → "geom:2", "pmf:0,1" → 2, a one-atom pmf
 * being that K). Grid keys, labels and coordinates use this form, so a law never shares a key with a fixed K.
 * @throws {InvalidModelError} one line naming the expected forms or the parameter out of range.
 */
export function canonicalBatch(entry: number | string): number | string {
  if (typeof entry === 'string' && /^[a-z]/i.test(entry.trim())) {
    const law = validate(batchLawSchema, parseBatchShort(entry));
    if (!law.success) throw new InvalidModelError(formatIssues(law.error));
    const normal = normaliseBatchLaw(law.data);
    return typeof normal === 'number' ? normal : formatBatch(normal);
  }
  const k = validate(positiveIntegerSchema('batch size K'), entry);
  if (!k.success) throw new InvalidModelError(formatIssues(k.error));
  return k.data;
}

/**
 * One entry of a grid's `batch` list (experiment and claim files): an integer K or a size law's short form, parsed
 * to its canonical form (`canonicalBatch`); a bad entry is one issue at its JSON path.
 */
export const batchEntrySchema = onFirstTouch(() =>
  z.union([z.number(), z.string().min(1)]).transform((entry, ctx): number | string => {
    try {
      return canonicalBatch(entry);
    } catch (error) {
      if (!(error instanceof InvalidModelError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
      return z.NEVER;
    }
  }),
);

/** The batch coordinate of a validated model: K, or the short form of its size law (`canonicalBatch`). */
export function batchCoordinate(model: Pick<SupermarketModel, 'batch' | 'batchLaw'>): number | string {
  return model.batchLaw === undefined ? model.batch : formatBatch(model.batchLaw);
}

/**
 * A normalised model read back from JSON carries `batch` = E[X] and the law in `batchLaw`: the law is the batch field
 * (its mean must match a `batch` given beside it). Other input unchanged.
 * @throws {InvalidModelError} when both are given and disagree.
 */
function readBackBatchLaw(input: ModelInput | UntypedModelInput): unknown {
  if (input === null || typeof input !== 'object' || (input as { batchLaw?: unknown }).batchLaw === undefined) return input;
  const { batchLaw, batch, ...rest } = input as { batchLaw: BatchSizeLaw; batch?: unknown };
  const law = batchLawSchema.safeParse(batchLaw); // a bad law is the batch field's error, in the schema
  if (batch !== undefined && law.success && Number(batch) !== batchMean(law.data))
    throw new InvalidModelError(
      `batch ${String(batch)} is not the mean of batchLaw ${formatBatch(batchLaw)}: give the batch size law once`,
    );
  return { ...rest, batch: batchLaw };
}

/**
 * Throws unless the model has a steady state, ρ = λ·E[S] < 1; returns it unchanged.
 * @throws {UnstableModelError} if ρ ≥ 1.
 */
export function requireStable(model: SupermarketModel): SupermarketModel {
  if (model.servers !== undefined) {
    const d = SELECTION_TABLE[model.selection].samplesD ? model.d : 1;
    requireStableClasses(
      model.servers,
      model.lambda * meanServiceTime(model.service),
      d,
      d === 1 ? 'random selection' : `${model.selection.toUpperCase()}(${d})`,
    );
    return model;
  }
  const rho = load(model);
  if (!(rho < 1)) {
    throw new UnstableModelError(`unstable load: ρ = λ·E[S] = ${rho} ≥ 1; the queues grow without bound`);
  }
  return model;
}

/**
 * Validates and completes a model description that must have a steady state: `requireStable(validateModel(input))`.
 * @param input plain object (from CLI flags or JSON); numeric strings are accepted.
 * @returns a frozen `SupermarketModel` with defaults filled in.
 * @throws {InvalidModelError} on NaN/non-numeric values, d not an integer ≥ 1, unknown names.
 * @throws {UnstableModelError} if λ ≤ 0 or ρ = λ·E[S] ≥ 1.
 */
export function parseModel(input: ModelInput | UntypedModelInput): SupermarketModel {
  return requireStable(validateModel(input));
}

/**
 * What server speeds combine with (theory.md §13): the selection rules that read counts, work or nothing (not LPW's
 * predictions, whose work is not divided by a speed; not a dispatcher memory), and speed-weighted sampling only with
 * replacement.
 * @throws {InvalidModelError} one line naming the conflict.
 */
function checkHeteroModel(model: SupermarketModel): void {
  if (model.selection === 'lpw' || model.selection === 'jiq')
    throw new InvalidModelError(`server speeds are not implemented for selection ${model.selection}; use jsq, sed, lwl or random`);
  if (model.memory.kind !== 'none')
    throw new InvalidModelError(`server speeds are not implemented with a dispatcher memory (memory ${model.memory.kind})`);
  if (model.servers?.sampling === 'speed' && model.sampling === 'without-replacement')
    throw new InvalidModelError('speed-weighted server sampling is drawn with replacement; drop --sampling without-replacement');
}

/**
 * LPW(d) whose predicted work is the true work left, as the LWL(d) model it equals: exact predictions (Y = S) and
 * the work rule 'clip' Σ(Y_j − a_j)^+ or 'signed' Σ(Y_j − a_j) read the same number as LWL's Σ(S_j − a_j), so the two
 * dispatch every job alike (the simulator's runs are the same to the bit) and share one mean field (theory.md §4
 * answers it exactly: closed form, FPE, ∞ where E[S^{1+1/d}] = ∞). 'static' ΣY_j counts the served part too: not LWL.
 * @returns the LWL model (selection 'lwl', prediction exact), or undefined for any other model.
 */
export function lpwAsLwl(model: SupermarketModel): SupermarketModel | undefined {
  if (model.selection !== 'lpw' || model.prediction.kind !== 'exact' || model.conventions.lpwWork === 'static') return undefined;
  return Object.freeze({ ...model, selection: 'lwl' as const });
}

/**
 * Random routing as the one model every room runs and solves for it: a model that routes each arrival to a uniformly
 * random server (`routesAtRandom`: `random` selection, or JSQ, LWL, LPW, SED sampling d = 1 server without a memory)
 * over identical servers, one job per arrival and no redundancy, as the JSQ(1) model it equals (selection 'jsq',
 * d = 1, every other field kept). One sampled server leaves nothing to compare, so the rules dispatch alike and share
 * one law at every n (theory.md §7: each server an independent M/G/1 queue); JSQ(1) is the row with the most answers
 * (the race engine and the fixed-point start for exponential FIFO, the SQ(d) ODE, refined terms V = 0, the exact chain),
 * so the simulator, the warm-up rule, the capability query and compare all take this one.
 * @returns the JSQ(1) model, or undefined for any other model (JSQ(1) itself included).
 * @example randomRoutingTwin(parseModel({ lambda: 0.7, d: 1, selection: 'lwl' }))?.selection // 'jsq'
 */
export function randomRoutingTwin(model: SupermarketModel): SupermarketModel | undefined {
  if (model.selection === 'jsq' || !routesAtRandom(model) || model.servers !== undefined) return undefined;
  if (model.batch !== 1 || model.batchLaw !== undefined) return undefined;
  return Object.freeze({ ...model, selection: 'jsq' as const, d: 1 });
}

/**
 * The FIFO model with the same queue-length process, for a size-blind work-conserving sharing server (PS, LAS: no
 * prediction read) with exponential sizes under a rule that reads job counts or nothing (JSQ(d), random, and any rule
 * sampling d = 1 server without a memory, random routing as `selectionName` names it): every busy
 * server completes a job at rate 1/E[S] whatever it serves (memorylessness), so the occupancy process, E[Q] and
 * E[T] = E[Q]/λ (Little) are FIFO's, at every n and in the limit (memory kept: it reads queue lengths only). The
 * response-time *law* is not FIFO's. Source: theory.md §5 "Sharing disciplines".
 * @returns that FIFO model (discipline 'fifo'), or undefined for any other model (FIFO itself included).
 */
export function sizeBlindFifoTwin(model: SupermarketModel): SupermarketModel | undefined {
  // a rule that samples one server (d = 1, no memory: `randomAtD`) reads nothing either: random routing, as `random`
  const countsOrNothing = model.selection === 'jsq' || model.selection === 'random' || randomAtD(model);
  if (!countsOrNothing || model.service.kind !== 'exponential') return undefined;
  const row = DISCIPLINE_TABLE[model.discipline];
  switch (row.server) {
    case 'priority':
      return undefined;
    case 'sharing':
    case 'attained-service':
      return row.usesPrediction ? undefined : Object.freeze({ ...model, discipline: 'fifo' as const });
    default:
      return unknownPolicy(row.server, 'server model');
  }
}

/**
 * `sizeBlindFifoTwin` without a dispatcher memory: the FIFO model whose SQ(d) ODE, refined terms (V/n, 1/n²) and
 * exact n-server chain are this model's queue-length answers (the mean field's capabilities name them; `refine`,
 * `refineSecondOrder`, `refinedTransient` and `solveExact` run on it). Undefined for any other model.
 */
export function fifoQueueLengthTwin(model: SupermarketModel): SupermarketModel | undefined {
  return modelHasMemory(model) ? undefined : sizeBlindFifoTwin(model);
}

/**
 * Checks the finite-system size against the model: n integer ≥ 1 and d ≤ n (d ≤ n is required for sampling
 * without replacement and, by this project's convention, for sampling with replacement too).
 * @throws {InvalidModelError}
 */
export function checkServers(model: SupermarketModel, n: unknown): number {
  const servers = positiveInteger('n', n);
  if (model.d > servers) throw new InvalidModelError(`d = ${model.d} exceeds n = ${servers}: cannot sample more servers than exist`);
  return servers;
}
