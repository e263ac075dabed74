import { describe, expect, it } from 'vitest';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { cellVerdict, fitInverseN, fittedLimitInterval, limitCheck, type FiniteNTerm, type FitPoint } from '../../src/compare/index.ts';
import { parseModel } from '../../src/model/model.ts';
import { responseTimeLowerBound } from '../../src/model/moments.ts';
import { estimate } from '../stats/estimate.ts';

/** Classic model, λ = 0.9, d = 2: E[T]∞ = 2.6141, Σπ = 2.3527, ΣV = 3.9864; the refined E[T] at n is passed in. */
const exact = { value: 2.6141, halfWidth: 0, numericalError: 0 };
const refinedTerm = (meanResponseTime: number): FiniteNTerm => ({
  kind: 'refined',
  meanResponseTime,
  sumV: 3.9864,
  sumPi: 2.3527,
  lambda: 0.9,
});

describe('cellVerdict with the refined term', () => {
  it('cellVerdict(...) agrees when the difference from π + V/n is inside the half-width plus the allowance', () => {
    const v = cellVerdict(estimate(2.62, 0.01), exact, refinedTerm(2.615), 1000);
    expect(v.status).toBe('agrees');
    expect(v.difference).toBeCloseTo(0.005, 12);
    expect(v.combinedHalfWidth).toBe(0.01);
    expect(v.allowance).toBeCloseTo(((3.9864 / 1000) * 3.9864) / (1000 * 2.3527) / 0.9, 15);
  });

  it('cellVerdict(...) disagrees when the difference exceeds half-width plus allowance', () => {
    expect(cellVerdict(estimate(2.7, 0.01), exact, refinedTerm(2.615), 1000).status).toBe('disagrees');
  });

  it('cellVerdict(...) declines to judge when ΣV/(nΣπ) exceeds 5%', () => {
    const v = cellVerdict(estimate(3, 0.01), exact, refinedTerm(2.615), 10);
    expect(v.relativeCorrection).toBeCloseTo(3.9864 / (10 * 2.3527), 12);
    expect(v.status).toBe('refined-out-of-range');
  });

  it('cellVerdict(...) gives t = (|d| − δ_n)/σ_n read against Student t with R − 1 dof, and its two-sided p', () => {
    const v = cellVerdict(estimate(2.625, 0.01), exact, refinedTerm(2.615), 1000);
    const delta = ((3.9864 / 1000) * 3.9864) / (1000 * 2.3527) / 0.9;
    expect(v.tStatistic).toBeCloseTo((0.01 - delta) / (0.01 / 2.7764451051977987), 6);
    expect(v.degreesOfFreedom).toBe(4);
    // t_{0.975,4} = 2.776445: a difference of exactly h_n + δ_n sits on the 5% boundary
    expect(cellVerdict(estimate(2.615 + 0.01 + delta, 0.01), exact, refinedTerm(2.615), 1000).pValue).toBeCloseTo(0.05, 9);
    // inside the allowance the excess is 0: t = 0, p = 1
    expect(cellVerdict(estimate(2.615 + delta / 2, 0.01), exact, refinedTerm(2.615), 1000).pValue).toBe(1);
    expect(v.adjustedPValue).toBeNull();
  });

  it('cellVerdict(...) adds a simulated reference error in quadrature and takes the Welch–Satterthwaite ν', () => {
    const ref = { value: 1.5, halfWidth: 1.959963984540054 * 0.01, numericalError: 0 };
    const sim = estimate(1.6, 2.7764451051977987 * 0.01, 5); // σ_n = 0.01, ν_n = 4; σ_ref = 0.01
    const v = cellVerdict(sim, ref, { kind: 'fitted', c1: 1, c2: 0 }, 100);
    expect(v.tStatistic).toBeCloseTo((0.1 - 0.01) / Math.hypot(0.01, 0.01), 9);
    expect(v.degreesOfFreedom).toBeCloseTo(2e-4 ** 2 / (1e-8 / 4), 9); // 16
  });
});

const R = 10;
const t9 = tQuantile(0.975, R - 1);
const point = (n: number, value: number, se: number): FitPoint => ({ n, value, halfWidth: t9 * se, replications: R });

