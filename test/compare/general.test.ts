import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { parseModel } from '../../src/model/index.ts';
import { lwlExponentialWorkloadCcdf } from '../../src/meanfield/index.ts';
import { hasRefinedTerm, runGeneralComparison, type GeneralComparisonConfig } from '../../src/compare/index.ts';

const config: GeneralComparisonConfig = {
  lambdas: [0.7], ds: [2], ns: [50, 200], sampling: 'with-replacement', jobs: 150_000, replications: 6, seed: 5,
  warmupTolerance: 1e-3, warmupSafetyFactor: 2, maxLevel: 10, model: { selection: 'lwl' },
  trajectory: { ns: [200], tEnd: 12, dt: 1, replications: 4 },
};

describe('runGeneralComparison', () => {
  const result = runGeneralComparison(config);
  const m = result.models[0];

  it('runGeneralComparison(LWL(2) FIFO exponential) takes the closed form −ln(1−λ²)/λ² as the exact reference (theory.md §4)', () => {
    expect(m.reference.kind).toBe('exact');
    expect(m.reference.solver).toMatch(/closed form/);
    expect(m.reference.meanResponseTime).toBeCloseTo(-Math.log(1 - 0.49) / 0.49, 12);
    expect(m.reference.halfWidth).toBe(0);
  });

  it('runGeneralComparison(tiny LWL sweep) finds each simulation within CI + |ĉ₁|/n of the closed form, the fitted limit within its CI, ĉ₁ > 0', () => {
    expect(result.cells.map((c) => c.n)).toEqual([50, 200]);
    for (const c of result.cells) {
      expect(c.verdict.status).toBe('agrees');
      expect(Math.abs(c.verdict.difference)).toBeLessThanOrEqual(c.verdict.combinedHalfWidth + c.verdict.allowance);
    }
    expect(m.limit.status).toBe('agrees');
    expect(m.fit!.c1).toBeGreaterThan(0); // E[T_n] > E[T_∞] wherever observed (theory.md §8)
    expect(m.fit!.c1).toBeGreaterThan(2 * m.fit!.c1StandardError); // resolved, not a sign by chance
  });

  it('runGeneralComparison(LWL) compares the simulated workload ccdf with the closed form F̄(w) at every level', () => {
    const c = result.cells[1];
    const grid = c.simulation.workloadCcdf!.grid;
    expect(m.workload!.ccdf).toEqual(grid.map((w) => lwlExponentialWorkloadCcdf(0.7, 2, w)));
    expect(c.simulation.workloadCcdf!.ccdf[0].mean).toBeCloseTo(0.7, 1); // P(U > 0) = ρ
    // O(1/n) bias at n = 200 is well under 0.01 here; 3 half-widths cover the noise
    expect(c.errors.workloadSup!).toBeLessThan(3 * c.errors.workloadHalfWidth! + 0.01);
  });

  it('runGeneralComparison(LWL) sets the PIDE busy fraction from empty beside the simulated s_1(t)', () => {
    const tr = result.trajectories[0];
    expect(tr.meanField.busyFraction[0]).toBe(0);
    const last = tr.times.length - 1;
    const e = tr.simulated[0].busyFraction[last];
    expect(Math.abs(e.mean - tr.meanField.busyFraction[last])).toBeLessThan(e.halfWidth + 0.03);
  });

  it('runGeneralComparison(LPW) says plainly that there is no mean-field reference, before simulating', () => {
    const lpw = { ...config, model: { selection: 'lpw' } };
    expect(() => runGeneralComparison(lpw)).toThrow(InvalidModelError);
    expect(() => runGeneralComparison(lpw)).toThrow(/no mean-field reference for LPW\(2\)/);
  });

  it('hasRefinedTerm(model) is true only for JSQ(d), FIFO, exponential sizes of mean 1 (theory.md §6)', () => {
    expect(hasRefinedTerm(parseModel({ lambda: 0.9, d: 2 }))).toBe(true);
    expect(hasRefinedTerm(parseModel({ lambda: 0.9, d: 2, selection: 'lwl' }))).toBe(false);
    expect(hasRefinedTerm(parseModel({ lambda: 0.9, d: 2, service: 'erlang:2' }))).toBe(false);
    expect(hasRefinedTerm(parseModel({ lambda: 0.9, d: 2, discipline: 'srpt' }))).toBe(false);
  });
});
