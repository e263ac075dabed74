/**
 * The worker pool (src/cli/pool.ts) beyond simulations: the models of a comparison solved on worker threads give the
 * plan the main thread gives (same numbers after the structured clone), and the confirmatory reruns of `compare` run
 * on the pool, land in the cell store under "<cell key>/confirm", and give the same result for 1 and 2 threads.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { runComparisonOnPool } from '../../src/cli/comparePool.ts';
import { runPool } from '../../src/cli/pool.ts';
import {
  cellSeed,
  planComparison,
  planFromPrepared,
  sweepModels,
  type ComparisonConfig,
  type PreparedComparisonModel,
} from '../../src/compare/index.ts';
import { CellStore } from '../../src/experiments/cellStore.ts';

const base: ComparisonConfig = {
  lambdas: [0.7, 0.9],
  ds: [2],
  ns: [10, 20, 50],
  sampling: 'with-replacement',
  jobs: 2000,
  replications: 2,
  seed: 7,
  warmupTolerance: 1e-3,
  warmupSafetyFactor: 2,
  maxLevel: 10,
  trajectory: null,
};

/** As numbers, timings aside (wall seconds, events per second, a solver's seconds). */
const TIMINGS = new Set(['seconds', 'wallSeconds', 'eventsPerSecond']);
const numbers = (x: unknown) => JSON.stringify(x, (k, v) => (TIMINGS.has(k) ? undefined : v));

describe('the pool solves the models of a comparison', () => {
  it('prepare tasks on 2 threads give the plan of planComparison, number for number (exact points and transients included)', async () => {
    const config: ComparisonConfig = {
      ...base,
      trajectory: { ns: [10], tEnd: 5, dt: 1, replications: 2 },
      exact: { ns: [2, 3], truncationBound: 1e-4, maxStates: 2e4, jobs: 1000, replications: 2 },
    };
    const prepared: PreparedComparisonModel[] = [];
    await runPool(
      sweepModels(config).map((_, index) => ({ key: index, kind: 'prepare' as const, config, index })),
      (index, value) => (prepared[index] = value as PreparedComparisonModel),
      { threads: 2 },
    );
    const pooled = planFromPrepared(config, prepared);
    const serial = planComparison(config);
    expect(pooled.tasks.length).toBeGreaterThan(0);
    expect(pooled.tasks.some((t) => t.key.startsWith('exact-'))).toBe(true);
    expect(numbers(pooled)).toBe(numbers(serial));
  }, 300_000);
});

describe('confirmatory reruns on the pool', () => {
  const settings = { test: 'pool' };
  const config: ComparisonConfig = { ...base, lambdas: [0.9] };
  const cmd = new Command('compare');
  /** A store whose first run of d2-lambda0.9-n50 is off by far more than its CI: Holm rejects it, so it is rerun. */
  async function doctoredRun(threads: number) {
    const out = mkdtempSync(path.join(os.tmpdir(), 'sm-pool-'));
    const dir = path.join(out, 'cells');
    const o = { dir, settings, fresh: false, threads, cmd, out };
    await runComparisonOnPool(config, o);
    const store = new CellStore<{ key: string; seed: number; simulation: { meanResponseTime: { mean: number; halfWidth: number } } }>(dir);
    const key = 'd2-lambda0.9-n50';
    const first = store.get(key, settings)!;
    const e = first.simulation.meanResponseTime;
    store.put(key, settings, { ...first, simulation: { ...first.simulation, meanResponseTime: { ...e, mean: e.mean + 1 } } });
    const ran = await runComparisonOnPool(config, o);
    return { ran, dir, key };
  }

  it('runs the rerun of a rejected cell with the /confirm seed and 4× the replications, stores it, and 1 or 2 threads agree', async () => {
    const one = await doctoredRun(1);
    const two = await doctoredRun(2);
    if (!('result' in one.ran) || !('result' in two.ran)) throw new Error('expected a result');
    const cell = one.ran.result.cells.find((c) => c.key === one.key)!;
    expect(cell.verdict.status).not.toBe('agrees');
    expect(cell.confirmation).not.toBeNull();
    expect(cell.confirmation!.seed).toBe(cellSeed(base.seed, `${one.key}/confirm`));
    expect(cell.confirmation!.simulation.replications).toBe(4 * base.replications);
    // the rerun is in the cell store, so a resumed run does not redo it
    expect(readdirSync(one.dir).some((f) => f.includes('confirm'))).toBe(true);
    const stored = new CellStore<{ simulation: unknown }>(one.dir).get(`${one.key}/confirm`, settings);
    expect(numbers(stored?.simulation)).toBe(numbers(cell.confirmation!.simulation));
    expect(numbers(two.ran.result)).toBe(numbers(one.ran.result));
    // the untouched cells are not rerun
    expect(one.ran.result.cells.filter((c) => c.confirmation !== null).map((c) => c.key)).toEqual([one.key]);
  }, 300_000);
});
