/**
 * Default warm-up of a finite-n simulation (theory.md §8), for any model.
 */
import { parseModel, type SupermarketModel } from '../model/index.ts';
import { serviceDistribution } from '../model/service/index.ts';
import { warmupTime } from './index.ts';

/** Upper bound on an automatic warm-up (time units); beyond it a run is dominated by warm-up. */
export const MAX_AUTO_WARMUP = 5000;

/** Cap on the heavy-tail factor (1 + SCV)/2 of the automatic warm-up. */
export const MAX_SCV_FACTOR = 10;

/**
 * Automatic warm-up [H]: the SQ(d) mean-field warm-up (theory.md §8: 2 × time for the ODE from empty to come within
 * 1e-3 of its fixed point, ≥ 3τ) at the same λ and d — the nearest model with an ODE — scaled by max(1, (1 + SCV)/2)
 * for variable sizes (theory.md §8 heavy tails; the factor at most MAX_SCV_FACTOR), capped at `cap` (default MAX_AUTO_WARMUP).
 */
export function autoWarmup(model: SupermarketModel, tolerance = 1e-3, cap = MAX_AUTO_WARMUP): { time: number; rule: string } {
  const blind = parseModel({ lambda: model.lambda * model.service.mean, d: model.selection === 'random' ? 1 : model.d });
  const base = warmupTime(blind, { tolerance }).warmupTime * model.service.mean;
  const scv = serviceDistribution(model.service).scv;
  // heavy tails need longer warm-ups, but an SCV of 10⁶ (bounded Pareto) must not ask for 10⁶ × the exponential one
  const factor = Math.min(MAX_SCV_FACTOR, Math.max(1, (1 + scv) / 2));
  const time = Math.min(cap, base * factor);
  return { time, rule: `auto: SQ(${blind.d}) mean-field warm-up ${base.toFixed(1)} × min(10, max(1, (1+SCV)/2)) = ${factor.toFixed(2)}${time === cap ? `, capped at ${cap}` : ''}` };
}

