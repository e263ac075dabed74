/**
 * The policy space at d ≥ 2 and the replay mode: LWL(d) against its closed form (theory.md §4), common random
 * numbers across disciplines under LWL (theory.md §8), a smoke grid over every selection × discipline × prediction
 * (job conservation, Little's law, ccdf(0) = busy fraction), replay of a Poisson trace against M/M/1, determinism.
 */
import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import {
  DEFAULT_CONVENTIONS,
  DISCIPLINES,
  DISCIPLINE_TABLE,
  SELECTIONS,
  parseModel,
  type SupermarketModel,
} from '../../src/model/model.ts';
import type { Estimate } from '../../src/stats/tInterval.ts';
import { simulateReplay } from '../../src/sim/replay.ts';
import { Rng } from '../../src/stats/rng.ts';
import { simulate } from '../../src/sim/simulate.ts';

const lwl: SupermarketModel = {
  lambda: 0.9,
  d: 2,
  selection: 'lwl',
  discipline: 'fifo',
  service: { kind: 'exponential', mean: 1 },
  sampling: 'with-replacement',
  prediction: { kind: 'exact' },
  memory: { kind: 'none' },
  arrivals: { kind: 'exponential' },
  batch: 1,
  batchDispatch: 'spread',
  conventions: DEFAULT_CONVENTIONS,
};

function expectCovers(e: Estimate, truth: number, widen = 1.5, slack = 0): void {
  expect(Math.abs(e.mean - truth), `mean ${e.mean} ± ${e.halfWidth} vs ${truth}`).toBeLessThanOrEqual(widen * e.halfWidth + slack);
}

