import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { DEFAULT_BATCHES, MIN_BATCH_JOBS, replayBatchCount, simulateReplay } from '../../src/sim/replay.ts';
import { MIN_LAG1_BATCHES } from '../../src/stats/index.ts';
import { runCli } from './runCli.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'replay-'));
const rest = ' -1'.repeat(14);
// Hand-made SWF: job, submit, wait, run time, then 14 fields −1. The recorded waits (0, 6, 0) are the original machine's.
const swf = path.join(dir, 'hand.swf');
writeFileSync(swf, `; hand-made\n1 0 0 10${rest}\n2 4 6 3${rest}\n3 30 0 2${rest}\n`);

// 120 jobs, one every 10 s, run times 1..9 s (M/D-like, light load): long enough for 2 batches of 60 jobs
const long = path.join(dir, 'long.swf');
writeFileSync(long, Array.from({ length: 120 }, (_, i) => `${i + 1} ${10 * i} 0 ${1 + ((i * 7) % 9)}${rest}`).join('\n') + '\n');
// 30 and 300 jobs, one every 2 s, run times 1..5 s
const jobsSwf = (count: number) => {
  const file = path.join(dir, `jobs${count}.swf`);
  writeFileSync(file, Array.from({ length: count }, (_, i) => `${i + 1} ${2 * i} 0 ${1 + ((i * 3) % 5)}${rest}`).join('\n') + '\n');
  return file;
};

const csvRows = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));

