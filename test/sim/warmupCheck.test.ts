// The warm-up warning "may be too short" fired on MSER-5's cut alone (> 5 % of the measured jobs): on stationary M/M/1
// runs at ρ = 0.9 (5 × 20 000 jobs) 13 % of the time, from the fixed point 16 %. It now needs the head–tail test across
// the replications as well (`warmupCheck.initialBias`, theory.md §8 "Warm-up"; rates: scripts/mser-warmup-warning.ts).
import { describe, expect, it } from 'vitest';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';
import { parseModel } from '../../src/model/model.ts';
import { INITIAL_BIAS_LEVEL, MSER_MARGIN, simulate } from '../../src/sim/simulate.ts';
import { headTailMeans } from '../../src/stats/mser.ts';

const mm1 = (lambda: number) => parseModel({ lambda, d: 1 });
/** A start with `jobs` jobs at the one server (n = 1). */
const backlog = (jobs: number) => ({ name: 'backlog', from: Array.from({ length: jobs + 1 }, () => 1) });

describe('warm-up check: MSER-5 and the head–tail test', () => {
  it('headTailMeans(z, trim) compares the first 10 % with the last 50 % of the values kept after the trim', () => {
    const z = Array.from({ length: 44 }, (_, i) => (i < 2 ? 100 : i < 6 ? 1 : i >= 42 ? -100 : 3));
    // trim 2 at each end: 40 kept, head = z[2..6) (4 values of 1), tail = z[22..42) (20 values of 3)
    expect(headTailMeans(z, 2)).toEqual({ head: 1, tail: 3, headCount: 4, tailCount: 20 });
    expect(headTailMeans(z.slice(0, 23), 2)).toBeNull(); // 19 kept: a head of under 2 values
  });

  it("an M/M/1 run at λ = 0.99 from empty with the rule's warm-up (seed 8): MSER cuts 33 % but the head–tail test is quiet, so no warning", () => {
    const model = mm1(0.99);
    const w = simulationWarmup(model, { start: 'empty', n: 1, cap: Infinity });
    const r = simulate(model, { n: 1, jobs: 20_000, replications: 5, seed: 8, warmupTime: w.time });
    // the rule before warned here: MSER's cut alone
    expect(r.warmupCheck.ensemble!.truncatedJobs).toBeGreaterThan(MSER_MARGIN * 20_000);
    expect(r.warmupCheck.ensemble!.tooShort).toBe(false);
    const bias = r.warmupCheck.initialBias!;
    expect(bias).toMatchObject({ degreesOfFreedom: 4, level: INITIAL_BIAS_LEVEL, significant: false });
    expect(bias.p).toBeGreaterThan(INITIAL_BIAS_LEVEL);
    // race engine: the series is in completion order, ≈ 5·E[T]·λn departures left out at each end
    expect(bias.trimmedJobs).toBeGreaterThan(0);
    expect(r.warnings).toEqual([]);
  });

  it('an M/M/1 run at λ = 0.9 started with 400 jobs and no warm-up warns, with the head above the tail', () => {
    const r = simulate(mm1(0.9), { n: 1, jobs: 20_000, replications: 5, seed: 1, warmupTime: 0, start: backlog(400) });
    const bias = r.warmupCheck.initialBias!;
    expect(bias.significant).toBe(true);
    expect(bias.difference).toBeGreaterThan(0);
    expect(bias.difference).toBeCloseTo(bias.head - bias.tail, 12);
    expect(r.warnings.join('\n')).toMatch(
      /first 10 % of each replication's jobs differ from its last 50 % by .*: the warm-up may be too short/,
    );
  });

  it("batch means: the first batch's head is tested against the later batches (a backlog warns, a warmed-up run does not)", () => {
    const opts = { n: 1, jobs: 20_000, method: 'batch-means' as const, batches: 10, seed: 2 };
    const cold = simulate(mm1(0.9), { ...opts, warmupTime: 0, start: backlog(400) });
    expect(cold.warmupCheck.initialBias).toMatchObject({ degreesOfFreedom: 8, significant: true });
    expect(cold.warnings.join('\n')).toMatch(/each batch's jobs differ .*may be too short/);
    const warm = simulate(mm1(0.5), { ...opts, warmupTime: 200 });
    expect(warm.warmupCheck.initialBias!.significant).toBe(false);
    expect(warm.warnings).toEqual([]);
  });

  it('too few jobs for the head–tail test: initialBias is null and MSER alone decides, saying so', () => {
    // 60 jobs a replication: 12 batch-5 means, under the 20 the test needs; a backlog of 30 at λ = 0.99 (seed 1)
    const r = simulate(mm1(0.99), { n: 1, jobs: 60, replications: 5, seed: 1, warmupTime: 0, start: backlog(30) });
    expect(r.warmupCheck.initialBias).toBeNull();
    expect(r.warmupCheck.ensemble!.truncatedJobs).toBeGreaterThan(MSER_MARGIN * 60);
    expect(r.warnings.join('\n')).toMatch(/\(too few units or jobs for the head–tail test\): the warm-up may be too short/);
  });
});
