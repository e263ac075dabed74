/**
 * Which models the mean-field room can solve, and the time rescaling shared by every solver.
 *
 * The solvers work in *service time units*: the service rate is rescaled to μ = 1, so the ODE of theory.md §2
 * reads ds_i/dτ = ρ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}) with ρ = λ·E[S] and τ = t/E[S]. Stationary quantities
 * (tail, E[Q], V) depend on ρ only; times are converted back to model time units with t = τ·E[S] (and
 * E[T] = E[Q]/λ by Little's law). With the default E[S] = 1 the two units coincide.
 * Source: theory.md §1–§2.
 */
import { memoryNotHere, modelHasMemory } from '../model/memory.ts';
import { formatArrivals, requirePoissonLimit } from '../model/arrivals.ts';
import { formatBatch } from '../model/batchLaw.ts';
import { InvalidModelError, UnstableModelError } from '../errors.ts';
import { randomRoutingTwin, type SupermarketModel } from '../model/model.ts';
import { clampRowsToRange } from '../numerics/clamp.ts';
import { odexCounts, type OdexCounts } from '../numerics/odex.ts';
import { VERSION, codeId } from '../version.ts';

/**
 * How arrivals are routed when a dispatcher memory sends some of them to remembered idle servers (theory.md §12):
 * the fraction π₀ that finds the memory empty is dispatched by the base rule (SQ(d), LL(d)), the rest joins an idle
 * server. `pi0(busy, emptying)` is the quasi-stationary π₀ given the fraction of busy servers and the ratio of the
 * rate at which servers become idle to the arrival rate λ (both per server). The transients of the phase-type ODE and
 * the LWL(d) PIDE take it (memory/transient.ts `memoryRouting` builds it); without it every arrival follows the base rule (π₀ = 1).
 */
export interface ArrivalRouting {
  pi0(busy: number, emptying: number): number;
}

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
 * Argument check of the SQ(d) and LWL(d) kernels that take raw numbers (not a parsed model): `d` an integer ≥ 1 and
 * the load `rho` (the arrival rate in service-time units) in (0, 1).
 * @throws {InvalidModelError} if d is not an integer ≥ 1 or rho is not finite.
 * @throws {UnstableModelError} if rho ≤ 0 or rho ≥ 1.
 */
export function checkRhoD(rho: number, d: number): void {
  if (!Number.isInteger(d) || d < 1) throw new InvalidModelError(`d must be an integer ≥ 1, got ${d}`);
  if (!Number.isFinite(rho)) throw new InvalidModelError(`the load ρ must be a finite number, got ${rho}`);
  if (rho <= 0 || rho >= 1) {
    throw new UnstableModelError(`the load ρ = λ·E[S] must lie in (0, 1), got ρ = ${rho}`);
  }
}

/**
 * Refuses a model with a setting the base SQ(d) and LWL(d) equations have no term for: server classes (theory.md §13),
 * batches (§15; `batches: true` where the solver has the batch term, the LWL(d) PIDE's LL(d,K)), redundancy (§16).
 * Without it a direct call (solveSqdFixedPoint, solveTransient, refine, lwlFixedPoint, lwlWorkloadCcdf, …) returned
 * the answer of the model without that setting; `solveMeanField` routes such models to their own solvers.
 * @param solver the solver's name, for the message.
 * @throws {InvalidModelError} one line naming the setting and `solveMeanField`.
 */
export function requireBaseModel(
  model: Pick<SupermarketModel, 'servers' | 'redundancy' | 'batch' | 'batchLaw'>,
  solver: string,
  options: { readonly batches?: boolean } = {},
): void {
  const batched = (model.batch ?? 1) !== 1 || model.batchLaw !== undefined;
  const setting =
    model.servers !== undefined
      ? `server speeds ${model.servers.speeds.join(',')}`
      : model.redundancy !== undefined
        ? `redundancy ${model.redundancy.kind}`
        : batched && !options.batches
          ? `batches (${model.batchLaw === undefined ? `K = ${model.batch}` : formatBatch(model.batchLaw)})`
          : undefined;
  if (setting !== undefined)
    throw new InvalidModelError(
      `${solver} has no term for ${setting}: it would answer for the model without it; use solveMeanField, which routes the model to its solver (theory.md §13–§16)`,
    );
}

/**
 * Refuses the refined (1/n, 1/n²) terms for arrivals other than Poisson: a renewal stream from one dispatcher has the
 * Poisson fluid limit (so the fixed point and the ODE hold), but the 1/n coefficient is derived for Poisson arrivals
 * (theory.md §6, §14) and is not known for it.
 * @param what the term, for the message. @throws {InvalidModelError} one line naming the arrivals.
 */
export function requirePoissonRefined(model: Pick<SupermarketModel, 'arrivals'>, what: string): void {
  if (model.arrivals !== undefined && model.arrivals.kind !== 'exponential')
    throw new InvalidModelError(
      `${what} is derived for Poisson arrivals (theory.md §6): arrivals ${formatArrivals(model.arrivals)} have the Poisson limit but an unknown 1/n coefficient (theory.md §14)`,
    );
}

