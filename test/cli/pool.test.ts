/**
 * The worker pool (src/cli/pool.ts) beyond simulations: one pool serves several batches (workers start once, tasks
 * may join a running batch, an error leaves the pool usable); the models of a comparison solved on worker threads give
 * the plan the main thread gives (same numbers after the structured clone); the report's figures rendered on the pool
 * are the files rendered in this thread, byte for byte; and the confirmatory reruns of `compare` run on the pool, land
 * in the cell store under "<cell key>/confirm", and give the same result for 1 and 2 threads.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { figuresOnPool, runComparisonOnPool } from '../../src/cli/comparePool.ts';
import { runPool, WorkerPool, type ReplicationsTask } from '../../src/cli/pool.ts';
import { InvalidModelError } from '../../src/errors.ts';
import { parseModel } from '../../src/model/index.ts';
import { writeComparisonReport } from '../../src/report/index.ts';
import { writeFigureFiles } from '../../src/report/writeFigure.ts';
import { planSimulation, simulate, SimulationCollector, type ReplicationPart, type SimulationResult } from '../../src/sim/index.ts';
import { codeIdentity } from '../../src/runs/codeIdentity.ts';
import { reportComparison, SHORT_TRAJECTORY } from '../compare/config.ts';
import { recordTimeline, type TimelineEvent } from './timeline.ts';
import { testMeta } from '../report/meta.ts';
import {
  cellSeed,
  runComparison,
  planComparison,
  planFromPrepared,
  sweepModels,
  type ComparisonConfig,
  type PreparedComparisonModel,
} from '../../src/compare/index.ts';
import { CellStore } from '../../src/runs/cellStore.ts';
import { simulationTask, trajectoryTask } from '../../src/runs/task.ts';

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

describe('one WorkerPool for several batches', () => {
  const model = parseModel({ lambda: 0.7, d: 2 });
  const options = { n: 20, jobs: 500, replications: 3, seed: 11, warmupTime: 5 };
  const unit = (first: number, opts = options): ReplicationsTask<number> => ({
    key: first,
    kind: 'replications',
    model,
    options: opts,
    first,
    count: 1,
  });

  it("starts its workers once; tasks added by `more` join the batch and give simulate's numbers; an error leaves it usable; closed, it refuses", async () => {
    const pool = new WorkerPool(2);
    const events = await recordTimeline(async () => {
      try {
        const parts: ReplicationPart[] = [];
        await pool.run([unit(0)], (k, value, _task, more) => {
          parts[k] = (value as ReplicationPart[])[0];
          if (k === 0) more([unit(1), unit(2)]);
        });
        const collector = new SimulationCollector(planSimulation(model, options));
        for (const part of parts) collector.add(part);
        expect(numbers(collector.result())).toBe(numbers(simulate(model, options)));
        await expect(pool.run([unit(0, { ...options, n: 0 })], () => {})).rejects.toBeInstanceOf(InvalidModelError);
        const again: number[] = [];
        await pool.run([unit(0), unit(1)], (k) => again.push(k));
        expect(again.sort()).toEqual([0, 1]);
        expect(pool.size).toBe(2);
      } finally {
        await pool.close();
      }
    });
    const starts = events.filter((e) => e.ev === 'worker-start');
    expect(starts.length).toBe(2);
    expect(pool.size).toBe(0);
    await expect(pool.run([unit(0)], () => {})).rejects.toThrow(/closed/);
  });

  it("renders a report's figures on the pool into the files this thread writes, byte for byte", async () => {
    const result = runComparison(
      reportComparison({ lambdas: [0.5], ns: [10, 50], jobs: 2_000, replications: 2, seed: 2, trajectory: SHORT_TRAJECTORY }),
    );
    const meta = testMeta();
    const here = mkdtempSync(path.join(os.tmpdir(), 'sm-report-'));
    const there = mkdtempSync(path.join(os.tmpdir(), 'sm-report-'));
    const pool = new WorkerPool(2);
    let files: string[];
    try {
      files = await writeComparisonReport(there, result, meta, { writeFigures: figuresOnPool(pool) });
    } finally {
      await pool.close();
    }
    expect(files).toEqual(await writeComparisonReport(here, result, meta));
    expect(files.filter((f) => f.startsWith('figures/')).length).toBe(30); // six figures × (PNG, SVG, spec, CSV, JSON)
    for (const f of files) expect(readFileSync(path.join(there, f)).equals(readFileSync(path.join(here, f))), f).toBe(true);
  });
});

describe("the pool's workers take its thread's code identity", () => {
  it("a worker runs no git of its own: with no git it can run, its results still name this thread's code", async () => {
    const mine = codeIdentity();
    const bin = mkdtempSync(path.join(os.tmpdir(), 'sm-nogit-'));
    writeFileSync(path.join(bin, 'git'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    // the workers start with this PATH (a worker's environment is its parent's at its start): a git of their own fails
    const before = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${before}`;
    const pool = new WorkerPool(1);
    try {
      pool.warm();
      process.env.PATH = before;
      const model = parseModel({ lambda: 0.5, d: 2 });
      // batch means: one run, not split into replications, so the worker gives simulate's result with its provenance
      const options = { n: 10, jobs: 200, method: 'batch-means' as const, batches: 10, seed: 3, warmupTime: 5 };
      const codes: string[] = [];
      await pool.run([{ key: 0, kind: 'simulate', model, options, cost: 1 }], (_k, value) =>
        codes.push((value as SimulationResult).provenance.code),
      );
      expect(codes).toEqual([mine]);
    } finally {
      process.env.PATH = before;
      await pool.close();
    }
  });
});

describe('figures stay on the workers that hold the renderer while they are few (minCostToLoad)', () => {
  // a tiny vega-lite figure: a few points, a line
  const figure = (i: number) => ({
    key: i,
    kind: 'figure' as const,
    outDir: mkdtempSync(path.join(os.tmpdir(), 'sm-fig-')),
    figure: {
      name: `f${i}`,
      spec: {
        data: { values: [0, 1, 2].map((x) => ({ x, y: x * i })) },
        mark: 'line',
        encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } },
      } as never,
      rows: [],
    },
    cost: 10,
  });
  /** The workers (pool indices) that started the tasks of each batch, from the timeline. */
  const workersByBatch = (events: readonly TimelineEvent[]) => {
    const batches: number[][] = [];
    for (const e of events) {
      if (e.ev === 'pool-start') batches.push([]);
      if (e.ev === 'task-start') batches[batches.length - 1].push(e.worker as number);
    }
    return batches;
  };

  it('a worker without the renderer takes none below the limit, and its share above it', { timeout: 600_000 }, async () => {
    const pool = new WorkerPool(2);
    const events = await recordTimeline(async () => {
      try {
        // one figure: one worker starts and loads the renderer
        await pool.run([figure(1)], () => {});
        expect(pool.size).toBe(1);
        // four small figures (cost 40 < 1000): the second worker starts, finds the first holds the renderer, leaves them
        await pool.run([2, 3, 4, 5].map(figure), () => {}, { minCostToLoad: 1000 });
        expect(pool.size).toBe(2);
        // the same above the limit (30 still waiting when the second worker asks, ≥ 25): both take figures
        await pool.run([6, 7, 8, 9].map(figure), () => {}, { minCostToLoad: 25 });
      } finally {
        await pool.close();
      }
    });
    const [first, few, many] = workersByBatch(events);
    expect(first).toEqual([0]);
    expect(few).toEqual([0, 0, 0, 0]);
    expect(new Set(many)).toEqual(new Set([0, 1]));
  });

  it(
    'figuresOnPool: the worker without the renderer writes the PNGs of the figures left to the holder, the same bytes',
    { timeout: 600_000 },
    async () => {
      const pool = new WorkerPool(2);
      const figures = [1, 2, 3].map((i) => ({ ...figure(i).figure, title: `f${i}`, caption: '' }));
      const there = mkdtempSync(path.join(os.tmpdir(), 'sm-fig-'));
      let paths: string[] = [];
      const events = await recordTimeline(async () => {
        try {
          await pool.run([figure(0)], () => {}); // worker 0 loads the renderer
          pool.warm(); // worker 1 does not
          paths = await figuresOnPool(pool)(there, figures);
        } finally {
          await pool.close();
        }
      });
      const starts = events.filter((e) => e.ev === 'task-start').slice(1);
      // every figure on the holder (three small ones, far below the limit); the PNG of the first figure done at least
      // goes to the other worker, added while the holder renders the second
      expect(starts.filter((e) => e.kind === 'figure').map((e) => e.worker)).toEqual([0, 0, 0]);
      expect(starts.filter((e) => e.kind === 'raster').length).toBe(3);
      expect(starts.some((e) => e.kind === 'raster' && e.worker === 1)).toBe(true);
      const here = mkdtempSync(path.join(os.tmpdir(), 'sm-fig-'));
      const expected: string[] = [];
      for (const f of figures) expected.push(...(await writeFigureFiles(here, f)));
      expect(paths).toEqual(expected);
      for (const f of paths) expect(readFileSync(path.join(there, f)).equals(readFileSync(path.join(here, f))), f).toBe(true);
    },
  );
});

