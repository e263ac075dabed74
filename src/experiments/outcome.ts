/** What a finished experiment cell stores: the cell (without its model object) and the simulation summary. */
import type { Estimate } from '../stats/index.ts';
import type { ClassEstimate } from '../sim/index.ts';
import type { ExperimentCell } from './grid.ts';

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
  };
}
