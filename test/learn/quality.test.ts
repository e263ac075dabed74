import { describe, expect, it } from 'vitest';
import { predictionQuality } from '../../src/learn/index.ts';
import { InvalidModelError } from '../../src/errors.ts';

describe('predictionQuality', () => {
  it('predictionQuality(S, 2S) has log correlation 1, all over-estimates, median |ln error| = ln 2', () => {
    const s = [1, 3, 10, 50, 400];
    const q = predictionQuality(
      s,
      s.map((x) => 2 * x),
    );
    expect(q.count).toBe(5);
    expect(q.excluded).toBe(0);
    expect(q.logCorrelation).toBeCloseTo(1, 14);
    expect(q.spearman).toBeCloseTo(1, 14);
    expect(q.over).toBe(1);
    expect(q.under).toBe(0);
    expect(q.medianRatio).toBeCloseTo(2, 14);
    expect(q.medianAbsLogError).toBeCloseTo(Math.LN2, 14);
  });

  it('predictionQuality(S, P) leaves out pairs with S ≤ 0 or P ≤ 0 and counts them; shares sum to 1', () => {
    const q = predictionQuality([0, 1, 2, 4, 8, 5], [3, 1, 1, 8, 0, NaN]);
    expect(q.count).toBe(3);
    expect(q.excluded).toBe(3);
    expect(q.equal).toBeCloseTo(1 / 3, 14);
    expect(q.under).toBeCloseTo(1 / 3, 14);
    expect(q.over).toBeCloseTo(1 / 3, 14);
    // |ln P − ln S| over (1,1), (2,1), (4,8): 0, ln 2, ln 2 → median ln 2
    expect(q.medianAbsLogError).toBeCloseTo(Math.LN2, 14);
    expect(q.medianRatio).toBe(1);
  });

  it('predictionQuality(S, P) throws InvalidModelError when lengths differ', () => {
    expect(() => predictionQuality([1, 2], [1])).toThrow(InvalidModelError);
    expect(() => predictionQuality([1, 2], [1])).toThrow('actual has 2 values but predicted has 1');
  });
});
