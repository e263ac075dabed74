/**
 * One naming of response-time quantiles in JSON (L3 of the fresh-user trial): `fixed-point --quantiles --json` keys
 * them "p50", "p95", "p99" as `simulate --json` keys its percentiles (it gave an array of { p: 0.99 }), and an
 * estimated quantile's asymmetric interval is printed as [lo, hi] only, never as a `halfWidth`.
 */
import { describe, expect, it } from 'vitest';
import { quantilesJson } from '../../src/cli/commands/fixedPoint.ts';
import type { ResponseTimeLaw } from '../../src/meanfield/responseTime.ts';
import { runCli } from './runCli.ts';

describe('quantile keys and intervals in JSON', () => {
  it('fixed-point --quantiles 0.5,0.95,0.99 --json has the keys of simulate --json percentiles', async () => {
    const fp = JSON.parse((await runCli('fixed-point --lambda 0.7 --d 2 --quantiles 0.5,0.95,0.99 --json')).stdout);
    const sim = JSON.parse((await runCli('simulate --lambda 0.7 --d 2 --n 10 --jobs 2000 --replications 2 --json')).stdout);
    expect(Object.keys(fp.responseTime.quantiles)).toEqual(Object.keys(sim.responseTimePercentiles));
    expect(Object.keys(sim.responseTimePercentiles)).toEqual(['p50', 'p95', 'p99']);
    expect(fp.responseTime.quantiles.p95.p).toBe(0.95);
    expect(sim.responseTimePercentiles.p95.halfWidth).toBeUndefined();
  });

  it('an estimated quantile (cavity) gives ci95 [lo, hi] and no halfWidth; so does the PH fit reference estimate', () => {
    // an interval inverted from the cdf: 1.0 [0.9, 1.3] is not 1.0 ± 0.2
    const estimate = { mean: 1, ci95: [0.9, 1.3] as [number, number], halfWidth: 0.2, replications: 8 };
    const law = {
      kind: 'estimate',
      solver: 'cavity',
      source: 's',
      times: [],
      ccdf: [],
      meanResponseTime: 1,
      quantiles: [
        { p: 0.5, value: 1, estimate },
        { p: 0.999, value: 9, measuredError: { low: -0.1, high: 0.1, reference: 'cavity', referenceEstimate: estimate } },
      ],
    } as unknown as ResponseTimeLaw;
    const j = JSON.parse(JSON.stringify(quantilesJson(law)));
    expect(j).toEqual({
      p50: { p: 0.5, value: 1, ci95: [0.9, 1.3] },
      'p99.9': {
        p: 0.999,
        value: 9,
        measuredError: { low: -0.1, high: 0.1, reference: 'cavity', referenceEstimate: { mean: 1, ci95: [0.9, 1.3], replications: 8 } },
      },
    });
  });
});
