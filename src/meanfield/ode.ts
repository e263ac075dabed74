/**
 * The odex (Hairer–Wanner ODEX, explicit extrapolation) wrapper shared by `solveTransient` and `warmupTime`:
 * integrates the truncated SQ(d) ODE in service-time units, hands each accepted step (with its dense
 * interpolant) to an observer, and turns every odex failure into a SolverError.
 * Source: theory.md §2 ("odex pitfalls"); Hairer, Nørsett, Wanner, Solving ODEs I, §II.9.
 */
import { createRequire } from 'node:module';
import type * as Odex from 'odex';
import { SolverError } from '../errors.ts';
import { sqdDrift } from './sqd.ts';

// tsconfig "paths" maps 'odex' to types/odex.d.ts for the compiler, and tsx applies that mapping at run time
// too (it would load the declaration file, whose Solver has no methods). So the types come from 'odex' and the
// code from the package's compiled entry, loaded by file path (not subject to the mapping).
const { Outcome, Solver } = createRequire(import.meta.url)('odex/src/odex.js') as typeof Odex;

/** Called on every accepted step [xOld, x] with the state y at x and `dense(i, t)` valid for t in [xOld, x]. */
export type StepObserver = (xOld: number, x: number, y: number[], dense: (i: number, t: number) => number) => boolean | void;

export interface OdeStats {
  nStep: number;
  nAccept: number;
  nReject: number;
  nEval: number;
  /** True if the observer stopped the integration (odex Outcome.EarlyReturn). */
  stoppedEarly: boolean;
  /** The state at the last accepted step. */
  y: number[];
}

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
  const K = y0.length;
  const solver = new Solver(K);
  solver.denseOutput = true;
  solver.relativeTolerance = tolerance;
  solver.absoluteTolerance = tolerance;
  solver.maxSteps = maxSteps;
  const buffer = new Float64Array(K);
  const f = (_t: number, y: number[]): number[] => Array.from(sqdDrift(rho, d, y, buffer));
  let stoppedByObserver = false;
  let last = y0;
  const solOut = (_nr: number, xOld: number, x: number, y: number[], dense?: (c: number, x: number) => number) => {
    last = y;
    if (dense === undefined) return true; // the initial call at τ0 carries no interpolant
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
    throw new SolverError(`odex failed integrating SQ(d) (K = ${K}): ${(error as Error).message}`, { cause: error });
  }
  const ok = result.outcome === Outcome.Converged || (result.outcome === Outcome.EarlyReturn && stoppedByObserver);
  if (!ok) {
    const name = Outcome[result.outcome] ?? String(result.outcome);
    throw new SolverError(
      `odex stopped with outcome ${name} after ${result.nStep} steps (maxSteps = ${maxSteps}) at τ in [${t0}, ${tEnd}]; ` +
        `raise maxSteps or loosen the tolerance ${tolerance}`,
    );
  }
  return {
    nStep: result.nStep,
    nAccept: result.nAccept,
    nReject: result.nReject,
    nEval: result.nEval,
    stoppedEarly: stoppedByObserver,
    y: last,
  };
}
