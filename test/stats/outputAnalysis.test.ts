import { describe, expect, it } from 'vitest';
import { coverageBand, wilsonInterval } from '../../src/stats/binomial.ts';
import { batchMeansOf, mser } from '../../src/stats/mser.ts';
import { Rng } from '../../src/stats/rng.ts';
import { feasible, precisionReached, sectioningInterval, tInterval } from '../../src/stats/tInterval.ts';

describe('output analysis', () => {
  it('mser(batch means) finds the end of an initial transient and d* = 0 on a constant-mean series', () => {
    expect(mser(Float64Array.of(9, 5, 1, 1, 1, 1), 5)).toMatchObject({ truncationBatches: 2, truncation: 10, batches: 6 });
    const rng = new Rng(9n);
    // exponential transient 10·e^{−i/50} over noise of SD ~1: MSER-5 should cut roughly where the bias drops below the noise SE
    const xs = Float64Array.from({ length: 20_000 }, (_, i) => 10 * Math.exp(-i / 50) + rng.nextExp());
    const r = mser(batchMeansOf(xs, xs.length, 5), 5);
    expect(r.truncation).toBeGreaterThan(150);
    expect(r.truncation).toBeLessThan(1000);
    const flat = Float64Array.from({ length: 20_000 }, () => rng.nextExp());
    expect(mser(batchMeansOf(flat, flat.length, 5), 5).fraction).toBeLessThan(0.5);
    expect(() => mser([1, 2])).toThrow(/at least 3/);
    expect(Array.from(batchMeansOf([1, 2, 3, 4, 5, 6, 7], 7, 3))).toEqual([2, 5]);
  });

  it('mser refuses a value that is not finite, naming the first in its walk (from the end), and nothing else', () => {
    expect(() => mser([1, NaN, 2, 3, 4])).toThrow('MSER batch mean 1 is not finite: NaN');
    expect(() => mser([1, Infinity, 2, NaN, 4])).toThrow('MSER batch mean 3 is not finite: NaN');
    // the last value is the centre: minus itself it is NaN
    expect(() => mser([1, 2, 3, -Infinity])).toThrow('MSER batch mean 3 is not finite: -Infinity');
    // finite values whose squares overflow: no error (the sums are infinite, the truncation is still chosen)
    expect(mser([1e200, -1e200, 1e200, 0]).batches).toBe(4);
  });

  it('wilsonInterval and coverageBand: (190, 200) at 95 % ≈ [0.9104, 0.9726]; band around 0.95 for 200 seeds at 99 % ≈ [0.894, 0.977]', () => {
    const [a, b] = wilsonInterval(190, 200, 0.95);
    expect(a).toBeCloseTo(0.91042, 4);
    expect(b).toBeCloseTo(0.97262, 4);
    const [lo, hi] = coverageBand(0.95, 200, 0.99);
    expect(lo).toBeCloseTo(0.8939, 3);
    expect(hi).toBeCloseTo(0.9772, 3);
    expect(() => wilsonInterval(3, 2)).toThrow(/0 ≤ k ≤ N/);
  });

  it('sectioningInterval centres the t half-width of the sections on the pooled value; feasible clips ci95 only; precisionReached', () => {
    const s = sectioningInterval([1, 2, 3], 2.5);
    expect(s.mean).toBe(2.5);
    expect(s.halfWidth).toBeCloseTo(tInterval([1, 2, 3]).halfWidth, 15);
    expect(s.ci95[0]).toBeCloseTo(2.5 - s.halfWidth, 15);
    const e = { mean: 0.1, ci95: [-0.2, 0.4] as [number, number], halfWidth: 0.3, replications: 5 };
    expect(feasible(e)).toEqual({ ...e, ci95: [0, 0.4] });
    expect(feasible({ ...e, mean: 0.9, ci95: [0.6, 1.2] }, 0, 1).ci95).toEqual([0.6, 1]);
    expect(precisionReached(e, { relative: 0.5 })).toBe(false); // 0.3 > 0.5·0.1
    expect(precisionReached(e, { halfWidth: 0.3 })).toBe(true);
    expect(precisionReached(e, {})).toBe(false);
  });
});
