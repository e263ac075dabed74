import { describe, expect, it } from 'vitest';
import { batchMeansOf, mser, Rng } from '../../src/stats/index.ts';
import { runCli } from '../cli/runCli.ts';

// MSER-5 searched every d ≤ b − 2 and read a d* > b/2 as "the run is too short to confirm the warm-up": on long
// stationary runs the minimum fell on the two-batch tail, MSER(b − 2) = (Z_{b−1} − Z_b)²/8, one difference of two
// neighbouring (positively correlated) batch means, about one run in six (M/M/1, ρ = 0.9, 5 × 20 000 jobs; before that,
// simulate printed such a d* as "truncates 490 jobs (98.0 %)"). d* is now searched over d ≤ ⌊b/2⌋ (White's rule), and
// "too short" is a minimum on the half itself (scripts/mser-too-short.ts measures both rules).
describe('MSER-5: d* over the first half; "too short" only when MSER still falls at the half', () => {
  it('mser(z) ignores the tail: a flat series with two equal last values truncates nothing', () => {
    const r = mser(Float64Array.from([1, 3, 1, 3, 1, 3, 1, 3, 2, 2]), 5);
    expect(r).toMatchObject({ truncationBatches: 0, fraction: 0, tooShort: false });
    // a real initial transient is still found
    expect(mser(Float64Array.of(9, 5, 1, 1, 1, 1, 1, 1, 1, 1), 5)).toMatchObject({ truncationBatches: 2, tooShort: false });
    // a transient through the whole series: the minimum sits on the half
    const falling = Float64Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(mser(falling, 5)).toMatchObject({ truncationBatches: 10, fraction: 0.5, tooShort: true });
  });

  it('40 stationary M/M/1 ensembles (ρ = 0.9, 5 × 20 000 jobs, Lindley from the stationary law): none "too short"', () => {
    const rng = new Rng(7n);
    const exp = () => -Math.log(rng.nextOpen());
    const [rho, jobs, R] = [0.9, 20_000, 5];
    const flagged: number[] = [];
    for (let t = 0; t < 40; t++) {
      const ensemble = new Float64Array(jobs / 5);
      const responses = new Float64Array(jobs);
      for (let r = 0; r < R; r++) {
        let w = rng.nextDouble() < rho ? exp() / (1 - rho) : 0;
        for (let k = 0; k < jobs; k++) {
          const s = exp();
          responses[k] = w + s;
          w = Math.max(0, w + s - exp() / rho);
        }
        batchMeansOf(responses, jobs, 5).forEach((z, i) => (ensemble[i] += z / R));
      }
      const m = mser(ensemble, 5);
      // the rule before said "too short" as fraction > 0.5 (8 of these 40, the tail's artefact)
      if (m.tooShort || m.fraction > 0.5) flagged.push(t);
    }
    expect(flagged).toEqual([]);
  });

  it('simulate (M/M/1 at λ = 0.9, fixed-point start, 5 × 20 000 jobs, seed 6) no longer says "too short to confirm"', async () => {
    const args = 'simulate --lambda 0.9 --d 1 --n 1 --start fixed-point --jobs 20000 --replications 5 --seed 6 --no-progress';
    const r = await runCli(`${args} --json`);
    const out = JSON.parse(r.stdout);
    // the rule before: d* = 19 985 of 20 000 jobs (the two-batch tail), "truncates in the second half … too short"
    expect(out.warmupCheck.ensemble).toMatchObject({ tooShort: false });
    expect(out.warmupCheck.ensemble.fraction).toBeLessThanOrEqual(0.5);
    expect(out.warnings.filter((w: string) => w.includes('MSER'))).toEqual([]);
    const text = await runCli(args);
    const line = text.stdout.split('\n').find((l) => l.includes('warm-up check'))!;
    expect(line).toMatch(
      /^ {2}warm-up check: MSER-5 on the average of the 5 replications truncates \d+ jobs \([0-9.]+ %\) after the warm-up$/,
    );
  });
});
