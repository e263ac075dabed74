/**
 * Replication-level tasks on the worker pool (issue 23 item 2): a `simulate` task of R independent replications runs as
 * R pool tasks folded in replication order, so one heavy cell uses every worker, and the numbers are `simulate`'s
 * for any thread count and shard count: one task on 2 workers, a one-cell `compare` on 1 and 2 threads (and in this
 * thread), and a `run` of a tiny grid on 1 and 2 threads and 1 and 2 shards give the same numbers, timing aside.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { runComparisonOnPool } from '../../src/cli/comparePool.ts';
import { WorkerPool } from '../../src/cli/pool.ts';
import { parseModel } from '../../src/model/index.ts';
import { collectTrajectory, planTrajectory, runTrajectoryReplications, simulate, simulateTrajectory } from '../../src/sim/index.ts';
import { simulationTask, trajectoryTask } from '../../src/runs/task.ts';
import { shardDir } from '../../src/runs/shard.ts';
import { runComparison, type ComparisonConfig } from '../../src/compare/index.ts';
import { runCli } from './runCli.ts';
import { writeTinyExperiment } from '../experiments/tinyExperiment.ts';

/** As numbers, timings and code identity aside. */
const SKIP = new Set(['seconds', 'wallSeconds', 'eventsPerSecond', 'generatedAt', 'startedAt', 'finishedAt', 'code', 'commandLine']);
const numbers = (x: unknown) => JSON.stringify(x, (k, v) => (SKIP.has(k) ? undefined : v));

/** Runs one task on a pool of 2 workers: its value and the last progress label. */
async function onTwoWorkers(task: Parameters<WorkerPool['run']>[0][number]): Promise<{ value: unknown; lastLabel: string | undefined }> {
  const pool = new WorkerPool(2);
  const labels: string[] = [];
  let value: unknown;
  try {
    await pool.run(
      [task],
      (key, v) => {
        expect(key).toBe(task.key);
        value = v;
      },
      { onProgress: (_done, _total, label) => labels.push(label) },
    );
  } finally {
    await pool.close();
  }
  return { value, lastLabel: labels.at(-1) };
}

/** The cells stored under the given cells folders, sorted by key, as { key, value }. */
const storedCells = (cells: string[]) =>
  cells
    .flatMap((d) => readdirSync(d).map((f) => JSON.parse(readFileSync(path.join(d, f), 'utf8'))))
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map((c) => ({ key: c.key, value: c.value }));

describe('a simulation task runs as its replications on the pool', () => {
  it("one task of 3 replications is 3 pool tasks on 2 workers and gives simulate's numbers", async () => {
    const model = parseModel({ lambda: 0.8, d: 2 });
    const task = simulationTask(5, 'one-cell', model, { n: 20, jobs: 800, replications: 3, warmupTime: 4 });
    const { value, lastLabel } = await onTwoWorkers(task);
    expect(lastLabel).toBe('3/3 done');
    expect(numbers(value)).toBe(numbers(simulate(model, task.options)));
  });
});

