/**
 * Settings with no effect are refused in one line with a non-zero exit (the guide's rule "a setting that has no
 * effect is refused or named"; closing3.md's README-only user and the sweep of fixed-point, simulate, compare, ode).
 * Each case fails before any work starts, so the file is quick.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseModel } from '../../src/model/index.ts';
import { runCli } from './runCli.ts';

const cases: [string, string, RegExp][] = [
  [
    'fixed-point --order without --refined',
    'fixed-point --lambda 0.9 --d 2 --order 2',
    /^supermarket: error: --order acts only with --refined --n/,
  ],
  [
    'fixed-point --method on a model without the SQ(d) fixed point',
    'fixed-point --lambda 0.9 --d 2 --selection lwl --method newton',
    /--method acts only with the SQ\(d\) fixed point .*the solver here is lwl/,
  ],
  [
    'fixed-point --tail-tolerance on LWL',
    'fixed-point --lambda 0.9 --d 2 --selection lwl --tail-tolerance 1e-9',
    /--tail-tolerance acts only with the SQ\(d\)/,
  ],
  [
    'simulate --replications with batch means',
    'simulate --lambda 0.5 --d 2 --n 10 --method batch-means --replications 5',
    /--replications acts only with --method replications: a batch-means run is one long run/,
  ],
  [
    'simulate --threads with batch means',
    'simulate --lambda 0.5 --d 2 --n 10 --method batch-means --threads 2',
    /--threads acts only with --method replications/,
  ],
  [
    'simulate --warmup-tolerance with --warmup',
    'simulate --lambda 0.5 --d 2 --n 10 --warmup 5 --warmup-tolerance 1e-4',
    /--warmup-tolerance acts only with the default warm-up \(no --warmup\)/,
  ],
  [
    '--batch-dispatch with batch 1 (simulate)',
    'simulate --lambda 0.5 --d 2 --n 10 --batch-dispatch spread',
    /--batch-dispatch spread has no effect with batch size 1/,
  ],
  [
    '--batch-dispatch with --batch 1 (fixed-point)',
    'fixed-point --lambda 0.5 --d 2 --batch 1 --batch-dispatch whole',
    /batch.dispatch whole has no effect with batch size 1/,
  ],
  [
    '--batch-dispatch with batch 1 (compare)',
    'compare --lambda 0.5 --d 2 --n 10 --batch-dispatch spread',
    /--batch-dispatch spread has no effect/,
  ],
  [
    '--sampling with-replacement with a batch (a batch samples d distinct servers)',
    'simulate --lambda 0.5 --d 3 --n 10 --batch 2 --sampling with-replacement',
    /--sampling with-replacement has no effect with --batch 2: a batch samples d distinct servers/,
  ],
  [
    '--speeds 1: one class of speed 1 is the homogeneous model',
    'fixed-point --lambda 0.6 --d 2 --speeds 1 --fractions 1',
    /--speeds 1 has no effect: one class of speed 1 is the homogeneous model \(identical servers\); drop --speeds and --fractions/,
  ],
  [
    '--speeds 1,1: every class of speed 1 is the homogeneous model too',
    'simulate --lambda 0.6 --d 2 --n 10 --speeds 1,1 --selection sed',
    /--speeds 1,1 has no effect: every class of speed 1 is the homogeneous model \(identical servers\); drop --speeds$/m,
  ],
  [
    '--server-sampling speed with equal speeds (speed-weighted draws are uniform)',
    'simulate --lambda 0.6 --d 2 --n 10 --speeds 2,2 --server-sampling speed',
    /server sampling speed has no effect when every class has speed 2/,
  ],
  [
    'RED(1), cancel-on-complete',
    'simulate --lambda 0.5 --d 1 --n 10 --redundancy cancel-on-complete',
    /--redundancy cancel-on-complete has no effect with --d 1: one replica per job is no redundancy/,
  ],
  [
    'RED(1), cancel-on-start (fixed-point)',
    'fixed-point --lambda 0.5 --d 1 --redundancy cancel-on-start',
    /--redundancy cancel-on-start has no effect with --d 1/,
  ],
  ['RED(1) in a compare d list', 'compare --lambda 0.5 --d 1,2 --n 10 --redundancy cancel-on-complete', /has no effect with --d 1/],
  [
    'compare --max-jobs without --resolve',
    'compare --lambda 0.5 --d 2 --n 10 --max-jobs 1000',
    /--max-jobs acts only with --resolve or --min-horizon/,
  ],
  [
    'compare --t-end with --no-trajectory',
    'compare --lambda 0.5 --d 2 --n 10 --no-trajectory --t-end 5',
    /--t-end acts only with the transient comparison/,
  ],
  [
    'compare --trajectory-replications with --no-trajectory',
    'compare --lambda 0.5 --d 2 --n 10 --no-trajectory --trajectory-replications 3',
    /--trajectory-replications acts only with the transient comparison/,
  ],
  [
    'compare --exact-jobs without exact points',
    'compare --lambda 0.5 --d 2 --n 10 --exact-jobs 1000',
    /--exact-jobs acts only with exact points \(--exact-n\)/,
  ],
  [
    'run --dry-run --threads',
    'run experiments/smoke.json --dry-run --threads 2',
    /--threads acts only with a run that computes: a dry run computes nothing/,
  ],
  ['model --t-end without --transient', 'model models/jsq-d.json --t-end 3', /^supermarket: error: --t-end acts only with --transient/],
  ['model --dt without --transient', 'model models/jsq-d.json --refined --n 10 --dt 2', /--dt acts only with --transient/],
  [
    'fixed-point --sampling without --refined (SQ(d): one limit for both samplings)',
    'fixed-point --lambda 0.5 --d 2 --sampling without-replacement',
    /^supermarket: error: --sampling acts only with --refined --n <servers>: the SQ\(d\) mean-field limit is the same/,
  ],
  ['ode --levels with --json', 'ode --lambda 0.5 --d 2 --t-end 1 --dt 1 --json --levels 3', /--levels acts only with text output/],
  // every mean-field limit is one for both samplings; outside SQ(d) it was accepted and dropped silently
  [
    'fixed-point --sampling on LWL(2) (closed form)',
    'fixed-point --lambda 0.7 --d 2 --selection lwl --sampling without-replacement',
    /^supermarket: error: --sampling without-replacement has no effect: the mean-field limit of LWL\(2\) \+ FIFO is the same with and without replacement .*; drop it$/,
  ],
  [
    'fixed-point --sampling on a cavity model (JSQ(2) SRPT)',
    'fixed-point --lambda 0.7 --d 2 --discipline srpt --sampling without-replacement',
    /--sampling without-replacement has no effect: the mean-field limit of JSQ\(2\) \+ SRPT is the same/,
  ],
  [
    'fixed-point --sampling with a dispatcher memory',
    'fixed-point --lambda 0.7 --d 2 --memory ip --sampling without-replacement',
    /--sampling without-replacement has no effect: the mean-field limit of JSQ\(2\) \+ FIFO, memory ip is the same/,
  ],
  [
    'fixed-point --sampling with Erlang sizes (phase-type ODE)',
    'fixed-point --lambda 0.7 --d 2 --service erlang:2 --sampling with-replacement',
    /--sampling with-replacement has no effect: the mean-field limit of JSQ\(2\) \+ FIFO is the same/,
  ],
  [
    // it said "drop it or add --refined --n <servers>", and adding them was refused (the speeds' term is with replacement only)
    'fixed-point --sampling without-replacement with speeds, without --refined',
    'fixed-point --lambda 0.5 --d 2 --speeds 1,2 --sampling without-replacement',
    /^supermarket: error: --sampling without-replacement has no effect: .* \(--refined is refused with it\); drop it$/,
  ],
  [
    'fixed-point --sampling on PS without --refined (its 1/n term is FIFO’s, which reads it)',
    'fixed-point --lambda 0.7 --d 2 --discipline ps --sampling without-replacement',
    /^supermarket: error: --sampling acts only with --refined --n <servers>: the mean-field limit of JSQ\(2\) \+ PS is the same/,
  ],
];

describe('settings with no effect are refused in one line', () => {
  it.each(cases)('%s', async (_what, args, pattern) => {
    const r = await runCli(args);
    expect(r.status, r.stderr).toBe(2);
    // with --json the refusal is on stdout too, as { failed, exitCode } (cli/errors.ts refusalsAsJson); else nothing
    if (/(^| )--json( |$)/.test(args)) expect(JSON.parse(r.stdout)).toMatchObject({ failed: expect.stringMatching(pattern), exitCode: 2 });
    else expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(pattern);
  });

  it('fixed-point --sampling where it acts: the E[T]_n = ∞ note (LWL(3), pareto:1.5) and a 1/n term (PS --n) read it', async () => {
    const note = /note: E\[T\]_n = ∞ at every finite n/;
    const lwl = 'fixed-point --lambda 0.7 --d 3 --selection lwl --service pareto:1.5 --no-progress --sampling';
    const [withR, without] = [await runCli(`${lwl} with-replacement`), await runCli(`${lwl} without-replacement`)];
    expect(withR.status, withR.stderr).toBe(0);
    expect(without.status, without.stderr).toBe(0);
    expect(withR.stdout).toMatch(note);
    expect(without.stdout).not.toMatch(note);
    const ps = 'fixed-point --lambda 0.7 --d 2 --discipline ps --n 10 --sampling';
    const c1 = async (how: string) => {
      const r = await runCli(`${ps} ${how}`);
      expect(r.status, r.stderr).toBe(0);
      return /c₁ = ([\d.]+)/.exec(r.stdout)![1];
    };
    expect(await c1('with-replacement')).not.toBe(await c1('without-replacement'));
  });

  it('simulate --max-level acts in the text too: every level up to it (it printed s_1..s_6 whatever it said)', async () => {
    const run = 'simulate --lambda 0.7 --d 2 --n 10 --jobs 500 --replications 2 --seed 1 --no-progress';
    const levels = (text: string) => [...text.matchAll(/^ {2}s_(\d+) /gm)].map((m) => Number(m[1]));
    expect(levels((await runCli(run)).stdout)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(levels((await runCli(`${run} --max-level 9`)).stdout)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(levels((await runCli(`${run} --max-level 2`)).stdout)).toEqual([1, 2]);
  });

  it('--n alone asks for the refined term (it is not idle), and --redundancy with d = 2 is accepted', async () => {
    const r = await runCli('fixed-point --lambda 0.9 --d 2 --n 100');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Refined mean field \(Gast–Van Houdt\), n = 100/);
    const red = await runCli('fixed-point --lambda 0.5 --d 2 --redundancy cancel-on-complete');
    expect(red.status, red.stderr).toBe(0);
  });

  it('a batch run says it sampled d distinct servers, not the with-replacement default it ignores', async () => {
    const r = await runCli('simulate --lambda 0.5 --d 3 --n 12 --batch 2 --jobs 300 --replications 2 --no-progress');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/n = 12, without-replacement \(a batch samples d distinct servers\)/);
    expect(r.stdout).not.toMatch(/with-replacement(?! \()/);
    const single = await runCli('simulate --lambda 0.5 --d 3 --n 12 --jobs 300 --replications 2 --no-progress');
    expect(single.stdout).toMatch(/n = 12, with-replacement/);
  });

  it('a batch model records without-replacement (what ran) in simulate --json and compare results.json and report', async () => {
    expect(parseModel({ lambda: 0.5, d: 3, batch: 2 }).sampling).toBe('without-replacement');
    expect(parseModel({ lambda: 0.5, d: 3, batch: 'geom:2', batchDispatch: 'whole' }).sampling).toBe('without-replacement');
    expect(parseModel({ lambda: 0.5, d: 3 }).sampling).toBe('with-replacement');
    const sim = await runCli('simulate --lambda 0.5 --d 3 --n 12 --batch 2 --jobs 300 --replications 2 --json --no-progress');
    expect(sim.status, sim.stderr).toBe(0);
    expect([...sim.stdout.matchAll(/"sampling":\s*"([a-z-]+)"/g)].map((m) => m[1])).toEqual(['without-replacement']);
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-batch-rec-')), 'r');
    const cmp = await runCli(
      `compare --lambda 0.5 --d 3 --n 10 --batch 2 --jobs 300 --replications 2 --no-trajectory --no-progress --out ${out}`,
    );
    expect(cmp.status, cmp.stderr).toBe(0);
    const results = readFileSync(path.join(out, 'results.json'), 'utf8');
    const samplings = [...results.matchAll(/"sampling":\s*"([a-z-]+)"/g)].map((m) => m[1]);
    expect(samplings.length).toBeGreaterThan(0);
    expect(new Set(samplings)).toEqual(new Set(['without-replacement']));
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/sampling without-replacement \(a batch draws d distinct servers\)/);
  }, 600_000);
});