describe('simulate over the policy space', () => {
  it('simulate(LWL(2), exponential, n = 1000, λ = 0.9) matches E[T] = −ln(1 − λ²)/λ² = 2.0503 and the workload ccdf of theory.md §4', () => {
    const r = simulate(lwl, { n: 1000, jobs: 250_000, replications: 3, seed: 41, warmupTime: 60, workloadGrid: [0, 1, 2, 4] });
    const lambda = 0.9;
    // O(1/n) allowance: finite-n corrections are of JSQ(d)'s order, c₁/n with c₁ ≈ 4 (theory.md §6, §10) → 0.005.
    expectCovers(r.meanResponseTime, -Math.log(1 - lambda * lambda) / (lambda * lambda), 2, 0.005);
    const ccdf = (w: number) => (lambda + (lambda ** -1 - lambda) * Math.exp(w)) ** -1; // d = 2: (λ + (λ^{1−d} − λ)e^{(d−1)w})^{1/(1−d)}
    r.workloadCcdf!.grid.forEach((w, k) => expectCovers(r.workloadCcdf!.ccdf[k], ccdf(w), 2, 0.003));
    expectCovers(r.meanWorkload!, lambda * (-Math.log(1 - lambda * lambda) / (lambda * lambda)), 2, 0.005); // E[U] = λ·E[T]_FIFO
  });

  it('simulate(LWL(3), common random numbers) gives identical workload paths under FIFO, SRPT, SPRPT and PSJF', () => {
    const opts = { n: 30, jobs: 20_000, replications: 2, seed: 42, warmupTime: 30 };
    const service = { kind: 'weibull', shape: 0.5, mean: 1 } as const;
    const runs = (['fifo', 'srpt', 'sprpt', 'psjf'] as const).map((discipline) =>
      simulate({ ...lwl, d: 3, lambda: 0.8, discipline, service, prediction: { kind: 'exponential' } }, opts),
    );
    for (const r of runs.slice(1)) {
      expect(r.meanWorkload).toEqual(runs[0].meanWorkload);
      expect(r.workloadCcdf).toEqual(runs[0].workloadCcdf);
      expect(r.meanResponseTime.mean).not.toBe(runs[0].meanResponseTime.mean);
    }
  });

  it('simulate(every selection × discipline × prediction) runs: all measured jobs complete, ccdf(0) = ρ, Little within CI', () => {
    const predictions = ['exact', 'exp', 'uniform:0.5', 'lognormal:1'];
    for (const selection of SELECTIONS) {
      for (const discipline of DISCIPLINES) {
        for (const prediction of predictions) {
          const spec = { lambda: 0.7, d: 2, selection, discipline, prediction, service: 'hyperexp:4' };
          if (selection === 'sed') {
            // SED reads speeds: without --speeds it is jsq, and refused (test/sim/hetero.test.ts runs it with speeds)
            expect(() => parseModel(spec), `${selection} ${discipline} ${prediction}`).toThrow(/needs server speeds/);
            continue;
          }
          if (DISCIPLINE_TABLE[discipline].server !== 'priority' && selection === 'lpw' && prediction === 'exact') {
            // LPW with exact predictions reads the true work left: it is LWL (lpwAsLwl), read as such
            expect(parseModel(spec).selection, `${selection} ${discipline} ${prediction}`).toBe('lwl');
          } else if (DISCIPLINE_TABLE[discipline].server !== 'priority' && selection === 'lpw') {
            // LPW's predicted work assumes one job in service: refused with a sharing discipline
            expect(() => parseModel(spec), `${selection} ${discipline} ${prediction}`).toThrow(/not supported/);
            continue;
          }
          const model = parseModel(spec);
          const options = { n: 6, jobs: 3_000, replications: 2, seed: 43, warmupTime: 10, workloadGrid: [0, 1] };
          const r = simulate(model, options);
          const label = `${selection} ${discipline} ${prediction}`;
          expect(
            r.perReplication.every((x) => x.completedJobs === 3_000),
            label,
          ).toBe(true);
          expect(Number.isFinite(r.meanResponseTime.mean) && r.meanResponseTime.mean >= 1e-9, label).toBe(true);
          expect(r.responseTimePercentiles.p50.mean <= r.responseTimePercentiles.p99.mean, label).toBe(true);
          expect(r.workloadCcdf!.ccdf[1].mean <= r.workloadCcdf!.ccdf[0].mean, label).toBe(true);
          expect(r.meanSlowdown.mean, label).toBeGreaterThanOrEqual(1 - 1e-9);
        }
      }
    }
    // Little's law and busy fraction on longer runs of two preemptive predicted pairs.
    for (const [selection, discipline] of [
      ['lpw', 'sprpt'],
      ['jsq', 'pspjf'],
    ] as const) {
      const model = parseModel({ lambda: 0.7, d: 2, selection, discipline, prediction: 'exp', service: 'weibull:0.5' });
      const r = simulate(model, { n: 20, jobs: 40_000, replications: 4, seed: 44, warmupTime: 50, workloadGrid: [0] });
      expect(Math.abs(r.meanResponseTime.mean - r.littleResponseTime.mean)).toBeLessThanOrEqual(
        2 * Math.hypot(r.meanResponseTime.halfWidth, r.littleResponseTime.halfWidth),
      );
      expectCovers(r.workloadCcdf!.ccdf[0], 0.7, 2, 0.005); // P(U > 0) = fraction busy = ρ
      expectCovers(r.tail[1], 0.7, 2, 0.005);
    }
  });

  it('simulate(LPW with exact predictions, clip) agrees with LWL (predicted work = true work) within CIs', () => {
    const opts = { n: 50, jobs: 60_000, replications: 4, seed: 45, warmupTime: 40 };
    const a = simulate({ ...lwl, lambda: 0.8, discipline: 'srpt' }, opts);
    const b = simulate({ ...lwl, lambda: 0.8, discipline: 'srpt', selection: 'lpw' }, { ...opts, seed: 46 });
    expect(Math.abs(a.meanResponseTime.mean - b.meanResponseTime.mean)).toBeLessThanOrEqual(
      2 * Math.hypot(a.meanResponseTime.halfWidth, b.meanResponseTime.halfWidth),
    );
  });

  it('simulate(priority engine, model, options) with the same seed gives identical numbers', () => {
    const model = parseModel({ lambda: 0.8, d: 2, selection: 'lpw', discipline: 'sprpt', prediction: 'exp', service: 'weibull:0.5' });
    const strip = (r: ReturnType<typeof simulate>) => ({ ...r, wallSeconds: 0, eventsPerSecond: 0 });
    const opts = { n: 20, jobs: 5_000, replications: 2, seed: 47, warmupTime: 10 };
    expect(strip(simulate(model, opts))).toEqual(strip(simulate(model, opts)));
    expect(simulate(model, { ...opts, seed: 48 }).meanResponseTime.mean).not.toBe(simulate(model, opts).meanResponseTime.mean);
  });

  it('simulate(engine: "priority", FIFO) agrees with the FIFO event engine within CIs', () => {
    const model = { ...lwl, lambda: 0.8, service: { kind: 'weibull', shape: 2, mean: 1 } } as const;
    const opts = { n: 50, jobs: 40_000, replications: 4, warmupTime: 40 };
    const a = simulate(model, { ...opts, seed: 49 });
    const b = simulate(model, { ...opts, seed: 50, engine: 'priority' });
    expect(a.engine).toBe('event');
    expect(b.engine).toBe('priority');
    expect(Math.abs(a.meanResponseTime.mean - b.meanResponseTime.mean)).toBeLessThanOrEqual(
      2 * Math.hypot(a.meanResponseTime.halfWidth, b.meanResponseTime.halfWidth),
    );
  });
});

