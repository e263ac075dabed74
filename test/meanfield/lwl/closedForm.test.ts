import { describe, expect, it } from 'vitest';
import { lwlExponentialClosedForm, lwlExponentialResponseCcdf, lwlExponentialWorkloadCcdf } from '../../../src/meanfield/lwl/index.ts';
import { InvalidModelError, UnstableModelError } from '../../../src/errors.ts';

// theory.md §10, LWL(d) FIFO table (4 decimals).
const TABLE: Record<number, Record<number, number>> = {
  2: { 0.5: 1.1507, 0.7: 1.3742, 0.9: 2.0503, 0.99: 3.9966 },
  3: { 0.5: 1.0451, 0.7: 1.1458, 0.9: 1.4875, 0.99: 2.481 },
  4: { 0.5: 1.0162, 0.9: 1.2856, 0.99: 1.9466 },
  10: { 0.5: 1.0001, 0.9: 1.0433, 0.99: 1.246 },
};

function series(lambda: number, d: number): number {
  let s = 0;
  for (let n = 0; n < 100000; n++) s += lambda ** (d * n) / (1 + n * (d - 1));
  return s;
}

describe('lwlExponentialClosedForm', () => {
  it('lwlExponentialClosedForm(λ, d).meanResponseTime matches theory.md §10 to 4 decimals', () => {
    for (const [d, row] of Object.entries(TABLE)) {
      for (const [lambda, value] of Object.entries(row)) {
        expect(Math.abs(lwlExponentialClosedForm(Number(lambda), Number(d)).meanResponseTime - value)).toBeLessThan(5.1e-5);
      }
    }
  });

  it('lwlExponentialClosedForm(λ, d) uses elementary forms for d = 2, 3 equal to the series Σλ^{dn}/(1 + n(d−1))', () => {
    for (const d of [2, 3])
      for (const lambda of [0.3, 0.8, 0.95]) {
        expect(lwlExponentialClosedForm(lambda, d).meanResponseTime).toBeCloseTo(series(lambda, d), 12);
      }
  });

  it('lwlExponentialClosedForm(λ, 1) is M/M/1: E[T] = 1/(1 − λ), E[U] = λE[T]', () => {
    const r = lwlExponentialClosedForm(0.8, 1);
    expect(r.meanResponseTime).toBeCloseTo(5, 12);
    expect(r.meanWorkload).toBeCloseTo(4, 12);
  });

  it('lwlExponentialWorkloadCcdf(λ, d, w) starts at ρ and integrates to E[U] = λE[T]; P(T > t) starts at 1 and integrates to E[T]', () => {
    for (const d of [1, 2, 3]) {
      const lambda = 0.9,
        h = 1e-2;
      let U = 0,
        T = 0;
      for (let w = h / 2; w < 400; w += h) {
        U += h * lwlExponentialWorkloadCcdf(lambda, d, w);
        T += h * lwlExponentialResponseCcdf(lambda, d, w);
      }
      const cf = lwlExponentialClosedForm(lambda, d);
      expect(lwlExponentialWorkloadCcdf(lambda, d, 0)).toBeCloseTo(lambda, 14);
      expect(lwlExponentialResponseCcdf(lambda, d, 0)).toBeCloseTo(1, 14);
      expect(U).toBeCloseTo(cf.meanWorkload, 4); // midpoint rule, h = 0.01
      expect(T).toBeCloseTo(cf.meanResponseTime, 4);
    }
  });

  it('lwlExponentialClosedForm(λ, d) rejects λ ∉ (0, 1) and non-integer d', () => {
    expect(() => lwlExponentialClosedForm(1, 2)).toThrow(UnstableModelError);
    expect(() => lwlExponentialClosedForm(0.5, 1.5)).toThrow(InvalidModelError);
  });
});
