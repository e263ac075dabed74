/**
 * The response-time law of redundancy-d, cancel-on-complete (theory.md §16), through the capability query and
 * `solveResponseTime`, and through `supermarket fixed-point --quantiles`. Truth: Gardner et al.'s closed form for
 * independent exponential replicas, P(T > t) = (λ + (1 − λ)e^{(d−1)t})^{−d/(d−1)}; at d = 2 it inverts to
 * t_p = ln(((1 − p)^{−1/2} − λ)/(1 − λ)), and at λ = 1/2 to t_p = ln(2(1 − p)^{−1/2} − 1): ln(2√2 − 1) = 0.603456,
 * ln(4√5 − 1) = 2.072451 and ln 19 = 2.944439 for p = 0.5, 0.95, 0.99. Identical replicas: the law's mean against
 * the fixed point's E[T], and d = 1 against M/M/1.
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { meanFieldCapabilities, solveMeanField } from '../../src/meanfield/index.ts';
import { solveResponseTime } from '../../src/meanfield/responseTime.ts';
import { runCli } from '../cli/runCli.ts';

/** t_p of independent replicas at d = 2, inverted by hand from the closed form. */
const independentQuantileD2 = (lambda: number, p: number) => Math.log(((1 - p) ** -0.5 - lambda) / (1 - lambda));

describe('redundancy-d response-time law', () => {
  it('independent replicas, d = 2, λ = 1/2: quantiles ln(2√2 − 1), ln(4√5 − 1), ln 19 through the capability query', () => {
    const model = parseModel({ lambda: 0.5, d: 2, redundancy: 'cancel-on-complete' });
    const cap = meanFieldCapabilities(model).responseTime;
    expect(cap.available && cap.id).toBe('redundancy-independent');
    expect(cap.available && cap.kind).toBe('exact');
    const law = solveResponseTime(model, { quantiles: [0.5, 0.95, 0.99] });
    const byHand = [Math.log(2 * Math.SQRT2 - 1), Math.log(4 * Math.sqrt(5) - 1), Math.log(19)];
    law.quantiles.forEach((q, i) => {
      expect(Math.abs(q.value - byHand[i])).toBeLessThan(1e-10);
      expect(Math.abs(q.value - independentQuantileD2(0.5, q.p))).toBeLessThan(1e-10);
    });
    // the law's mean is the fixed point's E[T] (−ln(1 − λ)/λ² − 1/λ at d = 2)
    expect(law.meanResponseTime).toBeCloseTo(-Math.log(0.5) / 0.25 - 2, 10);
    expect(law.meanResponseTime).toBeCloseTo(solveMeanField(model).meanResponseTime, 10);
  });

  it('E[S] rescales time: exp@2 at λ = 1/4 has twice the quantiles of λ = 1/2 with mean 1', () => {
    const law = solveResponseTime(parseModel({ lambda: 0.25, d: 2, redundancy: 'cancel-on-complete', service: 'exp@2' }), {
      quantiles: [0.9],
    });
    expect(law.quantiles[0].value).toBeCloseTo(2 * independentQuantileD2(0.5, 0.9), 9);
  });

  it('identical replicas: the law integrates to the fixed point E[T]; d = 1 is M/M/1', () => {
    const mm1 = solveResponseTime(parseModel({ lambda: 0.5, d: 1, redundancy: 'cancel-on-complete', replicas: 'identical' }), {
      quantiles: [0.5],
    });
    expect(mm1.quantiles[0].value).toBeCloseTo(2 * Math.log(2), 9); // M/M/1: T ~ Exp(1 − λ)
    const model = parseModel({ lambda: 0.5, d: 2, redundancy: 'cancel-on-complete', replicas: 'identical' });
    const cap = meanFieldCapabilities(model).responseTime;
    expect(cap.available && cap.id).toBe('redundancy-identical');
    const law = solveResponseTime(model, { times: Array.from({ length: 801 }, (_, j) => j * 0.05), quantiles: [0.5, 0.99] });
    // trapezoid of the tabulated ccdf against the fixed point's ∫F̄^d (two different integrations of one equation)
    let trapezoid = 0;
    for (let j = 1; j < law.times.length; j++) trapezoid += 0.025 * (law.ccdf[j] + law.ccdf[j - 1]);
    expect(Math.abs(trapezoid - solveMeanField(model).meanResponseTime)).toBeLessThan(1e-3);
    expect(law.numericalError).toBeLessThan(1e-4);
    // T = X + min U ≥ X ~ Exp(1): the median is at least ln 2; below the M/M/1 median 2 ln 2 at λ = 1/2
    expect(law.quantiles[0].value).toBeGreaterThan(Math.log(2));
    expect(law.quantiles[0].value).toBeLessThan(2 * Math.log(2));
  });

  it('fixed-point --quantiles prints the closed-form quantiles for redundancy (the capability query, not a side path)', async () => {
    const r = await runCli('fixed-point --lambda 0.5 --d 2 --redundancy cancel-on-complete --quantiles 0.5,0.95,0.99 --json');
    expect(r.status, r.stderr).toBe(0);
    // quantiles keyed by percentile name, as simulate --json keys its percentiles
    const out = JSON.parse(r.stdout) as { responseTime: { kind: string; quantiles: Record<string, { p: number; value: number }> } };
    expect(out.responseTime.kind).toBe('exact');
    expect(Object.keys(out.responseTime.quantiles)).toEqual(['p50', 'p95', 'p99']);
    for (const q of Object.values(out.responseTime.quantiles)) expect(q.value).toBeCloseTo(independentQuantileD2(0.5, q.p), 9);
  });
});
