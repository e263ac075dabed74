import { describe, expect, it } from 'vitest';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { fitInverseN, logLogSlope, type FitPoint } from '../../src/compare/index.ts';

const R = 10;
const t9 = tQuantile(0.975, R - 1);
/** A simulated value with standard error `se` (half-width t·se), as the simulator reports it. */
const point = (n: number, value: number, se: number): FitPoint => ({ n, value, halfWidth: t9 * se, replications: R });

describe('logLogSlope', () => {
  it('logLogSlope(points) recovers the exponent −1 of an exact c/n error', () => {
    const points = [10, 20, 50, 100, 1000].map((n) => ({ n, error: 4 / n, halfWidth: 1e-6 }));
    const fit = logLogSlope(points)!;
    expect(fit.slope).toBeCloseTo(-1, 12);
    expect(Math.exp(fit.intercept)).toBeCloseTo(4, 10);
    expect(fit.standardError).toBeLessThan(1e-10);
  });

  it('logLogSlope(points) leaves out errors not resolved by the CI and returns null below two points', () => {
    const points = [
      { n: 10, error: 0.4, halfWidth: 0.01 },
      { n: 100, error: 0.04, halfWidth: 0.02 },
      { n: 1000, error: 0.004, halfWidth: 0.02 },
    ];
    expect(logLogSlope(points)).toBeNull();
    const fit = logLogSlope([...points, { n: 20, error: 0.2, halfWidth: 0.01 }])!;
    expect(fit.nUsed).toEqual([10, 20]);
  });

  it('logLogSlope(points) fits −2 for a 1/n² error', () => {
    const fit = logLogSlope([10, 30, 100].map((n) => ({ n, error: -7 / (n * n), halfWidth: 0 })))!;
    expect(fit.slope).toBeCloseTo(-2, 12);
  });
});

describe('fitInverseN with the limit held', () => {
  it('fitInverseN(points, { limit }) recovers c₁ and c₂ of an exact c₁/n + c₂/n² error', () => {
    const points = [10, 20, 50, 100, 200].map((n) => point(n, 2.6141 + 3.9864 / n - 5 / (n * n), 0.01));
    const fit = fitInverseN(points, { limit: 2.6141, inverseSquare: true })!;
    expect(fit.limitFitted).toBe(false);
    expect(fit.a).toBe(2.6141);
    expect(fit.c1).toBeCloseTo(3.9864, 9);
    expect(fit.c2).toBeCloseTo(-5, 7);
    expect(fit.c1StandardError).toBeGreaterThan(0);
  });

  it("fitInverseN(points, { limit, weights: 'estimated' }) (the rule before) weighs each point by σ = h/t_{0.975,R−1}: s.e. of c₁ = 1/√Σ(x_n/σ_n)², x = 1/n, half-width 1.96 s.e.", () => {
    const pts = [point(20, 1.6, 0.02), point(50, 1.55, 0.01), point(200, 1.52, 0.005)];
    const fit = fitInverseN(pts, { limit: 1.5, inverseSquare: false, weights: 'estimated' })!;
    const info = pts.reduce((s, p) => s + (1 / p.n / (p.halfWidth / t9)) ** 2, 0);
    expect(fit.c1StandardError).toBeCloseTo(1 / Math.sqrt(info), 12);
    expect(fit.c1DegreesOfFreedom).toBe(Infinity);
    expect(fit.c1HalfWidth).toBeCloseTo(1.959963984540054 * fit.c1StandardError, 12);
  });

  it('fitInverseN(points, { limit }) fits with fixed coefficients: ĉ₁ = Σ a_n y_n, a_n = x_n/Σx², s.e.² = Σ a_n² σ_n², Welch ν, t half-width', () => {
    const pts = [point(20, 1.6, 0.02), point(50, 1.55, 0.01), point(200, 1.52, 0.005)];
    const fit = fitInverseN(pts, { limit: 1.5, inverseSquare: false })!;
    const sxx = pts.reduce((s, p) => s + 1 / p.n ** 2, 0);
    const a = pts.map((p) => 1 / p.n / sxx);
    const v = pts.map((p, j) => (a[j] * p.halfWidth) / t9).map((x) => x * x);
    expect(fit.weights).toBe('fixed');
    expect(fit.c1).toBeCloseTo(
      pts.reduce((s, p, j) => s + a[j] * (p.value - 1.5), 0),
      12,
    );
    expect(fit.c1StandardError).toBeCloseTo(Math.sqrt(v[0] + v[1] + v[2]), 12);
    const nu = (v[0] + v[1] + v[2]) ** 2 / v.reduce((s, x) => s + (x * x) / 9, 0);
    expect(fit.c1DegreesOfFreedom).toBeCloseTo(nu, 9);
    expect(fit.c1HalfWidth).toBeCloseTo(tQuantile(0.975, nu) * fit.c1StandardError, 12);
    // the goodness of fit is read with the estimated σ_n around the unweighted fit
    const chi = pts.reduce((s, p) => s + ((p.value - 1.5 - fit.c1 / p.n) / (p.halfWidth / t9)) ** 2, 0);
    expect(fit.chiSquare).toBeCloseTo(chi, 9);
    expect(fit.aHalfWidth).toBeNaN();
    expect(fit.c2HalfWidth).toBeNaN();
  });

  it('fitInverseN(points, { limit }) returns null with fewer distinct n than parameters', () => {
    expect(fitInverseN([point(10, 0.1, 0.01)], { limit: 0, inverseSquare: true })).toBeNull();
  });
});

