import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { parseModel } from '../../src/model/model.ts';
import { planSimulation, runReplications, simulate } from '../../src/sim/simulate.ts';
import { serverLayout } from '../../src/sim/serverClasses.ts';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';

const speeds12 = { speeds: [1, 2], fractions: [0.5, 0.5] };

describe('heterogeneous servers in the FIFO event engine (theory.md §13)', () => {
  it('one class of speed 1 through the speed engine gives the homogeneous engine’s numbers, bit for bit', () => {
    // JSQ(3) and random draw the same numbers in both engines (uniform draws over n); the layout is forced here
    for (const [selection, d] of [
      ['jsq', 3],
      ['random', 1],
      ['lwl', 3],
    ] as const) {
      const model = parseModel({ lambda: 0.8, d, selection });
      const plan = planSimulation(model, { n: 40, jobs: 3000, warmupTime: 20, replications: 2, engine: 'event' });
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
    const sjf = parseModel({ lambda: 0.6, d: 2, discipline: 'sjf', servers: speeds12 });
    expect(() => simulate(sjf, { n: 40, jobs: 100, warmupTime: 1 })).toThrow(InvalidModelError);
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
