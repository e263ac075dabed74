/**
 * The odex (Hairer–Wanner ODEX, explicit extrapolation) wrapper shared by `solveTransient` and `warmupTime`:
 * integrates the truncated SQ(d) ODE in service-time units, hands each accepted step (with its dense
 * interpolant) to an observer, and turns every odex failure into a SolverError.
 * Source: theory.md §2 ("odex pitfalls"); Hairer, Nørsett, Wanner, Solving ODEs I, §II.9.
 */
import { integrateOdex, type OdexStats, type StepObserver } from '../numerics/odex.ts';
import { sqdDrift } from './sqd.ts';

export type { StepObserver };

/** odex counts, whether the observer stopped early, and the state at the last accepted step. */
export type OdeStats = OdexStats;

/**
 * Integrates ds/dτ = sqdDrift(rho, d, s) from τ0 to τEnd (service-time units) with dense output.
 * @param y0 s_1..s_K at τ0 (length K). @param tolerance odex relative and absolute tolerance.
 * @param maxSteps odex step budget. @param observer sees each accepted step; return false to stop.
 * @throws {SolverError} if odex throws, or ends with any outcome but Converged (or EarlyReturn requested by
 *   the observer), e.g. MaxStepsExceeded.
 */
export function integrateSqd(
  rho: number,
  d: number,
  y0: number[],
  t0: number,
  tEnd: number,
  tolerance: number,
  maxSteps: number,
  observer: StepObserver,
): OdeStats {
  const buffer = new Float64Array(y0.length);
  const f = (_t: number, y: number[]): number[] => Array.from(sqdDrift(rho, d, y, buffer));
  return integrateOdex(f, y0, t0, tEnd, { tolerance, maxSteps, label: `SQ(d) (K = ${y0.length})` }, observer);
}
