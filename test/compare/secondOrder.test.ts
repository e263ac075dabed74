import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { refineSecondOrder, secondOrderEstimate } from '../../src/meanfield/index.ts';
import { fitInverseN, runComparison } from '../../src/compare/index.ts';
import { C2_RULE, judgeC2, secondOrderAllowance, secondOrderTerm } from '../../src/compare/secondOrder.ts';
import { REFINED_SECOND_ORDER_RULE } from '../../src/compare/verdict.ts';
import { testComparison } from './config.ts';

describe('the 1/n² term in the comparison', () => {
  const config = testComparison({ lambdas: [0.7], ns: [10, 20, 50], jobs: 3_000, replications: 3, seed: 3 });

  it('runComparison(classic, with replacement) gives each cell π + V/n + A/n² equal to secondOrderEstimate, and δ_n = 2|ΣA|/(n²λ)', () => {
    const r = runComparison(config);
    const model = parseModel({ lambda: 0.7, d: 2, sampling: 'with-replacement' });
    const correction = refineSecondOrder(model);
    for (const c of r.cells) {
      expect(c.secondOrder!.meanResponseTime).toBeCloseTo(secondOrderEstimate(correction, c.n).meanResponseTime, 12);
      expect(c.verdict.allowance).toBeCloseTo((2 * Math.abs(correction.sumA)) / (c.n * c.n * 0.7), 12);
      expect(c.verdict.rule).toContain(REFINED_SECOND_ORDER_RULE);
    }
    const m = r.models[0];
    expect(m.secondOrder!.c2).toBeCloseTo(correction.sumA / 0.7, 12);
    expect(m.secondOrder!.fitted).toBe(m.fitThroughReference!.c2);
    expect(['agrees', 'disagrees']).toContain(m.secondOrder!.status);
  });

  it('runComparison(without replacement) has no 1/n² term: no second-order value, the [H] allowance, no c₂ check', () => {
    const r = runComparison({ ...config, sampling: 'without-replacement', ns: [10, 20] });
    expect(r.cells[0].secondOrder ?? null).toBeNull();
    expect(r.models[0].secondOrder).toBeNull();
    expect(r.cells[0].verdict.rule).not.toContain('ΣA');
  });

  it('secondOrderTerm refuses sampling without replacement with a reason instead of throwing', () => {
    const t = secondOrderTerm(parseModel({ lambda: 0.9, d: 2, sampling: 'without-replacement' }));
    expect(t.correction).toBeNull();
    expect(t.note).toMatch(/with replacement only/);
  });

  it('judgeC2 finds a c₂ inside the fitted 95% interval, rejects one outside, and does not judge without a c₂ fit', () => {
    // synthetic sweep x_n = 2 + 3/n + 40/n² with h_n = 0.01, plus a deterministic ±0.5 h wiggle
    const points = [5, 10, 20, 50, 100].map((n, i) => ({
      n,
      value: 2 + 3 / n + 40 / n ** 2 + (i % 2 ? 0.005 : -0.005),
      halfWidth: 0.01,
      replications: 10,
    }));
    const fit = fitInverseN(points, { limit: 2, inverseSquare: true })!;
    const h = 1.96 * fit.c2StandardError;
    expect(Math.abs(fit.c2 - 40)).toBeLessThan(h);
    const lambda = 0.9;
    const inside = judgeC2(40 * lambda, lambda, fit);
    expect(inside).toMatchObject({ status: 'agrees', rule: C2_RULE });
    expect(inside.c2).toBeCloseTo(40, 12);
    expect(inside.fittedHalfWidth).toBeCloseTo(h, 12);
    expect(judgeC2((fit.c2 + 1.01 * h) * lambda, lambda, fit).status).toBe('disagrees');
    expect(judgeC2((fit.c2 - 0.99 * h) * lambda, lambda, fit).status).toBe('agrees');
    expect(judgeC2(40, lambda, null).status).toBe('not-judged');
    expect(judgeC2(40, lambda, fitInverseN(points, { limit: 2, inverseSquare: false })).status).toBe('not-judged');
  });

  it('secondOrderAllowance is twice the 1/n² term of E[T]', () => {
    const correction = refineSecondOrder(parseModel({ lambda: 0.9, d: 2 }));
    expect(secondOrderAllowance(correction, 10, 0.9)).toBeCloseTo((2 * correction.sumA) / (100 * 0.9), 12);
  });
});
