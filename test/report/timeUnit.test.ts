/**
 * Figures name the true unit of their times (trial: "mean service times" was fixed text on the axes even with
 * `--service exp@2`, where E[T] = 2 is one mean service time), the data beside them the same; and a comparison at
 * E[S] = 2 draws its E[T]-against-λ curves inside the stable loads (it stopped at the end of the run: ρ = 1 reached).
 */
import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { LOAD_GRID, loadCurves } from '../../src/compare/meanFieldCurves.ts';
import { solveSqdFixedPoint } from '../../src/meanfield/index.ts';
import { parseModel } from '../../src/model/index.ts';
import { timeUnit } from '../../src/model/service/index.ts';
import { comparisonFigures, comparisonMarkdown } from '../../src/report/index.ts';
import { reportComparison } from '../compare/config.ts';
import { testMeta } from './meta.ts';

describe('the unit of times in figures and their data', () => {
  it('timeUnit names mean service times at E[S] = 1, else time units with E[S]', () => {
    expect(timeUnit({ mean: 1 })).toBe('mean service times');
    expect(timeUnit({ mean: 2 })).toBe('time units (E[S] = 2)');
  });

  it('loadCurves at E[S] = 2: λ = ρ/2 on the load grid, E[T] and the asymptote in time units (twice those of E[S] = 1)', () => {
    const two = parseModel({ lambda: 0.2, d: 2, service: { kind: 'exponential', mean: 2 } });
    const one = parseModel({ lambda: 0.4, d: 2 });
    const [c2] = loadCurves(two, [2]);
    const [c1] = loadCurves(one, [2]);
    expect(c2.lambda).toEqual(LOAD_GRID.map((rho) => rho / 2));
    c2.meanResponseTime.forEach((t, k) => expect(t).toBeCloseTo(2 * c1.meanResponseTime[k], 9));
    c2.heavyTraffic.forEach((t, k) => expect(t).toBeCloseTo(2 * c1.heavyTraffic[k], 12));
    // the closed form at the cell's own λ: E[T] = 2 × E[T] of the unit-mean model at the same ρ
    expect(solveSqdFixedPoint(two).meanResponseTime).toBeCloseTo(2 * solveSqdFixedPoint(one).meanResponseTime, 9);
  });

  it('a comparison at E[S] = 2 runs through, and its axes, data and text say time units (E[S] = 2)', () => {
    const result = runComparison(
      reportComparison({
        lambdas: [0.45],
        ns: [10, 20],
        jobs: 2_000,
        replications: 3,
        seed: 1,
        model: { service: { kind: 'exponential', mean: 2 } },
      }),
    );
    const figures = comparisonFigures(result);
    const timed = figures.filter((f) => f.name !== 'tail-fractions');
    expect(timed.map((f) => f.name)).toEqual(expect.arrayContaining(['convergence', 'scaled-error', 'load', 'response-time']));
    for (const f of timed) {
      const spec = JSON.stringify(f.spec);
      expect(spec, f.name).toContain('time units (E[S] = 2)');
      expect(spec, f.name).not.toContain('mean service times');
      expect(
        f.rows.every((r) => r.timeUnit === 'time units (E[S] = 2)'),
        f.name,
      ).toBe(true);
    }
    const load = figures.find((f) => f.name === 'load')!;
    expect(JSON.stringify(load.spec)).toContain('"domain":[0,0.5]');
    const md = comparisonMarkdown(result, figures, testMeta());
    expect(md).toContain('exponential service of mean 2 (time in time units (E[S] = 2))');
    expect(md).not.toContain('of mean 1');
  });
});