describe('supermarket replay', () => {
  it('one job of size 0 is "1 job of size 0 left out" (it said "1 jobs"), two are "2 jobs"', async () => {
    const zero = (count: number) => {
      const file = path.join(dir, `zero${count}.swf`);
      writeFileSync(file, Array.from({ length: 5 }, (_, i) => `${i + 1} ${3 * i} 0 ${i < count ? 0 : 2}${rest}`).join('\n') + '\n');
      return file;
    };
    const one = await runCli(['replay', zero(1), '--n', '1', '--no-rescale']);
    expect(one.status, one.stderr).toBe(0);
    expect(one.stdout).toContain('(1 job of size 0 left out: T/S undefined)');
    expect((await runCli(['replay', zero(2), '--n', '1', '--no-rescale'])).stdout).toContain('(2 jobs of size 0 left out: T/S undefined)');
  });

  it('replay hand.swf --n 1 --no-rescale (FIFO) gives arrivals 0, 4, 30, responses 10, 9, 2, mean 7.0; the recorded wait is ignored', async () => {
    const csv = path.join(dir, 'jobs.csv');
    const r = await runCli(['replay', swf, '--n', '1', '--no-rescale', '--per-job', csv, '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.meanResponseTime.mean).toBe(7);
    // 3 jobs are too few for an interval (batch means need batches of ≥ 50 jobs): the means alone, and why
    expect(out.meanResponseTime).toEqual({ mean: 7 });
    expect(out.batches).toBeNull();
    expect(out.notes).toEqual([
      expect.stringMatching(/^too few jobs for an interval: 3 measured jobs make fewer than 2 batches of ≥ 50 jobs/),
    ]);
    expect(out.jobs).toBe(3);
    expect(out.replay.rescaled).toBe(false);
    // E[Q] over the window [0, 30]: one job on [0, 4], two on [4, 10], one on [10, 13]: (4 + 12 + 3)/30.
    expect(out.meanQueueLength.mean).toBeCloseTo(19 / 30, 12);
    const rows = csvRows(csv);
    // FIFO reads no prediction; every row names its unit, the trace's own seconds (--no-rescale)
    expect(rows[0]).toEqual(['job', 'arrival', 'size', 'server', 'start', 'departure', 'response', 'timeUnit']);
    expect(rows.slice(1)).toEqual([
      ['1', '0', '10', '1', '0', '10', '10', 'seconds'],
      ['2', '4', '3', '1', '10', '13', '9', 'seconds'],
      ['3', '30', '2', '1', '30', '32', '2', 'seconds'],
    ]);
    expect(out.perJob).toEqual({ file: csv, jobs: 3, timeUnit: 'seconds' });
  });

  it('replay notes each percentile interval open at an end, as simulate does (text "note:" lines, JSON notes), and only those', async () => {
    // 120 jobs in 2 batches of 60: each batch's fraction ≤ the pooled p99 is near 1 and t_{0.975,1} = 12.7, so its upper end is open
    const json = await runCli(['replay', long, '--n', '1', '--no-rescale', '--batches', '2', '--json']);
    expect(json.status, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout);
    const open = (['p50', 'p95', 'p99'] as const).filter((k) => out.responseTimePercentiles[k].ci95Infinite === true);
    expect(open.length).toBeGreaterThan(0);
    // the explanation the open ends share, once (each note repeated it), in batch means' words
    expect(out.notes.filter((n: string) => n.startsWith('percentile intervals open at an end: '))).toEqual([
      expect.stringMatching(/the 2 batches' fractions .*t_\{0\.975,1\} = 12\.7.* more batches narrow it/),
    ]);
    // and one note of the few batches: no independence check, the t's 1 degree of freedom (lag1 no number)
    expect(out.notes).toHaveLength(open.length + 2);
    expect(out.notes.at(-1)).toMatch(
      /^2 batch means: too few batches to check independence .*Student t with 1 degree of freedom \(t_\{0\.975,1\} = 12\.7\)$/,
    );
    expect(out.meanResponseTime.lag1).toBeNull();
    for (const k of open) {
      const note = out.notes.find((n: string) => n.startsWith(`percentile intervals: ${k} has no upper end (∞)`));
      // in batch means' words: the 2 batches (were "sections", the replications' word)
      expect(note).toMatch(/the 2 batches' fractions .* \(why: percentile intervals open at an end\)$/);
      expect(note).not.toMatch(/section/);
    }
    const text = await runCli(['replay', long, '--n', '1', '--no-rescale', '--batches', '2']);
    expect(text.status, text.stderr).toBe(0);
    for (const k of open) {
      expect(text.stdout).toMatch(new RegExp(`T ${k} \\(pooled\\) +\\d+\\.\\d+ +\\[\\d+\\.\\d+, ∞\\]`));
      expect(text.stdout).toContain(`  note: percentile intervals: ${k} has no upper end (∞)`);
    }
  });

  it('replay --per-job under SPJF with drawn predictions writes them (uniform:0.5: Y within [S/2, 3S/2]); the column was empty (F7)', async () => {
    const csv = path.join(dir, 'spjf.csv');
    const r = await runCli([
      'replay',
      swf,
      '--n',
      '1',
      '--no-rescale',
      '--discipline',
      'spjf',
      '--prediction',
      'uniform:0.5',
      '--per-job',
      csv,
    ]);
    expect(r.status).toBe(0);
    const rows = csvRows(csv);
    expect(rows[0]).toEqual(['job', 'arrival', 'size', 'prediction', 'server', 'start', 'departure', 'response', 'timeUnit']);
    expect(rows.slice(1).map((x) => x[2])).toEqual(['10', '3', '2']);
    for (const [, , size, prediction] of rows.slice(1).map((x) => x.map(Number))) {
      expect(prediction).toBeGreaterThanOrEqual(size / 2);
      expect(prediction).toBeLessThanOrEqual((3 * size) / 2);
      expect(prediction).not.toBe(size);
    }
  });

  it('replay hand.swf --per-server gives the busy fraction 13/30 and 3 jobs on the one server', async () => {
    const r = await runCli(['replay', swf, '--n', '1', '--no-rescale', '--per-server', '--json']);
    const out = JSON.parse(r.stdout);
    // as simulate's: what the rows are, in the window's unit, and the rows
    expect(out.perServer.about).toMatch(/^one row per server, over its measurement window of 30 seconds: busy = fraction of the window/);
    expect(out.perServer.timeUnit).toBe('seconds');
    const servers = out.perServer.servers;
    expect(servers).toHaveLength(1);
    expect(servers[0].busyFraction).toBeCloseTo(13 / 30, 12);
    expect(servers[0].jobsServed).toBe(3);
    expect(servers[0].meanQueueLength).toBeCloseTo(21 / 30, 12); // Little: (10 + 9 + 2)/30
  });

  it('replay hand.swf rescaled to ρ = 0.5 on n = 1 divides sizes by their mean 5 and scales the clock to λ = 0.5 (responses 2, 1.8, 0.4 in mean sizes)', async () => {
    // mean gap 15 s; time scale 1/(ρ·n·15) per s = 1/7.5: arrivals 0, 0.5333, 4; sizes 2, 0.6, 0.4.
    // job 2 waits until 2: T = 2 − 0.5333 + 0.6 = 2.0667; mean (2 + 2.0667 + 0.4)/3.
    const r = await runCli(['replay', swf, '--n', '1', '--load', '0.5', '--json']);
    const out = JSON.parse(r.stdout);
    expect(out.replay.rescaled).toBe(true);
    expect(out.replay.meanSize).toBe(5);
    expect(out.meanResponseTime.mean).toBeCloseTo((2 + (2 - 4 / 7.5 + 0.6) + 0.4) / 3, 12);
  });

  it('replay --jobs-from 2 --jobs-to 3 replays jobs 2 and 3 only', async () => {
    const r = await runCli(['replay', swf, '--n', '1', '--no-rescale', '--jobs-from', '2', '--jobs-to', '3', '--json']);
    const out = JSON.parse(r.stdout);
    expect(out.jobs).toBe(2);
    expect(out.meanResponseTime.mean).toBe((3 + 2) / 2);
  });

  it('replay rejects bad ranges and unknown files with one line', async () => {
    for (const [args, pattern] of [
      [['--jobs-from', '3', '--jobs-to', '2'], /--jobs-from 3 is after --jobs-to 2/],
      [['--jobs-to', '9'], /--jobs-to 9: the trace has 3 jobs/],
      [['--load', '0.5'], /--load rescales the trace; it cannot be combined with --no-rescale/],
    ] as const) {
      const r = await runCli(['replay', swf, '--n', '1', '--no-rescale', ...args]);
      expect(r.status).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
    }
  });

  it('a finite trace at offered load ≥ 1 runs, with a warning (it was refused): --no-rescale at load 10, --load 1.5', async () => {
    const heavy = path.join(dir, 'heavy.swf');
    writeFileSync(heavy, `; load 10 on one server\n1 0 0 10${rest}\n2 1 0 10${rest}\n3 2 0 10${rest}\n`);
    const r = await runCli(['replay', heavy, '--n', '1', '--no-rescale', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^warning: offered load 10\.00 ≥ 1 on n = 1 servers: the queues grow over the trace/);
    const out = JSON.parse(r.stdout);
    expect(out.meanResponseTime.mean).toBeCloseTo((10 + 19 + 28) / 3, 9); // FIFO: 0→10, 10→20, 20→30
    expect(out.warnings).toHaveLength(1);
    const t = await runCli(['replay', heavy, '--n', '1', '--load', '1.5']);
    expect(t.status, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/warning: offered load 1\.500 ≥ 1/);
  });

  it('names the trace’s offered load and the load arriving in the window apart; E[Q] is the time average, Little’s per server is not', async () => {
    // arrivals 0, 1, 1; sizes 1, 1, 2; FIFO on one server: T = 1, 1, 3; the window is [0, 1]
    const tiny = path.join(dir, 'tiny.swf');
    writeFileSync(tiny, `1 0 0 1${rest}\n2 1 0 1${rest}\n3 1 0 2${rest}\n`);
    const args = ['replay', tiny, '--n', '1', '--d', '1', '--no-rescale', '--per-server'];
    const j = await runCli([...args, '--json']);
    expect(j.status, j.stderr).toBe(0);
    const out = JSON.parse(j.stdout);
    expect(out.window).toEqual([0, 1]);
    expect(out.replay.originalLoad).toBeCloseTo(8 / 3, 12); // λ = 2 gaps / 1 s, E[S] = 4/3
    expect(out.windowLoad).toBe(4); // Σ S / (n · window) = 4 / 1
    expect(out.offeredLoad).toBeUndefined();
    expect(out.meanQueueLength.mean).toBe(1); // one job in the system throughout [0, 1)
    expect(out.perServer.servers[0].meanQueueLength).toBe(5); // Little: Σ T / window = 5, counting time after t = 1
    const t = await runCli(args);
    expect(t.status, t.stderr).toBe(0);
    expect(t.stdout).toContain("trace's offered load λE[S] 2.667 on 1 servers");
    expect(t.stdout).toContain('load arriving in the window Σ S / (n · window) 4.0000');
    expect(t.stdout).toMatch(/E\[Q\] per server +1\.0000 .*\(time average over the window\)/);
    expect(t.stdout).not.toMatch(/offered load in the window/);
  });
});

describe('replay text: the window in six significant digits', () => {
  // a fresh-user trial: `replay KTH… --n 5 --jobs-to 30` printed "window [0, 6.444444444444445]" (and 355.93750000000006
  // on the whole trace): float noise in a line meant to be read; the JSON keeps the full value
  it('two jobs on 3 servers at load 0.3: the window [0, 10/9] reads [0, 1.11111], the JSON 1.1111111111111112', async () => {
    const file = path.join(dir, 'ninths.swf');
    writeFileSync(file, `; ninths\n1 0 0 1${rest}\n2 29 0 8${rest}\n`);
    const t = await runCli(['replay', file, '--n', '3', '--load', '0.3']);
    expect(t.status, t.stderr).toBe(0);
    expect(t.stdout).toContain('window [0, 1.11111] (time units = mean sizes)');
    const j = await runCli(['replay', file, '--n', '3', '--load', '0.3', '--json']);
    expect(JSON.parse(j.stdout).window[1]).toBeCloseTo(10 / 9, 12);
  }, 600_000);
});

describe('replay: one name (batch means) and one rule for its batches (sim/replay.ts replayBatchCount)', () => {
  // fresh-user trial: 30 jobs were cut into 25 batches of ~1 job (neither normal nor independent), and the output called
  // them batches, sections (the percentile notes) and replications (each estimate's unit count) in turn
  it('the rule: batches of ≥ MIN_BATCH_JOBS jobs, at most DEFAULT_BATCHES; none below 2 batches; a requested count is checked', () => {
    expect(MIN_BATCH_JOBS).toBe(50);
    expect(DEFAULT_BATCHES).toBe(10);
    expect(replayBatchCount(30)).toBeNull();
    expect(replayBatchCount(99)).toBeNull();
    expect(replayBatchCount(100)).toBe(2);
    expect(replayBatchCount(300)).toBe(6);
    expect(replayBatchCount(1e6)).toBe(10);
    expect(replayBatchCount(300, 6)).toBe(6);
    expect(() => replayBatchCount(300, 25)).toThrow(/--batches 25 over 300 measured jobs makes batches of 12 jobs; .* give --batches ≤ 6/);
    expect(() => replayBatchCount(30, 2)).toThrow(/too few jobs for an interval/);
  });

  it('30 jobs: the means alone and "too few jobs for an interval" (text and JSON); --batches 25 over 300 jobs is refused', async () => {
    const small = jobsSwf(30);
    const text = await runCli(['replay', small, '--n', '1', '--no-rescale']);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/no batches \(too few jobs for an interval\)/);
    expect(text.stdout).toMatch(/E\[T\] response time +\d+\.\d{4}\n/); // no interval after the mean
    expect(text.stdout).toContain('note: too few jobs for an interval: 30 measured jobs');
    const json = JSON.parse((await runCli(['replay', small, '--n', '1', '--no-rescale', '--json'])).stdout);
    expect(Object.keys(json.meanResponseTime)).toEqual(['mean']);
    expect(Object.keys(json.responseTimePercentiles.p95)).toEqual(['mean']);
    expect(json.batches).toBeNull();
    const refused = await runCli(['replay', jobsSwf(300), '--n', '1', '--no-rescale', '--batches', '25']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /^supermarket: error: --batches 25 over 300 measured jobs makes batches of 12 jobs; .*≥ 50 jobs per batch: give --batches ≤ 6\n$/,
    );
  });

  it('batch means of E[T] with lag-1 autocorrelation > 0.2 give a warning (text and JSON), as simulate warns', async () => {
    // 600 jobs on one server, sizes growing along the trace: E[T] rises batch after batch, so its batch means correlate
    const trend = path.join(dir, 'trend.swf');
    writeFileSync(trend, Array.from({ length: 600 }, (_, i) => `${i + 1} ${10 * i} 0 ${1 + Math.floor(i / 60)}${rest}`).join('\n') + '\n');
    const out = JSON.parse((await runCli(['replay', trend, '--n', '1', '--no-rescale', '--json'])).stdout);
    expect(out.batches).toBe(10);
    expect(out.meanResponseTime.lag1).toBeGreaterThan(0.2);
    expect(out.warnings).toEqual([
      expect.stringMatching(/^the batch means of E\[T\] have lag-1 autocorrelation 0\.\d\d > 0\.2: batches of ~60 jobs/),
    ]);
    const text = await runCli(['replay', trend, '--n', '1', '--no-rescale']);
    expect(text.stdout).toMatch(/warning: the batch means of E\[T\] have lag-1 autocorrelation/);
  });

  it('300 jobs: 6 batches, each estimate counts its batches as `batches` (no `replications`), the text says batch means', async () => {
    const file = jobsSwf(300);
    const json = JSON.parse((await runCli(['replay', file, '--n', '1', '--no-rescale', '--json'])).stdout);
    expect(json.batches).toBe(6);
    for (const e of [json.meanResponseTime, json.meanQueueLength, json.responseTimePercentiles.p50, json.tail[1]]) {
      expect(e.batches).toBe(6);
      expect(e).not.toHaveProperty('replications');
    }
    expect(JSON.stringify(json)).not.toMatch(/replications|section/);
    const text = await runCli(['replay', file, '--n', '1', '--no-rescale']);
    expect(text.stdout).toContain('batch means over 6 batches of ~50 jobs');
    expect(text.stdout).not.toMatch(/replications|section/);
  });
});

// The last trial: simulateReplay returned 2 stand-in batch intervals beside `noInterval` (each printer had to drop
// them), a lag-1 autocorrelation from 3 batch means, and provenance naming exponential sizes and arrivals the trace gave.
describe('replay honesty at the source (sim/replay.ts)', () => {
  const model = parseModel({ lambda: 0.5, d: 1, selection: 'random' });
  const trace = (count: number) => ({
    arrivals: Float64Array.from({ length: count }, (_, i) => 2 * i),
    sizes: Float64Array.from({ length: count }, (_, i) => 1 + ((i * 3) % 5)),
  });

  it('too few jobs: no interval in the result (ci95, halfWidth, lag1 NaN), batches null, the reason the one note', () => {
    const r = simulateReplay(model, trace(30), { n: 1 });
    expect(r.noInterval).toMatch(/^too few jobs for an interval/);
    for (const e of [r.meanResponseTime, r.meanSlowdown, r.meanQueueLength, r.meanWorkload, r.tail[1], r.responseTimePercentiles.p95]) {
      expect(Number.isFinite(e.mean)).toBe(true);
      expect([...e.ci95, e.halfWidth, e.lag1].every(Number.isNaN)).toBe(true);
      expect(e.replications).toBe(1);
    }
    expect(r.batches).toBeNull();
    expect(r.notes).toEqual([r.noInterval]);
    expect(r.provenance.method).toMatch(/no interval \(too few jobs\)$/);
  });

  it('few batches: lag1 no number below MIN_LAG1_BATCHES, a note with the degrees of freedom; from 10 on a number', () => {
    const few = simulateReplay(model, trace(330), { n: 1, warmupJobs: 30 }); // 300 measured jobs: 6 batches
    expect(few.batches).toBe(6);
    expect(Number.isNaN(few.meanResponseTime.lag1)).toBe(true);
    expect(few.notes).toContainEqual(
      expect.stringMatching(/^6 batch means: too few batches to check independence.*5 degrees of freedom \(t_\{0\.975,5\} = 2\.57\)$/),
    );
    const many = simulateReplay(model, trace(600), { n: 1 });
    expect(many.batches).toBe(MIN_LAG1_BATCHES);
    expect(Number.isFinite(many.meanResponseTime.lag1)).toBe(true);
    expect(many.notes.some((n) => /too few batches/.test(n))).toBe(false);
  });

  it('provenance names the trace for the sizes and arrivals (and the predictions it carries), not the stand-in laws', async () => {
    const r = simulateReplay(model, trace(120), { n: 1 });
    expect(r.provenance.model).toMatchObject({ service: 'trace', arrivals: 'trace', prediction: model.prediction });
    const withY = simulateReplay(model, { ...trace(120), predictions: Float64Array.from({ length: 120 }, () => 1) }, { n: 1 });
    expect(withY.provenance.model.prediction).toBe('trace');
    const json = JSON.parse((await runCli(['replay', long, '--n', '1', '--no-rescale', '--json'])).stdout);
    expect(json.provenance.model.service).toBe('trace');
    expect(json.provenance.model.arrivals).toBe('trace');
    expect(JSON.stringify(json.provenance)).not.toMatch(/exponential/);
  });
  it('--speeds, --fractions and --server-sampling are refused in one line (replay read none of them: identical servers)', async () => {
    // replay offered them and served the trace on identical servers, printing the homogeneous E[T] as the answer
    for (const flags of [
      ['--speeds', '1,2'],
      ['--speeds', '1,2', '--fractions', '0.5,0.5'],
      ['--server-sampling', 'speed'],
    ]) {
      const r = await runCli(['replay', long, '--n', '4', '--d', '2', ...flags]);
      expect(r.status, flags.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^supermarket: error: unknown option '--(speeds|server-sampling)'/),
      ]);
    }
  });
  it("text rows follow simulate's one rule: decimals from two significant digits of h for x and both ends (it printed 4 and 3)", async () => {
    const file = jobsSwf(300);
    const text = (await runCli(['replay', file, '--n', '2', '--d', '2'])).stdout;
    const json = JSON.parse((await runCli(['replay', file, '--n', '2', '--d', '2', '--json'])).stdout);
    for (const [label, e] of [
      ['E[T] response time', json.meanResponseTime],
      ['E[Q] per server', json.meanQueueLength],
      ['T p50 (pooled)', json.responseTimePercentiles.p50],
    ] as const) {
      const h = (e.ci95[1] - e.ci95[0]) / 2;
      const k = Math.max(0, 1 - Math.floor(Math.log10(h)));
      const line = text.split('\n').find((l) => l.trimStart().startsWith(label))!;
      const numbers = line
        .slice(line.indexOf(label) + label.length)
        .match(/-?\d+(?:\.\d+)?/g)!
        .slice(0, 3);
      expect(
        numbers.map((x) => (x.includes('.') ? x.split('.')[1].length : 0)),
        line,
      ).toEqual([k, k, k]);
    }
  });
});
