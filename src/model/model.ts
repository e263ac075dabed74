/**
 * The model description: one plain, readonly, JSON-serialisable object that the CLI flags and experiment files
 * parse into, and that the mean-field solvers and the simulator read. Time is in mean service times
 * (E[S] = 1 unless `service.mean` says otherwise), so the load is ρ = λ·E[S].
 * Source: theory.md §1.
 */
import { InvalidModelError, UnstableModelError } from '../errors.ts';

/**
 * Selection rule of the dispatcher (theory.md §1): `random` (= d = 1), `jsq` = JSQ(d) (fewest jobs),
 * `lwl` = LWL(d) = LL(d) (least true work left), `lpw` = LPW(d) (least predicted work left).
 */
export const SELECTIONS = ['random', 'jsq', 'lwl', 'lpw'] as const;
export type Selection = (typeof SELECTIONS)[number];

/**
 * In-queue discipline (theory.md §1 table): FIFO; SJF, PSJF, SRPT rank by the true size; SPJF, PSPJF, SPRPT rank by
 * the prediction Y while the server drains the true size. Smallest key first, equal keys FIFO.
 */
export const DISCIPLINES = ['fifo', 'sjf', 'psjf', 'srpt', 'spjf', 'pspjf', 'sprpt'] as const;
export type Discipline = (typeof DISCIPLINES)[number];

/** True when a policy looks at predictions: LPW selection or a predicted discipline (SPJF, PSPJF, SPRPT). */
export function usesPrediction(selection: Selection, discipline: Discipline): boolean {
  return selection === 'lpw' || discipline === 'spjf' || discipline === 'pspjf' || discipline === 'sprpt';
}

/** How the d servers are sampled: with replacement (default; the population-process rates) or without. */
export const SAMPLINGS = ['with-replacement', 'without-replacement'] as const;
export type Sampling = (typeof SAMPLINGS)[number];

/**
 * Service-time distribution, rescaled to `mean` (time units, default 1) — theory.md §1 "Sizes".
 * - `hyperexponential`: two-phase, balanced means, squared coefficient of variation `scv` > 1 (theory.md §3).
 * - `weibull`: shape k (`shape`), scale set so the mean is `mean`.
 * - `lognormal`: σ of log S (`sigma`), μ set so the mean is `mean`.
 * - `bounded-pareto`: tail index `alpha` > 0, `ratio` = upper/lower bound > 1; bounds set so the mean is `mean`.
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
  | { readonly kind: 'empirical'; readonly values: readonly number[]; readonly source: string; readonly mean: number };
export const SERVICE_KINDS = ['exponential', 'deterministic', 'erlang', 'hyperexponential', 'weibull', 'lognormal', 'bounded-pareto', 'empirical'] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

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
export const PREDICTION_KINDS = ['exact', 'exponential', 'uniform', 'lognormal', 'trace'] as const;

/**
 * Conventions the seed paper leaves open (theory.md §1 "Conventions to expose"), with their defaults:
 * - `lpwWork`: predicted work of a server under LPW: 'clip' Σ(Y_j − a_j)^+ (default) | 'signed' Σ(Y_j − a_j) | 'static' ΣY_j.
 * - `sprptOverrun`: SPRPT key of a job that outlived its prediction: 'negative' Y − a (default) | 'zero' (clipped).
 * - `psjfPreemption`: PSJF/PSPJF preempt on the 'original' size S (Y) (default) | the 'remaining' S − a (Y − a).
 */
export interface Conventions {
  readonly lpwWork: 'clip' | 'signed' | 'static';
  readonly sprptOverrun: 'negative' | 'zero';
  readonly psjfPreemption: 'original' | 'remaining';
}
export const DEFAULT_CONVENTIONS: Conventions = { lpwWork: 'clip', sprptOverrun: 'negative', psjfPreemption: 'original' };

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
  readonly sampling: Sampling;
  readonly conventions: Conventions;
}

/** Input accepted by `parseModel`: every field but `lambda` and `d` has a default. */
export interface ModelInput {
  lambda: unknown;
  d: unknown;
  selection?: unknown;
  discipline?: unknown;
  service?: unknown;
  prediction?: unknown;
  sampling?: unknown;
  conventions?: unknown;
}

