/**
 * The redundancy-d engine, cancel-on-complete (sim/redundancyEngine.ts) against exact answers: d = 1 is M/M/1 per
 * server; d = n = 2 without replacement puts every job on both servers, which then serve the same job together, so
 * the system is one queue: independent exponential replicas give M/M/1 at service rate 2 (the least of two Exp(1)),
 * identical deterministic ones M/D/1 at load 2λ with both servers busy (work per job 2).
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { simulate, type SimulationResult } from '../../src/sim/index.ts';

/** |estimate − truth| within 3 half-widths (seeded runs: deterministic). */
function near(e: { mean: number; halfWidth: number }, truth: number): void {
  expect(Math.abs(e.mean - truth)).toBeLessThan(3 * e.halfWidth + 1e-12);
}

function run(input: Record<string, unknown>, n: number, jobs = 20_000): SimulationResult {
  return simulate(parseModel({ redundancy: 'cancel-on-complete', ...input } as never), {
    n,
    jobs,
    replications: 5,
    seed: 3,
    warmupTime: 50,
  });
}

describe('redundancy-d engine (cancel-on-complete)', () => {
  for (const replicas of ['independent', 'identical'])
    it(`d = 1 is M/M/1 per server: E[T] = 1/(1 − λ) (${replicas})`, () => {
      const r = run({ lambda: 0.6, d: 1, replicas }, 10);
      expect(r.engine).toBe('redundancy');
      near(r.meanResponseTime, 1 / (1 - 0.6));
      near(r.redundancy!.workPerJob, 1);
      near(r.littleResponseTime, 1 / (1 - 0.6));
    });

  it('d = n = 2 without replacement, independent exponential replicas: M/M/1 at rate 2, E[T] = 1/(2 − 2λ)', () => {
    const r = run({ lambda: 0.5, d: 2, sampling: 'without-replacement' }, 2);
    near(r.meanResponseTime, 1 / (2 - 2 * 0.5));
    // both servers work on every job until it leaves: W = 2T_service, E[W] = 2·(1/2)
    near(r.redundancy!.workPerJob, 1);
  });

  it('d = n = 2 without replacement, identical deterministic replicas: M/D/1 at load 2λ, work per job 2', () => {
    const lambda = 0.3;
    const rho = 2 * lambda;
    const r = run({ lambda, d: 2, sampling: 'without-replacement', replicas: 'identical', service: 'det' }, 2);
    near(r.meanResponseTime, 1 + rho / (2 * (1 - rho)));
    expect(r.redundancy!.workPerJob.mean).toBeCloseTo(2, 9);
    near(r.redundancy!.busyFraction, lambda * 2);
  });

  it('the busy fraction is λ·E[W] and Little holds per replica (d = 3, n = 50, with replacement)', () => {
    const lambda = 0.5;
    const r = run({ lambda, d: 3, replicas: 'identical', service: 'hyperexp:2' }, 50);
    const w = r.redundancy!.workPerJob;
    expect(w.mean).toBeGreaterThan(1.05); // replicas of one size: work is wasted
    expect(Math.abs(r.redundancy!.busyFraction.mean - lambda * w.mean)).toBeLessThan(
      3 * (r.redundancy!.busyFraction.halfWidth + lambda * w.halfWidth),
    );
    near(r.littleResponseTime, r.meanResponseTime.mean);
  });

  it('refuses what it cannot do in one line', () => {
    const m = parseModel({ lambda: 0.5, d: 2, redundancy: 'cancel-on-complete' });
    expect(() => simulate(m, { n: 10, jobs: 100, replications: 2, warmupTime: 1, engine: 'priority' })).toThrow(
      /does not simulate redundancy-d/,
    );
    expect(() => simulate(m, { n: 10, jobs: 100, replications: 2, warmupTime: 1, workloadGrid: [0, 1] })).toThrow(/workload grid/);
    expect(() =>
      simulate(parseModel({ lambda: 0.5, d: 2 }), { n: 10, jobs: 100, replications: 2, warmupTime: 1, engine: 'redundancy' }),
    ).toThrow(/redundancy-d models only/);
  });
});
