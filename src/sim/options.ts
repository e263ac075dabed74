/**
 * Run configuration shared by `simulate`, `simulateTrajectory` and `simulateReplay`: the engine codes of a parsed
 * model, the engine choice, the run options. One precise InvalidModelError per problem.
 */
import { effectiveMemory } from '../model/memory.ts';
import { formatArrivals, mmppPhaseRates, type ArrivalSpec } from '../model/arrivals.ts';
import { memoryCode } from './memory.ts';
import { InvalidModelError } from '../errors.ts';
import {
  DISCIPLINE_TABLE,
  SELECTION_TABLE,
  checkServers,
  unknownPolicy,
  type Discipline,
  type Selection,
  type SupermarketModel,
} from '../model/model.ts';
import { predictionModel } from '../model/prediction/index.ts';
import { serviceDistribution } from '../model/service/index.ts';
import {
  ARR_MMPP,
  ARR_POISSON,
  ARR_RENEWAL,
  ARR_TRACE,
  D_FIFO,
  D_LAS,
  D_PS,
  D_PSJF,
  D_PSPJF,
  D_SJF,
  D_SPJF,
  D_SPRPT,
  D_SRPT,
  LPW_CLIP,
  LPW_SIGNED,
  LPW_STATIC,
  PRED_EXACT,
  PRED_INDEXED,
  PRED_MODEL,
  PRED_TRACE,
  SEL_JSQ,
  SEL_LPW,
  SEL_LWL,
  SEL_RANDOM,
  SEL_SED,
  SIZE_DIST,
  SIZE_EXP,
  SIZE_INDEXED,
  SIZE_TRACE,
  type EngineKind,
  type ReplayTrace,
  type RunConfig,
} from './core.ts';
import { MAX_UNIFORM_BOUND } from '../stats/rng.ts';
import { serverLayout } from './serverClasses.ts';

/**
 * The engines' SEL_* code of a selection rule (selection table, model/policy). The engines branch on the code,
 * read once per run; this switch is where a new rule must get one (a missing case does not compile).
 */
export function selectionCode(selection: Selection): number {
  switch (selection) {
    case 'random':
      return SEL_RANDOM;
    case 'jsq':
      return SEL_JSQ;
    case 'lwl':
      return SEL_LWL;
    case 'lpw':
      return SEL_LPW;
    case 'sed':
      return SEL_SED;
    case 'jiq':
      // the dispatcher memory (sim/memory.ts, unbounded ISM) sends a job to a known idle server, else a random one
      return SEL_RANDOM;
    default:
      return unknownPolicy(selection, 'selection rule');
  }
}

/**
 * The engines' D_* code of a discipline (discipline table, model/policy; the code is its index in DISCIPLINES).
 * The priority engine's keys branch on the code; a new discipline gets its code, and its keys there, here.
 */
export function disciplineCode(discipline: Discipline): number {
  switch (discipline) {
    case 'fifo':
      return D_FIFO;
    case 'sjf':
      return D_SJF;
    case 'psjf':
      return D_PSJF;
    case 'srpt':
      return D_SRPT;
    case 'spjf':
      return D_SPJF;
    case 'pspjf':
      return D_PSPJF;
    case 'sprpt':
      return D_SPRPT;
    case 'ps':
      return D_PS;
    case 'las':
      return D_LAS;
    default:
      return unknownPolicy(discipline, 'discipline');
  }
}

/**
 * The event engine serving a discipline, from its server model (discipline table): a priority server ranked by
 * arrival without preemption (FIFO) runs on the FIFO event engine over identical servers, every other priority server
 * (and FIFO with server speeds: a job stored as S/speed, theory.md §13) on the priority engine.
 * @param speeds whether the servers have speeds (the model's `servers`).
 * @throws {InvalidModelError} for a server model no engine serves yet.
 */