/**
 * The SQ(d) exponential FIFO mean field's own check, and ρ, d and E[S] of a parsed model (trusted: parseModel
 * validated λ, d and ρ < 1 once).
 * @param given from `parseModel`; `selection` 'jsq' (or random routing, SQ(1): `randomRoutingTwin`), `discipline`
 *   'fifo', `service.kind` 'exponential'.
 * @returns `{ rho, d, meanService }` with ρ = λ·E[S].
 * @throws {InvalidModelError} "no mean-field solver for ..." for any other selection, discipline or service, and for
 *   server classes, batches or redundancy (`requireBaseModel`).
 */
export function sqdParameters(given: SupermarketModel): SqdParameters {
  const model = randomRoutingTwin(given) ?? given; // random routing however spelt is SQ(1)
  if (modelHasMemory(model)) throw memoryNotHere(model);
  requirePoissonLimit(model);
  requireBaseModel(model, 'the SQ(d) mean field');
  if (model.selection !== 'jsq') {
    throw new InvalidModelError(`no mean-field solver for selection ${JSON.stringify(model.selection)}; supported: "jsq"`);
  }
  if (model.discipline !== 'fifo') {
    throw new InvalidModelError(`no mean-field solver for discipline ${JSON.stringify(model.discipline)}; supported: "fifo"`);
  }
  if (model.service.kind !== 'exponential') {
    throw new InvalidModelError(`no mean-field solver for service kind ${JSON.stringify(model.service.kind)}; supported: "exponential"`);
  }
  const meanService = model.service.mean;
  return { rho: model.lambda * meanService, d: model.d, meanService };
}

/**
 * Mean queue length per server E[Q] = Σ_{i≥1} s_i of a tail s (s[0] = 1), summed from the top (smallest first).
 * Source: theory.md §2.
 */
export function tailSum(tail: ArrayLike<number>): number {
  let sum = 0;
  for (let i = tail.length - 1; i >= 1; i--) sum += tail[i];
  return sum;
}

/** What an odex transient on a truncated level space reports (SQ(d) ODE, phase-type ODE). */
export interface TruncatedTransientDiagnostics {
  nStep: number;
  nAccept: number;
  nReject: number;
  nEval: number;
  truncationLevel: number;
  /** max_t s_K(t) over all accepted steps: arrivals lost to truncation are at most ρ·H·topLevelMass^d. */
  topLevelMass: number;
  /** Largest move of the output projection onto [0, 1] (integrator round-off; numerics/clamp.ts). */
  clamped: number;
}

/** Where a truncated transient came from: the model, the equation and its source, the version and the solver options. */
export interface TruncatedTransientProvenance {
  model: SupermarketModel;
  equation: string;
  source: string;
  version: string;
  /** The code identity (version.ts `codeIdentity`). */
  code: string;
  options: { tolerance: number; maxSteps: number; truncationLevel: number };
}

/** What a truncated transient returns: the instants, the tail rows, E[Q] per instant, odex diagnostics, provenance. */
export interface TruncatedTransient {
  /** The requested instants (copy), model time units. */
  times: number[];
  /** tail[j] = s_0..s_K at times[j] (length K + 1, s_0 = 1), projected onto [0, 1]. */
  tail: number[][];
  /** meanQueueLength[j] = Σ_{i≥1} s_i(times[j]), jobs per server. */
  meanQueueLength: number[];
  diagnostics: TruncatedTransientDiagnostics;
  provenance: TruncatedTransientProvenance;
}

/**
 * Assembles a truncated transient (SQ(d) ODE, phase-type ODE) from its sampled tails: projects them onto [0, 1]
 * (odex round-off leaves e.g. s_7(0.5) = −8.8e−67; numerics/clamp.ts), sums E[Q] per instant and states the odex
 * counts, the truncation level K, max_t s_K(t), the solver options and the source.
 * @param tail sampled rows s_0..s_K (modified in place by the projection).
 */
export function truncatedTransient(
  model: SupermarketModel,
  times: readonly number[],
  tail: number[][],
  stats: OdexCounts,
  o: { truncationLevel: number; topLevelMass: number; tolerance: number; maxSteps: number; equation: string; source: string },
): TruncatedTransient {
  const clamped = clampRowsToRange(tail);
  return {
    times: [...times],
    tail,
    meanQueueLength: tail.map(tailSum),
    diagnostics: { ...odexCounts(stats), truncationLevel: o.truncationLevel, topLevelMass: o.topLevelMass, clamped },
    provenance: {
      model,
      equation: o.equation,
      source: o.source,
      version: VERSION,
      code: codeId(),
      options: { tolerance: o.tolerance, maxSteps: o.maxSteps, truncationLevel: o.truncationLevel },
    },
  };
}
