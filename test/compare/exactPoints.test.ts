import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { cellSeed, runComparison } from '../../src/compare/index.ts';
import { EXACT_RULE, exactPoints, exactVerdict, hasExactSolver } from '../../src/compare/exactPoints.ts';
import { tInterval } from '../../src/stats/index.ts';
import { testComparison } from './config.ts';

describe('exact points in the comparison', () => {
  const exact = { ns: [2, 3], truncationBound: 1e-5, maxStates: 2e5, jobs: 20_000, replications: 4 };
  const base = testComparison({ lambdas: [0.5], ns: [10, 20], jobs: 4_000, replications: 3, seed: 5, exact });

  it('runComparison(exact n = 2, 3) adds cells at n = 2, 3 with the exact E[T] (1.59656 with replacement at λ = 0.5, d = 2, n = 2)', () => {
    const r = runComparison(base);
    expect(r.cells.map((c) => c.n)).toEqual([2, 3, 10, 20]);
    const [c2, c3] = r.cells;
    expect(c2.exact!.meanResponseTime).toBeCloseTo(1.59656, 4);
    expect(c2.key).toBe('exact-d2-lambda0.5-n2');
    expect(c2.seed).toBe(cellSeed(5, c2.key));
    expect(c2.simulation.jobs).toBe(20_000);
    expect(c3.exact!.meanResponseTime).toBeLessThan(c2.exact!.meanResponseTime);
    expect(c3.exact!.meanResponseTime).toBeGreaterThan(r.models[0].reference.meanResponseTime);
    for (const c of [c2, c3]) {
      expect((c.verdict as { judgedAgainst?: string }).judgedAgainst).toBe('exact');
      expect(c.verdict.difference).toBeCloseTo(c.simulation.meanResponseTime.mean - c.exact!.meanResponseTime, 12);
    }
    expect(r.cells[2].exact ?? null).toBeNull();
    // the fits and slopes use the sweep's n only
    expect(r.models[0].fit?.nUsed).toEqual([10, 20]);
    expect(r.models[0].exact!.points.map((x) => x.n)).toEqual([2, 3]);
  });

  it('runComparison(without replacement, exact n = 2) gives 1.42632 at λ = 0.5, d = 2', () => {
    const r = runComparison({ ...base, sampling: 'without-replacement', exact: { ...base.exact!, ns: [2] } });
    expect(r.cells[0].exact!.meanResponseTime).toBeCloseTo(1.42632, 4);
  });

  it('runComparison(exact n in the sweep) judges the sweep cell itself against the exact value, simulating nothing extra', () => {
    const r = runComparison({ ...base, ns: [3, 10], exact: { ...base.exact!, ns: [3] } });
    expect(r.cells.map((c) => c.key)).toEqual(['d2-lambda0.5-n3', 'd2-lambda0.5-n10']);
    expect(r.cells[0].exact!.n).toBe(3);
    expect(r.cells[0].verdict.rule).toBe(EXACT_RULE);
  });

  it('exactPoints skips an n below d and an n over the state budget, with the reason', () => {
    const m = parseModel({ lambda: 0.9, d: 3, sampling: 'with-replacement' });
    const { points, skipped } = exactPoints(m, [2, 3, 5], { truncationBound: 1e-4, maxStates: 1e4 });
    expect(points).toEqual([]);
    expect(skipped.map((s) => s.n)).toEqual([2, 3, 5]);
    expect(skipped[0].reason).toMatch(/n = 2 < d = 3/);
    expect(skipped[1].reason).toMatch(/state space too large/);
  });

  it('hasExactSolver is true for JSQ(d) and random FIFO exponential only', () => {
    expect(hasExactSolver(parseModel({ lambda: 0.5, d: 2 }))).toBe(true);
    expect(hasExactSolver(parseModel({ lambda: 0.5, d: 2, selection: 'random' }))).toBe(true);
    expect(hasExactSolver(parseModel({ lambda: 0.5, d: 2, selection: 'lwl' }))).toBe(false);
    expect(hasExactSolver(parseModel({ lambda: 0.5, d: 2, discipline: 'sjf' }))).toBe(false);
  });

  it('exactVerdict agrees within h_n + the truncation bound and disagrees just outside it', () => {
    const point = {
      n: 2,
      meanResponseTime: 1.5,
      meanQueueLength: 0.75,
      truncationBound: 0.01,
      errorEstimate: 0.005,
      K: 20,
      states: 231,
      seconds: 0,
    };
    const sim = tInterval([1.55, 1.56, 1.54, 1.55]);
    const v = exactVerdict(sim, point);
    expect(v.difference).toBeCloseTo(0.05, 12);
    expect(v.combinedHalfWidth).toBeCloseTo(sim.halfWidth + 0.01, 12);
    expect(v.status).toBe('disagrees'); // h ≈ 0.013: 0.05 > 0.013 + 0.01
    expect(exactVerdict(sim, { ...point, truncationBound: 0.05 }).status).toBe('agrees');
    expect(exactVerdict(sim, { ...point, truncationBound: 1e-6 }).status).toBe('disagrees');
  });
});
