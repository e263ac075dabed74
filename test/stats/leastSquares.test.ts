import { describe, expect, it } from 'vitest';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { standardErrorOfMean, weightedLeastSquares } from '../../src/stats/index.ts';

describe('weightedLeastSquares', () => {
  it('weightedLeastSquares(X, y, σ) matches the closed form of a weighted straight line', () => {
    const xs = [1, 2, 4, 7];
    const ys = [2.1, 3.9, 8.2, 13.8];
    const sigma = [0.1, 0.2, 0.1, 0.4];
    const w = sigma.map((s) => 1 / (s * s));
    const sw = w.reduce((a, b) => a + b, 0);
    const sx = w.reduce((a, wi, j) => a + wi * xs[j], 0);
    const sxx = w.reduce((a, wi, j) => a + wi * xs[j] ** 2, 0);
    const sy = w.reduce((a, wi, j) => a + wi * ys[j], 0);
    const sxy = w.reduce((a, wi, j) => a + wi * xs[j] * ys[j], 0);
    const det = sw * sxx - sx * sx;
    const fit = weightedLeastSquares(
      xs.map((x) => [1, x]),
      ys,
      sigma,
    )!;
    expect(fit.coefficients[0]).toBeCloseTo((sxx * sy - sx * sxy) / det, 12);
    expect(fit.coefficients[1]).toBeCloseTo((sw * sxy - sx * sy) / det, 12);
    expect(fit.standardErrors[0]).toBeCloseTo(Math.sqrt(sxx / det), 12);
    expect(fit.standardErrors[1]).toBeCloseTo(Math.sqrt(sw / det), 12);
    expect(fit.degreesOfFreedom).toBe(2);
    const chi = xs.reduce((a, x, j) => a + ((ys[j] - fit.coefficients[0] - fit.coefficients[1] * x) / sigma[j]) ** 2, 0);
    expect(fit.chiSquare).toBeCloseTo(chi, 12);
  });

  it('weightedLeastSquares(X, y, σ) returns null for a singular design (repeated rows)', () => {
    expect(
      weightedLeastSquares(
        [
          [1, 2],
          [1, 2],
        ],
        [1, 1],
        [1, 1],
      ),
    ).toBeNull();
  });
});

describe('standardErrorOfMean', () => {
  it('standardErrorOfMean(estimate) inverts the Student-t half-width, h / t_{0.975,R−1}, and is NaN below two replications', () => {
    expect(standardErrorOfMean({ halfWidth: 2.7764451051977987, replications: 5 })).toBeCloseTo(1, 12);
    expect(standardErrorOfMean({ halfWidth: tQuantile(0.975, 9) * 0.3, replications: 10 })).toBeCloseTo(0.3, 12);
    expect(standardErrorOfMean({ halfWidth: 1, replications: 1 })).toBeNaN();
  });
});
