/**
 * Cross-checks of the mean-field solvers against simulation (issue 4, "Tests"): LWL(d) FIFO with non-exponential
 * sizes against the finite-n simulator at n = 1000, the LWL cavity queue against the LWL fixed point, and the
 * phase-type JSQ(d) ODE with Erlang-2 sizes against the finite-n simulator. (Phase-type JSQ(d) with one exponential
 * phase reducing to the classic closed form is tested in test/meanfield/phaseType/phaseType.test.ts.)
 *
 * Judging (theory.md §8 "Judging agreement", "Without V"): pass if |x̂_n − x_∞| ≤ h_n + c/n, with h_n the 95%
 * Student-t half-width over replications (fixed seeds) and c/n an allowance for the O(1/n) bias
 * E[T_n] − E[T_∞] = c₁/n + O(1/n²), which is positive wherever observed.
 *
 * The allowance c. theory.md §6: for LWL(d) there is no formula; n(E[Q_n] − E[Q_∞]) tends to a constant of JSQ(d)'s
 * order. We take c = (5/λ)·max(1, (1 + SCV)/2) time units: 5/λ bounds the exponential case, scaled by the same
 * variability factor as the default warm-up (src/analysis/warmup.ts, theory.md §8 "Heavy tails" [H]).
 * Measured with simulate (d = 2, 10 replications × 4·10⁵ jobs, seed 1), c = n(E[T_n] − E[T_∞]) ± CI·n:
 * - LWL exponential, λ = 0.8: n = 50 → 2.2 ± 0.3, n = 200 → 1.9 ± 1.1 (JSQ(2): ΣV/λ ≈ 2.0); bound 5/λ = 6.25.
 * - LWL Weibull k = 2, λ = 0.8: n = 50 → 1.3 ± 0.1, n = 200 → 1.0 ± 0.5; bound 6.25.
 * - LWL hyperexponential SCV 4, λ = 0.8: n = 50 → 6.4 ± 0.6, n = 200 → 7.3 ± 3.0; bound 6.25 × 2.5 = 15.6.
 * - JSQ(2) Erlang-2, λ = 0.9: n = 50 → 3.4 ± 0.7 (exponential: ΣV/λ = 4.43); bound 5/λ = 5.56.
 * At n = 1000 these allowances are 0.006–0.016 time units, below 1% of E[T].
 *
 * Budgets (2 cores): about 2–5 s per simulation; warm-ups from simulationWarmup (theory.md §8).
 */
import { describe, expect, it } from 'vitest';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';
import { lwlCavity } from '../../src/meanfield/cavity/index.ts';
import { lwlFixedPoint, lwlWorkloadCcdf } from '../../src/meanfield/lwl/index.ts';
import { phaseTypeJsqFixedPoint } from '../../src/meanfield/phaseType/index.ts';
import { parseModel, type SupermarketModel } from '../../src/model/index.ts';
import { serviceDistribution } from '../../src/model/service/index.ts';
import type { Estimate } from '../../src/stats/tInterval.ts';
import { simulate } from '../../src/sim/index.ts';

const N = 1000;

/** The O(1/n) allowance c/n of the file comment, time units. */
function allowance(model: SupermarketModel, n: number): number {
  const scv = serviceDistribution(model.service).scv;
  return ((5 / model.lambda) * Math.max(1, (1 + scv) / 2)) / n;
}

/** Asserts |estimate − truth| ≤ halfWidth + slack and returns the gap, for the message. */
function agrees(e: Estimate, truth: number, slack: number, what: string): void {
  const gap = Math.abs(e.mean - truth);
  expect(
    gap,
    `${what}: simulated ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)} vs mean field ${truth.toFixed(4)} (allowance ${slack.toFixed(4)})`,
  ).toBeLessThanOrEqual(e.halfWidth + slack);
}

const simAt = (model: SupermarketModel, jobs: number) =>
  simulate(model, { n: N, jobs, replications: 10, seed: 1, warmupTime: simulationWarmup(model).time });

