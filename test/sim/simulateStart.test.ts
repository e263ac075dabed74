import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { parseModel } from '../../src/model/model.ts';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';
import { refine } from '../../src/meanfield/refined.ts';
import { solveSqdFixedPoint } from '../../src/meanfield/fixedPoint.ts';
import { planSimulation, runReplications, simulate, SimulationCollector } from '../../src/sim/simulate.ts';

describe('simulate(model, { start })', () => {
  const model = parseModel({ lambda: 0.9, d: 2 });
  const n = 1000;
  const fixed = simulationWarmup(model, { start: 'fixed-point', n, cap: Infinity });
  const start = { name: 'fixed-point', from: fixed.from! };

  it('from the fixed point with its warm-up (2 × 9.3 ≈ 19) E[T] is the refined value; the same warm-up from empty is low', () => {
    const refined = solveSqdFixedPoint(model).meanResponseTime + refine(model).sumV / (model.lambda * n);
    const options = { n, jobs: 100_000, replications: 6, seed: 5, warmupTime: fixed.time, engine: 'race' as const };
    const warm = simulate(model, { ...options, start });
    expect(fixed.time).toBeLessThan(50);
    expect(warm.start).toEqual({ name: 'fixed-point', from: fixed.from });
    expect(Math.abs(warm.meanResponseTime.mean - refined)).toBeLessThanOrEqual(1.5 * warm.meanResponseTime.halfWidth);
    // the test can fail: from empty the window of 111 time units still holds the transient
    const cold = simulate(model, options);
    expect(cold.start).toEqual({ name: 'empty' });
    expect(cold.meanResponseTime.ci95[1]).toBeLessThan(refined);
  });

  it('a replication starts with round(n·s_i*) servers holding ≥ i jobs (event and race engines), never measured', () => {
    for (const engine of ['event', 'race'] as const) {
      const r = simulate(model, { n: 200, jobs: 200, replications: 2, seed: 3, warmupTime: 0, engine, start });
      // 200 measured arrivals over ~1.1 time units barely move the queue: E[Q] near Σ s_i* (2.32), far from empty's ~0.5
      expect(r.meanQueueLength.mean).toBeGreaterThan(2);
      expect(r.meanQueueLength.mean).toBeLessThan(2.7);
    }
  });

  it('the units of a started run do not depend on how they are split (pool chunks give the same numbers)', () => {
    const options = { n: 100, jobs: 5000, replications: 4, seed: 9, warmupTime: 10, engine: 'event' as const, start };
    const whole = simulate(model, options);
    const plan = planSimulation(model, options);
    const collector = new SimulationCollector(plan);
    for (const part of [...runReplications(plan, 2, 2), ...runReplications(plan, 0, 2)].sort((a, b) => a.index - b.index))
      collector.add(part);
    const split = collector.result();
    expect(split.meanResponseTime).toEqual(whole.meanResponseTime);
    expect(split.tail).toEqual(whole.tail);
  });

  it('a bad start is refused in one line', () => {
    expect(() => simulate(model, { n: 10, jobs: 10, warmupTime: 0, start: { name: 'empty', from: [1] } })).toThrow(InvalidModelError);
    expect(() => simulate(model, { n: 10, jobs: 10, warmupTime: 0, start: { name: 'fixed-point', from: [1, 0.5, 0.7] } })).toThrow(
      /non-increasing/,
    );
    expect(() => simulate(model, { n: 10, jobs: 10, warmupTime: 0, engine: 'priority', start })).toThrow(/FIFO event engine or the race/);
  });
});
