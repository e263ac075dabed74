/**
 * A lag-1 autocorrelation from 3 batch means was printed as the independence check (its spread under independence is
 * ≈ 1/√3 = 0.58 against the threshold 0.2: no evidence either way): below MIN_LAG1_BATCHES it is no number, and a
 * note says so with the t's degrees of freedom, in replay (test/cli/replay.test.ts) and simulate's batch means here.
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { simulate } from '../../src/sim/index.ts';
import { batchEstimate, batchLag1, fewBatchesNote, lag1Autocorrelation, MIN_LAG1_BATCHES } from '../../src/stats/index.ts';
import { runCli } from '../cli/runCli.ts';

describe('few batch means: no independence check, the degrees of freedom said', () => {
  it('batchLag1 and batchEstimate give no number below MIN_LAG1_BATCHES, the autocorrelation from there on', () => {
    expect(Number.isNaN(batchLag1([1, 3, 2]))).toBe(true);
    expect(Number.isNaN(batchEstimate([1, 3, 2]).lag1)).toBe(true);
    const ten = Array.from({ length: MIN_LAG1_BATCHES }, (_, i) => i % 2);
    expect(batchLag1(ten)).toBe(lag1Autocorrelation(ten));
    expect(fewBatchesNote(3)).toMatch(
      /^3 batch means: too few batches to check independence .*≈ 1\/√3 = 0\.58.*2 degrees of freedom \(t_\{0\.975,2\} = 4\.30\)$/,
    );
    expect(fewBatchesNote(MIN_LAG1_BATCHES)).toBeNull();
  });

  it('simulate --method batch-means --batches 3: lag1 NaN, the note; the text says "too few batches to check independence"', async () => {
    const r = simulate(parseModel({ lambda: 0.5, d: 1 }), { n: 1, jobs: 2000, method: 'batch-means', batches: 3, seed: 1, warmupTime: 50 });
    expect(Number.isNaN(r.batchMeans!.lag1.meanResponseTime) && Number.isNaN(r.batchMeans!.lag1.meanQueueLength)).toBe(true);
    expect(r.notes).toContainEqual(expect.stringMatching(/^3 batch means: too few batches to check independence/));
    const text = await runCli('simulate --lambda 0.5 --d 1 --n 1 --jobs 2000 --method batch-means --batches 3 --no-progress');
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/engine \w+; too few batches to check independence \(see the note\)/);
    expect(text.stdout).not.toMatch(/lag-1 autocorrelation of batch means -?\d/);
    expect(text.stdout).toMatch(/note: 3 batch means: .*2 degrees of freedom/);
  }, 600_000);
});
