import { describe, expect, it } from 'vitest';
import { batchMeansAndHistogram } from '../../src/sim/measurement.ts';
import { batchMeansOf } from '../../src/stats/mser.ts';
import { RADIX, radixHistogram } from '../../src/stats/quantile.ts';
import { Rng } from '../../src/stats/rng.ts';

describe('batchMeansAndHistogram', () => {
  it('gives what batchMeansOf and radixHistogram give, bit for bit, for m = 5 (one pass) and other m', () => {
    const rng = new Rng(31n);
    // signed zeros, a negative value and values that round differently in float32 sums
    const values = Float32Array.from([-0, -0, -0, -0, -0, 0, -1.25, ...Array.from({ length: 4000 }, () => rng.nextExpByLog() * 7.3)]);
    for (const m of [5, 1, 3, 7])
      for (const count of [0, 4, 5, 6, 9, 10, 11, 3999, 4006]) {
        const means = new Float64Array(Math.floor(count / m));
        const high = new Int32Array(RADIX);
        high[7] = 2; // counts are added to
        batchMeansAndHistogram(values, count, m, means, high);
        const want = batchMeansOf(values, count, m);
        expect(Array.from(means).every((x, k) => Object.is(x, want[k]))).toBe(true);
        const wantHigh = radixHistogram([values.subarray(0, count)]);
        wantHigh[7] += 2;
        expect(high).toEqual(wantHigh);
      }
  });
});
