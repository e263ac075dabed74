import { describe, expect, it } from 'vitest';
import { InvalidModelError, UnstableModelError } from '../../src/errors.ts';
import { sqdClosedFormTail, sqdDrift, sqdJacobian, sqdJacobianBands, sqdTruncationLevel } from '../../src/meanfield/sqd.ts';
import { tridiagonalToDense } from '../../src/numerics/tridiagonal.ts';
import { maxAbsDiff } from './helpers.ts';

describe('sqd', () => {
  it('sqdDrift(lambda, d, s) follows ds_i/dt = λ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}) with s_0 = 1, s_{K+1} = 0', () => {
    const s = [0.8, 0.5, 0.1];
    const f = sqdDrift(0.9, 2, s);
    expect(f.length).toBe(3);
    expect(f[0]).toBeCloseTo(0.9 * (1 - 0.64) - (0.8 - 0.5), 15);
    expect(f[1]).toBeCloseTo(0.9 * (0.64 - 0.25) - (0.5 - 0.1), 15);
    expect(f[2]).toBeCloseTo(0.9 * (0.25 - 0.01) - 0.1, 15);
  });

  it('sqdDrift(lambda, d, s, out) writes into and returns the given buffer', () => {
    const out = new Float64Array(2);
    expect(sqdDrift(0.5, 3, [0.5, 0.2], out)).toBe(out);
  });

  it('sqdDrift(lambda, d, s) does not modify s', () => {
    const s = Object.freeze([0.7, 0.3, 0.05]);
    sqdDrift(0.7, 2, s);
    expect(s).toEqual([0.7, 0.3, 0.05]);
  });

  it('sqdClosedFormTail(lambda, d, K) is a zero of the untruncated drift (birth–death balance s_{i+1} = λ s_i^d)', () => {
    for (const d of [1, 2, 3, 5]) {
      const tail = sqdClosedFormTail(0.9, d, 12);
      expect(tail.length).toBe(13);
      expect(tail[0]).toBe(1);
      for (let i = 0; i < 12; i++) expect(tail[i + 1]).toBeCloseTo(0.9 * tail[i] ** d, 15);
    }
  });

  it('sqdClosedFormTail(0.9, 2, 3) is [1, 0.9, 0.729, 0.4783]', () => {
    const tail = sqdClosedFormTail(0.9, 2, 3);
    expect(maxAbsDiff(tail, [1, 0.9, 0.9 ** 3, 0.9 ** 7])).toBeLessThan(1e-15);
  });

  it('sqdJacobian(lambda, d, s) matches central finite differences of sqdDrift', () => {
    for (const [lambda, d] of [
      [0.9, 2],
      [0.7, 3],
      [0.5, 1],
      [0.95, 5],
    ]) {
      const s = sqdClosedFormTail(lambda, d, 8)
        .slice(1)
        .map((v, i) => v * (1 - 0.03 * i));
      const A = sqdJacobian(lambda, d, s);
      const h = 1e-6;
      for (let j = 0; j < s.length; j++) {
        const up = [...s];
        const down = [...s];
        up[j] += h;
        down[j] -= h;
        const fu = sqdDrift(lambda, d, up);
        const fd = sqdDrift(lambda, d, down);
        for (let i = 0; i < s.length; i++) expect(Math.abs(A[i][j] - (fu[i] - fd[i]) / (2 * h))).toBeLessThan(1e-8);
      }
    }
  });

  it('sqdJacobianBands(lambda, d, s) expands to sqdJacobian(lambda, d, s)', () => {
    const s = sqdClosedFormTail(0.8, 3, 6).slice(1);
    expect(tridiagonalToDense(sqdJacobianBands(0.8, 3, s))).toEqual(sqdJacobian(0.8, 3, s));
  });

  it('sqdTruncationLevel(lambda, d) is the first K with s_K* < 1e−15 for d ≥ 2 (K ≈ 12–13 at d = 2, λ = 0.99)', () => {
    for (const [lambda, d] of [
      [0.99, 2],
      [0.9, 2],
      [0.5, 3],
      [0.99, 5],
    ]) {
      const K = sqdTruncationLevel(lambda, d);
      const tail = sqdClosedFormTail(lambda, d, K);
      expect(tail[K]).toBeLessThan(1e-15);
      expect(tail[K - 1]).toBeGreaterThanOrEqual(1e-15);
    }
    expect(sqdTruncationLevel(0.99, 2)).toBeGreaterThanOrEqual(12);
    expect(sqdTruncationLevel(0.99, 2)).toBeLessThanOrEqual(13);
    expect(sqdTruncationLevel(0.9, 2)).toBe(9);
  });

  it('sqdTruncationLevel(lambda, 1) is ⌈ln ε/ln λ⌉ (≈ 3,437 at λ = 0.99)', () => {
    const K = sqdTruncationLevel(0.99, 1);
    expect(K).toBe(Math.ceil(Math.log(1e-15) / Math.log(0.99)));
    expect(0.99 ** K).toBeLessThanOrEqual(1e-15);
    expect(K).toBeGreaterThan(3400);
  });

  it('sqdTruncationLevel(0.999, 1) throws InvalidModelError above the 20,000 cap, naming K and the cap', () => {
    expect(() => sqdTruncationLevel(0.999, 1)).toThrow(InvalidModelError);
    expect(() => sqdTruncationLevel(0.999, 1)).toThrow(/maxLevel = 20000/);
    expect(sqdTruncationLevel(0.999, 1, 1e-15, 1e5)).toBeGreaterThan(20000);
  });

  it('sqdClosedFormTail(lambda, d, K) rejects λ ≥ 1 (UnstableModelError) and d = 1.5 (InvalidModelError)', () => {
    expect(() => sqdClosedFormTail(1, 2, 5)).toThrow(UnstableModelError);
    expect(() => sqdClosedFormTail(0.5, 1.5, 5)).toThrow(InvalidModelError);
    expect(() => sqdTruncationLevel(0.5, 2, 0)).toThrow(InvalidModelError);
  });
});
