/**
 * Execution of the table engine's tasks (a chain task = runs first .. first + count − 1 of one cell; an exact task =
 * one cell's exact chain, `exactCell`): on worker threads (one worker with one thread, so Ctrl-C is heard; in this thread only when asked)
 * (src/cli/workers/tableWorker.ts), exact chains first (one takes up to a minute: started last, it would be the
 * tail), then the largest chain task first. A run's value depends on (seed, cell key, run index) only and an exact
 * chain on its cell only, so the split into tasks and the thread count never change a result.
 */
import { Worker } from 'node:worker_threads';
import { ConvergenceError, InvalidModelError, SolverError, SupermarketError } from '../errors.ts';
import { exactCell, type ExactValue } from '../compare/finiteNTable.ts';
import type { SupermarketModel } from '../model/index.ts';
import { runOccupancyChains, type ChainRunOptions, type OccupancyChainSpec } from '../sim/occupancyChain.ts';
import { threadCpuMs } from './timeline.ts';

export interface ChainTask {
  readonly spec: OccupancyChainSpec;
  readonly options: Omit<ChainRunOptions, 'onProgress'>;
}

/** One cell's exact chain: `exactCell(model, n, maxN, maxStates, maxWork)`. */
export interface ExactTask {
  readonly model: SupermarketModel;
  readonly n: number;
  readonly maxN: number;
  readonly maxStates: number;
  /** The solve's budget in state-sweeps (`EXACT_MAX_WORK`). */
  readonly maxWork: number;
}

/** Events a task simulates, warm-up included: its cost. */
export function chainTaskEvents(task: ChainTask): number {
  return task.options.count * (task.options.warmupEvents + task.options.events);
}

function workerEntry(): { file: URL; workerData?: { module: string } } {
  if (import.meta.url.endsWith('.js')) return { file: new URL('./workers/tableWorker.js', import.meta.url) };
  return {
    file: new URL('./workers/bootstrap.mjs', import.meta.url),
    workerData: { module: new URL('./workers/tableWorker.ts', import.meta.url).href },
  };
}

/** A worker's error as the library's type where the table can meet it, else a SupermarketError naming the thread. */
function rebuildError(e: { name: string; message: string }): Error {
  if (e.name === 'InvalidModelError') return new InvalidModelError(e.message);
  if (e.name === 'SolverError') return new SolverError(e.message);
  if (e.name === 'ConvergenceError') return ConvergenceError.fromMessage(e.message);
  return new SupermarketError(`a table run failed in a worker thread: ${e.message}`);
}

/** What `runChainTasks` gives back. */
export interface ChainTaskResults {
  /** Per chain task, the per-run E[Q] values (index = run − first). */
  readonly values: Float64Array[];
  /** Per exact task, `exactCell`'s value. */
  readonly exact: (ExactValue | null)[];
  /** Wall seconds from the start to the last chain task's end (the simulation's time, exact chains beside it aside). */
  readonly chainSeconds: number;
  /** CPU seconds the exact chains took (their threads' clocks, Linux; 0 where no thread clock exists). */
  readonly exactCpuSeconds: number;
}

/** Options of `runChainTasks`. */
export interface ChainTaskHooks {
  /** Called as each chain task ends, with its id (index in `tasks`) and values: the caller can store a cell at once. */
  readonly onChainDone?: (id: number, values: Float64Array) => void;
  /** Called as each exact task ends, with its index in `exactTasks` and its value: the progress line says so, the caller can store it. */
  readonly onExactDone?: (index: number, value: ExactValue | null) => void;
  /**
   * Run everything in this thread when one thread is asked (the default: on one worker thread even then, so this
   * thread stays free to answer Ctrl-C; a synchronous loop here would hold the signal until the end).
   */
  readonly inThisThread?: boolean;
}

/** CPU ms of the calling thread so far, 0 where there is no thread clock (the exact chains' CPU is then not told apart). */
function cpuMs(): number {
  const ms = threadCpuMs();
  return Number.isFinite(ms) ? ms : 0;
}

