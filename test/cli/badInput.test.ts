import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

// The CLI from its sources in a real process (tsx loads the TypeScript); the compiled bin is tested in test/package.
const MAIN = path.resolve(import.meta.dirname, '../../src/cli/main.ts');
const ROOT = path.resolve(import.meta.dirname, '../..');

function run(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], { encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function expectOneLineError(args: string[], pattern: RegExp) {
  const r = await runCli(args);
  expect(r.status, `exit code of supermarket ${args.join(' ')}`).not.toBe(0);
  expect(r.status).not.toBeNull();
  const lines = r.stderr.trim().split('\n');
  expect(lines, `stderr of supermarket ${args.join(' ')}:\n${r.stderr}`).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(r.stdout).toBe('');
}

describe('supermarket CLI rejects bad input with one line and a non-zero exit', () => {
  const cases: [string, string[], RegExp][] = [
    ['λ ≤ 0', ['fixed-point', '--lambda', '0', '--d', '2'], /λ must be > 0/],
    // PS and LAS read no prediction (issue 18 item 5): a prediction model would have no effect
    [
      'PS with a prediction',
      ['simulate', '--lambda', '0.5', '--d', '2', '--n', '10', '--discipline', 'ps', '--prediction', 'exp'],
      /--prediction exp has no effect: neither selection jsq nor discipline ps reads a prediction/,
    ],
    // LPW at d = 1 samples one server (random routing, "RANDOM (d = 1)"): the prediction it would compare has no effect
    [
      'LPW at d = 1 with a prediction (simulate)',
      ['simulate', '--lambda', '0.5', '--d', '1', '--n', '10', '--selection', 'lpw', '--prediction', 'exp'],
      /--prediction exp has no effect: selection lpw at d = 1 samples one server \(random routing\)/,
    ],
    [
      'LPW at d = 1 with a prediction (fixed-point)',
      ['fixed-point', '--lambda', '0.5', '--d', '1', '--selection', 'lpw', '--prediction', 'uniform:0.5'],
      /--prediction uniform:0.5 has no effect: selection lpw at d = 1/,
    ],
    // every setting the policy tables say a policy cannot use is refused in one line (issue 18 item 5), in every command
    [
      'jiq with d = 2 (fixed-point)',
      ['fixed-point', '--lambda', '0.5', '--d', '2', '--selection', 'jiq'],
      /--d 2 has no effect: selection jiq samples no servers \(it takes d = 1\); give --d 1/,
    ],
    [
      'random with d = 3 (simulate)',
      ['simulate', '--lambda', '0.5', '--d', '3', '--n', '10', '--selection', 'random'],
      /--d 3 has no effect: selection random samples no servers/,
    ],
    [
      'jiq with d = 2 (ode)',
      ['ode', '--lambda', '0.5', '--d', '2', '--selection', 'jiq', '--t-end', '1', '--dt', '1'],
      /--d 2 has no effect/,
    ],
    ['jiq with a d list (compare)', ['compare', '--lambda', '0.5', '--d', '1,2', '--n', '10', '--selection', 'jiq'], /--d 2 has no effect/],
    [
      'sampling with d = 1',
      ['simulate', '--lambda', '0.5', '--d', '1', '--n', '10', '--sampling', 'without-replacement'],
      /--sampling without-replacement has no effect: with d = 1 one server is sampled/,
    ],
    [
      'jiq with a prediction',
      ['fixed-point', '--lambda', '0.5', '--d', '1', '--selection', 'jiq', '--prediction', 'exp'],
      /--prediction exp has no effect/,
    ],
    [
      'LPW with LAS (predictions other than exact: with exact ones it is LWL)',
      ['fixed-point', '--lambda', '0.5', '--d', '2', '--selection', 'lpw', '--discipline', 'las', '--prediction', 'exp'],
      /lpw with discipline las is not supported/,
    ],
    // an option that acts only with another one is refused, never dropped silently
    [
      '--batches without batch means',
      ['simulate', '--lambda', '0.5', '--d', '2', '--n', '10', '--batches', '10'],
      /--batches acts only with --method batch-means/,
    ],
    [
      '--max-replications without a precision target',
      ['simulate', '--lambda', '0.5', '--d', '2', '--n', '10', '--max-replications', '10'],
      /--max-replications acts only with --precision or --half-width/,
    ],
    // a stopping rule on E[T] is refused up front where E[T] = ∞ in theory or may be infinite (model/moments.ts): the
    // old code ran the 200-replication budget and printed an "achieved ± 0.353" next to E[T] = ∞ (trial F6)
    [
      '--precision on an infinite E[T] (pareto:1.5, FIFO, with replacement)',
      ['simulate', '--lambda', '0.5', '--d', '2', '--n', '10', '--service', 'pareto:1.5', '--precision', '0.05', '--jobs', '1000'],
      /no precision target for E\[T\]: it is infinite in theory \(E\[S²\] = ∞/,
    ],
    [
      '--half-width on an infinite E[T] (d = 1)',
      ['simulate', '--lambda', '0.5', '--d', '1', '--n', '4', '--service', 'pareto:1.5', '--half-width', '0.1', '--jobs', '1000'],
      /no precision target for E\[T\]: it is infinite in theory/,
    ],
    [
      '--precision on an unsettled E[T] (without replacement)',
      [
        'simulate',
        '--lambda',
        '0.5',
        '--d',
        '2',
        '--n',
        '10',
        '--service',
        'pareto:1.5',
        '--sampling',
        'without-replacement',
        '--precision',
        '0.05',
        '--jobs',
        '1000',
      ],
      /no precision target for E\[T\]: E\[T\] may be infinite: .*not settled for d ≥ 2 without replacement/,
    ],
    [
      'compare --resolve on an infinite E[T]',
      [
        'compare',
        '--lambda',
        '0.5',
        '--d',
        '1',
        '--n',
        '10',
        '--service',
        'pareto:1.5',
        '--resolve',
        '0.5',
        '--jobs',
        '1000',
        '--no-trajectory',
        '--out',
        '/tmp/never',
      ],
      /resolve \(d = 1, λ = 0.5\): no precision target for E\[T\]: it is infinite in theory/,
    ],
    ['model --threads without --compare', ['model', 'models/jsq-d.json', '--threads', '2'], /--threads acts only with --compare/],
    [
      'ode --tol without --until-steady',
      ['ode', '--lambda', '0.9', '--d', '2', '--t-end', '3', '--dt', '1', '--tol', '1e-6'],
      /--tol acts only with --until-steady/,
    ],
    // trial M5: an output step past the horizon printed t = 0 and t = 10 only, silently
    ['ode --dt > --t-end', ['ode', '--lambda', '0.9', '--d', '2', '--t-end', '10', '--dt', '20'], /--dt 20 exceeds --t-end 10/],
    [
      'ode --until-steady --dt > --t-end',
      ['ode', '--lambda', '0.9', '--d', '2', '--until-steady', '--t-end', '10', '--dt', '20'],
      /--dt 20 exceeds --t-end 10/,
    ],
    ['ode --refined --n 2.5', ['ode', '--lambda', '0.9', '--d', '2', '--t-end', '3', '--refined', '--n', '2.5'], /--n.*integer ≥ 1.*2\.5/],
    ['negative λ', ['simulate', '--lambda', '-0.5', '--d', '2', '--n', '10'], /λ must be > 0/],
    ['ρ ≥ 1', ['fixed-point', '--lambda', '1', '--d', '2'], /unstable load/],
    ['ρ > 1 in simulate', ['simulate', '--lambda', '1.2', '--d', '2', '--n', '10'], /unstable load/],
    ['d < 1', ['fixed-point', '--lambda', '0.9', '--d', '0'], /--d: expected an integer ≥ 1, got "0"/],
    ['non-integer d', ['ode', '--lambda', '0.9', '--d', '2.5', '--t-end', '5', '--dt', '1'], /--d: expected an integer ≥ 1, got "2\.5"/],
    ['d > n', ['simulate', '--lambda', '0.9', '--d', '5', '--n', '3'], /d = 5 exceeds n = 3/],
    ['n < 1', ['simulate', '--lambda', '0.9', '--d', '1', '--n', '0'], /--n: expected an integer ≥ 1, got "0"/],
    ['non-numeric λ', ['fixed-point', '--lambda', 'abc', '--d', '2'], /not a number/],
    ['NaN λ', ['fixed-point', '--lambda', 'NaN', '--d', '2'], /not a number/],
    ['non-numeric jobs', ['simulate', '--lambda', '0.9', '--d', '2', '--n', '10', '--jobs', 'lots'], /not a number/],
    ['unknown option', ['fixed-point', '--lambda', '0.9', '--d', '2', '--bogus'], /unknown option '--bogus'/],
    ['unknown command', ['frobnicate'], /unknown command/],
    [
      'unknown selection',
      ['fixed-point', '--lambda', '0.9', '--d', '2', '--selection', 'best'],
      /--selection: "[^"]*" is not one of: random, jsq, sed, lwl, lpw, jiq/,
    ],
    [
      'd > n in compare',
      ['compare', '--lambda', '0.9', '--d', '20', '--n', '10', '--no-progress', '--out', '/tmp/never'],
      /d = 20 exceeds n = 10/,
    ],
    ['refined without n', ['fixed-point', '--lambda', '0.9', '--d', '2', '--refined'], /--refined needs --n/],
    ['a loose tail tolerance', ['fixed-point', '--lambda', '0.9', '--d', '2', '--tail-tolerance', '0.5'], /tailTolerance must be in/],
    ['one replication', ['simulate', '--lambda', '0.9', '--d', '2', '--n', '10', '--replications', '1'], /integer ≥ 2/],
    [
      'one batch',
      ['simulate', '--lambda', '0.9', '--d', '2', '--n', '10', '--method', 'batch-means', '--batches', '1'],
      /--batches: expected an integer ≥ 2 \(a confidence interval needs two batches\)/,
    ],
    ['an absurd max level', ['simulate', '--lambda', '0.9', '--d', '2', '--n', '10', '--max-level', '1e9'], /level ≤ 10000/],
    ['a run too long to finish', ['simulate', '--lambda', '0.9999', '--d', '1', '--n', '10', '--jobs', '1e4'], /needs about .* events/],
    ['an empty report folder', ['compare', '--out', ''], /expected a folder path/],
    ['a report under /proc', ['compare', '--out', '/proc/x'], /cannot write a report under \/proc/],
    [
      'a --set key given twice',
      ['model', 'models/jsq-d.json', '--set', 'lambda=0.9', '--set', 'lambda=0.8'],
      /lambda is set twice \(lambda=0\.9, then lambda=0\.8\); give each parameter once/,
    ],
    [
      'a per-job file under /proc (access() allows it; the probe does not)',
      ['simulate', '--lambda', '0.9', '--d', '2', '--n', '10', '--per-job', '/proc/x.csv'],
      /cannot write \/proc\/x\.csv: (cannot create a file in|no permission to write in) \/proc/,
    ],
    ['an unknown service law', ['simulate', '--lambda', '0.9', '--d', '2', '--n', '10', '--service', 'gamma:2'], /unknown service/],
  ];
  for (const [what, args, pattern] of cases) {
    it(`supermarket ${args[0]} exits non-zero with one line on ${what}`, () => expectOneLineError(args, pattern));
  }

  // a fresh-user trial: `model bad.json --json` on a file holding "not json\n" printed two stderr lines, JSON.parse's
  // message quoting the file with its newline; every refusal is one line, whatever the message holds
  it('supermarket model, run and conjecture on a file that is not JSON: one stderr line, the --json refusal too', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-notjson-'));
    try {
      const file = path.join(dir, 'bad.json');
      writeFileSync(file, 'not json\nat all\n');
      for (const command of ['model', 'run', 'conjecture']) await expectOneLineError([command, file], /bad\.json: not valid JSON \(/);
      const r = await runCli(['model', file, '--json']);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stdout.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ exitCode: 2, failed: expect.stringMatching(/not valid JSON/) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  // a misspelt key in a file (a fresh user's "selection" for "selections") names the key, the near miss and the allowed
  // keys in one line; it was zod's `(top level): Unrecognized key: "selection" (and 1 more: …)`, listing none
  it('supermarket run, model and conjecture name a misspelt key of their file and the allowed keys, in one line', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-keys-'));
    try {
      const write = (name: string, file: string, edit: (json: Record<string, unknown>) => void) => {
        const json = JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;
        edit(json);
        writeFileSync(path.join(dir, name), JSON.stringify(json));
        return path.join(dir, name);
      };
      const grid = write('grid.json', 'experiments/smoke.json', (j) => {
        j.selection = j.selections;
        delete j.selections;
      });
      await expectOneLineError(
        ['run', grid, '--out', path.join(dir, 'out')],
        /grid\.json: \(top level\): unknown key "selection" \(did you mean "selections"\?\); allowed keys: name, description, lambda, d, n, policies, selections, disciplines, .*, claims/,
      );
      const model = write('model.json', 'models/jsq-d.json', (j) => {
        const t = (j.transitions as Record<string, unknown>[])[0];
        t.rates = t.rate;
        delete t.rate;
      });
      await expectOneLineError(
        ['model', model],
        /model\.json: transitions\[0\]: unknown key "rates" \(did you mean "rate"\?\); allowed keys: name, for, from, to, change, rate$/,
      );
      const claim = write('claim.json', 'analysis/h3-jsq-beats-lpw.json', (j) => {
        j.clam = j.claim;
        delete j.claim;
      });
      await expectOneLineError(
        ['conjecture', claim],
        /claim\.json: \(top level\): unknown key "clam" \(did you mean "claim"\?\); allowed keys: /,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('supermarket (a real process) exits non-zero with one line and no stack trace on ρ ≥ 1 and on an unknown option', () => {
    for (const args of [
      ['fixed-point', '--lambda', '1', '--d', '2'],
      ['simulate', '--lambda', '0.5', '--d', '2', '--n', '10', '--bogus'],
    ]) {
      const r = run(args);
      expect(r.status).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('supermarket CLI happy paths print what scripts can read', () => {
  it('supermarket --help lists the commands', () => {
    const r = run(['--help']);
    expect(r.status).toBe(0);
    for (const c of ['fixed-point', 'ode', 'simulate', 'compare']) expect(r.stdout).toContain(c);
  });

  it('supermarket fixed-point --json --refined gives the documented keys and the theory.md numbers', async () => {
    const r = await runCli(['fixed-point', '--lambda', '0.9', '--d', '2', '--refined', '--n', '100', '--json']);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.meanQueueLength).toBeCloseTo(2.3527, 4);
    expect(out.meanResponseTime).toBeCloseTo(2.6141, 4);
    expect(out.tail[0]).toBe(1);
    expect(out.tail[2]).toBeCloseTo(0.9 ** 3, 12);
    expect(out.refined.meanQueueLength).toBeCloseTo(2.3925, 4);
    expect(out.refined.meanResponseTime).toBeCloseTo(2.3925 / 0.9, 4);
    expect(out.refined.tail).toHaveLength(out.tail.length);
  });

  it('supermarket simulate --json reports estimates as { mean, ci95 } with events and eventsPerSecond', async () => {
    const r = await runCli('simulate --lambda 0.5 --d 2 --n 20 --jobs 2e4 --replications 3 --seed 3 --json');
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    for (const key of ['meanResponseTime', 'meanQueueLength']) {
      expect(typeof out[key].mean).toBe('number');
      expect(out[key].ci95).toHaveLength(2);
      expect(out[key].ci95[0]).toBeLessThanOrEqual(out[key].mean);
    }
    expect(Array.isArray(out.tail)).toBe(true);
    expect(out.events).toBeGreaterThan(0);
    expect(out.eventsPerSecond).toBeGreaterThan(0);
    expect(out.seeds.master).toBe(3);
  });

  it('supermarket ode --csv prints a header and one row per grid time', async () => {
    const r = await runCli(['ode', '--lambda', '0.9', '--d', '2', '--t-end', '5', '--dt', '0.5', '--csv']);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0].startsWith('t,meanQueueLength,s_0,s_1')).toBe(true);
    expect(lines).toHaveLength(12);
    expect(Number(lines[1].split(',')[1])).toBe(0); // starts empty
  });
});

describe('supermarket CLI under a pipe', () => {
  it('stops quietly when the reader closes the pipe early (`… | head -1`): exit 0, no EPIPE trace', () => {
    const r = spawnSync(
      'sh',
      ['-c', `"${process.execPath}" --import tsx "${MAIN}" run experiments/paper-synthetic.json --dry-run | head -1`],
      {
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
    expect(r.stdout).toMatch(/^run paper-synthetic --dry-run, 480 cells/);
    expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /);
  });
});
