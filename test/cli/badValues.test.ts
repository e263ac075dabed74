/**
 * Bad values found by the fresh-user passes: each gives one line on stderr, no stack trace, and the exit code of its
 * kind (README "Exit codes": 2 for every bad input, a bad flag value or a bad model alike; it was 1 for a flag value).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_COST, checkEventBudget } from '../../src/sim/budget.ts';
import { DEFAULT_START, simulationWarmup } from '../../src/meanfield/warmup.ts';
import { parseModel } from '../../src/model/model.ts';
import { runCli } from './runCli.ts';

async function expectOneLine(args: string[], status: number, pattern: RegExp): Promise<void> {
  const r = await runCli(args);
  const lines = r.stderr.trim().split('\n');
  expect(lines, `stderr of supermarket ${args.join(' ')}:\n${r.stderr}`).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.status, `exit code of supermarket ${args.join(' ')}`).toBe(status);
  expect(r.stdout).toBe('');
}

const SIM = ['simulate', '--lambda', '0.5', '--d', '2', '--n', '10'];

describe('seeds are read exactly as typed', () => {
  const cases: [string, string[], RegExp][] = [
    // Number('9007199254740993') is 9007199254740992: the seed must be refused, not used rounded (and named as typed)
    ['above 2^53 − 1', [...SIM, '--seed', '9007199254740993'], /integer ≤ 2\^53 − 1 = 9007199254740991 .*got "9007199254740993"/],
    ['a fraction that rounds to an integer', [...SIM, '--seed', '4503599627370496.5'], /integer ≥ 0, got "4503599627370496\.5"/],
    ['negative', [...SIM, '--seed', '-1'], /integer ≥ 0, got "-1"/],
    [
      'that is a fraction (model --compare)',
      ['model', 'models/jsq-d.json', '--compare', '--n', '10', '--seed', '1.5'],
      /integer ≥ 0, got "1\.5"/,
    ],
    ['above 2^53 − 1 (compare)', ['compare', '--seed', '1e16'], /integer ≤ 2\^53 − 1/],
    ['above 2^53 − 1 (replay)', ['replay', 'test/fixtures/none.swf', '--n', '2', '--seed', '9007199254740993'], /integer ≤ 2\^53 − 1/],
    ['above 2^31 − 1 (trace: the forest seed)', ['trace', 'test/fixtures/none.swf', '--seed', '2147483648'], /integer ≤ 2147483647/],
  ];
  for (const [what, args, pattern] of cases) {
    it(`supermarket ${args[0]} refuses a --seed ${what} with exit 2, as every bad flag value`, () => expectOneLine(args, 2, pattern));
  }

  it('supermarket simulate --seed 9007199254740991 (2^53 − 1) is accepted and used as typed', async () => {
    const r = await runCli([...SIM, '--jobs', '200', '--replications', '2', '--threads', '1', '--seed', '9007199254740991', '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).seeds.master).toBe(9007199254740991);
  });
});

describe('integer options name their own requirement', () => {
  it('supermarket replay --batches 1 says a confidence interval needs two batches, exit 2', () =>
    expectOneLine(
      ['replay', 'test/fixtures/none.swf', '--n', '2', '--batches', '1'],
      2,
      /--batches: expected an integer ≥ 2 \(a confidence interval needs two batches\)/,
    ));
  it('supermarket model --compare --replications 2.5 is refused as a non-integer, exit 2', () =>
    expectOneLine(['model', 'models/jsq-d.json', '--compare', '--n', '10', '--replications', '2.5'], 2, /integer ≥ 2 .*got "2\.5"/));
});

describe('every integer option is read by one parser: a fraction is a bad flag value, exit 2', () => {
  // --n 10.5 went through parseNumber to the model's own check while --jobs 2000.5 was refused by the parser
  it.each([
    ['simulate --n', [...SIM.slice(0, 5), '--n', '10.5'], /--n: expected an integer ≥ 1, got "10\.5"/],
    ['simulate --jobs', [...SIM, '--jobs', '2000.5'], /--jobs: expected an integer ≥ 1, got "2000\.5"/],
    ['simulate --d', ['simulate', '--lambda', '0.5', '--d', '1.5', '--n', '10'], /--d: expected an integer ≥ 1, got "1\.5"/],
    [
      'fixed-point --n',
      ['fixed-point', '--lambda', '0.5', '--d', '2', '--refined', '--n', '10.5'],
      /--n: expected an integer ≥ 1, got "10\.5"/,
    ],
    // a list read exactly too: 4503599627370496.5 is a double's 4503599627370496, an integer, as Number() reads it
    ['model --n (a list)', ['model', 'models/jsq-d.json', '--n', '10,4503599627370496.5'], /integer, got "4503599627370496\.5" in "10,/],
  ])('%s', (_, args, pattern) => expectOneLine(args, 2, pattern));
});

describe('a bad flag value found in the action is a bad flag value, not an internal error', () => {
  it('supermarket simulate --precision with --max-replications below --replications: one line, exit 2 (was 70)', () =>
    expectOneLine(
      [...SIM, '--precision', '0.01', '--max-replications', '3', '--replications', '5'],
      2,
      /--max-replications \(3\) must be ≥ the first 5 replications/,
    ));
});

describe('the event budget counts the d server samples of each arrival', () => {
  // 1e9 jobs, no warm-up: 2e9 events, 1e9 arrivals
  const run = { lambda: 1, n: 1, jobs: 1e9, replications: 1, warmupTime: 0 };
  it('checkEventBudget: at d ≤ 2 the work is the events (2e9 fits a budget of 2e9), as before samples were counted', () => {
    expect(checkEventBudget(run, 2e9)).toBe(2e9);
    expect(checkEventBudget({ ...run, d: 2 }, 2e9)).toBe(2e9);
    expect(checkEventBudget({ ...run, d: 1 }, 2e9)).toBe(2e9);
  });
  it('checkEventBudget: d = 12 adds (12 − 2) × 1e9 samples × SAMPLE_COST of work, refused against 2e9 + that − 1, accepted at equality', () => {
    const work = 2e9 + SAMPLE_COST * 10 * 1e9;
    expect(checkEventBudget({ ...run, d: 12 }, work)).toBe(2e9); // still returns events (the progress total)
    expect(() => checkEventBudget({ ...run, d: 12 }, work - 1)).toThrow(/1\.2e\+10 server samples \(d = 12 per arrival/);
  });
  it('supermarket simulate --d 100000 --n 100000 is refused at once in one line naming d and the samples, exit 2 (was run for hours)', async () => {
    // the samples d × arrivals of 5 replications of 10⁶ jobs after the warm-up of simulate's default start (auto, the
    // one rule at this n; it started empty until 2026-12-03), λn = 90000 arrivals per time unit
    const warm = simulationWarmup(parseModel({ lambda: 0.9, d: 100000 }), {
      start: DEFAULT_START,
      n: 100000,
      tolerance: 1e-3,
      cap: Number.POSITIVE_INFINITY,
    }).time;
    const samples = (100000 * 5 * (2 * 1e6 + 2 * 0.9 * 100000 * warm)) / 2;
    await expectOneLine(
      ['simulate', '--lambda', '0.9', '--d', '100000', '--n', '100000', '--no-progress'],
      2,
      new RegExp(
        `needs about .* events .* and ${samples.toExponential(1).replace('+', '\\+')} server samples \\(d = 100000 per arrival.*; lower d, the jobs`,
      ),
    );
  });
});

describe('more bad inputs of the fresh-user pass', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-bad-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const emptySwf = path.join(tmp, 'empty.swf');
  writeFileSync(emptySwf, '');
  const folderSwf = path.join(tmp, 'folder.swf');
  mkdirSync(folderSwf);
  const cases: [string, string[], number, RegExp][] = [
    // was "--jobs-from 1 is after --jobs-to 0"
    ['replay of an empty trace', ['replay', emptySwf, '--n', '2'], 2, /empty\.swf: no jobs left \(0 records skipped\)/],
    // was "cannot read : EISDIR (EISDIR)"
    ['replay of a folder', ['replay', folderSwf, '--n', '2'], 2, /folder\.swf is a folder, not a file/],
    ['trace of a folder', ['trace', folderSwf], 2, /folder\.swf is a folder, not a file/],
    // was "cannot read model file DIR: EISDIR: illegal operation on a directory, read", exit 2
    ['model of a folder', ['model', tmp], 2, /sm-bad-\w+ is a folder, not a file/],
    ['run of a folder', ['run', tmp], 2, /sm-bad-\w+ is a folder, not a file/],
    ['conjecture of a folder', ['conjecture', tmp], 2, /sm-bad-\w+ is a folder, not a file/],
    // was accepted: a ± 200 % target, met by the first replications
    ['--precision 2', [...SIM, '--precision', '2'], 2, /--precision: expected a relative half-width in \(0, 1\)/],
    ['--precision 1', [...SIM, '--precision', '1'], 2, /expected a relative half-width in \(0, 1\)/],
    // were "cannot read the file (EISDIR)", exit 2
    [
      'a folder as --service empirical:FILE',
      ['simulate', '--service', `empirical:${tmp}`, '--lambda', '0.5', '--d', '2', '--n', '10'],
      2,
      /^supermarket: error: service empirical:.*sm-bad-\w+: .*sm-bad-\w+ is a folder, not a file$/,
    ],
    [
      'a folder as ode --init FILE',
      ['ode', '--lambda', '0.9', '--d', '2', '--init', tmp, '--t-end', '5', '--dt', '1'],
      2,
      /^supermarket: error: --init .*sm-bad-\w+ is a folder, not a file$/,
    ],
    [
      'replay of a missing file',
      ['replay', path.join(tmp, 'none.swf'), '--n', '2'],
      2,
      /cannot open .*none\.swf: ENOENT \(no such file or directory\)/,
    ],
    // was a simulation, then "tInterval sample 0 is not finite: NaN"
    [
      'a λ so small the clock cannot resolve a service',
      ['simulate', '--lambda', '1e-20', '--d', '2', '--n', '10', '--jobs', '100'],
      2,
      /λn = 1\.00e-19 .* so low that the clock reaches about 1\.0e\+21 time units/,
    ],
  ];
  const handSwf = path.join(tmp, 'hand.swf');
  writeFileSync(handSwf, `1 0 0 10${' -1'.repeat(14)}\n2 4 6 3${' -1'.repeat(14)}\n3 30 0 2${' -1'.repeat(14)}\n`);
  // was "leaves -2 of 3 jobs to measure"
  cases.push([
    'more warm-up jobs than jobs',
    ['replay', handSwf, '--n', '1', '--warmup-jobs', '5'],
    2,
    /--warmup-jobs 5 leaves 0 of the 3 jobs replayed to measure/,
  ]);
  for (const [what, args, status, pattern] of cases) {
    it(`supermarket ${args[0]}: ${what} gives one line, exit ${status}`, () => expectOneLine(args, status, pattern));
  }
});

describe('runs that would not end are refused before they start', () => {
  it('supermarket model --compare --horizon 1e300 names the events and the limit, exit 2 (ran without end)', () =>
    expectOneLine(
      ['model', 'models/jsq-d.json', '--compare', '--n', '10', '--horizon', '1e300'],
      2,
      /--compare needs about 2\.00e302 events .* more than 2e\+10; lower the horizon/,
    ));
  it('supermarket ode --levels 1.5 is refused as a non-integer, exit 2 (was accepted)', () =>
    expectOneLine(['ode', '--lambda', '0.9', '--d', '2', '--t-end', '2', '--dt', '1', '--levels', '1.5'], 2, /integer ≥ 1, got "1\.5"/));
});

describe('--threads', () => {
  it.each([
    ['simulate', [...SIM, '--threads', '1e9']],
    ['compare', ['compare', '--threads', '300']],
    ['model --compare', ['model', 'models/jsq-d.json', '--compare', '--threads', '1000']],
  ])(
    '%s: more than MAX_THREADS workers is refused in one line naming shards (a worker per task would start 10^9 heaps)',
    async (_, args) => {
      await expectOneLine(args, 2, /at most 256 worker threads, got "\d+(e9)?".*--shard/);
    },
  );
});

describe('batches and arrival parameters out of range: one line, exit 2 (issue 19)', () => {
  it.each([
    ['--batch 0', ['--batch', '0'], /batch size K must be an integer ≥ 1, got 0/],
    // a size law is refused by name (was "must be a finite number")
    ['--batch geom:2 (spread)', ['--batch', 'geom:2'], /batch size law geom:2 needs batch dispatch whole: .* K must be fixed/],
    ['--batch geom:1', ['--batch', 'geom:1', '--batch-dispatch', 'whole'], /batch geom mean must be in \(1, 1000\]/],
    [
      '--batch pmf:0.5,0.4',
      ['--batch', 'pmf:0.5,0.4', '--batch-dispatch', 'whole'],
      /batch pmf entries must sum to 1 \(within 1e-9\), got 0.9/,
    ],
    ['--batch poisson:2', ['--batch', 'poisson:2'], /unknown batch size "poisson:2"; expected an integer K ≥ 1, geom:MEAN/],
    ['--batch 3 with d = 2 (spread needs d ≥ K)', ['--batch', '3'], /needs d ≥ K \(or use batch dispatch whole\)/],
    ['--batch-dispatch whole without a batch', ['--batch-dispatch', 'whole'], /has no effect with batch size 1/],
    ['--arrivals erlang:0', ['--arrivals', 'erlang:0'], /arrivals erlang k must be an integer in \[1, 1000\].*got 0/],
    // was a run of 1e8 draws per arrival (a hang)
    ['--arrivals erlang:100000000', ['--arrivals', 'erlang:100000000'], /integer in \[1, 1000\].*use det.*got 100000000/],
    ['--arrivals hyperexp:1', ['--arrivals', 'hyperexp:1'], /scv must be in \(1, 1e6\].*got 1$/],
    // was silently Poisson at twice the rate (p₂ rounded to 0)
    ['--arrivals hyperexp:1e300', ['--arrivals', 'hyperexp:1e300'], /scv must be in \(1, 1e6\]/],
    ['--arrivals hyperexp:inf', ['--arrivals', 'hyperexp:inf'], /scv must be a finite number, got "inf"/],
    ['--arrivals mmpp:1,2,0,1', ['--arrivals', 'mmpp:1,2,0,1'], /switching rate must be in \(0, 1000\] per time unit.*got 0/],
    ['--arrivals mmpp:1,2,1e9,1', ['--arrivals', 'mmpp:1,2,1e9,1'], /switching rate must be in \(0, 1000\].*use exp/],
    ['--arrivals mmpp:-1,2,1,1', ['--arrivals', 'mmpp:-1,2,1,1'], /relative rate must be ≥ 0, got -1/],
    ['--arrivals mmpp:0,0,1,1', ['--arrivals', 'mmpp:0,0,1,1'], /mmpp rates must not both be 0/],
    ['--arrivals weekly', ['--arrivals', 'weekly'], /unknown arrivals "weekly"; expected exp, det, erlang:K/],
  ])('simulate %s', (_, extra, pattern) => expectOneLine([...SIM, ...extra], 2, pattern));
});
