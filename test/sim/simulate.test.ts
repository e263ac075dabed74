import { describe, expect, it } from 'vitest';
import { InvalidModelError, UnstableModelError } from '../../src/errors.ts';
import { parseModel, type SupermarketModel } from '../../src/model/model.ts';
import { precisionRefusal } from '../../src/model/moments.ts';
import type { Estimate } from '../../src/stats/tInterval.ts';
import {
  MIN_SEQUENTIAL_UNITS,
  MIN_TAIL_JOBS_PER_SECTION,
  MSER_MARGIN,
  percentileSectionShortfall,
  simulate,
  simulationJson,
  type SimulateOptions,
} from '../../src/sim/simulate.ts';
import { coverageBand } from '../../src/stats/binomial.ts';

const base: SupermarketModel = parseModel({ lambda: 0.9, d: 2 });
const mm1 = (lambda: number): SupermarketModel => ({ ...base, lambda, d: 1 });
/** 10 M/M/1 relaxation times 10/(1 − √ρ)² (time units of E[S] = 1): the warm-up these seeds were checked with. */
const mm1Warmup = (rho: number) => 10 / (1 - Math.sqrt(rho)) ** 2;

/** |estimate − truth| within the CI widened by `widen` (keeps the family-wise false-alarm rate small) + slack. */
function expectCovers(e: Estimate, truth: number, widen = 1.5, slack = 0): void {
  expect(Math.abs(e.mean - truth), `mean ${e.mean} ± ${e.halfWidth} vs ${truth}`).toBeLessThanOrEqual(widen * e.halfWidth + slack);
}

