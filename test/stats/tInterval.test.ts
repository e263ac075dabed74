import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { tInterval } from '../../src/stats/tInterval.ts';

describe('tInterval', () => {
  it('tInterval([1, 2, 3]) is 2 ± t_{0.975,2}·1/√3 (t = 4.302653, R: qt(0.975, 2))', () => {
    const e = tInterval([1, 2, 3]);
    expect(e.mean).toBe(2);
    expect(e.halfWidth).toBeCloseTo(4.302653 / Math.sqrt(3), 5);
    expect(e.ci95[0]).toBeCloseTo(2 - e.halfWidth, 12);
    expect(e.ci95[1]).toBeCloseTo(2 + e.halfWidth, 12);
    expect(e.replications).toBe(3);
  });

  it('tInterval(samples, 0.9) uses t_{0.95,9} = 1.833113 for 10 samples', () => {
    const xs = Array.from({ length: 10 }, (_, i) => i);
    const sd = Math.sqrt(xs.reduce((s, x) => s + (x - 4.5) ** 2, 0) / 9);
    expect(tInterval(xs, 0.9).halfWidth).toBeCloseTo((1.833113 * sd) / Math.sqrt(10), 5);
  });

  it('tInterval(equal samples) has zero half-width', () => {
    expect(tInterval(new Float64Array([0.5, 0.5, 0.5])).halfWidth).toBe(0);
  });

  it('tInterval(fewer than 2 samples) throws InvalidModelError', () => {
    expect(() => tInterval([1])).toThrow(InvalidModelError);
    expect(() => tInterval([])).toThrow(InvalidModelError);
  });

  it('tInterval(samples with NaN) and a confidence outside (0, 1) throw InvalidModelError', () => {
    expect(() => tInterval([1, NaN])).toThrow(InvalidModelError);
    expect(() => tInterval([1, 2], 1)).toThrow(InvalidModelError);
  });

  it('tInterval(samples) does not modify its input', () => {
    const xs = Object.freeze([3, 1, 2]);
    tInterval(xs);
    expect(xs).toEqual([3, 1, 2]);
  });

  it('gives each (confidence, R) its own t quantile when they alternate (the remembered one is not reused)', () => {
    // R: qt(0.975, 1) = 12.7062, qt(0.975, 4) = 2.776445, qt(0.95, 4) = 2.131847; s = 1 for [0, 1]·√2 and [1..5]/√2.5
    const two = [0, Math.SQRT2];
    const five = [1, 2, 3, 4, 5].map((x) => x / Math.sqrt(2.5));
    for (let round = 0; round < 2; round++) {
      expect(tInterval(two).halfWidth).toBeCloseTo(12.706205 / Math.SQRT2, 5);
      expect(tInterval(five).halfWidth).toBeCloseTo(2.776445 / Math.sqrt(5), 5);
      expect(tInterval(five, 0.9).halfWidth).toBeCloseTo(2.131847 / Math.sqrt(5), 5);
      expect(tInterval(two).halfWidth).toBeCloseTo(12.706205 / Math.SQRT2, 5);
    }
  });
});
