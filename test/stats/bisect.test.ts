import { describe, expect, it } from 'vitest';
import { bracketIndex, countAtMost, interpolateLinear } from '../../src/stats/bisect.ts';

describe('bisect', () => {
  it('countAtMost(xs, x) counts the entries ≤ x, equal ones included', () => {
    const xs = [1, 2, 2, 3];
    expect([0.5, 1, 2, 2.5, 3, 4].map((x) => countAtMost(xs, x))).toEqual([0, 1, 3, 3, 4, 4]);
    expect(countAtMost([], 1)).toBe(0);
  });

  it('bracketIndex(xs, x) stays within the grid intervals', () => {
    const xs = [0, 1, 2];
    expect([-1, 0, 0.5, 1, 1.5, 2, 3].map((x) => bracketIndex(xs, x))).toEqual([0, 0, 0, 1, 1, 1, 1]);
  });

  it('interpolateLinear(xs, ys, x) is exact on lines and constant beyond the ends', () => {
    const xs = [0, 0.5, 2, 3];
    const ys = xs.map((x) => 4 - 3 * x);
    for (const x of [0.25, 0.5, 1.1, 2.9]) expect(interpolateLinear(xs, ys, x)).toBeCloseTo(4 - 3 * x, 14);
    expect(interpolateLinear(xs, ys, -1)).toBe(4);
    expect(interpolateLinear(xs, ys, 5)).toBe(ys[3]);
  });
});
