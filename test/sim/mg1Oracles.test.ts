/**
 * d = 1 (random selection: n independent M/G/1 queues) against the exact single-queue results of theory.md §7:
 * Pollaczek–Khinchine for FIFO, the SJF/PSJF/SRPT integrals for exponential sizes (computed here by quadrature,
 * independently of src/analysis), the discipline-free time-average workload E[U] = λE[S²]/(2(1 − ρ)), and the
 * M/M/1 FIFO response-time law T ~ Exp(1 − λ) for the percentiles.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONVENTIONS, type Discipline, type SupermarketModel } from '../../src/model/model.ts';
import type { Estimate } from '../../src/sim/estimate/tInterval.ts';
import { simulate } from '../../src/sim/simulate.ts';

const mg1 = (lambda: number, discipline: Discipline, service: SupermarketModel['service'] = { kind: 'exponential', mean: 1 }): SupermarketModel => ({
  lambda, d: 1, selection: 'random', discipline, service, sampling: 'with-replacement', prediction: { kind: 'exact' }, conventions: DEFAULT_CONVENTIONS,
});

function expectCovers(e: Estimate, truth: number, widen = 1.5, slack = 0): void {
  expect(Math.abs(e.mean - truth), `mean ${e.mean} ± ${e.halfWidth} vs ${truth}`).toBeLessThanOrEqual(widen * e.halfWidth + slack);
}

/**
 * M/M/1 (mean 1) mean response time under SJF, PSJF, SRPT by theory.md §7, with ρ(x) = λ(1 − e^{−x}(1 + x)),
 * m₂(x) = λ(2 − e^{−x}(x² + 2x + 2)), Ḡ(x) = e^{−x}: composite Simpson on [0, 60] (h = 0.002) for the outer
 * integral, trapezoid running sums for ∫_0^x dt/(1 − ρ(t)).
 */
function mm1SizeBased(lambda: number): { sjf: number; psjf: number; srpt: number } {
  const h = 0.002;
  const m = 30000;
  const rho = (x: number) => lambda * (1 - Math.exp(-x) * (1 + x));
  const m2 = (x: number) => lambda * (2 - Math.exp(-x) * (x * x + 2 * x + 2));
  let inner = 0;
  let prev = 1 / (1 - rho(0));
  const sums = { sjf: 0, psjf: 0, srpt: 0 };
  for (let i = 0; i <= m; i++) {
    const x = i * h;
    if (i > 0) {
      const cur = 1 / (1 - rho(x));
      inner += 0.5 * h * (prev + cur);
      prev = cur;
    }
    const g = Math.exp(-x);
    const r = rho(x);
    const sjf = x + (lambda * 2) / (2 * (1 - r) ** 2);
    const psjf = m2(x) / (2 * (1 - r) ** 2) + x / (1 - r);
    const srpt = (m2(x) + lambda * x * x * g) / (2 * (1 - r) ** 2) + inner;
    const w = i === 0 || i === m ? 1 : i % 2 === 1 ? 4 : 2;
    sums.sjf += w * g * sjf;
    sums.psjf += w * g * psjf;
    sums.srpt += w * g * srpt;
  }
  return { sjf: (sums.sjf * h) / 3, psjf: (sums.psjf * h) / 3, srpt: (sums.srpt * h) / 3 };
}

