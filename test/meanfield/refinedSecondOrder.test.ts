import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { refine, refinedEstimate, refineSecondOrder, secondOrderEstimate, solveExact } from '../../src/meanfield/index.ts';

describe('refineSecondOrder', () => {
  it('refineSecondOrder(model) keeps refine(model).sumV and solves D, C, B to round-off', () => {
    const model = parseModel({ lambda: 0.9, d: 2 });
    const r = refineSecondOrder(model);
    expect(r.sumV).toBeCloseTo(refine(model).sumV, 12);
    for (const res of Object.values(r.diagnostics.residuals)) expect(res).toBeLessThan(1e-12);
  });

  it('refineSecondOrder(model) is zero at d = 1 (linear drift)', () => {
    expect(refineSecondOrder(parseModel({ lambda: 0.7, d: 1 })).sumA).toBe(0);
  });

  it('refineSecondOrder(JSQ(2), λ = 0.5): adding ΣA/n² cuts the error against the exact n-server E[T] by > 10× at n = 3, 4', () => {
    // Exact chain: solveExact. The first-order error n²·(E[T]_exact − E[T]_1) tends to c₂ = ΣA/λ ≈ 0.1534.
    const model = parseModel({ lambda: 0.5, d: 2 });
    const second = refineSecondOrder(model);
    const first = refine(model);
    for (const n of [3, 4]) {
      const exact = solveExact(model, { n, truncationBound: 1e-8 }).meanResponseTime;
      const e1 = Math.abs(refinedEstimate(first, n).meanResponseTime - exact);
      const e2 = Math.abs(secondOrderEstimate(second, n).meanResponseTime - exact);
      expect(e2).toBeLessThan(e1 / 10);
      expect(Math.abs((exact - refinedEstimate(first, n).meanResponseTime) * n * n - second.sumA / 0.5)).toBeLessThan(0.01);
    }
  });

  it('secondOrderEstimate at d = 3, λ = 0.95, n = 20 is within 1 % of a long simulation (3.1012 ± 0.0059, issue 10)', () => {
    const r = refineSecondOrder(parseModel({ lambda: 0.95, d: 3 }));
    expect(Math.abs(secondOrderEstimate(r, 20).meanResponseTime / 3.1012 - 1)).toBeLessThan(0.01);
  });

  it('refineSecondOrder refuses sampling without replacement', () => {
    expect(() => refineSecondOrder(parseModel({ lambda: 0.9, d: 2, sampling: 'without-replacement' }))).toThrow(/with replacement only/);
  });
});
