/**
 * Which moments of a model are finite in theory, decided from the families (no numerics): E[1/S], and the mean
 * slowdown E[T/S] of the M/G/1 formulas (theory.md §7), which the simulator's slowdown estimate should be read
 * against (a finite estimate of an infinite mean grows with the run).
 */
import type { ServiceSpec, PredictionSpec, SupermarketModel } from './model.ts';

/**
 * True iff E[1/S] < ∞: false for laws with a positive density at 0 (exponential, hyperexponential, Erlang k = 1,
 * Weibull shape ≤ 1) and for empirical sizes with a zero; true for Erlang k ≥ 2, Weibull shape > 1, log-normal,
 * deterministic, bounded Pareto, and empirical sizes all > 0.
 */
export function inverseMomentFinite(spec: ServiceSpec): boolean {
  switch (spec.kind) {
    case 'exponential': case 'hyperexponential': return false;
    case 'erlang': return spec.k >= 2;
    case 'weibull': return spec.shape > 1;
    case 'lognormal': case 'deterministic': case 'bounded-pareto': return true;
    case 'empirical': return spec.values.every((v) => v > 0);
  }
}

/** True when the prediction is the size itself (Y = S): exact, uniform with α = 0, log-normal with σ = 0. */
export function predictionIsExact(spec: PredictionSpec): boolean {
  return spec.kind === 'exact' || (spec.kind === 'uniform' && spec.alpha === 0) || (spec.kind === 'lognormal' && spec.sigma === 0);
}

/**
 * True iff the mean slowdown E[T/S] is finite in theory (theory.md §7): when E[1/S] < ∞, or when small jobs do
 * not wait a positive time — PSJF, SRPT and PSPJF always, SPRPT with exact predictions. FIFO, SJF and SPJF with
 * E[1/S] = ∞ have E[T/S] = ∞.
 */
export function slowdownFinite(model: SupermarketModel): boolean {
  if (inverseMomentFinite(model.service)) return true;
  switch (model.discipline) {
    case 'psjf': case 'srpt': case 'pspjf': return true;
    case 'sprpt': return predictionIsExact(model.prediction);
    default: return false;
  }
}
