/**
 * What the explorer shows for one model, computed by the library alone (no DOM, no I/O): the controls, from the model
 * schema and the policy tables (a new row of SELECTIONS or DISCIPLINES, or a new top-level field of `modelSchema`,
 * appears as a control without editing the page), and the view of one model — `solveMeanField`'s fixed point with
 * its kind and provenance, the refined (1/n, and 1/n²) mean field for the chosen n where the refined term exists,
 * the transient from empty, the response-time or workload ccdf where the solution has one. Every part that the
 * library refuses for this model is a one-line note instead. The page runs `exploreView` in a Web Worker.
 * Source: theory.md §2–§7 (solvers), §6 (refined), §10 (transients).
 */
import type { z } from 'zod';
import { parseModel, policyName, type ModelInput, type SupermarketModel } from '../model/index.ts';
import { modelSchema } from '../model/schema.ts';
import { checkServers } from '../model/model.ts';
import { meanQueueLengthUnit, solveMeanField, solveMeanFieldTransient, type MeanFieldSolution } from '../meanfield/solve.ts';
import { meanFieldCapabilities, type MeanFieldCapabilities } from '../meanfield/capabilities.ts';
import { describeMemory } from '../meanfield/memory/reduction.ts';
import { heteroRefined, heteroRefinedRefusal } from '../meanfield/hetero/refined.ts';
import { firstOrderTrust, refine, refinedEstimate } from '../meanfield/refined.ts';
import { refineSecondOrder, secondOrderTrust } from '../meanfield/refinedSecondOrder.ts';
import { relaxationTime } from '../meanfield/relaxation.ts';
import { solveResponseTime, type ResponseTimeQuantile } from '../meanfield/responseTime.ts';
import { isInfinite, isUnsettled, percentileName, type Estimate } from '../stats/index.ts';
import { lwlTransient } from '../meanfield/lwl/transient.ts';
import { memoryLwlTransient } from '../meanfield/memory/sizedTransient.ts';
import { lwlWorkloadCcdf } from '../meanfield/lwl/workload.ts';
import { meanFieldFiniteness, meanFieldLimit, meanFieldUnsettled } from '../model/moments.ts';
import type { UnvaluedStatus } from '../compare/verdict.ts';

/** One control of the page: a choice among a table's rows, or a text field (numbers, short forms, JSON). */
export type ControlField =
  | { readonly name: string; readonly kind: 'choice'; readonly options: readonly string[]; readonly default: string }
  | { readonly name: string; readonly kind: 'text'; readonly default: string; readonly examples: readonly string[] };

/** Examples offered beside the free-text fields (short forms of theory.md §1; any short form the schema takes works). */
const EXAMPLES: Record<string, readonly string[]> = {
  service: ['exp', 'det', 'erlang:2', 'hyperexp:4', 'weibull:0.5', 'lognormal:1', 'bpareto:1.5:100', 'pareto:2.5'],
  prediction: ['exact', 'exp', 'uniform:0.5', 'lognormal:0.5', 'lognormal:0.5:mean'],
  servers: ['{"speeds":[1,2],"fractions":[0.5,0.5]}', '{"speeds":[1,4],"fractions":[0.8,0.2],"sampling":"speed"}'],
};

/** The short form each object default is written in (the page's text fields take the short forms). */
const SHORT_DEFAULTS: Record<string, string> = { service: 'exp', prediction: 'exact' };

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  defaultValue?: unknown;
  entries?: Record<string, string>;
};
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The enum rows under defaults, pipes and preprocessing, or undefined when the field is not a choice. */
function enumOptions(schema: z.ZodType): string[] | undefined {
  const def = defOf(schema);
  if (def.type === 'enum' && def.entries) return Object.values(def.entries);
  if ((def.type === 'default' || def.type === 'optional' || def.type === 'prefault') && def.innerType) return enumOptions(def.innerType);
  if (def.type === 'pipe' && def.out) return enumOptions(def.out);
  return undefined;
}

