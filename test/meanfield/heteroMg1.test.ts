/**
 * Server speeds under random selection: an independent M/G/1 queue per speed class (meanfield/hetero/mg1.ts), reached
 * through the capability query, `solveMeanField`, `solveResponseTime` and `supermarket fixed-point`. Truth, derived
 * here: a class-c server gets jobs at rate a_c = λp_c/f_c and works at speed v_c, so with PS (insensitive)
 * E[T_c] = (E[S]/v_c)/(1 − a_cE[S]/v_c) and E[T] = Σ p_c E[T_c]; speeds 1, 4, fractions 0.8, 0.2, speed-weighted
 * sampling (p = 0.5, 0.5), λ = 0.7: ρ_c = 0.4375 in both classes and E[T] = 0.5·(1 + 1/4)/0.5625 = 10/9, for pareto
 * α = 1.5 sizes (E[S²] = ∞) as for any law. FIFO: Pollaczek–Khinchine per class, and with exponential sizes the
 * per-class occupancy ODE (an independent solver) and the mixture of exponentials P(T > t) = Σ p_c e^{−(v_c − a_c)t}.
 */
import { describe, expect, it } from 'vitest';
import { parseModel, type ModelInput } from '../../src/model/index.ts';
import { meanFieldCapabilities, solveMeanField } from '../../src/meanfield/index.ts';
import { solveResponseTime } from '../../src/meanfield/responseTime.ts';
import { heteroMg1 } from '../../src/meanfield/hetero/mg1.ts';
import { runCli } from '../cli/runCli.ts';

const speeds = [1, 4];
const fractions = [0.8, 0.2];
const speedSampled = (lambda: number, extra: Partial<ModelInput> = {}) =>
  parseModel({ lambda, d: 1, selection: 'random', servers: { speeds, fractions, sampling: 'speed' }, ...extra } as ModelInput);
/** p_c = f_c v_c / Σ f v; a_c = λ p_c / f_c. */
const shares = () => {
  const cap = fractions.reduce((a, f, c) => a + f * speeds[c], 0);
  return fractions.map((f, c) => (f * speeds[c]) / cap);
};
const arrivals = (lambda: number) => shares().map((p, c) => (lambda * p) / fractions[c]);

describe('random selection with server speeds: M/G/1 per class', () => {
  it('PS with pareto α = 1.5 sizes: E[T] = Σ p_c (1/v_c)/(1 − a_c/v_c) = 10/9 at λ = 0.7, exact, through the capability query', () => {
    const model = speedSampled(0.7, { discipline: 'ps', service: 'pareto:1.5' });
    const cap = meanFieldCapabilities(model).fixedPoint;
    expect(cap.available && cap.id).toBe('hetero-mg1');
    expect(cap.available && cap.kind).toBe('exact');
    const p = shares();
    const a = arrivals(0.7);
    const byHand = p.reduce((sum, pc, c) => sum + (pc * (1 / speeds[c])) / (1 - a[c] / speeds[c]), 0);
    expect(byHand).toBeCloseTo(10 / 9, 14);
    const s = solveMeanField(model);
    expect(Math.abs(s.meanResponseTime - byHand)).toBeLessThan(1e-8);
    expect(s.kind).toBe('exact');
    expect(s.meanQueueLength).toBeCloseTo(0.7 * byHand, 8);
    expect(s.classes?.map((c) => c.busyFraction)).toEqual([expect.closeTo(0.4375, 12), expect.closeTo(0.4375, 12)]);
    expect(s.classes?.map((c) => c.jobShare)).toEqual([expect.closeTo(0.5, 12), expect.closeTo(0.5, 12)]);
  });

  it('FIFO with Erlang-2 sizes: Pollaczek–Khinchine per class, and the law integrates to it', () => {
    const lambda = 0.6;
    const model = speedSampled(lambda, { service: 'erlang:2' });
    expect(meanFieldCapabilities(model).fixedPoint).toMatchObject({ available: true, id: 'hetero-mg1' });
    // class c in its own work units: M/G/1 at rate a_c/v_c, E[S] = 1, E[S²] = 1.5 (Erlang-2), T_c = T′_c/v_c
    const a = arrivals(lambda);
    const pk = (rate: number) => 1 + (rate * 1.5) / (2 * (1 - rate));
    const byHand = shares().reduce((sum, p, c) => sum + (p * pk(a[c] / speeds[c])) / speeds[c], 0);
    expect(Math.abs(solveMeanField(model).meanResponseTime - byHand)).toBeLessThan(1e-8);
    const law = solveResponseTime(model, { quantiles: [0.5] });
    expect(law.kind).toBe('exact');
    expect(law.meanResponseTime).toBeCloseTo(byHand, 6);
  });

  it('FIFO with exponential sizes: the occupancy ODE agrees with heteroMg1, and the law is the mixture of exponentials', () => {
    const lambda = 0.8;
    const model = speedSampled(lambda);
    expect(meanFieldCapabilities(model).fixedPoint).toMatchObject({ available: true, id: 'hetero-occupancy' });
    expect(Math.abs(solveMeanField(model).meanResponseTime - heteroMg1(model).meanResponseTime)).toBeLessThan(1e-8);
    const cap = meanFieldCapabilities(model).responseTime;
    expect(cap.available && cap.id).toBe('hetero-mg1');
    const a = arrivals(lambda);
    const ccdf = (t: number) => shares().reduce((sum, p, c) => sum + p * Math.exp(-(speeds[c] - a[c]) * t), 0);
    const law = solveResponseTime(model, { quantiles: [0.5, 0.99], times: [0, 0.5, 2] });
    law.times.forEach((t, j) => expect(law.ccdf[j]).toBeCloseTo(ccdf(t), 12));
    for (const q of law.quantiles) expect(ccdf(q.value)).toBeCloseTo(1 - q.p, 10);
  });

  it('fixed-point --speeds … --selection random: the per-class solver, exact, with its classes', async () => {
    const r = await runCli(
      'fixed-point --lambda 0.7 --d 1 --selection random --speeds 1,4 --fractions 0.8,0.2 --server-sampling speed --discipline ps --service pareto:1.5 --json',
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { meanResponseTime: number; kind: string; classes: unknown[] };
    expect(out.kind).toBe('exact');
    expect(out.meanResponseTime).toBeCloseTo(10 / 9, 8);
    expect(out.classes).toHaveLength(2);
  });
});
