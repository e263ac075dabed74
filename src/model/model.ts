/**
 * The model description: one plain, readonly, JSON-serialisable object that the CLI flags and experiment files
 * parse into, and that the mean-field solvers and the simulator read. Time is in mean service times
 * (E[S] = 1 unless `service.mean` says otherwise), so the load is ρ = λ·E[S].
 * Source: theory.md §1.
 */
import { InvalidModelError, UnstableModelError } from '../errors.ts';

/** Selection rule of the dispatcher. Only `jsq` (JSQ(d) = SQ(d), fewest jobs) is implemented so far. */
export const SELECTIONS = ['jsq'] as const;
export type Selection = (typeof SELECTIONS)[number];

/** In-queue discipline. Only `fifo` is implemented so far. */
export const DISCIPLINES = ['fifo'] as const;
export type Discipline = (typeof DISCIPLINES)[number];

/** How the d servers are sampled: with replacement (default; the population-process rates) or without. */
export const SAMPLINGS = ['with-replacement', 'without-replacement'] as const;
export type Sampling = (typeof SAMPLINGS)[number];

/** Service-time distribution. Only exponential so far; `mean` is in time units (default 1). */
export interface ExponentialService {
  readonly kind: 'exponential';
  readonly mean: number;
}
export type ServiceSpec = ExponentialService;
export const SERVICE_KINDS = ['exponential'] as const;

export interface SupermarketModel {
  /** Arrival rate per server λ (jobs per server per time unit); the system rate is λn. */
  readonly lambda: number;
  /** Number of servers sampled per arrival, d ≥ 1. */
  readonly d: number;
  readonly selection: Selection;
  readonly discipline: Discipline;
  readonly service: ServiceSpec;
  readonly sampling: Sampling;
}

/** Input accepted by `parseModel`: every field but `lambda` and `d` has a default. */
export interface ModelInput {
  lambda: unknown;
  d: unknown;
  selection?: unknown;
  discipline?: unknown;
  service?: unknown;
  sampling?: unknown;
}

export const DEFAULT_MODEL_FIELDS = {
  selection: 'jsq',
  discipline: 'fifo',
  service: { kind: 'exponential', mean: 1 },
  sampling: 'with-replacement',
} as const;

function finiteNumber(field: string, value: unknown): number {
  const x = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof x !== 'number' || !Number.isFinite(x)) {
    throw new InvalidModelError(`${field} must be a finite number, got ${JSON.stringify(value)}`);
  }
  return x;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new InvalidModelError(`unknown ${field} ${JSON.stringify(value)}; expected one of: ${allowed.join(', ')}`);
  }
  return value as T;
}

/** Validates an integer ≥ 1 (d, n, replications); accepts numeric strings such as "1e6". */
export function positiveInteger(field: string, value: unknown): number {
  const x = finiteNumber(field, value);
  if (!Number.isInteger(x) || x < 1) throw new InvalidModelError(`${field} must be an integer ≥ 1, got ${value}`);
  return x;
}

function parseService(value: unknown): ServiceSpec {
  if (value === undefined) return DEFAULT_MODEL_FIELDS.service;
  if (typeof value === 'string') value = { kind: value };
  if (typeof value !== 'object' || value === null) {
    throw new InvalidModelError(`service must be an object such as {"kind":"exponential","mean":1}`);
  }
  const v = value as Record<string, unknown>;
  const kind = oneOf('service kind', v.kind, SERVICE_KINDS);
  const mean = v.mean === undefined ? 1 : finiteNumber('service mean', v.mean);
  if (mean <= 0) throw new InvalidModelError(`service mean must be > 0, got ${mean}`);
  return { kind, mean };
}

/** Mean service time E[S] of a service spec (time units). */
export function meanServiceTime(service: ServiceSpec): number {
  return service.mean;
}

/** Load per server ρ = λ·E[S]. */
export function load(model: SupermarketModel): number {
  return model.lambda * meanServiceTime(model.service);
}

/**
 * Validates and completes a model description.
 * @param input plain object (from CLI flags or JSON); numeric strings are accepted.
 * @returns a frozen `SupermarketModel` with defaults filled in.
 * @throws {InvalidModelError} on NaN/non-numeric values, d not an integer ≥ 1, unknown names.
 * @throws {UnstableModelError} if λ ≤ 0 or ρ = λ·E[S] ≥ 1.
 */
export function parseModel(input: ModelInput): SupermarketModel {
  const lambda = finiteNumber('lambda', input.lambda);
  const d = positiveInteger('d', input.d);
  const model: SupermarketModel = {
    lambda,
    d,
    selection: oneOf('selection', input.selection ?? DEFAULT_MODEL_FIELDS.selection, SELECTIONS),
    discipline: oneOf('discipline', input.discipline ?? DEFAULT_MODEL_FIELDS.discipline, DISCIPLINES),
    service: parseService(input.service),
    sampling: oneOf('sampling', input.sampling ?? DEFAULT_MODEL_FIELDS.sampling, SAMPLINGS),
  };
  if (lambda <= 0) throw new UnstableModelError(`lambda must be > 0, got ${lambda}`);
  const rho = load(model);
  if (rho >= 1) {
    throw new UnstableModelError(`unstable load: rho = lambda·E[S] = ${rho} ≥ 1; the queues grow without bound`);
  }
  return Object.freeze({ ...model, service: Object.freeze({ ...model.service }) });
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
