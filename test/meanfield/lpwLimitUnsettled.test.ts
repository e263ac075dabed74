/**
 * LPW(d) with inexact predictions and E[S²] = ∞ (theory.md §8, model/moments.ts `meanFieldUnsettled`): before, the
 * capability query chose the LPW cavity and fixed-point printed a finite E[T]∞ (e.g. LPW(2) + SPRPT, exp predictions,
 * pareto:1.5). At d = 1 SPRPT with such predictions has E[T] = ∞ (Mitzenmacher 2020); a tagged LPW server is that
 * queue with arrivals thinned by its predicted work, and no rule here settles the limit: no finite number, the reason.
 */
import { describe, expect, it } from 'vitest';
import { estimandFiniteness, meanFieldUnsettled, parseModel } from '../../src/model/index.ts';
import { meanFieldCapabilities, solveMeanField } from '../../src/meanfield/index.ts';
import { runComparison } from '../../src/compare/index.ts';

const lpw = (discipline: string, prediction: string, service: string, d = 2) =>
  parseModel({ lambda: 0.5, d, selection: 'lpw', discipline, prediction, service, sampling: 'without-replacement' });

describe('LPW limit with E[S²] = ∞ and inexact predictions: not settled, never a finite number', () => {
  it.each(['exp', 'uniform:0.5', 'lognormal:1'])('LPW(2) + SPRPT, %s predictions, pareto:1.5: not settled with the reason', (p) => {
    const m = lpw('sprpt', p, 'pareto:1.5');
    expect(meanFieldUnsettled(m)).toMatch(/^E\[T\]∞ not settled: E\[S²\] = ∞ \(pareto α = 1\.5 ≤ 2\) and LPW\(2\)/);
    const fp = meanFieldCapabilities(m).fixedPoint;
    expect(fp.available).toBe(false);
    if (!fp.available) expect(fp.reason).toMatch(/not settled.*run past its prediction/);
    expect(() => solveMeanField(m)).toThrow(/E\[T\]∞ not settled/);
  });

  it('the same kind: LPW(3) + FIFO with exp predictions; and not for exact predictions, E[S²] < ∞, PSJF, d = 1', () => {
    expect(meanFieldUnsettled(lpw('fifo', 'exp', 'pareto:1.5', 3))).toMatch(/not preempted \(FIFO\)/);
    expect(meanFieldUnsettled(lpw('sprpt', 'exact', 'pareto:1.5'))).toBeUndefined(); // LWL's rule (lpwAsLwl)
    expect(meanFieldUnsettled(lpw('sprpt', 'exp', 'pareto:2.5'))).toBeUndefined();
    expect(meanFieldUnsettled(lpw('psjf', 'exp', 'pareto:1.5'))).toBeUndefined();
    expect(meanFieldCapabilities(lpw('sprpt', 'exp', 'pareto:2.5')).fixedPoint.available).toBe(true);
    // d = 1 is settled: ∞ (the M/G/1 rule)
    const one = parseModel({ lambda: 0.5, d: 1, selection: 'random', discipline: 'sprpt', prediction: 'exp', service: 'pareto:1.5' });
    expect(estimandFiniteness(one).meanResponseTime.finite).toBe(false);
  });

  it('compare sets no finite limit beside the simulations: "not settled" with the reason, nothing judged', () => {
    // it refused the whole grid before; now the model's cells are shown under 'not-settled' (compareUnsettled.test.ts)
    const r = runComparison({
      lambdas: [0.5],
      ds: [2],
      ns: [10],
      sampling: 'without-replacement',
      model: { selection: 'lpw', discipline: 'sprpt', prediction: 'exp', service: 'pareto:1.5' },
      jobs: 200,
      replications: 2,
      seed: 3,
      warmupTolerance: 1e-3,
      warmupSafetyFactor: 2,
      maxLevel: 10,
      trajectory: null,
    });
    const m = r.models[0];
    expect(Number.isFinite(m.reference.meanResponseTime)).toBe(false);
    expect(m.reference.unsettled).toMatch(/^E\[T\]∞ not settled/);
    expect(m.limit.status).toBe('not-settled');
    expect(r.cells.map((c) => c.verdict.status)).toEqual(['not-settled']);
  }, 600_000);
});
