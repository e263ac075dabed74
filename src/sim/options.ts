/**
 * Validation shared by `simulate`, `simulateTrajectory` and `simulateReplay`: which models the simulator covers,
 * the run configuration, the engine choice and the warm-up fallback. One precise InvalidModelError per problem.
 */
import { InvalidModelError, UnstableModelError } from '../errors.ts';
import { DISCIPLINES, SELECTIONS, checkServers, type SupermarketModel } from '../model/model.ts';
import { predictionModel } from '../model/prediction/index.ts';
import { serviceDistribution } from '../model/service/index.ts';
import {
  D_FIFO, LPW_CLIP, LPW_SIGNED, LPW_STATIC, PRED_EXACT, PRED_INDEXED, PRED_MODEL, PRED_TRACE, SEL_JSQ, SEL_LPW, SEL_LWL,
  SEL_RANDOM, SIZE_DIST, SIZE_EXP, SIZE_INDEXED, SIZE_TRACE, type EngineKind, type ReplayTrace, type RunConfig,
} from './core.ts';
import { MAX_UNIFORM_BOUND } from '../stats/rng.ts';

const SELECTION_CODES = { random: SEL_RANDOM, jsq: SEL_JSQ, lwl: SEL_LWL, lpw: SEL_LPW } as const;
const LPW_CODES = { clip: LPW_CLIP, signed: LPW_SIGNED, static: LPW_STATIC } as const;

/** Default grid for the workload ccdf of LWL/LPW runs: w = 0, 0.25, …, 10 (time units × E[S]). */
export function defaultWorkloadGrid(serviceMean: number): number[] {
  return Array.from({ length: 41 }, (_, k) => 0.25 * k * serviceMean);
}

/**
 * Checks that the simulator covers `model` and that `n` fits it: every selection (random, jsq, lwl, lpw), every
 * discipline of theory.md §1, every service law, every prediction model (trace predictions need empirical sizes
 * of the same length, paired by index, or `simulateReplay`).
 * @param n servers. @param options `workloadGrid` (increasing, finite, ≥ 0), `trace` (replay; sizes and
 *   predictions then come from it).
 * @returns the resolved run configuration.
 * @throws {InvalidModelError} unknown selection, discipline or sampling; a bad service or prediction spec; λ or d
 *   not finite; n not an integer in [1, 2^21]; d > n; a bad workload grid.
 * @throws {UnstableModelError} if λ ≤ 0 or ρ = λ·E[S] ≥ 1 (not checked in replay, where the trace sets the load).
 */