function eventEngineFor(discipline: Discipline, speeds: boolean): EngineKind {
  const row = DISCIPLINE_TABLE[discipline];
  switch (row.server) {
    case 'priority':
      return row.rank === 'arrival' && !row.preemptive && !speeds ? 'event' : 'priority';
    case 'sharing':
    case 'attained-service':
      return 'sharing';
    default:
      return unknownPolicy(row.server, 'server model');
  }
}
/**
 * The engines' ARR_* code of an arrival process and what its source needs: the renewal law rescaled to mean 1/(λn),
 * or the MMPP's system rates (λn·rᵢ/r̄), switching rates and P(phase 1) (model/arrivals.ts).
 */
export function arrivalCode(
  arrivals: ArrivalSpec,
  lambda: number,
  n: number,
): Pick<RunConfig, 'arrivalKind' | 'arrivalLaw' | 'mmppRates' | 'mmppSwitching' | 'mmppFirstPhase'> {
  const mean = 1 / (lambda * n);
  switch (arrivals.kind) {
    case 'exponential':
      return { arrivalKind: ARR_POISSON };
    case 'deterministic':
    case 'erlang':
    case 'hyperexponential':
      return { arrivalKind: ARR_RENEWAL, arrivalLaw: serviceDistribution({ ...arrivals, mean }) };
    case 'mmpp': {
      const { rates, stationary } = mmppPhaseRates(arrivals, lambda);
      return {
        arrivalKind: ARR_MMPP,
        mmppRates: Float64Array.from(rates, (r) => r * n),
        mmppSwitching: Float64Array.from(arrivals.switching),
        mmppFirstPhase: stationary[0],
      };
    }
    default:
      return unknownPolicy(arrivals, 'arrival process');
  }
}

const LPW_CODES = { clip: LPW_CLIP, signed: LPW_SIGNED, static: LPW_STATIC } as const;

/** Default grid for the workload ccdf of LWL/LPW runs: w = 0, 0.25, …, 10 (time units × E[S]). */
export function defaultWorkloadGrid(serviceMean: number): number[] {
  return Array.from({ length: 41 }, (_, k) => 0.25 * k * serviceMean);
}

/**
 * Resolves the run configuration of a parsed model on n servers. The model is trusted (parseModel validated it
 * once: names, λ, d, ρ < 1, service and prediction specs); what is checked here is the simulator's own: n against d
 * and the engine's limit, trace predictions paired with empirical sizes, the workload grid.
 * @param model from `parseModel`. @param n servers. @param options `workloadGrid` (increasing, finite, ≥ 0),
 *   `trace` (replay; sizes and predictions then come from it).
 * @returns the resolved run configuration.
 * @throws {InvalidModelError} n not an integer in [1, 2^21]; d > n; trace predictions without paired sizes; a bad
 *   workload grid.
 */
