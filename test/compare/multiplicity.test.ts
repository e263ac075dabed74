import { describe, expect, it } from 'vitest';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { holmAdjust, studentTwoSidedPValue } from '../../src/stats/hypothesis.ts';
import { c1Check, cellVerdict, confirmPresent, judgeFamily, type CellVerdict, type FitPoint } from '../../src/compare/index.ts';
import { estimate } from '../stats/estimate.ts';

describe('studentTwoSidedPValue', () => {
  it('studentTwoSidedPValue(t, ν) is 0.05 at the t quantile, 1 at 0, 0.5 at t = 1 with ν = 1 (Cauchy), 2Φ(−t) for ν = ∞', () => {
    expect(studentTwoSidedPValue(tQuantile(0.975, 9), 9)).toBeCloseTo(0.05, 12);
    expect(studentTwoSidedPValue(-tQuantile(0.995, 39), 39)).toBeCloseTo(0.01, 12);
    expect(studentTwoSidedPValue(0, 9)).toBe(1);
    expect(studentTwoSidedPValue(1, 1)).toBeCloseTo(0.5, 12); // arctan law: P(|T_1| > 1) = 1/2
    expect(studentTwoSidedPValue(1.959963984540054, Infinity)).toBeCloseTo(0.05, 9);
    expect(studentTwoSidedPValue(Infinity, 9)).toBe(0);
    expect(() => studentTwoSidedPValue(1, 0)).toThrow(/degrees of freedom/);
  });

  it('studentTwoSidedPValue(t, 9) is heavier-tailed than the normal law the old z column was read against', () => {
    // t = 3: normal 0.0027, t with 9 dof 0.0150 (tables)
    expect(studentTwoSidedPValue(3, 9)).toBeCloseTo(0.01496, 4);
  });
});

describe('holmAdjust', () => {
  it('holmAdjust(p) matches a hand computation: sorted 0.005, 0.01, 0.03, 0.04 → 4·0.005, 3·0.01, max(2·0.03, ·), max(1·0.04, 0.06)', () => {
    expect(holmAdjust([0.01, 0.04, 0.03, 0.005])).toEqual([0.03, 0.06, 0.06, 0.02]);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]); // 2·0.5 = 1, then monotone: max(1, 0.9)
    expect(holmAdjust([])).toEqual([]);
    expect(() => holmAdjust([Number.NaN])).toThrow(/p-value/);
  });
});

const exact = { value: 2.6141, halfWidth: 0, numericalError: 0 };
const term = { kind: 'refined' as const, meanResponseTime: 2.6584, sumV: 3.9864, sumPi: 2.3527, lambda: 0.9 };
const t9 = tQuantile(0.975, 9);
/** A cell at n = 100 whose simulated mean is `t` standard errors (σ = 0.005) beyond refined + δ_n. */
const delta = ((3.9864 / 100) * 3.9864) / (100 * 2.3527) / 0.9;
const cell = (t: number, replications = 10): CellVerdict =>
  cellVerdict(estimate(2.6584 + delta + t * 0.005, tQuantile(0.975, replications - 1) * 0.005, replications), exact, term, 100);

