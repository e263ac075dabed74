/**
 * Which models the mean-field room can solve, and the time rescaling shared by every solver.
 *
 * The solvers work in *service time units*: the service rate is rescaled to μ = 1, so the ODE of theory.md §2
 * reads ds_i/dτ = ρ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}) with ρ = λ·E[S] and τ = t/E[S]. Stationary quantities
 * (tail, E[Q], V) depend on ρ only; times are converted back to model time units with t = τ·E[S] (and
 * E[T] = E[Q]/λ by Little's law). With the default E[S] = 1 the two units coincide.
 * Source: theory.md §1–§2.
 */
import { InvalidModelError, UnstableModelError } from '../errors.ts';
import type { SupermarketModel } from '../model/model.ts';

/** The numbers a mean-field solver needs from a supported model. */
export interface SqdParameters {
  /** Load ρ = λ·E[S] in (0, 1): the arrival rate in service-time units. */
  readonly rho: number;
  /** Number of sampled servers, integer ≥ 1. */
  readonly d: number;
  /** Mean service time E[S] in model time units; multiply service-time-unit times by it. */
  readonly meanService: number;
}

/**
 * Checks that `d` is an integer ≥ 1 and `lambda` a finite number in (0, 1).
 * @throws {InvalidModelError} if d is not an integer ≥ 1 or lambda is not finite.
 * @throws {UnstableModelError} if lambda ≤ 0 or lambda ≥ 1 (here lambda is the load in service-time units).
 */
export function checkLambdaD(lambda: number, d: number): void {
  if (!Number.isInteger(d) || d < 1) throw new InvalidModelError(`d must be an integer ≥ 1, got ${d}`);
  if (!Number.isFinite(lambda)) throw new InvalidModelError(`lambda must be a finite number, got ${lambda}`);
  if (lambda <= 0 || lambda >= 1) {
    throw new UnstableModelError(`lambda (load in service-time units) must lie in (0, 1), got ${lambda}`);
  }
}

/**
 * Validates a model for the SQ(d) exponential FIFO mean field and returns ρ, d and E[S].
 * @param model `selection` 'jsq', `discipline` 'fifo', `service.kind` 'exponential'; `lambda` per server.
 * @returns `{ rho, d, meanService }` with ρ = λ·E[S] in (0, 1).
 * @throws {InvalidModelError} "no mean-field solver for ..." for any other selection, discipline or service;
 *   also if d is not an integer ≥ 1, or lambda / service mean are not finite and positive.
 * @throws {UnstableModelError} if λ ≤ 0 or ρ ≥ 1.
 */
export function sqdParameters(model: SupermarketModel): SqdParameters {
  if (model.selection !== 'jsq') {
    throw new InvalidModelError(`no mean-field solver for selection ${JSON.stringify(model.selection)}; supported: "jsq"`);
  }
  if (model.discipline !== 'fifo') {
    throw new InvalidModelError(`no mean-field solver for discipline ${JSON.stringify(model.discipline)}; supported: "fifo"`);
  }
  const service = model.service as { kind?: unknown; mean?: unknown } | undefined;
  if (service?.kind !== 'exponential') {
    throw new InvalidModelError(`no mean-field solver for service kind ${JSON.stringify(service?.kind)}; supported: "exponential"`);
  }
  const meanService = service.mean;
  if (typeof meanService !== 'number' || !Number.isFinite(meanService) || meanService <= 0) {
    throw new InvalidModelError(`service mean must be a finite number > 0, got ${String(meanService)}`);
  }
  if (typeof model.lambda !== 'number' || !Number.isFinite(model.lambda)) {
    throw new InvalidModelError(`lambda must be a finite number, got ${String(model.lambda)}`);
  }
  if (model.lambda <= 0) throw new UnstableModelError(`lambda must be > 0, got ${model.lambda}`);
  const rho = model.lambda * meanService;
  if (rho >= 1) {
    throw new UnstableModelError(`unstable load: rho = lambda·E[S] = ${rho} ≥ 1; no fixed point exists`);
  }
  if (!Number.isInteger(model.d) || model.d < 1) throw new InvalidModelError(`d must be an integer ≥ 1, got ${model.d}`);
  return { rho, d: model.d, meanService };
}
