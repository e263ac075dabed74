import { describe, expect, it } from 'vitest';
import { clampRowsToRange, clampToRange } from '../../src/numerics/clamp.ts';

describe('clampToRange', () => {
  it('clampToRange(values) sets round-off negatives to 0 in place and returns the largest move', () => {
    const row = [1, 0.5, -8.8e-67, -1e-20, 0];
    expect(clampToRange(row)).toBe(1e-20);
    expect(row).toEqual([1, 0.5, 0, 0, 0]);
  });

  it('clampToRange(values) caps fractions at 1 and leaves values inside untouched (move 0)', () => {
    const row = new Float64Array([1 + 2 ** -50, 0.25]);
    expect(clampToRange(row)).toBe(2 ** -50);
    expect(Array.from(row)).toEqual([1, 0.25]);
    expect(clampToRange([0, 0.3, 1])).toBe(0);
  });

  it('clampToRange(values, 0, Infinity) keeps densities above 1 and leaves NaN for the caller', () => {
    const row = [2.5, -3.6e-26, Number.NaN];
    expect(clampToRange(row, 0, Infinity)).toBe(3.6e-26);
    expect(row[0]).toBe(2.5);
    expect(row[1]).toBe(0);
    expect(Number.isNaN(row[2])).toBe(true);
  });

  it('clampRowsToRange(rows) returns the largest move over all rows', () => {
    const rows = [
      [1, -1e-30],
      [1, -2e-12],
    ];
    expect(clampRowsToRange(rows)).toBe(2e-12);
    expect(rows).toEqual([
      [1, 0],
      [1, 0],
    ]);
  });
});
