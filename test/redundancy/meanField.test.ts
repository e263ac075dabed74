/**
 * The redundancy-d mean field, cancel-on-complete, exponential sizes (meanfield/redundancy.ts, theory.md §16):
 * d = 1 is M/M/1; independent replicas against the d = 2 closed form E[T] = −ln(1 − λ)/λ² − 1/λ (the integral done by
 * hand) and ∫P(T > t)dt; identical replicas: λ_max(2) = 0.81669… (Hellemans' thesis, §3: 0.81669 for exponential
 * sizes), refusal above it in one line, and a small simulation near the limit.
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { meanFieldCapabilities, solveMeanField } from '../../src/meanfield/index.ts';
import {
  identicalRedundancy,
  identicalRedundancyLambdaMax,
  independentRedundancy,
  independentRedundancyCcdf,
} from '../../src/meanfield/redundancy.ts';
import { integrate } from '../../src/numerics/quadrature.ts';
import { simulate } from '../../src/sim/index.ts';

describe('redundancy-d mean field', () => {
  it('d = 1 is M/M/1 for both replica laws', () => {
    for (const lambda of [0.3, 0.8]) {
      expect(independentRedundancy(lambda, 1).meanResponseTime).toBeCloseTo(1 / (1 - lambda), 12);
      expect(identicalRedundancy(lambda, 1).meanResponseTime).toBeCloseTo(1 / (1 - lambda), 12);
    }
  });

  it('independent replicas, d = 2: E[T] = −ln(1 − λ)/λ² − 1/λ, and ∫P(T > t)dt = E[T] (d = 3)', () => {
    for (const lambda of [0.1, 0.5, 0.9, 0.99]) {
      const exact = -Math.log(1 - lambda) / lambda ** 2 - 1 / lambda;
      expect(Math.abs(independentRedundancy(lambda, 2).meanResponseTime - exact)).toBeLessThan(1e-11 * exact);
    }
    const r = independentRedundancy(0.7, 3);
    const area = integrate((t) => independentRedundancyCcdf(0.7, 3, t), 0, 80, { relTolerance: 1e-12 });
    expect(Math.abs(area.value - r.meanResponseTime)).toBeLessThan(1e-9);
    expect(r.busyFraction).toBe(0.7); // F̄(0) = λ: the replicas' work per job is E[S] (memoryless race)
  });

  it('identical replicas: λ_max(2) = 0.81669 (thesis), λ_max decreases in d, busy fraction above λ', () => {
    expect(identicalRedundancyLambdaMax(2)).toBeCloseTo(0.81669, 4);
    expect(identicalRedundancyLambdaMax(3)).toBeLessThan(identicalRedundancyLambdaMax(2));
    const r = identicalRedundancy(0.5, 2);
    expect(r.busyFraction).toBeGreaterThan(0.5);
    expect(r.busyFraction).toBeLessThan(1);
    expect(r.numericalError).toBeLessThan(1e-6);
    // at low load a job usually finds an idle server among two: E[T] → E[S]
    expect(identicalRedundancy(0.01, 2).meanResponseTime).toBeCloseTo(1, 2);
  });

  it('solveMeanField dispatches by the capability query; above λ_max it refuses in one line naming λ_max', () => {
    const cap = meanFieldCapabilities(parseModel({ lambda: 0.5, d: 2, redundancy: 'cancel-on-complete', replicas: 'identical' }));
    expect(cap.fixedPoint.available && cap.fixedPoint.id).toBe('redundancy-identical');
    const m = parseModel({ lambda: 0.85, d: 2, redundancy: 'cancel-on-complete', replicas: 'identical' });
    expect(() => solveMeanField(m)).toThrow(
      /^redundancy-d with identical replicas \(d = 2, exponential sizes\) is stable only for λ < λ_max = 0\.8166\d\d, got λ = 0\.85/,
    );
    const other = meanFieldCapabilities(parseModel({ lambda: 0.5, d: 2, redundancy: 'cancel-on-complete', service: 'det' }));
    expect(other.fixedPoint.available).toBe(false);
    // the mean E[S] rescales time: λ is per server, the load ρ = λE[S]
    const scaled = solveMeanField(parseModel({ lambda: 0.25, d: 2, redundancy: 'cancel-on-complete', service: 'exp@2' }));
    expect(scaled.meanResponseTime).toBeCloseTo(2 * independentRedundancy(0.5, 2).meanResponseTime, 10);
  });

  it('identical replicas: a simulation at n = 300 agrees with the mean field within 3 half-widths + 2/n (λ = 0.5, d = 2)', () => {
    const model = parseModel({ lambda: 0.5, d: 2, redundancy: 'cancel-on-complete', replicas: 'identical' });
    const mf = solveMeanField(model);
    const r = simulate(model, { n: 300, jobs: 30_000, replications: 4, seed: 5, warmupTime: 40 });
    expect(Math.abs(r.meanResponseTime.mean - mf.meanResponseTime)).toBeLessThan(3 * r.meanResponseTime.halfWidth + 2 / 300);
    expect(Math.abs(r.redundancy!.busyFraction.mean - mf.redundancy!.busyFraction)).toBeLessThan(
      3 * r.redundancy!.busyFraction.halfWidth + 2 / 300,
    );
  });
});