describe('judgeFamily (Holm, then a confirmatory rerun)', () => {
  it('judgeFamily(first, fake rerun) calls the rerun only for Holm-rejected cells and keeps an unconfirmed rejection as agrees-not-confirmed', () => {
    // 20 judged cells: 19 ordinary, one at t = 8 (p ≈ 2e-5, Holm ≈ 4e-4): rejected by the first run
    const first = [...Array.from({ length: 19 }, (_, i) => cell((i - 9) / 5)), cell(8)];
    const calls: number[] = [];
    // the fake simulator: fresh seeds and 4× the replications land near the refined value (the first run was chance)
    const out = judgeFamily(first, (i) => {
      calls.push(i);
      return cell(0.3, 40);
    });
    expect(calls).toEqual([19]);
    expect(out[19].verdict.status).toBe('agrees-not-confirmed');
    expect(out[19].verdict.adjustedPValue).toBeCloseTo(20 * first[19].pValue, 12);
    expect(out[19].confirmation!.status).toBe('agrees');
    expect(out[19].confirmation!.degreesOfFreedom).toBe(39);
    expect(out.slice(0, 19).every((j) => j.verdict.status === 'agrees' && j.confirmation === null)).toBe(true);
  });

  it('judgeFamily(first, rerun) says disagrees when the rerun rejects as well, and not when p < α only before Holm', () => {
    const first = [cell(8), cell(2.5), cell(0), cell(-1)]; // t = 2.5: p ≈ 0.034 < 0.05 but Holm 3·0.034 > 0.05
    expect(first[1].status).toBe('disagrees'); // the single-run test rejects
    const out = judgeFamily(first, () => cell(6, 40));
    expect(out[0].verdict.status).toBe('disagrees');
    expect(out[0].confirmation!.status).toBe('disagrees');
    expect(out[1].verdict.status).toBe('agrees');
    expect(out[1].verdict.adjustedPValue).toBeCloseTo(Math.min(1, 3 * first[1].pValue), 12);
  });

  it('judgeFamily leaves cells that are not judged (out of range) outside the family', () => {
    const out100 = cellVerdict(estimate(3, 0.01, 10), exact, term, 10); // ΣV/(10Σπ) = 17% > 5%
    expect(out100.status).toBe('refined-out-of-range');
    const out = judgeFamily([out100, cell(8)], () => cell(0, 40));
    expect(out[0].verdict.status).toBe('refined-out-of-range');
    expect(out[0].verdict.adjustedPValue).toBeNull();
    expect(out[1].verdict.adjustedPValue).toBeCloseTo(first1(cell(8)), 12); // a family of one: no adjustment
  });
});
const first1 = (v: CellVerdict) => v.pValue;

describe('c1Check', () => {
  const point = (n: number, value: number, se: number): FitPoint => ({ n, value, halfWidth: t9 * se, replications: 10 });
  it('c1Check(points, E[T]∞, ΣV/λ) reads (ĉ₁ − ΣV/λ)/s.e. against t with Welch ν; confirmPresent applies Holm over models, reruns the rejected one, skips the absent', () => {
    // exact data c1 = 4.43 over n = 100, 200, 1000 (held limit 0): ĉ₁ = 4.43 exactly
    const pts = [100, 200, 1000].map((n) => point(n, 4.43 / n, 0.0002));
    const ok = c1Check(pts, 0, 4.43);
    expect(ok.c1).toBeCloseTo(4.43, 10);
    expect(ok.pValue).toBeCloseTo(1, 10);
    expect(ok.halfWidth).toBeCloseTo(tQuantile(0.975, ok.degreesOfFreedom) * ok.standardError, 12);
    const off = c1Check(pts, 0, 4.43 - 5 * ok.standardError);
    expect(off.tStatistic).toBeCloseTo(5, 9);
    expect(off.status).toBe('disagrees');
    const reruns: number[] = [];
    const [a, b, c] = confirmPresent([ok, off, null], (m) => (reruns.push(m), m === 1 ? ok : off));
    expect(reruns).toEqual([1]); // only the rejected model, by its index among all (the absent one counted)
    expect(a.verdict!.adjustedPValue).toBeCloseTo(1, 12);
    expect(b.verdict!.adjustedPValue).toBeCloseTo(2 * off.pValue, 12);
    expect(b.verdict!.status).toBe('agrees-not-confirmed'); // its rerun (here: the agreeing check) does not reject
    expect(b.confirmation!.status).toBe('agrees');
    expect(c).toEqual({ verdict: null, confirmation: null });
    expect(c1Check([point(100, 0.0443, 0.002)], 0, 4.43).status).toBe('not-judged');
    // fifty times the noise: the 95% half-width of ĉ₁ exceeds |ΣV/λ|, no test (`coefficientResolvable`)
    const noisy = c1Check(
      [100, 200, 1000].map((n) => point(n, 4.43 / n, 0.01)),
      0,
      4.43,
    );
    expect(noisy.halfWidth).toBeGreaterThan(4.43);
    expect(noisy).toMatchObject({ status: 'not-resolvable', adjustedPValue: null });
    expect(noisy.pValue).toBeNaN();
  });
});
