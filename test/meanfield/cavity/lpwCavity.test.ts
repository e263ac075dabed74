import { describe, expect, it } from 'vitest';
import { lpwCavity, lwlCavity } from '../../../src/meanfield/cavity/index.ts';
import { lwlExponentialClosedForm } from '../../../src/meanfield/lwl/closedForm.ts';
import { lwlFixedPoint } from '../../../src/meanfield/lwl/fixedPoint.ts';
import { parseModel } from '../../../src/model/index.ts';
import { InvalidModelError } from '../../../src/errors.ts';

// small budgets: λ = 0.8, 3 restarts at 10⁴ time units; the half-width is bounded so that a loose CI cannot pass
const budget = { restarts: 3, iterationHorizon: 1e4, initialHorizon: 1e3, averagingIterations: 2 };
const lpw = (discipline: string) => parseModel({ lambda: 0.8, d: 2, selection: 'lpw', discipline, prediction: 'exact' });

describe('lpwCavity: with exact predictions LPW(d) is LWL(d) (P is the workload under clip)', () => {
  it('lpwCavity(LPW + FIFO, exact predictions) holds the LWL(2) closed form E[T] in its CI, checks passed', () => {
    const r = lpwCavity(lpw('fifo'), budget);
    const truth = lwlExponentialClosedForm(0.8, 2).meanResponseTime;
    expect(r.meanResponseTime.ci95[0]).toBeLessThanOrEqual(truth);
    expect(r.meanResponseTime.ci95[1]).toBeGreaterThanOrEqual(truth);
    expect(r.meanResponseTime.halfWidth).toBeLessThan(0.05 * truth);
    expect(r.convergence.converged).toBe(true);
    expect(Object.values(r.convergence.checks).every((c) => c.passed)).toBe(true);
    // the idle mass is 1 − ρ and nothing else sits at P = 0 (exact predictions never overrun)
    expect(r.predictedWork.atom).toBeCloseTo(0.2, 12);
  });

  it('lpwCavity(LPW + SRPT, exact predictions) agrees with the LWL cavity queue (SRPT) within the combined CI', () => {
    const r = lpwCavity(lpw('srpt'), budget);
    const lwl = lwlCavity(parseModel({ lambda: 0.8, d: 2, selection: 'lwl', discipline: 'srpt' }), { horizon: 5e4, seed: 7 });
    const gap = Math.abs(r.meanResponseTime.mean - lwl.meanResponseTime.mean);
    expect(gap).toBeLessThanOrEqual(Math.hypot(r.meanResponseTime.halfWidth, lwl.meanResponseTime.halfWidth));
    // and SRPT beats FIFO under the same selection
    expect(r.meanResponseTime.ci95[1]).toBeLessThan(lwlExponentialClosedForm(0.8, 2).meanResponseTime);
  });

  it('lpwCavity(LPW + FIFO, exact predictions, Weibull ½ sizes) holds the LWL(2) FPE answer: a start that is not the answer', () => {
    // the iteration starts from the exponential-size LWL tail, which is not the Weibull one: the law must travel
    const m = parseModel({ lambda: 0.8, d: 2, selection: 'lpw', discipline: 'fifo', prediction: 'exact', service: 'weibull:0.5' });
    const r = lpwCavity(m, { ...budget, restarts: 4 });
    const truth = lwlFixedPoint(parseModel({ lambda: 0.8, d: 2, selection: 'lwl', discipline: 'fifo', service: 'weibull:0.5' }));
    const t = truth.meanResponseTime;
    expect(Math.abs(r.meanResponseTime.mean - t)).toBeLessThanOrEqual(
      r.meanResponseTime.halfWidth + truth.diagnostics.meanResponseTimeErrorBound,
    );
    expect(r.meanResponseTime.halfWidth).toBeLessThan(0.06 * t);
    expect(Math.abs(r.convergence.checks.busyFraction.busy - 0.8)).toBeLessThan(0.005);
  });

  it('lpwCavity refuses another selection and trace predictions in one line', () => {
    expect(() => lpwCavity(parseModel({ lambda: 0.8, d: 2, selection: 'lwl' }))).toThrow(InvalidModelError);
    expect(() => lpwCavity(lpw('fifo'), { restarts: 1 })).toThrow(/restarts must be an integer in \[2, 100\]/);
  });
});

describe("lpwCavity: Little's law of the limit, E[Q] = λE[T]", () => {
  it("E[Q] is λE[T] to rounding (it was the cavity queue's time average at its own throughput: 1.836702 vs λE[T] 1.840811)", () => {
    const model = parseModel({ lambda: 0.8, d: 2, selection: 'lpw', discipline: 'fifo', prediction: 'uniform:0.5' });
    const r = lpwCavity(model, budget);
    expect(Math.abs(r.meanQueueLength - 0.8 * r.meanResponseTime.mean)).toBeLessThan(1e-12);
    // the cavity queue's own time average obeys Little at its own throughput (the check), not at λ
    const { throughput } = r.convergence.checks.throughput;
    expect(Math.abs(r.convergence.cavityQueueLength / throughput - r.meanResponseTime.mean) / r.meanResponseTime.mean).toBeLessThan(0.01);
    expect(r.convergence.cavityQueueLength).not.toBe(r.meanQueueLength);
  });
});