function defaultOf(schema: z.ZodType): unknown {
  const def = defOf(schema);
  if (def.type === 'default' || def.type === 'prefault')
    return typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
  return undefined;
}

/** Fields the page lays out itself (λ and d as numbers with their own ranges) or that are no model field (n). */
const NUMERIC_FIELDS = ['lambda', 'd'];

/**
 * The controls for the model's fields other than λ and d, in schema order: each enum (selection, discipline,
 * sampling, …) a choice of its rows, anything else a text field with its default written as the schema reads it.
 */
export function modelControls(): ControlField[] {
  return Object.entries(modelSchema.shape as Record<string, z.ZodType>)
    .filter(([name]) => !NUMERIC_FIELDS.includes(name))
    .map(([name, schema]): ControlField => {
      const options = enumOptions(schema);
      const fallback = defaultOf(schema);
      // an optional choice without a default (replicas) starts unset: '' is left out of the model input (the schema's absence)
      if (options && fallback === undefined && defOf(schema).type === 'optional')
        return { name, kind: 'choice', options: ['', ...options], default: '' };
      if (options) return { name, kind: 'choice', options, default: typeof fallback === 'string' ? fallback : options[0] };
      // a string default is its own short form ('none'); JSON.stringify would quote it, and the quotes reach the schema
      const text =
        SHORT_DEFAULTS[name] ??
        (fallback === undefined || isEmpty(fallback) ? '' : typeof fallback === 'string' ? fallback : JSON.stringify(fallback));
      return { name, kind: 'text', default: text, examples: EXAMPLES[name] ?? [] };
    });
}

const isEmpty = (x: unknown) => typeof x === 'object' && x !== null && Object.keys(x).length === 0;

/**
 * A text field's JSON value. @throws {SyntaxError} one line naming the field, the parser's reason with its position
 * and the text (`servers: not valid JSON (… at position 18): {"speeds": [1, 2],}`), for the page to show.
 */
function jsonField(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new SyntaxError(`${name}: not valid JSON (${(e as Error).message}): ${text}`, { cause: e });
  }
}

/**
 * The model input of a page state: λ and d as given, each text field as a short form, or parsed as JSON when it
 * starts with `{` or `[`; empty fields and fields at their default left out (the schema fills the default, and a
 * default given explicitly can conflict: parseModel refuses sampling with-replacement beside a batch).
 */
