/**
 * `simulate` takes the one warm-up rule as the library gives it (`simulationWarmup`, theory.md §8), uncapped (as
 * every command now reads it; grids capped it at 5000 silently before): the SQ(d,K) warm-up was the SQ(1) rule's 8629 where the model's own batch ODE
 * settles by t ≈ 110 (trial finding F10).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_START, simulationWarmup } from '../../src/meanfield/warmup.ts';
import { parseModel } from '../../src/model/model.ts';
import { runCli } from './runCli.ts';

describe('simulate: the warm-up of the library', () => {
  it('M/M/1 at λ = 0.95 and SQ(3,2) at λ = 0.9 (batch ODE): the JSON warm-up is simulationWarmup(model, { cap: ∞ }).time', async () => {
    for (const [flags, spec] of [
      ['--d 1 --lambda 0.95', { lambda: 0.95, d: 1 }],
      ['--d 3 --batch 2 --lambda 0.9', { lambda: 0.9, d: 3, batch: 2 }],
    ] as const) {
      const r = await runCli(`simulate ${flags} --n 4 --jobs 100 --replications 2 --json`);
      expect(r.status).toBe(0);
      // simulate's default start is the one default, auto, read at its n (it was empty: start.test.ts)
      expect(JSON.parse(r.stdout).warmupTime).toBe(
        simulationWarmup(parseModel(spec), { cap: Number.POSITIVE_INFINITY, start: DEFAULT_START, n: 4 }).time,
      );
    }
    // the library's default is the rule uncapped too (it was capped at 5000, what run and conjecture took silently)
    expect(simulationWarmup(parseModel({ lambda: 0.95, d: 1 })).rule).not.toMatch(/capped/);
    expect(simulationWarmup(parseModel({ lambda: 0.95, d: 1 })).time).toBeGreaterThan(5000);
    expect(simulationWarmup(parseModel({ lambda: 0.9, d: 3, batch: 2 })).time).toBeLessThan(500); // not SQ(1)'s 8629
  });
});

describe('simulate: the warm-up line gives the head–tail test beside MSER-5 when MSER warns', () => {
  // measured from the empty start (--warmup 0) at ρ = 0.96: MSER cuts ≈ 9 % (> MSER_MARGIN) and the head–tail test
  // finds the bias; E[S] = 2 so the unit is named as the model's, not "mean service times"
  const flags =
    'simulate --lambda 0.48 --service exp@2 --d 2 --n 500 --jobs 20000 --replications 5 --start empty --warmup 0 --seed 1 --threads 1';

  it('one line: MSER-5 cut, the head–tail difference in the model time unit, t with its df, p; the numbers of the JSON', async () => {
    const json = await runCli(`${flags} --json`);
    expect(json.status).toBe(0);
    const check = JSON.parse(json.stdout).warmupCheck;
    const bias = check.initialBias;
    expect(check.ensemble.truncatedJobs).toBeGreaterThan(0.05 * 20000);
    const text = await runCli(flags);
    expect(text.status).toBe(0);
    const line = text.stdout.split('\n').find((l) => l.includes('warm-up check:'));
    expect(line).toBe(
      `  warm-up check: MSER-5 on the average of the 5 replications truncates ${check.ensemble.truncatedJobs} jobs ` +
        `(${((100 * check.ensemble.truncatedJobs) / 20000).toFixed(1)} %) after the warm-up; head–tail test: E[T] of each ` +
        `replication's first 10 % of jobs − its last 50 % = ${bias.difference.toPrecision(3)} time units (E[S] = 2), ` +
        `t = ${bias.t.toFixed(2)} (4 df), p = ${bias.p.toPrecision(2)}${bias.significant ? ' < 0.05' : ' ≥ 0.05: no initial bias shown'}`,
    );
    expect(text.stdout + text.stderr).toMatch(/differ from its last 50 % by -?[\d.]+ time units \(E\[S\] = 2\) \(t = -?[\d.]+, 4 df, p = /);
  });

  it('no head–tail text when MSER-5 cuts within its margin', async () => {
    const text = await runCli('simulate --lambda 0.5 --d 2 --n 20 --jobs 20000 --replications 3 --seed 1 --threads 1');
    const line = text.stdout.split('\n').find((l) => l.includes('warm-up check:'));
    expect(line).toMatch(/^ {2}warm-up check: MSER-5 .* after the warm-up$/);
  });
});