describe('simulate at d = 1 (M/G/1 oracles, theory.md §7)', () => {
  it('mm1SizeBased (test quadrature) reduces to known values: SRPT < PSJF < SJF < FIFO = 2 at λ = 0.5', () => {
    const v = mm1SizeBased(0.5);
    expect(v.srpt).toBeLessThan(v.psjf);
    expect(v.psjf).toBeLessThan(v.sjf);
    expect(v.sjf).toBeLessThan(2);
    // Light traffic: every discipline → E[S] = 1.
    const light = mm1SizeBased(1e-6);
    for (const x of Object.values(light)) expect(x).toBeCloseTo(1, 5);
  });

  it('simulate(M/G/1 FIFO) matches Pollaczek–Khinchine: Weibull k = ½ (E[S²] = 6) → 4 and deterministic → 1.5 at λ = 0.5', () => {
    const weib = simulate(mg1(0.5, 'fifo', { kind: 'weibull', shape: 0.5, mean: 1 }), { n: 50, jobs: 150_000, replications: 6, seed: 31, warmupTime: 300 });
    expectCovers(weib.meanResponseTime, 1 + (0.5 * 6) / (2 * 0.5), 2);
    expectCovers(weib.meanWorkload!, (0.5 * 6) / (2 * 0.5), 2);
    const det = simulate(mg1(0.5, 'fifo', { kind: 'deterministic', mean: 1 }), { n: 50, jobs: 60_000, replications: 5, seed: 32, warmupTime: 100 });
    expectCovers(det.meanResponseTime, 1.5);
    expectCovers(det.meanWorkload!, 0.5);
  });

  it('simulate(M/M/1, every discipline) has E[U] = λE[S²]/(2(1 − ρ)) and the same workload path under each (random selection, common random numbers)', () => {
    const lambda = 0.7;
    const results = (['fifo', 'sjf', 'psjf', 'srpt', 'spjf', 'pspjf', 'sprpt'] as const).map((discipline) =>
      simulate({ ...mg1(lambda, discipline), prediction: { kind: 'exponential' } }, { n: 20, jobs: 30_000, replications: 4, seed: 33, warmupTime: 150 }));
    expectCovers(results[0].meanWorkload!, (lambda * 2) / (2 * (1 - lambda)));
    for (const r of results) expect(r.meanWorkload).toEqual(results[0].meanWorkload);
    // Little's law per discipline.
    for (const r of results) {
      expect(Math.abs(r.meanResponseTime.mean - r.littleResponseTime.mean)).toBeLessThanOrEqual(2 * Math.hypot(r.meanResponseTime.halfWidth, r.littleResponseTime.halfWidth));
    }
  });

  it('simulate(M/M/1 SJF, PSJF, SRPT) matches the integrals of theory.md §7 at λ = 0.7', () => {
    const lambda = 0.7;
    const exact = mm1SizeBased(lambda);
    for (const discipline of ['sjf', 'psjf', 'srpt'] as const) {
      const r = simulate(mg1(lambda, discipline), { n: 20, jobs: 80_000, replications: 5, seed: 34, warmupTime: 150 });
      expectCovers(r.meanResponseTime, exact[discipline], 2);
    }
  });

  it('simulate(M/M/1 FIFO) percentiles match T ~ Exp(1 − λ): p50 = ln 2/(1 − λ), p95 = ln 20/(1 − λ), p99 = ln 100/(1 − λ)', () => {
    const lambda = 0.5;
    const r = simulate(mg1(lambda, 'fifo'), { n: 20, jobs: 60_000, replications: 5, seed: 35, warmupTime: 100 });
    const p = r.responseTimePercentiles;
    expectCovers(p.p50, Math.log(2) / (1 - lambda), 2);
    expectCovers(p.p95, Math.log(20) / (1 - lambda), 2);
    expectCovers(p.p99, Math.log(100) / (1 - lambda), 2);
  });

  it('simulate(exact predictions) is bit-identical between SJF/SPJF, PSJF/PSPJF and SRPT/SPRPT (same seed)', () => {
    const opts = { n: 10, jobs: 20_000, replications: 2, seed: 36, warmupTime: 20 };
    const strip = (r: ReturnType<typeof simulate>) => ({ ...r, wallSeconds: 0, eventsPerSecond: 0, provenance: undefined });
    const service = { kind: 'weibull', shape: 0.5, mean: 1 } as const;
    for (const [a, b] of [['sjf', 'spjf'], ['psjf', 'pspjf'], ['srpt', 'sprpt']] as const) {
      const ra = strip(simulate({ ...mg1(0.8, a, service), d: 2, selection: 'jsq' }, opts));
      const rb = strip(simulate({ ...mg1(0.8, b, service), d: 2, selection: 'jsq' }, opts));
      expect(rb).toEqual(ra);
    }
  });
});
