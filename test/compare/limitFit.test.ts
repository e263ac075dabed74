import { describe, expect, it } from 'vitest';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { fitLimit, limitCheck, withoutVVerdict, type LimitPoint } from '../../src/compare/index.ts';

const R = 10;
const t9 = tQuantile(0.975, R - 1);
/** An estimate with standard error `se` (half-width t·se), as the simulator reports it. */
const point = (n: number, mean: number, se: number): LimitPoint => ({ n, estimate: { mean, ci95: [mean - t9 * se, mean + t9 * se], halfWidth: t9 * se, replications: R } });

describe('fitLimit', () => {
  it('fitLimit(points) recovers a, c₁, c₂ exactly from noise-free values a + c₁/n + c₂/n²', () => {
    const [a, c1, c2] = [2.05, 4.2, -7];
    const pts = [20, 50, 100, 200, 1000].map((n) => point(n, a + c1 / n + c2 / (n * n), 0.01 * Math.sqrt(n / 20)));
    const fit = fitLimit(pts)!;
    expect(fit.inverseSquare).toBe(true);
    expect(fit.a).toBeCloseTo(a, 10);
    expect(fit.c1).toBeCloseTo(c1, 8);
    expect(fit.c2).toBeCloseTo(c2, 6);
    expect(fit.chiSquare).toBeLessThan(1e-12);
    expect(fit.degreesOfFreedom).toBe(2);
  });

  it('fitLimit(two points) gives the standard error of a from the two-point formula σ·√(x₁² + x₂²)/|x₁ − x₂|, x = 1/n', () => {
    const se = 0.02;
    const fit = fitLimit([point(50, 1.5, se), point(200, 1.4, se)])!;
    expect(fit.inverseSquare).toBe(false);
    const [x1, x2] = [1 / 50, 1 / 200];
    expect(fit.c1).toBeCloseTo(0.1 / (x1 - x2), 10);
    expect(fit.a).toBeCloseTo(1.4 - fit.c1 * x2, 10);
    expect(fit.aStandardError).toBeCloseTo((se * Math.hypot(x1, x2)) / (x1 - x2), 10);
    expect(fit.c1StandardError).toBeCloseTo((se * Math.SQRT2) / (x1 - x2), 8);
  });

  it('fitLimit(points) returns null with fewer points than parameters or a repeated n', () => {
    expect(fitLimit([point(10, 1, 0.1)])).toBeNull();
    expect(fitLimit([point(10, 1, 0.1), point(20, 1, 0.1)], true)).toBeNull();
    expect(fitLimit([point(10, 1, 0.1), point(10, 1.1, 0.1)])).toBeNull();
  });
});

describe('limitCheck / withoutVVerdict', () => {
  const fit = fitLimit([point(50, 1.5, 0.02), point(200, 1.4, 0.02)])!;

  it('limitCheck(fit, reference) adds statistical half-widths in quadrature and the numerical error linearly', () => {
    const ref = { value: fit.a + 0.01, halfWidth: 0.03, numericalError: 0.001 };
    const c = limitCheck(fit, ref);
    expect(c.difference).toBeCloseTo(-0.01, 12);
    expect(c.combinedHalfWidth).toBeCloseTo(Math.hypot(fit.aHalfWidth, 0.03) + 0.001, 12);
    expect(c.status).toBe(Math.abs(c.difference) <= c.combinedHalfWidth ? 'agrees' : 'disagrees');
    expect(limitCheck(fit, { value: fit.a + 10, halfWidth: 0, numericalError: 0 }).status).toBe('disagrees');
    expect(limitCheck(null, ref).status).toBe('not-judged');
  });

  it('withoutVVerdict(sim, ref, c1, n) allows |ĉ₁|/n on top of the CIs, and judges nothing without ĉ₁', () => {
    const sim = point(100, 1.6, 0.01).estimate;
    const ref = { value: 1.5, halfWidth: 0, numericalError: 0 };
    const v = withoutVVerdict(sim, ref, 8, 100);
    expect(v.allowance).toBe(0.08);
    expect(v.status).toBe('agrees'); // 0.1 ≤ t·0.01 + 0.08
    expect(withoutVVerdict(sim, ref, 2, 100).status).toBe('disagrees'); // 0.1 > 0.0226 + 0.02
    expect(v.zScore).toBeCloseTo(10, 10);
    const none = withoutVVerdict(sim, ref, null, 100);
    expect(none.status).toBe('not-judged');
    expect(none.rule).toMatch(/no per-n verdict without V/);
  });
});
