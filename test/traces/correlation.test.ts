import { describe, expect, it } from 'vitest';
import { sampleCorrelation, sampleRankCorrelation } from 'simple-statistics';
import { mean, median, pearson, ranks, scv, spearman } from '../../src/traces/correlation.ts';

describe('sample summaries', () => {
  it('mean/scv/median(x) match hand values on [1, 2, 3, 10]', () => {
    const x = [1, 2, 3, 10];
    expect(mean(x)).toBe(4);
    expect(scv(x)).toBeCloseTo((9 + 4 + 1 + 36) / 4 / 16, 14);
    expect(median(x)).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
    expect(Number.isNaN(median([]))).toBe(true);
  });

  it('pearson(x, y) and spearman(x, y) match simple-statistics on tie-free data', () => {
    const x = Array.from({ length: 50 }, (_, i) => Math.sin(i * 1.7) * 10 + i);
    const y = x.map((v, i) => v * v + Math.cos(i * 3.1) * 40);
    expect(pearson(x, y)).toBeCloseTo(sampleCorrelation(x, y), 12);
    expect(spearman(x, y)).toBeCloseTo(sampleRankCorrelation(x, y), 12);
  });

  it('ranks(x) gives tied values the average of their ranks (as scipy.stats.rankdata)', () => {
    expect(Array.from(ranks([10, 20, 10, 30, 20, 20]))).toEqual([1.5, 4, 1.5, 6, 4, 4]);
  });

  it('pearson(x, y) is NaN for a constant column and 1 for an exact linear relation', () => {
    expect(Number.isNaN(pearson([1, 1, 1], [1, 2, 3]))).toBe(true);
    expect(pearson([1, 2, 3, 4], [3, 5, 7, 9])).toBeCloseTo(1, 15);
  });
});
