import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { CCDF_PROBABILITIES, simulate } from '../../src/sim/simulate.ts';

describe('simulate: the pooled empirical response-time ccdf (issue 20: compare draws it at every n)', () => {
  it('gives the pooled quantiles at CCDF_PROBABILITIES, non-decreasing, through the judged p50 and p99; M/M/1 within 5 %', () => {
    const r = simulate(parseModel({ lambda: 0.5, d: 1 }), { n: 20, jobs: 40_000, replications: 3, seed: 5, warmupTime: 50 });
    const { p, t } = r.responseTimeCcdf;
    expect(p).toEqual([...CCDF_PROBABILITIES]);
    expect(p).toHaveLength(52);
    expect(t).toHaveLength(52);
    for (let k = 1; k < t.length; k++) expect(t[k]).toBeGreaterThanOrEqual(t[k - 1]);
    expect(t[p.indexOf(0.5)]).toBe(r.responseTimePercentiles.p50.mean);
    expect(t[p.indexOf(0.99)]).toBe(r.responseTimePercentiles.p99.mean);
    // M/M/1 (d = 1, λ = 0.5): T ~ Exp(1/2), t_p = −2 ln(1 − p); checked in the body where the sample is dense
    for (const q of [0.2, 0.5, 0.8, 0.9]) expect(Math.abs(t[p.indexOf(q)] / (-2 * Math.log(1 - q)) - 1)).toBeLessThan(0.05);
  });
});
