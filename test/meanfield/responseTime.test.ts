import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { solveSqdFixedPoint } from '../../src/meanfield/fixedPoint.ts';
import { responseTimeCcdf, responseTimeQuantile } from '../../src/meanfield/responseTime.ts';
import { sqd } from './helpers.ts';

/** ∫_0^T P(T > t) dt by the trapezoid rule on a uniform grid of step h. */
function trapezoid(values: number[], h: number): number {
  let sum = 0;
  for (let i = 1; i < values.length; i++) sum += 0.5 * h * (values[i - 1] + values[i]);
  return sum;
}

describe('responseTimeCcdf', () => {
  it('responseTimeCcdf(fp, d, times) integrates to E[T] (trapezoid, step 0.01) for d ∈ {2, 3, 5}, λ ∈ {0.5, 0.9, 0.99}', () => {
    for (const d of [2, 3, 5]) {
      for (const lambda of [0.5, 0.9, 0.99]) {
        const fp = solveSqdFixedPoint(sqd(lambda, d));
        const h = 0.01;
        const horizon = 60 * fp.meanResponseTime;
        const times = Array.from({ length: Math.ceil(horizon / h) + 1 }, (_, i) => i * h);
        const ccdf = responseTimeCcdf(fp, d, times);
        expect(ccdf[ccdf.length - 1]).toBeLessThan(1e-9);
        expect(Math.abs(trapezoid(ccdf, h) - fp.meanResponseTime) / fp.meanResponseTime).toBeLessThan(1e-5);
      }
    }
  });

  it('responseTimeCcdf(fp, 1, times) equals exp(−(1 − λ)t) (M/M/1 FIFO), including t = 0 and large t', () => {
    for (const lambda of [0.5, 0.9, 0.99]) {
      const fp = solveSqdFixedPoint(sqd(lambda, 1));
      const times = [0, 0.1, 1, 10, 100, 1000];
      const ccdf = responseTimeCcdf(fp, 1, times);
      times.forEach((t, i) => expect(Math.abs(ccdf[i] - Math.exp(-(1 - lambda) * t))).toBeLessThan(1e-12));
    }
  });

  it('responseTimeCcdf(fp, d, times) is 1 at t = 0, non-increasing, in [0, 1]', () => {
    const fp = solveSqdFixedPoint(sqd(0.95, 2));
    const ccdf = responseTimeCcdf(fp, 2, [0, 0.5, 1, 2, 5, 10, 50]);
    expect(ccdf[0]).toBe(1);
    for (let i = 1; i < ccdf.length; i++) expect(ccdf[i]).toBeLessThanOrEqual(ccdf[i - 1]);
    expect(ccdf.every((p) => p >= 0 && p <= 1)).toBe(true);
  });

  it('responseTimeCcdf(fp, d, times) with service mean 2 is the unit-mean ccdf at t/2', () => {
    const unit = solveSqdFixedPoint(sqd(0.9, 2));
    const slow = solveSqdFixedPoint(sqd(0.45, 2, { service: { kind: 'exponential', mean: 2 } }));
    const a = responseTimeCcdf(unit, 2, [1, 3, 7]);
    const b = responseTimeCcdf(slow, 2, [2, 6, 14]);
    a.forEach((p, i) => expect(b[i]).toBeCloseTo(p, 14));
  });

  it('responseTimeCcdf(fp, d, times) throws InvalidModelError if d differs from the model or a time is NaN', () => {
    const fp = solveSqdFixedPoint(sqd(0.9, 2));
    expect(() => responseTimeCcdf(fp, 3, [1])).toThrow(InvalidModelError);
    expect(() => responseTimeCcdf(fp, 2, [Number.NaN])).toThrow(InvalidModelError);
  });

  it('responseTimeQuantile(fp, 1, p) is −ln(1 − p)/(1 − λ) for M/M/1, and inverts the ccdf at d = 2', () => {
    const mm1 = solveSqdFixedPoint(sqd(0.5, 1));
    expect(responseTimeQuantile(mm1, 1, 0.5)).toBeCloseTo(2 * Math.LN2, 10);
    expect(responseTimeQuantile(mm1, 1, 0.99)).toBeCloseTo(-Math.log(0.01) / 0.5, 9);
    const fp = solveSqdFixedPoint(sqd(0.9, 2));
    const t99 = responseTimeQuantile(fp, 2, 0.99);
    expect(responseTimeCcdf(fp, 2, [t99])[0]).toBeCloseTo(0.01, 10);
    expect(() => responseTimeQuantile(fp, 2, 1)).toThrow(InvalidModelError);
  });
});
