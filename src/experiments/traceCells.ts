/**
 * Trace cells of an experiment (reads trace files): loads each trace once, learns size predictions on its first half
 * (chronological), and replays the second half over n servers at the cell's target load with `simulateReplay`, under
 * the cell's full parsed model (selection, discipline, sampling and conventions of the experiment file).
 * Predictions for predicted policies: `exact` (the true sizes), `learned` (random forest on submission-time features),
 * `learned-linear`, `user` (the trace's own estimate, SWF requested time).
 */
import path from 'node:path';
import { InvalidModelError } from '../errors.ts';
import type { ExperimentCell } from './grid.ts';
import type { CellOutcome } from './outcome.ts';
import { learnPredictions, type LearnResult } from '../learn/index.ts';
import { simulateReplay } from '../sim/index.ts';
import { loadTrace, traceWorkload, type TraceClock, type TraceJob } from '../traces/index.ts';

export const TRACE_PREDICTIONS = ['exact', 'learned', 'learned-linear', 'user'] as const;

interface LoadedTrace {
  readonly test: readonly TraceJob[];
  readonly learned: Map<string, LearnResult>;
  readonly all: readonly TraceJob[];
  readonly skipped: number;
  readonly clock?: TraceClock;
}

/** Trace loader with a per-run cache; paths resolve against the experiment file's folder. */
export class TraceCellRunner {
  private readonly traces = new Map<string, LoadedTrace>();
  constructor(private readonly baseDir: string) {}

  private load(cell: ExperimentCell): LoadedTrace {
    const t = cell.trace!;
    const file = path.resolve(this.baseDir, t.path);
    const key = `${file}|${t.status ?? ''}`;
    let loaded = this.traces.get(key);
    if (!loaded) {
      const trace = loadTrace(file, { format: t.format, ...(t.status !== undefined ? { status: [t.status] } : {}) });
      const jobs = trace.jobs as readonly TraceJob[];
      const half = Math.floor(jobs.length / 2);
      loaded = {
        all: jobs,
        test: jobs.slice(half),
        learned: new Map(),
        skipped: trace.skipped.count,
        clock: trace.format === 'swf' ? trace.clock : undefined,
      };
      this.traces.set(key, loaded);
    }
    return loaded;
  }

  private learn(loaded: LoadedTrace, kind: 'random-forest' | 'linear'): LearnResult {
    let r = loaded.learned.get(kind);
    if (!r) {
      r = learnPredictions(loaded.all, { model: kind, trainFraction: 0.5, seed: 1, clock: loaded.clock });
      loaded.learned.set(kind, r);
    }
    return r;
  }

  /**
   * The events a replay of `cell` simulates, estimated before it runs (an arrival and a departure per job of the
   * trace's test half; the trace is loaded, once, as `run` would): the cell's cost, in the unit of a simulated cell's.
   */
  replayEvents(cell: ExperimentCell): number {
    return 2 * this.load(cell).test.length;
  }

  /** Predictor quality of the learned models and the user estimate for a trace cell (for the report). */
  quality(cell: ExperimentCell): Record<string, unknown> {
    const loaded = this.load(cell);
    const rf = this.learn(loaded, 'random-forest');
    const lin = this.learn(loaded, 'linear');
    return {
      trace: cell.service,
      jobs: loaded.all.length,
      skipped: loaded.skipped,
      trainCount: rf.trainCount,
      testCount: rf.testCount,
      randomForest: rf.quality.learned,
      linear: lin.quality.learned,
      userEstimate: rf.quality.userEstimate ?? null,
    };
  }

  /**
   * Replays one cell with its model (`cell.model`, from expandGrid); sizes rescaled to mean 1 and arrivals to λ = ρ. @returns the outcome, or null when the prediction does not exist for this trace
   * (e.g. `user` on a SWIM trace, or a trace too short for replay's batch means), with the reason in `skipReason`.
   */
  run(cell: ExperimentCell): CellOutcome | { skipReason: string } {
    const loaded = this.load(cell);
    let predictions: ArrayLike<number> | undefined;
    if (cell.prediction === 'exact') predictions = Float64Array.from(loaded.test, (j) => j.size);
    else if (cell.prediction === 'learned') predictions = this.learn(loaded, 'random-forest').predictions;
    else if (cell.prediction === 'learned-linear') predictions = this.learn(loaded, 'linear').predictions;
    else if (cell.prediction === 'user') {
      if (loaded.test.some((j) => j.userEstimate === undefined || !(j.userEstimate >= 0)))
        return { skipReason: `${cell.service} has no user estimate for every job` };
      predictions = Float64Array.from(loaded.test, (j) => j.userEstimate!);
    } else if (cell.prediction !== 'none') {
      throw new InvalidModelError(`trace cells take predictions ${TRACE_PREDICTIONS.join(', ')}; got ${JSON.stringify(cell.prediction)}`);
    }
    const workload = traceWorkload(loaded.test, {
      targetLoad: cell.lambda,
      servers: cell.n,
      rescale: 'sizes',
      ...(predictions ? { predictions } : {}),
    });
    if (!cell.model) throw new InvalidModelError(`trace cell ${cell.key} has no model (build cells with expandGrid)`);
    const r = simulateReplay(cell.model, workload, { n: cell.n, seed: cell.seed });
    // a cell's estimates carry intervals that the report and the claims judge: without one (too few measured jobs for
    // replay's batch means, sim/replay.ts `replayBatchCount`: the replay returns none) the cell is skipped with the reason
    if (r.noInterval !== undefined) return { skipReason: `${cell.service}: ${r.noInterval}` };
    const { model: _m, ...cellData } = cell;
    return {
      cell: cellData,
      result: {
        meanResponseTime: r.meanResponseTime,
        meanQueueLength: r.meanQueueLength,
        meanSlowdown: r.meanSlowdown,
        responseTimePercentiles: r.responseTimePercentiles as unknown as Record<string, CellOutcome['result']['meanResponseTime']>,
        events: r.events,
        eventsPerSecond: r.eventsPerSecond,
        wallSeconds: r.wallSeconds,
        warmupTime: 0,
        seeds: { master: cell.seed, stream: r.seed.stream, replayJobs: workload.meta.jobs, windowLoad: r.windowLoad },
      },
    };
  }
}
