import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { parseModel, type SupermarketModel } from '../../src/model/model.ts';
import { simulateTrajectory } from '../../src/sim/trajectory.ts';

const model: SupermarketModel = parseModel({ lambda: 0.9, d: 2 });

/** SQ(d) mean-field ODE ds_i/dt = λ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}), by fixed-step RK4 (theory.md §2). */
function odeTail(lambda: number, d: number, times: number[], K = 40, h = 0.005): number[][] {
  const f = (s: number[]): number[] => {
    const out = new Array(K + 1).fill(0);
    for (let i = 1; i <= K; i++) out[i] = lambda * (s[i - 1] ** d - s[i] ** d) - (s[i] - (i < K ? s[i + 1] : 0));
    return out;
  };
  let s = new Array(K + 1).fill(0);
  s[0] = 1;
  const out: number[][] = [];
  let t = 0;
  for (const target of times) {
    while (t < target - 1e-12) {
      const step = Math.min(h, target - t);
      const k1 = f(s);
      const k2 = f(s.map((x, i) => x + (step / 2) * k1[i]));
      const k3 = f(s.map((x, i) => x + (step / 2) * k2[i]));
      const k4 = f(s.map((x, i) => x + step * k3[i]));
      s = s.map((x, i) => (i === 0 ? 1 : x + (step / 6) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i])));
      t += step;
    }
    out.push(s.slice());
  }
  return out;
}

describe('simulateTrajectory', () => {
  it('simulateTrajectory(SQ(2), n = 1000, from empty) tracks the mean-field ODE s_1(t), s_2(t)', () => {
    const times = [0, 0.5, 1, 2, 5, 10, 20];
    const r = simulateTrajectory(model, { n: 1000, times, replications: 10, seed: 3 });
    const ode = odeTail(0.9, 2, times);
    expect(r.tail[0][1].mean).toBe(0);
    for (let j = 1; j < times.length; j++) {
      for (const i of [1, 2]) {
        // CI widened by 1.5 plus 0.003 for the O(1/n) gap between n = 1000 and the limit.
        const e = r.tail[j][i];
        expect(Math.abs(e.mean - ode[j][i]), `s_${i}(${times[j]})`).toBeLessThanOrEqual(1.5 * e.halfWidth + 0.003);
        expect(e.halfWidth).toBeLessThan(0.03); // the check is not vacuous
      }
      expect(r.tail[j][0].mean).toBe(1);
    }
    expect(r.meanQueueLength[times.length - 1].mean).toBeGreaterThan(2);
  });

  it('simulateTrajectory(model, { from }) starts with round(n·s_i) servers holding ≥ i jobs', () => {
    const from = [1, 0.9, 0.7295, 0.3333, 0];
    for (const engine of ['event', 'race'] as const) {
      const r = simulateTrajectory(model, { n: 1000, times: [0, 1], from, replications: 2, engine });
      expect(r.tail[0].slice(0, 5).map((e) => e.mean)).toEqual([1, 0.9, 0.73, 0.333, 0]);
      expect(r.meanQueueLength[0].mean).toBeCloseTo(0.9 + 0.73 + 0.333, 12);
      expect(r.engine).toBe(engine);
    }
  });

  it('simulateTrajectory(event) and simulateTrajectory(race) agree from a loaded start', () => {
    const from = [1, 0.95, 0.8, 0.5, 0.2];
    const times = [0, 1, 3];
    const ev = simulateTrajectory(model, { n: 1000, times, from, replications: 10, engine: 'event', seed: 1 });
    const ra = simulateTrajectory(model, { n: 1000, times, from, replications: 10, engine: 'race', seed: 2 });
    for (let j = 1; j < times.length; j++) {
      for (let i = 1; i <= 4; i++) {
        const [a, b] = [ev.tail[j][i], ra.tail[j][i]];
        expect(Math.abs(a.mean - b.mean), `s_${i}(${times[j]})`).toBeLessThanOrEqual(1.5 * Math.hypot(a.halfWidth, b.halfWidth));
      }
    }
  });

  it('simulateTrajectory(bad input) throws InvalidModelError', () => {
    expect(() => simulateTrajectory(model, { n: 10, times: [0, 2, 1] })).toThrow(InvalidModelError);
    expect(() => simulateTrajectory(model, { n: 10, times: [] })).toThrow(InvalidModelError);
    expect(() => simulateTrajectory(model, { n: 10, times: [0, NaN] })).toThrow(InvalidModelError);
    expect(() => simulateTrajectory(model, { n: 10, times: [0], from: [1, 0.5, 0.7] })).toThrow(InvalidModelError);
    expect(() => simulateTrajectory(model, { n: 10, times: [0], from: [0.5] })).toThrow(InvalidModelError);
    expect(() => simulateTrajectory(model, { n: 0, times: [0] })).toThrow(InvalidModelError);
  });
});
