/**
 * The pool's shared buffers (src/cli/pool.ts `lend`/`giveBack`, src/sim/buffers.ts): a worker posts a replication's
 * sample and batch-5 series on shared buffers, and once this thread has read them for the last time (`recycle` in
 * `SimulationCollector`) it gives them back to the worker, which copies its next replications onto them. So a worker
 * allocates fresh ones only up to the most its results hold at once, not two a replication; and reuse cannot change a
 * result: here every buffer is filled with 0xff bytes the moment it is given back (NaN as a batch-5 mean, the largest
 * key as a sample), so a read after that, or a copy that left old bytes in place, would change the numbers.
 */
import { describe, expect, it, vi } from 'vitest';
import { WorkerPool, type PoolTask } from '../../src/cli/pool.ts';
import { parseModel } from '../../src/model/index.ts';
import { simulationTask } from '../../src/runs/task.ts';
import { simulate, type SimulationResult } from '../../src/sim/index.ts';

vi.mock('../../src/sim/buffers.ts', async (importOriginal) => {
  const buffers = await importOriginal<typeof import('../../src/sim/buffers.ts')>();
  return {
    ...buffers,
    // poison each buffer as this thread gives it back, before the pool posts it to a worker
    lendShared: (array: Parameters<typeof buffers.lendShared>[0], giveBack: (buffer: SharedArrayBuffer) => void) =>
      buffers.lendShared(array, (buffer) => {
        new Uint8Array(buffer).fill(0xff);
        giveBack(buffer);
      }),
  };
});

/** As numbers, timings aside. */
const TIMINGS = new Set(['seconds', 'wallSeconds', 'eventsPerSecond']);
const numbers = (x: unknown) => JSON.stringify(x, (k, v) => (TIMINGS.has(k) ? undefined : v));

const model = parseModel({ lambda: 0.9, d: 2 });
const REPLICATIONS = 6;
/** Cell `c`: 6 replications on streams of its own (each cell's arrays differ from the last one's). */
const cell = (c: number) => simulationTask(40 + c, `cell-${c}`, model, { n: 20, jobs: 3000, replications: REPLICATIONS, warmupTime: 5 });

/** Runs each batch of cells on `pool` in turn: their results by key. */
async function runBatches(pool: WorkerPool, batches: PoolTask<string>[][]): Promise<Map<string, SimulationResult>> {
  const results = new Map<string, SimulationResult>();
  for (const batch of batches) await pool.run(batch, (key, value) => results.set(key, value as SimulationResult));
  return results;
}

describe("the pool gives a replication's shared buffers back to the workers", () => {
  it('10 cells of 6 replications, one after another on 2 workers: fresh buffers stay at most what 2 cells hold, the rest reused', async () => {
    const pool = new WorkerPool(2);
    try {
      const cells = Array.from({ length: 10 }, (_, c) => cell(c));
      const results = await runBatches(
        pool,
        cells.map((t) => [t]),
      );
      expect(results.size).toBe(10);
      const { fresh, reused } = pool.sharedBuffers;
      // a sample and a batch-5 series a replication: 120 taken; without the give-back all 120 are fresh
      expect(fresh + reused).toBe(2 * REPLICATIONS * cells.length);
      // each worker needs at most one cell's samples and series at once (the cell's samples stay until its result)
      expect(fresh).toBeLessThanOrEqual(2 * 2 * REPLICATIONS);
      expect(reused).toBeGreaterThanOrEqual(2 * REPLICATIONS * (cells.length - 2));
    } finally {
      await pool.close();
    }
  });

  it("buffers read, given back (and overwritten at once) and reused leave every cell's numbers simulate's, interleaved or in turn", async () => {
    const pool = new WorkerPool(2);
    try {
      // four cells at once (their replications interleave and fold out of order), then three one after another
      const batches = [[cell(0), cell(1), cell(2), cell(3)], [cell(4)], [cell(5)], [cell(6)]];
      const results = await runBatches(pool, batches);
      expect(pool.sharedBuffers.reused).toBeGreaterThan(0);
      for (const t of batches.flat()) expect(numbers(results.get(t.key))).toBe(numbers(simulate(model, t.options)));
    } finally {
      await pool.close();
    }
  });
});
