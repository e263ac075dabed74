/**
 * The one worker pool of the CLI: independent work (the simulations of `compare`, `run`, `conjecture`, `simulate`,
 * `model --compare`, and the mean-field solves of each model of a `compare` sweep) runs on worker threads, one per core by default (`--threads N`). Results come back in
 * completion order through `onResult`; callers store each at once and assemble in their own (key) order, and every
 * seed derives from a cell's key, so results are bit-identical whatever the thread count or the order of completion.
 * Progress (and so the ETA) is over the whole pool: finished tasks plus the running ones' reported fractions,
 * weighted by each task's estimated cost. The first error stops the pool. The library stays pure: only the CLI
 * starts threads.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { InvalidModelError, SolverError, SupermarketError, UnstableModelError } from '../errors.ts';
import type { ComparisonConfig, PreparedComparisonModel } from '../compare/index.ts';
import type { SupermarketModel } from '../model/index.ts';
import type { PopulationModel } from '../model/population/parse.ts';
import {
  expectedEvents,
  planSimulation,
  simulate,
  SimulationCollector,
  type PopulationSimulationOptions,
  type PopulationSimulationResult,
  type ReplicationPart,
  type SimulateOptions,
  type SimulationResult,
  type TrajectoryOptions,
  type TrajectoryResult,
} from '../sim/index.ts';
import { timeline } from './timeline.ts';

/** A simulation (`simulate`) for the pool. */
export interface SimulationTask<K> {
  readonly key: K;
  readonly kind?: 'simulate';
  readonly model: SupermarketModel;
  readonly options: Omit<SimulateOptions, 'onProgress'>;
  /** Estimated cost (e.g. expected events) for progress and scheduling (largest first); default 1. */
  readonly cost?: number;
}

/** A transient simulation (`simulateTrajectory`) for the pool. */
export interface TrajectoryTask<K> {
  readonly key: K;
  readonly kind: 'trajectory';
  readonly model: SupermarketModel;
  readonly options: TrajectoryOptions;
  readonly cost?: number;
}

/** Model `index` of a comparison sweep to solve (`prepareComparisonModel`: limit, refined terms, exact points, transients). */
export interface PrepareTask<K> {
  readonly key: K;
  readonly kind: 'prepare';
  readonly config: ComparisonConfig;
  readonly index: number;
  readonly cost?: number;
}

/** A population-process simulation (`simulatePopulation`, `model --compare`) for the pool. */
export interface PopulationTask<K> {
  readonly key: K;
  readonly kind: 'population';
  readonly model: PopulationModel;
  readonly options: PopulationSimulationOptions;
  readonly cost?: number;
}

/** Replications first, …, first + count − 1 of one `simulate` run (`runReplications`), for the pool. */
export interface ReplicationsTask<K> {
  readonly key: K;
  readonly kind: 'replications';
  readonly model: SupermarketModel;
  readonly options: Omit<SimulateOptions, 'onProgress'>;
  readonly first: number;
  readonly count: number;
  readonly cost?: number;
}

export type PoolTask<K> = SimulationTask<K> | TrajectoryTask<K> | PrepareTask<K> | PopulationTask<K> | ReplicationsTask<K>;
/**
 * What a task gives back: `simulate`'s, `simulateTrajectory`'s, `prepareComparisonModel`'s, `simulatePopulation`'s
 * result, or `runReplications`'s parts.
 */
export type PoolValue = SimulationResult | TrajectoryResult | PreparedComparisonModel | PopulationSimulationResult | ReplicationPart[];

export interface PoolOptions {
  /** Worker threads (default: the machine's cores, at most the number of tasks). */
  readonly threads?: number;
  /** Progress over the whole pool in cost units (finished + running fractions), with a label "k/m done". */
  readonly onProgress?: (done: number, total: number, label: string) => void;
}

/** Default thread count: the machine's cores. */
export function defaultThreads(): number {
  return os.availableParallelism();
}

/**
 * The worker's entry. Compiled (dist/, the `supermarket` bin): the plain JavaScript worker. From the TypeScript sources
 * (vitest, tsx): bootstrap.mjs registers tsx's loader in the thread, then imports the .ts worker.
 */
function workerEntry(): { file: URL; workerData?: { module: string } } {
  if (import.meta.url.endsWith('.js')) return { file: new URL('./workers/simulateWorker.js', import.meta.url) };
  return {
    file: new URL('./workers/bootstrap.mjs', import.meta.url),
    workerData: { module: new URL('./workers/simulateWorker.ts', import.meta.url).href },
  };
}

function rebuildError(e: { name: string; message: string }): Error {
  if (e.name === 'InvalidModelError') return new InvalidModelError(e.message);
  if (e.name === 'UnstableModelError') return new UnstableModelError(e.message);
  if (e.name === 'SolverError') return new SolverError(e.message);
  return new SupermarketError(`a simulation or solve failed in a worker thread: ${e.message}`);
}

interface WorkerMessage {
  id: number;
  progress?: number;
  /** Milliseconds the worker spent on the task (wall; CPU with the timeline on). */
  ms?: number;
  cpu?: number;
  result?: unknown;
  error?: { name: string; message: string };
}

/**
 * Runs every task on the pool; `onResult` is called as each finishes (store it there, so nothing finished is lost).
 * Tasks start largest cost first (ties: given order), which shortens the tail of the run; the order never changes a
 * result. @throws the first task error (typed as in the library), or an error thrown by `onResult`.
 */