describe('the transient figure drawn ahead (comparePool drawAhead)', () => {
  it(
    'is drawn while the cells simulate, once, and the report is the one this thread writes, byte for byte',
    {
      timeout: 600_000,
    },
    async () => {
      const config = reportComparison({
        lambdas: [0.5],
        ns: [10, 50],
        jobs: 2_000,
        replications: 2,
        seed: 2,
        trajectory: SHORT_TRAJECTORY,
      });
      const meta = testMeta();
      const there = mkdtempSync(path.join(os.tmpdir(), 'sm-report-'));
      const pool = new WorkerPool(2);
      let files: string[] = [];
      const events = await recordTimeline(async () => {
        try {
          const o = {
            dir: path.join(there, 'cells'),
            settings: { test: 'ahead' },
            fresh: true,
            cmd: new Command('compare'),
            out: there,
            pool,
          };
          const ran = await runComparisonOnPool(config, o);
          if (!('result' in ran)) throw new Error('expected a result');
          files = await writeComparisonReport(there, ran.result, meta, { writeFigures: figuresOnPool(pool) });
        } finally {
          await pool.close();
        }
      });
      const here = mkdtempSync(path.join(os.tmpdir(), 'sm-report-'));
      expect(files).toEqual(await writeComparisonReport(here, runComparison(config), meta));
      const figureFiles = files.filter((f) => f.startsWith('figures/'));
      expect(figureFiles).toContain('figures/transient.svg');
      for (const f of figureFiles) expect(readFileSync(path.join(there, f)).equals(readFileSync(path.join(here, f))), f).toBe(true);
      // drawn in the simulation batch (before its end), and not again in the report's: one drawing per figure
      const firstEnd = events.findIndex((e) => e.ev === 'pool-end');
      const drawings = events.filter((e) => e.ev === 'task-start' && e.kind === 'figure');
      expect(drawings.filter((e) => events.indexOf(e) < firstEnd).map((e) => e.key)).toEqual(['figure-ahead:transient']);
      expect(drawings.length).toBe(figureFiles.filter((f) => f.endsWith('.svg')).length);
    },
  );
});

