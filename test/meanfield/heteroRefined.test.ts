/**
 * The refined (1/n) term of heterogeneous servers through the population machinery (meanfield/hetero/refined.ts):
 * its drift is the per-class occupancy ODE's, one class reproduces SQ(d)'s ΣV (theory.md §6), random selection has
 * V = 0 (independent M/M/1 queues), and the terms are finite and positive for JSQ and SED with speeds.
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/model.ts';
import { refine, solveSqdFixedPoint } from '../../src/meanfield/index.ts';
import { heteroDrift, heteroFixedPointOf, type HeteroOccupancyProblem } from '../../src/meanfield/hetero/occupancy.ts';
import { heteroPopulationModel, heteroRefined, heteroRefinedOf, heteroRefinedRefusal } from '../../src/meanfield/hetero/refined.ts';
import { runCli } from '../cli/runCli.ts';
import { populationDrift } from '../../src/meanfield/population/drift.ts';
import { populationRefined } from '../../src/meanfield/population/refined.ts';

const servers = { speeds: [1, 2], fractions: [0.5, 0.5] };

describe('refined mean field with server speeds', () => {
  it('one class of speed 1 gives SQ(d)’s refined coefficient ΣV (λ = 0.9, d = 2 and λ = 0.7, d = 3)', () => {
    for (const [lambda, d] of [
      [0.9, 2],
      [0.7, 3],
    ]) {
      const sqd = parseModel({ lambda, d });
      const today = refine(sqd, { fixedPoint: solveSqdFixedPoint(sqd) });
      const one = heteroRefinedOf({ lambda, d, rule: 'jsq', fractions: [1], sampling: [1], rates: [1] });
      expect(Math.abs(one.meanQueueLengthCoefficient - today.sumV)).toBeLessThan(1e-9 * today.sumV);
      expect(Math.abs(one.meanQueueLength - today.fixedPoint.meanQueueLength)).toBeLessThan(1e-12);
    }
  });

  it('the population model’s drift is the per-class ODE’s (y = f·s) for JSQ, SED and speed-weighted sampling', () => {
    for (const p of [
      { lambda: 0.9, d: 2, rule: 'jsq', fractions: [0.5, 0.5], sampling: [0.5, 0.5], rates: [1, 2] },
      { lambda: 1.2, d: 3, rule: 'sed', fractions: [0.3, 0.7], sampling: [0.3, 0.7], rates: [0.5, 2] },
      { lambda: 0.9, d: 2, rule: 'sed', fractions: [0.5, 0.5], sampling: [1 / 3, 2 / 3], rates: [1, 2] },
    ] as HeteroOccupancyProblem[]) {
      const K = 7;
      const fp = heteroFixedPointOf(p);
      const s: number[] = [];
      for (let c = 0; c < 2; c++) for (let k = 1; k <= K; k++) s.push(0.8 * fp.classes[c].tail[k] + 0.01 * k);
      const y = s.map((v, i) => v * p.fractions[Math.floor(i / K)]);
      const ours = populationDrift(heteroPopulationModel(p, K)).drift(y);
      const ode = heteroDrift(p, K)(s);
      ours.forEach((v, i) => expect(v).toBeCloseTo(ode[i] * p.fractions[Math.floor(i / K)], 12));
    }
  });

  it('random selection (d = 1): V = 0, the queues are independent M/M/1 at every n', () => {
    const p: HeteroOccupancyProblem = { lambda: 0.9, d: 1, rule: 'random', fractions: [0.5, 0.5], sampling: [0.5, 0.5], rates: [1, 2] };
    const r = populationRefined(heteroPopulationModel(p, 12));
    for (const v of r.V) expect(Math.abs(v)).toBeLessThan(1e-12);
    expect(heteroRefined(parseModel({ lambda: 0.5, d: 1, selection: 'random', servers })).meanResponseTimeCoefficient).toBe(0);
  });

  it('JSQ(2) and SED(2) with speeds 1, 2 at λ = 0.6: positive c₁, SED below JSQ, Lyapunov residual small', () => {
    const jsq = heteroRefined(parseModel({ lambda: 0.6, d: 2, servers }));
    const sed = heteroRefined(parseModel({ lambda: 0.6, d: 2, selection: 'sed', servers }));
    expect(jsq.meanResponseTime).toBeCloseTo(0.8787536, 6);
    expect(sed.meanResponseTime).toBeCloseTo(0.7976126, 6);
    expect(jsq.meanResponseTimeCoefficient).toBeGreaterThan(0);
    expect(sed.meanResponseTimeCoefficient).toBeGreaterThan(0);
    expect(jsq.population.lyapunovResidual).toBeLessThan(1e-9);
    // E[T] = E[Q]/λ at every n (Little), so the coefficients too
    expect(jsq.meanResponseTimeCoefficient).toBeCloseTo(jsq.meanQueueLengthCoefficient / 0.6, 12);
  });
});

describe('the speeds’ 1/n term is derived with replacement', () => {
  it('without replacement it is refused (one class shows why: SQ(2)’s ΣV is 3.99 with, 2.77 without at λ = 0.9)', () => {
    const sumV = (sampling: string) => refine(parseModel({ lambda: 0.9, d: 2, sampling })).sumV;
    const one = heteroRefinedOf({ lambda: 0.9, d: 2, rule: 'jsq', fractions: [1], sampling: [1], rates: [1] });
    expect(one.meanQueueLengthCoefficient).toBeCloseTo(sumV('with-replacement'), 8);
    expect(sumV('without-replacement')).toBeLessThan(0.8 * sumV('with-replacement'));
    const without = parseModel({ lambda: 0.6, d: 2, servers, sampling: 'without-replacement' });
    expect(heteroRefinedRefusal(without)).toMatch(/derived for sampling with replacement/);
    expect(() => heteroRefined(without)).toThrow(/derived for sampling with replacement/);
    expect(heteroRefinedRefusal(parseModel({ lambda: 0.6, d: 2, servers }))).toBeUndefined();
    expect(heteroRefinedRefusal(parseModel({ lambda: 0.6, d: 1, selection: 'random', servers }))).toBeUndefined();
  });

  it('fixed-point --speeds --n --sampling without-replacement refuses in one line (it printed the with-replacement c₁)', async () => {
    const r = await runCli('fixed-point --lambda 0.9 --d 2 --speeds 1,1.001 --n 10 --sampling without-replacement --no-progress');
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toMatch(
      /^supermarket: error: --refined: the 1\/n term with server speeds is derived for sampling with replacement/,
    );
    const withR = await runCli('fixed-point --lambda 0.9 --d 2 --speeds 1,1.001 --n 10 --sampling with-replacement --no-progress');
    expect(withR.status, withR.stderr).toBe(0);
    expect(withR.stdout).toMatch(/refined \(n = 10\): E\[T\]_n ≈ E\[T\]∞ \+ c₁\/n = [\d.]+, c₁ = 4\.405/);
  });
});
