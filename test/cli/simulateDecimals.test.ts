/**
 * `simulate`'s text table prints each mean and its 95 % CI with decimals that follow the CI's half-width (two
 * significant digits of h): it printed four decimals whatever the interval, "1.2954 [1.2764, 1.3143]", digits the run
 * does not know, and as many for a CI of ±0.4 as for one of ±0.0004.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

/** The decimals of each number of a table row "label  x  [lo, hi]". */
function rowDecimals(stdout: string, label: string): { values: number[]; decimals: number[] } {
  const line = stdout.split('\n').find((l) => l.trimStart().startsWith(label))!;
  const numbers = line
    .slice(line.indexOf(label) + label.length)
    .match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g)!
    .slice(0, 3);
  return { values: numbers.map(Number), decimals: numbers.map((x) => (x.includes('.') ? x.split('.')[1].length : 0)) };
}

describe('simulate text table: decimals from the CI half-width', () => {
  it('two significant digits of h, the mean and both ends rounded alike; the JSON keeps every digit', async () => {
    const args = 'simulate --lambda 0.5 --d 2 --n 20 --jobs 2000 --replications 10 --threads 1 --no-progress';
    const text = await runCli(args);
    expect(text.status, text.stderr).toBe(0);
    const j = JSON.parse((await runCli(`${args} --json`)).stdout);
    for (const [label, e] of [
      ['E[T] response time', j.meanResponseTime],
      ['E[Q] per server', j.meanQueueLength],
      ['s_2', j.tail[2]],
    ] as const) {
      const h = (e.ci95[1] - e.ci95[0]) / 2;
      const k = Math.max(0, 1 - Math.floor(Math.log10(h)));
      const row = rowDecimals(text.stdout, label);
      expect(row.decimals, label).toEqual([k, k, k]);
      expect(row.values[0], label).toBeCloseTo(e.mean, k - 1);
    }
    // this run's E[T] CI is a few hundredths wide: three decimals, not four
    expect(rowDecimals(text.stdout, 'E[T] response time').decimals[0]).toBe(3);
  });

  it('the percentile rows follow the same rule (they printed three significant digits more: "0.60512 [0.60111, 0.60918]")', async () => {
    const args = 'simulate --lambda 0.5 --d 2 --n 20 --jobs 2000 --replications 10 --threads 1 --no-progress';
    const text = await runCli(args);
    const j = JSON.parse((await runCli(`${args} --json`)).stdout);
    for (const p of ['p50', 'p95'] as const) {
      const e = j.responseTimePercentiles[p];
      const h = (e.ci95[1] - e.ci95[0]) / 2;
      const k = Math.max(0, 1 - Math.floor(Math.log10(h)));
      expect(rowDecimals(text.stdout, `T ${p} (pooled)`).decimals, p).toEqual([k, k, k]);
    }
    // the interval starts in the "95% CI" column, as every other row's
    const column = (label: string) =>
      text.stdout
        .split('\n')
        .find((l) => l.trimStart().startsWith(label))!
        .search(/ \[[-\d]/);
    expect(column('T p50 (pooled)')).toBe(column('E[T] response time'));
  });

  it('a row never mixes fixed and exponent forms: all below 10⁻³ in exponent form, else fixed (no "0.00171 [7.91e-4, 0.00263]")', async () => {
    const r = await runCli('simulate --lambda 0.3 --d 2 --n 10 --jobs 20000 --replications 3 --threads 1 --no-progress');
    for (const line of r.stdout.split('\n').filter((l) => /^ {2}s_\d/.test(l))) {
      // an exact 0 prints as "0" in either form (a level not reached: "0 (not reached) [0, 6.13e-5]")
      const numbers = line
        .replace(/^ {2}s_\d+/, '')
        .match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g)!
        .filter((x) => x !== '0');
      const exponent = numbers.map((x) => x.includes('e'));
      expect(new Set(exponent).size, line).toBe(1);
      if (exponent[0]) expect(Math.max(...numbers.map(Number)), line).toBeLessThan(1e-3);
    }
  });

  it('a level no replication reached says so, its interval [0, upper end of the level below] by the same decimals', async () => {
    // it printed "s_6 0.0000 [0.0000, 0.0000]": a point, which cannot hold the positive true s_6 (stats monotoneFractions)
    const r = await runCli('simulate --lambda 0.3 --d 2 --n 10 --jobs 1000 --replications 3 --threads 1 --no-progress');
    expect(r.stdout).toMatch(/\n {2}s_6 +0\.0000 \(not reached\) \[0\.0000, 0\.00\d\d\]\n/);
  });

  it('the per-class rows keep their columns apart: an interval never runs into the next column ("0.5361]1.2715")', async () => {
    const r = await runCli('simulate --speeds 1,2 --d 2 --n 20 --lambda 0.6 --jobs 2000 --replications 3 --threads 1 --no-progress');
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^ {2}class \d/.test(l));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row, row).toMatch(/^ {2}class \d \(\d, 0\.5\) +\S+ +\[[^\]]+\] {2,}\S+ +\[[^\]]+\] {2,}\d+$/);
  });

  it('model --compare: the simulated value and its ± CI by the same rule (it printed "3.271059 ± 0.998933")', async () => {
    const r = await runCli('model models/jsq-d.json --set K=9 --n 10 --compare --replications 3 --threads 1 --horizon 50');
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^ +10 (meanQueueLength|meanResponseTime) /.test(l));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const [simulated, ci] = row.trim().split(/ +/).slice(2, 4);
      const decimals = (x: string) => (x.includes('.') ? x.split('.')[1].length : 0);
      // two significant digits of the half-width, and the estimate rounded at the same place
      expect(decimals(simulated), row).toBe(decimals(ci));
      // (one more where h rounds up to a power of ten: 0.9989 → "1.00")
      expect(decimals(ci) - (1 - Math.floor(Math.log10(Number(ci)))), row).toBeOneOf([0, 1]);
    }
  });
});
