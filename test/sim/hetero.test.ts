import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { parseModel } from '../../src/model/model.ts';
import { planSimulation, runReplications, simulate } from '../../src/sim/simulate.ts';
import { serverLayout } from '../../src/sim/serverClasses.ts';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';
import { withPinnedPercentiles } from './pinnedPercentiles.ts';

const speeds12 = { speeds: [1, 2], fractions: [0.5, 0.5] };

describe('heterogeneous servers with FIFO (theory.md §13; the priority engine, jobs stored as S/speed)', () => {
  it('one class of speed 1 gives the homogeneous FIFO engine’s numbers, bit for bit', () => {
    // JSQ(3) and random draw the same numbers in both engines (uniform draws over n); the layout is forced here
    for (const [selection, d] of [
      ['jsq', 3],
      ['random', 1],
      ['lwl', 3],
    ] as const) {
      const model = parseModel({ lambda: 0.8, d, selection });
      const plan = planSimulation(model, { n: 40, jobs: 3000, warmupTime: 20, replications: 2, engine: 'event' });
      // speeds run on the priority engine (FIFO jobs stored as S/speed): one class of speed 1 there is the FIFO engine
      const onPriority = planSimulation(model, { n: 40, jobs: 3000, warmupTime: 20, replications: 2, engine: 'priority' });
      const forced = {
        ...onPriority,
        config: { ...onPriority.config, layout: serverLayout({ speeds: [1], fractions: [1], sampling: 'uniform' }, 40) },
      };
      const [a] = runReplications(plan, 0, 1);
      const [b] = runReplications(forced, 0, 1);
      const { classes, ...rest } = b.summary;
      expect(rest).toEqual(a.summary);
      expect(classes![0].jobs).toBe(3000);
      expect(classes![0].busyFraction).toBeCloseTo(a.tail[1], 12);
    }
  });

  it('d = 1 random is a mixture of M/M/1 queues at any n: E[T] = Σ f_c/(speed_c − λ), per class too', () => {
    const m = parseModel({ lambda: 0.5, d: 1, selection: 'random', servers: { speeds: [0.8, 2], fractions: [0.5, 0.5] } });
    const r = simulate(m, { n: 20, jobs: 40_000, warmupTime: 50, replications: 8, seed: 3 });
    const exact = [1 / (0.8 - 0.5), 1 / (2 - 0.5)];
    const mixture = 0.5 * exact[0] + 0.5 * exact[1];
    expect(Math.abs(r.meanResponseTime.mean - mixture)).toBeLessThan(3 * r.meanResponseTime.halfWidth);
    r.classes!.forEach((c, k) => {
      expect(Math.abs(c.meanResponseTime.mean - exact[k])).toBeLessThan(3 * c.meanResponseTime.halfWidth);
      expect(Math.abs(c.busyFraction.mean - 0.5 / c.speed)).toBeLessThan(3 * c.busyFraction.halfWidth);
    });
  });

  it('work is conserved: Σ f·speed·busy = λE[S] (JSQ, SED, LWL; uniform and speed-weighted sampling)', () => {
    for (const selection of ['jsq', 'sed', 'lwl'] as const)
      for (const sampling of ['uniform', 'speed'] as const) {
        const m = parseModel({ lambda: 0.6, d: 2, selection, servers: { ...speeds12, sampling } });
        const r = simulate(m, { n: 40, jobs: 20_000, warmupTime: 30, replications: 4, seed: 7 });
        const served = r.classes!.reduce((a, c) => a + c.fraction * c.speed * c.busyFraction.mean, 0);
        const hw = r.classes!.reduce((a, c) => a + c.fraction * c.speed * c.busyFraction.halfWidth, 0);
        expect(Math.abs(served - 0.6)).toBeLessThan(3 * hw);
        expect(r.classes!.reduce((a, c) => a + c.jobs, 0)).toBe(4 * 20_000);
      }
  });

  it('refuses what it cannot run in one line', () => {
    const m = parseModel({ lambda: 0.6, d: 2, servers: speeds12 });
    expect(() => simulate(m, { n: 41, jobs: 100, warmupTime: 1 })).toThrow(
      /class 1 \(speed 1, fraction 0\.5\) would hold n·fraction = 20\.5/,
    );
    expect(() => simulate(m, { n: 40, jobs: 100, warmupTime: 1, engine: 'race' })).toThrow(/server speeds run on the event engine/);
    const lpw = { lambda: 0.6, d: 2, selection: 'lpw', servers: speeds12 } as const;
    expect(() => parseModel(lpw)).toThrow(InvalidModelError);
  });
  it('the automatic warm-up reads the classes’ load λE[S]/Σ f·speed: speeds 1,2 at λ = 1.2 (ρ = 0.8) is SQ(d) at 0.8', () => {
    // simulate --speeds 1,2 --lambda 1.2 was refused as "unstable load: rho = lambda·E[S] = 1.2" though ρ = 0.8
    const hetero = parseModel({ lambda: 1.2, d: 2, servers: speeds12 });
    const twin = simulationWarmup(parseModel({ lambda: 0.8, d: 2 }));
    const w = simulationWarmup(hetero);
    expect(w.time).toBeCloseTo(twin.time, 5); // slowest speed 1: no stretch
    const slow = simulationWarmup(parseModel({ lambda: 0.6, d: 2, servers: { speeds: [0.5, 1], fractions: [0.5, 0.5] } }));
    expect(slow.time).toBeCloseTo(2 * twin.time, 5); // ρ = 0.6/0.75 = 0.8, time in the slow class's units (×2)
    const r = simulate(hetero, { n: 20, jobs: 500, replications: 2, warmupTime: w.time });
    expect(r.meanResponseTime.mean).toBeGreaterThan(0);
  });
});