/** A Poisson(λn) trace of `jobs` arrivals with Exp(1) sizes. */
function poissonTrace(jobs: number, rate: number, seed: bigint): { arrivals: Float64Array; sizes: Float64Array } {
  const rng = new Rng(seed);
  const arrivals = new Float64Array(jobs);
  const sizes = new Float64Array(jobs);
  let t = 0;
  for (let i = 0; i < jobs; i++) {
    t += rng.nextExp() / rate;
    arrivals[i] = t;
    sizes[i] = rng.nextExp();
  }
  return { arrivals, sizes };
}

describe('simulateReplay', () => {
  it('simulateReplay(Poisson trace, d = 1 FIFO) is M/M/1: E[T] = 1/(1 − λ), E[Q] = λ/(1 − λ); batch lag-1 reported', () => {
    const lambda = 0.6;
    const n = 20;
    const trace = poissonTrace(300_000, lambda * n, 7n);
    const model = parseModel({ lambda, d: 1, selection: 'random' });
    const r = simulateReplay(model, trace, { n, seed: 3, batches: 25 });
    expect(r.jobs).toBe(270_000);
    expect(r.batches).toBe(25);
    expectCovers(r.meanResponseTime, 1 / (1 - lambda), 2, 0.01);
    expectCovers(r.meanQueueLength, lambda / (1 - lambda), 2, 0.01);
    expectCovers(r.meanWorkload, lambda / (1 - lambda), 2, 0.01);
    expectCovers(r.responseTimePercentiles.p95, Math.log(20) / (1 - lambda), 2, 0.02);
    expect(Math.abs(r.windowLoad - lambda)).toBeLessThan(0.02);
    expect(Math.abs(r.meanResponseTime.lag1)).toBeLessThan(0.5);
  });

  it('simulateReplay(trace with predictions) under SPRPT uses them, is deterministic, and SPRPT with Y = S equals SRPT', () => {
    const trace = poissonTrace(20_000, 0.8 * 10, 8n);
    const base = parseModel({ lambda: 0.8, d: 2, selection: 'lwl', discipline: 'srpt' });
    const strip = (r: ReturnType<typeof simulateReplay>) => ({ ...r, wallSeconds: 0, eventsPerSecond: 0, provenance: undefined });
    const srpt = strip(simulateReplay(base, trace, { n: 10, seed: 5 }));
    const sprptExact = strip(simulateReplay({ ...base, discipline: 'sprpt' }, { ...trace, predictions: trace.sizes }, { n: 10, seed: 5 }));
    expect(sprptExact).toEqual(srpt);
    const noisy = simulateReplay(
      { ...base, discipline: 'sprpt' },
      { ...trace, predictions: trace.sizes.map((s, i) => s * (0.5 + (i % 3) * 0.5)) },
      { n: 10, seed: 5 },
    );
    expect(noisy.meanResponseTime.mean).not.toBe(srpt.meanResponseTime.mean);
    expect(noisy.meanWorkload.mean).toBe(srpt.meanWorkload.mean); // LWL: workload is discipline-free
  });

  it('simulateReplay(trace with size-0 jobs) counts them in zeroSizeJobs and leaves them out of the mean slowdown', () => {
    // n = 1, FIFO, arrivals 10 apart and sizes ≤ 3: no job waits, so T = S and every job with S > 0 has slowdown 1
    const arrivals = Float64Array.from({ length: 100 }, (_, i) => 10 * i);
    const sizes = Float64Array.from({ length: 100 }, (_, i) => (i % 4 === 0 ? 0 : 1 + (i % 3)));
    const r = simulateReplay(
      parseModel({ lambda: 0.5, d: 1, selection: 'random' }),
      { arrivals, sizes },
      { n: 1, seed: 1, warmupJobs: 0, batches: 2 }, // 2 batches of 50 jobs, replay's shortest (MIN_BATCH_JOBS)
    );
    expect(r.zeroSizeJobs).toBe(25);
    expect(r.meanSlowdown.mean).toBe(1);
    expect(r.meanResponseTime.mean).toBeCloseTo(sizes.reduce((a, b) => a + b, 0) / 100, 12);
  });

  it('simulate(empirical sizes {0, 2}) counts the measured size-0 jobs, left out of the slowdown', () => {
    const model = parseModel({ lambda: 0.5, d: 2, service: { kind: 'empirical', values: [0, 2], source: 'test', mean: 1 } });
    const r = simulate(model, { n: 10, jobs: 4000, replications: 2, seed: 9, warmupTime: 10 });
    const perReplication = r.perReplication.map((x) => x.zeroSizeJobs);
    expect(r.zeroSizeJobs).toBe(perReplication[0] + perReplication[1]);
    // each measured job has size 0 with probability ½: 8000 jobs, 4000 ± 4·45
    expect(Math.abs(r.zeroSizeJobs - 4000)).toBeLessThan(180);
    expect(r.meanSlowdown.mean).toBeGreaterThanOrEqual(1);
  });

  it('simulateReplay(bad workload) throws InvalidModelError naming the field', () => {
    const model = parseModel({ lambda: 0.5, d: 1, selection: 'random' });
    const ok = poissonTrace(200, 5, 1n);
    expect(() => simulateReplay(model, { ...ok, sizes: ok.sizes.subarray(1) }, { n: 10 })).toThrow(/workload.sizes has 199 entries/);
    expect(() => simulateReplay(model, { ...ok, arrivals: Float64Array.from(ok.arrivals).reverse() }, { n: 10 })).toThrow(/non-decreasing/);
    expect(() => simulateReplay(model, { ...ok, sizes: ok.sizes.map((x, i) => (i === 3 ? NaN : x)) }, { n: 10 })).toThrow(/sizes\[3\]/);
    // a warm-up that leaves one job to measure (10 left give the means alone: too few for an interval, not an error)
    expect(() => simulateReplay(model, ok, { n: 10, warmupJobs: 199 })).toThrow(InvalidModelError);
    expect(simulateReplay(model, ok, { n: 10, warmupJobs: 190 }).noInterval).toMatch(/too few jobs for an interval: 10 measured jobs/);
  });
});