export function resolveRunConfig(
  model: SupermarketModel,
  n: unknown,
  options: { workloadGrid?: unknown; trace?: ReplayTrace } = {},
): RunConfig {
  const conv = model.conventions;
  const service = serviceDistribution(model.service);
  const prediction = predictionModel(model.prediction);
  const mean = service.mean;
  const { lambda } = model;
  const trace = options.trace;
  const servers = checkServers(model, n);
  if (servers > MAX_UNIFORM_BOUND) throw new InvalidModelError(`n = ${servers} exceeds the simulator's limit 2^21 = ${MAX_UNIFORM_BOUND}`);
  if (model.redundancy !== undefined && trace !== undefined)
    throw new InvalidModelError('replay of a trace with redundancy-d is not supported: a trace gives one size per job, not per replica');
  if (model.redundancy !== undefined && options.workloadGrid !== undefined)
    throw new InvalidModelError('a workload grid has no meaning under redundancy-d (work is removed with cancelled replicas); drop it');

  let sizeKind: number;
  let predKind: number;
  let indexedSizes: Float64Array | undefined;
  if (trace !== undefined) {
    if (model.batch > 1) throw new InvalidModelError('replay takes its arrival times from the trace: a batch size would have no effect');
    if (model.arrivals.kind !== 'exponential')
      throw new InvalidModelError(
        `replay takes its arrival times from the trace: arrivals ${formatArrivals(model.arrivals)} would have no effect (leave arrivals at exp)`,
      );
    sizeKind = SIZE_TRACE;
    predKind = trace.predictions !== undefined ? PRED_TRACE : model.prediction.kind === 'exact' ? PRED_EXACT : PRED_MODEL;
    if (trace.predictions === undefined && model.prediction.kind === 'trace') {
      throw new InvalidModelError('replay with prediction kind "trace" needs workload.predictions');
    }
  } else if (model.prediction.kind === 'trace') {
    const spec = model.service;
    if (spec.kind !== 'empirical' || spec.values.length !== model.prediction.values.length) {
      throw new InvalidModelError(
        `trace predictions (${model.prediction.values.length} values) need empirical sizes of the same length, paired by job; got service ${spec.kind}${spec.kind === 'empirical' ? ` with ${spec.values.length} values` : ''} (or use simulateReplay)`,
      );
    }
    sizeKind = SIZE_INDEXED;
    predKind = PRED_INDEXED;
    indexedSizes = Float64Array.from(spec.values);
  } else {
    sizeKind = model.service.kind === 'exponential' ? SIZE_EXP : SIZE_DIST;
    predKind = model.prediction.kind === 'exact' ? PRED_EXACT : PRED_MODEL;
  }

  const selection = selectionCode(model.selection);
  const gridInput = options.workloadGrid ?? (selection === SEL_LWL || selection === SEL_LPW ? defaultWorkloadGrid(mean) : []);
  if (!Array.isArray(gridInput)) throw new InvalidModelError('workloadGrid must be an array of increasing numbers ≥ 0');
  gridInput.forEach((w, k) => {
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0)
      throw new InvalidModelError(`workloadGrid[${k}] must be a finite number ≥ 0, got ${w}`);
    if (k > 0 && !(w > gridInput[k - 1]))
      throw new InvalidModelError(`workloadGrid must be strictly increasing: workloadGrid[${k}] = ${w} ≤ ${gridInput[k - 1]}`);
  });
  return {
    n: servers,
    d: SELECTION_TABLE[model.selection].samplesD ? model.d : 1,
    lambda,
    serviceMean: mean,
    withoutReplacement: model.sampling === 'without-replacement',
    selection,
    discipline: disciplineCode(model.discipline),
    lpwMode: LPW_CODES[conv.lpwWork],
    psjfRemaining: conv.psjfPreemption === 'remaining',
    sprptZero: conv.sprptOverrun === 'zero',
    sizeKind,
    service,
    predKind,
    prediction,
    indexedSizes,
    trace,
    ...(trace !== undefined ? { arrivalKind: ARR_TRACE } : arrivalCode(model.arrivals, lambda / model.batch, servers)),
    batchSize: model.batch,
    ...(model.batchLaw === undefined ? {} : { batchLaw: model.batchLaw }),
    batchWhole: model.batchDispatch === 'whole',
    identicalReplicas: model.redundancy?.replicas === 'identical',
    workloadGrid: Float64Array.from(gridInput as number[]),
    ...memoryCode(effectiveMemory(model.selection, model.d, model.memory), servers),
    ...(model.servers === undefined ? {} : { layout: serverLayout(model.servers, servers) }),
  };
}

/** True if the race fast path is exact for the model: Poisson arrivals, exponential sizes, JSQ (queue-length rule), FIFO. */
export function raceIsExact(model: SupermarketModel): boolean {
  // A dispatcher memory (theory.md §12) needs server ids per arrival; the race fast path keeps only counts per level.
  return (
    model.service.kind === 'exponential' &&
    model.selection === 'jsq' &&
    eventEngineFor(model.discipline, model.servers !== undefined) === 'event' &&
    model.memory.kind === 'none' &&
    model.servers === undefined && // the race draws departures from busy servers at one rate
    model.batch === 1 &&
    model.redundancy === undefined && // replicas need server ids and their removal
    model.arrivals.kind === 'exponential' // the race draws the next event from the total rate: a Poisson clock
  );
}