describe('server speeds in the priority and sharing engines (a job stored as S/speed at dispatch)', () => {
  it('FIFO with speeds runs on the priority engine and gives the retired speed FIFO engine’s numbers bit for bit', () => {
    // Pinned from sim/heteroEngine.ts (the FIFO engine with speeds, folded into the priority engine) at 9b2f05f: the
    // sha256 prefix of the result's numbers (means, CIs, tails, percentiles, classes, per-replication values, events).
    const pinned = { jsq: 'd55326ead927ff9f', sed: 'cee496470886493e', lwl: '7a77189d169b9a09' } as const;
    for (const selection of ['jsq', 'sed', 'lwl'] as const) {
      const m = parseModel({ lambda: 0.9, d: 2, selection, servers: speeds12 });
      const options = { n: 20, jobs: 4000, replications: 2, seed: 3, warmupTime: 20 };
      const r = simulate(m, { ...options, engine: 'event' });
      expect(r.engine).toBe('priority');
      expect(simulate(m, { ...options, engine: 'auto' }).meanResponseTime).toEqual(r.meanResponseTime);
      // percentile intervals as pinned (old rule rebuilt from perReplication, test/sim/pinnedPercentiles.ts)
      const { meanResponseTime, meanQueueLength, tail, meanSlowdown, responseTimePercentiles, meanWorkload, classes, workRate } =
        withPinnedPercentiles(r);
      const numbers = { meanResponseTime, meanQueueLength, tail, meanSlowdown, responseTimePercentiles, meanWorkload, classes, workRate };
      const json = JSON.stringify({ ...numbers, events: r.events, perReplication: r.perReplication });
      expect(createHash('sha256').update(json).digest('hex').slice(0, 16), selection).toBe(pinned[selection]);
    }
  });

  it('one class of speed 1 forced through the priority and sharing engines changes nothing but adds its class', () => {
    for (const discipline of ['srpt', 'ps'] as const) {
      const model = parseModel({ lambda: 0.8, d: 3, discipline, service: 'hyperexp:4' });
      const plan = planSimulation(model, { n: 40, jobs: 3000, warmupTime: 20, replications: 2 });
      const forced = {
        ...plan,
        config: { ...plan.config, layout: serverLayout({ speeds: [1], fractions: [1], sampling: 'uniform' }, 40) },
      };
      const [a] = runReplications(plan, 0, 1);
      const [b] = runReplications(forced, 0, 1);
      const { classes, ...rest } = b.summary;
      expect(rest).toEqual(a.summary);
      expect(classes![0].jobs).toBe(3000);
      expect(classes![0].busyFraction).toBeCloseTo(a.tail[1], 12);
    }
  });

  it('d = 1 random with PS or LAS: per class an M/M/1 of rate speed (E[T] = 1/(speed − λ)); slowdown by the original size', () => {
    const servers = { speeds: [0.8, 2], fractions: [0.5, 0.5] };
    for (const discipline of ['ps', 'las'] as const) {
      const m = parseModel({ lambda: 0.5, d: 1, selection: 'random', discipline, servers });
      const r = simulate(m, { n: 20, jobs: 15_000, warmupTime: 50, replications: 6, seed: 5 });
      expect(r.engine).toBe('sharing');
      r.classes!.forEach((c) => {
        expect(Math.abs(c.meanResponseTime.mean - 1 / (c.speed - 0.5))).toBeLessThan(3 * c.meanResponseTime.halfWidth);
        expect(Math.abs(c.busyFraction.mean - 0.5 / c.speed)).toBeLessThan(3 * c.busyFraction.halfWidth);
      });
    }
    // size 1 for every job: T/S = T, so the slowdown is E[T] (it would be speed × T if divided by the service time)
    for (const discipline of ['ps', 'srpt'] as const) {
      const m = parseModel({ lambda: 0.5, d: 1, selection: 'random', discipline, service: 'det', servers });
      const r = simulate(m, { n: 20, jobs: 5000, warmupTime: 20, replications: 2, seed: 5 });
      expect(r.meanSlowdown.mean).toBeCloseTo(r.meanResponseTime.mean, 9);
    }
  });

  it('work is conserved with SRPT, SPRPT and PS under SED(2): Σ f·speed·busy = λE[S] within its CI', () => {
    for (const discipline of ['srpt', 'sprpt', 'ps'] as const) {
      const m = parseModel({ lambda: 1.2, d: 2, selection: 'sed', discipline, prediction: 'exp', servers: speeds12 });
      const r = simulate(m, { n: 20, jobs: 5_000, warmupTime: 30, replications: 4, seed: 9 });
      expect(Math.abs(r.workRate!.mean - 1.2)).toBeLessThan(3 * r.workRate!.halfWidth + 1e-9);
      expect(r.classes!.reduce((a, c) => a + c.jobs, 0)).toBe(4 * 5_000);
    }
  });
});
