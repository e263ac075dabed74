import { describe, expect, it } from 'vitest';
import { planComparison, transientRange, trajectoryGrid } from '../../src/compare/plan.ts';
import { TRANSIENT_DRAWN } from '../../src/compare/types.ts';
import { simulateTrajectory } from '../../src/sim/index.ts';
import type { TrajectoryTask } from '../../src/runs/task.ts';
import { testComparison } from './config.ts';

describe('the transient from empty is simulated as far as its figure draws (issue 23)', () => {
  const automatic = { ns: [50], tEnd: 0, dt: 0, replications: 2 };
  const config = testComparison({ lambdas: [0.9], ns: [50], jobs: 2_000, replications: 2, seed: 5, trajectory: automatic });
  const plan = planComparison(config);
  const p = plan.prepared[0];
  const task = plan.tasks.find((t) => t.kind === 'trajectory') as TrajectoryTask;
  // the automatic grid: 1.2 × the warm-up, 100 steps
  const { tEnd, dt } = trajectoryGrid(automatic, p.warm.time);
  const whole = Array.from({ length: Math.round(tEnd / dt) + 1 }, (_, j) => j * dt);

  it('with the automatic horizon the task and the transient stop at the drawn range, a prefix of the whole grid', () => {
    const { times, drawnTo } = p.transient!;
    expect(drawnTo % TRANSIENT_DRAWN.step).toBe(0);
    expect(drawnTo).toBeLessThan(tEnd / 2); // λ = 0.9: 3τ ≈ 40 of a 180-long grid
    expect(times).toEqual(whole.filter((t) => t <= drawnTo));
    expect(task.options.times).toEqual(times);
    expect(p.transient!.tEnd).toBe(times[times.length - 1]);
    expect(p.transient!.meanField.values.tail).toHaveLength(times.length);
  });

  it('drawnTo is transientRange of the mean field on the whole grid (the refined path keeps the whole grid)', () => {
    const refined = p.transient!.refinedPath!;
    expect(refined.meanField.times).toEqual(whole);
    expect(transientRange('ODE', whole, refined.meanField.tail, p.warm.relaxationTime)).toBe(p.transient!.drawnTo);
    expect(p.transient!.meanField.values.tail[3][2]).toBe(refined.meanField.tail[3][2]);
  });

  it('the simulated trajectory has the same numbers at every drawn instant as one run over the whole grid', () => {
    const short = simulateTrajectory(task.model, task.options);
    const long = simulateTrajectory(task.model, { ...task.options, times: whole });
    expect(short.tail).toEqual(long.tail.slice(0, short.times.length));
    expect(short.events).toBeLessThan(long.events / 2);
  });

  it('with --t-end given the whole grid is simulated, drawnTo still marks the drawn range', () => {
    const given = planComparison({ ...config, trajectory: { ...automatic, tEnd, dt } }).prepared[0].transient!;
    expect(given.times).toHaveLength(whole.length);
    expect(given.tEnd).toBe(tEnd);
    expect(given.drawnTo).toBe(p.transient!.drawnTo);
  });
});
