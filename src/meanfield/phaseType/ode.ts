/**
 * odex (Hairer–Wanner ODEX) integration of the truncated phase-type JSQ(d) drift, with every odex failure turned
 * into a SolverError (theory.md §2 "odex pitfalls": check the outcome; `MaxStepsExceeded` is silent otherwise).
 * odex is loaded by file path as in ../ode.ts (tsx maps the 'odex' import to its declaration file at run time).
 */
import { createRequire } from 'node:module';
import type * as Odex from 'odex';
import { SolverError } from '../../errors.ts';
import { phaseTypeDrift } from './drift.ts';
import type { PhaseTypeParameters } from './phaseTypeModel.ts';

const { Outcome, Solver } = createRequire(import.meta.url)('odex/src/odex.js') as typeof Odex;

/** Sees each accepted step [xOld, x] with the state y at x and `dense(i, t)` for t in [xOld, x]; false stops. */
export type PhaseTypeStepObserver = (xOld: number, x: number, y: number[], dense: (i: number, t: number) => number) => boolean | void;

export interface PhaseTypeOdeStats {
  nStep: number;
  nAccept: number;
  nReject: number;
  nEval: number;
  stoppedEarly: boolean;
  /** State at the last accepted step (length K·m). */
  y: number[];
}

/**
 * Integrates dx/dt = phaseTypeDrift(p, x) from t0 to tEnd (model time units) with dense output.
 * @param y0 initial state, length K·m. @param tolerance odex relative and absolute tolerance.
 * @param maxSteps odex step budget. @param observer called per accepted step; return false to stop early.
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
): PhaseTypeOdeStats {
  const N = y0.length;
  const solver = new Solver(N);
  solver.denseOutput = true;
  solver.relativeTolerance = tolerance;
  solver.absoluteTolerance = tolerance;
  solver.maxSteps = maxSteps;
  const buffer = new Float64Array(N);
  const scratch = new Float64Array(N / p.m + 2);
  const f = (_t: number, y: number[]): number[] => Array.from(phaseTypeDrift(p, y, buffer, scratch));
  let stoppedByObserver = false;
  let last = y0;
  const solOut = (_nr: number, xOld: number, x: number, y: number[], dense?: (c: number, x: number) => number) => {
    last = y;
    if (dense === undefined) return true;
    if (observer(xOld, x, y, dense) === false) {
      stoppedByObserver = true;
      return false;
    }
    return true;
  };
  let result;
  try {
    result = solver.solve(f, t0, y0, tEnd, solOut);
  } catch (error) {
    throw new SolverError(`odex failed integrating the phase-type JSQ(d) ODE (${N} states): ${(error as Error).message}`, { cause: error });
  }
  const ok = result.outcome === Outcome.Converged || (result.outcome === Outcome.EarlyReturn && stoppedByObserver);
  if (!ok) {
    const name = Outcome[result.outcome] ?? String(result.outcome);
    throw new SolverError(
      `odex stopped with outcome ${name} after ${result.nStep} steps (maxSteps = ${maxSteps}) on t in [${t0}, ${tEnd}]; ` +
        `raise maxSteps or loosen the tolerance ${tolerance}`,
    );
  }
  return { nStep: result.nStep, nAccept: result.nAccept, nReject: result.nReject, nEval: result.nEval, stoppedEarly: stoppedByObserver, y: last };
}
