/**
 * Workers started ahead of their pool (src/cli/workerStart.ts): how many `compare`'s command line asks for, and a pool
 * adopts a worker started ahead instead of starting one, with `simulate`'s numbers from it.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { WorkerPool } from '../../src/cli/pool.ts';
import { compareAhead, preloadedAhead, prestartWorkers, takePrestarted, workersFor } from '../../src/cli/workerStart.ts';
import { parseModel } from '../../src/model/index.ts';
import { simulate, type SimulationResult } from '../../src/sim/index.ts';
import { recordTimeline } from './timeline.ts';

const TIMINGS = new Set(['seconds', 'wallSeconds', 'eventsPerSecond']);
const numbers = (x: unknown) => JSON.stringify(x, (k, v) => (TIMINGS.has(k) ? undefined : v));

describe('workersFor', () => {
  const cores = os.availableParallelism();
  // only the first worker starts ahead: the others, started with it, loaded their modules while this thread loaded the
  // command's, three threads on two cores, and delayed the command's start (issue 23)
  it('is the first worker only, whatever --threads, and 0 for help, --threads 0 or a --threads it does not read', () => {
    expect(workersFor(['--lambda', '0.9'])).toBe(1);
    expect(workersFor(['--threads', '1'])).toBe(1);
    expect(workersFor(['--threads=1', '--n', '10'])).toBe(1);
    expect(workersFor(['--threads', '2'])).toBe(1);
    expect(workersFor(['--threads', String(cores + 5)])).toBe(1);
    expect(workersFor(['--threads', '0'])).toBe(0);
    expect(workersFor(['--threads', 'two'])).toBe(0);
    expect(workersFor(['--threads', '1e0'])).toBe(0);
    expect(workersFor(['--threads'])).toBe(0);
    expect(workersFor(['--threads', '1', '--help'])).toBe(0);
    expect(workersFor(['-h'])).toBe(0);
  });
});

describe('prestartWorkers', () => {
  it('gives its worker to the next pool, which runs on it as on a worker of its own', { timeout: 600_000 }, async () => {
    prestartWorkers(1);
    const pool = new WorkerPool(1);
    try {
      const model = parseModel({ lambda: 0.7, d: 2 });
      const options = { n: 20, jobs: 500, replications: 2, seed: 3, warmupTime: 5 };
      let result: SimulationResult | undefined;
      await pool.run(
        [{ key: 0, kind: 'simulate' as const, model, options, cost: 1 }],
        (_key, value) => (result = value as SimulationResult),
      );
      expect(pool.size).toBe(1);
      // adopted: none is left to take
      expect(takePrestarted()).toBeUndefined();
      expect(numbers(result)).toBe(numbers(simulate(model, options)));
    } finally {
      await pool.close();
    }
  });
});

describe('compareAhead', () => {
  it('has the first worker, which takes the first solve, load the solvers, and no other anything', () => {
    expect([0, 1, 2].map((k) => compareAhead(k))).toEqual([['solvers'], [], []]);
  });
});

describe('a worker started ahead with a preload', () => {
  it(
    'loads the modules and says so on the timeline, once, whether its answer comes before or after the adoption',
    { timeout: 600_000 },
    async () => {
      const pool = new WorkerPool(1);
      const events = await recordTimeline(async () => {
        prestartWorkers(1, () => ['solvers']);
        try {
          pool.warm();
          expect(takePrestarted()).toBeUndefined();
          const model = parseModel({ lambda: 0.7, d: 2 });
          const options = { n: 20, jobs: 500, replications: 2, seed: 3, warmupTime: 5 };
          await pool.run([{ key: 0, kind: 'simulate' as const, model, options, cost: 1 }], () => {});
          // its answer comes before or after the adoption; either way once
          const written = () => readFileSync(process.env.SUPERMARKET_TIMELINE!, 'utf8');
          for (let i = 0; i < 100 && !written().includes('preload-end'); i++) await new Promise((r) => setTimeout(r, 50));
        } finally {
          await pool.close();
        }
      });
      expect(events.filter((e) => e.ev === 'preload').map((e) => e.modules)).toEqual(['solvers']);
      const ends = events.filter((e) => e.ev === 'preload-end');
      expect(ends.map((e) => e.modules)).toEqual(['solvers']);
      expect(typeof events[0].tid).toBe('number');
    },
  );

  it('is reported by preloadedAhead', () => {
    prestartWorkers(1, () => ['renderer']);
    const worker = takePrestarted()!;
    try {
      expect(preloadedAhead(worker).asked).toEqual(['renderer']);
    } finally {
      void worker.terminate();
    }
  });
});
