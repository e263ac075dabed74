import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../../src/errors.ts';
import { lwlExponentialClosedForm, lwlExponentialWorkloadCcdf, lwlTransient } from '../../../src/meanfield/lwl/index.ts';
import { solveTransient } from '../../../src/meanfield/transient.ts';
import { parseModel } from '../../../src/model/model.ts';

describe('lwlTransient', () => {
  it('lwlTransient(model, { times }) from empty converges to the equilibrium closed form with O(Δ) error (d = 2, λ = 0.7)', () => {
    const lambda = 0.7,
      d = 2;
    const model = parseModel({ lambda, d, selection: 'lwl' });
    const errors = [0.05, 0.025].map((step) => {
      const r = lwlTransient(model, { times: [0, 1, 40], step, horizon: 40 });
      expect(r.busyFraction[0]).toBe(0);
      expect(r.meanWorkload[0]).toBe(0);
      expect(r.busyFraction[2]).toBeCloseTo(lambda, 5); // the scheme keeps the load exactly at stationarity
      expect(r.diagnostics.maxMassError).toBeLessThan(1e-12);
      let sup = 0;
      r.grid.forEach((w, j) => {
        sup = Math.max(sup, Math.abs(r.workloadCcdf[2][j] - lwlExponentialWorkloadCcdf(lambda, d, w)));
      });
      return { sup, mean: Math.abs(r.meanWorkload[2] - lwlExponentialClosedForm(lambda, d).meanWorkload) };
    });
    // Measured: sup error 0.0052 at Δ = 0.05, 0.0026 at Δ = 0.025 (first order).
    expect(errors[0].sup).toBeLessThan(0.15 * 0.05);
    expect(errors[1].sup).toBeLessThan(0.6 * errors[0].sup);
    expect(errors[1].mean).toBeLessThan(0.6 * errors[0].mean);
  });

  it('lwlTransient(model, { times }) with d = 1, exponential sizes follows the M/M/1 mean-field ODE (E[U] = E[Q], busy = s_1)', () => {
    const lambda = 0.7;
    const r = lwlTransient(parseModel({ lambda, d: 1, selection: 'lwl' }), { times: [1, 5, 10], step: 0.02, horizon: 60 });
    const q = solveTransient(parseModel({ lambda, d: 1 }), { times: [0, 1, 5, 10] });
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(r.meanWorkload[i] - q.meanQueueLength[i + 1])).toBeLessThan(0.01);
      expect(Math.abs(r.busyFraction[i] - q.tail[i + 1][1])).toBeLessThan(0.01);
    }
  });

  it('lwlTransient(model, options) rejects a step with λdΔ > 1, bad times and a non-LWL selection', () => {
    const model = parseModel({ lambda: 0.9, d: 2, selection: 'lwl' });
    expect(() => lwlTransient(model, { times: [1], step: 0.6 })).toThrow(/λ·d·step/);
    expect(() => lwlTransient(model, { times: [2, 1] })).toThrow(InvalidModelError);
    expect(() => lwlTransient(parseModel({ lambda: 0.9, d: 2 }), { times: [1] })).toThrow(InvalidModelError);
  });
});
