import { describe, expect, it } from 'vitest';
import { cellSeed, runComparison, type CellResult, type ComparisonConfig } from '../../src/compare/index.ts';

const config: ComparisonConfig = {
  lambdas: [0.7], ds: [2], ns: [10, 100], sampling: 'with-replacement', jobs: 40_000, replications: 4, seed: 11,
  warmupTolerance: 1e-3, warmupSafetyFactor: 2, maxLevel: 12,
  trajectory: { ns: [100], tEnd: 10, dt: 1, replications: 10 },
};

describe('runComparison', () => {
  const result = runComparison(config);

  it('runComparison(config) returns one cell per (d, λ, n) with the mean field and refined values beside the simulation', () => {
    expect(result.cells.map((c) => c.key)).toEqual(['d2-lambda0.7-n10', 'd2-lambda0.7-n100']);
    const m = result.models[0];
    expect(m.meanField.meanResponseTime).toBeCloseTo(1.6145, 4); // theory.md §10
    for (const c of result.cells) {
      expect(c.refined.meanResponseTime).toBeCloseTo(m.meanField.meanResponseTime + m.sumV / (0.7 * c.n), 12);
      expect(c.errors.meanResponseTimeVsMeanField).toBeCloseTo(c.simulation.meanResponseTime.mean - m.meanField.meanResponseTime, 12);
      expect(c.seed).toBe(cellSeed(11, c.key));
    }
  });

  it('runComparison(config) finds the finite-n simulation above the mean field and near the refined value at n = 100', () => {
    const c100 = result.cells[1];
    expect(c100.verdict.status).not.toBe('refined-out-of-range');
    // Bonferroni-free but wide: 4 half-widths plus the allowance
    expect(Math.abs(c100.verdict.difference)).toBeLessThan(4 * c100.verdict.halfWidth + c100.verdict.allowance + 1e-3);
    const c10 = result.cells[0];
    expect(c10.errors.meanResponseTimeVsMeanField).toBeGreaterThan(0); // E[T_n] > E[T_∞] (theory.md §8)
  });

  it('runComparison(config) compares the simulated trajectory from empty with the ODE', () => {
    const tr = result.trajectories[0];
    expect(tr.times).toHaveLength(11);
    expect(tr.meanField[0][1]).toBe(0);
    expect(tr.simulated[0].tail[0][1].mean).toBe(0);
    const last = tr.times.length - 1;
    const end = tr.simulated[0].tail[last][1];
    // ten replications at n = 100: a loose check; the engine's own trajectory tests are the tight one
    expect(Math.abs(end.mean - tr.meanField[last][1])).toBeLessThanOrEqual(end.halfWidth + 0.01);
  });

  it('runComparison(config, { cache }) reuses stored cells instead of simulating them again', () => {
    const stored = new Map<string, CellResult>(result.cells.map((c) => [c.key, c]));
    const seen: string[] = [];
    const again = runComparison({ ...config, trajectory: null }, {
      cache: { get: (k) => { seen.push(k); return stored.get(k); }, put: () => { throw new Error('nothing new should be stored'); } },
    });
    expect(seen).toEqual(['d2-lambda0.7-n10', 'd2-lambda0.7-n100']);
    expect(again.cells).toEqual(result.cells);
  });

  it('runComparison(config) rejects d > n and unstable λ before simulating', () => {
    expect(() => runComparison({ ...config, ds: [20] })).toThrow(/exceeds n = 10/);
    expect(() => runComparison({ ...config, lambdas: [1.1] })).toThrow(/unstable/);
    expect(() => runComparison({ ...config, replications: 1 })).toThrow(/replications/);
  });
});
