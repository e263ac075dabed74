import { describe, expect, it } from 'vitest';
import { refinedVerdict } from '../../src/compare/index.ts';

const est = (mean: number, halfWidth: number) => ({ mean, ci95: [mean - halfWidth, mean + halfWidth] as [number, number], halfWidth, replications: 5 });

describe('refinedVerdict', () => {
  it('refinedVerdict(...) agrees when the difference is inside the half-width plus the allowance', () => {
    const v = refinedVerdict(est(2.62, 0.01), 2.615, 2.3527, 3.9864, 0.9, 1000);
    expect(v.status).toBe('agrees');
    expect(v.difference).toBeCloseTo(0.005, 12);
    expect(v.allowance).toBeCloseTo((3.9864 / 1000) * 3.9864 / (1000 * 2.3527) / 0.9, 15);
  });

  it('refinedVerdict(...) disagrees when the difference exceeds half-width plus allowance', () => {
    expect(refinedVerdict(est(2.7, 0.01), 2.615, 2.3527, 3.9864, 0.9, 1000).status).toBe('disagrees');
  });

  it('refinedVerdict(...) declines to judge when ΣV/(nΣπ) exceeds 10%', () => {
    const v = refinedVerdict(est(3, 0.01), 2.615, 2.3527, 3.9864, 0.9, 10);
    expect(v.relativeCorrection).toBeCloseTo(3.9864 / (10 * 2.3527), 12);
    expect(v.status).toBe('refined-out-of-range');
  });

  it('refinedVerdict(...) gives a z-score of difference over the standard error (t with R − 1 dof)', () => {
    const v = refinedVerdict(est(2.625, 0.01), 2.615, 2.3527, 3.9864, 0.9, 1000);
    expect(v.zScore).toBeCloseTo(0.01 / (0.01 / 2.7764451051977987), 6);
  });
});