export function resolveRunConfig(
  model: SupermarketModel,
  n: unknown,
  options: { workloadGrid?: unknown; trace?: ReplayTrace } = {},
): RunConfig {
  if (model === null || typeof model !== 'object') throw new InvalidModelError('simulate needs a model object');
  if (!(SELECTIONS as readonly string[]).includes(model.selection)) {
    throw new InvalidModelError(`no simulator for selection ${JSON.stringify(model.selection)}; expected one of: ${SELECTIONS.join(', ')}`);
  }
  const discipline = (DISCIPLINES as readonly string[]).indexOf(model.discipline);
  if (discipline < 0) {
    throw new InvalidModelError(`no simulator for discipline ${JSON.stringify(model.discipline)}; expected one of: ${DISCIPLINES.join(', ')}`);
  }
  if (model.sampling !== 'with-replacement' && model.sampling !== 'without-replacement') {
    throw new InvalidModelError(`unknown sampling ${JSON.stringify(model.sampling)}; expected with-replacement or without-replacement`);
  }
  const conv = model.conventions ?? {};
  const lpwMode = LPW_CODES[(conv.lpwWork ?? 'clip') as keyof typeof LPW_CODES];
  if (lpwMode === undefined) throw new InvalidModelError(`unknown lpwWork convention ${JSON.stringify(conv.lpwWork)}; expected clip, signed or static`);
  if (conv.sprptOverrun !== undefined && conv.sprptOverrun !== 'negative' && conv.sprptOverrun !== 'zero') {
    throw new InvalidModelError(`unknown sprptOverrun convention ${JSON.stringify(conv.sprptOverrun)}; expected negative or zero`);
  }
  if (conv.psjfPreemption !== undefined && conv.psjfPreemption !== 'original' && conv.psjfPreemption !== 'remaining') {
    throw new InvalidModelError(`unknown psjfPreemption convention ${JSON.stringify(conv.psjfPreemption)}; expected original or remaining`);
  }
  const service = serviceDistribution(model.service);
  const prediction = predictionModel(model.prediction);
  const mean = service.mean;
  const { lambda } = model;
  if (typeof lambda !== 'number' || !Number.isFinite(lambda)) throw new InvalidModelError(`lambda must be a finite number, got ${lambda}`);
  if (typeof model.d !== 'number' || !Number.isInteger(model.d) || model.d < 1) throw new InvalidModelError(`d must be an integer ≥ 1, got ${model.d}`);
  const trace = options.trace;
  if (trace === undefined) {
    if (lambda <= 0) throw new UnstableModelError(`lambda must be > 0, got ${lambda}`);
    if (lambda * mean >= 1) throw new UnstableModelError(`unstable load: rho = lambda·E[S] = ${lambda * mean} ≥ 1`);
  }
  const servers = checkServers(model, n);
  if (servers > MAX_UNIFORM_BOUND) throw new InvalidModelError(`n = ${servers} exceeds the simulator's limit 2^21 = ${MAX_UNIFORM_BOUND}`);

  let sizeKind: number;
  let predKind: number;
  let indexedSizes: Float64Array | undefined;
  if (trace !== undefined) {
    sizeKind = SIZE_TRACE;
    predKind = trace.predictions !== undefined ? PRED_TRACE : model.prediction.kind === 'exact' ? PRED_EXACT : PRED_MODEL;
    if (trace.predictions === undefined && model.prediction.kind === 'trace') {
      throw new InvalidModelError('replay with prediction kind "trace" needs workload.predictions');
    }
  } else if (model.prediction.kind === 'trace') {
    const spec = model.service;
    if (spec.kind !== 'empirical' || spec.values.length !== model.prediction.values.length) {
      throw new InvalidModelError(`trace predictions (${model.prediction.values.length} values) need empirical sizes of the same length, paired by job; got service ${spec.kind}${spec.kind === 'empirical' ? ` with ${spec.values.length} values` : ''} (or use simulateReplay)`);
    }
    sizeKind = SIZE_INDEXED;
    predKind = PRED_INDEXED;
    indexedSizes = Float64Array.from(spec.values);
  } else {
    sizeKind = model.service.kind === 'exponential' ? SIZE_EXP : SIZE_DIST;
    predKind = model.prediction.kind === 'exact' ? PRED_EXACT : PRED_MODEL;
  }

  const selection = SELECTION_CODES[model.selection];
  const gridInput = options.workloadGrid ?? (selection === SEL_LWL || selection === SEL_LPW ? defaultWorkloadGrid(mean) : []);
  if (!Array.isArray(gridInput)) throw new InvalidModelError('workloadGrid must be an array of increasing numbers ≥ 0');
  gridInput.forEach((w, k) => {
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) throw new InvalidModelError(`workloadGrid[${k}] must be a finite number ≥ 0, got ${w}`);
    if (k > 0 && !(w > gridInput[k - 1])) throw new InvalidModelError(`workloadGrid must be strictly increasing: workloadGrid[${k}] = ${w} ≤ ${gridInput[k - 1]}`);
  });
  return {
    n: servers,
    d: selection === SEL_RANDOM ? 1 : model.d,
    lambda,
    serviceMean: mean,
    withoutReplacement: model.sampling === 'without-replacement',
    selection,
    discipline,
    lpwMode,
    psjfRemaining: conv.psjfPreemption === 'remaining',
    sprptZero: conv.sprptOverrun === 'zero',
    sizeKind,
    service,
    predKind,
    prediction,
    indexedSizes,
    trace,
    workloadGrid: Float64Array.from(gridInput as number[]),
  };
}

/** True if the race fast path is exact for the model: exponential sizes, JSQ (queue-length rule), FIFO. */
export function raceIsExact(model: SupermarketModel): boolean {
  return model.service.kind === 'exponential' && model.selection === 'jsq' && model.discipline === 'fifo';
}

/**
 * Resolves `engine`: 'auto' → 'race' when exact, else 'event' for FIFO and 'priority' for the other disciplines.
 * 'event' on a non-FIFO model means its event engine, i.e. 'priority'.
 * @throws {InvalidModelError} for an unknown name or 'race' on a model where it is not exact.
 */
export function resolveEngine(model: SupermarketModel, engine: unknown): EngineKind {
  const eventKind: EngineKind = model.discipline === DISCIPLINES[D_FIFO] ? 'event' : 'priority';
  if (engine === undefined || engine === 'auto') return raceIsExact(model) ? 'race' : eventKind;
  if (engine === 'event') return eventKind;
  if (engine === 'priority') return 'priority';
  if (engine === 'race') {
    if (!raceIsExact(model)) throw new InvalidModelError('engine "race" is exact only for exponential sizes with JSQ and FIFO');
    return 'race';
  }
  throw new InvalidModelError(`unknown engine ${JSON.stringify(engine)}; expected auto, event, priority or race`);
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

/**
 * Warm-up used when the caller gives none (theory.md §2 relaxation times): 20/(1 − ρ) for d ≥ 2
 * (τ ≈ 1.4/(1 − ρ), so ≈ 14τ), 10/(1 − √ρ)² for d = 1 (10 M/M/1 relaxation times), times (1 + SCV)/2 for
 * non-exponential sizes (theory.md §8 "Heavy tails": longer for high variability). Time units.
 */
export function fallbackWarmup(config: RunConfig): number {
  const rho = config.lambda * config.serviceMean;
  const tau = config.d === 1 ? 10 / (1 - Math.sqrt(rho)) ** 2 : 20 / (1 - rho);
  const variability = Math.max(1, (1 + config.service.scv) / 2);
  return tau * config.serviceMean * (Number.isFinite(variability) ? variability : 1);
}
