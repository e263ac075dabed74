/**
 * Worker thread of the pool (src/cli/pool.ts): receives { id, kind, model, options } messages and runs `simulate`
 * (kind 'simulate') or `simulateTrajectory` (kind 'trajectory'); answers { id, result } or
 * { id, error: { name, message } }, and while a simulation runs, { id, progress } (fraction done, at most ~4 per s).
 */
import { parentPort } from 'node:worker_threads';
import type { SupermarketModel } from '../../model/index.ts';
import { simulate, simulateTrajectory, type SimulateOptions, type TrajectoryOptions } from '../../sim/index.ts';

interface Task {
  id: number;
  kind?: 'simulate' | 'trajectory';
  model: SupermarketModel;
  options: Omit<SimulateOptions, 'onProgress'> | TrajectoryOptions;
}

parentPort!.on('message', (task: Task) => {
  try {
    let last = 0;
    const onProgress = (done: number, total: number) => {
      const now = Date.now();
      if (now - last < 250) return;
      last = now;
      parentPort!.postMessage({ id: task.id, progress: Math.min(1, done / Math.max(total, 1)) });
    };
    const result =
      task.kind === 'trajectory'
        ? simulateTrajectory(task.model, task.options as TrajectoryOptions)
        : simulate(task.model, { ...(task.options as SimulateOptions), onProgress });
    parentPort!.postMessage({ id: task.id, result });
  } catch (error) {
    const e = error as Error;
    parentPort!.postMessage({ id: task.id, error: { name: e?.name ?? 'Error', message: e?.message ?? String(error) } });
  }
});
