/**
 * The response-time law with dispatcher memory (theory.md §12, reduction theorem; Hellemans 2021, ch. 6): the law of
 * the model without memory at rate λπ₀^{1/d}. Checked against the Poisson mixture built from the memory model's own
 * tail (P(join a queue of ≥ m) = π₀u_m^d, m ≥ 1), against T = S where π₀ = 0, and against a seeded simulation.
 */
import { describe, expect, it } from 'vitest';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { responseTimeParts } from '../../src/compare/quantileCells.ts';
import { solveResponseTime } from '../../src/meanfield/responseTime.ts';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { parseModel } from '../../src/model/model.ts';
import { simulate } from '../../src/sim/simulate.ts';

/** P(T > t) of SQ(d) FIFO exp (mean 1) with memory from its own tail u: Σ_m Pois(m; t)·P(join ≥ m), no reduction used. */
function memoryCcdf(u: readonly number[], pi0: number, d: number, t: number): number {
  let sum = 0;
  let logPois = -t; // log of e^{−t} t^m/m!
  for (let m = 0; m < u.length; m++) {
    if (m > 0) logPois += Math.log(t) - Math.log(m);
    sum += Math.exp(logPois) * (m === 0 ? 1 : pi0 * u[m] ** d);
  }
  return sum;
}

describe('response-time law with dispatcher memory (reduction theorem, theory.md §12)', () => {
  it('SQ(d) ism:5 at λ = 0.9: the law equals the Poisson mixture over the memory tail, at the reduced rate', () => {
    const model = parseModel({ lambda: 0.9, d: 2, memory: 'ism:5' });
    const cap = meanFieldCapabilities(model).responseTime;
    expect(cap.available && cap.id).toBe('memory-reduction');
    expect(cap.available && cap.name).toMatch(/at the reduced rate λπ₀\^\{1\/d\} \(memory ism:5\)/);
    const mf = solveMeanField(model);
    const { pi0, reducedLambda } = mf.reduction!;
    const times = [0, 0.5, 1, 2, 4, 8];
    const law = solveResponseTime(model, { times, quantiles: [0.5, 0.95, 0.99] });
    expect(law.kind).toBe('exact');
    const u = mf.tail!;
    times.forEach((t, j) => expect(law.ccdf[j]).toBeCloseTo(memoryCcdf(u, pi0, 2, t), 10));
    for (const q of law.quantiles) expect(memoryCcdf(u, pi0, 2, q.value)).toBeCloseTo(1 - q.p, 9);
    // the trial's numbers: p50/p95/p99 of SQ(2) without memory at λπ₀^{1/2}
    const plain = solveResponseTime(parseModel({ lambda: reducedLambda, d: 2 }), { quantiles: [0.5, 0.95, 0.99] });
    expect(law.quantiles.map((q) => q.value)).toEqual(plain.quantiles.map((q) => q.value));
    expect(law.quantiles.map((q) => q.value.toFixed(4))).toEqual(['0.8933', '3.6821', '5.5449']);
    expect(law.meanResponseTime).toBeCloseTo(mf.meanResponseTime, 12);
  });

  it('LL(d) ism:3: the closed form at the reduced rate; classic JIQ (π₀ = 0): T = S, p50 = ln 2', () => {
    const lwl = parseModel({ lambda: 0.9, d: 2, selection: 'lwl', memory: 'ism:3' });
    const law = solveResponseTime(lwl, { quantiles: [0.5] });
    const reduced = solveResponseTime(parseModel({ lambda: solveMeanField(lwl).reduction!.reducedLambda, d: 2, selection: 'lwl' }), {
      quantiles: [0.5],
    });
    expect(law.quantiles[0].value).toBe(reduced.quantiles[0].value);
    const jiq = solveResponseTime(parseModel({ lambda: 0.9, d: 1, selection: 'jiq' }), { quantiles: [0.5, 0.95], times: [1] });
    expect(jiq.quantiles.map((q) => q.value)).toEqual([Math.LN2, Math.log(20)].map((v) => expect.closeTo(v, 12)));
    expect(jiq.ccdf[0]).toBeCloseTo(Math.exp(-1), 14);
    expect(jiq.kind).toBe('exact');
  });

  it('JSQ(d) with PS and memory at d ≥ 2 is refused: FIFO queue lengths give its E[T], not its law', () => {
    const cap = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, memory: 'ism:3', discipline: 'ps' })).responseTime;
    expect(cap.available).toBe(false);
    expect(!cap.available && cap.reason).toMatch(/proved for FIFO servers/);
    // at d = 1 every work-conserving discipline has M/G/1's law at λπ₀ (a cavity estimate for PS)
    expect(
      meanFieldCapabilities(parseModel({ lambda: 0.9, d: 1, selection: 'jiq', memory: 'ism:3', discipline: 'ps' })).responseTime.available,
    ).toBe(true);
  });

  it('compare judges the quantiles of a memory model (no "not judged" note)', () => {
    const parts = responseTimeParts(parseModel({ lambda: 0.9, d: 2, memory: 'ip' }), []);
    expect(parts.note).toBeUndefined();
    expect(parts.responseTime?.solver).toMatch(/reduced rate/);
  });

  it('simulation at n = 1000 (ism:3, λ = 0.9, seeded): p50, p95 within their 95 % CI + 1 % of the reduced law, not of λ', () => {
    const model = parseModel({ lambda: 0.9, d: 2, memory: 'ism:3' });
    const law = solveResponseTime(model, { quantiles: [0.5, 0.95] });
    const r = simulate(model, { n: 1000, jobs: 40_000, replications: 5, seed: 11, warmupTime: 60 });
    const unreduced = solveResponseTime(parseModel({ lambda: 0.9, d: 2 }), { quantiles: [0.5, 0.95] });
    const sims = [r.responseTimePercentiles.p50, r.responseTimePercentiles.p95];
    sims.forEach((e, i) => {
      const v = law.quantiles[i].value;
      expect(e.ci95[0] - 0.01 * v, `p${law.quantiles[i].p}`).toBeLessThanOrEqual(v);
      expect(e.ci95[1] + 0.01 * v, `p${law.quantiles[i].p}`).toBeGreaterThanOrEqual(v);
      // the law without memory at λ is far outside (the test can fail)
      const w = unreduced.quantiles[i].value;
      expect(w < e.ci95[0] - 0.01 * w || w > e.ci95[1] + 0.01 * w).toBe(true);
    });
  });
});
