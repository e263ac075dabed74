import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { populationFixedPoint, populationRefined, refinedAt } from '../../src/meanfield/population/index.ts';
import { simulatePopulation } from '../../src/sim/index.ts';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';
import { shipped } from '../meanfield/population/helpers.ts';

describe('simulatePopulation', () => {
  it('simulatePopulation(jsq-d.json, { n: 100 }) E[Q] agrees with the refined mean field 2.3925 within CI + δ_n (theory.md §6, §8), λ = 0.9, d = 2', () => {
    const model = shipped('jsq-d.json', { lambda: 0.9, d: 2 });
    const fp = populationFixedPoint(model);
    const refined = populationRefined(model, fp);
    const truth = refinedAt(refined, 100).observables.meanQueueLength;
    expect(truth).toBeCloseTo(2.3925, 4);
    const warmup = simulationWarmup(model, { fixedPoint: fp }).time; // ≈ 151: 2 × the ODE's time from empty to within 1e−3 of π
    const sim = simulatePopulation(model, { n: 100, horizon: 1500, warmup, replications: 10, seed: 1 });
    const e = sim.observables.meanQueueLength;
    // δ_n = |ΣV/n|·|ΣV|/(nΣπ) (theory.md §8): the size of the neglected 1/n² term, ≈ 7e−4 here.
    const c = refined.observables.meanQueueLength.coefficient;
    const delta = (Math.abs(c / 100) * Math.abs(c)) / (100 * fp.observables.meanQueueLength);
    expect(Math.abs(e.mean - truth)).toBeLessThanOrEqual(e.halfWidth + delta);
    expect(e.halfWidth).toBeLessThan(0.04); // below the 1/n correction ΣV/n ≈ 0.040: the check has teeth
    // Exact laws of the finite system: busy fraction s_1 = λ (departures balance arrivals), Little's law per run.
    expect(Math.abs(sim.x[0].mean - 0.9)).toBeLessThanOrEqual(sim.x[0].halfWidth);
    sim.perReplication.forEach((p) => expect(p.observables.meanResponseTime).toBeCloseTo(p.observables.meanQueueLength / 0.9, 12));
  });

  it('simulatePopulation(model, { seed }) is deterministic: same seed → same numbers, another seed → others', () => {
    const model = shipped('jsq-d.json', { lambda: 0.8, d: 2, K: 8 });
    const options = { n: 20, horizon: 100, warmup: 20, replications: 3 };
    const a = simulatePopulation(model, { ...options, seed: 7 });
    const b = simulatePopulation(model, { ...options, seed: 7 });
    const c = simulatePopulation(model, { ...options, seed: 8 });
    expect(b.observables).toEqual(a.observables);
    expect(b.x).toEqual(a.x);
    expect(b.seeds).toEqual(a.seeds);
    expect(c.observables.meanQueueLength.mean).not.toBe(a.observables.meanQueueLength.mean);
  });

  it('simulatePopulation(model, options) keeps the state on the lattice (1/n)Z^K with 0 ≤ s_K ≤ … ≤ s_1 ≤ 1', () => {
    const model = shipped('jsq-d.json', { lambda: 0.95, d: 2, K: 6 });
    const sim = simulatePopulation(model, { n: 3, horizon: 200, replications: 2 });
    sim.x.forEach((e, i) => {
      expect(e.mean).toBeGreaterThanOrEqual(0);
      expect(e.mean).toBeLessThanOrEqual(i === 0 ? 1 : sim.x[i - 1].mean + 1e-12);
    });
  });

  it('simulatePopulation(model, options) rejects bad options, naming the field and bound', () => {
    const model = shipped('jsq-d.json', { K: 5 });
    expect(() => simulatePopulation(model, { n: 0, horizon: 10 })).toThrow(/n must be an integer/);
    expect(() => simulatePopulation(model, { n: 10, horizon: -1 })).toThrow(InvalidModelError);
    expect(() => simulatePopulation(model, { n: 10, horizon: 10, replications: 1 })).toThrow(/replications/);
    expect(() => simulatePopulation(model, { n: 10, horizon: 10, from: [0.5] })).toThrow(/5 variables/);
  });
});
