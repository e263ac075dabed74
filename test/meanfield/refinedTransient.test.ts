import { describe, expect, it, vi } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { refine, refinedTransient, refinedTransientAt, solveTransient } from '../../src/meanfield/index.ts';
import { prepareComparisonModel } from '../../src/compare/index.ts';
import { Odex } from '../../src/numerics/odexCore.ts';
import { testComparison } from '../compare/config.ts';
import { parsePopulationModel, populationRefined, populationRefinedTransient } from '../../src/meanfield/population/index.ts';
import { simulateTrajectory } from '../../src/sim/index.ts';
import { modelJson } from './population/helpers.ts';

describe('refinedTransient (SQ(d))', () => {
  it.each(['with-replacement', 'without-replacement'] as const)(
    'V(t) starts at 0 and tends to the stationary V of refine as t → ∞ (λ = 0.9, d = 2, %s)',
    (sampling) => {
      const model = parseModel({ lambda: 0.9, d: 2, sampling });
      const r = refinedTransient(model, { times: [0, 20, 300] });
      const stationary = refine(model);
      expect(r.sumV[0]).toBe(0);
      expect(r.sumV[1]).toBeLessThan(stationary.sumV); // from empty, V builds up
      expect(Math.abs(r.sumV[2] - stationary.sumV)).toBeLessThan(1e-6);
      for (let i = 1; i < stationary.V.length; i++) expect(r.V[2][i]).toBeCloseTo(stationary.V[i], 6);
    },
  );

  it('takes a mean-field transient solved already (same instants) as its own: the same numbers, no second solve', () => {
    const model = parseModel({ lambda: 0.9, d: 2 });
    const options = { times: [0, 2, 5, 10, 20] };
    const solved = solveTransient(model, options);
    const r = refinedTransient(model, options, solved);
    expect(r.meanField).toBe(solved);
    expect(r).toEqual({ ...refinedTransient(model, options), provenance: r.provenance });
    expect(() => refinedTransient(model, { times: [0, 2, 5, 10] }, solved)).toThrow(/other instants/);
  });

  it("a comparison's plan integrates no ODE twice: the figure's SQ(d) transient is the refined transient's (issue 23)", () => {
    // the plan's refined transient solved the figure's mean-field ODE, same instants and tolerance, a second time
    const solve = vi.spyOn(Odex, 'solve');
    try {
      const trajectory = { ns: [50], tEnd: 5, dt: 1, replications: 2 };
      const config = testComparison({ lambdas: [0.9], ns: [50], jobs: 1000, replications: 2, seed: 1, trajectory });
      const prepared = prepareComparisonModel(config, 0).prepared;
      expect(prepared.transient?.refinedPath).not.toBeNull();
      const runs = solve.mock.calls.map(([, t0, y0, tEnd]) => `${(y0 as number[]).length} on [${t0}, ${tEnd}]`);
      // the figure's transient and the refined (s, V, W) system (the warm-up's ODE too, unless an earlier test of this
      // file solved it for the same model: the warm-up rule caches it)
      expect(runs.length).toBeGreaterThanOrEqual(2);
      expect(new Set(runs).size).toBe(runs.length);
    } finally {
      solve.mockRestore();
    }
  });

  it('refinedTransientAt(n = 100) lies in the 95 % band of 300 simulated trajectories from empty (λ = 0.9, d = 2)', () => {
    // Longer runs: scripts/refined-transient-check.ts (20,000 replications).
    const model = parseModel({ lambda: 0.9, d: 2 });
    const times = [0, 2, 5, 10, 20, 40];
    const sim = simulateTrajectory(model, { n: 100, times, replications: 300, seed: 11 });
    const at = refinedTransientAt(refinedTransient(model, { times }), 100);
    times.forEach((_, j) =>
      expect(Math.abs(at.meanQueueLength[j] - sim.meanQueueLength[j].mean)).toBeLessThanOrEqual(sim.meanQueueLength[j].halfWidth + 1e-12),
    );
  });
});

describe('populationRefinedTransient', () => {
  it('on models/jsq-d.json equals the SQ(d)-specific refinedTransient at t = 5, 30 and tends to populationRefined.V', () => {
    const sq = refinedTransient(parseModel({ lambda: 0.9, d: 2 }), { times: [0, 5, 30] });
    const K = sq.diagnostics.truncationLevel;
    const model = parsePopulationModel(modelJson('jsq-d.json'), { lambda: 0.9, d: 2, K });
    const pop = populationRefinedTransient(model, { times: [0, 5, 30, 400] });
    for (const j of [1, 2]) for (let i = 0; i < K; i++) expect(pop.V[j][i]).toBeCloseTo(sq.V[j][i + 1], 7);
    expect(pop.observables.meanQueueLength[2]).toBeCloseTo(sq.sumV[2], 7);
    const stationary = populationRefined(model);
    stationary.V.forEach((v, i) => expect(pop.V[3][i]).toBeCloseTo(v, 6));
    expect(pop.observables.meanQueueLength[3]).toBeCloseTo(stationary.observables.meanQueueLength.coefficient, 6);
  });
});

describe('refinedTransient at d = 1 (random routing)', () => {
  // trial s14: compare --d 1 --lambda 0.9 sat for minutes integrating this K(K + 2) system to zeros; the drift is
  // linear at d = 1, so V(t) ≡ 0 exactly (independent M/M/1 servers: E[s^(n)(t)] = s(t) at every n)
  it('V(t) is exactly 0 without integrating, beside the same mean-field path', () => {
    const model = parseModel({ lambda: 0.5, d: 1 });
    const times = [0, 1, 5, 20];
    const r = refinedTransient(model, { times });
    expect(r.diagnostics.nEval).toBe(0);
    expect(r.sumV).toEqual([0, 0, 0, 0]);
    for (const row of r.V) expect(row.every((v) => v === 0)).toBe(true);
    expect(r.meanField.tail[3][1]).toBeGreaterThan(0);
  });
});