/**
 * Runs every chain task and every exact task; `onProgress(eventsDone)` reports events simulated so far (all chain
 * tasks; an exact chain reports none); `hooks.onChainDone` hears of each chain task as it ends.
 * @returns see `ChainTaskResults`.
 * @throws the first task's error (InvalidModelError, SolverError, ConvergenceError as such, else SupermarketError
 * naming the worker failure).
 */
export async function runChainTasks(
  tasks: readonly ChainTask[],
  threads: number,
  onProgress: (eventsDone: number) => void,
  exactTasks: readonly ExactTask[] = [],
  hooks: ChainTaskHooks = {},
): Promise<ChainTaskResults> {
  const values: Float64Array[] = new Array(tasks.length);
  const exact: (ExactValue | null)[] = new Array(exactTasks.length);
  const started = performance.now();
  let chainSeconds = 0;
  let exactCpuMs = 0;
  let done = 0;
  const all = tasks.length + exactTasks.length;
  if (all === 0 || (hooks.inThisThread && (threads <= 1 || all <= 1))) {
    for (let i = 0; i < tasks.length; i++) {
      let reported = 0;
      values[i] = runOccupancyChains(tasks[i].spec, {
        ...tasks[i].options,
        onProgress: (d) => {
          done += d - reported;
          reported = d;
          onProgress(done);
        },
      });
      hooks.onChainDone?.(i, values[i]);
    }
    chainSeconds = (performance.now() - started) / 1000;
    const cpu0 = cpuMs();
    exactTasks.forEach((t, i) => {
      exact[i] = exactCell(t.model, t.n, t.maxN, t.maxStates, t.maxWork);
      hooks.onExactDone?.(i, exact[i]);
    });
    return { values, exact, chainSeconds, exactCpuSeconds: (cpuMs() - cpu0) / 1000 };
  }
  // ids: chain tasks 0 … tasks.length − 1, then the exact tasks; exact chains first, largest n (and load) first
  const exactOrder = exactTasks
    .map((_, i) => i)
    .sort((a, b) => exactTasks[b].n - exactTasks[a].n || exactTasks[b].model.lambda - exactTasks[a].model.lambda || a - b);
  const chainOrder = tasks.map((_, i) => i).sort((a, b) => chainTaskEvents(tasks[b]) - chainTaskEvents(tasks[a]) || a - b);
  const order = [...exactOrder.map((i) => tasks.length + i), ...chainOrder];
  const entry = workerEntry();
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let remaining = all;
      const dispatch = (worker: Worker) => {
        if (next >= order.length) return;
        const id = order[next++];
        if (id < tasks.length) worker.postMessage({ id, spec: tasks[id].spec, options: tasks[id].options });
        else worker.postMessage({ id, exact: exactTasks[id - tasks.length] });
      };
      for (let w = 0; w < Math.min(threads, all); w++) {
        const worker = new Worker(entry.file, { workerData: entry.workerData });
        workers.push(worker);
        worker.on(
          'message',
          (msg: {
            id: number;
            progress?: number;
            values?: Float64Array;
            exact?: ExactValue | null;
            cpuMs?: number;
            error?: { name: string; message: string };
          }) => {
            if (msg.error) {
              reject(rebuildError(msg.error));
              return;
            }
            if (msg.progress !== undefined) {
              done += msg.progress;
              onProgress(done);
              return;
            }
            if (msg.id < tasks.length) {
              values[msg.id] = msg.values!;
              chainSeconds = (performance.now() - started) / 1000;
              try {
                hooks.onChainDone?.(msg.id, msg.values!);
              } catch (error) {
                reject(error as Error);
                return;
              }
            } else {
              exact[msg.id - tasks.length] = msg.exact!;
              exactCpuMs += msg.cpuMs ?? 0;
              try {
                hooks.onExactDone?.(msg.id - tasks.length, msg.exact!);
              } catch (error) {
                reject(error as Error);
                return;
              }
            }
            if (--remaining === 0) resolve();
            else dispatch(worker);
          },
        );
        worker.on('error', (e) => reject(new SupermarketError(`a table worker thread failed: ${e.message}`)));
        dispatch(worker);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return { values, exact, chainSeconds, exactCpuSeconds: exactCpuMs / 1000 };
}
