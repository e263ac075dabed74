/**
 * Warm-up time for simulations of SQ(d) FIFO started empty: twice the time the mean-field trajectory from empty
 * needs to come within a tolerance of its fixed point, and at least a few relaxation times.
 * Source: theory.md §8 ("Warm-up") and §2 ("Relaxation").
 */
import { ConvergenceError, InvalidModelError } from '../errors.ts';
import type { SupermarketModel } from '../model/model.ts';
import { integrateSqd } from './ode.ts';
import { relaxationTime } from './relaxation.ts';
import { sqdClosedFormTail, sqdTruncationLevel } from './sqd.ts';
import { sqdParameters } from './support.ts';

export interface WarmupOptions {
  /** Sup-norm distance max_i |s_i(t) − s_i*| counted as "at the fixed point" (default 1e−3). */
  tolerance?: number;
  /** Multiplier on the time to tolerance (default 2). */
  safetyFactor?: number;
  /** Lower bound on the warm-up, in relaxation times τ (default 3). */
  minRelaxationTimes?: number;
}

export interface WarmupResult {
  /** max(safetyFactor · timeToTolerance, minRelaxationTimes · τ), model time units. */
  warmupTime: number;
  /** First t with max_i |s_i(t) − s_i*| ≤ tolerance from empty (d = 1: an upper bound), model time units. */
  timeToTolerance: number;
  /** τ of `relaxationTime`, model time units. */
  relaxationTime: number;
  /** 'ode' (odex trajectory, d ≥ 2) or 'coupling-bound' (d = 1). */
  method: 'ode' | 'coupling-bound';
}

/**
 * Suggested warm-up for a simulation started empty (theory.md §8).
 *
 * d ≥ 2: integrates the ODE from empty with odex (tolerance 1e−9, K where s_K* < 1e−12) and stops at the first
 * accepted step within `tolerance` of the closed-form fixed point; the crossing is located by bisection on the
 * dense output. From empty the ODE is cooperative and starts with f ≥ 0, so s(t) rises monotonically to s*
 * and the distance is non-increasing: first crossing = last.
 * d = 1: the ODE is stiff for odex (τ ≈ 4·10⁴ at ρ = 0.99), so a bound is used instead. Couple an M/M/1 from
 * empty with a stationary one (same arrivals and potential services); they coalesce when the stationary copy
 * hits 0, so sup_i |s_i(t) − ρ^i| ≤ P_π(T_0 > t) ≤ E_π[e^{θT_0}] e^{−θt} with θ = (1 − √ρ)² = 1/τ, where
 * E_k[e^{θT_0}] = ρ^{−k/2} and hence E_π[e^{θT_0}] = 1 + √ρ. So timeToTolerance = τ·ln((1 + √ρ)/tolerance).
 * @param model supported SQ(d) model. @param options `tolerance`, `safetyFactor`, `minRelaxationTimes`.
 * @returns `{ warmupTime, timeToTolerance, relaxationTime, method }`, times in model time units.
 * @throws {InvalidModelError} on unsupported models or options outside their ranges.
 * @throws {SolverError} if odex fails.
 * @throws {ConvergenceError} if the trajectory is not within tolerance by 200τ + 1000 service times.
 * @example warmupTime(parseModel({ lambda: 0.9, d: 2 })).warmupTime // ≈ 2 × (time to 1e−3) ≈ 80
 */
export function warmupTime(model: SupermarketModel, options: WarmupOptions = {}): WarmupResult {
  const { rho, d, meanService } = sqdParameters(model);
  const tolerance = options.tolerance ?? 1e-3;
  const safetyFactor = options.safetyFactor ?? 2;
  const minRelaxationTimes = options.minRelaxationTimes ?? 3;
  if (!(tolerance > 0 && tolerance < 1)) throw new InvalidModelError(`tolerance must lie in (0, 1), got ${tolerance}`);
  if (!(safetyFactor >= 1 && Number.isFinite(safetyFactor))) {
    throw new InvalidModelError(`safetyFactor must be a finite number ≥ 1, got ${safetyFactor}`);
  }
  if (!(minRelaxationTimes >= 0 && Number.isFinite(minRelaxationTimes))) {
    throw new InvalidModelError(`minRelaxationTimes must be a finite number ≥ 0, got ${minRelaxationTimes}`);
  }
  const tau = relaxationTime(model);
  let timeToTolerance: number;
  let method: WarmupResult['method'];
  if (d === 1) {
    timeToTolerance = Math.max(0, tau * Math.log((1 + Math.sqrt(rho)) / tolerance));
    method = 'coupling-bound';
  } else {
    const K = sqdTruncationLevel(rho, d, 1e-12);
    const star = sqdClosedFormTail(rho, d, K).slice(1);
    const distance = (value: (i: number) => number): number => {
      let m = 0;
      for (let i = 0; i < K; i++) m = Math.max(m, Math.abs(value(i) - star[i]));
      return m;
    };
    const tauEnd = (200 * tau) / meanService + 1000;
    let hit = NaN;
    let lastDistance = distance(() => 0);
    integrateSqd(rho, d, new Array<number>(K).fill(0), 0, tauEnd, 1e-9, Math.ceil(50 * tauEnd), (xOld, x, y, dense) => {
      lastDistance = distance((i) => y[i]);
      if (lastDistance > tolerance) return true;
      let lo = xOld;
      let hi = x;
      while (hi - lo > 1e-9 * Math.max(1, hi)) {
        const mid = 0.5 * (lo + hi);
        if (distance((i) => dense(i, mid)) <= tolerance) hi = mid;
        else lo = mid;
      }
      hit = hi;
      return false;
    });
    if (Number.isNaN(hit)) {
      throw new ConvergenceError(
        `mean-field trajectory not within tolerance ${tolerance} of the fixed point by t = ${tauEnd * meanService}`,
        lastDistance,
        0,
      );
    }
    timeToTolerance = hit * meanService;
    method = 'ode';
  }
  return {
    warmupTime: Math.max(safetyFactor * timeToTolerance, minRelaxationTimes * tau),
    timeToTolerance,
    relaxationTime: tau,
    method,
  };
}
