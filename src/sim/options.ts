/**
 * Validation shared by `simulate` and `simulateTrajectory`: which models the simulator covers, the run
 * configuration, the engine choice and the warm-up fallback. One precise InvalidModelError per problem.
 */
import { InvalidModelError, UnstableModelError } from '../errors.ts';
import { checkServers, type SupermarketModel } from '../model/model.ts';
import type { EngineKind, RunConfig } from './core.ts';
import { MAX_UNIFORM_BOUND } from './rng.ts';

/**
 * Checks that the simulator covers `model` (JSQ(d), FIFO, exponential sizes) and that `n` fits it.
 * @returns the resolved run configuration.
 * @throws {InvalidModelError} unknown/unsupported selection, discipline, service or sampling; λ, d or the
 *   service mean not finite; n not an integer in [1, 2^21]; d > n.
 * @throws {UnstableModelError} if λ ≤ 0 or ρ = λ·E[S] ≥ 1.
 */
export function resolveRunConfig(model: SupermarketModel, n: unknown): RunConfig {
  if (model === null || typeof model !== 'object') throw new InvalidModelError('simulate needs a model object');
  if (model.selection !== 'jsq') throw new InvalidModelError(`no simulator for selection ${JSON.stringify(model.selection)} (only "jsq")`);
  if (model.discipline !== 'fifo') throw new InvalidModelError(`no simulator for discipline ${JSON.stringify(model.discipline)} (only "fifo")`);
  const service = model.service as { kind?: unknown; mean?: unknown } | undefined;
  if (service?.kind !== 'exponential') {
    throw new InvalidModelError(`no simulator for service ${JSON.stringify(service?.kind)} (only "exponential")`);
  }
  const mean = service.mean;
  if (typeof mean !== 'number' || !Number.isFinite(mean) || mean <= 0) {
    throw new InvalidModelError(`service mean must be a finite number > 0, got ${mean}`);
  }
  if (model.sampling !== 'with-replacement' && model.sampling !== 'without-replacement') {
    throw new InvalidModelError(`unknown sampling ${JSON.stringify(model.sampling)}; expected with-replacement or without-replacement`);
  }
  const { lambda, d } = model;
  if (typeof lambda !== 'number' || !Number.isFinite(lambda)) throw new InvalidModelError(`lambda must be a finite number, got ${lambda}`);
  if (typeof d !== 'number' || !Number.isInteger(d) || d < 1) throw new InvalidModelError(`d must be an integer ≥ 1, got ${d}`);
  if (lambda <= 0) throw new UnstableModelError(`lambda must be > 0, got ${lambda}`);
  if (lambda * mean >= 1) throw new UnstableModelError(`unstable load: rho = lambda·E[S] = ${lambda * mean} ≥ 1`);
  const servers = checkServers(model, n);
  if (servers > MAX_UNIFORM_BOUND) throw new InvalidModelError(`n = ${servers} exceeds the simulator's limit 2^21 = ${MAX_UNIFORM_BOUND}`);
  return { n: servers, d, lambda, serviceMean: mean, withoutReplacement: model.sampling === 'without-replacement' };
}

/** True if the race fast path is exact for the model: exponential sizes, JSQ (queue-length rule), FIFO. */
export function raceIsExact(model: SupermarketModel): boolean {
  return model.service.kind === 'exponential' && model.selection === 'jsq' && model.discipline === 'fifo';
}

/**
 * Resolves `engine`: 'auto' → 'race' when exact, else 'event'.
 * @throws {InvalidModelError} for an unknown name or 'race' on a model where it is not exact.
 */
export function resolveEngine(model: SupermarketModel, engine: unknown): EngineKind {
  if (engine === undefined || engine === 'auto') return raceIsExact(model) ? 'race' : 'event';
  if (engine === 'event') return 'event';
  if (engine === 'race') {
    if (!raceIsExact(model)) throw new InvalidModelError('engine "race" is exact only for exponential sizes with JSQ and FIFO');
    return 'race';
  }
  throw new InvalidModelError(`unknown engine ${JSON.stringify(engine)}; expected auto, event or race`);
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
 * (τ ≈ 1.4/(1 − ρ), so ≈ 14τ), 10/(1 − √ρ)² for d = 1 (10 M/M/1 relaxation times). Time units.
 */
export function fallbackWarmup(config: RunConfig): number {
  const rho = config.lambda * config.serviceMean;
  const tau = config.d === 1 ? 10 / (1 - Math.sqrt(rho)) ** 2 : 20 / (1 - rho);
  return tau * config.serviceMean;
}
