/** What a finished experiment cell stores: the cell (without its model object) and the simulation summary. */
import type { Estimate } from '../stats/index.ts';
import type { ClassEstimate } from '../sim/index.ts';
import type { ExperimentCell } from './grid.ts';
import type { CellCoordinates } from '../claims/index.ts';

export interface CellOutcome {
  readonly cell: Omit<ExperimentCell, 'model'>;
  readonly result: {
    readonly meanResponseTime: Estimate;
    readonly meanQueueLength: Estimate;
    /** Mean slowdown T/S per job, when the simulator reports it. */
    readonly meanSlowdown?: Estimate;
    /** Response-time percentiles, when the simulator reports them. */
    readonly responseTimePercentiles?: Record<string, Estimate>;
    /** Heterogeneous servers (theory.md §13): per class busy fraction, E[T] and jobs served; Σ f·speed·busy. */
    readonly classes?: ClassEstimate[];
    readonly workRate?: Estimate;
    readonly events: number;
    readonly eventsPerSecond: number;
    readonly wallSeconds: number;
    readonly warmupTime: number;
    readonly seeds: unknown;
    /**
     * What simulate warns of its E[T] interval (model/moments.ts `estimandFiniteness` warnings, e.g. not a 95 %
     * interval), in results.json and `run --json` (report/experimentReport.ts `withIntervalWarnings`); not stored in
     * cells/, as it follows from the cell's model.
     */
    readonly warnings?: readonly string[];
  };
}

/**
 * The arrival stream of a stored cell: its arrival process, batch size and batch dispatch; a cell stored before these
 * coordinates were written (older versions simulated only Poisson single jobs) reads exp, 1, spread.
 */
export function cellStream(
  cell: Partial<Pick<CellCoordinates, 'arrivals' | 'batch' | 'batchDispatch'>>,
): Pick<CellCoordinates, 'arrivals' | 'batch' | 'batchDispatch'> {
  return { arrivals: cell.arrivals ?? 'exp', batch: cell.batch ?? 1, batchDispatch: cell.batchDispatch ?? 'spread' };
}