describe('the order of a batch (pool.ts rank)', () => {
  it("a trajectory's replications before a costlier cell's, and a figure drawn ahead of its report last of all", async () => {
    const model = parseModel({ lambda: 0.7, d: 2 });
    const cell = simulationTask(3, 'cell', model, { n: 20, jobs: 4_000, replications: 3, warmupTime: 5 });
    const transient = trajectoryTask(3, 'transient', model, { n: 20, times: [0, 1, 2], replications: 3, maxLevel: 4 }, 2);
    // as comparePool's drawAhead asks for it: an SVG alone, written nowhere
    const ahead = {
      key: 'ahead',
      kind: 'figure' as const,
      outDir: '',
      figure: {
        name: 'ahead',
        spec: { data: { values: [{ x: 0, y: 1 }] }, mark: 'point', encoding: { x: { field: 'x', type: 'quantitative' } } } as never,
        rows: [],
      },
      svgOnly: true,
      cost: 1,
    };
    // the cell costs more (largest first would take it first), and is given first; the figure before both
    expect(cell.cost).toBeGreaterThan(transient.cost!);
    const pool = new WorkerPool(1);
    const events = await recordTimeline(async () => {
      try {
        await pool.run<string>([ahead, cell, transient], () => {});
      } finally {
        await pool.close();
      }
    });
    const kinds = events.filter((e) => e.ev === 'task-start').map((e) => e.kind);
    // the transient's replications first (the figure drawn ahead waits for them), the figure when nothing else waits
    expect(kinds).toEqual([...Array(3).fill('trajectory-replications'), ...Array(3).fill('replications'), 'figure']);
  });
});