export const DEFAULT_MODEL_FIELDS = {
  selection: 'jsq',
  discipline: 'fifo',
  service: { kind: 'exponential', mean: 1 },
  prediction: { kind: 'exact' },
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

/** Aliases accepted in the short CLI form `kind:param`. */
const SERVICE_ALIASES: Record<string, ServiceKind> = {
  exp: 'exponential', exponential: 'exponential', det: 'deterministic', deterministic: 'deterministic', erlang: 'erlang',
  hyperexp: 'hyperexponential', h2: 'hyperexponential', hyperexponential: 'hyperexponential', weibull: 'weibull',
  lognormal: 'lognormal', bpareto: 'bounded-pareto', 'bounded-pareto': 'bounded-pareto', empirical: 'empirical',
};

/**
 * Parses the short form of a service distribution: `exp`, `det`, `erlang:K`, `hyperexp:SCV`, `weibull:SHAPE`,
 * `lognormal:SIGMA`, `bpareto:ALPHA:RATIO` (an optional last `@MEAN` sets the mean, e.g. `weibull:0.5@2`).
 * @throws {InvalidModelError} naming the expected form.
 */
export function parseServiceShort(text: string): Record<string, unknown> {
  const [body, meanText] = text.split('@');
  const [name, ...params] = body.split(':');
  const kind = SERVICE_ALIASES[name.trim().toLowerCase()];
  if (!kind) throw new InvalidModelError(`unknown service ${JSON.stringify(text)}; expected one of: exp, det, erlang:K, hyperexp:SCV, weibull:SHAPE, lognormal:SIGMA, bpareto:ALPHA:RATIO`);
  const need = (count: number, form: string) => {
    if (params.length !== count) throw new InvalidModelError(`service ${JSON.stringify(text)}: expected ${form}`);
  };
  const out: Record<string, unknown> = { kind };
  if (meanText !== undefined) out.mean = meanText;
  switch (kind) {
    case 'exponential': case 'deterministic': need(0, name); break;
    case 'erlang': need(1, 'erlang:K'); out.k = params[0]; break;
    case 'hyperexponential': need(1, 'hyperexp:SCV'); out.scv = params[0]; break;
    case 'weibull': need(1, 'weibull:SHAPE'); out.shape = params[0]; break;
    case 'lognormal': need(1, 'lognormal:SIGMA'); out.sigma = params[0]; break;
    case 'bounded-pareto': need(2, 'bpareto:ALPHA:RATIO'); out.alpha = params[0]; out.ratio = params[1]; break;
    case 'empirical': throw new InvalidModelError('an empirical service distribution comes from a trace file, not from the short form');
  }
  return out;
}

function positive(field: string, value: unknown): number {
  const x = finiteNumber(field, value);
  if (!(x > 0)) throw new InvalidModelError(`${field} must be > 0, got ${x}`);
  return x;
}

function parseService(value: unknown): ServiceSpec {
  if (value === undefined) return DEFAULT_MODEL_FIELDS.service;
  if (typeof value === 'string') value = parseServiceShort(value);
  if (typeof value !== 'object' || value === null) {
    throw new InvalidModelError(`service must be an object such as {"kind":"exponential","mean":1} or a short form such as "weibull:0.5"`);
  }
  const v = value as Record<string, unknown>;
  const kind = oneOf('service kind', v.kind, SERVICE_KINDS);
  const mean = v.mean === undefined ? 1 : positive('service mean', v.mean);
  switch (kind) {
    case 'exponential': case 'deterministic': return { kind, mean };
    case 'erlang': {
      const k = positiveInteger('erlang k', v.k);
      return { kind, k, mean };
    }
    case 'hyperexponential': {
      const scv = finiteNumber('hyperexponential scv', v.scv);
      if (!(scv > 1)) throw new InvalidModelError(`hyperexponential scv must be > 1 (use erlang or exponential for scv ≤ 1), got ${scv}`);
      return { kind, scv, mean };
    }
    case 'weibull': return { kind, shape: positive('weibull shape', v.shape), mean };
    case 'lognormal': return { kind, sigma: positive('lognormal sigma', v.sigma), mean };
    case 'bounded-pareto': {
      const alpha = positive('bounded-pareto alpha', v.alpha);
      const ratio = finiteNumber('bounded-pareto ratio', v.ratio);
      if (!(ratio > 1)) throw new InvalidModelError(`bounded-pareto ratio (upper/lower bound) must be > 1, got ${ratio}`);
      return { kind, alpha, ratio, mean };
    }
    case 'empirical': {
      if (!Array.isArray(v.values) || v.values.length === 0) throw new InvalidModelError('empirical service needs a non-empty "values" array of sizes');
      const values = v.values.map((x, i) => {
        const y = finiteNumber(`empirical size #${i + 1}`, x);
        if (y < 0) throw new InvalidModelError(`empirical size #${i + 1} must be ≥ 0, got ${y}`);
        return y;
      });
      const raw = values.reduce((a, b) => a + b, 0) / values.length;
      if (!(raw > 0)) throw new InvalidModelError('empirical sizes must have a positive mean');
      const source = typeof v.source === 'string' ? v.source : 'values';
      return { kind, values: values.map((x) => (x * mean) / raw), source, mean };
    }
  }
}

/**
 * Parses a prediction model: an object, or the short form `exact`, `exp`, `uniform:ALPHA`, `lognormal:SIGMA`
 * (median-unbiased) or `lognormal:SIGMA:mean` (mean-unbiased). `trace` predictions come from a trace file.
 * @throws {InvalidModelError}
 */
export function parsePrediction(value: unknown): PredictionSpec {
  if (value === undefined) return DEFAULT_MODEL_FIELDS.prediction;
  if (typeof value === 'string') {
    const [name, ...params] = value.split(':');
    const key = name.trim().toLowerCase();
    const kind = key === 'exp' ? 'exponential' : key;
    value = { kind, ...(kind === 'uniform' ? { alpha: params[0] } : {}), ...(kind === 'lognormal' ? { sigma: params[0], bias: params[1] ?? 'median' } : {}) };
    if ((kind === 'uniform' && params.length !== 1) || (kind === 'lognormal' && (params.length < 1 || params.length > 2))
      || ((kind === 'exact' || kind === 'exponential') && params.length !== 0)) {
      throw new InvalidModelError(`prediction ${JSON.stringify(value)}: expected exact, exp, uniform:ALPHA or lognormal:SIGMA[:median|mean]`);
    }
  }
  if (typeof value !== 'object' || value === null) throw new InvalidModelError('prediction must be an object such as {"kind":"exact"}');
  const v = value as Record<string, unknown>;
  const kind = oneOf('prediction kind', v.kind, PREDICTION_KINDS);
  switch (kind) {
    case 'exact': case 'exponential': return { kind };
    case 'uniform': {
      const alpha = finiteNumber('uniform prediction alpha', v.alpha);
      if (alpha < 0 || alpha > 1) throw new InvalidModelError(`uniform prediction alpha must be in [0, 1], got ${alpha}`);
      return { kind, alpha };
    }
    case 'lognormal': {
      const sigma = finiteNumber('lognormal prediction sigma', v.sigma);
      if (sigma < 0) throw new InvalidModelError(`lognormal prediction sigma must be ≥ 0, got ${sigma}`);
      return { kind, sigma, bias: oneOf('lognormal prediction bias', v.bias ?? 'median', ['median', 'mean'] as const) };
    }
    case 'trace': {
      if (!Array.isArray(v.values) || v.values.length === 0) throw new InvalidModelError('trace prediction needs a non-empty "values" array');
      const values = v.values.map((x, i) => finiteNumber(`trace prediction #${i + 1}`, x));
      return { kind, values, source: typeof v.source === 'string' ? v.source : 'values' };
    }
  }
}

function parseConventions(value: unknown): Conventions {
  if (value === undefined) return DEFAULT_CONVENTIONS;
  if (typeof value !== 'object' || value === null) throw new InvalidModelError('conventions must be an object');
  const v = value as Record<string, unknown>;
  return {
    lpwWork: oneOf('lpwWork convention', v.lpwWork ?? DEFAULT_CONVENTIONS.lpwWork, ['clip', 'signed', 'static'] as const),
    sprptOverrun: oneOf('sprptOverrun convention', v.sprptOverrun ?? DEFAULT_CONVENTIONS.sprptOverrun, ['negative', 'zero'] as const),
    psjfPreemption: oneOf('psjfPreemption convention', v.psjfPreemption ?? DEFAULT_CONVENTIONS.psjfPreemption, ['original', 'remaining'] as const),
  };
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
    prediction: parsePrediction(input.prediction),
    sampling: oneOf('sampling', input.sampling ?? DEFAULT_MODEL_FIELDS.sampling, SAMPLINGS),
    conventions: parseConventions(input.conventions),
  };
  if (lambda <= 0) throw new UnstableModelError(`lambda must be > 0, got ${lambda}`);
  const rho = load(model);
  if (rho >= 1) {
    throw new UnstableModelError(`unstable load: rho = lambda·E[S] = ${rho} ≥ 1; the queues grow without bound`);
  }
  return Object.freeze({ ...model, service: Object.freeze({ ...model.service }), prediction: Object.freeze({ ...model.prediction }),
    conventions: Object.freeze({ ...model.conventions }) });
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
