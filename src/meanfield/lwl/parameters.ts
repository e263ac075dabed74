/**
 * Which models the LWL(d) solvers accept, and the numbers they need: ρ = λ·E[S], d, the service law, and the
 * default grid (step Δ, horizon W) chosen from the law. Times are in model time units (mean service times when
 * service.mean = 1). Source: theory.md §4 ("Numerics" item 1: Δ = 0.005, W = 300, 600 for heavy tails).
 */
import { memoryNotHere, modelHasMemory } from '../../model/memory.ts';
import { requirePoissonLimit } from '../../model/arrivals.ts';
import { InvalidModelError } from '../../errors.ts';
import { requireBaseModel } from '../support.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { serviceDistribution, type ServiceDistribution } from '../../model/service/index.ts';

/** What an LWL(d) solver reads from a validated model. */
export interface LwlParameters {
  /** Arrival rate per server λ (per time unit). */
  readonly lambda: number;
  /** Load ρ = λ·E[S] in (0, 1). */
  readonly rho: number;
  /** Number of sampled servers, integer ≥ 1. */
  readonly d: number;
  /** The runtime service law (ccdf, moments, atoms, phase type). */
  readonly service: ServiceDistribution;
}

/** Default grid step in mean service times (theory.md §4: ~1e−5 accuracy). */
export const DEFAULT_STEP = 0.005;
/** Default horizon in mean service times; `HEAVY_TAIL_HORIZON` for heavy-tailed laws. */
export const DEFAULT_HORIZON = 300;
export const HEAVY_TAIL_HORIZON = 600;

/**
 * The LWL(d) solvers' own check of a parsed model (trusted: λ, d, ρ < 1 were validated once), and its service law.
 * @param model from `parseModel`; `selection` must be 'lwl'; with `requireFifo`, `discipline` must be 'fifo'.
 * @param options `batches`: the caller has the batch term (the PIDE's LL(d,K)); otherwise a batch model is refused.
 * @throws {InvalidModelError} for another selection, or a non-FIFO discipline when `requireFifo` (response times
 *   under other disciplines need the cavity method, theory.md §5), or server classes, redundancy or (without
 *   `batches`) batches: the fixed point and workload ccdf of LL(d,K) are `lldkFixedPoint`'s (`requireBaseModel`).
 */
export function lwlParameters(model: SupermarketModel, requireFifo: boolean, options: { readonly batches?: boolean } = {}): LwlParameters {
  if (modelHasMemory(model)) throw memoryNotHere(model);
  requirePoissonLimit(model);
  requireBaseModel(model, 'the LWL(d) workload equation', options);
  if (model.selection !== 'lwl') {
    throw new InvalidModelError(
      `the LWL(d) workload solver needs selection "lwl", got ${JSON.stringify(model.selection)}; ` +
        'use solveSqdFixedPoint for "jsq" (exponential sizes)',
    );
  }
  if (requireFifo && model.discipline !== 'fifo') {
    throw new InvalidModelError(
      `LWL(d) response times have an equation only for discipline "fifo", got ${JSON.stringify(model.discipline)}: ` +
        'the workload ccdf is discipline-free (use lwlWorkloadCcdf), but response times under other disciplines ' +
        'need the cavity method (theory.md §5)',
    );
  }
  const service = serviceDistribution(model.service);
  const rho = model.lambda * service.mean;
  return { lambda: model.lambda, rho, d: model.d, service };
}

/**
 * True for laws whose tail needs the longer horizon: Weibull with shape < 1, log-normal, bounded Pareto, and any
 * law with SCV > 4 (theory.md §4: W = 600 for Weibull ½).
 */
export function isHeavyTailed(service: ServiceDistribution): boolean {
  const spec = service.spec;
  if (spec.kind === 'weibull') return spec.shape < 1;
  if (spec.kind === 'lognormal' || spec.kind === 'bounded-pareto') return true;
  return service.scv > 4;
}

/** Default horizon W in time units: 300·E[S], or 600·E[S] for heavy tails. */
export function defaultHorizon(service: ServiceDistribution): number {
  return (isHeavyTailed(service) ? HEAVY_TAIL_HORIZON : DEFAULT_HORIZON) * service.mean;
}

/**
 * Checks a positive finite numeric option.
 * @throws {InvalidModelError} naming the option, its value and the bound.
 */
export function positiveOption(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !(value > 0)) {
    throw new InvalidModelError(`${name} must be a finite number > 0, got ${value}`);
  }
  return value;
}
