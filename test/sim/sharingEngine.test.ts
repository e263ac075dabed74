/**
 * The sharing engine (PS, LAS) against truth: M/M/1-PS E[T] = 1/(1 − ρ); M/G/1-PS insensitivity (hyperexponential,
 * E[T] = E[S]/(1 − ρ)); M/M/1-LAS mean = PS mean; M/G/1-FB (LAS) against the Kleinrock/Schrage formula for
 * hyperexponential and Weibull sizes (mg1 --discipline las); JSQ(2)+PS at n = 1000 against the SQ(2) closed form
 * (Bramson, Lu & Prabhakar 2012: insensitive). Small runs, 99 % intervals widened for the family of checks.
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { describe, expect, it } from 'vitest';
import { parseModel, type ModelInput } from '../../src/model/index.ts';
import { simulate, simulateReplay, simulateTrajectory, type SimulateOptions } from '../../src/sim/index.ts';
import { recordReplication } from '../../src/sim/jobRecord.ts';
import { AttainedGroups } from '../../src/jobs/attainedGroups.ts';
import { mg1 } from '../../src/meanfield/mg1/index.ts';
import { JobPool } from '../../src/jobs/jobPool.ts';

const D_PS = 'ps';
const D_LAS = 'las';

/** Simulates the model under PS or LAS (`simulate`, which picks the sharing engine from the discipline's row). */
function runSharing(spec: ModelInput, discipline: 'ps' | 'las', options: SimulateOptions) {
  const r = simulate(parseModel({ ...spec, discipline }), options);
  expect(r.engine).toBe('sharing');
  return r;
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

  it('M/G/1-FB (LAS, d = 1) with hyperexponential (SCV 10) sizes matches the Kleinrock/Schrage formula at ρ = 0.7', () => {
    const spec = { lambda: 0.7, d: 1, selection: 'random', service: 'hyperexp:10' } as const;
    const exact = mg1(parseModel({ ...spec, discipline: 'las' })).meanResponseTime;
    const r = runSharing(spec, D_LAS, { n: 1, jobs: 50_000, replications: R, seed: 13, warmupTime: 300 });
    expectInside(r.meanResponseTime, exact);
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
    expect(Math.abs(e.mean - exact), `simulated ${e.mean} ± ${e.halfWidth}, SQ(2) ${exact}`).toBeLessThanOrEqual(
      w4 * e.halfWidth + 1 / 1000,
    );
  });
});

describe('the sharing engine in every entry', () => {
  it('engine "priority" on PS or LAS is refused in one line; "event" and "auto" pick the sharing engine', () => {
    const model = parseModel({ lambda: 0.5, d: 2, discipline: 'las' });
    expect(() => simulate(model, { n: 4, jobs: 10, warmupTime: 0, engine: 'priority' })).toThrow(
      /engine "priority" does not run discipline las/,
    );
    expect(simulate(model, { n: 4, jobs: 10, warmupTime: 0, engine: 'event' }).engine).toBe('sharing');
  });

  it('replay: jobs arriving in pairs of sizes 1 and 2 share the server (PS, LAS: T = 2 and 3; FIFO: 1 and 3)', () => {
    const pairs = 40;
    const arrivals = new Float64Array(2 * pairs);
    const sizes = new Float64Array(2 * pairs);
    for (let k = 0; k < pairs; k++) {
      arrivals[2 * k] = arrivals[2 * k + 1] = 10 * k;
      sizes[2 * k] = 1;
      sizes[2 * k + 1] = 2;
    }
    for (const [discipline, mean] of [
      ['ps', 2.5],
      ['las', 2.5],
      ['fifo', 2],
    ] as const) {
      const model = parseModel({ lambda: 0.15, d: 1, selection: 'random', discipline });
      const r = simulateReplay(model, { arrivals, sizes }, { n: 1, warmupJobs: 0 });
      expect(r.engine).toBe(discipline === 'fifo' ? 'event' : 'sharing');
      expect(r.meanResponseTime.mean).toBeCloseTo(mean, 12);
    }
  });

  it("per-job records of a PS run are the jobs of simulate's replication (same stream, same mean)", () => {
    const model = parseModel({ lambda: 0.8, d: 2, discipline: 'ps', service: 'weibull:0.5' });
    const options = { n: 20, jobs: 3000, seed: 4, warmupTime: 50 };
    const rec = recordReplication(model, options);
    const sim = simulate(model, { ...options, replications: 2 });
    expect(rec.engine).toBe('sharing');
    expect(rec.meanResponseTime).toBe(sim.perReplication[0].meanResponseTime);
    let sum = 0;
    for (let k = 0; k < rec.jobs.response.length; k++) {
      expect(rec.jobs.response[k]).toBeGreaterThanOrEqual(rec.jobs.size[k] * (1 - 1e-9));
      sum += rec.jobs.response[k];
    }
    expect(sum / rec.jobs.response.length).toBeCloseTo(rec.meanResponseTime, 9);
    for (const b of rec.servers.busyFraction) expect(b).toBeGreaterThan(0.5);
  });

  it("trajectories from a non-empty state: JSQ(2)+PS with exponential sizes has FIFO's count process", () => {
    const from = [1, 0.9, 0.6, 0.3];
    const options = { n: 500, times: [0, 2, 8], from, replications: 8, seed: 2, engine: 'event' as const };
    const ps = simulateTrajectory(parseModel({ lambda: 0.9, d: 2, discipline: 'ps' }), options);
    const fifo = simulateTrajectory(parseModel({ lambda: 0.9, d: 2 }), options);
    expect(ps.engine).toBe('sharing');
    expect(ps.tail[0][2].mean).toBeCloseTo(0.6, 12);
    for (const j of [1, 2]) {
      for (const i of [1, 2, 3]) {
        const a = ps.tail[j][i];
        const b = fifo.tail[j][i];
        expect(Math.abs(a.mean - b.mean), `s_${i}(${options.times[j]})`).toBeLessThan(2 * (a.halfWidth + b.halfWidth) + 1e-3);
      }
    }
  });
});