describe('simulate', () => {
  for (const lambda of [0.5, 0.8]) {
    it(`simulate(d = 1, λ = ${lambda}) is M/M/1: E[T] = 1/(1 − λ), P(Q ≥ i) = λ^i for i = 1..4, Little's law`, () => {
      const r = simulate(mm1(lambda), { n: 100, jobs: 150_000, replications: 8, seed: 21, maxLevel: 6, warmupTime: mm1Warmup(lambda) });
      expectCovers(r.meanResponseTime, 1 / (1 - lambda));
      expectCovers(r.meanQueueLength, lambda / (1 - lambda));
      for (let i = 1; i <= 4; i++) expectCovers(r.tail[i], lambda ** i);
      expect(r.tail[0]).toMatchObject({ mean: 1, halfWidth: 0 });
      expect(Math.abs(r.meanResponseTime.mean - r.littleResponseTime.mean)).toBeLessThanOrEqual(
        1.5 * Math.hypot(r.meanResponseTime.halfWidth, r.littleResponseTime.halfWidth),
      );
    });
  }

  it('simulate(SQ(2), n = 1000, λ = 0.9, with replacement) matches the refined mean field 2.3527 + 3.9864/n', () => {
    const r = simulate(base, { n: 1000, jobs: 600_000, replications: 5, seed: 5, warmupTime: 150 });
    expectCovers(r.meanQueueLength, 2.3527 + 3.9864 / 1000, 1.5, 0.002);
    expectCovers(r.meanResponseTime, (2.3527 + 3.9864 / 1000) / 0.9, 1.5, 0.003);
    expect(Math.abs(r.tail[1].mean - 0.9)).toBeLessThan(0.003);
    expect(Math.abs(r.tail[2].mean - 0.729)).toBeLessThan(0.005); // s_2* = λ^3
    expect(r.tail.length).toBe(31);
    expect(r.perReplication).toHaveLength(5);
    expect(r.engine).toBe('race');
    expect(r.jobs).toBe(600_000);
  });

  it('simulate(SQ(2), without replacement) runs and lies between the limit and the with-replacement value', () => {
    const r = simulate({ ...base, sampling: 'without-replacement' }, { n: 200, jobs: 200_000, replications: 5, seed: 6, warmupTime: 150 });
    // V_without < V_with (theory.md §6): E[Q_200] below 2.3527 + 3.9864/200 ≈ 2.3726, above the limit 2.3527.
    expect(r.meanQueueLength.mean).toBeGreaterThan(2.3527 - 2 * r.meanQueueLength.halfWidth);
    expect(r.meanQueueLength.mean).toBeLessThan(2.3726 + 2 * r.meanQueueLength.halfWidth);
  });

  it('simulate(model, options) with the same seed gives identical numbers, a different seed different ones', () => {
    const opts = { n: 50, jobs: 20_000, replications: 3, seed: 42, warmupTime: 20 };
    const strip = (r: ReturnType<typeof simulate>) => ({ ...r, wallSeconds: 0, eventsPerSecond: 0 });
    for (const engine of ['event', 'race'] as const) {
      const a = strip(simulate(base, { ...opts, engine }));
      const b = strip(simulate(base, { ...opts, engine }));
      const c = strip(simulate(base, { ...opts, engine, seed: 43 }));
      expect(a).toEqual(b);
      expect(c.meanResponseTime.mean).not.toBe(a.meanResponseTime.mean);
      expect(c.seeds.replications).not.toEqual(a.seeds.replications);
    }
  });

  it('simulate(engine: "event") and simulate(engine: "race") agree within their combined CIs', () => {
    const opts = { n: 100, jobs: 200_000, replications: 6, warmupTime: 100 };
    const ev = simulate(base, { ...opts, engine: 'event', seed: 7 });
    const ra = simulate(base, { ...opts, engine: 'race', seed: 8 });
    expect(ev.engine).toBe('event');
    expect(ra.engine).toBe('race');
    for (const key of ['meanResponseTime', 'meanQueueLength'] as const) {
      expect(Math.abs(ev[key].mean - ra[key].mean)).toBeLessThanOrEqual(1.5 * Math.hypot(ev[key].halfWidth, ra[key].halfWidth));
    }
    for (let i = 1; i <= 4; i++) {
      expect(Math.abs(ev.tail[i].mean - ra.tail[i].mean)).toBeLessThanOrEqual(
        1.5 * Math.hypot(ev.tail[i].halfWidth, ra.tail[i].halfWidth) + 1e-4,
      );
    }
  });

  it("simulate(d = 1, λ = 0.95, n = 1) grows the job rings past their start capacity and keeps Little's law", () => {
    for (const engine of ['event', 'race'] as const) {
      const r = simulate(mm1(0.95), { n: 1, jobs: 300_000, replications: 4, seed: 2, warmupTime: 500, engine });
      expect(r.perReplication.every((x) => x.completedJobs === 300_000)).toBe(true);
      expect(Math.abs(r.meanResponseTime.mean - r.littleResponseTime.mean)).toBeLessThanOrEqual(
        1.5 * Math.hypot(r.meanResponseTime.halfWidth, r.littleResponseTime.halfWidth),
      );
    }
  });

  it('simulate(service mean 2) rescales time: E[T] = 2/(1 − ρ) at d = 1, ρ = 0.5', () => {
    const r = simulate(
      { ...mm1(0.25), service: { kind: 'exponential', mean: 2 } },
      { n: 50, jobs: 60_000, replications: 6, seed: 9, engine: 'event', warmupTime: 2 * mm1Warmup(0.5) },
    );
    expectCovers(r.meanResponseTime, 2 / (1 - 0.5));
    expectCovers(r.meanQueueLength, 0.5 / (1 - 0.5));
  });

  it('simulate(model, { onProgress }) reports progress with a positive total estimate', () => {
    const calls: [number, number][] = [];
    simulate(base, { n: 100, jobs: 600_000, replications: 2, warmupTime: 10, onProgress: (done, total) => calls.push([done, total]) });
    expect(calls.length).toBeGreaterThan(0);
    expect(calls[0][1]).toBeGreaterThan(0);
    expect(calls.every(([done], i) => i === 0 || done > calls[i - 1][0])).toBe(true);
  });

  it('simulate(bad input) throws InvalidModelError: n < 1, d > n, jobs = 0, replications 1, no warm-up, a run beyond the event budget', () => {
    expect(() => simulate(base, { n: 0, warmupTime: 10 })).toThrow(InvalidModelError);
    expect(() => simulate(base, { n: 1, warmupTime: 10 })).toThrow(InvalidModelError);
    expect(() => simulate(base, { n: 2.5, warmupTime: 10 })).toThrow(InvalidModelError);
    expect(() => simulate(base, { n: 10, jobs: 0, warmupTime: 10 })).toThrow(InvalidModelError);
    expect(() => simulate(base, { n: 10, jobs: NaN, warmupTime: 10 })).toThrow(InvalidModelError);
    expect(() => simulate(base, { n: 10, replications: 1, warmupTime: 10 })).toThrow(InvalidModelError);
    expect(() => simulate(base, { n: 10, warmupTime: -1 })).toThrow(InvalidModelError);
    expect(() => simulate(base, { n: 10, seed: 1.5, warmupTime: 10 })).toThrow(InvalidModelError);
    expect(() => simulate(base, { n: 10, engine: 'fast' as 'race', warmupTime: 10 })).toThrow(InvalidModelError);
    expect(() => simulate(base, { n: 10 } as SimulateOptions)).toThrow(/warmupTime must be a finite number ≥ 0, got undefined/);
    // λn·warm-up·2·replications = 0.9·1e5·1e5·2·5 ≈ 9e10 > 2e10 events
    expect(() => simulate(base, { n: 100_000, jobs: 10, warmupTime: 1e5 })).toThrow(/this run needs about 9\.00e10 events/);
    expect(() => simulate(base, { n: 10, jobs: 1000, warmupTime: 0, maxEvents: 100 })).toThrow(/more than 1e\+2/);
    expect(() => simulate(base, { n: 10, workloadGrid: [1, 0.5], warmupTime: 10 })).toThrow(/workloadGrid must be strictly increasing/);
  });

  it('simulate refuses an option it would not read: a misspelt key, batches without batch-means, replications with it', () => {
    // each ran before as if not given: { replication: 20 } ran 5 replications, { batches: 50 } 5 replications
    const opts = { n: 10, jobs: 1000, warmupTime: 1 };
    expect(() => simulate(base, { ...opts, replication: 20 } as SimulateOptions)).toThrow(
      /^simulate: unknown option "replication" \(did you mean "replications"\?\); allowed options: n, jobs, replications/,
    );
    expect(() => simulate(base, { ...opts, batches: 50 })).toThrow(/batches acts only with method "batch-means"/);
    expect(() => simulate(base, { ...opts, method: 'batch-means', replications: 3 })).toThrow(
      /replications acts only with method "replications"/,
    );
    expect(() => simulate(base, { ...opts, maxReplications: 50 })).toThrow(/maxReplications acts only with a precision target/);
    // the race engine (auto for JSQ + FIFO, exponential sizes) returned no workload for a workloadGrid it dropped
    expect(() => simulate(base, { ...opts, workloadGrid: [1, 2] })).toThrow(/workloadGrid acts only on the event engines/);
    expect(simulate(base, { ...opts, replications: 2, workloadGrid: [1, 2], engine: 'event' }).workloadCcdf?.grid).toEqual([1, 2]);
    // an option present as undefined is absent, as the types allow
    expect(simulate(base, { ...opts, batches: undefined, replications: 2 }).replications).toBe(2);
  });

  it('simulate trusts the parsed model: parseModel refuses NaN λ, unknown rules and ρ ≥ 1 before any run', () => {
    expect(() => parseModel({ lambda: NaN, d: 2 })).toThrow(InvalidModelError);
    expect(() => parseModel({ lambda: 0.5, d: 2, selection: 'lll' })).toThrow(/unknown selection "lll"/);
    expect(() => parseModel({ lambda: 0.5, d: 2, discipline: 'lifo' })).toThrow(/unknown discipline "lifo"/);
    expect(() => parseModel({ lambda: 1, d: 2 })).toThrow(UnstableModelError);
    expect(() => parseModel({ lambda: 0.6, d: 2, service: { kind: 'exponential', mean: 2 } })).toThrow(UnstableModelError);
  });

  it('simulate(model, options) does not modify the model', () => {
    const frozen = Object.freeze({ ...base, service: Object.freeze({ ...base.service }) });
    const r = simulate(frozen, { n: 20, jobs: 2_000, replications: 2, warmupTime: 5 });
    expect(r.provenance.model).toBe(frozen);
  });
});

