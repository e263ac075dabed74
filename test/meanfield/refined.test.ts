import { describe, expect, it } from 'vitest';
import { lyap } from 'mathjs';
import { InvalidModelError } from '../../src/errors.ts';
import { solveSqdFixedPoint } from '../../src/meanfield/fixedPoint.ts';
import {
  computeF1,
  computeQ,
  computeV,
  computeW,
  lyapunovResidual,
  refine,
  refinedEstimate,
  sqdHessianTerm,
} from '../../src/meanfield/refined.ts';
import { refineSecondOrder, SECOND_ORDER_RANGE } from '../../src/meanfield/refinedSecondOrder.ts';
import { sqdClosedFormTail, sqdJacobian } from '../../src/meanfield/sqd.ts';
import { parseModel } from '../../src/model/index.ts';
import { sqd } from './helpers.ts';

const pi = (lambda: number, d: number, K: number) => sqdClosedFormTail(lambda, d, K).slice(1);

describe('refine', () => {
  it('refine(model) gives ΣV ≈ 3.9864 for SQ(2), λ = 0.9, with replacement (rmf_tool two-choice example)', () => {
    const c = refine(sqd(0.9, 2));
    expect(c.sumV).toBeCloseTo(3.9864, 4);
    expect(c.V[0]).toBe(0);
    expect(c.V.length).toBe(c.diagnostics.truncationLevel + 1);
    expect(c.sampling).toBe('with-replacement');
    expect(c.diagnostics.lyapunovResidual).toBeLessThan(1e-12);
  });

  it('refinedEstimate(correction, n) gives E[Q_10] ≈ 2.7513 and E[Q_100] ≈ 2.3925 (theory.md §10), E[T_n] = E[Q_n]/λ', () => {
    const c = refine(sqd(0.9, 2));
    const e10 = refinedEstimate(c, 10);
    const e100 = refinedEstimate(c, 100);
    expect(Math.abs(e10.meanQueueLength - 2.7513)).toBeLessThan(1e-4);
    expect(Math.abs(e100.meanQueueLength - 2.3925)).toBeLessThan(1e-4);
    expect(e10.meanResponseTime).toBeCloseTo(e10.meanQueueLength / 0.9, 14);
    expect(e10.tail[0]).toBe(1);
    expect(e10.tail[1]).toBeCloseTo(c.fixedPoint.tail[1] + c.V[1] / 10, 15);
  });

  it('refine(model) is insensitive to K once s_K < 1e−12 (K = 9 vs K = 20 at d = 2, λ = 0.9)', () => {
    const a = refine(sqd(0.9, 2));
    const b = refine(sqd(0.9, 2), { truncationLevel: 20 });
    expect(Math.abs(a.sumV - b.sumV)).toBeLessThan(1e-9);
  });

  it('refine(model) at d = 1 gives V = 0 (linear drift)', () => {
    const c = refine(sqd(0.9, 1));
    expect(c.sumV).toBe(0);
    expect(c.V.every((v) => v === 0)).toBe(true);
    expect(refinedEstimate(c, 10).meanQueueLength).toBeCloseTo(9, 10);
  });

  it('refine(model) without replacement gives V_without < V_with (ΣV and every V_i, d ∈ {2, 3}, λ ∈ {0.5, 0.9, 0.99})', () => {
    for (const d of [2, 3]) {
      for (const lambda of [0.5, 0.9, 0.99]) {
        const withR = refine(sqd(lambda, d));
        const without = refine(sqd(lambda, d, { sampling: 'without-replacement' }));
        expect(without.sampling).toBe('without-replacement');
        expect(without.sumV).toBeLessThan(withR.sumV);
        for (let i = 1; i < withR.V.length; i++) expect(without.V[i]).toBeLessThanOrEqual(withR.V[i] + 1e-15);
      }
    }
  });

  it('refine(model) ΣV grows like ρ²/(2(1 − ρ)) for d = 2 near ρ = 1 (theory.md §6 [H], within 10% at 0.99)', () => {
    const c = refine(sqd(0.99, 2));
    expect(Math.abs(c.sumV / (0.99 ** 2 / (2 * 0.01)) - 1)).toBeLessThan(0.1);
  });

  it('refine(model, { fixedPoint }) rejects a fixed point of another model', () => {
    expect(() => refine(sqd(0.9, 2), { fixedPoint: solveSqdFixedPoint(sqd(0.8, 2)) })).toThrow(InvalidModelError);
  });

  it('refinedEstimate(correction, n) throws InvalidModelError if n < d or n is not an integer', () => {
    const c = refine(sqd(0.9, 3));
    expect(() => refinedEstimate(c, 2)).toThrow(InvalidModelError);
    expect(() => refinedEstimate(c, 10.5)).toThrow(InvalidModelError);
  });
});

