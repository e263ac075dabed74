import { describe, expect, it } from 'vitest';
import { fitInverseN, logLogSlope } from '../../src/compare/index.ts';

describe('logLogSlope', () => {
  it('logLogSlope(points) recovers the exponent −1 of an exact c/n error', () => {
    const points = [10, 20, 50, 100, 1000].map((n) => ({ n, error: 4 / n, halfWidth: 1e-6 }));
    const fit = logLogSlope(points)!;
    expect(fit.slope).toBeCloseTo(-1, 12);
    expect(Math.exp(fit.intercept)).toBeCloseTo(4, 10);
    expect(fit.standardError).toBeLessThan(1e-10);
  });

  it('logLogSlope(points) leaves out errors not resolved by the CI and returns null below two points', () => {
    const points = [{ n: 10, error: 0.4, halfWidth: 0.01 }, { n: 100, error: 0.04, halfWidth: 0.02 }, { n: 1000, error: 0.004, halfWidth: 0.02 }];
    expect(logLogSlope(points)).toBeNull();
    const fit = logLogSlope([...points, { n: 20, error: 0.2, halfWidth: 0.01 }])!;
    expect(fit.nUsed).toEqual([10, 20]);
  });

  it('logLogSlope(points) fits −2 for a 1/n² error', () => {
    const fit = logLogSlope([10, 30, 100].map((n) => ({ n, error: -7 / (n * n), halfWidth: 0 })))!;
    expect(fit.slope).toBeCloseTo(-2, 12);
  });
});

describe('fitInverseN', () => {
  it('fitInverseN(points) recovers c₁ and c₂ of an exact c₁/n + c₂/n² error', () => {
    const points = [10, 20, 50, 100, 200].map((n) => ({ n, error: 3.9864 / n - 5 / (n * n), halfWidth: 0.01 }));
    const fit = fitInverseN(points)!;
    expect(fit.c1).toBeCloseTo(3.9864, 9);
    expect(fit.c2).toBeCloseTo(-5, 7);
    expect(fit.c1StandardError).toBeGreaterThan(0);
  });

  it("fitInverseN(points) returns null with fewer than three distinct n", () => {
    expect(fitInverseN([{ n: 10, error: 0.1, halfWidth: 0.01 }])).toBeNull();
  });
});