describe('limitCheck / cellVerdict without V', () => {
  const fit = fitInverseN([point(50, 1.5, 0.02), point(200, 1.4, 0.02)])!;

  it('limitCheck(fit, reference) adds statistical half-widths in quadrature and the numerical error linearly', () => {
    const ref = { value: fit.a + 0.01, halfWidth: 0.03, numericalError: 0.001 };
    const c = limitCheck(fit, ref);
    expect(c.difference).toBeCloseTo(-0.01, 12);
    expect(c.combinedHalfWidth).toBeCloseTo(Math.hypot(fit.aHalfWidth, 0.03) + 0.001, 12);
    expect(c.status).toBe(Math.abs(c.difference) <= c.combinedHalfWidth ? 'agrees' : 'disagrees');
    expect(limitCheck(fit, { value: fit.a + 10, halfWidth: 0, numericalError: 0 }).status).toBe('disagrees');
    expect(limitCheck(null, ref).status).toBe('not-judged');
  });

  it('limitCheck states one statistic, t with its degrees of freedom; no `zScore` (difference over the t half-width/1.96: neither z nor t)', () => {
    const points = [point(50, 1.5, 0.02), point(200, 1.4, 0.02)];
    const ref = { value: fit.a + 0.05, halfWidth: 0.03, numericalError: 0 };
    for (const c of [limitCheck(fit, ref), limitCheck(fit, ref, null, points), limitCheck(null, ref)])
      expect(c).not.toHaveProperty('zScore');
    const c = limitCheck(fit, ref, null, points);
    expect(Number.isFinite(c.tStatistic) && Number.isFinite(c.degreesOfFreedom)).toBe(true);
  });

  it('cellVerdict(sim, ref, fitted c1, n) shows |ĉ₁|/n beside the difference but judges no cell (no predicted term)', () => {
    const sim = estimate(1.6, t9 * 0.01, R);
    const ref = { value: 1.5, halfWidth: 0, numericalError: 0 };
    const v = cellVerdict(sim, ref, { kind: 'fitted', c1: 8, c2: 0 }, 100);
    expect(v.allowance).toBe(0.08);
    expect(v.status).toBe('not-judged'); // was 'agrees': 0.1 ≤ t·0.01 + 0.08, an allowance fitted from the same cells
    expect(cellVerdict(sim, ref, { kind: 'fitted', c1: 2, c2: 0 }, 100).status).toBe('not-judged'); // was 'disagrees'
    expect(Number.isNaN(v.pValue)).toBe(true);
    expect(v.tStatistic).toBeCloseTo((0.1 - 0.08) / 0.01, 10); // shown as information
    expect(v.relativeCorrection).toBeNull();
    expect(v.rule).toMatch(/^not judged: no predicted finite-n term/);
    // the same numbers against an exact finite-n value are a prediction: judged with no allowance
    expect(cellVerdict(sim, ref, { kind: 'exact' }, 100).status).toBe('disagrees');
    expect(cellVerdict(sim, { ...ref, value: 1.6 }, { kind: 'exact' }, 100).status).toBe('agrees');
    const none = cellVerdict(sim, ref, { kind: 'fitted', c1: null, c2: 0 }, 100);
    expect(none.status).toBe('not-judged');
    expect(none.rule).toMatch(/no per-n verdict without V/);
  });
});

describe('fittedLimitInterval: the fitted limit within the parameter space E[T] ≥ E[S]/μ_max', () => {
  // trial M13: LWL(2) λ = 0.2 printed "fitted limit 1.0343 ± 0.0433", an interval reaching to 0.991 < E[S] = 1
  it('clips the lower end at E[S] (exp: 1; exp@2: 2), leaves an interval inside the space as â ± h', () => {
    const model = parseModel({ lambda: 0.2, d: 2, selection: 'lwl' });
    const l = fittedLimitInterval({ model, reference: { meanResponseTime: 1.03 }, limit: { difference: 0.0043, fitHalfWidth: 0.0433 } })!;
    expect(l.value).toBeCloseTo(1.0343, 12);
    expect(l.ci95[0]).toBe(1);
    expect(l.ci95[1]).toBeCloseTo(1.0776, 12);
    const slow = parseModel({ lambda: 0.2, d: 2, service: 'exp@2' });
    expect(
      fittedLimitInterval({ model: slow, reference: { meanResponseTime: 2.05 }, limit: { difference: 0, fitHalfWidth: 0.1 } })!.ci95,
    ).toEqual([2, 2.15]);
    const inside = fittedLimitInterval({ model, reference: { meanResponseTime: 2.6 }, limit: { difference: 0.01, fitHalfWidth: 0.05 } })!;
    expect(inside.ci95[0]).toBeCloseTo(2.56, 12);
    expect(fittedLimitInterval({ model, reference: { meanResponseTime: 2 }, limit: { difference: NaN, fitHalfWidth: NaN } })).toBeNull();
  });

  it('responseTimeLowerBound: E[S]/μ_max, 0 with independent replicas', () => {
    expect(responseTimeLowerBound(parseModel({ lambda: 0.5, d: 2 }))).toBe(1);
    expect(responseTimeLowerBound(parseModel({ lambda: 0.5, d: 2, servers: { speeds: [1, 2] } }))).toBe(0.5);
    expect(responseTimeLowerBound(parseModel({ lambda: 0.3, d: 2, redundancy: 'cancel-on-complete', replicas: 'independent' }))).toBe(0);
  });
});