describe('refined-mean-field equations', () => {
  it('computeW(A, Q) solves AW + WAᵀ + Q = 0 (relative residual < 1e−12) and is symmetric', () => {
    for (const [lambda, d] of [
      [0.9, 2],
      [0.99, 2],
      [0.7, 3],
      [0.95, 5],
    ]) {
      const s = pi(lambda, d, 12);
      const A = sqdJacobian(lambda, d, s);
      const Q = computeQ(lambda, d, s);
      const W = computeW(A, Q);
      expect(lyapunovResidual(A, W, Q)).toBeLessThan(1e-12);
      W.forEach((row, i) => row.forEach((v, j) => expect(v).toBe(W[j][i])));
    }
  });

  it('computeW(A, Q) agrees with mathjs lyap(A, Q), which solves AW + WAᵀ + Q = 0 only to ~1e−5', () => {
    const s = pi(0.9, 2, 9);
    const A = sqdJacobian(0.9, 2, s);
    const Q = computeQ(0.9, 2, s);
    const W = computeW(A, Q);
    const Wm = lyap(A, Q) as unknown as number[][];
    const residualMathjs = lyapunovResidual(A, Wm, Q);
    expect(residualMathjs).toBeLessThan(1e-3); // same sign convention (the other sign would give O(1))
    W.forEach((row, i) => row.forEach((v, j) => expect(Math.abs(v - Wm[i][j])).toBeLessThan(1e-3)));
  });

  it('computeQ(lambda, d, s) is diagonal with Q_ii = λ(s_{i−1}^d − s_i^d) + s_i − s_{i+1}', () => {
    const s = [0.9, 0.6, 0.2];
    const Q = computeQ(0.9, 2, s);
    expect(Q[0][0]).toBeCloseTo(0.9 * (1 - 0.81) + 0.3, 15);
    expect(Q[2][2]).toBeCloseTo(0.9 * (0.36 - 0.04) + 0.2, 15);
    expect(Q[0][1]).toBe(0);
  });

  it('sqdHessianTerm(lambda, d, s, W) equals ½ Σ_jk ∂²f_i/∂s_j∂s_k W_jk from finite differences of the Jacobian', () => {
    for (const [lambda, d] of [
      [0.9, 2],
      [0.8, 3],
      [0.95, 5],
    ]) {
      const s = pi(lambda, d, 7).map((v, i) => v * (1 - 0.02 * i) + 0.001);
      const A = sqdJacobian(lambda, d, s);
      const W = computeW(A, computeQ(lambda, d, s));
      const b = sqdHessianTerm(lambda, d, s, W);
      const K = s.length;
      const h = 1e-5;
      const fd = new Array<number>(K).fill(0);
      for (let k = 0; k < K; k++) {
        const up = [...s];
        const down = [...s];
        up[k] += h;
        down[k] -= h;
        const Au = sqdJacobian(lambda, d, up);
        const Ad = sqdJacobian(lambda, d, down);
        for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) fd[i] += 0.5 * ((Au[i][j] - Ad[i][j]) / (2 * h)) * W[j][k];
      }
      b.forEach((v, i) => expect(Math.abs(v - fd[i])).toBeLessThan(1e-7));
    }
  });

  it('computeF1(lambda, d, s) is the 1/n drift term of sampling without replacement, −λd(d−1)/2·[φ(s_{i−1}) − φ(s_i)]', () => {
    const s = [0.8, 0.4];
    const phi = (x: number) => x - x * x;
    const f1 = computeF1(0.9, 2, s);
    expect(f1[0]).toBeCloseTo(-0.9 * (phi(1) - phi(0.8)), 15);
    expect(f1[1]).toBeCloseTo(-0.9 * (phi(0.8) - phi(0.4)), 15);
    expect(computeF1(0.9, 1, s).every((v) => v === 0)).toBe(true);
  });

  it('computeV(A, b, f1) solves A·V = −(b + f1)', () => {
    const s = pi(0.9, 2, 9);
    const A = sqdJacobian(0.9, 2, s);
    const b = sqdHessianTerm(0.9, 2, s, computeW(A, computeQ(0.9, 2, s)));
    const f1 = computeF1(0.9, 2, s);
    const V = computeV(A, b, f1);
    A.forEach((row, i) => {
      const lhs = row.reduce((acc, a, j) => acc + a * V[j], 0);
      expect(lhs).toBeCloseTo(-(b[i] + f1[i]), 12);
    });
  });
});

describe('refinedEstimate outputs', () => {
  it('refinedEstimate(refine(λ = 0.95, d = 2), n = 2) shows tail fractions in [0, 1] though s_i + V_i/n reaches 1.88 there', () => {
    const c = refine(parseModel({ lambda: 0.95, d: 2 }));
    const raw = c.V.map((v, i) => (c.fixedPoint.tail[i] ?? 0) + v / 2);
    expect(Math.max(...raw)).toBeGreaterThan(1.5); // the expansion itself leaves [0, 1] at this n
    const r = refinedEstimate(c, 2);
    expect(Math.max(...r.tail)).toBeLessThanOrEqual(1);
    expect(Math.min(...r.tail)).toBeGreaterThanOrEqual(0);
    expect(r.meanQueueLength).toBeCloseTo(c.fixedPoint.meanQueueLength + c.sumV / 2, 12); // E[Q] stays the expansion's sum
  });

  it("says whether n is in its order's trusted range: a library caller got E[Q_3] = 3.68 at λ = 0.9 with nothing saying 1/n was 56 % of the limit", () => {
    const model = parseModel({ lambda: 0.9, d: 2 });
    const c = refine(model);
    // ΣV/(nΣπ) = 3.986/(n·2.353): 56 % at n = 3, 1.7 % at n = 100 (trusted from n = 34)
    const small = refinedEstimate(c, 3);
    expect(small.trusted).toBe(false);
    expect(small.caveat).toMatch(/^order 1 is outside its trusted range at n = 3: the 1\/n term is 56\.5 % of the limit.*here from n = 34/);
    expect(refinedEstimate(c, 34)).toMatchObject({ trusted: true, caveat: null });
    expect(refinedEstimate(c, 33).trusted).toBe(false);
    // order 2: its own range, |ΣA|/(n|ΣV|) ≤ SECOND_ORDER_RANGE
    const second = refineSecondOrder(model);
    for (const n of [2, 3, 10]) {
      const ratio = Math.abs(second.sumA) / (n * Math.abs(second.sumV));
      expect(refinedEstimate(second, n).trusted, `n = ${n}`).toBe(ratio <= SECOND_ORDER_RANGE);
    }
    expect(refinedEstimate(second, 2).caveat).toMatch(/^order 2 is outside its trusted range at n = 2/);
  });
});
