/**
 * The one odex (Hairer–Wanner ODEX, explicit extrapolation; numerics/odexCore.ts, a port of the odex package) driver
 * of the mean-field room: dense output, an observer on every accepted step, and every failure turned into a
 * SolverError — the integrator's own throw, and any outcome but Converged (or an EarlyReturn the observer asked for),
 * since MaxStepsExceeded is otherwise silent.
 * Source: theory.md §2 ("odex pitfalls"); Hairer, Nørsett, Wanner, Solving ODEs I, §II.9.
 */
import { SolverError } from '../errors.ts';
import { Odex, OdexOutcome, type OdexObserver } from './odexCore.ts';

/** Called on every accepted step [xOld, x] with the state y at x and `dense(i, t)` valid for t in [xOld, x]; false stops. */
export type StepObserver = (xOld: number, x: number, y: number[], dense: (i: number, t: number) => number) => boolean | void;

export interface OdexOptions {
  /** odex relative and absolute tolerance. */
  readonly tolerance: number;
  /** odex step budget. */
  readonly maxSteps: number;
  /** Components that need dense output (default all). */
  readonly denseComponents?: number[];
  /** What is integrated, for error messages, e.g. "SQ(d) (K = 12)". */
  readonly label: string;
  /** Hint appended to a non-converged outcome (default: raise maxSteps or loosen the tolerance). */
  readonly hint?: string;
}

/** odex's work counts: steps taken, accepted and rejected, and right-hand-side evaluations. */
export interface OdexCounts {
  nStep: number;
  nAccept: number;
  nReject: number;
  nEval: number;
}

export interface OdexStats extends OdexCounts {
  /** True if the observer stopped the integration (odex Outcome.EarlyReturn). */
  stoppedEarly: boolean;
  /** The state at the last accepted step, and its time. */
  y: number[];
  t: number;
}

/**
 * Integrates dy/dt = f(t, y) from t0 to tEnd.
 * @param f right-hand side (length of y0); a SolverError it throws passes through unchanged.
 * @throws {SolverError} if odex throws, or ends with any outcome but Converged (or an observer's EarlyReturn).
 */
export function integrateOdex(
  f: (t: number, y: number[]) => number[],
  y0: number[],
  t0: number,
  tEnd: number,
  options: OdexOptions,
  observer?: StepObserver,
): OdexStats {
  let stoppedEarly = false;
  let last = y0;
  let tLast = t0;
  const observe: OdexObserver = (xOld, x, y, dense) => {
    last = y;
    tLast = x;
    if (dense === undefined || observer === undefined) return true; // the initial call at t0 carries no interpolant
    if (observer(xOld, x, y, dense) === false) {
      stoppedEarly = true;
      return false;
    }
    return true;
  };
  let result;
  try {
    result = Odex.solve(f, t0, y0, tEnd, options, observe);
  } catch (error) {
    if (error instanceof SolverError) throw error;
    throw new SolverError(`odex failed integrating ${options.label}: ${(error as Error).message}`, { cause: error });
  }
  if (!(result.outcome === OdexOutcome.Converged || (result.outcome === OdexOutcome.EarlyReturn && stoppedEarly))) {
    const name = result.outcome === OdexOutcome.MaxStepsExceeded ? 'MaxStepsExceeded' : 'EarlyReturn';
    throw new SolverError(
      `odex stopped with outcome ${name} after ${result.nStep} steps (maxSteps = ${options.maxSteps}) integrating ${options.label} on [${t0}, ${tEnd}]; ` +
        (options.hint ?? `raise maxSteps or loosen the tolerance ${options.tolerance}`),
    );
  }
  return { ...odexCounts(result), stoppedEarly, y: last, t: tLast };
}

/** The four work counts of an odex run (or anything that carries them), as a plain object for diagnostics. */
export function odexCounts(stats: OdexCounts): OdexCounts {
  return { nStep: stats.nStep, nAccept: stats.nAccept, nReject: stats.nReject, nEval: stats.nEval };
}

/** One odex integration of a trajectory on [t0, tEnd] that shows each accepted step to `observer` (e.g. `integrateOdex` with its f). */
export type Integration = (t0: number, tEnd: number, observer: StepObserver) => OdexCounts & { y: number[] };

/**
 * The `Integration` of dy/dt = f(t, y) from y0 by `integrateOdex` with `options`, for `sampleTrajectory`.
 * @param f right-hand side, y0 initial state (shape [dim]), options tolerance, step budget, label, dense components.
 */
export function odexIntegration(f: (t: number, y: number[]) => number[], y0: number[], options: OdexOptions): Integration {
  return (t0, tEnd, observer) => integrateOdex(f, y0, t0, tEnd, options, observer);
}

/**
 * Samples a trajectory at the caller's instants: integrates from times[0] to times[times.length − 1] and calls
 * `sample(at)` once for each later instant, in order, with at(i) = component i of the state there: odex's dense
 * output, the step's own state where the instant is a step's end, and the final state for the instants odex stopped
 * a round-off short of. With one instant nothing is integrated (zero counts, y = y0).
 * Source: theory.md §2 ("odex pitfalls": sample through the dense output, not `grid()`, which drifts).
 * @param times strictly increasing instants, in the integration's own time units (checked by the caller).
 * @param y0 the state at times[0]. @param integrate runs odex (with the caller's f, tolerance and budget).
 * @param sample receives one accessor per instant after the first. @param onStep sees every accepted step's end state
 *   and time.
 * @returns odex counts and the final state.
 * @throws whatever `integrate` throws (a SolverError from `integrateOdex`).
 */
export function sampleTrajectory(
  times: readonly number[],
  y0: number[],
  integrate: Integration,
  sample: (at: (i: number) => number) => void,
  onStep?: (y: number[], x: number) => void,
): OdexCounts & { y: number[] } {
  if (times.length === 1) return { nStep: 0, nAccept: 0, nReject: 0, nEval: 0, y: y0 };
  let next = 1;
  const stats = integrate(times[0], times[times.length - 1], (_xOld, x, y, dense) => {
    onStep?.(y, x);
    for (; next < times.length && times[next] <= x; next++) {
      const target = times[next];
      sample((i) => (target === x ? y[i] : dense(i, target)));
    }
  });
  for (; next < times.length; next++) sample((i) => stats.y[i]);
  return stats;
}
