/**
 * A small pool of worker threads for independent simulations (one per core by default), so long sweeps use the
 * whole machine. Results come back in completion order through `onResult`; the first error stops the pool.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { InvalidModelError, SupermarketError, UnstableModelError } from '../errors.ts';
import type { SupermarketModel } from '../model/index.ts';
import type { SimulateOptions, SimulationResult } from '../sim/index.ts';

export interface SimulationTask<K> {
  readonly key: K;
  readonly model: SupermarketModel;
  readonly options: Omit<SimulateOptions, 'onProgress'>;
}

/**
 * The worker's entry. Compiled (dist/, the `supermarket` bin): the plain JavaScript worker. From the TypeScript sources
 * (vitest, tsx): bootstrap.mjs registers tsx's loader in the thread, then imports the .ts worker.
 */
function workerEntry(): { file: URL; workerData?: { module: string } } {
  if (import.meta.url.endsWith('.js')) return { file: new URL('./workers/simulateWorker.js', import.meta.url) };
  return { file: new URL('./workers/bootstrap.mjs', import.meta.url), workerData: { module: new URL('./workers/simulateWorker.ts', import.meta.url).href } };
}

function rebuildError(e: { name: string; message: string }): Error {
  if (e.name === 'InvalidModelError') return new InvalidModelError(e.message);
  if (e.name === 'UnstableModelError') return new UnstableModelError(e.message);
  return new SupermarketError(`simulation failed in a worker: ${e.message}`);
}

/**
 * Runs every task; `onResult` is called as each finishes (write it to disk there, so nothing finished is lost).
 * @param concurrency worker threads (default: number of cores, at most the number of tasks).
 */
export async function runSimulations<K>(
  tasks: readonly SimulationTask<K>[],
  onResult: (key: K, result: SimulationResult) => void,
  concurrency = os.availableParallelism(),
): Promise<void> {
  if (tasks.length === 0) return;
  const size = Math.max(1, Math.min(concurrency, tasks.length));
  let next = 0;
  let failed: Error | undefined;
  const workers: Worker[] = [];
  await new Promise<void>((resolve, reject) => {
    let running = 0;
    const dispatch = (worker: Worker) => {
      if (failed || next >= tasks.length) {
        if (running === 0) {
          if (failed) reject(failed);
          else resolve();
        }
        return;
      }
      const id = next++;
      running++;
      worker.postMessage({ id, model: tasks[id].model, options: tasks[id].options });
    };
    const entry = workerEntry();
    for (let w = 0; w < size; w++) {
      const worker = new Worker(entry.file, { workerData: entry.workerData });
      workers.push(worker);
      worker.on('message', (msg: { id: number; result?: SimulationResult; error?: { name: string; message: string } }) => {
        running--;
        if (msg.error) failed ??= rebuildError(msg.error);
        else {
          try {
            onResult(tasks[msg.id].key, msg.result!);
          } catch (error) {
            failed ??= error as Error;
          }
        }
        dispatch(worker);
      });
      worker.on('error', (error) => { failed ??= error; running = Math.max(0, running - 1); if (running === 0) reject(failed); });
      dispatch(worker);
    }
  }).finally(() => Promise.all(workers.map((w) => w.terminate())));
}