describe('simulate: output analysis (issue 8 §2)', () => {
  it('simulate(M/M/1 λ = 0.5, 100 jobs × 100 replications): pooled p99 ≈ ln(100)/(1 − λ) = 9.2103 inside its sectioning CI; the average of per-replication p99s is biased low', () => {
    const r = simulate(mm1(0.5), { n: 1, jobs: 100, replications: 100, seed: 1, warmupTime: 100 });
    const p99 = r.responseTimePercentiles.p99;
    expect(p99.ci95[0]).toBeLessThanOrEqual(9.2103);
    expect(p99.ci95[1]).toBeGreaterThanOrEqual(9.2103);
    expect(Math.abs(p99.mean - 9.2103)).toBeLessThan(0.5);
    const averaged = r.perReplication.reduce((s, x) => s + x.responseTimePercentiles.p99, 0) / 100;
    expect(averaged).toBeLessThan(8.2); // the old estimator: about 7.4
  });

  it('simulate(bpareto:1.5:1e6, short run) warns (heavy-tail budget, truncated moments) and keeps the interval of E[T] ≥ E[S] = 1, slowdown ≥ 1', () => {
    const r = simulate(
      { ...mm1(0.5), service: { kind: 'bounded-pareto', alpha: 1.5, ratio: 1e6, mean: 1 } },
      { n: 1, jobs: 20_000, replications: 5, seed: 1, warmupTime: 100 },
    );
    expect(r.warnings.join('\n')).toMatch(/10⁵\(1 \+ SCV\)/);
    expect(r.warnings.join('\n')).toMatch(/finite only through the upper bound/);
    expect(r.meanResponseTime.ci95[0]).toBeGreaterThanOrEqual(1);
    expect(r.meanSlowdown.ci95[0]).toBeGreaterThanOrEqual(1);
    for (const e of r.tail) expect(e.ci95[1]).toBeLessThanOrEqual(1);
  });

  it('simulate(pareto:1.5 FIFO): E[T] and E[T/S] are flagged infinite and simulationJson prints { mean: null, infinite: true, reason }', () => {
    const r = simulate(
      { ...mm1(0.5), service: { kind: 'pareto', alpha: 1.5, mean: 1 } },
      { n: 1, jobs: 2_000, replications: 3, seed: 2, warmupTime: 50 },
    );
    expect(r.finiteness.meanResponseTime.finite).toBe(false);
    const json = JSON.parse(JSON.stringify(simulationJson(r)));
    expect(json.meanResponseTime).toEqual({
      mean: null,
      infinite: true,
      reason: expect.stringMatching(/E\[S²\] = ∞/),
      replications: 3,
      sampleMean: expect.any(Number),
    });
    expect(json.meanSlowdown).toMatchObject({ mean: null, infinite: true });
    expect(json.tail[1].mean).toBeGreaterThan(0);
    const exp = simulate(mm1(0.5), { n: 1, jobs: 2_000, replications: 3, seed: 2, warmupTime: 50 });
    expect(JSON.parse(JSON.stringify(simulationJson(exp))).meanSlowdown).toMatchObject({
      mean: null,
      reason: expect.stringMatching(/E\[1\/S\] = ∞/),
    });
  });

  it('simulate(precision) adds replications r = R, R+1, … with streamSeed(seed, r) until the target, and says which stopped it', () => {
    const opts = { n: 1, jobs: 2_000, replications: 5, seed: 4, warmupTime: 50 };
    const r = simulate(mm1(0.5), { ...opts, precision: { relative: 0.02 }, maxReplications: 100 });
    expect(r.precision).toMatchObject({ stoppedBy: 'precision', target: { relative: 0.02 } });
    expect(r.precision!.achieved.relative).toBeLessThanOrEqual(0.02);
    expect(r.replications).toBeGreaterThan(5);
    const fixed = simulate(mm1(0.5), { ...opts, replications: r.replications });
    expect(fixed.meanResponseTime.mean).toBe(r.meanResponseTime.mean);
    const tight = simulate(mm1(0.5), { ...opts, precision: { halfWidth: 1e-4 }, maxReplications: 12 });
    expect(tight.precision).toMatchObject({ stoppedBy: 'budget', units: 12 });
    expect(tight.warnings.join()).toMatch(/not reached/);
  });

  it('simulate(precision) is refused when E[T] is infinite in theory or unsettled (precisionRefusal), before any run', () => {
    const opts = { n: 10, jobs: 1_000, replications: 5, seed: 1, warmupTime: 10, precision: { relative: 0.05 } };
    const pareto = (d: number, sampling?: 'without-replacement') =>
      parseModel({ lambda: 0.5, d, service: 'pareto:1.5', ...(sampling ? { sampling } : {}) });
    expect(() => simulate(pareto(1), opts)).toThrow(InvalidModelError);
    expect(() => simulate(pareto(2), opts)).toThrow(/no precision target for E\[T\]: it is infinite in theory/);
    expect(() => simulate(pareto(2, 'without-replacement'), { ...opts, precision: { halfWidth: 0.1 } })).toThrow(
      /no precision target for E\[T\]: E\[T\] may be infinite/,
    );
    // a finite E[T] under the same heavy tail (SRPT preempts by size) keeps its stopping rule
    expect(precisionRefusal(parseModel({ lambda: 0.5, d: 2, service: 'pareto:1.5', discipline: 'srpt' }))).toBeNull();
    expect(precisionRefusal(mm1(0.5))).toBeNull();
  });

  it('simulationJson gives a percentile one interval: ci95 (the cdf inversion, not symmetric), no halfWidth (trial F9)', () => {
    const r = simulate(mm1(0.5), { n: 1, jobs: 4_000, replications: 5, seed: 3, warmupTime: 50 });
    const json = JSON.parse(JSON.stringify(simulationJson(r))) as { responseTimePercentiles: Record<string, Record<string, unknown>> };
    for (const key of ['p50', 'p95', 'p99'] as const) {
      const e = r.responseTimePercentiles[key];
      expect(json.responseTimePercentiles[key]).toEqual({ mean: e.mean, ci95: e.ci95, replications: e.replications });
      expect(json.responseTimePercentiles[key]).not.toHaveProperty('halfWidth');
    }
    // the interval is asymmetric about the pooled percentile: mean ± (length/2) would have been a third interval
    const p99 = r.responseTimePercentiles.p99;
    expect(p99.ci95[1] - p99.mean).not.toBeCloseTo(p99.mean - p99.ci95[0], 6);
    // the means keep their symmetric t half-width
    expect(json).toMatchObject({ meanResponseTime: { halfWidth: r.meanResponseTime.halfWidth } });
  });

  it('simulate notes each percentile interval open at an end (2 replications: t = 12.7), and only those', () => {
    // trial: λ = 0.9, d = 2, n = 1000, 2 × 20 000 jobs printed p95 [5.12, ∞] beside p99 [7.92, 11.87]: right (each
    // interval reads its own sections' fractions, p95's 0.945, 0.955 reach p + h_F = 1.013), but unexplained
    let open = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const r = simulate(mm1(0.9), { n: 1, jobs: 4000, replications: 2, seed, warmupTime: 100 });
      for (const [name, e] of Object.entries(r.responseTimePercentiles)) {
        const noted = (r.notes ?? []).some((x) => x.startsWith(`percentile intervals: ${name} has no upper end`));
        expect(noted, `seed ${seed} ${name}: [${e.ci95.join(', ')}]`).toBe(e.ci95[1] === Infinity);
        if (noted) open++;
      }
      expect(r.warnings.filter((w) => w.includes('has no upper end'))).toEqual([]);
    }
    expect(open).toBeGreaterThan(0);
  });

  it('simulate(2 batches × 40 or 80 jobs) never gives a percentile interval of width 0 (tied sections: the binomial floor)', () => {
    // trial: 2 batches × 40 jobs printed p50 3.012 [3.012, 3.012]: both batches held the same fraction ≤ the pooled
    // value, s_F = 0. Over 20 seeds of M/M/1 λ = 0.8 the old rule gave such intervals (13 of 200 at p50,
    // scripts/quantile-coverage.ts); the floor t_{R−1}·√(p(1 − p)/N) (stats/tInterval.ts cdfSectioningLevels) none.
    let twoSided = 0;
    for (let seed = 1; seed <= 20; seed++) {
      for (const jobs of [40, 80]) {
        const r = simulate(mm1(0.8), { n: 1, jobs, method: 'batch-means', batches: 2, seed, warmupTime: 100 });
        for (const e of Object.values(r.responseTimePercentiles)) {
          expect(e.ci95[1], `seed ${seed}, 2 × ${jobs}: ${e.mean} [${e.ci95.join(', ')}]`).toBeGreaterThan(e.ci95[0]);
          if (e.ci95[0] < e.mean && e.mean < e.ci95[1]) twoSided++;
        }
      }
    }
    expect(twoSided).toBeGreaterThan(0); // the loop saw intervals with two finite, distinct sides
  });

  it('simulate warns when the sections of a percentile interval hold fewer than 200 jobs beyond it, naming the jobs that would do', () => {
    expect(MIN_TAIL_JOBS_PER_SECTION).toBe(200);
    expect(percentileSectionShortfall(2_000)).toEqual({ p: 0.99, jobs: 20_000 });
    expect(percentileSectionShortfall(100)).toEqual({ p: 0.99, jobs: 20_000 }); // the tail-most short one is named: its budget covers all three
    // 100 beyond p99 was too few: 89.5 % over 400 seeds at 5 × 10 000 (M/M/1 λ = 0.8); 94.3 % over 1000 at 5 × 20 000
    expect(percentileSectionShortfall(10_000)).toEqual({ p: 0.99, jobs: 20_000 });
    expect(percentileSectionShortfall(20_000)).toBeNull();
    // M/M/1 λ = 0.8, 5 × 2000 jobs: the pooled p99's sectioning interval covered 81.5 % of 400 seeds (scripts/quantile-coverage.ts)
    const small = simulate(mm1(0.8), { n: 1, jobs: 2_000, replications: 5, seed: 1, warmupTime: 100 });
    expect(small.warnings.join('\n')).toMatch(
      /percentile intervals: each replication .* holds 2000 jobs, 20 beyond p99, fewer than 200: .*use --jobs ≥ 20000/,
    );
    const batches = simulate(mm1(0.8), { n: 1, jobs: 2_000, method: 'batch-means', batches: 30, seed: 1, warmupTime: 100 });
    expect(batches.warnings.join('\n')).toMatch(/percentile intervals: each batch .* use --jobs ≥ 20000/);
    const enough = simulate(mm1(0.8), { n: 1, jobs: 20_000, replications: 2, seed: 1, warmupTime: 100 });
    expect(enough.warnings.join('\n')).not.toMatch(/percentile intervals/);
  });

  it('simulate(precision) applies the stopping rule only from MIN_SEQUENTIAL_UNITS = 10 units on (no stop on a lucky early draw)', () => {
    // a target met by the first 2 replications: today's rule stopped there
    const r = simulate(mm1(0.5), { n: 1, jobs: 2_000, replications: 2, seed: 4, warmupTime: 50, precision: { relative: 0.9 } });
    expect(MIN_SEQUENTIAL_UNITS).toBe(10);
    expect(r.precision).toMatchObject({ stoppedBy: 'precision', units: MIN_SEQUENTIAL_UNITS });
    expect(r.replications).toBe(MIN_SEQUENTIAL_UNITS);
    const batches = simulate(mm1(0.5), {
      n: 1,
      jobs: 500,
      method: 'batch-means',
      batches: 4,
      seed: 4,
      warmupTime: 50,
      precision: { relative: 0.9 },
    });
    expect(batches.replications).toBe(MIN_SEQUENTIAL_UNITS);
    expect(() =>
      simulate(mm1(0.5), { n: 1, jobs: 500, replications: 2, seed: 4, warmupTime: 50, precision: { relative: 0.9 }, maxReplications: 9 }),
    ).toThrow(/checked from 10 replications \(or batches\) on; maxReplications must be ≥ 10, got 9/);
  });

  it('simulate(method: batch-means) covers M/M/1 E[T] = 2 with lag-1 autocorrelation < 0.2 reported; MSER-5 with the head–tail test flags a run from empty with no warm-up at λ = 0.99', () => {
    const r = simulate(mm1(0.5), { n: 1, jobs: 2_000, method: 'batch-means', batches: 30, seed: 3, warmupTime: 50 });
    expect(r.method).toBe('batch-means');
    expect(r.replications).toBe(30);
    expectCovers(r.meanResponseTime, 2);
    expect(Math.abs(r.batchMeans!.lag1.meanResponseTime)).toBeLessThan(0.2);
    // λ = 0.95 (seed 3) was flagged here only by MSER's tail artefact (d* = 19 990 of 20 000 jobs, stats/mser.ts); over
    // the first half its d* is 75 jobs: that transient is small beside the noise. At λ = 0.99 (τ ≈ 4·10⁴) it is not.
    // The warning needs the head–tail test too (test/sim/warmupCheck.test.ts): seed 1's cut (9340 jobs) stands alone
    // (head − tail = −60, t = −1.3 on 4 dof: five replications of a transient slower than the run vary too much), seed 5's
    // does not. The price of calibrating the false alarms: detection of such slow transients falls (mser-warmup-warning.ts).
    for (const [seed, flagged] of [
      [1, false],
      [5, true],
    ] as const) {
      const cold = simulate(mm1(0.99), { n: 1, jobs: 20_000, replications: 5, seed, warmupTime: 0 });
      expect(cold.warmupCheck.ensemble!.truncatedJobs).toBeGreaterThan(MSER_MARGIN * 20_000);
      expect(cold.warmupCheck.initialBias!.significant).toBe(flagged);
      expect(/MSER-5.*may be too short/.test(cold.warnings.join())).toBe(flagged);
    }
    const warm = simulate(mm1(0.5), { n: 1, jobs: 20_000, replications: 5, seed: 3, warmupTime: 200 });
    expect(warm.warnings).toEqual([]);
  });

  it('coverage of the 95 % interval of M/M/1 E[T] over 40 seeds is not below the Wilson 99 % band (scripts/coverage.ts runs 200+)', () => {
    // Only the lower side is testable with 40 seeds: 40/40 has probability 0.95^40 = 0.13 at exact coverage, above the band's top.
    const [lo] = coverageBand(0.95, 40, 0.99);
    let covered = 0;
    for (let s = 1; s <= 40; s++) {
      const e = simulate(mm1(0.5), { n: 1, jobs: 2_000, replications: 10, seed: 500 + s, warmupTime: 60, maxLevel: 2 }).meanResponseTime;
      if (e.ci95[0] <= 2 && 2 <= e.ci95[1]) covered++;
    }
    expect(covered / 40).toBeGreaterThanOrEqual(lo);
  });
});
