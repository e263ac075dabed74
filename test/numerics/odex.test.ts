import { describe, expect, it } from 'vitest';
import { integrateOdex, sampleTrajectory } from '../../src/numerics/odex.ts';

describe('sampleTrajectory', () => {
  const decay = (_t: number, y: number[]) => [-y[0], -2 * y[1]];
  const integrate = (t0: number, tEnd: number, observer: Parameters<typeof integrateOdex>[5]) =>
    integrateOdex(decay, [1, 1], t0, tEnd, { tolerance: 1e-12, maxSteps: 10_000, label: 'decay' }, observer);

  it('sampleTrajectory(times, ...) samples y(t) = (e^{−t}, e^{−2t}) once per later instant, in order, to 1e−10', () => {
    const times = [0, 0.1, 0.5, 1, 2.5, 7];
    const rows: number[][] = [];
    let steps = 0;
    const stats = sampleTrajectory(
      times,
      [1, 1],
      integrate,
      (at) => rows.push([at(0), at(1)]),
      () => steps++,
    );
    expect(rows).toHaveLength(times.length - 1);
    rows.forEach(([a, b], j) => {
      expect(Math.abs(a - Math.exp(-times[j + 1]))).toBeLessThan(1e-10);
      expect(Math.abs(b - Math.exp(-2 * times[j + 1]))).toBeLessThan(1e-10);
    });
    expect(steps).toBe(stats.nAccept);
    expect(stats.nStep).toBeGreaterThan(0);
  });

  it('sampleTrajectory([t0], y0, ...) integrates nothing: zero counts, y = y0, no sample', () => {
    let sampled = 0;
    const stats = sampleTrajectory([3], [1, 1], integrate, () => sampled++);
    expect(stats).toEqual({ nStep: 0, nAccept: 0, nReject: 0, nEval: 0, y: [1, 1] });
    expect(sampled).toBe(0);
  });
});