/**
 * The engines a run may ask for: every engine a result can name (`EngineKind`), and 'auto'. One table for the
 * `--engine` choices, its help and `resolveEngine`, so every name a header prints can be chosen.
 */
export const ENGINE_CHOICES = {
  auto: 'race when exact, else the event engine of the discipline (event, priority or sharing)',
  event:
    "the discipline's event engine: FIFO's event-driven engine (identical servers), priority for the other priority servers and FIFO with speeds, sharing for PS and LAS",
  priority: 'engine for the priority disciplines (FIFO included)',
  sharing: 'engine for the sharing servers (PS, LAS)',
  race: 'exponential JSQ FIFO fast path (no memory)',
  redundancy: 'redundancy-d cancel-on-complete: a replica on each of d servers, the others removed at the first completion',
} as const satisfies Record<EngineKind | 'auto', string>;

/** A name `resolveEngine` takes. */
export type EngineChoice = keyof typeof ENGINE_CHOICES;

/**
 * Resolves `engine`: 'auto' → 'race' when exact, else the discipline's event engine: 'event' for FIFO over identical
 * servers, 'priority' for the other priority disciplines and for FIFO with server speeds, 'sharing' for PS and LAS.
 * 'event' on any model means that event engine.
 * @throws {InvalidModelError} for an unknown name or 'race' on a model where it is not exact.
 */
export function resolveEngine(model: SupermarketModel, engine: unknown): EngineKind {
  if (model.redundancy !== undefined) {
    if (engine === undefined || engine === 'auto' || engine === 'event' || engine === 'redundancy') return 'redundancy';
    throw new InvalidModelError(`engine ${JSON.stringify(engine)} does not simulate redundancy-d; use auto or redundancy`);
  }
  if (engine === 'redundancy')
    throw new InvalidModelError('engine "redundancy" runs redundancy-d models only (--redundancy cancel-on-complete); use auto');
  const eventKind = eventEngineFor(model.discipline, model.servers !== undefined);
  if (engine === undefined || engine === 'auto') return raceIsExact(model) ? 'race' : eventKind;
  if (engine === 'event') return eventKind;
  if (engine === 'priority') {
    if (eventKind === 'sharing')
      throw new InvalidModelError(`engine "priority" does not run discipline ${model.discipline}; use auto or event`);
    return 'priority';
  }
  if (engine === 'sharing') {
    if (eventKind !== 'sharing')
      throw new InvalidModelError(
        `engine "sharing" runs the sharing servers (PS, LAS), not discipline ${model.discipline}; use auto or event`,
      );
    return 'sharing';
  }
  if (engine === 'race') {
    if (!raceIsExact(model))
      throw new InvalidModelError(
        model.servers !== undefined
          ? 'engine "race" has one service rate; server speeds run on the event engine (auto or event)'
          : 'engine "race" is exact only for Poisson arrivals and exponential sizes with JSQ and FIFO',
      );
    return 'race';
  }
  throw new InvalidModelError(`unknown engine ${JSON.stringify(engine)}; expected ${Object.keys(ENGINE_CHOICES).join(', ')}`);
}

/** Validates an optional integer option ≥ min, returning `fallback` when undefined. */
export function integerOption(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new InvalidModelError(`${name} must be an integer ≥ ${min}, got ${String(value)}`);
  }
  return value;
}

/** Validates the master seed: a safe integer (default 1). */
export function seedOption(value: unknown): number {
  if (value === undefined) return 1;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new InvalidModelError(`seed must be a safe integer, got ${String(value)}`);
  }
  return value;
}
