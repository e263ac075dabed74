/**
 * Event budgets of a finite-n run: how many events a simulation will process, and the largest run the simulator
 * accepts. Each measured job is an arrival and a departure; the warm-up adds λn arrivals (and as many departures)
 * per time unit. Source: theory.md §8 (estimands, warm-up, replications).
 */
import { InvalidModelError } from '../errors.ts';

/** Largest run (events, all replications) the simulator accepts: about an hour at a few million events per second. */
export const MAX_EVENTS = 2e10;

/** What an event estimate needs: λ per server, n servers, measured jobs, replications, warm-up (time units). */
export interface RunSize {
  readonly lambda: number;
  readonly n: number;
  readonly jobs: number;
  readonly replications: number;
  readonly warmupTime: number;
}

/** Expected events of a run: replications × (2·jobs + 2·λ·n·warmupTime) (arrivals and departures). */
export function expectedEvents(run: RunSize): number {
  return run.replications * (2 * run.jobs + 2 * run.lambda * run.n * run.warmupTime);
}

/**
 * Refuses a run beyond `maxEvents` (default MAX_EVENTS).
 * @returns the expected events of the run.
 * @throws {InvalidModelError} "this run needs about … events …", naming the warm-up, λn, jobs and replications.
 */
export function checkEventBudget(run: RunSize, maxEvents = MAX_EVENTS): number {
  const events = expectedEvents(run);
  if (events > maxEvents) {
    throw new InvalidModelError(
      `this run needs about ${events.toExponential(1)} events (warm-up ${run.warmupTime.toExponential(2)} time units × λn = ` +
        `${(run.lambda * run.n).toFixed(0)}, ${run.jobs} jobs × ${run.replications} replications), more than ${maxEvents.toExponential(0)}; ` +
        'lower the jobs, the replications or n, or shorten the warm-up',
    );
  }
  return events;
}
