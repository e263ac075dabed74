/**
 * --memory on the CLI (theory.md §12): fixed-point prints π₀ and the reduced-rate value; bad memory settings get one
 * line and a non-zero exit on every command that takes them; commands without a memory solver refuse instead of
 * dropping it.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

async function expectOneLineError(args: string, pattern: RegExp) {
  const r = await runCli(args);
  expect(r.status, `exit code of supermarket ${args}`).not.toBe(0);
  const lines = r.stderr.trim().split('\n');
  expect(lines, `stderr of supermarket ${args}:\n${r.stderr}`).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.stdout).toBe('');
}

describe('supermarket --memory', () => {
  it('fixed-point --memory ism:10 gives the reduced-rate value with π₀ (thesis setup 8 without the hyperexponential: SQ(2), λ = 0.85)', async () => {
    const r = await runCli('fixed-point --lambda 0.85 --d 2 --memory ism:10 --json');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    const pi0 = (1 - (1 - 0.85 ** 2) ** (1 / 11)) / 0.85 ** 2;
    expect(out.reduction.pi0).toBeCloseTo(pi0, 12);
    const lr = 0.85 * Math.sqrt(pi0);
    let sum = 0;
    for (let k = 1; k < 40; k++) sum += lr ** (2 ** k - 1);
    expect(out.meanResponseTime).toBeCloseTo(sum / lr, 10); // the SQ(2) closed form at the reduced rate
    expect(out.reduction.memory).toBe('ism:10');
  });

  const bad: [string, RegExp][] = [
    ['fixed-point --lambda 0.9 --d 2 --memory bcp:0', /memory size A must be an integer ≥ 1, got 0/],
    ['simulate --lambda 0.9 --d 2 --n 10 --memory ism', /ism needs a memory size/],
    ['fixed-point --lambda 0.9 --d 2 --selection lwl --memory ism', /ism needs a memory size/],
    ['simulate --lambda 0.9 --d 2 --n 10 --selection random --memory ip', /with random selection: use --selection jiq/],
    ['fixed-point --lambda 0.9 --d 1 --memory cp', /has no effect with d = 1/],
    ['fixed-point --lambda 0.9 --d 2 --memory ism:4 --discipline srpt', /no mean-field solver for memory ism:4 with discipline srpt/],
    [
      'fixed-point --lambda 0.9 --d 2 --memory ip --refined --n 10',
      /--refined: the refined mean field is derived for JSQ\(d\), FIFO, exponential sizes without memory .*, memory ip/,
    ],
    ['exact --lambda 0.5 --d 2 --n 3 --memory ip', /no exact solver for a dispatcher memory/],
    ['ode --lambda 0.9 --d 2 --memory ip --t-end 5 --dt 1 --until-steady', /--until-steady is not available with --memory/],
    // LL(d) with memory has a transient now (memory-lwl-pide); a point-mass size law has none
    [
      'ode --lambda 0.9 --d 2 --memory ip --service deterministic --t-end 5 --dt 1',
      /no transient solver for memory with jsq, fifo, deterministic sizes/,
    ],
    [
      'compare --preset thesis-memory:5 --lambda 0.8 --memory cp',
      /--preset thesis-memory:5 sets --lambda, --memory; drop them or the preset/,
    ],
    // LL(d) with memory has its workload PIDE since the s2-mem merge; PS with memory has one for exponential sizes only
    [
      'ode --lambda 0.9 --d 2 --memory ip --discipline ps --service hyperexp:2 --t-end 5 --dt 1',
      /no transient solver for memory with jsq, ps, hyperexponential/,
    ],
  ];
  for (const [args, pattern] of bad) it(args, () => expectOneLineError(args, pattern));
});
