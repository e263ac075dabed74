import { describe, expect, it } from 'vitest';
import { and, compareIntervals, div, mul, not, or, pow, sub } from '../../src/claims/index.ts';

const iv = (lo: number, hi: number) => ({ lo, hi });

describe('interval verdicts', () => {
  it('compareIntervals(left, "<", right) holds only when left.hi < right.lo, fails when left.lo ≥ right.hi', () => {
    expect(compareIntervals(iv(1, 2), '<', iv(2.5, 3))).toBe('holds');
    expect(compareIntervals(iv(1, 2), '<', iv(1.5, 3))).toBe('undecided'); // overlap
    expect(compareIntervals(iv(3, 4), '<', iv(1, 3))).toBe('fails'); // touching: 3 < 3 is false for the only overlap pair
    expect(compareIntervals(iv(2, 2), '<', iv(2, 2))).toBe('fails'); // equal points
    expect(compareIntervals(iv(2, 2), '<=', iv(2, 2))).toBe('holds');
    expect(compareIntervals(iv(1, 2), '<=', iv(2, 3))).toBe('holds');
    expect(compareIntervals(iv(2.5, 3), '>', iv(1, 2))).toBe('holds');
    expect(compareIntervals(iv(1, 2), '>=', iv(1.5, 3))).toBe('undecided');
    expect(compareIntervals(iv(1, 2), '>=', iv(2.5, 3))).toBe('fails');
  });

  it('and/or/not follow Kleene three-valued logic', () => {
    expect(and(['holds', 'undecided'])).toBe('undecided');
    expect(and(['fails', 'undecided'])).toBe('fails');
    expect(and(['holds', 'holds'])).toBe('holds');
    expect(or(['fails', 'undecided'])).toBe('undecided');
    expect(or(['holds', 'undecided'])).toBe('holds');
    expect(or(['fails', 'fails'])).toBe('fails');
    expect(not('undecided')).toBe('undecided');
    expect(not('holds')).toBe('fails');
  });

  it('sub, mul, div, pow enclose every value of the operation over the boxes (checked on a grid of samples)', () => {
    const a = iv(-1.5, 2);
    const b = iv(0.5, 3);
    const ops: [string, (x: typeof a, y: typeof b) => { lo: number; hi: number }, (x: number, y: number) => number][] = [
      ['sub', sub, (x, y) => x - y],
      ['mul', mul, (x, y) => x * y],
      ['div', div, (x, y) => x / y],
      ['pow2', (x) => pow(x, 2), (x) => x * x],
    ];
    for (const [, f, g] of ops) {
      const r = f(a, b);
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i <= 28; i++)
        for (let j = 0; j <= 28; j++) {
          // step 0.125 in a: hits 0
          const v = g(a.lo + (i / 28) * (a.hi - a.lo), b.lo + (j / 28) * (b.hi - b.lo));
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      expect(r.lo).toBeCloseTo(lo, 12); // tight at the end points for these monotone-in-each-argument operations
      expect(r.hi).toBeCloseTo(hi, 12);
    }
  });

  it('div(x, y) is the whole line when y contains 0, so nothing is decided', () => {
    const r = div(iv(1, 2), iv(-0.1, 0.1));
    expect(r).toEqual({ lo: -Infinity, hi: Infinity });
    expect(compareIntervals(r, '<', iv(5, 5))).toBe('undecided');
  });
});
