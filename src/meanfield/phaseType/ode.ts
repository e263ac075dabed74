/**
 * odex (Hairer–Wanner ODEX) integration of the truncated phase-type JSQ(d) drift, with every odex failure turned
 * into a SolverError (theory.md §2 "odex pitfalls": check the outcome; `MaxStepsExceeded` is silent otherwise).
 * odex is loaded by file path as in ../ode.ts (tsx maps the 'odex' import to its declaration file at run time).
 */
import { integrateOdex, type OdexStats, type StepObserver } from '../../numerics/odex.ts';
import { phaseTypeDrift } from './drift.ts';
import type { PhaseTypeParameters } from './phaseTypeModel.ts';
import type { ArrivalRouting } from '../support.ts';

/** Sees each accepted step [xOld, x] with the state y at x and `dense(i, t)` for t in [xOld, x]; false stops. */
export type PhaseTypeStepObserver = StepObserver;

/** odex counts, whether the observer stopped early, and the state at the last accepted step (length K·m). */
export type PhaseTypeOdeStats = OdexStats;

/**
 * Integrates dx/dt = phaseTypeDrift(p, x) from t0 to tEnd (model time units) with dense output.
 * @param y0 initial state, length K·m. @param tolerance odex relative and absolute tolerance.
 * @param maxSteps odex step budget. @param observer called per accepted step; return false to stop early.
 * @param routing a dispatcher memory's arrival routing (`phaseTypeDrift`); none by default.
 * @throws {SolverError} if odex throws or ends with an outcome other than Converged (or an observer's EarlyReturn).
 */
export function integratePhaseType(
  p: PhaseTypeParameters,
  y0: number[],
  t0: number,
  tEnd: number,
  tolerance: number,
  maxSteps: number,
  observer: PhaseTypeStepObserver,
  routing?: ArrivalRouting,
): PhaseTypeOdeStats {
  const N = y0.length;
  const buffer = new Float64Array(N);
  const scratch = new Float64Array(N / p.m + 2);
  const f = (_t: number, y: number[]): number[] => Array.from(phaseTypeDrift(p, y, buffer, scratch, routing));
  return integrateOdex(f, y0, t0, tEnd, { tolerance, maxSteps, label: `the phase-type JSQ(d) ODE (${N} states)` }, observer);
}
