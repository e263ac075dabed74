import { describe, expect, it } from 'vitest';
import { mser } from '../../src/stats/mser.ts';
import { runCli } from '../cli/runCli.ts';

// simulate printed "MSER-5 … truncates 490 jobs (98.0 %)" (19990 of 20000 rounded to "100.0 %") where the replications
// each truncate 0–35 jobs: MSER's minimum over d ≤ b − 2 fell on the two-batch tail, whose statistic
// (Z_{b−1} − Z_b)²/8 is one noisy difference. The line now reports the first-half truncation.
describe('MSER-5: a minimum in the second half is not a share to print', () => {
  it('mser(z).firstHalfBatches is the minimiser over d ≤ b/2; truncationBatches keeps the whole search', () => {
    // a flat series with two equal last values: the global minimum is the tail (d = b − 2), the first half's d = 0
    const z = Float64Array.from([1, 3, 1, 3, 1, 3, 1, 3, 2, 2]);
    const r = mser(z, 5);
    expect(r.truncationBatches).toBe(8);
    expect(r.firstHalfBatches).toBe(0);
    // a real initial transient: both readings agree
    const warm = mser(Float64Array.of(9, 5, 1, 1, 1, 1, 1, 1, 1, 1), 5);
    expect(warm.truncationBatches).toBe(2);
    expect(warm.firstHalfBatches).toBe(2);
  });

  it('simulate (JSQ(2), Erlang-4, n = 10, 5 × 500 jobs, seed 1) prints the first-half truncation, not 98 %', async () => {
    const r = await runCli('simulate --lambda 0.9 --d 2 --n 10 --service erlang:4 --jobs 500 --replications 5 --no-progress --json');
    const check = JSON.parse(r.stdout).warmupCheck;
    expect(check.ensemble.fraction).toBeGreaterThan(0.5); // the case: the minimum on the tail
    expect(check.ensemble.firstHalfJobs).toBeLessThanOrEqual(250);
    const text = await runCli('simulate --lambda 0.9 --d 2 --n 10 --service erlang:4 --jobs 500 --replications 5 --no-progress');
    const line = text.stdout.split('\n').find((l) => l.includes('warm-up check'))!;
    expect(line).not.toMatch(/98\.0 %|490 jobs/);
    expect(line).toMatch(
      new RegExp(
        `truncates ${check.ensemble.firstHalfJobs} jobs \\([0-9.]+ %\\) in the first half; per replication \\d+–\\d+ jobs; its minimum lies in the second half`,
      ),
    );
  });
});