export function modelInput(state: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = { lambda: state.lambda, d: state.d };
  for (const field of modelControls()) {
    const value = (state[field.name] ?? field.default).trim();
    if (value === '' || value === field.default) continue;
    input[field.name] = field.kind === 'text' && /^[[{]/.test(value) ? jsonField(field.name, value) : value;
  }
  return input;
}

/** The refined mean field at the chosen n: E[T] and tail to first order (1/n) and, where it exists, second (1/n²). */
export interface RefinedView {
  readonly n: number;
  /** E[T]_n and the tail to order 1/n; no tail with server speeds (the per-class 1/n term gives E[T] and E[Q]). */
  readonly firstOrder: { readonly meanResponseTime: number; readonly tail?: number[] };
  readonly secondOrder?: { readonly meanResponseTime: number; readonly tail: number[] };
  /** ΣV: E[Q]_n ≈ E[Q]_∞ + ΣV/n (jobs per server). */
  readonly sumV: number;
  readonly source: string;
  /**
   * Why a refined value is not trusted at n, one line per order, as `fixed-point --refined` prints them: order 1 where
   * its 1/n term is more than 5 % of the limit (`firstOrderTrust`), order 2 outside `SECOND_ORDER_RANGE`. theory.md §6.
   */
  readonly caveats: string[];
}

/** The transient from the empty system on a time grid: mean jobs per server (JSQ) or mean workload per server (LWL). */
export interface TransientView {
  readonly of: 'queue length' | 'workload';
  readonly times: number[];
  readonly values: number[];
  /** The stationary value the curve tends to (E[Q] or E[U] of the fixed point), where known. */
  readonly limit?: number;
  /** The SQ(d) relaxation time the time axis was sized from (time units), where it exists. */
  readonly relaxationTime?: number;
  readonly source: string;
}

/** A ccdf P(X > x) on a grid, X the response time T or the workload U (time units). */
export interface CcdfView {
  readonly of: 'response time' | 'workload';
  readonly points: number[];
  readonly ccdf: number[];
  readonly source: string;
}

/** E[T] against λ for the model's policy and for random routing (d = 1, M/G/1), where both are closed forms. */
export interface SweepView {
  readonly lambdas: number[];
  readonly meanResponseTime: number[];
  /** Random routing (each job to one server): the M/G/1 queue of the same discipline. */
  readonly random: number[];
}

/** Whether `solveMeanField` answers this model by a closed form or formula (a sweep over λ costs milliseconds). */
function closedForm(model: SupermarketModel): boolean {
  const c = meanFieldCapabilities(model).fixedPoint;
  if (!c.available) return false;
  // M/G/1 FIFO is Pollaczek–Khinchine; the other disciplines' formulas integrate numerically (slower)
  return c.id === 'sqd-closed-form' || c.id === 'lwl-closed-form' || (c.id === 'mg1' && model.discipline === 'fifo');
}

/** λ values of the sweep: 0.05 … 0.975 per mean service time, and the model's own λ. */
function sweepLambdas(model: SupermarketModel): number[] {
  const top = 0.975 / model.service.mean;
  const grid = Array.from({ length: 38 }, (_, k) => (top * (k + 1)) / 38);
  return [...new Set([...grid, model.lambda])].sort((a, b) => a - b);
}

/** The mean field's response-time law as the page gives it: the solver, its kind and the quantiles (CIs for estimates). */
export interface LawView {
  readonly solver: string;
  readonly kind: string;
  readonly quantiles: readonly ResponseTimeQuantile[];
}

/** Everything the page shows for one model; a part the library refuses is absent and its reason is in `notes`. */
export interface ExplorerView {
  readonly model: SupermarketModel;
  /** The heading: the CLI's policy name (`policyName`), the size law and λ. */
  readonly title: string;
  /** What the mean-field room answers for the model (`meanFieldCapabilities`, the query `fixed-point` asks). */
  readonly capabilities: MeanFieldCapabilities;
  readonly n: number;
  /** The response-time law's quantiles (p50, p95, p99), where the capability query names a law. */
  readonly law?: LawView;
  readonly solution?: MeanFieldSolution;
  readonly refined?: RefinedView;
  readonly transient?: TransientView;
  readonly ccdf?: CcdfView;
  readonly sweep?: SweepView;
  /**
   * Why the limit's E[T] is infinite in theory (model/moments.ts `meanFieldFiniteness`), when the solution says ∞: the
   * page writes "∞ (reason)", and the figures of E[T] draw no point for it (a note says so instead of an empty frame).
   */
  readonly infinite?: string;
  /**
   * Why the limit's E[T] has no number although it is not ∞, with the report's status (compare/verdict.ts
   * `UnvaluedStatus`, shown by `statusText`): 'not-settled' (model/moments.ts `meanFieldUnsettled`) or 'not-computed'
   * (proven finite, no solver: the capability query's reason). Absent when there is a number, or ∞ (`infinite`).
   */
  readonly unvalued?: { readonly status: UnvaluedStatus; readonly reason: string };
  /** One line per part that is missing, naming the part and the library's reason. */
  readonly notes: string[];
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Time and workload step of the LWL transient, in mean service times (lwlTransient's default is 0.01). */
const LWL_TRANSIENT_STEP = 0.05;

/** Output instants 0 … horizon, `points` of them, denser near 0 (where the rise from empty is). */
function timeGrid(horizon: number, points = 121): number[] {
  return Array.from({ length: points }, (_, k) => horizon * (k / (points - 1)) ** 1.5);
}

/**
 * The transient's horizon: 6 relaxation times of SQ(d) at the same λ and d (the model's own where it is SQ(d)),
 * at least 5 mean service times, at most 400.
 */
function transientHorizon(model: SupermarketModel): number | undefined {
  try {
    const sqd = parseModel({
      lambda: model.lambda,
      d: model.selection === 'random' ? 1 : model.d,
      service: { kind: 'exponential', mean: model.service.mean },
    });
    return relaxationTime(sqd);
  } catch {
    return undefined;
  }
}

/**
 * The view of one model at n servers (see the module comment). Every part follows the capability query
 * (`meanFieldCapabilities`), as `supermarket fixed-point` does: the fixed point by `solveMeanField`, the refined terms
 * where the query names them (with server speeds the per-class 1/n term, `heteroRefined`), the transient by its solver,
 * the response-time law by `solveResponseTime`; a part it refuses is a note with the query's reason.
 * @param input a `ModelInput` (as `parseModel` takes). @param n servers, for the refined estimate (integer ≥ d).
 * @throws {InvalidModelError | UnstableModelError} when the model or n is invalid (one line, for the page to show);
 *   any other part that fails becomes a note.
 */
export function exploreView(input: unknown, n: unknown): ExplorerView {
  const model = parseModel(input as unknown as ModelInput);
  const servers = checkServers(model, n);
  const capabilities = meanFieldCapabilities(model);
  const notes: string[] = [];
  let solution: MeanFieldSolution | undefined;
  try {
    solution = solveMeanField(model);
  } catch (e) {
    notes.push(`fixed point: ${message(e)}`);
  }
  let infinite: string | undefined;
  if (solution && solution.meanResponseTime === Infinity) {
    const f = meanFieldFiniteness(model);
    infinite = f.finite ? 'E[T] = ∞ in theory (model/moments.ts)' : f.reason;
    notes.push(`figures of E[T] (E[T] against λ, response-time ccdf): E[T] = ∞ in the limit, so there is no point to draw (${infinite})`);
  }
  // no number and not ∞: the status compare gives the model ("not settled", "finite, not computed"), as the report words it
  const unsettled = solution ? undefined : meanFieldUnsettled(model);
  const unvalued: ExplorerView['unvalued'] =
    unsettled !== undefined
      ? { status: 'not-settled', reason: unsettled }
      : !solution && !capabilities.fixedPoint.available && meanFieldLimit(model) === 'finite'
        ? { status: 'not-computed', reason: capabilities.fixedPoint.reason }
        : undefined;

  let refined: RefinedView | undefined;
  const fixedPointId = capabilities.fixedPoint.available ? capabilities.fixedPoint.id : undefined;
  try {
    if (capabilities.refined.firstOrder.available) {
      const first = refine(model);
      const firstAt = refinedEstimate(first, servers);
      let secondOrder: RefinedView['secondOrder'];
      const caveats = [firstOrderTrust(first.sumV, first.fixedPoint.meanQueueLength, servers).caveat];
      const second = capabilities.refined.secondOrder;
      if (!second.available) notes.push(`refined mean field, 1/n² term: ${second.reason}`);
      else
        try {
          const correction = refineSecondOrder(model, { fixedPoint: first.fixedPoint });
          const at = refinedEstimate(correction, servers);
          secondOrder = { meanResponseTime: at.meanResponseTime, tail: at.tail };
          caveats.push(secondOrderTrust(correction, servers).caveat);
        } catch (e) {
          notes.push(`refined mean field, 1/n² term: ${message(e)}`);
        }
      refined = {
        n: servers,
        firstOrder: { meanResponseTime: firstAt.meanResponseTime, tail: firstAt.tail },
        ...(secondOrder ? { secondOrder } : {}),
        sumV: first.sumV,
        source: `${first.provenance.equation}; ${first.provenance.source}`,
        caveats: caveats.filter((c): c is string => c !== null),
      };
    } else if (model.servers !== undefined && fixedPointId === 'hetero-occupancy' && heteroRefinedRefusal(model) === undefined) {
      // server speeds: the per-class ODE's own 1/n term, as `fixed-point --refined --n` prints it (theory.md §13)
      const r = heteroRefined(model);
      refined = {
        n: servers,
        firstOrder: { meanResponseTime: r.meanResponseTime + r.meanResponseTimeCoefficient / servers },
        sumV: r.meanQueueLengthCoefficient,
        source: 'per-class occupancy ODE as a population model (theory.md §13); E[T]_n ≈ E[T]∞ + c₁/n',
        caveats: [firstOrderTrust(r.meanResponseTimeCoefficient, r.meanResponseTime, servers).caveat].filter(
          (c): c is string => c !== null,
        ),
      };
      if (!capabilities.refined.secondOrder.available)
        notes.push(`refined mean field, 1/n² term: ${capabilities.refined.secondOrder.reason}`);
    } else notes.push(`refined mean field: ${capabilities.refined.firstOrder.reason}`);
  } catch (e) {
    notes.push(`refined mean field: ${message(e)}`);
  }

  // the SQ(d) relaxation time sizes the horizon; it is shown as the model's τ only for identical servers
  const relaxation = transientHorizon(model);
  const horizon = Math.min(400, Math.max(5 * model.service.mean, 6 * (relaxation ?? 20)));
  const times = timeGrid(horizon);
  let transient: TransientView | undefined;
  try {
    const limit = solution?.meanQueueLength;
    const withRelaxation = relaxation === undefined || model.servers !== undefined ? {} : { relaxationTime: relaxation };
    const capability = capabilities.transient;
    if (!capability.available) notes.push(`transient: ${capability.reason}`);
    else if (capability.id === 'lwl-pide' || capability.id === 'memory-lwl-pide') {
      // a coarser step than lwlTransient's default (0.01·E[S]): a curve on screen, re-solved on every change
      const step = Math.min(LWL_TRANSIENT_STEP * model.service.mean, 1 / (model.lambda * model.d));
      const r =
        capability.id === 'lwl-pide'
          ? lwlTransient(model, { times, includeCcdf: false, step })
          : memoryLwlTransient(model, { times, includeCcdf: false, step });
      transient = {
        of: 'workload',
        times: r.times,
        values: r.meanWorkload,
        ...withRelaxation,
        source: `${capability.name}, ${capability.source}; step Δ = ${step.toPrecision(3)}`,
      };
    } else {
      // the SQ(d) or phase-type ODE: mean jobs per server
      const solved = solveMeanFieldTransient(model, times);
      if (solved.solver === 'lwl-pide' || solved.solver === 'memory-lwl-pide')
        throw new Error('unreachable: the LWL(d) PIDE is handled above');
      const r = solved.result;
      transient = {
        of: 'queue length',
        times: r.times,
        values: r.meanQueueLength,
        ...(limit === undefined ? {} : { limit }),
        ...withRelaxation,
        source: `${capability.name}, ${capability.source}`,
      };
    }
  } catch (e) {
    notes.push(`transient: ${message(e)}`);
  }

  // the response-time law where the capability query names one (what `fixed-point --quantiles --ccdf` computes); LWL(d)
  // draws its workload law instead (discipline-free, with the simulation's workload beside it), the quantiles stay
  let ccdf: CcdfView | undefined;
  let law: LawView | undefined;
  const lawCapability = capabilities.responseTime;
  const solutionCcdf = solution?.ccdf;
  const workload = solutionCcdf?.of === 'workload' || (model.selection === 'lwl' && model.d > 1 && model.servers === undefined);
  if (!lawCapability.available) notes.push(`response-time law: ${lawCapability.reason}`);
  else if (solution)
    try {
      const top = 12 * (Number.isFinite(solution.meanResponseTime) ? solution.meanResponseTime : model.service.mean);
      const points = Array.from({ length: 121 }, (_, k) => (top * k) / 120);
      const r = solveResponseTime(model, { times: workload ? [] : points });
      law = { solver: r.solver, kind: r.kind, quantiles: r.quantiles };
      if (!workload) ccdf = { of: 'response time', points: r.times, ccdf: r.ccdf, source: `${r.solver} (${r.kind}); ${r.source}` };
    } catch (e) {
      notes.push(`response-time law: ${message(e)}`);
    }
  if (solutionCcdf?.of === 'workload' && solution)
    ccdf = { of: 'workload', points: solutionCcdf.points, ccdf: solutionCcdf.ccdf, source: solution.source };
  else if (workload)
    try {
      // the closed form of LWL(d) gives E[T] only: the workload law from the FPE (discipline-free)
      const w = lwlWorkloadCcdf(model);
      ccdf = {
        of: 'workload',
        points: w.grid,
        ccdf: w.workloadCcdf,
        source: 'theory.md §4 (Hellemans & Van Houdt 2018): FPE by Picard/FFT',
      };
    } catch (e) {
      notes.push(`ccdf: ${message(e)}`);
    }
  let sweep: SweepView | undefined;
  if (closedForm(model)) {
    try {
      const lambdas = sweepLambdas(model);
      const at = (lambda: number, random: boolean) =>
        solveMeanField(parseModel({ ...model, lambda, ...(random ? { selection: 'random', d: 1 } : {}) } as ModelInput)).meanResponseTime;
      const swept = { lambdas, meanResponseTime: lambdas.map((l) => at(l, false)), random: lambdas.map((l) => at(l, true)) };
      // ∞ at every λ (an M/G/1 FIFO with E[S²] = ∞): a note, not a frame with nothing in it
      if ([...swept.meanResponseTime, ...swept.random].some(Number.isFinite)) sweep = swept;
      else notes.push(`E[T] against λ: ∞ at every λ${infinite ? ` (${infinite})` : ''}; nothing to draw`);
    } catch (e) {
      notes.push(`E[T] against λ: ${message(e)}`);
    }
  }
  return {
    model,
    title: modelTitle(model),
    capabilities,
    n: servers,
    ...(sweep ? { sweep } : {}),
    ...(solution ? { solution } : {}),
    ...(law ? { law } : {}),
    ...(refined ? { refined } : {}),
    ...(transient ? { transient } : {}),
    ...(ccdf ? { ccdf } : {}),
    ...(infinite !== undefined ? { infinite } : {}),
    ...(unvalued !== undefined ? { unvalued } : {}),
    notes,
  };
}

/** The page's heading for a model: the CLI's policy name (`policyName`), the size law and λ. */
export function modelTitle(model: SupermarketModel): string {
  return `${policyName(model)}, ${describeService(model.service)}, λ = ${model.lambda}`;
}

/** A size law in words, for the heading. */
function describeService(s: SupermarketModel['service']): string {
  switch (s.kind) {
    case 'exponential':
      return 'exponential sizes';
    case 'deterministic':
      return 'deterministic sizes';
    case 'erlang':
      return `Erlang-${s.k} sizes`;
    case 'hyperexponential':
      return `hyperexponential sizes (SCV ${s.scv})`;
    case 'weibull':
      return `Weibull sizes (shape ${s.shape})`;
    case 'lognormal':
      return `lognormal sizes (σ ${s.sigma})`;
    case 'bounded-pareto':
      return `bounded Pareto sizes (α ${s.alpha}, ratio ${s.ratio})`;
    case 'pareto':
      return `Pareto sizes (α ${s.alpha})`;
    case 'empirical':
      return `empirical sizes (${s.source})`;
    default: {
      const never: never = s;
      return String(never);
    }
  }
}

/** One row of the page's summary table: symbol, words, value, and an element id where tests look for it. */
export type SummaryRow = [symbol: string, words: string, value: string, id?: string];

const sig = (x: number, digits = 4) => (Number.isFinite(x) ? Number(x.toPrecision(digits)).toString() : x > 0 ? '∞' : String(x));

/**
 * The value of the summary's simulated E[T]ₙ row: a mean not settled (model/moments.ts, `unsettledEstimate`) as "not
 * settled (reason; the run's average … is an observation, not an estimate)", with no interval; a mean infinite in theory
 * as ∞ with why; else mean ± half-width (95 % CI).
 * @param e the simulation's `meanResponseTime` (time units).
 */
export function simulatedResponseTimeText(e: Estimate): string {
  if (isUnsettled(e)) return `not settled (${e.reason}; the run's average ${sig(e.sampleMean, 5)} is an observation, not an estimate)`;
  if (isInfinite(e))
    return `∞ (infinite in theory${e.reason ? `: ${e.reason}` : ''}; sample mean ${sig(e.sampleMean ?? NaN, 5)} estimates nothing)`;
  return `${sig(e.mean, 5)} ± ${sig(e.halfWidth, 2)} (95 % CI)`;
}

/**
 * The summary rows of the mean-field solution beside E[T] (which the page writes itself): E[Q] in the unit the CLI
 * names (`meanQueueLengthUnit`: replicas per server for redundancy-d), π₀, the reduced rate and probes per arrival
 * for a dispatcher memory, one row per speed class, and the response-time quantiles where the law exists.
 */
export function solutionRows(view: ExplorerView): SummaryRow[] {
  const s = view.solution;
  const rows: SummaryRow[] = [];
  if (s?.meanQueueLength !== undefined)
    rows.push([
      'E[Q]',
      `mean ${meanQueueLengthUnit(s)}, n → ∞`,
      // a mean infinite in theory: ∞ with the reason (view.infinite), never a bare ∞ or a number
      Number.isFinite(s.meanQueueLength) ? sig(s.meanQueueLength, 6) : `∞${view.infinite !== undefined ? ` (${view.infinite})` : ''}`,
      'mf-queue-length',
    ]);
  if (s?.redundancy)
    rows.push([
      'F̄(0)',
      `busy fraction; work per job E[W] = ${sig(s.redundancy.workPerJob, 6)}; stable for λ < ${sig(s.redundancy.lambdaMax, 6)}`,
      sig(s.redundancy.busyFraction, 6),
    ]);
  const reduction = s?.reduction;
  if (reduction) {
    const memory = describeMemory(reduction.memory);
    rows.push(['π₀', `memory ${memory} empty at an arrival, n → ∞`, sig(reduction.pi0, 6), 'mf-pi0']);
    rows.push(['λπ₀^{1/d}', 'reduced rate the answer is solved at', sig(reduction.reducedLambda, 6)]);
    rows.push(['probes', 'probes per arrival (ISM messages counted)', sig(reduction.probesPerArrival, 4), 'mf-probes']);
  }
  s?.classes?.forEach((c, k) =>
    rows.push([
      `class ${k + 1}`,
      `speed ${c.speed}, fraction ${c.fraction}: E[T] of its jobs (busy fraction ${sig(c.busyFraction)}, share of jobs ${sig(c.jobShare)})`,
      sig(c.meanResponseTime, 6),
      `mf-class-${k + 1}`,
    ]),
  );
  const law = view.law;
  if (law && law.quantiles.length > 0)
    rows.push([
      law.quantiles.map((q) => percentileName(q.p)).join(', '),
      `response-time percentiles, n → ∞ (${law.kind})`,
      law.quantiles
        .map((q) => (q.estimate ? `${sig(q.value)} [${sig(q.estimate.ci95[0])}, ${sig(q.estimate.ci95[1])}]` : sig(q.value)))
        .join(', '),
      'mf-percentiles',
    ]);
  return rows;
}
