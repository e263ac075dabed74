/**
 * Execution of the table engine's tasks (a task = runs first .. first + count − 1 of one cell): in this thread with
 * one thread, else on worker threads (src/cli/workers/tableWorker.ts), largest task first. A run's value depends on
 * (seed, cell key, run index) only, so the split into tasks and the thread count never change a result.
 */
import { Worker } from 'node:worker_threads';
import { InvalidModelError, SupermarketError } from '../errors.ts';
import { runOccupancyChains, type ChainRunOptions, type OccupancyChainSpec } from '../sim/occupancyChain.ts';

export interface ChainTask {
  readonly spec: OccupancyChainSpec;
  readonly options: Omit<ChainRunOptions, 'onProgress'>;
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

/**
 * Runs every task; `onProgress(eventsDone)` reports events simulated so far (all tasks).
 * @returns per task, the per-run E[Q] values (index = run − first).
 * @throws the first task's error (InvalidModelError as such, else SupermarketError naming the worker failure).
 */
export async function runChainTasks(
  tasks: readonly ChainTask[],
  threads: number,
  onProgress: (eventsDone: number) => void,
): Promise<Float64Array[]> {
  const results: Float64Array[] = new Array(tasks.length);
  let done = 0;
  if (threads <= 1 || tasks.length <= 1) {
    for (let i = 0; i < tasks.length; i++) {
      let reported = 0;
      results[i] = runOccupancyChains(tasks[i].spec, {
        ...tasks[i].options,
        onProgress: (d) => {
          done += d - reported;
          reported = d;
          onProgress(done);
        },
      });
    }
    return results;
  }
  const order = tasks.map((_, i) => i).sort((a, b) => chainTaskEvents(tasks[b]) - chainTaskEvents(tasks[a]) || a - b);
  const entry = workerEntry();
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let remaining = tasks.length;
      const dispatch = (worker: Worker) => {
        if (next >= order.length) return;
        const id = order[next++];
        worker.postMessage({ id, spec: tasks[id].spec, options: tasks[id].options });
      };
      for (let w = 0; w < Math.min(threads, tasks.length); w++) {
        const worker = new Worker(entry.file, { workerData: entry.workerData });
        workers.push(worker);
        worker.on('message', (msg: { id: number; progress?: number; values?: Float64Array; error?: { name: string; message: string } }) => {
          if (msg.error) {
            reject(
              msg.error.name === 'InvalidModelError'
                ? new InvalidModelError(msg.error.message)
                : new SupermarketError(`a table run failed in a worker thread: ${msg.error.message}`),
            );
            return;
          }
          if (msg.progress !== undefined) {
            done += msg.progress;
            onProgress(done);
            return;
          }
          results[msg.id] = msg.values!;
          if (--remaining === 0) resolve();
          else dispatch(worker);
        });
        worker.on('error', (e) => reject(new SupermarketError(`a table worker thread failed: ${e.message}`)));
        dispatch(worker);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
