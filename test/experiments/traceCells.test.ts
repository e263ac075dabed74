import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceCellRunner, expandGrid, parseExperiment, type CellOutcome } from '../../src/experiments/index.ts';
import { parseModel } from '../../src/model/index.ts';
import { simulateReplay } from '../../src/sim/index.ts';
import { loadTrace, traceWorkload, type TraceJob } from '../../src/traces/index.ts';

/** An SWF file (18 fields per job; run time = requested time = size, status 1) in a fresh temporary folder. */
function swf(jobs: readonly [number, number][]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trace-'));
  const file = path.join(dir, 'tiny.swf');
  writeFileSync(
    file,
    `; tiny test trace\n${jobs.map(([t, s], i) => `${i + 1} ${t} 0 ${s} 1 -1 -1 1 ${s} -1 1 1 1 1 1 1 -1 -1`).join('\n')}\n`,
  );
  return file;
}

/** The one cell of a tiny experiment over `file` with `fields`, replayed: its outcome or why it was skipped. */
function replayOrSkip(file: string, fields: Record<string, unknown>): CellOutcome | { skipReason: string } {
  const spec = parseExperiment({
    name: 'tiny',
    d: [2],
    jobs: 1,
    replications: 2,
    warmup: 0,
    service: [{ trace: path.basename(file) }],
    ...fields,
  });
  const cells = expandGrid(spec);
  expect(cells).toHaveLength(1);
  return new TraceCellRunner(path.dirname(file)).run(cells[0]);
}

function replay(file: string, fields: Record<string, unknown>): CellOutcome {
  const r = replayOrSkip(file, fields);
  if ('skipReason' in r) throw new Error(r.skipReason);
  return r;
}

describe('trace cells replay under the full model of the experiment file', () => {
  // 80 blocks of three jobs (arrival 0 size 10, arrival 1 size 1, arrival 2.5 size 1), 1000 s apart. The replay uses the
  // second half (40 blocks: 120 jobs, enough for replay's batch means), sizes over their mean 4, λ = 0.005 per server on n = 2: job 2 finds server A busy and
  // B empty, job 3 finds A busy and B empty again. With d = 2 of n = 2 sampled without replacement JSQ sees both
  // servers, so every job is served at once: T = S and E[T] = mean size = 1 exactly (the warm-up is four blocks).
  const threeJobBlocks = (count: number) =>
    Array.from(
      { length: count },
      (_, b) =>
        [
          [1000 * b, 10],
          [1000 * b + 1, 1],
          [1000 * b + 2.5, 1],
        ] as [number, number][],
    ).flat();
  const blocks = swf(threeJobBlocks(80));
  const jsq = { lambda: [0.005], n: [2], selections: ['jsq'], disciplines: ['fifo'], prediction: ['exact'] };

  it('a trace too short for batch means is skipped with the reason, not shown with a stand-in interval', () => {
    // 40 blocks: the replay measures 54 jobs, fewer than 2 batches of 50 (sim/replay.ts replayBatchCount)
    const r = replayOrSkip(swf(threeJobBlocks(40)), jsq);
    expect('skipReason' in r && r.skipReason).toMatch(/too few jobs for an interval: 54 measured jobs/);
  });

  it('"sampling": "without-replacement" reaches the replay: every job served at once, E[T] = 1', () => {
    const r = replay(blocks, { ...jsq, sampling: 'without-replacement' });
    expect(r.result.meanResponseTime.mean).toBeCloseTo(1, 12);
    expect(r.result.meanSlowdown!.mean).toBeCloseTo(1, 12);
    // with replacement both draws can be server A, and a job waits behind the size-10 job
    expect(replay(blocks, { ...jsq, sampling: 'with-replacement' }).result.meanResponseTime.mean).toBeGreaterThan(1.05);
  });

  it('"conventions": { "lpwWork" } reaches the replay: clip and static differ, each as in a library call', () => {
    // 400 jobs, deterministic pseudo-random gaps and sizes (LCG), replayed at λ = 0.9 on n = 4 servers with LPW(2)+FIFO
    let x = 12345;
    const u = () => ((x = (1103515245 * x + 12345) % 2 ** 31) + 0.5) / 2 ** 31;
    let t = 0;
    const file = swf(
      Array.from(
        { length: 400 },
        () => [(t += Math.round(-100 * Math.log(u()))), Math.max(1, Math.round(-300 * Math.log(u())))] as [number, number],
      ),
    );
    const lpw = (lpwWork: string) =>
      replay(file, { lambda: [0.9], n: [4], selections: ['lpw'], disciplines: ['fifo'], prediction: ['exact'], conventions: { lpwWork } });
    const clip = lpw('clip');
    const stat = lpw('static');
    expect(clip.result.meanResponseTime.mean).not.toBeCloseTo(stat.result.meanResponseTime.mean, 6);
    const jobs = loadTrace(file).jobs as readonly TraceJob[];
    const test = jobs.slice(Math.floor(jobs.length / 2));
    const workload = traceWorkload(test, {
      targetLoad: 0.9,
      servers: 4,
      rescale: 'sizes',
      predictions: Float64Array.from(test, (j) => j.size),
    });
    for (const [lpwWork, cell] of [
      ['clip', clip],
      ['static', stat],
    ] as const) {
      const model = parseModel({ lambda: 0.9, d: 2, selection: 'lpw', discipline: 'fifo', conventions: { lpwWork } });
      expect(cell.result.meanResponseTime.mean).toBe(simulateReplay(model, workload, { n: 4, seed: cell.cell.seed }).meanResponseTime.mean);
    }
  });
});