describe('fitInverseN with the limit fitted', () => {
  it('fitInverseN(points) recovers a, c₁, c₂ exactly from noise-free values a + c₁/n + c₂/n²', () => {
    const [a, c1, c2] = [2.05, 4.2, -7];
    const pts = [20, 50, 100, 200, 1000].map((n) => point(n, a + c1 / n + c2 / (n * n), 0.01 * Math.sqrt(n / 20)));
    const fit = fitInverseN(pts)!;
    expect(fit.inverseSquare).toBe(true);
    expect(fit.limitFitted).toBe(true);
    expect(fit.a).toBeCloseTo(a, 10);
    expect(fit.c1).toBeCloseTo(c1, 8);
    expect(fit.c2).toBeCloseTo(c2, 6);
    expect(fit.chiSquare).toBeLessThan(1e-12);
    expect(fit.degreesOfFreedom).toBe(2);
  });

  it('fitInverseN(two points) gives the standard error of a from the two-point formula σ·√(x₁² + x₂²)/|x₁ − x₂|, x = 1/n', () => {
    const se = 0.02;
    const fit = fitInverseN([point(50, 1.5, se), point(200, 1.4, se)])!;
    expect(fit.inverseSquare).toBe(false);
    const [x1, x2] = [1 / 50, 1 / 200];
    expect(fit.c1).toBeCloseTo(0.1 / (x1 - x2), 10);
    expect(fit.a).toBeCloseTo(1.4 - fit.c1 * x2, 10);
    expect(fit.aStandardError).toBeCloseTo((se * Math.hypot(x1, x2)) / (x1 - x2), 10);
    expect(fit.c1StandardError).toBeCloseTo((se * Math.SQRT2) / (x1 - x2), 8);
  });

  it('fitInverseN(points) returns null with fewer points than parameters or a repeated n, and refuses points without a CI', () => {
    expect(fitInverseN([point(10, 1, 0.1)])).toBeNull();
    expect(fitInverseN([point(10, 1, 0.1), point(20, 1, 0.1)], { inverseSquare: true })).toBeNull();
    expect(fitInverseN([point(10, 1, 0.1), point(10, 1.1, 0.1)])).toBeNull();
    expect(() => fitInverseN([point(10, 1, 0.1), { n: 20, value: 1, halfWidth: 0.1, replications: 1 }])).toThrow(/replications/);
  });
});
