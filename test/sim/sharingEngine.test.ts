/**
 * The sharing engine (PS, LAS) against truth: M/M/1-PS E[T] = 1/(1 − ρ); M/G/1-PS insensitivity (hyperexponential,
 * E[T] = E[S]/(1 − ρ)); M/M/1-LAS mean = PS mean; M/G/1-FB (LAS) against the Kleinrock/Schrage formula for
 * hyperexponential and Weibull sizes (mg1 --discipline las); JSQ(2)+PS at n = 1000 against the SQ(2) closed form
 * (Bramson, Lu & Prabhakar 2012: insensitive). Small runs, 99 % intervals widened for the family of checks.
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { describe, expect, it } from 'vitest';
import { parseModel, type ModelInput } from '../../src/model/index.ts';
import { D_LAS, D_PS } from '../../src/sim/core.ts';
import { planSimulation, runReplications, SimulationCollector, type SimulateOptions } from '../../src/sim/simulate.ts';
import { AttainedGroups } from '../../src/jobs/attainedGroups.ts';
import { JobPool } from '../../src/jobs/jobPool.ts';

/** Runs the model under PS or LAS (the engine directly: the discipline code set on the run configuration). */
function runSharing(spec: ModelInput, discipline: number, options: SimulateOptions) {
  const plan = planSimulation(parseModel(spec), options);
  plan.config = { ...plan.config, discipline };
  plan.kind = 'sharing';
  const collector = new SimulationCollector(plan);
  while (collector.wantsMore()) collector.add(runReplications(plan, collector.count, 1)[0]);
  return collector.result();
}

const R = 8;
/** Widening of a 95 % t interval to a 99.5 % one (about 10 checks in this file). */
const widen = tQuantile(1 - 0.005 / 2, R - 1) / tQuantile(0.975, R - 1);

function expectInside(estimate: { mean: number; halfWidth: number }, exact: number, slack = 0): void {
  expect(Math.abs(estimate.mean - exact), `simulated ${estimate.mean} ± ${estimate.halfWidth}, exact ${exact}`).toBeLessThanOrEqual(
    widen * estimate.halfWidth + slack,
  );
  expect(estimate.halfWidth, 'the interval must be informative').toBeLessThan(0.1 * exact);
}

describe('AttainedGroups (LAS on one server, by hand)', () => {
  it('shares the least-attained group, merges groups and completes by size', () => {
    const pool = new JobPool(16);
    const clock = new Float64Array(1);
    const g = new AttainedGroups(1, pool, clock);
    const a = pool.alloc(0, 3, 3, 0);
    g.add(0, a, 0); // alone: done at 3
    expect(clock[0]).toBe(3);
    const b = pool.alloc(1, 1, 1, 1);
    g.add(0, b, 1); // a at level 1 waits; b alone reaches level 1 at t = 2 → merge
    expect(clock[0]).toBe(2);
    expect(g.fire(0, 2)).toBe(-1); // merge: a and b both at level 1, b (size 1) completes at once
    expect(clock[0]).toBe(2);
    expect(g.fire(0, 2)).toBe(b);
    expect(clock[0]).toBe(4); // a alone from level 1 to 3
    expect(g.fire(0, 4)).toBe(a);
    expect(clock[0]).toBe(Infinity);
  });
});

describe('sharing engine against exact values', () => {
  it('M/M/1-PS: E[T] = 1/(1 − ρ) and E[T/S] = 1/(1 − ρ) at ρ = 0.8', () => {
    const r = runSharing({ lambda: 0.8, d: 1, selection: 'random' }, D_PS, {
      n: 1,
      jobs: 25_000,
      replications: R,
      seed: 3,
      warmupTime: 200,
    });
    expectInside(r.meanResponseTime, 5);
    expectInside(r.meanSlowdown, 5);
  });

  it('M/G/1-PS is insensitive: hyperexponential (SCV 10) sizes give E[T] = E[S]/(1 − ρ) at ρ = 0.7', () => {
    const r = runSharing({ lambda: 0.7, d: 1, selection: 'random', service: 'hyperexp:10' }, D_PS, {
      n: 1,
      jobs: 60_000,
      replications: R,
      seed: 5,
      warmupTime: 300,
    });
    expectInside(r.meanResponseTime, 1 / 0.3);
  });

  it('M/M/1-LAS has the PS mean 1/(1 − ρ) at ρ = 0.7', () => {
    const r = runSharing({ lambda: 0.7, d: 1, selection: 'random' }, D_LAS, {
      n: 1,
      jobs: 60_000,
      replications: R,
      seed: 9,
      warmupTime: 200,
    });
    expectInside(r.meanResponseTime, 1 / 0.3);
  });

  it('JSQ(2)+PS with hyperexponential sizes at n = 1000, λ = 0.9: the exponential SQ(2) value within CI + 1/n', () => {
    const lambda = 0.9;
    let meanQ = 0;
    for (let k = 1; k < 60; k++) meanQ += lambda ** (2 ** k - 1);
    const exact = meanQ / lambda; // Little: E[T] = Σ_k s_k / λ, s_k = λ^(2^k − 1)
    const r = runSharing({ lambda, d: 2, service: 'hyperexp:10' }, D_PS, {
      n: 1000,
      jobs: 100_000,
      replications: 4,
      seed: 11,
      warmupTime: 100,
    });
    const e = r.meanResponseTime;
    const w4 = tQuantile(1 - 0.005 / 2, 3) / tQuantile(0.975, 3);
    console.log(`JSQ(2)+PS hyperexp: ${e.mean} ± ${e.halfWidth} vs ${exact}`);
    expect(Math.abs(e.mean - exact), `simulated ${e.mean} ± ${e.halfWidth}, SQ(2) ${exact}`).toBeLessThanOrEqual(
      w4 * e.halfWidth + 1 / 1000,
    );
  });
});
