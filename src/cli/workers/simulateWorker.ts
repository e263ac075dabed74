/**
 * Worker thread that runs simulations for the pool: receives { id, model, options } messages, answers
 * { id, result } or { id, error: { name, message } }. No progress callbacks cross the thread boundary.
 */
import { parentPort } from 'node:worker_threads';
import type { SupermarketModel } from '../../model/index.ts';
import { simulate, type SimulateOptions } from '../../sim/index.ts';

interface Task { id: number; model: SupermarketModel; options: Omit<SimulateOptions, 'onProgress'> }

parentPort!.on('message', (task: Task) => {
  try {
    const result = simulate(task.model, task.options);
    parentPort!.postMessage({ id: task.id, result });
  } catch (error) {
    const e = error as Error;
    parentPort!.postMessage({ id: task.id, error: { name: e?.name ?? 'Error', message: e?.message ?? String(error) } });
  }
});