describe('preloadWhenIdle', () => {
  it('has the worker that idles first load the renderer, not the last one as the batch ends', { timeout: 600_000 }, async () => {
    const model = parseModel({ lambda: 0.7, d: 2 });
    // one replication each (a 'replications' task is not split further)
    const sim = (key: number, jobs: number): ReplicationsTask<number> => ({
      key,
      kind: 'replications',
      model,
      options: { n: 20, jobs, replications: 2, seed: key, warmupTime: 5 },
      first: 0,
      count: 1,
      cost: jobs,
    });
    const pool = new WorkerPool(2);
    const events = await recordTimeline(async () => {
      try {
        // two simulations: the worker that finishes first idles while the other runs
        await pool.run([sim(1, 300_000), sim(2, 500)], () => {}, { preloadWhenIdle: 'renderer' });
      } finally {
        await pool.close();
      }
    });
    const preloads = events.filter((e) => e.ev === 'preload');
    // the worker that finished first (which depends on start-up as much as on the two lengths), and it alone
    const firstEnd = events.find((e) => e.ev === 'task-end')!;
    expect(preloads.map((e) => e.worker)).toEqual([firstEnd.worker]);
  });

  it(
    'with tasks still waiting, the first worker to finish one loads the renderer then and takes none meanwhile',
    {
      timeout: 600_000,
    },
    async () => {
      const model = parseModel({ lambda: 0.7, d: 2 });
      const sim = (key: number): ReplicationsTask<number> => ({
        key,
        kind: 'replications',
        model,
        options: { n: 20, jobs: 20_000, replications: 2, seed: key, warmupTime: 5 },
        first: 0,
        count: 1,
        cost: 20_000,
      });
      const pool = new WorkerPool(2);
      const keys: number[] = [];
      const events = await recordTimeline(async () => {
        try {
          await pool.run([1, 2, 3, 4, 5, 6, 7, 8].map(sim), (key) => keys.push(key), { preloadWhenIdle: 'renderer' });
        } finally {
          await pool.close();
        }
      });
      expect(keys.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const at = (e: TimelineEvent) => events.indexOf(e);
      const preloads = events.filter((e) => e.ev === 'preload');
      const firstEnd = events.find((e) => e.ev === 'task-end')!;
      // one worker loads it, the first to finish a task, while tasks still wait (a task starts after its preload)
      expect(preloads.map((e) => e.worker)).toEqual([firstEnd.worker]);
      const starts = events.filter((e) => e.ev === 'task-start');
      expect(at(starts[starts.length - 1])).toBeGreaterThan(at(preloads[0]));
      // it takes no task until its load ends (the batch may end first: the others ran what was left)
      const end = events.find((e) => e.ev === 'preload-end' && e.worker === preloads[0].worker);
      const endAt = end === undefined ? Number.POSITIVE_INFINITY : at(end);
      const during = starts.filter((e) => e.worker === preloads[0].worker && at(e) > at(preloads[0]) && at(e) < endAt);
      expect(during).toEqual([]);
    },
  );
});

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
  });
});

describe('confirmatory reruns on the pool', () => {
  const settings = { test: 'pool' };
  const config: ComparisonConfig = { ...base, lambdas: [0.9] };
  const cmd = new Command('compare');
  /** A store whose first run of d2-lambda0.9-n50 is off by far more than its CI (1 + 20 half-widths, whatever the seed): Holm rejects it, so it is rerun. */
  async function doctoredRun(threads: number) {
    const out = mkdtempSync(path.join(os.tmpdir(), 'sm-pool-'));
    const dir = path.join(out, 'cells');
    const o = { dir, settings, fresh: false, threads, cmd, out };
    await runComparisonOnPool(config, o);
    const store = new CellStore<{ key: string; seed: number; simulation: { meanResponseTime: { mean: number; halfWidth: number } } }>(dir);
    const key = 'd2-lambda0.9-n50';
    const first = store.get(key, settings)!;
    const e = first.simulation.meanResponseTime;
    store.put(key, settings, {
      ...first,
      simulation: { ...first.simulation, meanResponseTime: { ...e, mean: e.mean + 1 + 20 * e.halfWidth } },
    });
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
  });
});
