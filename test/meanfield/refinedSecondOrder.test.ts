import { meanFieldCapabilities } from '../../src/meanfield/index.ts';
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import {
  refine,
  refinedEstimate,
  refineSecondOrder,
  secondOrderEstimate,
  secondOrderRatio,
  secondOrderTrust,
  solveExact,
  SECOND_ORDER_RANGE,
} from '../../src/meanfield/index.ts';

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

  it('the 1/n² term is refused at d ≥ 4, where it describes no n one can simulate (theory.md §6)', () => {
    const model = parseModel({ lambda: 0.9, d: 4 });
    expect(() => refineSecondOrder(model)).toThrow(/refused at d = 4 > 3: its coefficient is right but only for n far beyond simulation/);
    const cap = meanFieldCapabilities(model).refined;
    expect(cap.firstOrder.available).toBe(true);
    expect(cap.secondOrder.available).toBe(false);
    expect(() => refineSecondOrder(parseModel({ lambda: 0.9, d: 3 }))).not.toThrow();
  });

  it('refineSecondOrder refuses sampling without replacement', () => {
    expect(() => refineSecondOrder(parseModel({ lambda: 0.9, d: 2, sampling: 'without-replacement' }))).toThrow(/with replacement only/);
  });
});

describe('the order-2 trusted range (issue 21 §3)', () => {
  it('secondOrderTrust: inside |ΣA|/(n|ΣV|) ≤ 0.5 order 2 beats order 1 against the exact chain; outside it can lose, and says so', () => {
    expect(SECOND_ORDER_RANGE).toBe(0.5);
    const errors = (lambda: number, d: number, n: number) => {
      const model = parseModel({ lambda, d });
      const second = refineSecondOrder(model);
      const exact = solveExact(model, { n, truncationBound: 1e-7 }).meanResponseTime;
      const e1 = Math.abs(refinedEstimate({ fixedPoint: second.fixedPoint, V: second.V, sumV: second.sumV }, n).meanResponseTime - exact);
      const e2 = Math.abs(secondOrderEstimate(second, n).meanResponseTime - exact);
      return { e1, e2, trust: secondOrderTrust(second, n) };
    };
    // d = 2, λ = 0.9, n = 3: ratio 0.445, inside; order 2 has a quarter of order 1's error (0.13 vs 0.53)
    const inside = errors(0.9, 2, 3);
    expect(inside.trust).toMatchObject({ trusted: true, caveat: null });
    expect(inside.trust.ratio).toBeCloseTo(0.445, 2);
    expect(inside.e2).toBeLessThan(0.5 * inside.e1);
    // d = 2, λ = 0.95, n = 2: ratio 1.27, outside; order 2 is worse than order 1 (3.05 vs 2.87 off the exact 10.93)
    const outside = errors(0.95, 2, 2);
    expect(outside.trust.trusted).toBe(false);
    expect(outside.trust.caveat).toMatch(/order 2 is outside its trusted range at n = 2: \|ΣA\|\/\(n\|ΣV\|\) = 1\.27 > 0\.5/);
    expect(outside.e2).toBeGreaterThan(outside.e1);
    // the case, d = 3, λ = 0.95, n = 3 (order 2 10.97 against an exact 7.64): ratio 1.67, outside
    const c = refineSecondOrder(parseModel({ lambda: 0.95, d: 3 }));
    expect(secondOrderRatio(c.sumA, c.sumV, 3)).toBeCloseTo(1.67, 2);
    expect(secondOrderTrust(c, 3).trusted).toBe(false);
    expect(secondOrderTrust(c, 20).trusted).toBe(true);
  });
});