export async function runPool<K>(
  tasks: readonly PoolTask<K>[],
  onResult: (key: K, result: PoolValue, task: PoolTask<K>) => void,
  options: PoolOptions = {},
): Promise<void> {
  if (tasks.length === 0) return;
  const size = Math.max(1, Math.min(options.threads ?? defaultThreads(), tasks.length));
  const cost = tasks.map((t) => (t.cost !== undefined && Number.isFinite(t.cost) && t.cost > 0 ? t.cost : 1));
  const order = tasks.map((_, i) => i).sort((a, b) => cost[b] - cost[a] || a - b);
  const total = cost.reduce((s, c) => s + c, 0);
  const running = new Map<number, number>(); // task id → fraction reported
  let finishedCost = 0;
  let finished = 0;
  let next = 0;
  let failed: Error | undefined;
  const workers: Worker[] = [];
  const report = () => {
    if (!options.onProgress) return;
    let partial = 0;
    for (const [id, f] of running) partial += f * cost[id];
    options.onProgress(finishedCost + partial, total, `${finished}/${tasks.length} done`);
  };
  await new Promise<void>((resolve, reject) => {
    const current = new Map<Worker, number>(); // worker → task id it runs
    const settle = () => {
      if (running.size > 0) return;
      if (failed) reject(failed);
      else if (finished === tasks.length) resolve();
    };
    const dispatch = (worker: Worker) => {
      if (failed || next >= order.length) {
        settle();
        return;
      }
      const id = order[next++];
      running.set(id, 0);
      current.set(worker, id);
      const t = tasks[id];
      timeline('task-start', { worker: workers.indexOf(worker), key: t.key, kind: t.kind ?? 'simulate' });
      worker.postMessage({ ...t, key: undefined, cost: undefined, id, kind: t.kind ?? 'simulate' });
    };
    const entry = workerEntry();
    timeline('pool-start', { tasks: tasks.length, size });
    for (let w = 0; w < size; w++) {
      timeline('worker-start', { worker: w });
      const worker = new Worker(entry.file, { workerData: entry.workerData });
      workers.push(worker);
      worker.once('online', () => timeline('worker-online', { worker: w }));
      worker.on('message', (msg: WorkerMessage) => {
        if (msg.progress !== undefined) {
          if (running.has(msg.id)) {
            running.set(msg.id, msg.progress);
            report();
          }
          return;
        }
        running.delete(msg.id);
        current.delete(worker);
        timeline('task-end', { worker: workers.indexOf(worker), key: tasks[msg.id].key, ms: msg.ms, cpu: msg.cpu });
        if (msg.error) failed ??= rebuildError(msg.error);
        else {
          try {
            onResult(tasks[msg.id].key, msg.result as PoolValue, tasks[msg.id]);
            finished++;
            finishedCost += cost[msg.id];
            report();
          } catch (error) {
            failed ??= error as Error;
          }
        }
        dispatch(worker);
      });
      worker.on('error', (error) => {
        // the task this worker ran is lost with it; the running others finish (and are stored), then the pool rejects
        failed ??= error;
        const id = current.get(worker);
        if (id !== undefined) running.delete(id);
        current.delete(worker);
        settle();
      });
      dispatch(worker);
    }
  }).finally(() => {
    timeline('pool-end');
    return Promise.all(workers.map((w) => w.terminate()));
  });
}

/**
 * Runs simulations (`simulate`) on the pool; the form `run` and `conjecture` used before `runPool`.
 * @param concurrency worker threads (default: number of cores, at most the number of tasks).
 */
export async function runSimulations<K>(
  tasks: readonly SimulationTask<K>[],
  onResult: (key: K, result: SimulationResult) => void,
  concurrency?: number,
  onProgress?: PoolOptions['onProgress'],
): Promise<void> {
  await runPool(tasks, (key, result) => onResult(key, result as SimulationResult), { threads: concurrency, onProgress });
}

/**
 * `simulate(model, options)` with its replications on the pool, one task per replication, combined in replication
 * order by `SimulationCollector`: the same numbers as `simulate` (timing fields aside) for any thread count. A
 * precision-driven run goes in rounds of `threads` replications past the first ones; the collector takes the same
 * stopping decisions as `simulate`, and replications run beyond the stop are dropped. Batch means (one long run)
 * run in this thread.
 * @param onProgress events done over the whole run and the current estimate of its total.
 * @throws as `simulate` (typed as in the library).
 */
export async function simulateOnPool(
  model: SupermarketModel,
  options: SimulateOptions,
  pool: { threads?: number; onProgress?: (doneEvents: number, totalEventsEstimate: number) => void } = {},
): Promise<SimulationResult> {
  const { onProgress: _unused, ...rest } = options;
  const report = pool.onProgress;
  const plan = planSimulation(model, rest);
  if (plan.batchMode) return simulate(model, { ...rest, ...(report ? { onProgress: report } : {}) });
  const threads = Math.max(1, pool.threads ?? defaultThreads());
  const collector = new SimulationCollector(plan);
  const unitCost = expectedEvents({
    lambda: plan.config.lambda,
    n: plan.config.n,
    jobs: plan.jobs,
    replications: 1,
    warmupTime: plan.warmupTime,
  });
  while (collector.wantsMore()) {
    const first = collector.count;
    const count = Math.max(plan.minUnits - first, Math.min(threads, collector.budgetLeft()));
    const parts: ReplicationPart[] = new Array(count);
    const before = collector.events;
    await runPool(
      Array.from({ length: count }, (_, k) => ({
        key: k,
        kind: 'replications' as const,
        model,
        options: rest,
        first: first + k,
        count: 1,
        cost: unitCost,
      })),
      (k, value) => (parts[k] = (value as ReplicationPart[])[0]),
      {
        threads,
        ...(report
          ? { onProgress: (done: number, total: number) => report(before + done, Math.max(plan.totalEstimate, before + total)) }
          : {}),
      },
    );
    for (const part of parts) {
      if (!collector.wantsMore()) break;
      collector.add(part);
    }
  }
  return collector.result();
}
