/**
 * Worker thread of `supermarket table` (src/cli/tableRunner.ts): receives { id, spec, options } and runs
 * `runOccupancyChains`; answers { id, progress } (events done since the last message, at most every block) and
 * { id, values } (the per-run E[Q], transferred) or { id, error: { name, message } }.
 */
import { parentPort } from 'node:worker_threads';
import { runOccupancyChains, type ChainRunOptions, type OccupancyChainSpec } from '../../sim/occupancyChain.ts';

interface Task {
  id: number;
  spec: OccupancyChainSpec;
  options: Omit<ChainRunOptions, 'onProgress'>;
}

parentPort!.on('message', (task: Task) => {
  try {
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
