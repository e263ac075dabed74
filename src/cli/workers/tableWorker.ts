/**
 * Worker thread of `supermarket table` (src/cli/tableRunner.ts): receives { id, spec, options } and runs
 * `runOccupancyChains`, answering { id, progress } (events done since the last message, at most every block) and
 * { id, values } (the per-run E[Q], transferred); or { id, exact: { model, n, maxN, maxStates, maxWork } } and runs `exactCell`,
 * answering { id, exact, cpuMs } (its value or null, and the CPU ms it took: 0 without a thread clock); on failure { id, error: { name, message } }.
 */
import { parentPort } from 'node:worker_threads';
import { exactCell } from '../../compare/finiteNTable.ts';
import type { SupermarketModel } from '../../model/index.ts';
import { runOccupancyChains, type ChainRunOptions, type OccupancyChainSpec } from '../../sim/occupancyChain.ts';
import { threadCpuMs } from '../timeline.ts';

type Task = { id: number } & (
  | { spec: OccupancyChainSpec; options: Omit<ChainRunOptions, 'onProgress'> }
  | { exact: { model: SupermarketModel; n: number; maxN: number; maxStates: number; maxWork: number } }
);

parentPort!.on('message', (task: Task) => {
  try {
    if ('exact' in task) {
      const { model, n, maxN, maxStates, maxWork } = task.exact;
      const cpu0 = threadCpuMs();
      const exact = exactCell(model, n, maxN, maxStates, maxWork);
      const cpuMs = threadCpuMs() - cpu0;
      parentPort!.postMessage({ id: task.id, exact, cpuMs: Number.isFinite(cpuMs) ? cpuMs : 0 });
      return;
    }
    let reported = 0;
    const values = runOccupancyChains(task.spec, {
      ...task.options,
      onProgress: (done) => {
        parentPort!.postMessage({ id: task.id, progress: done - reported });
        reported = done;
      },
    });
    parentPort!.postMessage({ id: task.id, values }, [values.buffer as ArrayBuffer]);
  } catch (error) {
    const e = error as Error;
    parentPort!.postMessage({ id: task.id, error: { name: e.name, message: e.message } });
  }
});