describe('LWL(d) FIFO, non-exponential sizes: solver vs finite-n simulation', () => {
  it('simulate(model, { n: 1000 }) agrees with lwlFixedPoint(model).meanResponseTime within CI + c/n: Weibull k = 2, d = 2, λ = 0.8 (≈ 1.4412)', () => {
    const model = parseModel({ lambda: 0.8, d: 2, selection: 'lwl', service: 'weibull:2' });
    const fp = lwlFixedPoint(model);
    expect(fp.diagnostics.meanResponseTimeGridError).toBeLessThan(1e-4);
    const sim = simAt(model, 1.5e5);
    expect(sim.meanResponseTime.halfWidth / sim.meanResponseTime.mean).toBeLessThan(0.005); // the check has teeth
    agrees(sim.meanResponseTime, fp.meanResponseTime, allowance(model, N), 'Weibull 2');
    // Sizes matter: the exponential LWL(2) value at λ = 0.8 (1.5963, theory.md §4) lies far outside.
    expect(Math.abs(sim.meanResponseTime.mean - 1.5963)).toBeGreaterThan(10 * sim.meanResponseTime.halfWidth);
  });

  it('simulate(model, { n: 1000 }) agrees with lwlFixedPoint(model).meanResponseTime within CI + c/n: hyperexponential SCV 4, d = 2, λ = 0.8 (≈ 2.0083)', () => {
    const model = parseModel({ lambda: 0.8, d: 2, selection: 'lwl', service: 'hyperexp:4' });
    const fp = lwlFixedPoint(model, { method: 'phase-type' }); // H2 is phase-type: the ODE form, cross-checked against Picard
    expect(fp.diagnostics.gridError).toBeLessThan(1e-5);
    const sim = simAt(model, 2e5);
    expect(sim.meanResponseTime.halfWidth / sim.meanResponseTime.mean).toBeLessThan(0.015);
    agrees(sim.meanResponseTime, fp.meanResponseTime, allowance(model, N), 'hyperexponential SCV 4');
    // Little's law on the same runs (a time average, theory.md §8): E[Q]/λ is judged the same way.
    agrees(sim.littleResponseTime, fp.meanResponseTime, allowance(model, N), 'hyperexponential SCV 4, E[Q]/λ');
  });
});

describe('LWL(d) cavity queue vs the LWL fixed point', () => {
  it('lwlCavity(model, { workloadCcdf }) under FIFO matches lwlFixedPoint(model) within its CI: hyperexponential SCV 4, d = 2, λ = 0.8', () => {
    const model = parseModel({ lambda: 0.8, d: 2, selection: 'lwl', service: 'hyperexp:4' });
    const fp = lwlFixedPoint(model);
    const table = lwlWorkloadCcdf(model, { gridCheck: false }); // same default grid as fp, whose grid error is checked below
    expect(fp.diagnostics.meanResponseTimeGridError).toBeLessThan(1e-4);
    const cavity = lwlCavity(model, { horizon: 2e6, seed: 1, workloadCcdf: { grid: table.grid, ccdf: table.workloadCcdf } });
    expect(cavity.method).toBe('cavity');
    expect(cavity.diagnostics.workloadCcdf).toBe('table');
    expect(cavity.meanResponseTime.halfWidth / cavity.meanResponseTime.mean).toBeLessThan(0.006);
    expect(Math.abs(cavity.diagnostics.lag1)).toBeLessThan(0.4);
    agrees(cavity.meanResponseTime, fp.meanResponseTime, fp.diagnostics.meanResponseTimeGridError, 'cavity');
  });
});

describe('phase-type JSQ(d) vs finite-n simulation', () => {
  it('simulate(model, { n: 1000 }) agrees with phaseTypeJsqFixedPoint(model) within CI + c/n: Erlang-2, d = 2, λ = 0.9 (≈ 2.1896)', () => {
    const model = parseModel({ lambda: 0.9, d: 2, service: 'erlang:2' });
    const fp = phaseTypeJsqFixedPoint(model);
    expect(fp.fit).toBe('exact');
    expect(fp.diagnostics.residual).toBeLessThanOrEqual(1e-10);
    const sim = simAt(model, 3e5);
    expect(sim.meanResponseTime.halfWidth / sim.meanResponseTime.mean).toBeLessThan(0.01);
    agrees(sim.meanResponseTime, fp.meanResponseTime, allowance(model, N), 'Erlang-2 JSQ(2)');
    // The tail fractions are time averages with their own CIs: s_1 = λ exactly (busy fraction), s_2 from the ODE.
    agrees(sim.tail[1], 0.9, 0, 's_1');
    agrees(sim.tail[2], fp.tail[2], allowance(model, N), 's_2');
    // Service variability matters: the exponential JSQ(2) value 2.6141 (theory.md §10) lies far outside.
    expect(Math.abs(sim.meanResponseTime.mean - 2.6141)).toBeGreaterThan(10 * sim.meanResponseTime.halfWidth);
  });
});