describe('compare and run give the same numbers for 1 and 2 threads', () => {
  const config: ComparisonConfig = {
    lambdas: [0.9],
    ds: [2],
    ns: [30],
    sampling: 'with-replacement',
    jobs: 1500,
    replications: 3,
    seed: 13,
    warmupTolerance: 1e-3,
    warmupSafetyFactor: 2,
    maxLevel: 10,
    // a transient from empty too: its replications are pool tasks of their own (TrajectorySplit)
    trajectory: { ns: [30], tEnd: 6, dt: 1.5, replications: 3 },
  };

  it('a one-cell compare with a trajectory on 1 and 2 threads equals runComparison in this thread', async () => {
    const results: unknown[] = [];
    for (const threads of [1, 2]) {
      const out = mkdtempSync(path.join(os.tmpdir(), 'sm-units-'));
      const ran = await runComparisonOnPool(config, {
        dir: path.join(out, 'cells'),
        settings: { test: 'units' },
        fresh: false,
        threads,
        cmd: new Command('compare'),
        out,
      });
      if (!('result' in ran)) throw new Error('expected a result');
      results.push(ran.result);
    }
    const here = runComparison(config);
    expect(here.trajectories.length).toBe(1);
    expect(numbers(results[1])).toBe(numbers(results[0]));
    expect(numbers(results[0])).toBe(numbers(here));
  });

  it('compare with a trajectory stores the same cells on 2 threads as in 2 shards on 1 thread', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sm-units-shards-'));
    const small = { ...config, ns: [12], jobs: 800, replications: 2, trajectory: { ns: [12], tEnd: 4, dt: 1, replications: 3 } };
    const run = (out: string, threads: number, shard?: { index: number; count: number }) =>
      runComparisonOnPool(small, {
        dir: path.join(out, 'cells'),
        settings: { test: 'shards' },
        fresh: false,
        threads,
        cmd: new Command('compare'),
        out,
        ...(shard ? { shard } : {}),
      });
    await run(path.join(dir, 'local'), 2);
    for (const index of [1, 2]) await run(path.join(dir, 'sharded'), 1, { index, count: 2 });
    const local = storedCells([path.join(dir, 'local', 'cells')]);
    const sharded = storedCells([1, 2].map((index) => path.join(shardDir(path.join(dir, 'sharded'), { index, count: 2 }), 'cells')));
    expect(local.map((c) => c.key)).toEqual(['d2-lambda0.9-n12', 'trajectory-d2-lambda0.9-n12']);
    expect(numbers(sharded)).toBe(numbers(local));
  });

  it('run of a tiny grid stores the same cells for --threads 1 and 2 (1 shard and 2 shards)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sm-units-run-'));
    const file = writeTinyExperiment(dir, { jobs: 600, seed: 9 });
    const stored = (out: string, shards: number) =>
      storedCells(Array.from({ length: shards }, (_, i) => path.join(shardDir(out, { index: i + 1, count: shards }), 'cells')));
    const runs: unknown[] = [];
    for (const [threads, shards] of [
      [1, 1],
      [2, 2],
    ]) {
      const out = path.join(dir, `t${threads}-s${shards}`);
      for (let i = 1; i <= shards; i++) {
        const r = await runCli(['run', file, '--out', out, '--threads', String(threads), '--shard', `${i}/${shards}`, '--no-progress']);
        expect(r.status).toBe(0);
      }
      runs.push(stored(out, shards));
    }
    expect((runs[0] as unknown[]).length).toBe(4);
    expect(numbers(runs[1])).toBe(numbers(runs[0]));
  });
});

describe('a transient simulation runs as its replications on the pool', () => {
  it("one trajectory task of 3 replications is 3 pool tasks on 2 workers and gives simulateTrajectory's numbers", async () => {
    const model = parseModel({ lambda: 0.9, d: 2 });
    const task = trajectoryTask(7, 'one-trajectory', model, { n: 40, times: [0, 1, 2.5, 4], replications: 3, maxLevel: 6 }, 4);
    const { value, lastLabel } = await onTwoWorkers(task);
    expect(lastLabel).toBe('3/3 done');
    const whole = simulateTrajectory(model, task.options);
    expect(numbers(value)).toBe(numbers(whole));
    // the replications are independent streams: some level moves between them (the test can fail)
    expect(new Set(whole.seeds.replications).size).toBe(3);
    expect(whole.tail[3][1].halfWidth).toBeGreaterThan(0);
  });

  it('collectTrajectory joins parts in any order and refuses a missing or repeated replication', () => {
    const model = parseModel({ lambda: 0.8, d: 2 });
    const plan = planTrajectory(model, { n: 20, times: [0, 2, 3], replications: 3, seed: 4 });
    const parts = [...runTrajectoryReplications(plan, 2, 1), ...runTrajectoryReplications(plan, 0, 2)];
    expect(numbers(collectTrajectory(plan, parts))).toBe(
      numbers(simulateTrajectory(model, { n: 20, times: [0, 2, 3], replications: 3, seed: 4 })),
    );
    expect(() => collectTrajectory(plan, parts.slice(1))).toThrow(/replication 2 is missing/);
    expect(() => collectTrajectory(plan, [...parts, parts[0]])).toThrow(/repeated/);
    expect(() => runTrajectoryReplications(plan, 2, 2)).toThrow(/not within/);
  });
});
